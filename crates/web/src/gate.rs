//! The gate cookies (the contract between server and client; the client writes the same names in
//! `ui/src/features/gate/cookies.ts`), read leniently: a missing or malformed value counts as unset
//! and never breaks a page (`api::gate` then drops unknown ids). Also the cookies the no-JS
//! gate forms write.

use actix_web::cookie::{time::Duration, Cookie, SameSite};
use actix_web::{web, HttpRequest, HttpResponse};
use api::cart::visitor::Reset;
use api::gate::Choices;
use domain::{BarangayId, CityId, FilterType, FulfillmentId, PackagingId, StreetId};

use api::gate::{
    BARANGAY, BARANGAY_NAME, CATEGORY, CATEGORY_NAME, CITY, CITY_NAME, FULFILLMENT, GATE_MAX_AGE,
    LOCATION_NOTICE, ORIGINAL_ID, ORIGINAL_NAME, PREVIOUS_ID, PREVIOUS_NAME, PRIVACY, STREET,
};

use crate::fields::Fields;
use crate::respond::{csrf_holds, error_page, see_other};
use crate::WebState;

/// The category form's answer to the cart's reset question (`yes`).
pub const RESET_FIELD: &str = "reset";

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

/// A cart holds one family (kegs apart from bottles and cans), also without JavaScript: before
/// the category form stores a category of the other family than the cart holds, the shopper is
/// asked "Your current cart will be reset. ...": the answer
/// is the cart page with the question over it (`?gate=category&reset={id}`, a page with the
/// session's CSRF token), whose Yes posts the category again with `reset=yes`; then every item is
/// removed and the category stored as usual (`None`: go on). No is a link back that keeps the
/// category the cart was made for. The previous and original category cookies say which.
/// `Err(cookies)`: the cart was emptied (go on, and send the cookies of its new revision).
pub async fn reset_cart_first(
    req: &HttpRequest,
    fields: &Fields,
    state: &web::Data<WebState>,
    chosen: PackagingId,
    family: FilterType,
) -> Result<Option<HttpResponse>, Vec<Cookie<'static>>> {
    let barangay = choices(req).barangay;
    let caller = framework::Caller::of_page(req);
    let confirmed = fields.get(RESET_FIELD) == Some("yes") && csrf_holds(&caller, fields);
    let outcome = state
        .api
        .run(caller, move |ctx| {
            let reset = api::cart::visitor::reset_for(ctx, barangay, family, confirmed)?;
            Ok((reset, ctx.take_cookies()))
        })
        .await;
    match outcome {
        Ok((Reset::Kept, _)) => Ok(None),
        Ok((Reset::Emptied, cookies)) => Err(cookies),
        Ok((Reset::Ask, _)) => {
            let mut res = see_other(&format!(
                "/cart?gate=category&{RESET_FIELD}={chosen}#reset-title"
            ));
            if let (Some(id), Some(name)) = (req.cookie(CATEGORY), req.cookie(CATEGORY_NAME)) {
                let name = percent_encoding::percent_decode_str(name.value())
                    .decode_utf8_lossy()
                    .into_owned();
                for (id_cookie, name_cookie) in
                    [(PREVIOUS_ID, PREVIOUS_NAME), (ORIGINAL_ID, ORIGINAL_NAME)]
                {
                    res.cookie(cookie(id_cookie, id.value(), GATE_MAX_AGE))
                        .cookie(cookie(name_cookie, &name, GATE_MAX_AGE));
                }
            }
            Ok(Some(res.finish()))
        }
        Err(e) => Ok(Some(error_page(e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
