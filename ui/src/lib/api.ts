import { QueryClient } from '@tanstack/react-query';

export { ApiError, fetchJson } from '../api/fetch';

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5 * 60_000,
        retry: 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}
