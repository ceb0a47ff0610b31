// The cart page's pieces: case panels with their items, the confirmation of a removal,
// returned empties. Every change is a real form to /cart (the route's actions) that works without
// JavaScript; with it the same change goes to the JSON API and the answer replaces the cart.
import { useState, type FormEvent, type ReactNode } from 'react';
import { calls, type CartCase, type CartItem, type EmptiesLine } from '../../api/contract.gen';
import { Dialog } from '../../components/Dialog';
import { FormCall } from '../../components/form';
import { Photo } from '../../components/Photo';
import { QuantityCounter } from '../../components/QuantityCounter';
import { CART_DEBOUNCE_MS, casesLabel, count, usedLabel } from './rules';
import { formatPhp } from '../../lib/money';
import { useHydrated } from '../../page';

/** What the page's parts need: where the cart is priced, and how a change is sent with JavaScript. */
export interface CartActions {
  /** Hidden fields of the place (barangay, fulfillment) for the no-JS forms. */
  place: Record<string, number>;
  update: (productId: number, quantity: number) => void;
  remove: (productIds: number[]) => Promise<void>;
  returnEmpties: (depositId: number, cases: number) => void;
}

function PlaceFields({ place }: { place: Record<string, number> }) {
  return (
    <>
      {Object.entries(place).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/**
 * A removal that asks first: "Are you sure you want to delete {name}?". Without
 * JavaScript the button opens the question in the page (a `<details>`) and its form confirms;
 * with it the question is a dialog, and focus returns to the button when it closes.
 */
export function RemoveButton({ label, name, ids, actions }: { label: string; name: string; ids: number[]; actions: CartActions }) {
  const hydrated = useHydrated();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const question = `Are you sure you want to delete ${name}?`;
  const close = () => {
    setAsking(false);
    opener?.focus();
  };
  const named = label === 'Remove' ? `Remove ${name}` : undefined;
  if (!hydrated)
    return (
      <details className="confirm">
        <summary className="button secondary" aria-label={named}>
          {label}
        </summary>
        <p>{question}</p>
        <form method="post" action="/cart" className="inline-form">
          <FormCall call={calls.removeFromCart} />
          <input type="hidden" name="product_id" value={ids.join(',')} />
          <PlaceFields place={actions.place} />
          <button type="submit" className="danger">
            Yes, delete
          </button>
        </form>
      </details>
    );
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-label={named}
        onClick={(e) => {
          setOpener(e.currentTarget);
          setAsking(true);
        }}
      >
        {label}
      </button>
      {asking && (
        <div
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
          }}
        >
          <Dialog title={question}>
            <div className="dialog-actions">
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={async () => {
                  setBusy(true);
                  await actions.remove(ids);
                  setBusy(false);
                  setAsking(false);
                }}
              >
                Yes, delete
              </button>
              <button type="button" className="secondary" onClick={close}>
                Cancel
              </button>
            </div>
          </Dialog>
        </div>
      )}
    </>
  );
}

function ItemRow({ item, noun, actions }: { item: CartItem; noun: string; actions: CartActions }) {
  const hydrated = useHydrated();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    e.preventDefault();
    const q = Number(new FormData(e.currentTarget).get('quantity'));
    if (Number.isInteger(q) && q >= 1) actions.update(item.id, q);
  };
  return (
    <li className={item.available ? 'cart-item' : 'cart-item unavailable'}>
      {item.photo ? (
        <Photo photo={item.photo} alt="" sizes="64px" className="thumb-photo" />
      ) : item.product_image ? (
        <img src={item.product_image} alt="" width={64} height={64} loading="lazy" />
      ) : (
        <span className="no-img thumb">No image available</span>
      )}
      <div className="item-main">
        <a href={`/single-product/${encodeURIComponent(item.slug)}`} className="item-name">
          {item.product_name}
        </a>
        <span className="muted">
          {formatPhp(item.price)} / {noun} · {formatPhp(item.price_per_case)} / case of {item.quantity_per_pack}
        </span>
        {item.available ? (
          <form method="post" action="/cart" className="item-qty" onSubmit={submit}>
            <FormCall call={calls.updateCart} />
            <input type="hidden" name="product_id" value={item.id} />
            <PlaceFields place={actions.place} />
            <QuantityCounter
              id={`qty-${item.id}`}
              name="quantity"
              label={`Quantity of ${item.product_name}`}
              value={item.quantity}
              debounceMs={CART_DEBOUNCE_MS}
              onChange={(n) => actions.update(item.id, n)}
            />
            {!hydrated && <button type="submit">Update</button>}
          </form>
        ) : (
          <p className="warning">
            {count(item.quantity, noun)}: {item.unavailable_reason}
          </p>
        )}
      </div>
      <span className="amount">{item.available ? formatPhp(item.total_price) : ''}</span>
      <RemoveButton label="Remove" name={item.product_name} ids={[item.id]} actions={actions} />
    </li>
  );
}

/** A case panel: collapsible; its header says what the case holds and what it needs. */
export function CasePanel({ c, actions, goToCase }: { c: CartCase; actions: CartActions; goToCase: ReactNode }) {
  return (
    <details className="case-panel" open>
      <summary>
        <span className="case-name">{c.name}</span> <span className="case-count">{casesLabel(c)}</span>{' '}
        <span className="case-summary">{c.summary}</span> <span className="case-used">{usedLabel(c)}</span>{' '}
        {c.missing > 0 && <span className="need">Need {c.missing} More</span>} <span className="amount">{formatPhp(c.total)}</span>
      </summary>
      <ul className="case-items">
        {c.items.map((i) => (
          <ItemRow key={i.id} item={i} noun={c.unit_noun} actions={actions} />
        ))}
      </ul>
      <p className="case-total">
        Total <strong>{formatPhp(c.total)}</strong>
      </p>
      <div className="case-actions">
        <a className="button secondary" href={`/buy-beer?filterByType=${c.family}`}>
          Add More
        </a>
        {goToCase}
        <RemoveButton label="Remove Case" name={c.name} ids={c.items.map((i) => i.id)} actions={actions} />
      </div>
    </details>
  );
}

/** Returned empties: how many empty cases the shopper returns against a deposit, and the credit. */
export function EmptiesForm({ line, actions }: { line: EmptiesLine; actions: CartActions }) {
  const hydrated = useHydrated();
  const id = `empties-${line.deposit_id}`;
  return (
    <form
      method="post"
      action="/cart"
      className="empties-form"
      onSubmit={(e) => {
        if (!hydrated) return;
        e.preventDefault();
        const n = Number(new FormData(e.currentTarget).get('cases'));
        if (Number.isInteger(n) && n >= 0 && n <= line.max_cases) actions.returnEmpties(line.deposit_id, n);
      }}
    >
      <FormCall call={calls.returnEmpty} />
      <input type="hidden" name="deposit_id" value={line.deposit_id} />
      <PlaceFields place={actions.place} />
      <label htmlFor={id}>
        Empty cases you return: {line.name} ({formatPhp(line.per_case)} a case, at most {line.max_cases})
      </label>
      <div className="empties-row">
        <input id={id} name="cases" type="number" inputMode="numeric" min={0} max={line.max_cases} step={1} defaultValue={line.returned} />
        <button type="submit" className="secondary">
          Return Empties
        </button>
      </div>
      <p className="muted">
        Credit: <span className="amount">{formatPhp(-line.credit)}</span>
      </p>
    </form>
  );
}
