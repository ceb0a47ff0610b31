// What the gates list. `gate*` variables come from the gate's own state (or, without JS, from the
// steps in the query string); the location gate starts on the default province and fulfillment.
import { defineQuery } from '../../api/query';
import { calls, DEFAULT_FULFILLMENT, DEFAULT_PROVINCE } from '../../api/contract.gen';
import { policyTextQuery } from '../content/queries';

export const gateQueries = {
  policy: policyTextQuery,
  packagings: defineQuery(calls.packagings),
  fulfillments: defineQuery(calls.fulfillments),
  provinces: defineQuery(calls.provinces),
  cities: defineQuery(calls.cities, {
    provinceId: `{gateProvince|${DEFAULT_PROVINCE}}`,
    fulfillmentId: `{gateFulfillment|${DEFAULT_FULFILLMENT}}`,
  }),
  kegCities: defineQuery(calls.kegCities),
  barangays: defineQuery(calls.barangays, { cityId: '{gateCity}' }),
  streets: defineQuery(calls.streets, { barangayId: '{gateBarangay}' }),
};
