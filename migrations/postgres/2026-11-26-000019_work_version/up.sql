-- The work version: one number bumped by every write to what the staff's pages show (orders, their
-- lines, charges, containers, notes and history, runs and their stops, the staff, the audit log,
-- the settings). The staff's reads (the board, a run sheet, the dashboard) are kept under it
-- with the data version (the catalog's and places' names), so a reload of an unchanged board is
-- answered from memory, and the first read after any write, on any app server, reads afresh:
-- each staff read reads this row first (one row by its key), never a copy polled in the
-- background. Tables of a shopper's own (sessions, carts, addresses) do not move it.
CREATE TABLE work_version (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO work_version (id, version) VALUES (1, 1);

-- Once per statement: a bulk status move bumps it once. Like `status_counts`, a writing
-- transaction holds the row until it commits.
CREATE FUNCTION bump_work_version() RETURNS trigger AS $$
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER orders_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON orders
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER order_items_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_items
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER order_charges_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_charges
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER order_containers_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_containers
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER order_notes_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_notes
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER order_status_history_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_status_history
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER runs_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON runs
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER run_stops_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON run_stops
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER staff_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON staff
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER audit_log_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
CREATE TRIGGER settings_bumps_work_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settings
    FOR EACH STATEMENT EXECUTE FUNCTION bump_work_version();
