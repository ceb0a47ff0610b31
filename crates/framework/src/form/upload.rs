//! What the file forms share (the staff catalog's photo and import forms): who may send one
//! (asked before a byte of the body is read), a `multipart/form-data` body read within its limits
//! (the whole body counted as it arrives, part headers included; the text parts and their names
//! together; the number of parts; one file; a deadline), the page's CSRF token, and their
//! refusals in the page forms' words. The API's file calls ([`crate::endpoint::File`]) read
//! their body with the same reader and limits ([`read_file`]), refused in the API's words.

use std::time::Duration;

use actix_web::error::PayloadError;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest};
use futures_util::{StreamExt, TryStreamExt};

use super::{csrf_holds_in, Answer, Fields, Refused, EXPIRED};
use crate::{ApiError, ApiState, Caller, Ctx};

/// How long a body may take to arrive (10 MB over a slow link).
const UPLOAD_DEADLINE: Duration = Duration::from_secs(120);

/// A file form: who may send it, the session it rides, its file's field, the most its body may
/// be (the file, the text, the parts' headers), and what it says of a body too large or
/// unreadable.
pub struct Upload {
    /// Whether the caller may send this form (a signed-in manager), asked before the body is read.
    pub may: fn(&mut Ctx) -> Result<(), ApiError>,
    /// The feature's own session cookie the form rides (the staff's), whose CSRF token its page
    /// gave it ([`super::csrf_holds_in`]); none: the shopper's session.
    pub credential: Option<&'static str>,
    pub file: &'static str,
    pub most: usize,
    pub too_large: String,
    pub unreadable: &'static str,
}

/// What a file form received from a caller who may send it: who sent it, its text fields, and its
/// file's name and bytes (none when no file was chosen).
pub struct Received {
    pub caller: Caller,
    pub fields: Fields,
    pub file: Option<(String, Vec<u8>)>,
}

/// Receives a file form's body as every file form takes it, or answers its refusal: whether the
/// caller may send it first, a body announced or found larger than `most` refused at once, the
/// rest read within the deadline, then the page's CSRF token.
pub async fn receive(
    req: &HttpRequest,
    payload: web::Payload,
    state: &ApiState,
    form: Upload,
) -> Result<Received, Answer> {
    let none = || Fields::from_pairs(Vec::new());
    let too_large = || {
        let refused = Refused::with(
            StatusCode::PAYLOAD_TOO_LARGE,
            &form.too_large,
            Some(form.file),
        );
        Answer::Refused(refused, none())
    };
    let caller = Caller::of_page(req);
    if let Err(e) = state.run(caller.clone(), form.may).await {
        return Err(Answer::Refused(Refused::of(e, None), none()));
    }
    if announced_too_large(req, form.most) {
        return Err(too_large());
    }
    let reading = read(req, payload, form.file, form.most);
    let sent = match tokio::time::timeout(UPLOAD_DEADLINE, reading).await {
        Ok(Ok(sent)) => sent,
        Ok(Err(Unread::TooLarge)) => return Err(too_large()),
        Ok(Err(Unread::Malformed)) | Err(_) => {
            let bad = Refused::with(StatusCode::BAD_REQUEST, form.unreadable, None);
            return Err(Answer::Refused(bad, none()));
        }
    };
    let fields = Fields::from_pairs(sent.fields);
    if !csrf_holds_in(&caller, form.credential, &fields) {
        let expired = Refused::with(StatusCode::FORBIDDEN, EXPIRED, None);
        return Err(Answer::Refused(expired, fields));
    }
    Ok(Received {
        caller,
        fields,
        file: sent.file,
    })
}

/// Reads a file call's body ([`crate::endpoint::File`]) as the file forms read theirs (the
/// same reader, deadline and limits): `multipart/form-data` (else 415) of at most `rules.most`
/// bytes, announced or counted (else 413), holding the one part `rules.part` and nothing else
/// (else 400); a part left out or empty is a file to choose (422).
pub async fn read_file(
    req: &HttpRequest,
    payload: web::Payload,
    rules: &crate::endpoint::FileRules,
) -> Result<crate::endpoint::Sent, ApiError> {
    use actix_web::HttpMessage;
    let multipart = req
        .mime_type()
        .ok()
        .flatten()
        .is_some_and(|m| m.type_() == "multipart" && m.subtype() == "form-data");
    if !multipart {
        return Err(crate::endpoint::not_multipart(rules));
    }
    let too_large = || ApiError::Unacceptable {
        status: 413,
        message: rules.too_large.to_string(),
    };
    if announced_too_large(req, rules.most) {
        return Err(too_large());
    }
    let unreadable = || {
        ApiError::BadRequest(format!(
            "The body could not be read as multipart/form-data with one part named {}.",
            rules.part
        ))
    };
    let reading = read(req, payload, rules.part, rules.most);
    let sent = match tokio::time::timeout(UPLOAD_DEADLINE, reading).await {
        Ok(Ok(sent)) => sent,
        Ok(Err(Unread::TooLarge)) => return Err(too_large()),
        Ok(Err(Unread::Malformed)) | Err(_) => return Err(unreadable()),
    };
    if let Some((name, _)) = sent.fields.first() {
        let name: String = name.chars().filter(|c| !c.is_control()).take(40).collect();
        return Err(ApiError::BadRequest(format!(
            "The part {name:?} is not taken: send only the part named {}.",
            rules.part
        )));
    }
    let (name, bytes) = sent.file.ok_or_else(|| ApiError::Invalid {
        field: rules.part,
        message: format!("Choose a file to send as {}.", rules.part),
    })?;
    Ok(crate::endpoint::Sent { name, bytes })
}

/// The most the text parts and every part's name may hold together.
pub const TEXT_LIMIT: usize = 4 * 1024;
/// The most parts a file form may have.
const PARTS_LIMIT: usize = 8;

/// What a file form sent: its text fields, and its file's name and bytes (none when no file was
/// chosen).
struct Sent {
    fields: Vec<(String, String)>,
    file: Option<(String, Vec<u8>)>,
}

/// Why a body is refused before it is read to its end.
enum Unread {
    TooLarge,
    Malformed,
}

/// Reads a body of at most `most` bytes whose file is the part named `file`.
async fn read(
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

/// Whether the body says it is larger than `most` bytes.
fn announced_too_large(req: &HttpRequest, most: usize) -> bool {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .is_some_and(|n| n > most)
}
