import { useQuery } from '@tanstack/react-query';
import { KEYS } from '../routes';

interface SiteText {
  title: string;
  body: string;
}

interface Area {
  province_name: string;
  cities: { city_name: string; fulfillments: string[] }[];
}

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text.split('\n\n').map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </>
  );
}

function TextPage({ textKey }: { textKey: string }) {
  const { data, isPending, isError } = useQuery<SiteText>({ queryKey: [textKey] });
  if (isPending) return <p role="status">Loading…</p>;
  if (isError) return <p role="alert">We could not load this page. Please try again.</p>;
  return (
    <article className="prose">
      <h1>{data.title}</h1>
      <Paragraphs text={data.body} />
    </article>
  );
}

export const PrivacyPolicy = () => <TextPage textKey={KEYS.policyText} />;
export const Terms = () => <TextPage textKey={KEYS.termsText} />;
export const AboutUs = () => <TextPage textKey={KEYS.aboutText} />;

export function DeliveryAreas() {
  const { data, isPending, isError } = useQuery<{ results: Area[] }>({ queryKey: [KEYS.deliveryAreas] });
  return (
    <article className="prose wide">
      <h1>Delivery Areas</h1>
      <p>
        We deliver, or have your order ready for pickup, in the cities and municipalities below, daily from 8:00 AM to
        10:00 PM. Draft beer in kegs and some limited beers are sold only in some of them: the shop shows what is
        available once you choose your location.
      </p>
      {isPending ? (
        <p role="status">Loading areas…</p>
      ) : isError ? (
        <p role="alert">We could not load the delivery areas. Please try again.</p>
      ) : (
        data.results.map((area) => (
          <section key={area.province_name} aria-labelledby={`area-${area.province_name}`}>
            <h2 id={`area-${area.province_name}`}>{area.province_name}</h2>
            <ul className="areas">
              {area.cities.map((c) => (
                <li key={c.city_name}>
                  {c.city_name} <span className="note">({c.fulfillments.join(' and ')})</span>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </article>
  );
}

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
