// The gate cookies: the contract between server and client (readable by JS, Path=/,
// SameSite=Lax), named once by the gate feature (crates/api/src/gate.rs) and exported into the
// generated contract; the server writes the same cookies for the no-JS forms.

import { CONSENT_MAX_AGE, GATE_COOKIES, GATE_MAX_AGE, LOCATION_NOTICE_MAX_AGE } from '../../api/contract.gen';

/** The gate cookies' names, and how long consent, the gate choices and the notice flag last. */
export const COOKIE = GATE_COOKIES;
export { CONSENT_MAX_AGE, GATE_MAX_AGE, LOCATION_NOTICE_MAX_AGE };

export function setCookie(name: string, value: string, maxAge: number): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=Lax`;
}

export function clearCookie(name: string): void {
  document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
}

export const LOCATION_COOKIES = [
  COOKIE.fulfillment,
  COOKIE.city,
  COOKIE.barangay,
  COOKIE.street,
  COOKIE.barangayName,
  COOKIE.cityName,
];
