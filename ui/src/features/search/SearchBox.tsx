import { lazy, Suspense, useRef, useState, type ComponentType } from 'react';
import { SEARCH_MAX_QUERY } from '../../api/contract.gen';
import { useHydrated, usePage } from '../../page';
import type { ComboAria, SuggestionsProps } from './Suggestions';

/** The suggestions' listbox (the box's `aria-controls`). */
const LIST_ID = 'site-search-suggestions';

/**
 * The suggestions as one types: a chunk of their own, loaded when the box is first used. A chunk
 * that cannot be fetched (the link dropped) leaves the plain form, never the error page.
 */
const Suggestions = lazy<ComponentType<SuggestionsProps>>(() =>
  import('./Suggestions').then(
    (m) => ({ default: m.Suggestions }),
    () => ({ default: () => null }),
  ),
);

/**
 * The header's search box: a GET form to /search, so it works without JavaScript; on the search
 * page it holds the query asked. Once hydrated it is a combobox (WAI-ARIA 1.2, listbox popup):
 * its first focus or keystroke loads the suggestions (Suggestions.tsx, suggest.ts), kept out of
 * every page's first load; the server's render and the first client render are the plain form.
 */
export function SearchBox() {
  const page = usePage();
  const hydrated = useHydrated();
  const box = useRef<HTMLInputElement>(null);
  const [used, setUsed] = useState(false);
  const [aria, setAria] = useState<ComboAria>({ expanded: false, active: null });
  const use = () => setUsed(true);
  const combo = hydrated
    ? {
        role: 'combobox',
        'aria-autocomplete': 'list',
        'aria-controls': LIST_ID,
        'aria-expanded': aria.expanded,
        'aria-activedescendant': aria.active ?? undefined,
      } as const
    : {};
  return (
    <form role="search" action="/search" method="get" className="search-box">
      <label htmlFor="site-search" className="visually-hidden">
        Search beers
      </label>
      <input
        ref={box}
        id="site-search"
        type="search"
        name="q"
        defaultValue={page.vars.q ?? ''}
        maxLength={SEARCH_MAX_QUERY}
        placeholder="Search: habagat lata, keg 30l…"
        autoComplete="off"
        enterKeyHint="search"
        required
        onFocus={use}
        onInput={use}
        {...combo}
      />
      <button type="submit">Search</button>
      {used && (
        <Suspense fallback={null}>
          <Suggestions input={box} listId={LIST_ID} onAria={setAria} />
        </Suspense>
      )}
    </form>
  );
}
