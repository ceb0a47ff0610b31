export function ContactUs() {
  return (
    <article className="prose">
      <h1>Contact Us</h1>
      <p>Our customer care team answers daily from 8:00 AM to 10:00 PM.</p>
      <dl className="contact">
        <dt>Phone and Viber</dt>
        <dd>
          <a href="tel:+639171234567">0917 123 4567</a>
        </dd>
        <dt>Email</dt>
        <dd>
          <a href="mailto:hello@talabrewing.ph">hello@talabrewing.ph</a>
        </dd>
        <dt>Brewery and pickup point</dt>
        <dd>12 J.P. Rizal Street, Barangka, Marikina City, Metro Manila</dd>
        <dt>Orders and deliveries</dt>
        <dd>
          Have your order number ready. For questions about deposits and empties, see the <a href="/faqs">FAQs</a>.
        </dd>
      </dl>
    </article>
  );
}
