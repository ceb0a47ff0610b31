DROP TABLE audit_log;
DROP TABLE staff_recovery_codes;
DROP TABLE staff_sessions;
DROP TABLE staff_links;
DROP TABLE staff;
