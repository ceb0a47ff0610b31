import { formatPhp } from './money';
import type { Product } from './types';

/**
 * The price a product is first shown with (SPEC 4, product selection): Cans are sold by the box,
 * so their case price; kegs by the keg; other types start on the unit (bottle) price.
 */
export function listPrice(p: Product): { amount: string; per: string } {
  if (p.types.name === 'Cans') return { amount: formatPhp(p.price_per_case), per: `box of ${p.unit_per_case}` };
  if (p.types.name === 'Keg') return { amount: formatPhp(p.price), per: 'keg' };
  return { amount: formatPhp(p.price), per: 'bottle' };
}
