//! The location gate without JavaScript: a form a step ([`super::forms`]'s `POST /gate/location`),
//! each step's answer carried back to the page in its query (`?gate=location&fulfillment=1&
//! province=51&city=...&barangay=...`). The page's data reads them as variables (`gateFulfillment`,
//! `gateProvince`, `gateCity`, `gateBarangay`: the gate's queries in ui/src/features/gate name
//! them), each id parsed as its type, so a malformed one is left out.

use domain::{BarangayId, CityId, FulfillmentId, ProvinceId};

/// The page-data variable of the chosen fulfillment (the planner also fills it from the gate's
/// cookie when the query has none).
pub const FULFILLMENT_VAR: &str = "gateFulfillment";
/// The page-data variable of the chosen province.
pub const PROVINCE_VAR: &str = "gateProvince";
/// The page-data variable of the chosen city.
pub const CITY_VAR: &str = "gateCity";
/// The page-data variable of the chosen barangay.
pub const BARANGAY_VAR: &str = "gateBarangay";

/// How a step's id parses (and is written back into a key): none when malformed.
pub type ParseStep = fn(&str) -> Option<String>;

/// One step of the location gate: its parameter in the page's query, the page-data variable it
/// fills, and how its id parses.
pub struct LocationStep {
    pub param: &'static str,
    pub var: &'static str,
    pub parse: ParseStep,
}

/// The location gate's steps, in their order.
pub const LOCATION_STEPS: [LocationStep; 4] = [
    LocationStep {
        param: "fulfillment",
        var: FULFILLMENT_VAR,
        parse: |v| FulfillmentId::parse(v).map(|i| i.to_string()),
    },
    LocationStep {
        param: "province",
        var: PROVINCE_VAR,
        parse: |v| ProvinceId::parse(v).map(|i| i.to_string()),
    },
    LocationStep {
        param: "city",
        var: CITY_VAR,
        parse: |v| CityId::parse(v).map(|i| i.to_string()),
    },
    LocationStep {
        param: "barangay",
        var: BARANGAY_VAR,
        parse: |v| BarangayId::parse(v).map(|i| i.to_string()),
    },
];
