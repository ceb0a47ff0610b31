-- Carts, checkout and orders. Money is integer centavos; times are Unix seconds.

-- How items group into cases (a keg, a case of bottles, a box of cans), one row per packaging: the
-- case's name and unit noun, its size and the units each case must hold (domain::cases).
CREATE TABLE case_types (
    packaging_id INTEGER PRIMARY KEY NOT NULL REFERENCES packagings (id),
    name TEXT NOT NULL,
    unit_noun TEXT NOT NULL,
    unit_per_case INTEGER NOT NULL CHECK (unit_per_case >= 1),
    minimum_order_qty INTEGER NOT NULL CHECK (minimum_order_qty >= 1)
);

-- The delivery fee of a served city for a fulfillment type (pickup has no row: no fee).
CREATE TABLE delivery_fees (
    city_id BIGINT NOT NULL REFERENCES cities (id),
    fulfillment_type_id INTEGER NOT NULL REFERENCES fulfillment_types (id),
    amount BIGINT NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (city_id, fulfillment_type_id)
);

-- Windows in which checkout takes no orders, Manila time 'YYYY-MM-DD HH:MM', both minutes
-- included. Operating hours are the settings checkout_opens / checkout_closes ('HH:MM').
CREATE TABLE checkout_blackouts (
    id INTEGER PRIMARY KEY NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL,
    CHECK (starts_at <= ends_at)
);

-- A cart belongs to a member (user_id) or to a browser (guest_key: the SHA-256 of the long-lived
-- cart cookie, or of the session token for a client without cookies). revision counts changes:
-- an order is placed from one revision of one cart, once.
CREATE TABLE carts (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id BIGINT UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    guest_key TEXT UNIQUE,
    barangay_id BIGINT REFERENCES barangays (id),
    street_id INTEGER REFERENCES streets (id),
    revision BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    CHECK ((user_id IS NULL) <> (guest_key IS NULL))
);
CREATE INDEX carts_by_update ON carts (updated_at);

-- Quantities are units (bottles, cans, kegs).
CREATE TABLE cart_items (
    cart_id BIGINT NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES products (id),
    quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 999),
    added_at BIGINT NOT NULL,
    PRIMARY KEY (cart_id, product_id)
);

-- Empty cases the shopper returns, per deposit row.
CREATE TABLE cart_empties (
    cart_id BIGINT NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    deposit_id INTEGER NOT NULL REFERENCES deposits (id),
    cases INTEGER NOT NULL CHECK (cases BETWEEN 1 AND 999),
    PRIMARY KEY (cart_id, deposit_id)
);

-- An order keeps its own copy of what was bought and what it cost. A member's order is theirs
-- (user_id); a guest reaches theirs by a key whose SHA-256 is access_hash.
-- idempotency_key names the cart revision it was placed from: one order per revision.
CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    access_hash TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    fulfillment_type_id INTEGER NOT NULL REFERENCES fulfillment_types (id),
    fulfillment_name TEXT NOT NULL,
    payment TEXT NOT NULL,
    contact_name TEXT NOT NULL,
    mobile TEXT NOT NULL,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    barangay_id BIGINT NOT NULL REFERENCES barangays (id),
    street_id INTEGER REFERENCES streets (id),
    place TEXT NOT NULL,
    notes TEXT NOT NULL,
    items_total BIGINT NOT NULL,
    deposits_total BIGINT NOT NULL,
    delivery_fee BIGINT NOT NULL,
    total BIGINT NOT NULL,
    placed_at BIGINT NOT NULL
);
CREATE INDEX orders_by_user ON orders (user_id, id);

CREATE TABLE order_items (
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    product_id INTEGER NOT NULL,
    product_name TEXT NOT NULL,
    sku TEXT NOT NULL,
    case_name TEXT NOT NULL,
    unit_price BIGINT NOT NULL,
    price_per_case BIGINT NOT NULL,
    unit_per_case INTEGER NOT NULL,
    quantity INTEGER NOT NULL,
    amount BIGINT NOT NULL,
    PRIMARY KEY (order_id, line)
);

-- Deposits charged and empties credited (negative), as the order summary listed them.
CREATE TABLE order_charges (
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    amount BIGINT NOT NULL,
    PRIMARY KEY (order_id, line)
);

CREATE TABLE order_status_history (
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    status TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (order_id, seq)
);

CREATE TRIGGER case_types_insert_bumps_data_version AFTER INSERT ON case_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER case_types_update_bumps_data_version AFTER UPDATE ON case_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER case_types_delete_bumps_data_version AFTER DELETE ON case_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER delivery_fees_insert_bumps_data_version AFTER INSERT ON delivery_fees
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER delivery_fees_update_bumps_data_version AFTER UPDATE ON delivery_fees
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER delivery_fees_delete_bumps_data_version AFTER DELETE ON delivery_fees
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER checkout_blackouts_insert_bumps_data_version AFTER INSERT ON checkout_blackouts
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER checkout_blackouts_update_bumps_data_version AFTER UPDATE ON checkout_blackouts
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER checkout_blackouts_delete_bumps_data_version AFTER DELETE ON checkout_blackouts
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
