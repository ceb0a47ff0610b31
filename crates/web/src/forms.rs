//! The gate and newsletter forms: each gate step and the newsletter are real
//! `<form method=post>`s answered with `303 See Other`, so they work without JavaScript
//! (progressive enhancement). With JavaScript the client intercepts the same forms and writes the
//! same cookies itself. Each is declared with [`custom_form!`](crate::custom_form) beside its
//! handler.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use api::content;
use api::locations::{self, ChoiceInput};
use domain::{BarangayId, CityId, FulfillmentId, PackagingId, ProvinceId, StreetId};
use framework::ApiError;

use crate::custom_form;
use crate::fields::Fields;
use api::gate::{CONSENT_MAX_AGE, GATE_MAX_AGE};

use crate::gate::{self, cookie, removal};
use crate::page::redirect;
use crate::respond::{error_page, see_other};
use crate::WebState;

/// Where to go back to: a path of this site, without its query. Anything else (another site,
/// `//host`, a backslash, a control character or space that a browser might drop) goes home.
fn return_path(fields: &Fields) -> String {
    let raw = fields.get("return_to").unwrap_or("/");
    let path = raw.split(['?', '#']).next().unwrap_or("/");
    let safe = path.starts_with('/')
        && !path.starts_with("//")
        && path.len() <= 200
        && path
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'\\' && b != b'"' && b != b'<' && b != b'>');
    if safe {
        path.to_string()
    } else {
        "/".to_string()
    }
}

custom_form!("/gate/consent", consent);
custom_form!("/gate/category", category);
custom_form!("/gate/location", location);
custom_form!("/newsletter", newsletter);
custom_form!("/notice/location", location_notice);

/// `POST /gate/consent`: records consent and the age statement, then opens the category gate.
async fn consent(req: &HttpRequest, fields: Fields, state: &web::Data<WebState>) -> HttpResponse {
    let back = return_path(&fields);
    // A member's acceptance is kept on the server, for every device (their page sends
    // the session's CSRF token with it).
    let caller = framework::Caller::of_page(req);
    if crate::respond::csrf_holds(&caller, &fields) {
        let accepted = state
            .api
            .run(caller, move |ctx| match ctx.member() {
                Ok(user) => api::profile::accept_policy(ctx.conn, user.id),
                Err(_) => Ok(()),
            })
            .await;
        if let Err(e) = accepted {
            log::warn!("policy acceptance: {e}");
        }
    }
    see_other(&format!("{back}?gate=category"))
        .cookie(cookie(api::gate::ACCEPTED, "1", CONSENT_MAX_AGE))
        .cookie(cookie(api::gate::PRIVACY, "1", CONSENT_MAX_AGE))
        .cookie(cookie(api::gate::AGE, "1", CONSENT_MAX_AGE))
        .finish()
}

/// `POST /gate/category`: stores the category, clears the location, opens the location gate.
async fn category(req: &HttpRequest, fields: Fields, state: &web::Data<WebState>) -> HttpResponse {
    let back = return_path(&fields);
    let found = match fields.id("category_id", PackagingId::parse) {
        Some(id) => {
            state
                .api
                .run(framework::Caller::default(), move |ctx| {
                    api::gate::packaging(ctx.conn, id)
                })
                .await
        }
        None => Ok(None),
    };
    match found {
        Ok(Some(p)) => {
            // A cart of the other family is reset first, once the shopper says yes.
            let family = api::catalog::family(&p);
            let emptied = match gate::reset_cart_first(req, &fields, state, p.id, family).await {
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
            let mut res = see_other(&format!("{back}?gate=location{said}"));
            res.cookie(cookie(api::gate::CATEGORY, &p.id.to_string(), GATE_MAX_AGE))
                .cookie(cookie(api::gate::CATEGORY_NAME, &p.name, GATE_MAX_AGE));
            for name in api::gate::LOCATION {
                res.cookie(removal(name));
            }
            let mut res = res.finish();
            for cookie in emptied.into_iter().flatten() {
                let _ = res.add_cookie(&cookie);
            }
            res
        }
        // Unknown category: show the category gate again.
        Ok(None) => see_other(&format!("{back}?gate=category")).finish(),
        Err(e) => error_page(e),
    }
}

/// `POST /gate/location`: one step of the location gate. A complete location is stored and the
/// shopper lands on /buy-beer; otherwise the page comes back with the next list.
async fn location(req: &HttpRequest, fields: Fields, state: &web::Data<WebState>) -> HttpResponse {
    let back = return_path(&fields);
    let packaging = gate::choices(req).packaging;
    let input = ChoiceInput {
        fulfillment: fields.id("fulfillment", FulfillmentId::parse),
        province: fields.id("province", ProvinceId::parse),
        city: fields.id("city", CityId::parse),
        barangay: fields.id("barangay", BarangayId::parse),
        street: fields.id("street", StreetId::parse),
    };
    let choice = match state
        .api
        .run(framework::Caller::default(), move |ctx| {
            locations::check_choice(ctx, input, packaging)
        })
        .await
    {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    if let (true, Some((city, city_name)), Some((barangay, barangay_name))) =
        (choice.complete(), &choice.city, &choice.barangay)
    {
        let mut res = see_other("/buy-beer");
        for c in gate::location_cookies(&gate::Location {
            fulfillment: choice.fulfillment,
            city: *city,
            city_name,
            barangay: *barangay,
            barangay_name,
            street: choice.street,
        }) {
            res.cookie(c);
        }
        return res.finish();
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
    see_other(&format!("{next}#location-title")).finish()
}

/// `POST /newsletter`: the footer form without JavaScript; the message comes back in the query.
async fn newsletter(
    req: &HttpRequest,
    fields: Fields,
    state: &web::Data<WebState>,
) -> HttpResponse {
    let back = return_path(&fields);
    let email = fields.get("email").unwrap_or("").to_string();
    let now = domain::calendar::manila_now();
    let code = match state
        .api
        .run(framework::Caller::of_page(req), move |ctx| {
            content::subscribe(ctx, &email, now)
        })
        .await
    {
        // The same answer for a new and a known address (double opt-in).
        Ok(_) => "sent",
        Err(ApiError::Invalid { message, .. }) if message == domain::email::REQUIRED => "required",
        Err(ApiError::Invalid { .. }) => "invalid",
        Err(ApiError::TooMany(_)) => "limited",
        Err(e) => {
            log::error!("newsletter: {e}");
            "failed"
        }
    };
    see_other(&format!("{back}?newsletter={code}#newsletter")).finish()
}

/// `POST /notice/location`: the product page's notice of areas is put away (the location notice
/// cookie); the shopper goes back to the page, which leaves it out while the cookie lives.
async fn location_notice(_: &HttpRequest, fields: Fields, _: &web::Data<WebState>) -> HttpResponse {
    see_other(&return_path(&fields))
        .cookie(cookie(
            api::gate::LOCATION_NOTICE,
            "1",
            api::gate::LOCATION_NOTICE_MAX_AGE,
        ))
        .finish()
}

/// GET on a form address: its page where it has one, else (a bookmarked or reloaded form
/// result) home.
pub async fn form_get(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    if state.routes.find(req.path()).0.name == state.routes.not_found.name {
        return redirect("/", StatusCode::SEE_OTHER);
    }
    crate::page::page(req, state).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_return_paths_go_home() {
        let back = |v: &str| {
            let body = form_urlencoded::Serializer::new(String::new())
                .append_pair("return_to", v)
                .finish();
            return_path(&Fields::parse(body.as_bytes()))
        };
        assert_eq!(back("/buy-beer?x=1#y"), "/buy-beer");
        for bad in [
            "//evil.com",
            "/\\evil.com",
            "/\t/evil.com",
            "/\r\nSet-Cookie: a=b",
            "/\u{0}",
            "/\u{7f}",
            "https://evil.com",
            "/ /evil.com",
            "evil.com",
            "/ä",
        ] {
            assert_eq!(back(bad), "/", "{bad:?}");
        }
    }
}
