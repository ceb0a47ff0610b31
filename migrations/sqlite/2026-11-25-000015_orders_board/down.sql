DROP TABLE order_notes;
ALTER TABLE order_status_history DROP COLUMN note;
DROP INDEX orders_by_time;
DROP INDEX orders_by_status;
