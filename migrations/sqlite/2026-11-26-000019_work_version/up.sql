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

-- SQLite has row triggers only: each row written bumps it.
CREATE TRIGGER orders_insert_bumps_work_version AFTER INSERT ON orders
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER orders_update_bumps_work_version AFTER UPDATE ON orders
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER orders_delete_bumps_work_version AFTER DELETE ON orders
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_items_insert_bumps_work_version AFTER INSERT ON order_items
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_items_update_bumps_work_version AFTER UPDATE ON order_items
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_items_delete_bumps_work_version AFTER DELETE ON order_items
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_charges_insert_bumps_work_version AFTER INSERT ON order_charges
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_charges_update_bumps_work_version AFTER UPDATE ON order_charges
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_charges_delete_bumps_work_version AFTER DELETE ON order_charges
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_containers_insert_bumps_work_version AFTER INSERT ON order_containers
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_containers_update_bumps_work_version AFTER UPDATE ON order_containers
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_containers_delete_bumps_work_version AFTER DELETE ON order_containers
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_notes_insert_bumps_work_version AFTER INSERT ON order_notes
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_notes_update_bumps_work_version AFTER UPDATE ON order_notes
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_notes_delete_bumps_work_version AFTER DELETE ON order_notes
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_status_history_insert_bumps_work_version AFTER INSERT ON order_status_history
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_status_history_update_bumps_work_version AFTER UPDATE ON order_status_history
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER order_status_history_delete_bumps_work_version AFTER DELETE ON order_status_history
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER runs_insert_bumps_work_version AFTER INSERT ON runs
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER runs_update_bumps_work_version AFTER UPDATE ON runs
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER runs_delete_bumps_work_version AFTER DELETE ON runs
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER run_stops_insert_bumps_work_version AFTER INSERT ON run_stops
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER run_stops_update_bumps_work_version AFTER UPDATE ON run_stops
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER run_stops_delete_bumps_work_version AFTER DELETE ON run_stops
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER staff_insert_bumps_work_version AFTER INSERT ON staff
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER staff_update_bumps_work_version AFTER UPDATE ON staff
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER staff_delete_bumps_work_version AFTER DELETE ON staff
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER audit_log_insert_bumps_work_version AFTER INSERT ON audit_log
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER audit_log_update_bumps_work_version AFTER UPDATE ON audit_log
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER audit_log_delete_bumps_work_version AFTER DELETE ON audit_log
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER settings_insert_bumps_work_version AFTER INSERT ON settings
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER settings_update_bumps_work_version AFTER UPDATE ON settings
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER settings_delete_bumps_work_version AFTER DELETE ON settings
BEGIN
    UPDATE work_version SET version = version + 1 WHERE id = 1;
END;
