import type { ErrorBody } from './contract.gen';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** An answer read whole: its status, the token a 401 may bring, and its JSON (or null). */
export interface Answer {
  status: number;
  token: string | null;
  body: unknown;
}

/** Sends a write with a JSON body (or none) and reads its answer whole (send.ts, waiting-run.ts). */
export async function readAnswer(url: string, method: string, body: unknown, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: a proxy's page */
  }
  return { status: res.status, token: res.headers.get('access-token'), body: json };
}

/** Fetches the JSON behind a query key (an API path with its query string). */
export async function fetchJson<A>(key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', signal?: AbortSignal): Promise<A> {
  const res = await fetch(key, {
    method,
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  const body = (await res.json().catch(() => null)) as (A & Partial<ErrorBody>) | null;
  if (!res.ok) {
    const message = body && typeof body.error === 'string' ? body.error : 'Request failed';
    throw new ApiError(message, res.status);
  }
  return body as A;
}
