import { useQuery } from '@tanstack/react-query';
import type { DayFigures } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { formatPhp } from '../../lib/money';
import { dashboardQuery } from './queries';

const WIDTH = 600;
const HEIGHT = 160;

/** The last 30 days' revenue as bars, drawn in the page (on the server too); the table says the same in words. */
function Chart({ days }: { days: DayFigures[] }) {
  const most = Math.max(1, ...days.map((d) => d.revenue));
  const bar = WIDTH / days.length;
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`} width="100%" role="img" aria-label={`Revenue a day over the last ${days.length} days; the table below gives each day's figures`}>
      {days.map((d, i) => {
        const h = Math.round((d.revenue / most) * HEIGHT);
        return <rect key={d.day} x={i * bar + 1} y={HEIGHT - h} width={bar - 2} height={h} fill="#8a4b08" />;
      })}
      <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} stroke="#5f574c" />
      <text x={0} y={HEIGHT + 16} fontSize={12} fill="#5f574c">
        {days[0]?.day}
      </text>
      <text x={WIDTH} y={HEIGHT + 16} fontSize={12} fill="#5f574c" textAnchor="end">
        {days[days.length - 1]?.day}
      </text>
    </svg>
  );
}

function DaysTable({ days }: { days: DayFigures[] }) {
  return (
    <table>
      <caption>Orders and revenue a day (Manila), newest first</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Orders</th>
          <th scope="col">Revenue</th>
        </tr>
      </thead>
      <tbody>
        {[...days].reverse().map((d) => (
          <tr key={d.day}>
            <td>{d.day}</td>
            <td>{d.orders}</td>
            <td>{formatPhp(d.revenue)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Today, the orders waiting, the runs out, and the last 30 days, for those who work the orders. */
export function Dashboard() {
  const dashboard = useQuery(dashboardQuery.options());
  return (
    <QueryState query={dashboard} loading="Loading today's figures…" error="We could not load the figures. Please reload the page." retry>
      {(d) => (
        <>
          <h2>Today</h2>
          <p>{`${d.today.orders} orders, ${formatPhp(d.today.revenue)} (${d.today.day})`}</p>
          <h2>Waiting</h2>
          <ul>
            {d.waiting.map((w) => (
              <li key={w.status.status}>
                <a href={`/staff/orders?status=${w.status.status}`}>{`${w.status.label}: ${w.count}`}</a>
              </li>
            ))}
          </ul>
          <h2>Runs out</h2>
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
