import { useEffect, useRef, useState } from 'react';

/** Parses what was typed to a whole number; anything else counts as nothing. */
export function parseQuantity(text: string): number | null {
  const n = parseInt(text.trim(), 10);
  return Number.isFinite(n) ? n : null;
}

/**
 * Quantity with − and +: minimum 1; a typed value is parsed to an integer and raised to
 * the minimum on blur; changes reach `onChange` after `debounceMs` (300 ms on the product page),
 * a value it was last given not again.
 * Without JavaScript it is a plain number field named `name`.
 */
export function QuantityCounter({
  id,
  name,
  label,
  value,
  onChange,
  min = 1,
  debounceMs = 300,
}: {
  id: string;
  name: string;
  label: string;
  value: number;
  onChange: (n: number) => void;
  min?: number;
  debounceMs?: number;
}) {
  const [text, setText] = useState(String(value));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The last value `onChange` was given (at first the one shown): the same again is no change, so
  // leaving the field after typing sends nothing more (a cart change would bump the cart's revision
  // under a checkout opened meanwhile).
  const sent = useRef(value);
  const emit = (n: number) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (n === sent.current) return;
    timer.current = setTimeout(() => {
      sent.current = n;
      onChange(n);
    }, debounceMs);
  };
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const set = (n: number) => {
    const v = Math.max(min, n);
    setText(String(v));
    emit(v);
  };
  const current = Math.max(min, parseQuantity(text) ?? min);
  return (
    <div className="counter">
      <label htmlFor={id}>{label}</label>
      <div className="counter-row">
        <button type="button" className="icon" aria-label="Decrease quantity" onClick={() => set(current - 1)} disabled={current <= min}>
          −
        </button>
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={min}
          step={1}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            const n = parseQuantity(e.target.value);
            if (n !== null && n >= min) emit(n);
          }}
          onBlur={() => set(parseQuantity(text) ?? min)}
        />
        <button type="button" className="icon" aria-label="Increase quantity" onClick={() => set(current + 1)}>
          +
        </button>
      </div>
    </div>
  );
}
