/** The member's orders, newest first, paged (issue 15 section 6). */
export function MyOrders() {
  return <h1>My Orders</h1>;
}
