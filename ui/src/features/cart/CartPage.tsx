/** SPEC 2's cart page (issue 15). */
export function CartPage() {
  return <h1>Cart</h1>;
}
