// The gate's public face: what other features, components/Layout.tsx and App.tsx may use (ESLint
// refuses any other file of this folder from outside it; its queries are queries.ts). The gate
// (the policy, category and location overlays; the API's `gate` and `locations`): its state and
// provider (state.tsx), its dialogs (the category and location steps in a chunk of their own:
// GateSteps.tsx), the location's selects a member's address book shares, and the gate cookies a
// page writes itself (the product's location notice).
export { GateProvider, useGate } from './state';
export { Gates } from './Gates';
export { AreaSelects, StreetSelect, useAddressPicker } from './AddressPicker';
export { COOKIE, LOCATION_NOTICE_MAX_AGE, setCookie } from './cookies';
