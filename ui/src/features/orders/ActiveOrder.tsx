/** An order's page (issue 15 section 6). */
export function ActiveOrder() {
  return <h1>Your order</h1>;
}
