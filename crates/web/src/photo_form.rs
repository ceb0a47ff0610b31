//! The catalog page's photo form (`multipart/form-data` to `/staff/catalog`, a file form of
//! [`crate::form`]): a manager gives a product a photo or takes it away, with JavaScript or
//! without. The same rules as every form (the origin rule and the maintenance switch, checked by
//! `form::post` first; the page's CSRF token; a signed-in manager, asked before the body is
//! read), then the rules `store catalog photo` follows (`api::staff::photos`): the photo checked
//! and kept on a blocking thread with no database connection held, then given to the product with
//! its audit record. Answered as the page forms are: `303` to the product's row on success, or the
//! page again with the message beside its product's form (JSON for a script).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use domain::staff::Role;

use crate::form::{success, Done, Refused};
use crate::upload::{receive, refused, Received, Upload};
use crate::WebState;

/// The catalog page: the form posts to its address, and is answered from it.
pub const PAGE: &str = "/staff/catalog";

/// The most a whole body may be: the photo, the text, and the parts' headers.
fn body_limit() -> usize {
    media::Limits::default().max_bytes + 64 * 1024
}

/// Said of a body that cannot be read as this form.
const UNREADABLE: &str = "This form could not be read. Choose the photo and send it again.";

crate::file_form!(PAGE, answer);

async fn answer(
    req: &HttpRequest,
    payload: web::Payload,
    state: &web::Data<WebState>,
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
    let sku = fields.get("sku").unwrap_or_default().to_string();
    let remove = fields.get("remove").is_some();
    let photo = file.map(|(_, bytes)| bytes);
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
        Err(e) => Refused::of(e, None).answer(req, state, &fields).await,
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
