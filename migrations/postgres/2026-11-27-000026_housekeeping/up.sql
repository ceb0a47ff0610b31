-- Housekeeping (db::housekeeping): one row, the lease of the app server running a sweep now
-- (unix time until which it holds it; 0: nobody) and when the last sweep ended; and the indexes
-- by which each sweep finds its due rows a page at a time, at a year's rows as at a day's.
CREATE TABLE housekeeping (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    lease_until BIGINT NOT NULL DEFAULT 0,
    last_run_at BIGINT NOT NULL DEFAULT 0
);
INSERT INTO housekeeping (id, lease_until, last_run_at) VALUES (1, 0, 0);
CREATE INDEX rate_limits_by_window ON rate_limits (window_start);
CREATE INDEX registrations_by_expiry ON registrations (expires_at);
CREATE INDEX password_resets_by_expiry ON password_resets (expires_at);
CREATE INDEX newsletter_unconfirmed ON newsletter_subscriptions (token_expires_at);
CREATE INDEX mail_outbox_by_age ON mail_outbox (created_at);
