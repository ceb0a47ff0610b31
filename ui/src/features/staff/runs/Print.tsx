import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { RunView } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { formatPhp } from '../../../lib/money';
import { useHydrated, usePage, usePageParam } from '../../../page';
import { runQuery } from '../queries';
import { StopDetails } from './Run';
import { StaffPage } from '../StaffPage';

/**
 * A printable page of run `{runId}`: on A4, or on an 80 mm receipt printer (`?paper=receipt`);
 * the header, the links and the buttons stay off the paper. With JavaScript a Print button; the
 * browser's own print works either way.
 */
function Printable({ kind, title, children }: { kind: string; title: (r: RunView) => string; children: (r: RunView) => ReactNode }) {
  const { vars } = usePage();
  const run = useQuery(runQuery.options(vars));
  const receipt = usePageParam('paper') === 'receipt';
  const js = useHydrated();
  const id = vars.runId ?? '';
  return (
    <StaffPage current="/staff/runs" id={`staff-${kind}`} title={run.data ? title(run.data) : 'Run'}>
      <div className={receipt ? 'paper-receipt' : 'paper-a4'}>
        <p className="no-print">
          <a href={`/staff/runs/${id}`}>Back to the run</a>
          {' · '}
          {receipt ? <a href={`/staff/runs/${id}/${kind}`}>A4</a> : <a href={`/staff/runs/${id}/${kind}?paper=receipt`}>80 mm receipt</a>}
          {js && (
            <>
              {' · '}
              <button type="button" className="secondary" onClick={() => window.print()}>
                Print
              </button>
            </>
          )}
        </p>
        <QueryState query={run} loading="Loading the run…" error="We could not load the run. Please reload the page." retry>
          {(r) => (
            <>
              <p>{`${r.run.rider} · ${r.run.day} · ${r.run.stops} stop(s)`}</p>
              {children(r)}
            </>
          )}
        </QueryState>
      </div>
    </StaffPage>
  );
}

/** What to load for a run: every product's cases and loose units, and the containers. */
export function PickList() {
  return (
    <Printable kind="pick-list" title={(r) => `Pick List, Run ${r.run.id}`}>
      {(r) => (
        <>
          <table>
            <caption>Products to load</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Cases</th>
                <th scope="col">Loose units</th>
              </tr>
            </thead>
            <tbody>
              {r.pick_list.map((p) => (
                <tr key={`${p.product_name}-${p.case_name}`}>
                  <th scope="row">{`${p.product_name} (${p.case_name}, ${p.unit_per_case} a case)`}</th>
                  <td>{p.cases}</td>
                  <td>{p.units}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table>
            <caption>Containers (deposits)</caption>
            <tbody>
              {r.containers_out.length === 0 ? (
                <tr>
                  <td>None</td>
                </tr>
              ) : (
                r.containers_out.map((c) => (
                  <tr key={c.name}>
                    <th scope="row">{c.name}</th>
                    <td>{c.cases}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </>
      )}
    </Printable>
  );
}

/** Each stop of a run, in order: contact, address, items, cash and empties to collect. */
export function RunSheet() {
  return (
    <Printable kind="sheet" title={(r) => `Run Sheet, Run ${r.run.id}`}>
      {(r) => (
        <>
          <p>{`Cash to collect: ${formatPhp(r.totals.cash_expected)}; empty cases: ${r.totals.empties_expected}.`}</p>
          <ol className="run-stops">
            {r.stops.map((s) => (
              <li key={s.order_id} className="run-stop">
                <h2>{`${s.seq}. ${s.number}`}</h2>
                <StopDetails s={s} />
                <p>Delivered ☐ Cash: ________ Empties: ____ Failed ☐ Why: ____________</p>
              </li>
            ))}
          </ol>
        </>
      )}
    </Printable>
  );
}
