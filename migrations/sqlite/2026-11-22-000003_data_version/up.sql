-- The data version: one number bumped by every write to the catalog or the content, so that each
-- app server can tell, by reading one row at most once a second, that what it holds in memory
-- (cached pages and answers) is out of date.
CREATE TABLE data_version (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO data_version (id, version) VALUES (1, 1);

CREATE TRIGGER packagings_insert_bumps_data_version AFTER INSERT ON packagings
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER packagings_update_bumps_data_version AFTER UPDATE ON packagings
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER packagings_delete_bumps_data_version AFTER DELETE ON packagings
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER product_types_insert_bumps_data_version AFTER INSERT ON product_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER product_types_update_bumps_data_version AFTER UPDATE ON product_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER product_types_delete_bumps_data_version AFTER DELETE ON product_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER products_insert_bumps_data_version AFTER INSERT ON products
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER products_update_bumps_data_version AFTER UPDATE ON products
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER products_delete_bumps_data_version AFTER DELETE ON products
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER deposits_insert_bumps_data_version AFTER INSERT ON deposits
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER deposits_update_bumps_data_version AFTER UPDATE ON deposits
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER deposits_delete_bumps_data_version AFTER DELETE ON deposits
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER banners_insert_bumps_data_version AFTER INSERT ON banners
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER banners_update_bumps_data_version AFTER UPDATE ON banners
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER banners_delete_bumps_data_version AFTER DELETE ON banners
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER fulfillment_types_insert_bumps_data_version AFTER INSERT ON fulfillment_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER fulfillment_types_update_bumps_data_version AFTER UPDATE ON fulfillment_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER fulfillment_types_delete_bumps_data_version AFTER DELETE ON fulfillment_types
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER provinces_insert_bumps_data_version AFTER INSERT ON provinces
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER provinces_update_bumps_data_version AFTER UPDATE ON provinces
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER provinces_delete_bumps_data_version AFTER DELETE ON provinces
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER cities_insert_bumps_data_version AFTER INSERT ON cities
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER cities_update_bumps_data_version AFTER UPDATE ON cities
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER cities_delete_bumps_data_version AFTER DELETE ON cities
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER barangays_insert_bumps_data_version AFTER INSERT ON barangays
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER barangays_update_bumps_data_version AFTER UPDATE ON barangays
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER barangays_delete_bumps_data_version AFTER DELETE ON barangays
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER streets_insert_bumps_data_version AFTER INSERT ON streets
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER streets_update_bumps_data_version AFTER UPDATE ON streets
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER streets_delete_bumps_data_version AFTER DELETE ON streets
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER served_areas_insert_bumps_data_version AFTER INSERT ON served_areas
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER served_areas_update_bumps_data_version AFTER UPDATE ON served_areas
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER served_areas_delete_bumps_data_version AFTER DELETE ON served_areas
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER product_areas_insert_bumps_data_version AFTER INSERT ON product_areas
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER product_areas_update_bumps_data_version AFTER UPDATE ON product_areas
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER product_areas_delete_bumps_data_version AFTER DELETE ON product_areas
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER site_texts_insert_bumps_data_version AFTER INSERT ON site_texts
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER site_texts_update_bumps_data_version AFTER UPDATE ON site_texts
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER site_texts_delete_bumps_data_version AFTER DELETE ON site_texts
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER holidays_insert_bumps_data_version AFTER INSERT ON holidays
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER holidays_update_bumps_data_version AFTER UPDATE ON holidays
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER holidays_delete_bumps_data_version AFTER DELETE ON holidays
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER notices_insert_bumps_data_version AFTER INSERT ON notices
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER notices_update_bumps_data_version AFTER UPDATE ON notices
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER notices_delete_bumps_data_version AFTER DELETE ON notices
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER promos_insert_bumps_data_version AFTER INSERT ON promos
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER promos_update_bumps_data_version AFTER UPDATE ON promos
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER promos_delete_bumps_data_version AFTER DELETE ON promos
BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END;
