-- A product's photo, uploaded by a manager: the name its files are kept under in MEDIA_DIR (the
-- first 128 bits of the SHA-256 of the original's bytes, 32 hex digits; crates/media) and the original's size upright,
-- which the pages' width and height and the sizes offered are made from. No photo: the product
-- keeps its drawing (product_image). The three are set together or not at all.
ALTER TABLE products ADD COLUMN photo TEXT;
ALTER TABLE products ADD COLUMN photo_width INTEGER;
ALTER TABLE products ADD COLUMN photo_height INTEGER;
ALTER TABLE products ADD CONSTRAINT products_photo_whole CHECK (
    (photo IS NULL AND photo_width IS NULL AND photo_height IS NULL)
    OR (photo IS NOT NULL AND photo_width IS NOT NULL AND photo_height IS NOT NULL
        AND photo_width > 0 AND photo_height > 0)
);
