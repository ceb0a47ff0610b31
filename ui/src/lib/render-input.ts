import type { DehydratedState } from '@tanstack/react-query';

/** What the server hands to the render (and embeds in the page for hydration). */
export interface RenderInput {
  /** Path and query of the request. */
  url: string;
  /** Route name the server matched (routes.ts). */
  route: string;
  /** HTTP status the page answers with. */
  status: number;
  /** The query-key variables the server resolved and validated (barangay, packaging, slug...). */
  vars: Record<string, string>;
  /** The react-query cache for the page's data, keyed by API path. */
  state: DehydratedState;
}
