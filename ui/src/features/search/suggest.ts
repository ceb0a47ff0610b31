// Search suggestions as the shopper types in the header's search box (a WAI-ARIA 1.2 combobox with
// a listbox popup): what is asked and when, which answer may show, and how the keys move through
// the list. No React and no DOM here, so node tests all of it; Suggestions.tsx is the view. Both
// are loaded only when the search box is first used (SearchBox.tsx), never on a page's first load.
//
// The choices:
// - asked 200 ms after the last keystroke, from 2 characters (trimmed, inner spaces as one);
// - an answer shows only for the text now in the box: a newer keystroke aborts the older call and
//   counts up a sequence number that the older answer no longer matches (an answer that comes
//   anyway is dropped), and the state drops an answer for another text than its own;
// - while a newer text is being asked, the list keeps what it shows (no flashing), unhighlighted;
//   an error closes it, quietly;
// - at most SUGGESTIONS, the orderable ones first, then the ones not orderable at the shopper's place;
// - ArrowDown/ArrowUp open the list (on the first / last option) and move through it, wrapping
//   around at both ends; Enter on a highlighted option goes to its product page, Enter without one
//   sends the form; Escape closes the list, a second Escape clears the text; Home, End,
//   ArrowLeft and ArrowRight stay in the text and take the highlight off; Tab leaves as always.
import { SEARCH_MAX_QUERY, type ProductView, type SearchAnswer } from '../../api/contract.gen';
import { formatPhp } from '../../lib/money';
import { SUGGESTIONS } from './queries';

/** The shortest text that is asked for suggestions. */
export const MIN_CHARS = 2;
/** How long the box waits after a keystroke before asking (ms). */
export const DEBOUNCE_MS = 200;
/** How many answers are kept, by query (backspacing over a text asks nothing again). */
const KEPT = 30;

export interface Suggestion {
  slug: string;
  name: string;
  /** The price (orderable) or why it cannot be ordered. */
  detail: string;
  /** Orderable at the shopper's place. */
  here: boolean;
  /** The product's page. */
  href: string;
}

export interface ComboState {
  /** What the box holds, as it is asked ('' when too short to ask). */
  query: string;
  /** The suggestions shown, for `shownFor`. */
  items: Suggestion[];
  shownFor: string;
  /** The list is displayed (and has items). */
  open: boolean;
  /** The highlighted option, -1 for none (the text has the focus). */
  active: number;
  focused: boolean;
  /** What the polite live region says. */
  status: string;
}

export const INITIAL: ComboState = { query: '', items: [], shownFor: '', open: false, active: -1, focused: false, status: '' };

/** The query the store is asked for `text`: trimmed, spaces as one, at most the store's length. */
export function queryOf(text: string): string {
  return text.trim().replace(/\s+/g, ' ').slice(0, SEARCH_MAX_QUERY).trim();
}

/** The suggestions of an answer: the orderable ones first, at most SUGGESTIONS, each product once. */
export function suggestionsOf(answer: SearchAnswer): Suggestion[] {
  const one = (p: ProductView, here: boolean): Suggestion => {
    // The price the product is listed with, as the catalog's listPrice has it (its first pack
    // option's; the test holds the two together). Not imported: this chunk sharing
    // features/catalog/price.ts with the product cards would make it a chunk of its own on every
    // product list's first load.
    const first = p.pack_options[0];
    const per = (first?.label ?? '').toLowerCase();
    return {
      slug: p.slug,
      name: p.product_name,
      detail: here ? `${formatPhp(first?.price ?? p.price)}${per ? ` / ${per}` : ''}` : 'Not available where you are',
      here,
      href: `/single-product/${encodeURIComponent(p.slug)}`,
    };
  };
  const all = [...answer.products.map((p) => one(p, true)), ...answer.elsewhere.map((p) => one(p, false))];
  return all.filter((s, i) => all.findIndex((t) => t.slug === s.slug) === i).slice(0, SUGGESTIONS);
}

/** What the live region says of `n` suggestions. */
export function countText(n: number): string {
  if (n === 0) return 'No suggestions';
  return `${n} ${n === 1 ? 'suggestion' : 'suggestions'}`;
}

export type ComboEvent =
  | { type: 'typed'; query: string }
  | { type: 'answered'; query: string; items: Suggestion[] }
  | { type: 'failed'; query: string }
  | { type: 'focused' }
  | { type: 'blurred' }
  /** The list is put away (Escape, a suggestion chosen); the text and the focus stay. */
  | { type: 'closed' };

/** The state after an event (keys aside: `press`). */
export function reduce(s: ComboState, e: ComboEvent): ComboState {
  switch (e.type) {
    case 'typed':
      if (e.query === s.query) return s;
      if (e.query.length < MIN_CHARS) return { ...s, query: e.query, items: [], shownFor: '', open: false, active: -1, status: '' };
      // The list stays as it is until the new answer comes, without a highlight.
      return { ...s, query: e.query, active: -1 };
    case 'answered':
      // An answer for another text than the box's is stale: it never shows.
      if (e.query !== s.query) return s;
      return { ...s, items: e.items, shownFor: e.query, open: s.focused && e.items.length > 0, active: -1, status: s.focused ? countText(e.items.length) : '' };
    case 'failed':
      if (e.query !== s.query) return s;
      return { ...s, items: [], shownFor: '', open: false, active: -1, status: '' };
    case 'focused':
      return s.focused ? s : { ...s, focused: true };
    case 'blurred':
      return { ...s, focused: false, open: false, active: -1 };
    case 'closed':
      return s.open || s.active >= 0 ? { ...s, open: false, active: -1 } : s;
  }
}

export interface KeyOutcome {
  state: ComboState;
  /** The key's own action (caret move, form submission, the browser's clearing) is prevented. */
  prevent: boolean;
  /** Go to this suggestion's page. */
  go: Suggestion | null;
  /** Empty the box. */
  clear: boolean;
}

/** What a key does, given the state and the text in the box. */
export function press(s: ComboState, key: string, text: string): KeyOutcome {
  const none: KeyOutcome = { state: s, prevent: false, go: null, clear: false };
  const n = s.items.length;
  switch (key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      if (n === 0 || !s.focused) return none;
      const down = key === 'ArrowDown';
      let active: number;
      if (!s.open) active = down ? 0 : n - 1;
      else if (down) active = s.active >= n - 1 ? 0 : s.active + 1;
      else active = s.active <= 0 ? n - 1 : s.active - 1;
      return { ...none, state: { ...s, open: true, active }, prevent: true };
    }
    case 'Enter':
      if (!s.open || s.active < 0 || s.active >= n) return none;
      return { ...none, state: reduce(s, { type: 'closed' }), prevent: true, go: s.items[s.active] };
    case 'Escape':
      if (s.open) return { ...none, state: reduce(s, { type: 'closed' }), prevent: true };
      if (text !== '') return { ...none, state: reduce(s, { type: 'typed', query: '' }), prevent: true, clear: true };
      return none;
    case 'Home':
    case 'End':
    case 'ArrowLeft':
    case 'ArrowRight':
      return s.active < 0 ? none : { ...none, state: { ...s, active: -1 } };
    default:
      return none;
  }
}

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(id: unknown): void;
}

const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

export interface Combo {
  state(): ComboState;
  subscribe(listener: () => void): () => void;
  /** The box's text changed. */
  typed(text: string): void;
  /** A key went down in the box: what the view does with it. */
  key(key: string, text: string): KeyOutcome;
  focused(): void;
  blurred(): void;
  /** Puts the list away (a suggestion was clicked: the page kept for the Back button has it closed). */
  close(): void;
  /** Stops the wait and the call under way. */
  dispose(): void;
}

/**
 * The suggestions of one search box: `ask` fetches a query's answer (aborted by its signal when
 * a newer text comes); `timers` stand in for the clock in tests.
 */
export function createCombo(ask: (query: string, signal: AbortSignal) => Promise<SearchAnswer>, timers: Timers = realTimers, delay = DEBOUNCE_MS): Combo {
  let state = INITIAL;
  const listeners = new Set<() => void>();
  const kept = new Map<string, Suggestion[]>();
  let seq = 0;
  let timer: unknown = null;
  let call: AbortController | null = null;
  const set = (next: ComboState) => {
    if (next === state) return;
    state = next;
    for (const l of listeners) l();
  };
  const send = (e: ComboEvent) => set(reduce(state, e));
  // Whatever was waiting or under way is for an older text from now on.
  const cancel = () => {
    seq += 1;
    if (timer !== null) timers.clear(timer);
    timer = null;
    call?.abort();
    call = null;
  };
  const fetchNow = (query: string, mine: number) => {
    timer = null;
    call = new AbortController();
    ask(query, call.signal).then(
      (answer) => {
        if (mine !== seq) return;
        call = null;
        const items = suggestionsOf(answer);
        kept.delete(query);
        kept.set(query, items);
        if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
        send({ type: 'answered', query, items });
      },
      () => {
        if (mine !== seq) return;
        call = null;
        send({ type: 'failed', query });
      },
    );
  };
  const combo: Combo = {
    state: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    typed(text) {
      const query = queryOf(text);
      if (query === state.query) return;
      cancel();
      send({ type: 'typed', query });
      if (query.length < MIN_CHARS) return;
      const known = kept.get(query);
      if (known) return send({ type: 'answered', query, items: known });
      const mine = seq;
      timer = timers.set(() => fetchNow(query, mine), delay);
    },
    key(key, text) {
      const outcome = press(state, key, text);
      set(outcome.state);
      if (outcome.clear) cancel();
      return outcome;
    },
    focused: () => send({ type: 'focused' }),
    blurred: () => send({ type: 'blurred' }),
    close: () => send({ type: 'closed' }),
    dispose: cancel,
  };
  return combo;
}
