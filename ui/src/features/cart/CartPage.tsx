// The cart page: the top bar with the gates, the case panels, what cannot be
// bought here, returned empties, the subtotal, Proceed To Checkout and the Order Summary beside,
// Recommended For You for members. Works without JavaScript: every change is a form post to
// /cart answered with 303 and a message (`done`), or the page again with the refusal.
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ADDED_TO_CART, calls, MAX_PRODUCTS, MAX_QUANTITY, type CartAnswer } from '../../api/contract.gen';
import type { Sent } from '../../api/send';
import { requestKey } from '../../api/request-key';
import { BlockedButton } from '../../components/BlockedButton';
import { CartErrorDialog } from './lazy';
import { SaveGoToCase } from '../goto-cases';
import { DoneMessage, FormCall, useDone } from '../../components/form';
import { OrderSummary, blockedNoteId } from '../../components/OrderSummary';
import { ProductCard } from '../catalog';
import { DEPOSITS_NOTE, EMPTY_CART, INCOMPLETE } from './rules';
import { useGate } from '../gate';
import { formatPhp } from '../../lib/money';
import { usePage } from '../../page';
import { CasePanel, EmptiesForm, RemoveButton, type CartActions } from './CartParts';
import { placeBody, sendCart, useCartView, useRefetchCart, useSetCart, type CartRefusal } from './state';
import { cartQuery } from './queries';

/** What the page says after a form without JavaScript (`done`). */
const DONE: Record<string, string> = {
  added: ADDED_TO_CART,
  updated: 'Your cart has been updated.',
  removed: 'Removed from your cart.',
  empties: 'Your returned empties have been saved.',
  reset: 'Your cart has been reset.',
  conflict: 'You had another cart before logging in: choose below which one to keep.',
  kept: 'Your cart is ready.',
  refilled: 'We filled your cart. Check it before you go to checkout.',
  already: 'That was already added to your cart, so it was not added again. Check your cart before you go to checkout.',
  merged:
    `Your cart from before you logged in joined your account's cart; what went past a cart's limits (${MAX_QUANTITY} of a product, ${MAX_PRODUCTS} products) was left out.`,
};

/**
 * A login whose guest cart held the other family: both carts are kept until the
 * member chooses. Plain forms: they post and come back with or without JavaScript.
 */
function Conflict({ cart }: { cart: CartAnswer }) {
  const { vars } = usePage();
  if (!cart.conflict) return null;
  const keep = (which: 'guest' | 'member', label: string) => (
    <form method="post" action="/cart">
      <FormCall call={calls.keepCart} />
      <input type="hidden" name="keep" value={which} />
      {vars.barangay && <input type="hidden" name="barangay" value={vars.barangay} />}
      {vars.gateFulfillment && <input type="hidden" name="fulfillment" value={vars.gateFulfillment} />}
      <button type="submit" className={which === 'member' ? 'secondary' : undefined}>
        {label}
      </button>
    </form>
  );
  return (
    <section className="cart-conflict" aria-labelledby="conflict-title">
      <h2 id="conflict-title">Which cart do you keep?</h2>
      <p>{cart.conflict.message}</p>
      <p>Your cart from before you logged in holds:</p>
      <ul>
        {cart.conflict.guest_items.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div className="conflict-actions">
        {keep('guest', 'Keep the cart from before I logged in')}
        {keep('member', 'Keep my account’s cart (below)')}
      </div>
    </section>
  );
}

/** The top bar: Product Type and Pick-up/Delivery Location, each opening its gate. */
function TopBar() {
  const { gate, open } = useGate();
  const place = gate.barangayName && gate.cityName ? `${gate.barangayName}, ${gate.cityName}` : 'Not chosen yet';
  return (
    <dl className="cart-topbar">
      <div>
        <dt>Product Type</dt>
        <dd>
          {gate.packagingName ?? 'Not chosen yet'}{' '}
          <a
            href="/cart?gate=category"
            onClick={(e) => {
              e.preventDefault();
              open('category');
            }}
          >
            Change<span className="visually-hidden"> product type</span>
          </a>
        </dd>
      </div>
      <div>
        <dt>Pick-up/Delivery Location</dt>
        <dd>
          {place}{' '}
          <a
            href="/cart?gate=location"
            onClick={(e) => {
              e.preventDefault();
              open('location');
            }}
          >
            Change<span className="visually-hidden"> location</span>
          </a>
        </dd>
      </div>
    </dl>
  );
}

/**
 * Proceed To Checkout: blocked with the reason while the cart cannot go (focusable, pressing it
 * only says the reason again; without JavaScript it does nothing); guests go
 * straight on (a link); members are verified first (a form to /cart without JavaScript; with it
 * the API: 200 and 410 go to /checkout, another refusal opens the Error modal and the cart is
 * loaded again).
 */
function Proceed({ cart, reason, onRefused }: { cart: CartAnswer; reason: string | null; onRefused: (r: CartRefusal) => void }) {
  const page = usePage();
  const { gate } = useGate();
  const [busy, setBusy] = useState(false);
  if (reason)
    return (
      <BlockedButton reason={reason} reasonId={blockedNoteId('cart')}>
        Proceed To Checkout
      </BlockedButton>
    );
  if (!page.member)
    return (
      <a className="button" href="/checkout">
        Proceed To Checkout
      </a>
    );
  const place = { barangay: cart.barangay_id, fulfillment: gate.fulfillmentId, street_id: gate.streetId };
  return (
    <form
      method="post"
      action="/cart"
      onSubmit={async (e) => {
        e.preventDefault();
        if (busy) return;
        setBusy(true);
        const body = { ...placeBody(place), revision: cart.revision, ...(page.vars.testdate ? { testdate: page.vars.testdate } : {}) };
        const sent = await sendCart(calls.checkoutVerify, { body });
        if (sent.ok || sent.status === 410) {
          window.location.assign('/checkout');
          return;
        }
        setBusy(false);
        onRefused({ message: sent.refusal?.error ?? sent.message, products: sent.refusal?.products ?? [] });
      }}
    >
      <FormCall call={calls.checkoutVerify} />
      {Object.entries(placeBody(place)).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="revision" value={cart.revision} />
      <button type="submit" aria-busy={busy || undefined}>
        Proceed To Checkout
      </button>
    </form>
  );
}

/**
 * The reset question after a refill posted without JavaScript (a Go-to Case's Add to Cart, an
 * order's Order Again) found a cart of the other family: Yes posts the same again with `reset`.
 */
function RefillQuestion() {
  const { form } = usePage();
  const question = form?.errors.reset?.[0];
  if (!form || !question) return null;
  const call = form.values.caseId ? calls.gotoCaseToCart : form.values.orderId ? calls.orderAgain : null;
  if (!call) return null;
  return (
    <section className="cart-conflict" aria-labelledby="reset-title">
      <h2 id="reset-title">Reset your cart?</h2>
      <p>{question}</p>
      <div className="conflict-actions">
        <form method="post" action="/cart">
          <FormCall call={call} />
          {Object.entries(form.values)
            .filter(([k]) => k !== 'reset')
            .map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
          <input type="hidden" name="reset" value="true" />
          <button type="submit">Yes, reset my cart</button>
        </form>
        <a className="button secondary" href="/cart">
          No, keep my cart
        </a>
      </div>
    </section>
  );
}

/** What a refill could not add (`left` in the address): by name, with why. */
function LeftOut({ cart }: { cart: CartAnswer }) {
  if (cart.left_out.length === 0) return null;
  return (
    <section className="unavailable-list" aria-labelledby="left-out-title">
      <h2 id="left-out-title">Not added to your cart</h2>
      <ul>
        {cart.left_out.map((p) => (
          <li key={p.id}>
            <strong>{p.product_name}</strong>: {p.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the page says of the last change made with JavaScript. */
interface Note {
  ok: boolean;
  text: string;
}

/** The cart's changes with JavaScript: each answer is the cart; a failure says why in the page. */
function useCartActions(cart: CartAnswer | undefined, setNote: (n: Note) => void, refetch: () => Promise<void>): CartActions {
  const { gate } = useGate();
  const set = useSetCart();
  const place: Record<string, number> = cart ? placeBody({ barangay: cart.barangay_id, fulfillment: gate.fulfillmentId }) : {};
  const run = async (sent: Sent<CartAnswer>) => {
    if (sent.ok) {
      setNote({ ok: true, text: sent.data.message });
      set(sent.data);
    } else {
      setNote({ ok: false, text: sent.refusal?.error ?? sent.message });
      if (sent.status === 404 || (sent.refusal?.products.length ?? 0) > 0) await refetch();
    }
  };
  return {
    place,
    // Each its own key: sent again on a failing link, or arriving late after a later change, it
    // changes nothing more.
    update: (product_id, quantity) =>
      void sendCart(calls.updateCart, { body: { product_id, quantity, ...place, request_key: requestKey() }, retry: { label: 'Change a quantity in your cart', kind: 'cart' } }).then(run),
    remove: async (ids) =>
      run(await sendCart(calls.removeFromCart, { body: { product_id: ids, ...place, request_key: requestKey() }, retry: { label: 'Remove from your cart', kind: 'cart' } })),
    returnEmpties: (deposit_id, cases) =>
      void sendCart(calls.returnEmpty, { body: { deposit_id, cases, ...place, request_key: requestKey() }, retry: { label: 'Change the empties you return', kind: 'cart' } }).then(run),
  };
}

/** The shop's location is not chosen yet: the cart is priced for one. */
function NoLocation() {
  const { open } = useGate();
  return (
    <p>
      Choose your delivery location to see your cart.{' '}
      <a
        href="/cart?gate=location"
        onClick={(e) => {
          e.preventDefault();
          open('location');
        }}
      >
        Choose your location
      </a>
    </p>
  );
}

/** What the cart holds that cannot be bought at the shop's location, each with its Remove. */
function Unavailable({ cart, actions }: { cart: CartAnswer; actions: CartActions }) {
  if (cart.unavailable.length === 0) return null;
  return (
    <section className="unavailable-list" aria-labelledby="unavailable-title">
      <h2 id="unavailable-title">Not available at your location</h2>
      <ul>
        {cart.unavailable.map((p) => (
          <li key={p.id}>
            <span>
              <strong>{p.product_name}</strong>: {p.reason}
            </span>{' '}
            <RemoveButton label="Remove" name={p.product_name} ids={[p.id]} actions={actions} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Return Empties: a form for each deposit the cart's cases can return. */
function Empties({ cart, actions }: { cart: CartAnswer; actions: CartActions }) {
  if (cart.empties.length === 0) return null;
  return (
    <section className="empties" aria-labelledby="empties-title">
      <h2 id="empties-title">Return Empties</h2>
      <p className="muted">Return empty bottles and crates or kegs with this order and the deposit is credited.</p>
      {cart.empties.map((line) => (
        <EmptiesForm key={line.deposit_id} line={line} actions={actions} />
      ))}
    </section>
  );
}

/** A cart with cases: what it holds, the subtotal, and the Order Summary with Proceed To Checkout beside. */
function FullCart({ cart, actions, onRefused }: { cart: CartAnswer; actions: CartActions; onRefused: (r: CartRefusal) => void }) {
  const reason = cart.checkout.ready ? null : (cart.checkout.reason ?? INCOMPLETE);
  return (
    <div className="cart-layout">
      <div className="cart-main">
        <Unavailable cart={cart} actions={actions} />
        <h2 className="visually-hidden">Your cases</h2>
        {cart.shopping_cart.map((c) => (
          <CasePanel key={`${c.packaging_id}-${c.name}`} c={c} actions={actions} goToCase={<SaveGoToCase c={c} barangay={cart.barangay_id} />} />
        ))}
        <Empties cart={cart} actions={actions} />
        <p className="cart-subtotal">
          Subtotal <strong>{formatPhp(cart.cart_order_summary.subtotal)}</strong>
        </p>
        <p>
          <a className="button secondary" href="/buy-beer">
            Continue Shopping
          </a>
        </p>
        <p className="note">{DEPOSITS_NOTE}</p>
      </div>
      <aside className="cart-side">
        <OrderSummary summary={cart.cart_order_summary} mode="cart" blocked={reason} action={<Proceed cart={cart} reason={reason} onRefused={onRefused} />} />
      </aside>
    </div>
  );
}

/** Recommended For You (members): the cart's recommended products. */
function Recommended({ products }: { products: CartAnswer['recommended_products'] }) {
  if (products.length === 0) return null;
  return (
    <section className="strip" aria-labelledby="recommended-title">
      <h2 id="recommended-title">Recommended For You</h2>
      <ul className="grid">
        {products.map((p) => (
          <ProductCard key={p.id} product={p} add />
        ))}
      </ul>
    </section>
  );
}

export function CartPage() {
  const page = usePage();
  const query = useQuery(cartQuery.options(page.vars));
  const view = useCartView();
  const refetchCart = useRefetchCart();
  const cart = view.latest ?? query.data;
  const [note, setNote] = useState<Note | null>(null);
  const [refusal, setRefusal] = useState<CartRefusal | null>(null);
  const refetch = () => refetchCart(page.vars);
  const actions = useCartActions(cart, setNote, refetch);
  const done = useDone(DONE);
  // A form that came back without JavaScript: what the server said.
  const posted = (!page.form?.errors.reset && page.form?.message) || null;
  const member = Boolean(page.member);

  let body: ReactNode;
  if (!page.vars.barangay) {
    body = <NoLocation />;
  } else if (!cart) {
    body = query.isError ? <p role="alert">{query.error.message}</p> : <p role="status">Loading your cart…</p>;
  } else if (cart.shopping_cart.length === 0) {
    body = (
      <p className="empty">
        {EMPTY_CART} <a href="/buy-beer">Buy beer?</a>
      </p>
    );
  } else {
    body = <FullCart cart={cart} actions={actions} onRefused={(r) => void refetch().then(() => setRefusal(r))} />;
  }
  return (
    <>
      <h1>Shopping Cart</h1>
      <TopBar />
      <DoneMessage text={note ? (note.ok ? note.text : null) : done} />
      {((note && !note.ok) || posted) && (
        <p className="form-message error" role="alert">
          {note && !note.ok ? note.text : posted}
        </p>
      )}
      {cart && <Conflict cart={cart} />}
      <RefillQuestion />
      {cart && <LeftOut cart={cart} />}
      {body}
      <Recommended products={member ? (cart?.recommended_products ?? []) : []} />
      {refusal && <CartErrorDialog message={refusal.message} products={refusal.products} onClose={() => setRefusal(null)} />}
    </>
  );
}
