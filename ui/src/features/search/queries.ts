import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

/** How many beers of each list a page of results shows. */
export const PAGE_SIZE = 24;

/** What the shopper's words find at their place (/search), a page's worth. */
export const searchQuery = defineQuery(calls.search, { limit: String(PAGE_SIZE) });
