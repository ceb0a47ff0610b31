-- Refunds of online payments, asked for by a manager through PayMongo's refund call
-- (docs/payments.md): a payment to refund (one not taken as its order's, or one of an order
-- cancelled since) is refunded whole, once. attempt numbers the idempotency key sent: a refund
-- PayMongo refused is asked again under the next, one whose answer was lost under the same.
-- state: asking (sent, no answer yet), pending or succeeded (PayMongo's), failed (PayMongo
-- refused it or could not make it: detail says why, and it may be asked again).
CREATE TABLE refunds (
    payment_id TEXT PRIMARY KEY NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    amount BIGINT NOT NULL,
    reason TEXT NOT NULL,
    notes TEXT NOT NULL DEFAULT '',
    staff_id BIGINT REFERENCES staff (id) ON DELETE SET NULL,
    attempt INTEGER NOT NULL DEFAULT 1,
    gateway_id TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'asking',
    detail TEXT NOT NULL DEFAULT '',
    asked_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX refunds_by_order ON refunds (order_id);
CREATE INDEX refunds_by_gateway_id ON refunds (gateway_id);
CREATE INDEX refunds_by_asked_at ON refunds (asked_at);

-- The staff see refunds on the order's page and the day report: a refund moves the work version.
CREATE TRIGGER refunds_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON refunds
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
