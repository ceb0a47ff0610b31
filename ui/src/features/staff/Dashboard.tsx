import { useQuery } from '@tanstack/react-query';
import type { DayFigures } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { formatPhp } from '../../lib/money';
import { dashboardQuery } from './queries';

const WIDTH = 640;
const HEIGHT = 180;
/** Room for the peso axis on the left and the days below. */
const LEFT = 72;
const BOTTOM = 22;
/** Room above the top line for its label. */
const TOP = 10;

/**
 * The peso axis's top: the least 1, 2, 2.5 or 5 times a power of ten pesos at or above `most`
 * centavos, and at least P5 (its five steps are then whole pesos).
 */
export function axisTop(most: number): number {
  const pesos = Math.max(5, most / 100);
  const power = 10 ** Math.floor(Math.log10(pesos));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= pesos) ?? 10;
  return step * power * 100;
}

/** A peso amount on the axis, whole pesos with thousands as "k" (P12.5k). */
export function axisLabel(centavos: number): string {
  const pesos = centavos / 100;
  if (pesos >= 1000) return `P${Math.round(pesos / 100) / 10}k`;
  return `P${Math.round(pesos)}`;
}

/**
 * The last 30 days' revenue as bars, drawn in the page (on the server too): pesos up the left with
 * lines across, the days along the bottom (every seventh, and the last); the table below gives
 * each day's figures in words.
 */
function Chart({ days }: { days: DayFigures[] }) {
  const top = axisTop(Math.max(0, ...days.map((d) => d.revenue)));
  const plot = WIDTH - LEFT;
  const bar = plot / Math.max(1, days.length);
  const y = (centavos: number) => TOP + HEIGHT - Math.round((centavos / top) * HEIGHT);
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1].map((f) => f * top);
  const labelled = days.map((d, i) => ({ d, i })).filter(({ i }) => (days.length - 1 - i) % 7 === 0);
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${TOP + HEIGHT + BOTTOM + 8}`} width="100%" role="img" aria-label={`Revenue a day over the last ${days.length} days, up to ${axisLabel(top)} a day; the table below gives each day's figures`}>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={LEFT} y1={y(t) + 4} x2={WIDTH} y2={y(t) + 4} stroke={t === 0 ? '#5f574c' : '#e4d9c6'} />
          <text x={LEFT - 6} y={y(t) + 8} fontSize={12} fill="#5f574c" textAnchor="end">
            {axisLabel(t)}
          </text>
        </g>
      ))}
      {days.map((d, i) => {
        const h = TOP + HEIGHT - y(d.revenue);
        return (
          <rect key={d.day} x={LEFT + i * bar + 1} y={y(d.revenue) + 4} width={Math.max(1, bar - 2)} height={h} fill="#8a4b08">
            <title>{`${d.day}: ${d.orders} orders, ${formatPhp(d.revenue)}`}</title>
          </rect>
        );
      })}
      {labelled.map(({ d, i }) => (
        // The last day's label ends at the plot's right edge, under its own bar.
        <text key={d.day} x={i === days.length - 1 ? LEFT + (i + 1) * bar : LEFT + i * bar + bar / 2} y={TOP + HEIGHT + BOTTOM} fontSize={12} fill="#5f574c" textAnchor={i === days.length - 1 ? 'end' : 'middle'}>
          {d.day.slice(5)}
        </text>
      ))}
    </svg>
  );
}

/** Each day's figures, folded away under the chart: the chart says the month at a glance. */
function DaysTable({ days }: { days: DayFigures[] }) {
  return (
    <details className="days-table">
      <summary>{`Each day's orders and revenue (${days.length} days)`}</summary>
      <table className="staff-table">
        <caption>Orders and revenue a day (Manila), newest first</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" className="num">
              Orders
            </th>
            <th scope="col" className="num">
              Revenue
            </th>
          </tr>
        </thead>
        <tbody>
          {[...days].reverse().map((d) => (
            <tr key={d.day}>
              <td className="nowrap">{d.day}</td>
              <td className="num">{d.orders}</td>
              <td className="num">{formatPhp(d.revenue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Today, the orders waiting, the runs out, and the last 30 days, for those who work the orders. */
export function Dashboard() {
  const dashboard = useQuery(dashboardQuery.options());
  return (
    <QueryState query={dashboard} loading="Loading today's figures…" error="We could not load the figures. Please reload the page." retry>
      {(d) => (
        <>
          <div className="dash-cards">
            <section aria-labelledby="dash-today">
              <h2 id="dash-today">Today</h2>
              <p>{`${d.today.orders} orders, ${formatPhp(d.today.revenue)} (${d.today.day})`}</p>
            </section>
            <section aria-labelledby="dash-waiting">
              <h2 id="dash-waiting">Waiting</h2>
              <ul>
                {d.waiting.map((w) => (
                  <li key={w.status.status}>
                    <a href={`/staff/orders?status=${w.status.status}`}>{`${w.status.label}: ${w.count}`}</a>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="dash-runs">
              <h2 id="dash-runs">Runs out</h2>
              {d.runs_out.length === 0 ? (
                <p className="empty">No run is out.</p>
              ) : (
                <ul>
                  {d.runs_out.map((r) => (
                    <li key={r.id}>
                      <a href={`/staff/runs/${r.id}`}>{`Run ${r.id}, ${r.rider} (${r.day})`}</a>
                      {`: ${r.delivered + r.failed} of ${r.stops} stops ended (${r.delivered} delivered, ${r.failed} failed)`}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
          <h2>The last 30 days</h2>
          <Chart days={d.days} />
          <h3>Top products</h3>
          {d.top_products.length === 0 ? (
            <p className="empty">Nothing sold yet.</p>
          ) : (
            <ol>
              {d.top_products.map((p) => (
                <li key={p.product_name}>{`${p.product_name}: ${p.units} units, ${formatPhp(p.revenue)}`}</li>
              ))}
            </ol>
          )}
          <DaysTable days={d.days} />
        </>
      )}
    </QueryState>
  );
}
