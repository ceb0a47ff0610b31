-- Paying online through PayMongo (docs/payments.md). An order paid online is placed as
-- awaiting_payment and moves to placed when PayMongo's webhook reports its payment.
--
-- The Checkout Sessions an order was given: one an attempt (paying again after a session expired
-- or failed makes the next), each with PayMongo's id and the address of its hosted page.
-- state: open, paid or expired.
CREATE TABLE checkout_sessions (
    id TEXT PRIMARY KEY NOT NULL,
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    url TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'open',
    UNIQUE (order_id, attempt)
);

-- The payments PayMongo reported, each once (its pay_ id): amount in centavos, currency, the
-- method the shopper paid with, when it was paid and when the store learnt it. problem is empty
-- for a payment taken as the order's; otherwise why it was not (a wrong amount or currency, an
-- order no longer awaiting payment): staff see it and refund it.
CREATE TABLE payments (
    id TEXT PRIMARY KEY NOT NULL,
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    checkout_session_id TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    method TEXT NOT NULL,
    paid_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    problem TEXT NOT NULL DEFAULT ''
);
CREATE INDEX payments_by_order ON payments (order_id);

-- The webhook events taken, by PayMongo's evt_ id: an event sent again changes nothing.
CREATE TABLE payment_events (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    received_at BIGINT NOT NULL
);

-- The staff see payments (a flagged one to refund): a payment moves the work version as an
-- order's writes do.
CREATE TRIGGER payments_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON payments
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
