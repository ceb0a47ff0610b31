const FAQS: [string, string][] = [
  [
    'Who can order?',
    'Adults 18 years old and above. Our riders may ask for a valid ID on delivery or pickup and will not hand beer to minors.',
  ],
  [
    'Why do I have to order by the case?',
    'We deliver straight from the brewery in cases of 24 bottles, boxes of 24 cans and kegs. You can mix beers of the same kind within a case.',
  ],
  [
    'What are deposits?',
    'Returnable bottles, their crates and kegs carry a deposit that is added at checkout. You get it back when you return the empties in good condition.',
  ],
  [
    'Where do you deliver?',
    'Across Metro Manila and in parts of Bulacan, Cavite and Rizal. Kegs are delivered in Metro Manila only. See the Delivery Areas page for the full list.',
  ],
  ['When do you deliver?', 'Daily from 8:00 AM to 10:00 PM, except during liquor bans declared by the authorities.'],
  [
    'Can I order bottles and kegs together?',
    'No: bottles and cans, and draft beer in kegs, are separate orders. Changing the product type asks you to reset your cart first.',
  ],
  [
    'How do I pay?',
    'Cash or e-wallet on delivery or pickup. Your order is confirmed by text message and email.',
  ],
];

export function Faqs() {
  return (
    <article className="prose">
      <h1>Frequently Asked Questions</h1>
      {FAQS.map(([q, a]) => (
        <details key={q} className="faq">
          <summary>{q}</summary>
          <p>{a}</p>
        </details>
      ))}
    </article>
  );
}
