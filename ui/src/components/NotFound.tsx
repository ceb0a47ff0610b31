export function NotFound() {
  return (
    <section className="not-found">
      <h1>Page not found</h1>
      <p>We could not find the page you were looking for. It may have moved, or the address may be mistyped.</p>
      <p>
        <a className="button" href="/buy-beer">
          Browse our beers
        </a>
      </p>
    </section>
  );
}
