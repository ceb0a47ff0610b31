//! The photo forms (`multipart/form-data`, file forms of [`crate::form`]): a manager gives a
//! product a photo or takes it away from the catalog page (`/staff/catalog`, the product by its
//! `sku`), a home page banner from the banners page (`/staff/catalog/banners`, by `bannerId`),
//! with JavaScript or without. The same rules as every form (the origin rule and the maintenance
//! switch, checked by `form::post` first; the page's CSRF token; a signed-in manager, asked before
//! the body is read), then the rules `store catalog photo` follows (`api::staff::photos`): the
//! photo checked and kept on a blocking thread with no database connection held, then given to its
//! owner with its audit record. Answered as the page forms are: `303` to the owner's place on the
//! page on success, or the page again with the message beside its owner's form (JSON for a
//! script).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use api::staff::catalog::banners::NewBanner;
use api::staff::photos::Subject;
use domain::staff::Role;

use crate::fields::Fields;
use crate::form::{success, Done, Refused};
use crate::upload::{receive, refused, Received, Upload};
use crate::WebState;

/// The catalog page: its product photo forms post to its address, and are answered from it.
pub const PAGE: &str = "/staff/catalog";

/// The banners page, whose banner photo forms post to its address.
pub const BANNERS: &str = "/staff/catalog/banners";

/// The most a whole body may be: the photo, the text, and the parts' headers.
fn body_limit() -> usize {
    media::Limits::default().max_bytes + 64 * 1024
}

/// Said of a body that cannot be read as this form.
const UNREADABLE: &str = "This form could not be read. Choose the photo and send it again.";

crate::file_form!(PAGE, products);
crate::file_form!(BANNERS, banners);

async fn products(
    req: &HttpRequest,
    payload: web::Payload,
    state: &web::Data<WebState>,
) -> HttpResponse {
    answer(req, payload, state, PAGE, |fields| {
        let sku = fields.get("sku").unwrap_or_default().to_string();
        Ok(Asked::Photo(Subject::Product(sku)))
    })
    .await
}

async fn banners(
    req: &HttpRequest,
    payload: web::Payload,
    state: &web::Data<WebState>,
) -> HttpResponse {
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
            .ok_or_else(|| framework::ApiError::NotFound("No such banner.".into()))
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
    state: &web::Data<WebState>,
    page: &'static str,
    asked: fn(&Fields) -> Result<Asked, framework::ApiError>,
) -> HttpResponse {
    let limit = media::Limits::default().max_bytes >> 20;
    let form = Upload {
        file: "photo",
        most: body_limit(),
        too_large: format!("This photo is larger than the {limit} MB a photo may be: save it smaller and upload it again."),
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
        Err(e) => return Refused::of(e, None).answer(req, state, &fields).await,
    };
    let remove = fields.get("remove").is_some() && matches!(asked, Asked::Photo(_));
    let photo = file.map(|(_, bytes)| bytes);
    if !remove && photo.is_none() {
        let none = refused(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a photo to upload.",
            Some("photo"),
        );
        return none.answer(req, state, &fields).await;
    }
    let photo = photo.unwrap_or_default();
    let done = match asked {
        Asked::NewBanner(new) => add(state, caller, new, photo)
            .await
            .map(|id| ("added", Subject::Banner(id).anchor())),
        Asked::Photo(subject) if remove => {
            let anchor = subject.anchor();
            state
                .api
                .run(caller, move |ctx| {
                    let signed = api::staff::signed_in_as(ctx, &[Role::Manager])?;
                    api::staff::photos::take_away(ctx.conn, Some(&signed.member), &subject)
                })
                .await
                .map(|_| ("removed", anchor))
        }
        Asked::Photo(subject) => {
            let anchor = subject.anchor();
            give(state, caller, subject, photo)
                .await
                .map(|()| ("photo", anchor))
        }
    };
    match done {
        Ok((done, anchor)) => success(req, &Done::to(format!("{page}?done={done}#{anchor}"))),
        Err(e) => Refused::of(e, None).answer(req, state, &fields).await,
    }
}

/// A new banner: its photo checked and kept on a blocking thread (no connection held), then the
/// banner added with it by the manager, who is asked again. Answers its id.
async fn add(
    state: &web::Data<WebState>,
    caller: framework::Caller,
    new: NewBanner,
    photo: Vec<u8>,
) -> Result<i32, framework::ApiError> {
    // What can be said without the photo is said before it is read.
    new.place()?;
    let store = state.media.clone();
    let kept = web::block(move || api::staff::photos::keep(&store, &"a new banner", &photo))
        .await
        .map_err(|_| framework::ApiError::Unavailable)??;
    state
        .api
        .run(caller, move |ctx| {
            let signed = api::staff::signed_in_as(ctx, &[Role::Manager])?;
            api::staff::catalog::banners::add(ctx.conn, &signed.member, new, &kept)
        })
        .await
}

/// The photo checked and kept on a blocking thread (no connection held while it is decoded),
/// then given to its owner by the manager, who is asked again (a session may end meanwhile).
async fn give(
    state: &web::Data<WebState>,
    caller: framework::Caller,
    subject: Subject,
    photo: Vec<u8>,
) -> Result<(), framework::ApiError> {
    let known = subject.clone();
    state
        .api
        .run(caller.clone(), move |ctx| {
            api::staff::photos::known(ctx.conn, &known)
        })
        .await?;
    let (store, named) = (state.media.clone(), subject.clone());
    let kept = web::block(move || api::staff::photos::keep(&store, &named, &photo))
        .await
        .map_err(|_| framework::ApiError::Unavailable)??;
    state
        .api
        .run(caller, move |ctx| {
            let signed = api::staff::signed_in_as(ctx, &[Role::Manager])?;
            api::staff::photos::give_kept(ctx.conn, Some(&signed.member), &subject, &kept)
        })
        .await
}
