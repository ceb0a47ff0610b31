// Submit Order with JavaScript: the checkout form's fields, posted as they are to the page's own
// address (as without JavaScript) asking for JSON. Unlike the account forms, the checkout needs
// the answer's status: a 409 means the cart or its total changed since the page showed it.
import { NETWORK_FAILED } from '../../../api/send';
import { deliver } from '../../../api/outbox';

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

/**
 * Posts the checkout form; on a failing link the same form is sent again until answered (its cart
 * revision is the order's key: one order however often it arrives) or the shopper gives up.
 */
export async function postCheckout(form: HTMLFormElement): Promise<CheckoutAnswer> {
  const fields = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.append(name, value);
  const answer = await deliver(async (signal) => {
    const res = await fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      body: fields,
      signal,
    });
    return { status: res.status, text: await res.text() };
  });
  return answer ? readAnswer(answer.status, answer.text) : { status: 0, message: NETWORK_FAILED, errors: {} };
}
