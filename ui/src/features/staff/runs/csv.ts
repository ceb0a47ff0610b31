// The day report as CSV (RFC 4180): a field with a comma, a quote or a line break is quoted, its
// quotes doubled; a field a spreadsheet would read as a formula (=, +, -, @ first) is led by a
// quote mark, so a shopper's name cannot run in the manager's spreadsheet.
import type { DayReport } from '../../../api/contract.gen';
import { formatPhp } from '../../../lib/money';
import { riderDifference } from './cash';

export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRows(rows: (string | number)[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** The day report's lines: its figures, each run, each rider and their notes, each cancelled order, failed stop and difference. */
export function dayCsv(d: DayReport): string {
  const t = d.totals;
  const rows: (string | number)[][] = [
    ['Section', 'Name', 'Value', 'Detail'],
    ['Day', d.day, '', ''],
    ['Orders', 'Placed', d.orders, ''],
    ['Orders', 'Revenue', formatPhp(d.revenue), ''],
    ['Cash', 'Expected', formatPhp(t.cash_expected), ''],
    ['Cash', 'Reported by riders', formatPhp(t.cash_reported), ''],
    ['Cash', 'Handed in', formatPhp(d.cash_handed_in), ''],
    ['Online', 'Received', formatPhp(d.online_received), ''],
    ...d.online.map((m) => ['Online', m.method, formatPhp(m.amount), `${m.payments} payment(s)`]),
    ['Online', 'Refunded', formatPhp(d.refunded), ''],
    ['Empties', 'Expected back', t.empties_expected, ''],
    ['Empties', 'Returned', t.empties_returned, ''],
    ...d.containers_out.map((c) => ['Containers out', c.name, c.cases, '']),
    ...d.runs.map((r) => ['Run', `Run ${r.run.id} (${r.run.rider})`, r.run.state_label, `${r.totals.delivered} delivered, ${r.totals.failed} failed; cash ${formatPhp(r.totals.cash_expected)} expected, ${formatPhp(r.totals.cash_reported)} reported${r.cash_handed_in === null ? '' : `, ${formatPhp(r.cash_handed_in)} handed in`}${r.close_note ? ` (${r.close_note})` : ''}`]),
    ...d.riders.map((r) => ['Rider', r.rider, riderDifference(r), `${r.runs} run(s), ${r.closed} closed; cash ${formatPhp(r.cash_expected)} expected, ${formatPhp(r.cash_reported)} reported, ${formatPhp(r.cash_handed_in)} handed in of ${formatPhp(r.cash_expected_closed)} expected by the closed runs; empties ${r.empties_expected} expected, ${r.empties_returned} back`]),
    ...d.riders.flatMap((r) => r.notes.map((n) => ['Note', `${n.about} (${r.rider})`, '', n.note])),
    ...d.cancelled.map((c) => ['Cancelled', c.number, '', c.reason]),
    ...d.failed.map((c) => ['Failed', c.number, '', c.reason]),
    ...d.flagged.map((c) => ['Difference', c.number, '', c.reason]),
    ...d.to_refund.map((c) => ['To refund', c.number, '', c.reason]),
    ...d.refunds.map((c) => ['Refund', c.number, '', c.reason]),
  ];
  return csvRows(rows);
}

/** The CSV as a link's address: rendered on the server, it downloads without JavaScript. */
export function csvHref(csv: string): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`;
}
