-- Texts staff edit (policy, terms, about us), dated windows (holidays, notices, promos),
-- newsletter subscriptions and switches (maintenance). Dates are ISO text, YYYY-MM-DD, in
-- Asia/Manila business time.
CREATE TABLE site_texts (
    key TEXT PRIMARY KEY NOT NULL,           -- policy_agreement, terms_and_conditions, about_us
    title TEXT NOT NULL,
    body TEXT NOT NULL
);

CREATE TABLE holidays (
    id INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    CHECK (starts_on <= ends_on)
);

CREATE TABLE notices (
    id INTEGER PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    CHECK (starts_on <= ends_on)
);

CREATE TABLE promos (
    id INTEGER PRIMARY KEY NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products (id),
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    CHECK (starts_on <= ends_on)
);

CREATE TABLE newsletter_subscriptions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);

CREATE TABLE settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

ALTER TABLE products ADD COLUMN created_on TEXT NOT NULL DEFAULT '2026-01-01';
