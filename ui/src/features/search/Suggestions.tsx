// The search box's suggestions: the listbox under the box and its live region, and the box's
// events. A chunk of its own, loaded when the box is first focused or typed in (SearchBox.tsx);
// the rules are suggest.ts's.
import { useEffect, useLayoutEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import type { SearchAnswer } from '../../api/contract.gen';
import { fetchJson } from '../../api/fetch';
import { usePage } from '../../page';
import { suggestQuery } from './queries';
import { createCombo, type Combo } from './suggest';

/** What the box's combobox attributes say: whether the list is shown, and its highlighted option's id. */
export interface ComboAria {
  expanded: boolean;
  active: string | null;
}

export interface SuggestionsProps {
  input: RefObject<HTMLInputElement | null>;
  /** The listbox's id (the box's `aria-controls`). */
  listId: string;
  /** Tells the box what its attributes say now. */
  onAria: (aria: ComboAria) => void;
}

/** Listens to the box: its text, keys and focus. */
function useBox(input: RefObject<HTMLInputElement | null>, combo: Combo) {
  useEffect(() => {
    const box = input.current;
    if (!box) return undefined;
    const typed = () => combo.typed(box.value);
    const keydown = (e: KeyboardEvent) => {
      if (e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return;
      const outcome = combo.key(e.key, box.value);
      if (outcome.prevent) e.preventDefault();
      if (outcome.clear) box.value = '';
      if (outcome.go) window.location.assign(outcome.go.href);
    };
    const focus = () => combo.focused();
    const blur = () => combo.blurred();
    box.addEventListener('input', typed);
    box.addEventListener('keydown', keydown);
    box.addEventListener('focus', focus);
    box.addEventListener('blur', blur);
    // This chunk came after the first focus or keystroke: catch up with them.
    if (document.activeElement === box) combo.focused();
    if (box.value !== box.defaultValue) typed();
    return () => {
      box.removeEventListener('input', typed);
      box.removeEventListener('keydown', keydown);
      box.removeEventListener('focus', focus);
      box.removeEventListener('blur', blur);
      combo.dispose();
    };
  }, [input, combo]);
}

/** The suggestions under the header's search box, as the shopper types. */
export function Suggestions({ input, listId, onAria }: SuggestionsProps) {
  const { vars } = usePage();
  const barangay = vars.barangay;
  const [combo] = useState(() =>
    createCombo((q, signal) => fetchJson<SearchAnswer>(suggestQuery.options({ q, barangay }).queryKey[0], 'GET', signal)),
  );
  const state = useSyncExternalStore(combo.subscribe, combo.state, combo.state);
  useBox(input, combo);
  const optionId = (i: number) => `${listId}-${i}`;
  const expanded = state.open && state.items.length > 0;
  const active = expanded && state.active >= 0 ? optionId(state.active) : null;
  useLayoutEffect(() => {
    onAria({ expanded, active });
    if (active) document.getElementById(active)?.scrollIntoView({ block: 'nearest' });
  }, [expanded, active, onAria]);
  return (
    <>
      {/* A press on the list keeps the focus in the box (its blur would close the list before the click). */}
      <ul id={listId} role="listbox" aria-label="Search suggestions" className="suggestions" hidden={!expanded} onMouseDown={(e) => e.preventDefault()}>
        {state.items.map((s, i) => (
          <li
            key={s.slug}
            id={optionId(i)}
            role="option"
            aria-selected={i === state.active}
            className={s.here ? undefined : 'elsewhere'}
            onClick={() => {
              combo.close();
              window.location.assign(s.href);
            }}
          >
            <span className="suggestion-name">{s.name}</span> <span className="suggestion-detail">{s.detail}</span>
          </li>
        ))}
      </ul>
      <p role="status" className="visually-hidden">
        {state.status}
      </p>
    </>
  );
}
