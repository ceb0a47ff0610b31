// Money is integer centavos, shown as P1,234.00. The Rust twin is
// crates/domain/src/money.rs; both are tested against crates/domain/src/money_cases.json.
// No Intl or toLocaleString here: QuickJS, which renders on the server, has no Intl.

export function formatPhp(centavos: number): string {
  const negative = centavos < 0;
  const abs = Math.abs(Math.trunc(centavos));
  const pesos = String(Math.floor(abs / 100));
  const cents = String(abs % 100).padStart(2, '0');
  let grouped = '';
  for (let i = 0; i < pesos.length; i++) {
    if (i > 0 && (pesos.length - i) % 3 === 0) grouped += ',';
    grouped += pesos[i];
  }
  return `${negative ? '-' : ''}P${grouped}.${cents}`;
}
