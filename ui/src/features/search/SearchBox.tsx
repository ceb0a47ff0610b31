import { usePage } from '../../page';

/** The longest query the store reads (the search call's). */
const MAX_QUERY = 100;

/**
 * The header's search box: a GET form to /search, so it works without JavaScript; on the search
 * page it holds the query asked.
 */
export function SearchBox() {
  const page = usePage();
  return (
    <form role="search" action="/search" method="get" className="search-box">
      <label htmlFor="site-search" className="visually-hidden">
        Search beers
      </label>
      <input
        id="site-search"
        type="search"
        name="q"
        defaultValue={page.vars.q ?? ''}
        maxLength={MAX_QUERY}
        placeholder="Search: habagat lata, keg 30l…"
        autoComplete="off"
        enterKeyHint="search"
        required
      />
      <button type="submit">Search</button>
    </form>
  );
}
