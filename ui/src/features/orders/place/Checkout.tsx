// /checkout: contact, where the order goes, delivery or pickup, payment and
// notes, beside the Order Summary with Submit Order. The form is a real post to the page's own
// address (the server places the order and answers 303 to its page, or the page again with the
// messages); with JavaScript the same fields are posted asking for JSON. The hidden fields carry
// what the page showed: the cart's revision and total (the server refuses with 409 when either
// changed), the barangay, street and fulfillment it was priced for, and the test date.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { calls, EMPTY_CART, INCOMPLETE, ORDER_MAX_NOTES, type AddressView, type CartAnswer, type Member } from '../../../api/contract.gen';
import { BlockedButton } from '../../../components/BlockedButton';
import { Field, FormCall, FormMessage, type FormState } from '../../../components/form';
import { OrderSummary, blockedNoteId } from '../../../components/OrderSummary';
import { QueryState } from '../../../components/QueryState';
import { addressLine } from '../../accounts';
import { useGate } from '../../gate';
import { useHydrated, usePage } from '../../../page';
import { addressesQuery, userQuery } from '../../accounts/queries';
import { cartQuery } from '../../cart/queries';
import { contactOf, DELIVERY, fulfillmentNote, isEmptyCart, numberOf, ONLINE_HINT, onlineChoice, paymentOf, PICKUP, savedAddressFor } from './rules';
import { paymentMethodsQuery, placeStreetsQuery } from './queries';
import { postCheckout } from './submit';

/** The fields the form shows, whose messages show beside them. */
const FIELDS = ['contact_name', 'mobile', 'email', 'address', 'notes', 'fulfillment', 'payment'];

/** What the shopper changed on the page (with JavaScript): null keeps the page's own choice. */
interface Choice {
  fulfillment: number | null;
  saved: AddressView | null;
}

interface CheckoutForm extends FormState {
  /** The last answer's status (409: the cart or its total changed). */
  status: number;
}

/** Where the order goes, as the page shows it: the street the form sends, the place in words, its city. */
interface Place {
  streetId: number | null;
  line: string;
  city: string | null;
}

/** The form's state, from what the server sent back without JavaScript, and its submit. */
function useCheckoutForm(onConflict: () => void) {
  const page = usePage();
  const posted = page.form;
  const [state, setState] = useState<CheckoutForm>({
    busy: false,
    message: posted?.message || null,
    ok: false,
    errors: posted?.errors ?? {},
    values: posted?.values ?? {},
    status: 0,
  });
  // A double click sends once: the flag is set before React renders the disabled button, and
  // stays set once the order is placed (the page is leaving).
  const inFlight = useRef(false);
  const submit = async (e: FormEvent<HTMLFormElement>, ready: boolean) => {
    e.preventDefault();
    if (inFlight.current || !ready) return;
    inFlight.current = true;
    const form = e.currentTarget;
    setState((s) => ({ ...s, busy: true, message: null, errors: {}, status: 0 }));
    const answer = await postCheckout(form);
    if ('location' in answer) {
      window.location.assign(answer.location);
      return;
    }
    inFlight.current = false;
    if (answer.status === 409) onConflict();
    setState((s) => ({ ...s, busy: false, message: answer.message, errors: answer.errors, status: answer.status }));
  };
  return [state, submit] as const;
}

type CheckoutFormHook = ReturnType<typeof useCheckoutForm>;

export function Checkout() {
  const page = usePage();
  const { gate } = useGate();
  const [choice, setChoice] = useState<Choice>({ fulfillment: null, saved: null });
  // The page's own keys until the shopper changes something, so hydration reads what the server
  // loaded; then the cart is priced again for the new choice.
  const vars = {
    ...page.vars,
    ...(choice.fulfillment !== null ? { gateFulfillment: String(choice.fulfillment) } : {}),
    ...(choice.saved ? { barangay: String(choice.saved.barangay_id) } : {}),
  };
  const cart = useQuery({ ...cartQuery.options(vars), placeholderData: keepPreviousData });
  const user = useQuery({ ...userQuery.options(), enabled: !!page.member });
  const addresses = useQuery({ ...addressesQuery.options(), enabled: !!page.member });
  // The gate's street by name (the page's own barangay; a saved address names its own).
  const streets = useQuery({ ...placeStreetsQuery.options(page.vars), enabled: !choice.saved && !!page.vars.barangay });
  const street = streets.data?.results.find((s) => s.id === gate.streetId)?.street_name ?? null;
  const form = useCheckoutForm(() => void cart.refetch());
  const member = page.member && user.data && 'email' in user.data.data ? (user.data.data as Member) : null;
  const place: Place = {
    streetId: choice.saved ? choice.saved.street_id : gate.streetId,
    line: choice.saved ? addressLine({ ...choice.saved, address: '' }) : [street, gate.barangayName, gate.cityName].filter(Boolean).join(', '),
    city: choice.saved?.city_name ?? gate.cityName,
  };

  if (!numberOf(page.vars.barangay))
    return (
      <CheckoutFrame>
        <p className="empty">Choose where we deliver, and check out from there.</p>
        <a className="button" href="/checkout?gate=location">
          Choose your location
        </a>
      </CheckoutFrame>
    );
  return (
    <CheckoutFrame>
      <QueryState query={cart} loading="Loading your cart…" error="We could not load your cart. Please reload the page." retry>
        {(c) =>
          isEmptyCart(c) ? (
            <EmptyCart />
          ) : (
            <CheckoutForm
              cart={c}
              updating={cart.isPlaceholderData}
              member={member}
              addresses={addresses.data?.results ?? []}
              choice={choice}
              setChoice={setChoice}
              form={form}
              place={place}
            />
          )
        }
      </QueryState>
    </CheckoutFrame>
  );
}

function CheckoutFrame({ children }: { children: ReactNode }) {
  const { member } = usePage();
  return (
    <section className="checkout" aria-labelledby="checkout-title">
      <h1 id="checkout-title">Checkout</h1>
      {!member && (
        <p className="checkout-login">
          Have an account? <a href="/login?from=checkout">Log in</a> to use your saved details and addresses.
        </p>
      )}
      {children}
    </section>
  );
}

/** An empty cart: its message and a link to /buy-beer. */
function EmptyCart() {
  return (
    <div className="checkout-empty">
      <p className="empty">{EMPTY_CART}</p>
      <a href="/buy-beer">Buy beer?</a>
    </div>
  );
}

/** Contact: the name and mobile number, and a guest's email (a member's is the account's). */
function ContactSection({ member, state }: { member: Member | null; state: CheckoutForm }) {
  const contact = contactOf(member);
  return (
    <fieldset className="checkout-section">
      <legend>Contact</legend>
      <Field name="contact_name" label="Contact name" autoComplete="name" defaultValue={contact.contact_name} state={state} required />
      <Field
        name="mobile"
        label="Mobile number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        hint="09 and 9 digits, for example 09171234567."
        defaultValue={contact.mobile}
        state={state}
        required
      />
      {member ? (
        <p>
          We send your order confirmation to <strong>{member.email}</strong>.
        </p>
      ) : (
        <Field
          name="email"
          label="Email address"
          type="email"
          inputMode="email"
          autoComplete="email"
          hint="Your order confirmation and its link go here."
          state={state}
          required
        />
      )}
    </fieldset>
  );
}

/**
 * Delivery or pickup: the radios belong to the GET form (`checkout-fulfillment`), which without
 * JavaScript Update my total submits; with it, a choice re-prices the cart in place.
 */
function FulfillmentSection(props: { requested: number; note: string | null; errors: string[]; hydrated: boolean; onChoose: (fulfillment: number) => void }) {
  const { requested, note, errors, hydrated, onChoose } = props;
  return (
    <fieldset className="checkout-section">
      <legend>Delivery or pickup</legend>
      {[
        [DELIVERY, 'Delivery'],
        [PICKUP, 'Pickup'],
      ].map(([id, label]) => (
        <label key={id} className="radio">
          <input
            type="radio"
            name="fulfillment"
            form="checkout-fulfillment"
            value={id}
            checked={requested === id}
            onChange={() => onChoose(Number(id))}
            aria-describedby={errors.length ? 'field-fulfillment-error' : undefined}
          />
          {label}
        </label>
      ))}
      {!hydrated && (
        <button type="submit" form="checkout-fulfillment" className="secondary">
          Update my total
        </button>
      )}
      {note && (
        <p className="hint" role="status">
          {note}
        </p>
      )}
      {errors.length > 0 && (
        <p className="hint" id="field-fulfillment-error">
          {errors.join(' ')}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Where the order goes: a member's saved addresses (`choices`, with JavaScript), the place with
 * Change location, and the house and street for a delivery (a saved address's, when one fits).
 */
function AddressSection(props: { pickup: boolean; place: Place; saved: AddressView | null; state: CheckoutForm; choices: ReactNode }) {
  const { pickup, place, saved, state, choices } = props;
  return (
    <fieldset className="checkout-section">
      <legend>{pickup ? 'Your location' : 'Delivery address'}</legend>
      {choices}
      <p className="checkout-place">
        {place.line || 'Your chosen barangay'}{' '}
        <a href="/checkout?gate=location" className="checkout-change">
          Change location
        </a>
      </p>
      {pickup ? (
        <p>You pick up your order at our store in {place.city ?? 'your city'}. We send you a message when it is ready.</p>
      ) : (
        <Field
          key={saved ? `saved-${saved.id}` : 'typed'}
          name="address"
          label="House or unit number, building and street"
          autoComplete="address-line1"
          defaultValue={saved?.address}
          state={state}
          required
        />
      )}
    </fieldset>
  );
}

/** Notes (optional): a textarea, with its hint and messages as a Field has them. */
function NotesField({ state }: { state: CheckoutForm }) {
  return (
    <div className="field checkout-section">
      <label htmlFor="field-notes">Notes (optional)</label>
      <p className="field-hint" id="field-notes-hint">
        {`Landmarks, gate codes or when to call: up to ${ORDER_MAX_NOTES} characters.`}
      </p>
      <textarea
        id="field-notes"
        name="notes"
        rows={3}
        maxLength={ORDER_MAX_NOTES}
        defaultValue={state.values.notes}
        aria-invalid={state.errors.notes ? true : undefined}
        aria-describedby={['field-notes-hint', state.errors.notes ? 'field-notes-error' : null].filter(Boolean).join(' ')}
      />
      {state.errors.notes && (
        <p className="hint" id="field-notes-error">
          {state.errors.notes.join(' ')}
        </p>
      )}
    </div>
  );
}

/**
 * What the order is placed for, as the page showed it: the cart's revision and total, the
 * barangay, street and fulfillment it was priced for, and the test date.
 */
function PricedFields({ cart, streetId, testdate }: { cart: CartAnswer; streetId: number | null; testdate: string | undefined }) {
  return (
    <>
      <FormCall call={calls.placeOrder} />
      <input type="hidden" name="revision" value={cart.revision} />
      <input type="hidden" name="expected_total" value={cart.cart_order_summary.subtotal} />
      <input type="hidden" name="barangay" value={cart.barangay_id} />
      {streetId !== null && <input type="hidden" name="street_id" value={streetId} />}
      <input type="hidden" name="fulfillment" value={cart.fulfillment_id} />
      {testdate && <input type="hidden" name="testdate" value={testdate} />}
    </>
  );
}

/**
 * The cart or its total changed since the page was shown: a 409 with JavaScript, or (without it,
 * the page came back with what was posted) a revision or total other than the cart's now.
 */
function CartChanged({ cart, state }: { cart: CartAnswer; state: CheckoutForm }) {
  const page = usePage();
  const posted = page.form?.values;
  const changed =
    state.status === 409 ||
    (!!posted?.revision && (posted.revision !== String(cart.revision) || posted.expected_total !== String(cart.cart_order_summary.subtotal)));
  if (!changed) return null;
  return (
    <p className="checkout-conflict">
      We updated the Order Summary with your cart as it is now. <a href={page.url}>Reload checkout</a>
    </p>
  );
}

/**
 * Submit Order: blocked while the cart cannot go (`reason`, which the Order Summary shows under it):
 * it stays focusable and pressing it only says the reason again; without JavaScript it posts, and
 * the server refuses the order with the same reason. While the cart is priced again or the order
 * is sent it says it is unavailable too (the form's submit ignores it). What a second press does
 * is said beside it: without JavaScript nothing stops the browser sending the form twice, and the
 * cart's revision in it makes that one order.
 */
function SubmitOrder({ reason, ready, busy }: { reason: string | null; ready: boolean; busy: boolean }) {
  return (
    <>
      {reason ? (
        <BlockedButton type="submit" className="checkout-submit" reason={reason} reasonId={blockedNoteId('checkout')}>
          Submit Order
        </BlockedButton>
      ) : (
        <button type="submit" className="checkout-submit" aria-disabled={!ready || busy || undefined} aria-busy={busy || undefined}>
          {busy ? 'Submitting…' : 'Submit Order'}
        </button>
      )}
      <p className="checkout-once">Pressed twice or sent again after a lost connection, your order is placed once.</p>
    </>
  );
}

function CheckoutForm(props: {
  cart: CartAnswer;
  updating: boolean;
  member: Member | null;
  addresses: AddressView[];
  choice: Choice;
  setChoice: (c: Choice) => void;
  form: CheckoutFormHook;
  place: Place;
}) {
  const { cart, member, addresses, choice, setChoice, place } = props;
  const [state, submit] = props.form;
  const page = usePage();
  const hydrated = useHydrated();
  const priced = cart.fulfillment_id;
  const requested = choice.fulfillment ?? numberOf(page.vars.gateFulfillment) ?? DELIVERY;
  const saved = choice.saved ?? savedAddressFor(addresses, cart.barangay_id, place.streetId);
  const ready = cart.checkout.ready && !props.updating;
  // Why the cart cannot go, as the Order Summary says it under Submit Order.
  const blocked = cart.checkout.ready ? null : (cart.checkout.reason ?? INCOMPLETE);
  const testdate = page.vars.testdate;
  return (
    <>
      {/* Delivery or pickup re-prices the cart: without JavaScript its radios submit this form
          (GET, the same page priced for the choice); with it, the choice re-prices in place. */}
      <form id="checkout-fulfillment" method="get" action="/checkout" onSubmit={(e) => e.preventDefault()}>
        {testdate && <input type="hidden" name="testdate" value={testdate} />}
      </form>
      <form
        id="checkout-form"
        className="checkout-layout"
        method="post"
        action={page.url}
        onSubmit={(e) => void submit(e, ready)}
        noValidate
        aria-labelledby="checkout-title"
      >
        <PricedFields cart={cart} streetId={place.streetId} testdate={testdate} />
        <div className="checkout-main">
          <ContactSection member={member} state={state} />
          <FulfillmentSection
            requested={requested}
            note={fulfillmentNote(requested, priced, place.city)}
            errors={state.errors.fulfillment ?? []}
            hydrated={hydrated}
            onChoose={(fulfillment) => setChoice({ ...choice, fulfillment })}
          />
          <AddressSection
            pickup={priced === PICKUP}
            place={place}
            saved={saved}
            state={state}
            choices={
              hydrated && member && addresses.length > 0 && <SavedAddresses addresses={addresses} chosen={choice.saved} onChoose={(a) => setChoice({ ...choice, saved: a })} />
            }
          />
          <PaymentSection priced={priced} total={cart.cart_order_summary.subtotal} state={state} />
          <NotesField state={state} />
          <FormMessage state={state} fields={FIELDS} />
          <CartChanged cart={cart} state={state} />
        </div>
        <OrderSummary summary={cart.cart_order_summary} mode="checkout" blocked={blocked} action={<SubmitOrder reason={blocked} ready={ready} busy={state.busy} />} />
      </form>
    </>
  );
}

/**
 * How the order is paid: in cash (to the rider, or at pickup), or online before it is prepared
 * when the store takes payments online and the total is one PayMongo takes.
 */
function PaymentSection({ priced, total, state }: { priced: number; total: number; state: CheckoutForm }) {
  const options = useQuery(paymentMethodsQuery.options()).data;
  const cash = paymentOf(priced);
  if (!options?.online || total < options.min_total)
    return (
      <fieldset className="checkout-section">
        <legend>Payment</legend>
        <p>{cash}</p>
      </fieldset>
    );
  const online = state.values.payment === 'online';
  const errors = state.errors.payment ?? [];
  const invalid = errors.length > 0 ? true : undefined;
  const described = errors.length > 0 ? 'field-payment-error payment-hint' : 'payment-hint';
  return (
    <fieldset className="checkout-section">
      <legend>Payment</legend>
      <label className="radio">
        <input type="radio" name="payment" value="cash" defaultChecked={!online} aria-invalid={invalid} aria-describedby={described} />
        {cash}
      </label>
      <label className="radio">
        <input type="radio" name="payment" value="online" defaultChecked={online} aria-invalid={invalid} aria-describedby={described} />
        {onlineChoice(options.methods.map((m) => m.label))}
      </label>
      <p className="hint" id="payment-hint">
        {ONLINE_HINT}
      </p>
      {errors.length > 0 && (
        <p className="hint" id="field-payment-error">
          {errors.join(' ')}
        </p>
      )}
    </fieldset>
  );
}

/** A member's saved addresses (with JavaScript): choosing one prices the cart for its barangay. */
function SavedAddresses({ addresses, chosen, onChoose }: { addresses: AddressView[]; chosen: AddressView | null; onChoose: (a: AddressView) => void }) {
  return (
    <fieldset className="checkout-saved">
      <legend>Your saved addresses</legend>
      {addresses.map((a) => (
        <label key={a.id} className="radio">
          <input type="radio" name="saved_address" form="checkout-fulfillment" checked={chosen?.id === a.id} onChange={() => onChoose(a)} />
          {addressLine(a)}
        </label>
      ))}
    </fieldset>
  );
}
