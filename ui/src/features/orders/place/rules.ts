// The checkout's rules that are not the server's: what the form starts with and what it says of
// the fulfillment the cart was priced for. Pure functions, tested in rules.test.ts.
import { PAYMENT_BY_FULFILLMENT, PICKUP, type AddressView, type CartAnswer, type Member } from '../../../api/contract.gen';

/** The fulfillment ids, as the server numbers them. */
export { DELIVERY, PICKUP } from '../../../api/contract.gen';

/** How the shopper pays, by the fulfillment (the server writes the same words on the order). */
export function paymentOf(fulfillment: number): string {
  const words: Record<string, string> = PAYMENT_BY_FULFILLMENT;
  return words[String(fulfillment === PICKUP ? PICKUP : fulfillment)] ?? words['1'];
}

/** The choice of paying online, with the methods the store takes: "Pay online now: GCash, Maya or QR Ph". */
export function onlineChoice(methods: string[]): string {
  if (methods.length === 0) return 'Pay online now';
  const last = methods[methods.length - 1];
  return `Pay online now: ${methods.length === 1 ? last : `${methods.slice(0, -1).join(', ')} or ${last}`}`;
}

/** What paying online means for the shopper. */
export const ONLINE_HINT = "Paying online takes you to PayMongo's page to pay. We prepare your order once it is paid.";

/**
 * What the page says when the shopper asked for pickup (or delivery) and the cart was priced for
 * the other: the city does not offer it (the cart API prices for delivery then).
 */
export function fulfillmentNote(requested: number, priced: number, city: string | null): string | null {
  if (requested === priced) return null;
  const where = city ? ` in ${city}` : ' here';
  return requested === PICKUP ? `Pickup is not offered${where}; we deliver your order.` : `Delivery is not offered${where}.`;
}

/** The contact a member's form starts with: their name and mobile number. */
export function contactOf(member: Member | null): { contact_name: string; mobile: string } {
  if (!member) return { contact_name: '', mobile: '' };
  return { contact_name: `${member.firstname} ${member.lastname}`.trim(), mobile: member.mobile };
}

/**
 * The saved address the form starts with: the one in the barangay (and street, when one is
 * chosen) the cart is priced for, so a member's house line is filled without JavaScript too.
 */
export function savedAddressFor(addresses: AddressView[], barangay: number | null, street: number | null): AddressView | null {
  if (barangay === null) return null;
  const here = addresses.filter((a) => a.barangay_id === barangay);
  return here.find((a) => a.street_id === street) ?? (street === null ? (here[0] ?? null) : null);
}

/** Whether the page holds a cart with nothing in it. */
export function isEmptyCart(cart: CartAnswer): boolean {
  return cart.item_count === 0;
}

/** A number from a query variable or a form value (null when unset or not a whole number). */
export function numberOf(v: string | null | undefined): number | null {
  if (v === null || v === undefined || v === '' || !/^\d+$/.test(v)) return null;
  return Number(v);
}
