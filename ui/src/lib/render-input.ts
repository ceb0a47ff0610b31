import type { DehydratedState } from '@tanstack/react-query';
import type { CartAnswer, Gate } from '../api/contract.gen';

/** The gate as the server read it from the gate cookies, checked against the database. */
export type { Gate, Step as GateStep } from '../api/contract.gen';

/** What the server hands to the render (and embeds in the page for hydration). */
export interface RenderInput {
  /** Path and query of the request. */
  url: string;
  /** Route name the server matched (routes.ts). */
  route: string;
  /** HTTP status the page answers with. */
  status: number;
  /** The store's public address (PUBLIC_URL), for absolute links in structured data. */
  origin: string;
  /** The query-key variables the server resolved and validated (barangay, packaging, slug...). */
  vars: Record<string, string>;
  gate: Gate;
  /** The react-query cache for the page's data, keyed by API path. */
  state: DehydratedState;
  /** The logged-in member (checked against the session on the server), or null for a guest. */
  member?: MemberView | null;
  /** The CSRF token of this session's no-JS forms (pages with account forms, and members' pages). */
  csrf?: string | null;
  /** A form that came back from the server without JavaScript: what was entered and its messages. */
  form?: PostedForm | null;
  /**
   * The shopper's own small parts, filled in when the page is answered: a shared page is
   * rendered once for everyone with the same data and these come in their own script.
   */
  visitor?: Visitor | null;
  /**
   * The location notice flag (cookie `locationNotice`): the shopper put away the product
   * page's notice of areas, which stays away while the cookie lives. Part of the page's cache key.
   */
  locationNoticeSeen?: boolean;
  /** The browser asks to save data (`Save-Data: on`): photos are offered smaller (`Photo`). */
  saveData?: boolean;
}

export interface Visitor {
  /** Items (different products) in the cart: the header's count. */
  cart_count: number;
  /** The cart as the drawer shows it, priced for the gate's place (null: empty or no place yet). */
  cart: CartAnswer | null;
  /** The cart's revision (0 without a cart): what a refill form sends, so one click refills once. */
  cart_revision?: number;
  /** Only in the server's render of a shared page: the shopper's parts are left as sentinels. */
  shared?: boolean;
  /** The sentinels the shared render puts where the count, its label and the drawer go. */
  slots?: { count: string; label: string; drawer: string; revision: string };
}

export interface MemberView {
  firstname: string;
  policy_agreement_accepted: boolean;
}

export interface PostedForm {
  values: Record<string, string>;
  errors: Record<string, string[]>;
  message: string;
  /** A form the server answers with its page showing the call's answer (Download My Data). */
  answer?: unknown;
}

/** What the server entry answers: the body HTML and the head the page asked for. */
export interface RenderOutput {
  html: string;
  head: Head;
}

export interface Head {
  title?: string;
  description?: string;
  /** The page's picture for link previews (`og:image`), an absolute address. */
  image?: string;
  /** JSON-LD documents for `<script type="application/ld+json">`. */
  jsonLd?: unknown[];
  /** Overrides the route's canonical path. */
  canonical?: string;
}
