// Unsafe API calls from the browser (forms with JavaScript), with the API's answer handling: a 401
// that brings a new token (the server sets it as the session cookie and names it in the
// `access-token` header) is retried once; another 401 means the member is no longer logged in; a
// 500 ends the page's session state. Field errors of a 422 come back by field. A write whose
// repeat is harmless is sent again on a failing link, and kept until it is answered, past the page
// (`retry`, see waiting.ts).

import type { Call, ErrorBody, RefusalData, ValidationErrorBody } from './contract.gen';
import { fillTemplate, type Vars } from '../lib/keys';
import { readAnswer, type Answer } from './fetch';
import { requestKey } from './request-key';
import { sendWrite } from './waiting';

export type Sent<A> =
  | { ok: true; status: number; data: A }
  | { ok: false; status: number; message: string; errors: Record<string, string[]>; refusal?: RefusalData };

export const NETWORK_FAILED = 'We could not reach the store. Check your connection and try again.';

export interface SendOptions {
  path?: Vars;
  body?: unknown;
  headers?: Record<string, string>;
  /** Called when the session turned out to be gone (a second 401): the page shows a guest again. */
  onSignedOut?: () => void;
  /**
   * A write whose repeat is harmless (a request key, a revision, a value set): sent again on a
   * failing link until answered or given up, past the page (`waiting.ts`): what the shopper sees
   * waiting, and the feature its answer goes to when a later page gets it.
   */
  retry?: { label: string; kind: string };
}


export async function send<A>(call: Call<A>, opts: SendOptions = {}): Promise<Sent<A>> {
  const url = fillTemplate(call.key, opts.path ?? {});
  const read = (signal?: AbortSignal) => readAnswer(url, call.method, opts.body, signal, opts.headers);
  const attempt = async (signal?: AbortSignal) => {
    const first = await read(signal);
    return first.status === 401 && first.token ? read(signal) : first;
  };
  let answer: Answer | null;
  try {
    if (opts.retry) {
      const key = (opts.body as { request_key?: unknown } | undefined)?.request_key;
      const id = typeof key === 'string' ? key : requestKey();
      answer = await sendWrite({ id, url, method: call.method, body: opts.body, madeAt: Date.now(), ...opts.retry });
    } else {
      answer = await attempt();
    }
  } catch {
    answer = null;
  }
  if (!answer) return { ok: false, status: 0, message: NETWORK_FAILED, errors: {} };
  const body = answer.body as (A & Partial<ErrorBody & ValidationErrorBody>) | null;
  if (answer.status >= 200 && answer.status < 300) return { ok: true, status: answer.status, data: body as A };
  if (answer.status === 401) opts.onSignedOut?.();
  return {
    ok: false,
    status: answer.status,
    message: body?.message ?? body?.error ?? 'Something went wrong on our side. Please try again.',
    errors: body?.errors ?? {},
    // A cart or checkout refusal names the products concerned (`data.products`).
    ...(refusalOf(body) ? { refusal: refusalOf(body) } : {}),
  };
}

function refusalOf(body: unknown): RefusalData | undefined {
  const data = (body as { data?: Partial<RefusalData> } | null)?.data;
  return data && typeof data.error === 'string' && Array.isArray(data.products) ? (data as RefusalData) : undefined;
}
