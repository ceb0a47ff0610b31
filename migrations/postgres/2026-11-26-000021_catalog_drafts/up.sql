-- A catalog file a manager uploaded in the browser, kept between its dry run (the page listing
-- every change it would make) and its import: only its uploader sees or applies it, and it is
-- gone once applied, or a day after it was uploaded (each upload sweeps older ones).
CREATE TABLE catalog_drafts (
    id TEXT PRIMARY KEY NOT NULL,
    staff_id BIGINT NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    file_name TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX catalog_drafts_by_age ON catalog_drafts (created_at);
