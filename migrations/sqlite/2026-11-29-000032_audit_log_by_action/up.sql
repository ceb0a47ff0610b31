-- The audit log by kind of write, newest first within each: the log filtered by a kind reads only
-- its entries, and the kinds there are (the filter's list) are read from this index alone.
CREATE INDEX audit_log_by_action ON audit_log (action, id);
