//! The catalog page's photo form (`multipart/form-data` to `/staff/catalog`, a file form of
//! [`crate::form`]): a manager gives a product a photo or takes it away, with JavaScript or
//! without. The same rules as every form (the origin rule and the maintenance switch, checked by
//! `form::post` first; the page's CSRF token; a signed-in manager, asked before the body is
//! read), then the rules `store catalog photo` follows (`api::staff::photos`): the photo checked
//! and kept on a blocking thread with no database connection held, then given to the product with
//! its audit record. Answered as the page forms are: `303` to the product's row on success, or the
//! page again with the message beside its product's form (JSON for a script).

use std::time::Duration;

use actix_web::error::PayloadError;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use domain::staff::Role;
use futures_util::{StreamExt, TryStreamExt};
use serde_json::{json, Map};

use crate::fields::Fields;
use crate::form::{success, Done, Refused, EXPIRED};
use crate::respond::csrf_holds;
use crate::WebState;

/// The catalog page: the form posts to its address, and is answered from it.
pub const PAGE: &str = "/staff/catalog";

/// The most the text parts (csrf, sku, remove) and every part's name may hold together.
const TEXT_LIMIT: usize = 4 * 1024;
/// The most parts a form may have (it sends four at most).
const PARTS_LIMIT: usize = 8;
/// The most a whole body may be: the photo, the text, and the parts' headers.
fn body_limit() -> usize {
    media::Limits::default().max_bytes + 64 * 1024
}
/// How long a body may take to arrive (10 MB over a slow link).
const UPLOAD_DEADLINE: Duration = Duration::from_secs(120);

/// Said of a body that cannot be read as this form.
const UNREADABLE: &str = "This form could not be read. Choose the photo and send it again.";

crate::file_form!(PAGE, answer);

/// What the form sent: its text fields and the photo's bytes.
struct Sent {
    fields: Vec<(String, String)>,
    photo: Option<Vec<u8>>,
}

/// Why a body is refused before it is read to its end.
enum Unread {
    TooLarge,
    Malformed,
}

/// Reads the form's parts within their limits: the whole body is counted as it arrives (part
/// headers included), the text and the names together, the parts, one photo.
async fn read(req: &HttpRequest, payload: web::Payload) -> Result<Sent, Unread> {
    let mut seen = 0usize;
    let most = body_limit();
    let bounded = payload.map(move |chunk| {
        let chunk = chunk?;
        seen += chunk.len();
        if seen > most {
            return Err(PayloadError::Overflow);
        }
        Ok(chunk)
    });
    let mut form = actix_multipart::Multipart::new(req.headers(), bounded);
    let (mut fields, mut photo, mut text, mut parts) = (Vec::new(), None, 0usize, 0usize);
    let unread = |e: actix_multipart::MultipartError| match e {
        actix_multipart::MultipartError::Payload(PayloadError::Overflow) => Unread::TooLarge,
        _ => Unread::Malformed,
    };
    while let Some(mut part) = form.try_next().await.map_err(unread)? {
        parts += 1;
        let name = part.name().unwrap_or_default().to_string();
        text += name.len();
        if parts > PARTS_LIMIT || text > TEXT_LIMIT || (name == "photo" && photo.is_some()) {
            return Err(Unread::Malformed);
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = part.try_next().await.map_err(unread)? {
            bytes.extend_from_slice(&chunk);
            if name != "photo" && text + bytes.len() > TEXT_LIMIT {
                return Err(Unread::Malformed);
            }
        }
        if name == "photo" {
            // An empty file input sends a part with no bytes: no photo chosen.
            photo = Some(bytes).filter(|b| !b.is_empty());
        } else {
            text += bytes.len();
            fields.push((
                name,
                String::from_utf8(bytes).map_err(|_| Unread::Malformed)?,
            ));
        }
    }
    Ok(Sent { fields, photo })
}

fn refused(status: StatusCode, message: impl Into<String>, field: Option<&str>) -> Refused {
    let message = message.into();
    let mut errors = Map::new();
    if let Some(field) = field {
        errors.insert(field.into(), json!([message.clone()]));
    }
    Refused {
        status,
        message,
        errors,
    }
}

/// A refusal of the API's in the form's words, its field's message beside the field.
fn refused_by(e: framework::ApiError) -> Refused {
    let field = match &e {
        framework::ApiError::Invalid { field, .. } => Some(*field),
        _ => None,
    };
    let mut no = Refused::of(e, None);
    if let Some(field) = field {
        no.errors.insert(field.into(), json!([no.message.clone()]));
    }
    no
}

/// Whether the body says it is larger than any photo form may be.
fn announced_too_large(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .is_some_and(|n| n > body_limit())
}

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
    if announced_too_large(req) {
        return too_large().answer(req, state, &none).await;
    }
    let sent = match tokio::time::timeout(UPLOAD_DEADLINE, read(req, payload)).await {
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
    if !remove && sent.photo.is_none() {
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
        give(state, caller, sku.clone(), sent.photo.unwrap_or_default()).await
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
