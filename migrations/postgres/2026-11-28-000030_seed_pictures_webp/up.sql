-- The seed's product drawings are WebP pictures now (public/img/products/*.webp); a store seeded
-- before points at the SVG files, which are gone. Only the seed's own folder is named: a product
-- photo the staff uploaded lives in `photo`, not here.
UPDATE products SET product_image = substr(product_image, 1, length(product_image) - 4) || '.webp'
WHERE product_image LIKE '/img/products/%.svg';
