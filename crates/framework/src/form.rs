//! What a page form of a feature needs, knowing no feature and no page: its fields
//! ([`Fields`]), a file form's body read within its limits ([`upload`]), the session's CSRF
//! token ([`csrf_holds`]), where to go back to ([`return_path`]), and what a form's handler
//! answers ([`Answer`]: where to go, or why the form comes back). A feature declares a form with a
//! handler of its own beside its calls, [`custom_form!`](crate::custom_form) for fields and
//! [`file_form!`](crate::file_form) for files; `inventory` collects them, and `web` finds them
//! by their address, runs them after the origin rule and the maintenance switch, and turns their
//! answer into a redirect or the page again with the form's messages.

pub mod fields;
pub mod upload;

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{json, Map, Value};

use crate::endpoint::{Caller, Issued};
use crate::{ApiError, ApiState};

pub use fields::Fields;

/// What a form with a stale or missing CSRF token is told.
pub const EXPIRED: &str = "This form has expired. Please try again.";

/// Where a form sends the browser on success, with the cookies it sets.
pub struct Done {
    pub to: String,
    pub cookies: Vec<Cookie<'static>>,
}

impl Done {
    pub fn to(to: impl Into<String>) -> Self {
        Self {
            to: to.into(),
            cookies: Vec::new(),
        }
    }
}

/// A form that needs correcting: its status, one message, each field's messages.
pub struct Refused {
    pub status: StatusCode,
    pub message: String,
    pub errors: Map<String, Value>,
}

impl Refused {
    /// Refused with `message`, beside `field` when one is named.
    pub fn with(status: StatusCode, message: impl Into<String>, field: Option<&str>) -> Self {
        let message = message.into();
        let mut errors = Map::new();
        if let Some(field) = field {
            errors.insert(field.into(), json!([message.clone()]));
        }
        Self {
            status,
            message,
            errors,
        }
    }

    /// A call's failure in the form's words.
    pub fn of(e: ApiError, fallback: Option<&str>) -> Self {
        if matches!(e, ApiError::Internal(_)) {
            log::error!("form: {e:?}");
        }
        let mut errors = Map::new();
        match &e {
            ApiError::Invalid { field, message } => {
                errors.insert((*field).to_string(), json!([message]));
            }
            ApiError::Fields(map) => {
                for (field, messages) in map {
                    errors.insert((*field).to_string(), json!(messages));
                }
            }
            _ => {}
        }
        let own = matches!(
            e,
            ApiError::Invalid { .. }
                | ApiError::Fields(_)
                | ApiError::TooMany(_)
                | ApiError::LinkSent(_)
                // A link that expired or was used says so (a second click: the account is ready).
                | ApiError::NotFound(_)
                // Where a thing stands forbids the request (a run already out): said as it is.
                | ApiError::Conflict(_)
        );
        let message = match fallback {
            Some(text) if !own => text.to_string(),
            _ => e.to_string(),
        };
        Self {
            status: e.status(),
            message,
            errors,
        }
    }
}

/// What a feature's form answers; `web` makes the HTTP answer of it.
pub enum Answer {
    /// Succeeded: `303 See Other` to `to` without JavaScript, `{"location"}` with it.
    Done(Done),
    /// `303 See Other` to `to` whether the page has JavaScript or not (the gates, whose client
    /// writes the same cookies itself).
    SeeOther(Done),
    /// The page again with the messages and what was typed of `Fields` (JSON for a page with
    /// JavaScript).
    Refused(Refused, Fields),
    /// The page again with this form state (`{"values", "errors", "message", ...}`).
    Page { status: StatusCode, form: Value },
    /// A failure before any form could be read, as plain text.
    Failed(ApiError),
    /// An answer of the form's own (a file to download, JSON).
    Response(HttpResponse),
    /// The answer, with the session's token the call renewed.
    Renewed(Box<Answer>, Issued),
}

/// A form handler's answer, on its way.
pub type Pending<'a> = Pin<Box<dyn Future<Output = Answer> + 'a>>;

/// A form with a handler of its own (no single API call): the address it posts to, and how it is
/// answered. Declared with [`custom_form!`](crate::custom_form) beside the handler.
pub struct CustomForm {
    pub path: &'static str,
    pub handler: for<'a> fn(&'a HttpRequest, Fields, &'a ApiState) -> Pending<'a>,
}

inventory::collect!(CustomForm);

/// Every form with a handler of its own.
pub fn forms() -> impl Iterator<Item = &'static CustomForm> {
    inventory::iter::<CustomForm>.into_iter()
}

/// A form that sends files (`multipart/form-data`) to its page's address, with a handler that
/// reads the body within its own limits ([`upload::receive`]) once the origin rule and the
/// maintenance switch passed. Declared with [`file_form!`](crate::file_form) beside the handler.
pub struct FileForm {
    pub path: &'static str,
    pub handler: for<'a> fn(&'a HttpRequest, web::Payload, &'a ApiState) -> Pending<'a>,
}

inventory::collect!(FileForm);

/// Every form that sends files.
pub fn file_forms() -> impl Iterator<Item = &'static FileForm> {
    inventory::iter::<FileForm>.into_iter()
}

/// Declares a file form with its own async handler `fn(&HttpRequest, web::Payload, &ApiState)`
/// answering an [`Answer`].
#[macro_export]
macro_rules! file_form {
    ($path:expr, $handler:path) => {
        const _: () = {
            fn handler<'a>(
                req: &'a actix_web::HttpRequest,
                payload: actix_web::web::Payload,
                state: &'a $crate::ApiState,
            ) -> $crate::form::Pending<'a> {
                Box::pin($handler(req, payload, state))
            }
            inventory::submit! {
                $crate::form::FileForm { path: $path, handler }
            }
        };
    };
}

/// Declares a form with its own async handler `fn(&HttpRequest, Fields, &ApiState)` answering
/// an [`Answer`].
#[macro_export]
macro_rules! custom_form {
    ($path:expr, $handler:path) => {
        const _: () = {
            fn handler<'a>(
                req: &'a actix_web::HttpRequest,
                fields: $crate::form::Fields,
                state: &'a $crate::ApiState,
            ) -> $crate::form::Pending<'a> {
                Box::pin($handler(req, fields, state))
            }
            inventory::submit! {
                $crate::form::CustomForm { path: $path, handler }
            }
        };
    };
}

/// Whether a form carries the CSRF token of the shopper's session it was sent with (the
/// caller's, read once from the request).
pub fn csrf_holds(caller: &Caller, fields: &Fields) -> bool {
    csrf_holds_in(caller, None, fields)
}

/// Whether a form carries the CSRF token of the session its call rides: the feature's own
/// session cookie (`credential`, the staff's) when the request brings it, else the shopper's.
/// A staff form is bound to the staff session: a planted or known shopper cookie posts none.
pub fn csrf_holds_in(caller: &Caller, credential: Option<&str>, fields: &Fields) -> bool {
    let token = credential
        .and_then(|cookie| caller.cookies.iter().find(|(n, _)| n == cookie))
        .map(|(_, t)| t.as_str())
        .filter(|t| !t.is_empty())
        .or(caller.token.as_deref());
    let expected = token.map(crate::session::csrf_token);
    matches!((fields.get("csrf"), expected), (Some(sent), Some(expected)) if same(sent, &expected))
}

/// Compares in time that does not depend on where the strings differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Whether the page posted with JavaScript and reads the answer as JSON.
pub fn wants_json(req: &HttpRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// Where to go back to: a path of this site, without its query. Anything else (another site,
/// `//host`, a backslash, a control character or space that a browser might drop) goes home.
pub fn return_path(fields: &Fields) -> String {
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

/// What JavaScript's `encodeURIComponent` leaves alone.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// Percent-encodes like JavaScript's `encodeURIComponent` (the cookies the client also writes,
/// the pages' query keys).
pub fn encode_component(s: &str) -> String {
    utf8_percent_encode(s, COMPONENT).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
        assert!(!same("", "a"));
    }

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
