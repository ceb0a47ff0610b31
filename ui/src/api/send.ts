// Unsafe API calls from the browser (forms with JavaScript), with the API's answer handling: a 401
// that brings a new token (the server sets it as the session cookie and names it in the
// `access-token` header) is retried once; another 401 means the member is no longer logged in; a
// 500 ends the page's session state. Field errors of a 422 come back by field.

import type { Call, ErrorBody, RefusalData, ValidationErrorBody } from './contract.gen';
import { fillTemplate, type Vars } from '../lib/keys';

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
}

export async function send<A>(call: Call<A>, opts: SendOptions = {}): Promise<Sent<A>> {
  const url = fillTemplate(call.key, opts.path ?? {});
  const attempt = () =>
    fetch(url, {
      method: call.method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(opts.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...opts.headers,
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  let res: Response;
  try {
    res = await attempt();
    if (res.status === 401 && res.headers.get('access-token')) res = await attempt();
  } catch {
    return { ok: false, status: 0, message: NETWORK_FAILED, errors: {} };
  }
  const body = (await res.json().catch(() => null)) as (A & Partial<ErrorBody & ValidationErrorBody>) | null;
  if (res.ok) return { ok: true, status: res.status, data: body as A };
  if (res.status === 401) opts.onSignedOut?.();
  return {
    ok: false,
    status: res.status,
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
