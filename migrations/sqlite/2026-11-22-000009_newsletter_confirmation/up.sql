-- Double opt-in for the newsletter: an address counts once its owner opens the emailed link. The
-- link's token is stored only as its SHA-256. Addresses that signed up before this were told they
-- were added, so they count as confirmed.
ALTER TABLE newsletter_subscriptions ADD COLUMN confirmed_at TEXT;
ALTER TABLE newsletter_subscriptions ADD COLUMN token_hash TEXT;
ALTER TABLE newsletter_subscriptions ADD COLUMN token_expires_at BIGINT;
UPDATE newsletter_subscriptions SET confirmed_at = created_at;
CREATE UNIQUE INDEX newsletter_subscriptions_by_token ON newsletter_subscriptions (token_hash);
