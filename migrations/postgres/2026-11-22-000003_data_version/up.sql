-- The data version: one number bumped by every write to the catalog or the content, so that each
-- app server can tell, by reading one row at most once a second, that what it holds in memory
-- (cached pages and answers) is out of date.
CREATE TABLE data_version (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO data_version (id, version) VALUES (1, 1);

CREATE FUNCTION bump_data_version() RETURNS trigger AS $$
BEGIN
    UPDATE data_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER packagings_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON packagings
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER product_types_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_types
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER products_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER deposits_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON deposits
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER banners_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON banners
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER fulfillment_types_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fulfillment_types
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER provinces_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON provinces
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER cities_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cities
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER barangays_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON barangays
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER streets_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON streets
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER served_areas_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON served_areas
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER product_areas_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_areas
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER site_texts_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_texts
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER holidays_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON holidays
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER notices_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON notices
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER promos_bumps_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON promos
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
