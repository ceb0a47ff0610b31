// The gate cookies of SPEC 3: the contract between server and client (readable by JS, Path=/,
// SameSite=Lax). The server writes the same names in crates/web/src/gate.rs for the no-JS forms.

export const COOKIE = {
  accepted: 'cookieAccepted',
  privacy: 'privacyVerification',
  age: 'ageVerification',
  category: 'categoryGateId',
  categoryName: 'categoryName',
  fulfillment: 'locationGateFulfillmentId',
  city: 'locationGateCityId',
  barangay: 'locationGateBarangayId',
  street: 'locationGateStreetId',
  barangayName: 'gateBrgyName',
  cityName: 'gateCityName',
  /** The location notice flag: the product page's notice of areas was put away. */
  locationNotice: 'locationNotice',
} as const;

/** One year for consent; the gate choices for a month (SPEC's location-notice age). */
export const CONSENT_MAX_AGE = 31_536_000;
export const GATE_MAX_AGE = 2_629_746;
/** SPEC 9: "Location-notice cookie max age 2629746 seconds". */
export const LOCATION_NOTICE_MAX_AGE = 2_629_746;

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
