/** A list of a location step (province, city, barangay, street): a real `<select>` that also posts without JS. */
export function num(v: string | undefined): number | null {
  const n = v ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

export function Select<T>(props: {
  /** Prefix of the select's id (one form's lists apart from another's). */
  prefix?: string;
  name: string;
  label: string;
  empty: string;
  items: T[] | undefined;
  loading: boolean;
  value: number | null;
  id: (t: T) => number;
  text: (t: T) => string;
  onChange: (v: number | null) => void;
  disabled?: boolean;
}) {
  const { name, label, empty, items, loading, value, id, text, onChange, disabled, prefix = 'gate' } = props;
  const none = !loading && items !== undefined && items.length === 0;
  return (
    <div className="field">
      <label htmlFor={`${prefix}-${name}`}>{label}</label>
      <select
        id={`${prefix}-${name}`}
        name={name}
        value={value ?? ''}
        disabled={disabled || none}
        onChange={(e) => onChange(num(e.target.value))}
      >
        <option value="">{loading ? 'Loading…' : none ? empty : `Select ${label.toLowerCase()}`}</option>
        {(items ?? []).map((it) => (
          <option key={id(it)} value={id(it)}>
            {text(it)}
          </option>
        ))}
      </select>
      {none && <p className="hint">{empty}</p>}
    </div>
  );
}

