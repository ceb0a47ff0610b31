// A member's saved address, as the address book and the location gate show and use it.
import { DEFAULT_FULFILLMENT, type AddressView } from '../api/contract.gen';
import type { LocationChoice } from './gate';

/** How a saved address reads. */
export function addressLine(a: AddressView): string {
  return [a.address, a.street_name, a.barangay_name, a.city_name, a.province_name].filter(Boolean).join(', ');
}

/** A saved address as the location gate's choice (delivery there). */
export function choiceOf(a: AddressView): LocationChoice {
  return {
    fulfillmentId: DEFAULT_FULFILLMENT,
    cityId: a.city_id,
    cityName: a.city_name,
    barangayId: a.barangay_id,
    barangayName: a.barangay_name,
    streetId: a.street_id,
  };
}
