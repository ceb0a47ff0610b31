import type { ReactNode } from 'react';

/** A set of radio buttons under a legend, one for each item, the chosen one checked. */
export function RadioGroup<T, V extends string | number>(props: {
  legend: string;
  name: string;
  items: T[];
  value: V | null | undefined;
  id: (item: T) => V;
  text: (item: T) => ReactNode;
  onChange: (value: V) => void;
}) {
  const { legend, name, items, value, id, text, onChange } = props;
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      {items.map((item) => (
        <label key={id(item)} className="radio">
          <input type="radio" name={name} value={id(item)} checked={value === id(item)} onChange={() => onChange(id(item))} />
          {text(item)}
        </label>
      ))}
    </fieldset>
  );
}
