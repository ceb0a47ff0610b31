import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * The loading, error and empty states every list shares: a status while loading, an alert (with
 * Try again when asked) on failure, the empty text when there is nothing, else the content.
 */
export function QueryState<T>({
  query,
  loading,
  error,
  retry = false,
  empty,
  isEmpty,
  children,
}: {
  query: UseQueryResult<T>;
  loading: string;
  error: string;
  retry?: boolean;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <p role="status">{loading}</p>;
  if (query.isError)
    return (
      <p role="alert">
        {error}
        {retry && (
          <>
            {' '}
            <button onClick={() => query.refetch()}>Try again</button>
          </>
        )}
      </p>
    );
  if (isEmpty?.(query.data)) return <p className="empty">{empty}</p>;
  return <>{children(query.data)}</>;
}
