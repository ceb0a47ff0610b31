DROP INDEX newsletter_subscriptions_by_token;
ALTER TABLE newsletter_subscriptions DROP COLUMN token_expires_at;
ALTER TABLE newsletter_subscriptions DROP COLUMN token_hash;
ALTER TABLE newsletter_subscriptions DROP COLUMN confirmed_at;
