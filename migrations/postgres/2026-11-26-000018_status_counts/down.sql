DROP TRIGGER orders_delete_counts ON orders;
DROP TRIGGER orders_status_counts ON orders;
DROP TRIGGER orders_insert_counts ON orders;
DROP FUNCTION count_order_statuses();
DROP TABLE status_counts;
