DROP TABLE order_containers;
DROP TABLE run_stops;
DROP TABLE runs;
