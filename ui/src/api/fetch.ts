import type { ErrorBody } from './contract.gen';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
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
