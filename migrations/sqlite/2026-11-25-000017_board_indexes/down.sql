DROP INDEX orders_by_barangay;
DROP INDEX orders_by_status;
CREATE INDEX orders_by_status ON orders (status, id);
