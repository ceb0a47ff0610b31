//! The catalog page's photo form (`multipart/form-data` to `/staff/catalog`, a file form of
//! [`crate::form`]): a manager gives a product a photo or takes it away, with JavaScript or
//! without. The same rules as every form (the origin rule and the maintenance switch, checked by
//! `form::post` first; the page's CSRF token; a signed-in manager, asked before the body is
//! read), then the rules `store catalog photo` follows (`api::staff::photos`): the photo checked
//! and kept on a blocking thread with no database connection held, then given to the product with
//! its audit record. Answered as the page forms are: `303` to the product's row on success, or the
//! page again with the message beside its product's form (JSON for a script).

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use domain::staff::Role;

use crate::fields::Fields;
use crate::form::{success, Done, EXPIRED};
use crate::respond::csrf_holds;
use crate::upload::{announced_too_large, read, refused, refused_by, Unread};
use crate::WebState;

/// The catalog page: the form posts to its address, and is answered from it.
pub const PAGE: &str = "/staff/catalog";

/// The most a whole body may be: the photo, the text, and the parts' headers.
fn body_limit() -> usize {
    media::Limits::default().max_bytes + 64 * 1024
}
/// How long a body may take to arrive (10 MB over a slow link).
const UPLOAD_DEADLINE: Duration = Duration::from_secs(120);

/// Said of a body that cannot be read as this form.
const UNREADABLE: &str = "This form could not be read. Choose the photo and send it again.";

crate::file_form!(PAGE, answer);

async fn answer(
    req: &HttpRequest,
    payload: web::Payload,
    state: &web::Data<WebState>,
) -> HttpResponse {
    let none = Fields::from_pairs(Vec::new());
    let too_large = || {
        let limit = media::Limits::default().max_bytes >> 20;
        refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("This photo is larger than the {limit} MB a photo may be: save it smaller and upload it again."),
            Some("photo"),
        )
    };
    // Who asks, before a byte of the body is read: a manager signed in.
    let caller = framework::Caller::of_page(req);
    let manager = state
        .api
        .run(caller.clone(), |ctx| {
            api::staff::staff(ctx, &[Role::Manager]).map(|_| ())
        })
        .await;
    if let Err(e) = manager {
        return refused_by(e).answer(req, state, &none).await;
    }
    if announced_too_large(req, body_limit()) {
        return too_large().answer(req, state, &none).await;
    }
    let reading = read(req, payload, "photo", body_limit());
    let sent = match tokio::time::timeout(UPLOAD_DEADLINE, reading).await {
        Ok(Ok(sent)) => sent,
        Ok(Err(Unread::TooLarge)) => return too_large().answer(req, state, &none).await,
        Ok(Err(Unread::Malformed)) | Err(_) => {
            let bad = refused(StatusCode::BAD_REQUEST, UNREADABLE, None);
            return bad.answer(req, state, &none).await;
        }
    };
    let fields = Fields::from_pairs(sent.fields);
    if !csrf_holds(&caller, &fields) {
        let expired = refused(StatusCode::FORBIDDEN, EXPIRED, None);
        return expired.answer(req, state, &fields).await;
    }
    let sku = fields.get("sku").unwrap_or_default().to_string();
    let remove = fields.get("remove").is_some();
    let photo = sent.file.map(|(_, bytes)| bytes);
    if !remove && photo.is_none() {
        let none = refused(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a photo to upload.",
            Some("photo"),
        );
        return none.answer(req, state, &fields).await;
    }
    let done = if remove {
        let sku = sku.clone();
        state
            .api
            .run(caller, move |ctx| {
                let signed = api::staff::staff(ctx, &[Role::Manager])?;
                api::staff::photos::take_away(ctx.conn, Some(&signed.member), &sku)
                    .map(|_| "removed")
            })
            .await
    } else {
        give(state, caller, sku.clone(), photo.unwrap_or_default()).await
    };
    match done {
        Ok(done) => success(
            req,
            &Done::to(format!(
                "{PAGE}?done={done}#{}",
                api::staff::photos::anchor_of(&sku)
            )),
        ),
        Err(e) => refused_by(e).answer(req, state, &fields).await,
    }
}

/// The photo checked and kept on a blocking thread (no connection held while it is decoded),
/// then given to the product by the manager, who is asked again (a session may end meanwhile).
async fn give(
    state: &web::Data<WebState>,
    caller: framework::Caller,
    sku: String,
    photo: Vec<u8>,
) -> Result<&'static str, framework::ApiError> {
    let known = sku.clone();
    state
        .api
        .run(caller.clone(), move |ctx| {
            api::staff::photos::known(ctx.conn, &known)
        })
        .await?;
    let (store, named) = (state.media.clone(), sku.clone());
    let kept = web::block(move || api::staff::photos::keep(&store, &named, &photo))
        .await
        .map_err(|_| framework::ApiError::Unavailable)??;
    state
        .api
        .run(caller, move |ctx| {
            let signed = api::staff::staff(ctx, &[Role::Manager])?;
            api::staff::photos::give_kept(ctx.conn, Some(&signed.member), &sku, &kept)
        })
        .await
        .map(|()| "photo")
}
