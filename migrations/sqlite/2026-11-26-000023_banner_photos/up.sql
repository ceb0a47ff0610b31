-- A banner's photo, uploaded by a manager, as a product's (000020): its name in MEDIA_DIR and the
-- original's size upright. It takes the place of both drawings (desktop_image, mobile_image) on
-- every screen; none: the drawings. The three are set together or not at all.
ALTER TABLE banners ADD COLUMN photo TEXT;
ALTER TABLE banners ADD COLUMN photo_width INTEGER;
ALTER TABLE banners ADD COLUMN photo_height INTEGER;
-- SQLite adds no CHECK to an existing table: triggers refuse a photo set in part.
CREATE TRIGGER banners_photo_whole_insert BEFORE INSERT ON banners
WHEN NOT ((NEW.photo IS NULL AND NEW.photo_width IS NULL AND NEW.photo_height IS NULL)
    OR (NEW.photo IS NOT NULL AND NEW.photo_width IS NOT NULL AND NEW.photo_height IS NOT NULL
        AND NEW.photo_width > 0 AND NEW.photo_height > 0))
BEGIN
    SELECT RAISE(ABORT, 'banners_photo_whole');
END;
CREATE TRIGGER banners_photo_whole_update BEFORE UPDATE OF photo, photo_width, photo_height ON banners
WHEN NOT ((NEW.photo IS NULL AND NEW.photo_width IS NULL AND NEW.photo_height IS NULL)
    OR (NEW.photo IS NOT NULL AND NEW.photo_width IS NOT NULL AND NEW.photo_height IS NOT NULL
        AND NEW.photo_width > 0 AND NEW.photo_height > 0))
BEGIN
    SELECT RAISE(ABORT, 'banners_photo_whole');
END;
