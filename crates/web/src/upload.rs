//! What the file forms share (`photo_form`, `import_form`): a `multipart/form-data` body read
//! within its limits (the whole body counted as it arrives, part headers included; the text
//! parts and their names together; the number of parts; one file), and their refusals in the
//! page forms' words.

use actix_web::error::PayloadError;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest};
use futures_util::{StreamExt, TryStreamExt};
use serde_json::{json, Map};

use crate::form::Refused;

/// The most the text parts and every part's name may hold together.
pub const TEXT_LIMIT: usize = 4 * 1024;
/// The most parts a file form may have.
const PARTS_LIMIT: usize = 8;

/// What a file form sent: its text fields, and its file's name and bytes (none when no file was
/// chosen).
pub struct Sent {
    pub fields: Vec<(String, String)>,
    pub file: Option<(String, Vec<u8>)>,
}

/// Why a body is refused before it is read to its end.
pub enum Unread {
    TooLarge,
    Malformed,
}

/// Reads a body of at most `most` bytes whose file is the part named `file`.
pub async fn read(
    req: &HttpRequest,
    payload: web::Payload,
    file: &str,
    most: usize,
) -> Result<Sent, Unread> {
    let mut seen = 0usize;
    let bounded = payload.map(move |chunk| {
        let chunk = chunk?;
        seen += chunk.len();
        if seen > most {
            return Err(PayloadError::Overflow);
        }
        Ok(chunk)
    });
    let mut form = actix_multipart::Multipart::new(req.headers(), bounded);
    let (mut fields, mut sent, mut text, mut parts) = (Vec::new(), None, 0usize, 0usize);
    let unread = |e: actix_multipart::MultipartError| match e {
        actix_multipart::MultipartError::Payload(PayloadError::Overflow) => Unread::TooLarge,
        _ => Unread::Malformed,
    };
    while let Some(mut part) = form.try_next().await.map_err(unread)? {
        parts += 1;
        let name = part.name().unwrap_or_default().to_string();
        text += name.len();
        if parts > PARTS_LIMIT || text > TEXT_LIMIT || (name == file && sent.is_some()) {
            return Err(Unread::Malformed);
        }
        let file_name = part
            .content_disposition()
            .and_then(|d| d.get_filename())
            .unwrap_or_default()
            .to_string();
        let mut bytes = Vec::new();
        while let Some(chunk) = part.try_next().await.map_err(unread)? {
            bytes.extend_from_slice(&chunk);
            if name != file && text + bytes.len() > TEXT_LIMIT {
                return Err(Unread::Malformed);
            }
        }
        if name == file {
            // An empty file input sends a part with no bytes: no file chosen.
            sent = Some((file_name, bytes)).filter(|(_, b)| !b.is_empty());
        } else {
            text += bytes.len();
            fields.push((
                name,
                String::from_utf8(bytes).map_err(|_| Unread::Malformed)?,
            ));
        }
    }
    Ok(Sent { fields, file: sent })
}

/// Refused with `message`, beside `field` when one is named.
pub fn refused(status: StatusCode, message: impl Into<String>, field: Option<&str>) -> Refused {
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
pub fn refused_by(e: framework::ApiError) -> Refused {
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

/// Whether the body says it is larger than `most` bytes.
pub fn announced_too_large(req: &HttpRequest, most: usize) -> bool {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .is_some_and(|n| n > most)
}
