// A member's saved address, as the address book, checkout and the location gate show it.
import type { AddressView } from '../../api/contract.gen';

/** How a saved address reads. */
export function addressLine(a: AddressView): string {
  return [a.address, a.street_name, a.barangay_name, a.city_name, a.province_name].filter(Boolean).join(', ');
}
