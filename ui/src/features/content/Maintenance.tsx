export function Maintenance() {
  return (
    <section className="maintenance">
      <h1>We're Brewing Something For You</h1>
      <p>The store is being updated. Please come back in a little while — your cart and account are safe.</p>
      <p>
        For urgent orders call <a href="tel:+639171234567">0917 123 4567</a>.
      </p>
    </section>
  );
}
