//! The catalog page's photo form (`multipart/form-data` to `/staff/catalog`, a file form of
//! [`crate::form`]): a manager gives a product a photo or takes it away, with JavaScript or
//! without. The same rules as every form (the origin rule and the maintenance switch, checked by
//! `form::post` first; the page's CSRF token; a signed-in manager),
//! then `api::staff::photos` (the rules `store catalog photo` follows) on a blocking thread with
//! the audit record. Answered as the page forms are: `303` to the catalog on success, or the page
//! again with the photo's message beside its product (JSON for a script that asks for it).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use domain::staff::Role;
use futures_util::TryStreamExt;
use serde_json::{json, Map};

use crate::fields::Fields;
use crate::form::{success, Done, Refused, EXPIRED};
use crate::respond::csrf_holds;
use crate::WebState;

/// The catalog page: the form posts to its address, and is answered from it.
pub const PAGE: &str = "/staff/catalog";

/// The most the text fields (csrf, sku, remove) may hold together.
const TEXT_LIMIT: usize = 4 * 1024;

/// What the form sent: its text fields and the photo's bytes (at most one byte over the limit, so
/// a larger file is refused by its size alone).
struct Sent {
    fields: Vec<(String, String)>,
    photo: Option<Vec<u8>>,
}

/// Reads the form's parts within their limits; a malformed body is refused in the form's words.
async fn read(req: &HttpRequest, payload: web::Payload) -> Result<Sent, String> {
    let mut form = actix_multipart::Multipart::new(req.headers(), payload);
    let most_photo = media::Limits::default().max_bytes + 1;
    let (mut fields, mut photo, mut text) = (Vec::new(), None, 0usize);
    while let Some(mut part) = form.try_next().await.map_err(|e| e.to_string())? {
        let name = part.name().unwrap_or_default().to_string();
        let mut bytes = Vec::new();
        let most = if name == "photo" {
            most_photo
        } else {
            TEXT_LIMIT - text
        };
        while let Some(chunk) = part.try_next().await.map_err(|e| e.to_string())? {
            let room = most.saturating_sub(bytes.len());
            bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        if name == "photo" {
            // An empty file input sends a part with no bytes: no photo chosen.
            photo = (!bytes.is_empty()).then_some(bytes);
        } else {
            text += bytes.len();
            if text >= TEXT_LIMIT {
                return Err("This form is larger than the store takes.".into());
            }
            let value = String::from_utf8(bytes).map_err(|_| "This form's text is not UTF-8.")?;
            fields.push((name, value));
        }
    }
    Ok(Sent { fields, photo })
}

crate::file_form!(PAGE, answer);

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

async fn answer(
    req: &HttpRequest,
    payload: web::Payload,
    state: &web::Data<WebState>,
) -> HttpResponse {
    let none = Fields::from_pairs(Vec::new());
    let sent = match read(req, payload).await {
        Ok(sent) => sent,
        Err(e) => {
            let bad = refused(StatusCode::BAD_REQUEST, e, None);
            return bad.answer(req, state, &none).await;
        }
    };
    let fields = Fields::from_pairs(sent.fields);
    let caller = framework::Caller::of_page(req);
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
    let store = state.media.clone();
    let photo = sent.photo.unwrap_or_default();
    let done = state
        .api
        .run(caller, move |ctx| {
            let signed = api::staff::staff(ctx, &[Role::Manager])?;
            if remove {
                api::staff::photos::take_away(ctx.conn, Some(&signed.member), &sku)
                    .map(|_| "removed")
            } else {
                api::staff::photos::give(ctx.conn, Some(&signed.member), &store, &sku, &photo)
                    .map(|_| "photo")
            }
        })
        .await;
    match done {
        Ok(done) => {
            let anchor = fields
                .get("sku")
                .map(|s| format!("#{}", anchor_of(s)))
                .unwrap_or_default();
            success(req, &Done::to(format!("{PAGE}?done={done}{anchor}")))
        }
        Err(e) => {
            let field = match &e {
                framework::ApiError::Invalid { field, .. } => Some(*field),
                _ => None,
            };
            let mut no = Refused::of(e, None);
            if let Some(field) = field {
                no.errors.insert(field.into(), json!([no.message.clone()]));
            }
            no.answer(req, state, &fields).await
        }
    }
}

/// The id of a product's row on the catalog page (its SKU, which the page writes the same way).
pub fn anchor_of(sku: &str) -> String {
    let safe: String = sku
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("product-{safe}")
}
