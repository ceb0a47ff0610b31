//! The gate forms: each gate step is a real `<form method=post>` answered with `303 See Other`,
//! so it works without JavaScript (progressive enhancement). With JavaScript the client intercepts
//! the same forms and writes the same cookies itself. Each is declared with
//! [`framework::custom_form!`] beside its handler.

use actix_web::cookie::Cookie;
use actix_web::HttpRequest;
use domain::{BarangayId, CityId, FilterType, FulfillmentId, PackagingId, ProvinceId, StreetId};
use framework::form::{csrf_holds, return_path, Answer, Done, Fields};
use framework::ApiState;

use super::cookies::{self, cookie, removal};
use super::{
    CATEGORY, CATEGORY_NAME, CONSENT_MAX_AGE, GATE_MAX_AGE, ORIGINAL_ID, ORIGINAL_NAME,
    PREVIOUS_ID, PREVIOUS_NAME,
};
use crate::cart::visitor::Reset;
use crate::locations::{self, ChoiceInput};

/// The category form's answer to the cart's reset question (`yes`).
pub const RESET_FIELD: &str = "reset";

framework::custom_form!("/gate/consent", consent);
framework::custom_form!("/gate/category", category);
framework::custom_form!("/gate/location", location);
framework::custom_form!("/notice/location", location_notice);

/// `303 See Other` to `to` with `cookies`.
fn see_other(to: impl Into<String>, cookies: Vec<Cookie<'static>>) -> Answer {
    Answer::SeeOther(Done {
        to: to.into(),
        cookies,
    })
}

/// `POST /gate/consent`: records consent and the age statement, then opens the category gate.
async fn consent(req: &HttpRequest, fields: Fields, state: &ApiState) -> Answer {
    let back = return_path(&fields);
    // A member's acceptance is kept on the server, for every device (their page sends
    // the session's CSRF token with it).
    let caller = framework::Caller::of_page(req);
    if csrf_holds(&caller, &fields) {
        let accepted = state
            .run(caller, move |ctx| match ctx.member() {
                Ok(user) => crate::profile::accept_policy(ctx.conn, user.id),
                Err(_) => Ok(()),
            })
            .await;
        if let Err(e) = accepted {
            log::warn!("policy acceptance: {e}");
        }
    }
    see_other(
        format!("{back}?gate=category"),
        vec![
            cookie(super::ACCEPTED, "1", CONSENT_MAX_AGE),
            cookie(super::PRIVACY, "1", CONSENT_MAX_AGE),
            cookie(super::AGE, "1", CONSENT_MAX_AGE),
        ],
    )
}

/// `POST /gate/category`: stores the category, clears the location, opens the location gate.
async fn category(req: &HttpRequest, fields: Fields, state: &ApiState) -> Answer {
    let back = return_path(&fields);
    let found = match fields.id("category_id", PackagingId::parse) {
        Some(id) => {
            state
                .run(framework::Caller::default(), move |ctx| {
                    super::packaging(ctx.conn, id)
                })
                .await
        }
        None => Ok(None),
    };
    match found {
        Ok(Some(p)) => {
            // A cart of the other family is reset first, once the shopper says yes.
            let family = crate::catalog::family(&p);
            let emptied = match reset_cart_first(req, &fields, state, p.id, family).await {
                Ok(Some(ask)) => return ask,
                Ok(None) => None,
                Err(cookies) => Some(cookies),
            };
            // After a reset without JavaScript the cart page says so.
            let said = if emptied.is_some() && back == "/cart" {
                "&done=reset"
            } else {
                ""
            };
            let mut set = vec![
                cookie(CATEGORY, &p.id.to_string(), GATE_MAX_AGE),
                cookie(CATEGORY_NAME, &p.name, GATE_MAX_AGE),
            ];
            set.extend(super::LOCATION.into_iter().map(removal));
            set.extend(emptied.into_iter().flatten());
            see_other(format!("{back}?gate=location{said}"), set)
        }
        // Unknown category: show the category gate again.
        Ok(None) => see_other(format!("{back}?gate=category"), Vec::new()),
        Err(e) => Answer::Failed(e),
    }
}

/// A cart holds one family (kegs apart from bottles and cans), also without JavaScript: before
/// the category form stores a category of the other family than the cart holds, the shopper is
/// asked "Your current cart will be reset. ...": the answer
/// is the cart page with the question over it (`?gate=category&reset={id}`, a page with the
/// session's CSRF token), whose Yes posts the category again with `reset=yes`; then every item is
/// removed and the category stored as usual (`None`: go on). No is a link back that keeps the
/// category the cart was made for. The previous and original category cookies say which.
/// `Err(cookies)`: the cart was emptied (go on, and send the cookies of its new revision).
async fn reset_cart_first(
    req: &HttpRequest,
    fields: &Fields,
    state: &ApiState,
    chosen: PackagingId,
    family: FilterType,
) -> Result<Option<Answer>, Vec<Cookie<'static>>> {
    let barangay = cookies::choices(req).barangay;
    let caller = framework::Caller::of_page(req);
    let confirmed = fields.get(RESET_FIELD) == Some("yes") && csrf_holds(&caller, fields);
    let outcome = state
        .run(caller, move |ctx| {
            let reset = crate::cart::visitor::reset_for(ctx, barangay, family, confirmed)?;
            Ok((reset, ctx.take_cookies()))
        })
        .await;
    match outcome {
        Ok((Reset::Kept, _)) => Ok(None),
        Ok((Reset::Emptied, cookies)) => Err(cookies),
        Ok((Reset::Ask, _)) => {
            let mut set = Vec::new();
            if let (Some(id), Some(name)) = (req.cookie(CATEGORY), req.cookie(CATEGORY_NAME)) {
                let name = percent_encoding::percent_decode_str(name.value())
                    .decode_utf8_lossy()
                    .into_owned();
                for (id_cookie, name_cookie) in
                    [(PREVIOUS_ID, PREVIOUS_NAME), (ORIGINAL_ID, ORIGINAL_NAME)]
                {
                    set.push(cookie(id_cookie, id.value(), GATE_MAX_AGE));
                    set.push(cookie(name_cookie, &name, GATE_MAX_AGE));
                }
            }
            let to = format!("/cart?gate=category&{RESET_FIELD}={chosen}#reset-title");
            Ok(Some(see_other(to, set)))
        }
        Err(e) => Ok(Some(Answer::Failed(e))),
    }
}

/// `POST /gate/location`: one step of the location gate. A complete location is stored and the
/// shopper lands on /buy-beer; otherwise the page comes back with the next list.
async fn location(req: &HttpRequest, fields: Fields, state: &ApiState) -> Answer {
    let back = return_path(&fields);
    let packaging = cookies::choices(req).packaging;
    let input = ChoiceInput {
        fulfillment: fields.id("fulfillment", FulfillmentId::parse),
        province: fields.id("province", ProvinceId::parse),
        city: fields.id("city", CityId::parse),
        barangay: fields.id("barangay", BarangayId::parse),
        street: fields.id("street", StreetId::parse),
    };
    let choice = match state
        .run(framework::Caller::default(), move |ctx| {
            locations::check_choice(ctx, input, packaging)
        })
        .await
    {
        Ok(c) => c,
        Err(e) => return Answer::Failed(e),
    };
    if let (true, Some((city, city_name)), Some((barangay, barangay_name))) =
        (choice.complete(), &choice.city, &choice.barangay)
    {
        let set = cookies::location_cookies(&cookies::Location {
            fulfillment: choice.fulfillment,
            city: *city,
            city_name,
            barangay: *barangay,
            barangay_name,
            street: choice.street,
        });
        return see_other("/buy-beer", set.into());
    }
    let mut next = format!(
        "{back}?gate=location&fulfillment={}&province={}",
        choice.fulfillment, choice.province
    );
    if let Some((city, _)) = choice.city {
        next.push_str(&format!("&city={city}"));
    }
    if let Some((b, _)) = choice.barangay {
        next.push_str(&format!("&barangay={b}"));
    }
    see_other(format!("{next}#location-title"), Vec::new())
}

/// `POST /notice/location`: the product page's notice of areas is put away (the location notice
/// cookie); the shopper goes back to the page, which leaves it out while the cookie lives.
async fn location_notice(_: &HttpRequest, fields: Fields, _: &ApiState) -> Answer {
    let set = cookie(super::LOCATION_NOTICE, "1", super::LOCATION_NOTICE_MAX_AGE);
    see_other(return_path(&fields), vec![set])
}
