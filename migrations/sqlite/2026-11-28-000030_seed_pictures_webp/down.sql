UPDATE products SET product_image = substr(product_image, 1, length(product_image) - 5) || '.svg'
WHERE product_image LIKE '/img/products/%.webp';
