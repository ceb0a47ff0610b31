// The category and location gates (with the cart's reset question): a chunk of their own, loaded
// when one of them opens (Gates.tsx), never in the first load of a page past the gates.
import { RadioGroup } from '../../components/RadioGroup';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { calls, DEFAULT_FULFILLMENT, type CartAnswer, type PackagingView } from '../../api/contract.gen';
import { requestKey } from '../../api/request-key';
import { pathOf, searchParam, useHydrated, usePage } from '../../page';
import { AreaSelects, StreetSelect, useAddressPicker } from './AddressPicker';
import { Dialog } from '../../components/Dialog';
import { num } from '../../components/Select';
import { gateQueries } from './queries';
import { addressesQuery } from '../accounts/queries';
import { addressLine } from '../accounts';
import { Csrf } from '../../components/form';
import { choiceOf, useGate } from './state';
import { cartQuery } from '../cart/queries';
import { isKeg, needsReset, productIds, RESET_QUESTION, sendCart, useCartView, useSetCart } from '../cart';

/** The cart as this page knows it: the latest answer, the cart page's own data, or the visitor's part. */
function useKnownCart(): CartAnswer | null {
  const page = usePage();
  const view = useCartView();
  const loaded = useQuery({ ...cartQuery.options(page.vars), enabled: false });
  return view.latest ?? loaded.data ?? view.cart;
}

/**
 * The reset question when the chosen category is of the other family than the cart holds: Yes
 * empties the cart and goes on with the new category, No keeps the original one. Without
 * JavaScript Yes posts the category again with `reset=yes` (and the session's token: the cart
 * page asks it), No is a link back.
 */
function ResetQuestion({ chosen, cart, onNo }: { chosen: PackagingView; cart: CartAnswer | null; onNo: () => void }) {
  const page = usePage();
  const { chooseCategory } = useGate();
  const setCart = useSetCart();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const back = pathOf(page.url);
  const yes = async (e: FormEvent) => {
    e.preventDefault();
    const ids = productIds(cart);
    if (busy) return;
    setBusy(true);
    if (ids.length > 0) {
      const body = { product_id: ids, ...(cart ? { barangay: cart.barangay_id } : {}), request_key: requestKey() };
      const sent = await sendCart(calls.removeFromCart, { body, retry: { label: 'Empty your cart for another category', kind: 'cart' } });
      if (!sent.ok && sent.status !== 404) {
        setBusy(false);
        setFailed(sent.message);
        return;
      }
      if (sent.ok) setCart(sent.data);
    }
    chooseCategory(chosen);
  };
  return (
    <Dialog id="reset" title={RESET_QUESTION}>
      {failed && <p role="alert">{failed}</p>}
      <div className="dialog-actions">
        <form method="post" action="/gate/category" onSubmit={yes}>
          <input type="hidden" name="category_id" value={chosen.id} />
          <input type="hidden" name="reset" value="yes" />
          <input type="hidden" name="return_to" value={back} />
          <Csrf />
          <button type="submit" aria-busy={busy || undefined}>
            Yes
          </button>
        </form>
        <a
          className="button secondary"
          href={back}
          onClick={(e) => {
            e.preventDefault();
            onNo();
          }}
        >
          No
        </a>
      </div>
    </Dialog>
  );
}

function CategoryGate() {
  const page = usePage();
  const { chooseCategory, rememberCategory, keepCategory } = useGate();
  const cart = useKnownCart();
  const client = useQueryClient();
  // A page that knows nothing of the cart yet asks for it before a category is taken.
  const loadCart = async (): Promise<CartAnswer | null> => {
    const q = cartQuery.options(page.vars);
    if (!q.enabled) return null;
    try {
      return await client.fetchQuery(q);
    } catch {
      return null;
    }
  };
  const { data, isPending, isError } = useQuery(gateQueries.packagings.options());
  // The question the server asked without JavaScript (`?reset={id}` on the cart page), or the one asked here.
  const asked = page.params.includes('reset') ? searchParam(page.url, 'reset') : null;
  const [asking, setAsking] = useState<PackagingView | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const question = asking ?? (dismissed ? null : (data?.results.find((p) => String(p.id) === asked) ?? null));
  if (question)
    return (
      <ResetQuestion
        chosen={question}
        cart={cart}
        onNo={() => {
          setAsking(null);
          setDismissed(true);
          keepCategory();
        }}
      />
    );
  return (
    <Dialog id="category" title="Cheers! What are you ordering?">
      {isPending ? (
        <p role="status">Loading…</p>
      ) : isError ? (
        <p role="alert">We could not load the categories. Please reload the page.</p>
      ) : (
        <ul className="categories">
          {data.results.map((p) => (
            <li key={p.id}>
              <form
                method="post"
                action="/gate/category"
                onSubmit={async (e) => {
                  e.preventDefault();
                  if (needsReset(cart ?? (await loadCart()), p.filter_type)) {
                    rememberCategory();
                    setAsking(p);
                  } else chooseCategory(p);
                }}
              >
                <input type="hidden" name="category_id" value={p.id} />
                <input type="hidden" name="return_to" value={pathOf(page.url)} />
                <button type="submit" className="category">
                  {p.image ? <img src={p.image} alt="" width={96} height={96} /> : <span className="no-img">No image available</span>}
                  <span className="category-name">{p.name}</span>
                  <span className="category-note">{p.custom_description}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

/**
 * A member's saved addresses, each with USE THIS ADDRESS (a form post of the gate's steps
 * without JS; with it, the gate is filled at once).
 */
function SavedAddresses({ returnTo }: { returnTo: string }) {
  const { member } = usePage();
  const { chooseLocation } = useGate();
  const saved = useQuery({ ...addressesQuery.options(), enabled: !!member });
  const list = saved.data?.results ?? [];
  if (!member || list.length === 0) return null;
  return (
    <section aria-labelledby="saved-title" className="saved-addresses">
      <h3 id="saved-title">Your saved addresses</h3>
      <ul>
        {list.map((a) => (
          <li key={a.id}>
            <p>{addressLine(a)}</p>
            <form
              method="post"
              action="/gate/location"
              onSubmit={(e) => {
                e.preventDefault();
                chooseLocation(choiceOf(a));
              }}
            >
              <input type="hidden" name="return_to" value={returnTo} />
              <input type="hidden" name="fulfillment" value={DEFAULT_FULFILLMENT} />
              <input type="hidden" name="province" value={a.province_id} />
              <input type="hidden" name="city" value={a.city_id} />
              <input type="hidden" name="barangay" value={a.barangay_id} />
              {a.street_id !== null && <input type="hidden" name="street" value={a.street_id} />}
              <button type="submit" aria-label={`USE THIS ADDRESS: ${addressLine(a)}`}>
                USE THIS ADDRESS
              </button>
            </form>
          </li>
        ))}
      </ul>
      <p>Or choose another location:</p>
    </section>
  );
}

function LocationGate() {
  const page = usePage();
  const { gate, chooseLocation, open } = useGate();
  const [fulfillment, setFulfillment] = useState<number>(num(page.vars.gateFulfillment) ?? gate.fulfillmentId ?? DEFAULT_FULFILLMENT);
  const picker = useAddressPicker({ fulfillment, keg: isKeg(gate.family) });
  const { city, barangay, street, needsStreet } = picker;
  const fulfillments = useQuery(gateQueries.fulfillments.options());
  const hydrated = useHydrated();
  const ready = city !== null && barangay !== null && picker.streets.isSuccess && (!needsStreet || street !== null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return; // Continue does nothing until the location is complete.
    chooseLocation({
      fulfillmentId: fulfillment,
      cityId: city,
      cityName: picker.cityList?.find((c) => c.city_id === city)?.city_name ?? '',
      barangayId: barangay,
      barangayName: picker.barangays.data?.results.find((b) => b.id === barangay)?.barangay_name ?? '',
      streetId: needsStreet ? street : null,
    });
  };
  const types = fulfillments.data?.results ?? [];
  return (
    <Dialog id="location" title="Where should we bring your beer?">
      <SavedAddresses returnTo={pathOf(page.url)} />
      <form method="post" action="/gate/location" onSubmit={submit} className="location-form">
        <input type="hidden" name="return_to" value={pathOf(page.url)} />
        {types.length > 1 && (
          <RadioGroup
            legend="Delivery or pickup"
            name="fulfillment"
            items={types}
            value={fulfillment}
            id={(t) => t.id}
            text={(t) => t.name}
            onChange={(id) => {
              setFulfillment(id);
              picker.chooseCity(null);
            }}
          />
        )}
        {types.length === 1 && <input type="hidden" name="fulfillment" value={types[0].id} />}
        <AreaSelects picker={picker} />
        <StreetSelect picker={picker} name="street" />
        <div className="dialog-actions">
          {/* Without JavaScript Continue steps through the lists, so it is never marked disabled. */}
          <button type="submit" aria-disabled={hydrated ? !ready : undefined}>
            Continue
          </button>
          {gate.barangayId !== null && (
            <a
              className="button secondary"
              href={pathOf(page.url)}
              onClick={(e) => {
                e.preventDefault();
                open(null);
              }}
            >
              Cancel
            </a>
          )}
        </div>
      </form>
    </Dialog>
  );
}

/** The gate's step after the policy: the category, then the location (the shopper's choices). */
export function GateSteps({ open }: { open: 'category' | 'location' }) {
  return open === 'category' ? <CategoryGate /> : <LocationGate />;
}
