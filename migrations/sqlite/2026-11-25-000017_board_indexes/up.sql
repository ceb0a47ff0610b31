-- The orders board at 100,000 orders (`make bench` 8): every filtered first page reads an index,
-- not the orders one by one.
-- By status, newest first, with when each was placed: a status and days scan the status's entries
-- from the newest without reading an order until one is within the days (a day a month back
-- read 25,000 orders, 23 ms on SQLite; now 3 ms).
DROP INDEX orders_by_status;
CREATE INDEX orders_by_status ON orders (status, id, placed_at);
-- By barangay, newest first: a barangay (and a status there) reads its own orders (a barangay's
-- completed orders read 25,000 orders, 20 ms; now under 1 ms).
CREATE INDEX orders_by_barangay ON orders (barangay_id, id);
