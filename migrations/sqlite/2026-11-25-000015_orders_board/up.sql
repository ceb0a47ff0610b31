-- The staff's orders board: orders found by status and by when they were placed, the reason a
-- step was taken (a cancellation's), and the staff's notes on an order.
CREATE INDEX orders_by_status ON orders (status, id);
CREATE INDEX orders_by_time ON orders (placed_at);

ALTER TABLE order_status_history ADD COLUMN note TEXT NOT NULL DEFAULT '';

-- Notes the staff keep on an order (never shown to the shopper).
CREATE TABLE order_notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    staff_id BIGINT NOT NULL REFERENCES staff (id),
    at BIGINT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX order_notes_by_order ON order_notes (order_id, id);
