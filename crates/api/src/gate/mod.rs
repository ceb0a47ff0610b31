//! The entry gates as a page sees them: the shopper's choices, read from the gate
//! cookies ([`cookies`]) and checked here against the database (an unknown id counts as unset),
//! and which gate overlays the page; the no-JS gate forms ([`forms`]) write the same cookies as
//! the client, and the no-JS location gate's steps travel in the page's query
//! ([`location_steps`]).

pub mod cookies;
pub mod forms;
pub mod location_steps;

use db::AnyConnection;
use domain::{BarangayId, CityId, FilterType, FulfillmentId, PackagingId, StreetId};
use serde::Serialize;
use ts_rs::TS;

use framework::endpoint::Ctx;
use framework::error::ApiError;

framework::export_type!(Gate);

/// The gate cookies: the choices the gates store in the browser, readable by the page's
/// script (Path=/, SameSite=Lax), named once here for the server's no-JS forms and the UI.
pub const ACCEPTED: &str = "cookieAccepted";
pub const PRIVACY: &str = "privacyVerification";
pub const AGE: &str = "ageVerification";
pub const CATEGORY: &str = "categoryGateId";
pub const CATEGORY_NAME: &str = "categoryName";
pub const FULFILLMENT: &str = "locationGateFulfillmentId";
pub const CITY: &str = "locationGateCityId";
pub const BARANGAY: &str = "locationGateBarangayId";
pub const STREET: &str = "locationGateStreetId";
pub const BARANGAY_NAME: &str = "gateBrgyName";
pub const CITY_NAME: &str = "gateCityName";
/// The category before a change, and the one a cart's reset question reverts to.
pub const PREVIOUS_ID: &str = "previousCategoryId";
pub const PREVIOUS_NAME: &str = "previousCategoryName";
pub const ORIGINAL_ID: &str = "originalCategoryID";
pub const ORIGINAL_NAME: &str = "originalCategoryName";
/// The location notice flag: the shopper put away the product page's notice that some
/// products are only sold in certain areas (`1`).
pub const LOCATION_NOTICE: &str = "locationNotice";
/// The location notice cookie's max age: 2629746 seconds (a month).
pub const LOCATION_NOTICE_MAX_AGE: i64 = 2_629_746;

/// The location cookies a new category clears.
pub const LOCATION: [&str; 6] = [
    FULFILLMENT,
    CITY,
    BARANGAY,
    STREET,
    BARANGAY_NAME,
    CITY_NAME,
];

/// One year for consent; the gate choices for a month (the location notice cookie's age).
pub const CONSENT_MAX_AGE: i64 = 31_536_000;
pub const GATE_MAX_AGE: i64 = 2_629_746;

framework::export_const!(
    /// The gate cookies' names, by the names the UI gives them.
    GATE_COOKIES = serde_json::json!({
        "accepted": ACCEPTED,
        "privacy": PRIVACY,
        "age": AGE,
        "category": CATEGORY,
        "categoryName": CATEGORY_NAME,
        "fulfillment": FULFILLMENT,
        "city": CITY,
        "barangay": BARANGAY,
        "street": STREET,
        "barangayName": BARANGAY_NAME,
        "cityName": CITY_NAME,
        "locationNotice": LOCATION_NOTICE,
    })
);
framework::export_const!(
    /// How long consent lasts, in seconds (a year).
    CONSENT_MAX_AGE = CONSENT_MAX_AGE
);
framework::export_const!(
    /// How long the gate's choices last, in seconds (a month).
    GATE_MAX_AGE = GATE_MAX_AGE
);
framework::export_const!(
    /// How long the location notice stays put away, in seconds.
    LOCATION_NOTICE_MAX_AGE = LOCATION_NOTICE_MAX_AGE
);

/// The choices the gate cookies carry, ids already parsed (a malformed one is `None`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Choices {
    pub consent: bool,
    pub packaging: Option<PackagingId>,
    pub fulfillment: Option<FulfillmentId>,
    pub barangay: Option<BarangayId>,
    pub street: Option<StreetId>,
}

/// Which gate overlays the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Step {
    Policy,
    Category,
    Location,
}

/// The gate as the page sees it: choices checked, names filled in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    pub open: Option<Step>,
    pub consent: bool,
    pub packaging_id: Option<PackagingId>,
    pub packaging_name: Option<String>,
    /// The packaging's family (keg, bottle or can): kegs are offered in fewer cities.
    pub family: Option<FilterType>,
    pub fulfillment_id: Option<FulfillmentId>,
    pub city_id: Option<CityId>,
    pub barangay_id: Option<BarangayId>,
    pub street_id: Option<StreetId>,
    pub city_name: Option<String>,
    pub barangay_name: Option<String>,
}

impl Gate {
    /// Checks the choices against the database: at most one lookup each, the barangay's place
    /// shared with the rest of the request through `ctx`.
    pub fn resolve(ctx: &mut Ctx, c: &Choices) -> Result<Self, ApiError> {
        let mut gate = Gate {
            consent: c.consent,
            ..Gate::default()
        };
        if let Some(p) = c
            .packaging
            .map(|id| packaging(ctx.conn, id))
            .transpose()?
            .flatten()
        {
            gate.family = Some(crate::catalog::family(&p));
            gate.packaging_id = Some(p.id);
            gate.packaging_name = Some(p.name);
        }
        if let Some(f) = c.fulfillment {
            gate.fulfillment_id = db::places::fulfillment_type(ctx.conn, f)?.map(|f| f.id);
        }
        if let Some(place) = c
            .barangay
            .map(|id| crate::locations::place(ctx, id))
            .transpose()?
            .flatten()
        {
            gate.city_name = Some(place.city.city_name);
            gate.city_id = Some(place.city.id);
            gate.barangay_id = Some(place.barangay.id);
            gate.barangay_name = Some(place.barangay.barangay_name);
            if let Some(s) = c.street {
                gate.street_id = db::places::street(ctx.conn, s)?
                    .filter(|s| s.barangay_id == place.barangay.id)
                    .map(|s| s.id);
            }
        }
        Ok(gate)
    }

    /// The gates' order: consent (except on the policy pages), then category, then location; shop
    /// pages insist on both, any page opens a gate the shopper asked for (`?gate=`).
    pub fn decide(&mut self, shop: bool, policy_allowed: bool, asked: Option<&str>) {
        self.open = if !self.consent {
            policy_allowed.then_some(Step::Policy)
        } else if asked == Some("category") || (shop && self.packaging_id.is_none()) {
            Some(Step::Category)
        } else if asked == Some("location") || (shop && self.barangay_id.is_none()) {
            Some(if self.packaging_id.is_some() {
                Step::Location
            } else {
                Step::Category
            })
        } else {
            None
        };
    }
}

/// A packaging by id, if it exists (the category gate's form post checks it).
pub fn packaging(
    conn: &mut AnyConnection,
    id: PackagingId,
) -> Result<Option<db::models::Packaging>, ApiError> {
    Ok(db::catalog::packaging(conn, id)?)
}

/// The packaging of a `filterByType` value.
pub fn packaging_of_family(
    conn: &mut AnyConnection,
    family: FilterType,
) -> Result<Option<PackagingId>, ApiError> {
    Ok(db::catalog::packaging_by_filter_type(conn, family.as_str())?.map(|p| p.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(consent: bool, category: bool, barangay: bool) -> Gate {
        Gate {
            consent,
            packaging_id: category.then_some(PackagingId::from_db(1)),
            barangay_id: barangay.then_some(BarangayId::from_db(1380300002)),
            ..Gate::default()
        }
    }

    #[test]
    fn gates_open_in_spec_order() {
        let cases = [
            // consent, category, barangay, shop, policy page allowed, asked -> open
            ((false, false, false), true, true, None, Some(Step::Policy)),
            ((false, false, false), false, false, None, None),
            ((true, false, false), true, true, None, Some(Step::Category)),
            ((true, false, false), false, true, None, None),
            ((true, true, false), true, true, None, Some(Step::Location)),
            ((true, true, true), true, true, None, None),
            (
                (true, true, true),
                false,
                true,
                Some("location"),
                Some(Step::Location),
            ),
            (
                (true, true, true),
                false,
                true,
                Some("category"),
                Some(Step::Category),
            ),
            (
                (true, false, false),
                false,
                true,
                Some("location"),
                Some(Step::Category),
            ),
            (
                (false, true, true),
                true,
                true,
                Some("location"),
                Some(Step::Policy),
            ),
        ];
        for ((consent, category, barangay), shop, policy, asked, want) in cases {
            let mut g = gate(consent, category, barangay);
            g.decide(shop, policy, asked);
            assert_eq!(
                g.open, want,
                "{consent} {category} {barangay} {shop} {policy} {asked:?}"
            );
        }
    }
}
