// Query keys: one name for one piece of data everywhere. A key is the API path plus its query
// string, made from a template of the route table ("/api/v1/products?barangay={barangay}") by
// filling its variables; query parameters whose variable is unset are left out, and
// `{name|default}` stands for the default when the variable is unset. A key whose path still
// lacks a variable is incomplete: nobody fetches it. The Rust twin is crates/web/src/keys.rs;
// both are tested against keys.cases.json.

export type Vars = Record<string, string | undefined>;

const VAR = /\{(\w+)(?:\|([^}]*))?\}/g;

function lookup(vars: Vars, name: string, fallback: string | undefined): string | undefined {
  const v = vars[name];
  return v !== undefined && v !== '' ? v : fallback;
}

export function fillTemplate(template: string, vars: Vars): string {
  const q = template.indexOf('?');
  const path = (q < 0 ? template : template.slice(0, q)).replace(VAR, (_, name: string, dflt?: string) =>
    encodeURIComponent(lookup(vars, name, dflt) ?? ''),
  );
  if (q < 0) return path;
  const parts: string[] = [];
  for (const pair of template.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const raw = eq < 0 ? '' : pair.slice(eq + 1);
    const m = /^\{(\w+)(?:\|([^}]*))?\}$/.exec(raw);
    const value = m ? lookup(vars, m[1], m[2]) : raw;
    if (value === undefined || value === '') continue;
    parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** Whether every variable of the template's path has a value (or a default). */
export function isComplete(template: string, vars: Vars): boolean {
  const q = template.indexOf('?');
  const path = q < 0 ? template : template.slice(0, q);
  for (const m of path.matchAll(VAR)) if (lookup(vars, m[1], m[2]) === undefined) return false;
  return true;
}
