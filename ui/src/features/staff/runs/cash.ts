// Cash as the dispatcher types it when closing a run, read as the server reads it
// (`domain::money::parse_pesos`: `1,250.00`, `P 75`, `₱1,578.5`), and its difference from what
// the run expects told in words. Only for the text beside the field: the server decides.
import { formatPhp } from '../../../lib/money';

/** Pesos as typed, in centavos, or null when the server would refuse them. */
export function parsePesos(text: string): number | null {
  let t = text.trim();
  if (t.startsWith('₱')) t = t.slice(1);
  else if (t.startsWith('P') || t.startsWith('p')) t = t.slice(1);
  t = t.trimStart();
  let whole = t;
  let cents = '00';
  const dot = t.indexOf('.');
  if (dot >= 0) {
    whole = t.slice(0, dot);
    const c = t.slice(dot + 1);
    if (!/^\d{1,2}$/.test(c)) return null;
    cents = c.length === 1 ? `${c}0` : c;
  }
  const groups = whole.split(',');
  const wellGrouped = groups.length === 1 || (groups.length <= 3 && /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
  const digits = groups.join('');
  if (!wellGrouped || !/^\d{1,9}$/.test(digits)) return null;
  return Number(digits) * 100 + Number(cents);
}

/** A difference of cash (centavos) as the staff read it: `short by P20.00`, `over by P5.00`, or null when none. */
export function shortOrOver(difference: number): string | null {
  if (difference === 0) return null;
  return `${difference < 0 ? 'short' : 'over'} by ${formatPhp(Math.abs(difference))}`;
}

/** What the close form says beside the cash typed: how it stands against what the run expects. */
export function closeHint(typed: string, expects: number): string | null {
  if (typed.trim() === '') return null;
  const cash = parsePesos(typed);
  if (cash === null) return 'Give the cash in pesos, like 1,250.00.';
  const off = shortOrOver(cash - expects);
  return off === null ? `${formatPhp(cash)} is what the run expects.` : `${formatPhp(cash)} is ${off} of what the run expects (${formatPhp(expects)}): say why in the note to close the run.`;
}

/**
 * A rider's difference over their closed runs, in words: short or over, and how many runs
 * differed when differences of two runs even out.
 */
export function riderDifference(r: { cash_difference: number | null; closed_off: number }): string {
  if (r.cash_difference === null) return 'No run closed';
  const off = shortOrOver(r.cash_difference);
  if (off) return r.closed_off > 1 ? `${off} (${r.closed_off} runs differ)` : off;
  return r.closed_off > 0 ? `Evens out: ${r.closed_off} runs differ` : 'As expected';
}

/** What a stop's rider collects: nothing for an order paid online, else its cash. */
export function toCollect(s: { total: number; paid_online: number }): string {
  return s.paid_online > 0 && s.total === 0 ? 'Paid online: collect nothing' : `Collect ${formatPhp(s.total)} cash`;
}
