// The catalog's public face: what other features may use (ESLint refuses any other file of this
// folder from outside it; its queries are queries.ts). A product's card with its Add to Cart, the
// grid of cards, and the price a product is listed with.
export { ProductCard, ProductGrid } from './ProductCard';
export { listPrice } from './price';
