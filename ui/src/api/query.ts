// Query options made from the API's generated contract: one call of the registry, its variables
// bound to the page's ({slug}, {barangay|0}, a constant...). A feature's `queries.ts` defines them
// once; its components use `options(vars)` and the route table lists their `template`, so what a
// page's server render loads and what its components read are one thing.

import type { QueryFunctionContext } from '@tanstack/react-query';
import { fetchJson } from './fetch';
import { fillTemplate, isComplete, type Vars } from '../lib/keys';
import type { Call } from './contract.gen';

export interface QueryDef<A> {
  /** The key template, with the call's parameters bound to page variables. */
  template: string;
  options(vars?: Vars): {
    queryKey: [string];
    queryFn: (ctx: QueryFunctionContext) => Promise<A>;
    enabled: boolean;
  };
}

/** A query of `call`; `bind` maps the call's parameter names to template text (`{var|default}`). */
export function defineQuery<A>(call: Call<A>, bind: Record<string, string> = {}): QueryDef<A> {
  const template = call.key.replace(/\{(\w+)\}/g, (whole, name: string) => bind[name] ?? whole);
  return {
    template,
    options(vars: Vars = {}) {
      const key = fillTemplate(template, vars);
      return {
        queryKey: [key],
        queryFn: ({ signal }: QueryFunctionContext) => fetchJson<A>(key, call.method, signal),
        enabled: isComplete(template, vars),
      };
    },
  };
}
