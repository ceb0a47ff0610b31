//! The photo forms (`multipart/form-data`, file forms of [`framework::form`]): a manager gives a
//! product a photo or takes it away from the catalog page (`/staff/catalog`, the product by its
//! `sku`), a home page banner from the banners page (`/staff/catalog/banners`, by `bannerId`),
//! with JavaScript or without. The same rules as every form (the origin rule and the maintenance
//! switch, checked by `web::form::post` first; the page's CSRF token; a signed-in manager, asked
//! before the body is read), then the rules `store catalog photo` follows, in the one function
//! the API's photo calls (`photo`) share ([`photos::receive`]): the photo checked and kept on a
//! blocking thread with no database connection held, then given to its owner with its audit
//! record. Answered as the page forms are: `303` to the owner's place on the page on success, or
//! the page again with the message beside its owner's form (JSON for a script).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest};
use domain::staff::Role;
use framework::form::upload::{receive, Received, Upload};
use framework::form::{Answer, Done, Fields, Refused};
use framework::{ApiError, ApiState};

use crate::staff::catalog::banners::NewBanner;
use crate::staff::photos::{self, Subject};

/// The catalog page: its product photo forms post to its address, and are answered from it.
pub const PAGE: &str = "/staff/catalog";

/// The banners page, whose banner photo forms post to its address.
pub const BANNERS: &str = "/staff/catalog/banners";

/// Said of a body that cannot be read as this form.
const UNREADABLE: &str = "This form could not be read. Choose the photo and send it again.";

framework::file_form!(PAGE, products);
framework::file_form!(BANNERS, banners);

async fn products(req: &HttpRequest, payload: web::Payload, state: &ApiState) -> Answer {
    answer(req, payload, state, PAGE, |fields| {
        let sku = fields.get("sku").unwrap_or_default().to_string();
        Ok(Asked::Photo(Subject::Product(sku)))
    })
    .await
}

async fn banners(req: &HttpRequest, payload: web::Payload, state: &ApiState) -> Answer {
    answer(req, payload, state, BANNERS, |fields| {
        if fields.get("add").is_some() {
            let typed = |name: &str| fields.get(name).unwrap_or_default().to_string();
            return Ok(Asked::NewBanner(NewBanner {
                title: typed("title"),
                starts_on: typed("starts_on"),
                ends_on: typed("ends_on"),
                sort_order: typed("sort_order"),
            }));
        }
        // Digits only (no sign): one banner has one id.
        let id = |v: &str| {
            let digits = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| v.parse::<i32>().ok()).flatten()
        };
        fields
            .id("bannerId", id)
            .filter(|&id| id > 0)
            .map(|id| Asked::Photo(Subject::Banner(id)))
            .ok_or_else(|| ApiError::NotFound("No such banner.".into()))
    })
    .await
}

/// What a photo form asks for: a photo for a product or a banner (or to take it away), or a new
/// banner with its photo.
enum Asked {
    Photo(Subject),
    NewBanner(NewBanner),
}

/// The form posted to `page` for what `asked` reads from its fields (or why they name nothing).
async fn answer(
    req: &HttpRequest,
    payload: web::Payload,
    state: &ApiState,
    page: &'static str,
    asked: fn(&Fields) -> Result<Asked, ApiError>,
) -> Answer {
    let form = Upload {
        may: super::a_manager,
        credential: Some(crate::staff::COOKIE),
        file: "photo",
        most: photos::body_limit(),
        too_large: photos::too_large().to_string(),
        unreadable: UNREADABLE,
    };
    let Received {
        caller,
        fields,
        file,
    } = match receive(req, payload, state, form).await {
        Ok(received) => received,
        Err(refused) => return refused,
    };
    let asked = match asked(&fields) {
        Ok(asked) => asked,
        Err(e) => return Answer::Refused(Refused::of(e, None), fields),
    };
    let remove = fields.get("remove").is_some() && matches!(asked, Asked::Photo(_));
    let photo = file.map(|(_, bytes)| bytes);
    if !remove && photo.is_none() {
        let none = Refused::with(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a photo to upload.",
            Some("photo"),
        );
        return Answer::Refused(none, fields);
    }
    let photo = photo.unwrap_or_default();
    let done = match asked {
        Asked::NewBanner(new) => add(state, caller, new, photo)
            .await
            .map(|id| ("added", Subject::Banner(id).anchor())),
        Asked::Photo(subject) if remove => {
            let anchor = subject.anchor();
            state
                .run(caller, move |ctx| {
                    let signed = crate::staff::signed_in_as(ctx, &[Role::Manager])?;
                    crate::staff::photos::take_away(ctx.conn, Some(&signed.member), &subject)
                })
                .await
                .map(|_| ("removed", anchor))
        }
        Asked::Photo(subject) => {
            let anchor = subject.anchor();
            photos::receive(state, caller, subject, photo)
                .await
                .map(|_| ("photo", anchor))
        }
    };
    match done {
        Ok((done, anchor)) => Answer::Done(Done::to(format!("{page}?done={done}#{anchor}"))),
        Err(e) => Answer::Refused(Refused::of(photos::in_form(e), None), fields),
    }
}

/// A new banner: its photo checked and kept on a blocking thread (no connection held), then the
/// banner added with it by the manager, who is asked again. Answers its id.
async fn add(
    state: &ApiState,
    caller: framework::Caller,
    new: NewBanner,
    photo: Vec<u8>,
) -> Result<i32, ApiError> {
    // What can be said without the photo is said before it is read.
    new.place()?;
    let kept = photos::kept(state, "a new banner".into(), photo).await?;
    state
        .run(caller, move |ctx| {
            let signed = crate::staff::signed_in_as(ctx, &[Role::Manager])?;
            crate::staff::catalog::banners::add(ctx.conn, &signed.member, new, &kept)
        })
        .await
}
