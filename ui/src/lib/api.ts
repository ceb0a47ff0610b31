import { QueryClient, type QueryFunctionContext } from '@tanstack/react-query';

/** SPEC 7 gives some reads as POST (the category list, the cities for kegs). */
const POST_READS = ['/api/v3/packagings', '/api/v3/locations/cities'];

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Fetches the JSON behind a query key (an API path with its query string). */
export async function fetchKey({ queryKey, signal }: QueryFunctionContext): Promise<unknown> {
  const key = String(queryKey[0]);
  const post = POST_READS.includes(key.split('?')[0]);
  const res = await fetch(key, {
    method: post ? 'POST' : 'GET',
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const message = body && typeof body.error === 'string' ? body.error : 'Request failed';
    throw new ApiError(message, res.status);
  }
  return body;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: fetchKey,
        staleTime: 5 * 60_000,
        retry: 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}
