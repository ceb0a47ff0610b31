// Query keys: one name for one piece of data everywhere. A key is the API path plus its query
// string, made from a template of the route table ("/api/v1/products?barangay={barangay}") by
// filling its variables; parameters whose variable is unset are left out. The Rust twin is
// fill_template in crates/web; both are tested against keys.cases.json.

export type Vars = Record<string, string | undefined>;

export function fillTemplate(template: string, vars: Vars): string {
  const q = template.indexOf('?');
  const path = (q < 0 ? template : template.slice(0, q)).replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(vars[name] ?? ''),
  );
  if (q < 0) return path;
  const parts: string[] = [];
  for (const pair of template.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const raw = eq < 0 ? '' : pair.slice(eq + 1);
    const m = /^\{(\w+)\}$/.exec(raw);
    const value = m ? vars[m[1]] : raw;
    if (value === undefined || value === '') continue;
    parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return parts.length ? `${path}?${parts.join('&')}` : path;
}
