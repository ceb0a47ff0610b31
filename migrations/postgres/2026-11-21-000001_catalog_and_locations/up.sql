-- Catalog and locations (PostgreSQL). Money is integer centavos.
CREATE TABLE packagings (
    id INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    filter_type TEXT NOT NULL UNIQUE,        -- keg, bottle or can: the filterByType query value
    image TEXT NOT NULL,
    custom_description TEXT NOT NULL DEFAULT '',
    sort_order INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE product_types (
    id INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL UNIQUE                -- Cans, Full Goods, Keg
);

CREATE TABLE products (
    id INTEGER PRIMARY KEY NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    product_name TEXT NOT NULL,
    sku TEXT NOT NULL UNIQUE,
    brand TEXT NOT NULL,
    size TEXT NOT NULL,
    price BIGINT NOT NULL CHECK (price >= 0),
    price_per_case BIGINT NOT NULL CHECK (price_per_case >= 0),
    unit_per_case INTEGER NOT NULL CHECK (unit_per_case >= 1),
    product_type_id INTEGER NOT NULL REFERENCES product_types (id),
    packaging_id INTEGER NOT NULL REFERENCES packagings (id),
    product_image TEXT,
    description TEXT NOT NULL DEFAULT '',
    custom_description TEXT NOT NULL DEFAULT '',
    orderable BOOLEAN NOT NULL DEFAULT TRUE,
    sold_in_all_areas BOOLEAN NOT NULL DEFAULT TRUE,
    best_seller BOOLEAN NOT NULL DEFAULT FALSE,
    recommended BOOLEAN NOT NULL DEFAULT FALSE,
    sort_order INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX products_packaging ON products (packaging_id);

CREATE TABLE fulfillment_types (
    id INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL UNIQUE                -- Delivery, Pickup
);

CREATE TABLE provinces (
    id INTEGER PRIMARY KEY NOT NULL,
    psgc_code TEXT NOT NULL UNIQUE,
    province_name TEXT NOT NULL
);

-- City and barangay ids are their PSGC codes.
CREATE TABLE cities (
    id BIGINT PRIMARY KEY NOT NULL,
    province_id INTEGER NOT NULL REFERENCES provinces (id),
    city_name TEXT NOT NULL
);
CREATE INDEX cities_province ON cities (province_id);

CREATE TABLE barangays (
    id BIGINT PRIMARY KEY NOT NULL,
    city_id BIGINT NOT NULL REFERENCES cities (id),
    barangay_name TEXT NOT NULL
);
CREATE INDEX barangays_city ON barangays (city_id);

CREATE TABLE streets (
    id INTEGER PRIMARY KEY NOT NULL,
    barangay_id BIGINT NOT NULL REFERENCES barangays (id),
    street_name TEXT NOT NULL
);
CREATE INDEX streets_barangay ON streets (barangay_id);

-- Which cities are served, and with which fulfillment types.
CREATE TABLE served_areas (
    city_id BIGINT NOT NULL REFERENCES cities (id),
    fulfillment_type_id INTEGER NOT NULL REFERENCES fulfillment_types (id),
    PRIMARY KEY (city_id, fulfillment_type_id)
);

-- Products with sold_in_all_areas = false are sold only in the cities listed here.
CREATE TABLE product_areas (
    product_id INTEGER NOT NULL REFERENCES products (id),
    city_id BIGINT NOT NULL REFERENCES cities (id),
    PRIMARY KEY (product_id, city_id)
);

-- A deposit applies to one product or to every product of one packaging.
CREATE TABLE deposits (
    id INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    amount BIGINT NOT NULL CHECK (amount >= 0),
    product_id INTEGER REFERENCES products (id),
    packaging_id INTEGER REFERENCES packagings (id),
    CHECK ((product_id IS NULL) <> (packaging_id IS NULL))
);

CREATE TABLE banners (
    id INTEGER PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    desktop_image TEXT NOT NULL,
    mobile_image TEXT NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0
);
