ALTER TABLE products DROP COLUMN created_on;
DROP TABLE settings;
DROP TABLE newsletter_subscriptions;
DROP TABLE promos;
DROP TABLE notices;
DROP TABLE holidays;
DROP TABLE site_texts;
