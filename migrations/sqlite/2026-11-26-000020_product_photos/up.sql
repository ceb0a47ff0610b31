-- A product's photo, uploaded by a manager: the name its files are kept under in MEDIA_DIR (the
-- first 128 bits of the SHA-256 of the original's bytes, 32 hex digits; crates/media) and the original's size upright,
-- which the pages' width and height and the sizes offered are made from. No photo: the product
-- keeps its drawing (product_image). The three are set together or not at all.
ALTER TABLE products ADD COLUMN photo TEXT;
ALTER TABLE products ADD COLUMN photo_width INTEGER;
ALTER TABLE products ADD COLUMN photo_height INTEGER;
-- SQLite adds no CHECK to an existing table: triggers refuse a photo set in part.
CREATE TRIGGER products_photo_whole_insert BEFORE INSERT ON products
WHEN NOT ((NEW.photo IS NULL AND NEW.photo_width IS NULL AND NEW.photo_height IS NULL)
    OR (NEW.photo IS NOT NULL AND NEW.photo_width IS NOT NULL AND NEW.photo_height IS NOT NULL
        AND NEW.photo_width > 0 AND NEW.photo_height > 0))
BEGIN
    SELECT RAISE(ABORT, 'products_photo_whole');
END;
CREATE TRIGGER products_photo_whole_update BEFORE UPDATE OF photo, photo_width, photo_height ON products
WHEN NOT ((NEW.photo IS NULL AND NEW.photo_width IS NULL AND NEW.photo_height IS NULL)
    OR (NEW.photo IS NOT NULL AND NEW.photo_width IS NOT NULL AND NEW.photo_height IS NOT NULL
        AND NEW.photo_width > 0 AND NEW.photo_height > 0))
BEGIN
    SELECT RAISE(ABORT, 'products_photo_whole');
END;
