DROP TRIGGER orders_delete_counts;
DROP TRIGGER orders_status_counts;
DROP TRIGGER orders_insert_counts;
DROP TABLE status_counts;
