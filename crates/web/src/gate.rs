//! The gate cookies of SPEC 3 (the contract between server and client; the client writes the
//! same names in `ui/src/lib/cookies.ts`), read leniently: a missing, malformed or unknown value
//! counts as unset and never breaks a page. Also the cookies the no-JS gate forms write.

use actix_web::cookie::{time::Duration, Cookie, SameSite};
use actix_web::HttpRequest;
use api::ApiError;
use db::{queries, AnyConnection};
use percent_encoding::percent_decode_str;
use serde::Serialize;

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

/// The location cookies a new category clears (SPEC 4).
pub const LOCATION: [&str; 6] = [
    FULFILLMENT,
    CITY,
    BARANGAY,
    STREET,
    BARANGAY_NAME,
    CITY_NAME,
];

/// One year for consent; the gate choices for a month (SPEC's location-notice age).
pub const CONSENT_MAX_AGE: i64 = 31_536_000;
pub const GATE_MAX_AGE: i64 = 2_629_746;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GateCookies {
    pub consent: bool,
    pub category_id: Option<i64>,
    pub fulfillment_id: Option<i64>,
    pub barangay_id: Option<i64>,
    pub street_id: Option<i64>,
}

impl GateCookies {
    pub fn from_request(req: &HttpRequest) -> Self {
        let id = |name: &str| req.cookie(name).and_then(|c| domain::parse_id(c.value()));
        Self {
            // SPEC 4: for guests the privacy verification flag alone hides the policy modal.
            consent: req.cookie(PRIVACY).is_some_and(|c| c.value() == "1"),
            category_id: id(CATEGORY),
            fulfillment_id: id(FULFILLMENT),
            barangay_id: id(BARANGAY),
            street_id: id(STREET),
        }
    }
}

/// Which gate overlays the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Step {
    Policy,
    Category,
    Location,
}

/// The gate as the page sees it: cookies checked against the database, names filled in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    pub open: Option<Step>,
    pub consent: bool,
    pub category_id: Option<i32>,
    pub category_name: Option<String>,
    /// keg, bottle or can.
    #[serde(skip)]
    pub category_filter: Option<String>,
    pub fulfillment_id: Option<i32>,
    pub city_id: Option<i64>,
    pub barangay_id: Option<i64>,
    pub street_id: Option<i64>,
    pub city_name: Option<String>,
    pub barangay_name: Option<String>,
}

impl Gate {
    /// Validates the cookies: an unknown id counts as unset.
    pub fn resolve(conn: &mut AnyConnection, c: &GateCookies) -> Result<Self, ApiError> {
        let mut gate = Gate {
            consent: c.consent,
            ..Gate::default()
        };
        if let Some(p) = c
            .category_id
            .and_then(|id| i32::try_from(id).ok())
            .map(|id| queries::packaging(conn, id))
            .transpose()?
            .flatten()
        {
            gate.category_id = Some(p.id);
            gate.category_name = Some(p.name);
            gate.category_filter = Some(p.filter_type);
        }
        if let Some(f) = c
            .fulfillment_id
            .and_then(|id| i32::try_from(id).ok())
            .map(|id| queries::fulfillment_type(conn, id))
            .transpose()?
            .flatten()
        {
            gate.fulfillment_id = Some(f.id);
        }
        if let Some(b) = c
            .barangay_id
            .map(|id| queries::barangay(conn, id))
            .transpose()?
            .flatten()
        {
            gate.city_name = queries::city(conn, b.city_id)?.map(|city| city.city_name);
            gate.city_id = Some(b.city_id);
            gate.barangay_id = Some(b.id);
            gate.barangay_name = Some(b.barangay_name);
            if let Some(s) = c
                .street_id
                .map(|id| queries::street(conn, id))
                .transpose()?
                .flatten()
            {
                if s.barangay_id == b.id {
                    gate.street_id = Some(i64::from(s.id));
                }
            }
        }
        Ok(gate)
    }

    /// SPEC 4's order: consent (except on the policy pages), then category, then location; shop
    /// pages insist on both, any page opens a gate the shopper asked for (`?gate=`).
    pub fn decide(&mut self, shop: bool, policy_allowed: bool, asked: Option<&str>) {
        self.open = if !self.consent {
            policy_allowed.then_some(Step::Policy)
        } else if asked == Some("category") || (shop && self.category_id.is_none()) {
            Some(Step::Category)
        } else if asked == Some("location") || (shop && self.barangay_id.is_none()) {
            Some(if self.category_id.is_some() {
                Step::Location
            } else {
                Step::Category
            })
        } else {
            None
        };
    }
}

/// A gate cookie as the client writes it: readable by JS, `Path=/`, `SameSite=Lax`, value
/// encoded like `encodeURIComponent`.
pub fn cookie(name: &'static str, value: &str, max_age: i64) -> Cookie<'static> {
    let encoded = crate::keys::encode_component(value);
    let mut c = Cookie::new(name, encoded);
    c.set_path("/");
    c.set_same_site(SameSite::Lax);
    c.set_max_age(Duration::seconds(max_age));
    c
}

pub fn removal(name: &'static str) -> Cookie<'static> {
    let mut c = cookie(name, "", 0);
    c.make_removal();
    c
}

/// Decodes a cookie value written by either side.
pub fn decode(value: &str) -> String {
    percent_decode_str(value).decode_utf8_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(consent: bool, category: bool, barangay: bool) -> Gate {
        Gate {
            consent,
            category_id: category.then_some(1),
            barangay_id: barangay.then_some(1380300002),
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

    #[test]
    fn cookies_are_written_like_the_client_writes_them() {
        let c = cookie(CATEGORY_NAME, "DRAFT BEER IN KEG", GATE_MAX_AGE);
        assert_eq!(c.value(), "DRAFT%20BEER%20IN%20KEG");
        assert_eq!(c.path(), Some("/"));
        assert_eq!(c.same_site(), Some(SameSite::Lax));
        assert_eq!(c.http_only(), None);
        assert_eq!(decode(c.value()), "DRAFT BEER IN KEG");
    }
}
