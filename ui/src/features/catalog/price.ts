import type { ProductView } from '../../api/contract.gen';
import { formatPhp } from '../../lib/money';

/**
 * The price a product is listed with: its first pack option's, which
 * the server decides (cans by the box, kegs by the keg, bottles by the bottle).
 */
export function listPrice(p: ProductView): { amount: string; per: string } {
  const first = p.pack_options[0];
  return { amount: formatPhp(first?.price ?? p.price), per: (first?.label ?? '').toLowerCase() };
}
