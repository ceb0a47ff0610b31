/** The checkout page (issue 15 section 5). */
export function Checkout() {
  return <h1>Checkout</h1>;
}
