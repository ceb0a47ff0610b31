// Submit Order with JavaScript: the checkout form's fields, posted as they are to the page's own
// address (as without JavaScript) asking for JSON. Unlike the account forms, the checkout needs
// the answer's status: a 409 means the cart or its total changed since the page showed it. On a
// failing link it is a write that outlives the page (api/waiting.ts): kept on the device, sent
// again until the store answers, from whichever page is open, and an order placed after its page
// had gone is told with a link to it (`orderAnswered`).
import type { QueryClient } from '@tanstack/react-query';
import { sendForm, SIGNED_OUT, toSignIn } from '../../../components/form';
import { tell, type Answer, type Write } from '../../../api/waiting';

export type CheckoutAnswer =
  | { status: number; location: string }
  | { status: number; message: string; errors: Record<string, string[]> };

export const FAILED = 'Something went wrong on our side. Please try again.';

/** Reads the server's answer to a posted form: `{location}`, or the form's messages. */
export function readAnswer(status: number, text: string): CheckoutAnswer {
  try {
    const a = JSON.parse(text) as Partial<{ location: string; message: string; errors: Record<string, string[]> }>;
    if (a.location) return { status, location: a.location };
    return { status, message: a.message || FAILED, errors: a.errors ?? {} };
  } catch {
    // A refusal before the form was read (another site, too large) is plain text.
    return { status, message: text || FAILED, errors: {} };
  }
}

/** What the shopper sees of Submit Order while it waits to be sent. */
export const SUBMIT_LABEL = 'Submit Order';
/** What they are told of an order placed after its page had gone. */
export const PLACED_LATE = 'Your order is placed.';
/** What they are told of an order paid online placed after its page had gone: its link is PayMongo's page. */
export const PAY_LATE = 'Your order waits for your payment.';
/** What they are told when they gave Submit Order up: a try may have reached the store. */
export const ORDER_UNSURE = 'We could not reach the store, so we cannot tell whether your order was placed. Check your email for its confirmation before you submit it again.';

/**
 * Posts the checkout form; on a failing link the same form is sent again until answered (its cart
 * revision is the order's key: one order however often it arrives) or the shopper gives up.
 */
export async function postCheckout(form: HTMLFormElement): Promise<CheckoutAnswer> {
  const answer = await sendForm(form, null, { label: SUBMIT_LABEL }, 'order');
  return answer ? readAnswer(answer.status, answer.text) : { status: 0, message: ORDER_UNSURE, errors: {} };
}

/**
 * The answer of a Submit Order whose page had gone (a refusal is told by the writes' machinery):
 * the order placed, told with a link to its page; everything the page holds asked for again (the
 * cart is empty now).
 */
export function orderAnswered(client: QueryClient, write: Write, answer: Answer): void {
  const placed = readAnswer(answer.status, answer.text);
  void client.invalidateQueries();
  if (!('location' in placed)) return;
  if (toSignIn(placed.location)) tell({ id: write.id, label: write.label, done: false, message: SIGNED_OUT, href: placed.location });
  else tell({ id: write.id, label: write.label, done: true, message: /^https?:/.test(placed.location) ? PAY_LATE : PLACED_LATE, href: placed.location });
}
