import type { ErrorBody } from './contract.gen';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** An answer read whole: its status, the token a 401 may bring, its JSON (or null) and its text. */
export interface Answer {
  status: number;
  token: string | null;
  body: unknown;
  text: string;
}

/**
 * Sends a write with a JSON body (or none; with `form`, a form's urlencoded fields) and reads its
 * answer whole (send.ts, waiting-run.ts).
 */
export async function readAnswer(url: string, method: string, body: unknown, signal?: AbortSignal, headers: Record<string, string> = {}, form = false): Promise<Answer> {
  const type = body === undefined ? null : form ? 'application/x-www-form-urlencoded' : 'application/json';
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(type ? { 'Content-Type': type } : {}), ...headers },
    body: body === undefined ? undefined : form ? String(body) : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: a proxy's page */
  }
  return { status: res.status, token: res.headers.get('access-token'), body: json, text };
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
