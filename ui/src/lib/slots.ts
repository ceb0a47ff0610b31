// The sentinels of a shared page (issue 15): where a shopper's own parts go when a page is rendered
// once for everyone; the server fills them in per answer (crates/api/src/slotted.rs holds the
// same strings, and a test there reads this file). A component renders one only when
// `usePage().visitor?.shared` says the render is shared.
export const SLOTS = {
  count: '\uE000count\uE000',
  label: '\uE000label\uE000',
  drawer: '\uE000drawer\uE000',
} as const;
