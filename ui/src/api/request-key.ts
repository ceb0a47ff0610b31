// The key a write carries so that the store makes it once however often it arrives (a write sent
// again on a failing link: send.ts, waiting.ts).

/** A new request key: 32 hex digits from the browser's random source (any page, even plain http). */
export function requestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
