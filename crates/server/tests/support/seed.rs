//! What the seed holds that the tests name (crates/db/seed: the PSGC places, the catalog's
//! products, areas, fees and streets), a moment the store takes orders, and the origins a
//! request can come from. A place is its barangay's PSGC code.

/// Bel-Air, Makati City (Metro Manila): served for delivery (fee P150) and pickup; every product
/// is sold there, the Bangkal Double IPA can (17) included; its streets are the seed's first
/// four (Jupiter Street is street 1, Kalayaan Avenue street 4).
pub const MAKATI: i64 = 1380300002;
/// Barangay 1, Manila City (Metro Manila): served for delivery (fee P150) and pickup, but the
/// Bangkal Double IPA can (17) is not sold there (it is sold in Makati, Pasig, Quezon City and
/// Taguig only).
pub const MANILA: i64 = 1380601001;
/// Barangay 1, Caloocan City (Metro Manila): served for delivery (fee P150) and pickup, kegs
/// included; no Double IPA can; the seed gives it no streets.
pub const CALOOCAN: i64 = 1380100001;
/// Bagbaguin, Meycauayan City (Bulacan): delivery only (fee P250); no kegs (those are for Metro
/// Manila).
pub const MEYCAUAYAN: i64 = 301412001;
/// Bayanan, Bacoor City (Cavite): delivery (fee P250) and pickup; no kegs.
pub const BACOOR: i64 = 402103004;
/// Banaban, Angat (Bulacan): a real barangay in a town the store does not serve.
pub const ANGAT: i64 = 301401001;
/// Bagbaguin, Santa Maria (Bulacan): a real barangay in a town the store does not serve.
pub const SANTA_MARIA: i64 = 301423001;

/// Makati City (Metro Manila), the city of [`MAKATI`].
pub const MAKATI_CITY: i64 = 1380300000;
/// Caloocan City (Metro Manila), the city of [`CALOOCAN`].
pub const CALOOCAN_CITY: i64 = 1380100000;

/// Jupiter Street, the first street of Bel-Air ([`MAKATI`]).
pub const JUPITER_STREET: i64 = 1;

/// Tala Pale Pilsen 320 ml, the seed's first product: bottles at P52.00, P1,188.00 the case of
/// 24, with the bottles and crate deposit of P240.00 a case.
pub const PALE_PILSEN: i64 = 1;

/// A Tuesday afternoon (Manila time, for `testdate`): within the store's hours (08:00 to 22:00)
/// and outside the seed's blackout.
pub const OPEN: &str = "2026-11-24T14:00";

/// The store's own origin as the API alone (`send_api`) sees it: `ApiConfig`'s default.
pub const OWN: &str = "http://localhost:8080";
/// The store's own origin through `store!`: `store_config`'s PUBLIC_URL.
pub const SHOP: &str = "https://shop.example";
/// Another site.
pub const EVIL: &str = "https://evil.example";

/// The cookies of a shopper past the gates: consent given, bottles chosen (category 1), Bel-Air
/// ([`MAKATI`]) as the location.
pub const PAST_GATES: &str =
    "cookieAccepted=1; privacyVerification=1; categoryGateId=1; locationGateBarangayId=1380300002";
