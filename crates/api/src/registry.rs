//! The one list of API calls. Adding a call: write its `Endpoint` in its feature's module and
//! add it here; its route, its in-process loader, its OpenAPI operation and its entry in the UI's
//! contract (`ui/src/api/contract.gen.ts`) follow.

use crate::catalog::{Banners, Packagings, Products, Promos, SingleProductCall, WhatsNew};
use crate::content::{HolidayCall, NoticeCall, SiteTextCall, Subscribe, User};
use crate::endpoint::{Api, Registered};
use crate::locations::{
    Barangays, Cities, DeliveryAreas, FulfillmentTypes, KegCities, LegacyBarangays, LegacyCities,
    Provinces, Streets,
};

pub static ENDPOINTS: &[&dyn Registered] = &[
    &Api::<Products>::ENTRY,
    &Api::<Promos>::ENTRY,
    &Api::<WhatsNew>::ENTRY,
    &Api::<SingleProductCall>::ENTRY,
    &Api::<Packagings>::ENTRY,
    &Api::<Banners>::ENTRY,
    &Api::<FulfillmentTypes>::ENTRY,
    &Api::<Provinces>::ENTRY,
    &Api::<Cities>::ENTRY,
    &Api::<KegCities>::ENTRY,
    &Api::<Barangays>::ENTRY,
    &Api::<Streets>::ENTRY,
    &Api::<LegacyCities>::ENTRY,
    &Api::<LegacyBarangays>::ENTRY,
    &Api::<DeliveryAreas>::ENTRY,
    &Api::<HolidayCall>::ENTRY,
    &Api::<NoticeCall>::ENTRY,
    &Api::<SiteTextCall>::ENTRY,
    &Api::<User>::ENTRY,
    &Api::<Subscribe>::ENTRY,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_routes_are_unique() {
        let mut names: Vec<&str> = ENDPOINTS.iter().map(|e| e.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ENDPOINTS.len(), "two calls share a name");
        let mut routes: Vec<(&str, &str)> = ENDPOINTS
            .iter()
            .map(|e| (e.method().as_str(), e.path()))
            .collect();
        routes.sort();
        routes.dedup();
        assert_eq!(routes.len(), ENDPOINTS.len(), "two calls share a route");
    }
}
