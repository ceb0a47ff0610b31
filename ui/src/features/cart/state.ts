// The cart as the page knows it. Once the shopper changes the cart in this page, the
// latest answer of a cart call is the cart: it is kept in one small client store (an entry of the
// page's react-query cache, so each server render has its own and nothing leaks between shoppers),
// read by the header, the drawer, the gates and the cart page. Add to Cart and the other cart
// calls go through here too. The cart's query itself is beside it (queries.ts).
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Answer, Write } from '../../api/waiting';
import { useCallback, useEffect, useState } from 'react';
import { ADDED_TO_CART, calls, type CartAnswer, type DisabledProduct, type Pack } from '../../api/contract.gen';
import { send, type SendOptions, type Sent } from '../../api/send';
import { requestKey } from '../../api/request-key';
import type { Call } from '../../api/contract.gen';
import { fetchJson } from '../../api/fetch';
import { cartQuery } from './queries';
import { fillTemplate, type Vars } from '../../lib/keys';
import { ADD_FAILED, ADD_UNSURE, CART_DEBOUNCE_MS, debounce } from './rules';
import { usePage } from '../../page';

/** What the store holds: the latest answer, the drawer's message, and how often the drawer was asked to open. */
export interface LatestCart {
  answer: CartAnswer | null;
  message: string | null;
  opened: number;
  /** A count the header shows without an answer: the cart as last seen, on the offline page. */
  lastSeen?: number;
}

const LATEST_KEY: [string] = ['cart:latest'];
const NONE: LatestCart = { answer: null, message: null, opened: 0 };

function useLatest(): LatestCart {
  const { data } = useQuery({
    queryKey: LATEST_KEY,
    queryFn: () => Promise.resolve(NONE),
    enabled: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return data ?? NONE;
}

/**
 * The cart as the page knows it: the latest answer of this page's cart calls, else the visitor's
 * part the server sent (`visitor.cart`, `visitor.cart_count`).
 */
export function useCartView(): { cart: CartAnswer | null; latest: CartAnswer | null; count: number; message: string | null; opened: number } {
  const { visitor, vars } = usePage();
  const latest = useLatest();
  // The cart and checkout pages hold the cart itself (loaded with the page): never fetched here.
  const loaded = useQuery({ ...cartQuery.options(vars), enabled: false }).data ?? null;
  const cart = latest.answer ?? loaded;
  return {
    latest: latest.answer,
    cart: cart ?? visitor?.cart ?? null,
    count: cart ? cart.item_count : (latest.lastSeen ?? visitor?.cart_count ?? 0),
    message: latest.message,
    opened: latest.opened,
  };
}

/** Replaces the cart with a call's answer; `open` opens the drawer with `message`. */
export function useSetCart(): (answer: CartAnswer, opts?: { message?: string | null; open?: boolean }) => void {
  const client = useQueryClient();
  return useCallback(
    (answer, opts = {}) => {
      client.setQueryData<LatestCart>(LATEST_KEY, (old = NONE) => ({
        answer,
        message: opts.message ?? null,
        opened: opts.open ? old.opened + 1 : old.opened,
      }));
    },
    [client],
  );
}

/**
 * The answer of a cart change a page before this one made and this page sent (api/waiting.ts):
 * it is the cart now.
 */
export function cartAnswered(client: QueryClient, _write: Write, answer: Answer): void {
  const body = answer.body as CartAnswer | null;
  if (!body || !Array.isArray(body.shopping_cart)) return;
  client.setQueryData<LatestCart>(LATEST_KEY, (old = NONE) => ({ ...old, answer: body, message: null }));
}

/** Makes the header count the cart as last seen (the offline page's), until an answer comes. */
export function useShowLastSeen(): (count: number) => void {
  const client = useQueryClient();
  return useCallback(
    (count) => {
      client.setQueryData<LatestCart>(LATEST_KEY, (old = NONE) => ({ ...old, lastSeen: count }));
    },
    [client],
  );
}

/** Loads the cart afresh for the page's place and makes it the latest (after a refusal). */
export function useRefetchCart(): (vars: Vars) => Promise<void> {
  const set = useSetCart();
  return useCallback(
    async (vars: Vars) => {
      const key = fillTemplate(cartQuery.template, vars);
      try {
        set(await fetchJson<CartAnswer>(key, 'GET'));
      } catch {
        /* other cart errors are silently ignored */
      }
    },
    [set],
  );
}

/**
 * A cart call: a change needs a live session; a visitor without one gets a guest
 * token first (`POST /guest-token`) and the call is sent once more.
 */
export async function sendCart<A>(call: Call<A>, opts: SendOptions): Promise<Sent<A>> {
  const sent = await send(call, opts);
  if (sent.ok || sent.status !== 401) return sent;
  const token = await send(calls.guestToken, { body: {} });
  return token.ok ? send(call, opts) : sent;
}

/** Where a cart call prices its answer: the gate's place (a barangay, optionally a street). */
export interface CartPlace {
  barangay: number;
  fulfillment?: number | null;
  street_id?: number | null;
}

export function placeBody(p: CartPlace): Record<string, number> {
  const body: Record<string, number> = { barangay: p.barangay };
  if (p.fulfillment) body.fulfillment = p.fulfillment;
  if (p.street_id) body.street_id = p.street_id;
  return body;
}

/** A refusal as the Error modal shows it: the message and the products concerned. */
export interface CartRefusal {
  message: string;
  products: DisabledProduct[];
}

export interface AddRequest {
  product_id: number;
  /** The product's name, for the add while it waits to be sent. */
  name: string;
  quantity: number;
  pack?: Pack;
  place: CartPlace;
}

/**
 * Add to Cart with JavaScript: waits 500 ms for more clicks, then posts; on success the cart is
 * the answer and the drawer opens with the `ADDED_TO_CART` message, on failure `refusal` holds what
 * the Error modal shows until `dismiss`.
 */
export function useAddToCart(fallback = ADD_FAILED) {
  const set = useSetCart();
  const [refusal, setRefusal] = useState<CartRefusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [debounced] = useState(() =>
    debounce<AddRequest>((r) => {
      setBusy(true);
      // Its own key: sent again on a failing link, the units are added once.
      const body = { product_id: r.product_id, quantity: r.quantity, ...(r.pack ? { pack: r.pack } : {}), ...placeBody(r.place), request_key: requestKey() };
      void sendCart(calls.addToCart, { body, retry: { label: `Add to cart: ${r.name}`, kind: 'cart' } }).then((sent) => {
        setBusy(false);
        if (sent.ok) set(sent.data, { message: ADDED_TO_CART, open: true });
        else
          setRefusal({
            // A refusal says why; given up on a failing link, the add may have been made.
            message: sent.status === 0 ? ADD_UNSURE : sent.status === 422 && sent.message ? sent.message : fallback,
            products: sent.refusal?.products ?? [],
          });
      });
    }, CART_DEBOUNCE_MS),
  );
  useEffect(() => () => debounced.cancel(), [debounced]);
  return { add: debounced.call, busy, refusal, dismiss: () => setRefusal(null) };
}
