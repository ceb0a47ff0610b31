ALTER TABLE runs DROP COLUMN close_note;
