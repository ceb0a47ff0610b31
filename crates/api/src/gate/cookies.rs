//! The gate cookies (the contract between server and client; the client writes the same names in
//! `ui/src/features/gate/cookies.ts`), read leniently: a missing or malformed value counts as unset
//! and never breaks a page ([`super`] then drops unknown ids). Also the cookies the no-JS gate
//! forms ([`super::forms`]) and a member's first address write.

use actix_web::cookie::{time::Duration, Cookie, SameSite};
use actix_web::HttpRequest;
use domain::{BarangayId, CityId, FulfillmentId, PackagingId, StreetId};

use super::Choices;
use super::{
    BARANGAY, BARANGAY_NAME, CATEGORY, CITY, CITY_NAME, FULFILLMENT, GATE_MAX_AGE, LOCATION_NOTICE,
    PRIVACY, STREET,
};

/// Reads the gate cookies into the choices they carry, each id parsed once here.
pub fn choices(req: &HttpRequest) -> Choices {
    Choices {
        // For guests the privacy verification flag alone hides the policy modal.
        consent: req.cookie(PRIVACY).is_some_and(|c| c.value() == "1"),
        packaging: req
            .cookie(CATEGORY)
            .and_then(|c| PackagingId::parse(c.value())),
        fulfillment: req
            .cookie(FULFILLMENT)
            .and_then(|c| FulfillmentId::parse(c.value())),
        barangay: req
            .cookie(BARANGAY)
            .and_then(|c| BarangayId::parse(c.value())),
        street: req.cookie(STREET).and_then(|c| StreetId::parse(c.value())),
    }
}

/// Whether the location notice stays away (its flag is set).
pub fn location_notice_seen(req: &HttpRequest) -> bool {
    req.cookie(LOCATION_NOTICE)
        .is_some_and(|c| c.value() == "1")
}

/// A gate cookie as the client writes it: readable by JS, `Path=/`, `SameSite=Lax`, value
/// encoded like `encodeURIComponent`.
pub fn cookie(name: &'static str, value: &str, max_age: i64) -> Cookie<'static> {
    let encoded = framework::form::encode_component(value);
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

/// A complete location as the gate keeps it in cookies: the location form's last step and a
/// member's first address write the same.
pub struct Location<'a> {
    pub fulfillment: FulfillmentId,
    pub city: CityId,
    pub city_name: &'a str,
    pub barangay: BarangayId,
    pub barangay_name: &'a str,
    pub street: Option<StreetId>,
}

pub fn location_cookies(l: &Location) -> [Cookie<'static>; 6] {
    [
        cookie(FULFILLMENT, &l.fulfillment.to_string(), GATE_MAX_AGE),
        cookie(CITY, &l.city.to_string(), GATE_MAX_AGE),
        cookie(BARANGAY, &l.barangay.to_string(), GATE_MAX_AGE),
        cookie(CITY_NAME, l.city_name, GATE_MAX_AGE),
        cookie(BARANGAY_NAME, l.barangay_name, GATE_MAX_AGE),
        match l.street {
            Some(s) => cookie(STREET, &s.to_string(), GATE_MAX_AGE),
            None => removal(STREET),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::CATEGORY_NAME;

    #[test]
    fn cookies_are_written_like_the_client_writes_them() {
        let c = cookie(CATEGORY_NAME, "DRAFT BEER IN KEG", GATE_MAX_AGE);
        assert_eq!(c.value(), "DRAFT%20BEER%20IN%20KEG");
        assert_eq!(c.path(), Some("/"));
        assert_eq!(c.same_site(), Some(SameSite::Lax));
        assert_eq!(c.http_only(), None);
        assert_eq!(
            percent_encoding::percent_decode_str(c.value()).decode_utf8_lossy(),
            "DRAFT BEER IN KEG"
        );
    }

    #[test]
    fn malformed_cookies_count_as_unset() {
        let req = actix_web::test::TestRequest::default()
            .insert_header((
                "Cookie",
                "privacyVerification=1; categoryGateId=%ff; locationGateBarangayId=-4; locationGateStreetId=12",
            ))
            .to_http_request();
        let c = choices(&req);
        assert!(c.consent);
        assert_eq!(c.packaging, None);
        assert_eq!(c.barangay, None);
        assert_eq!(c.street, Some(StreetId::from_db(12)));
    }
}
