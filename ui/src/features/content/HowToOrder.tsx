export function HowToOrder() {
  return (
    <article className="prose">
      <h1>How it Works</h1>
      <ol className="steps">
        <li>
          <h2>Tell us what you are ordering</h2>
          <p>
            Confirm that you are 18 or older, then choose bottles, cans or draft beer in kegs. Bottles and cans, and
            kegs, are ordered separately.
          </p>
        </li>
        <li>
          <h2>Choose delivery or pickup and your location</h2>
          <p>
            Pick your province, city and barangay (and street where asked). We show only the beers available there;
            see the <a href="/delivery-areas">delivery areas</a>.
          </p>
        </li>
        <li>
          <h2>Fill your cases</h2>
          <p>
            Beer is sold by the case: 24 bottles or a box of 24 cans per case, or a keg. Mix beers within a case; the
            cart tells you how many more each case needs.
          </p>
        </li>
        <li>
          <h2>Check out</h2>
          <p>
            Review deposits for returnable bottles, crates and kegs and the delivery fee, then submit your order. Pay
            on delivery or pickup.
          </p>
        </li>
        <li>
          <h2>Return your empties</h2>
          <p>Hand your empty bottles, crates and kegs to our rider on your next order and get your deposit back.</p>
        </li>
      </ol>
    </article>
  );
}
