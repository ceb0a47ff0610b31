//! Page forms, declared once. A form posts its fields as they are to an address of the store (its
//! page, or `/gate/...`); a form that runs an API call names it in a hidden `_call` field and its
//! fields parse into that call's own path and body types ([`api::endpoint::Body::from_fields`]),
//! so the rules, the field errors and the answer are the JSON API's. Every form passes the same
//! origin rule; an API form also carries its session's CSRF token.
//!
//! Without JavaScript the answer is `303 See Other` on success, or the page rendered again with
//! each field's messages and what was typed (never a password). With JavaScript the page posts
//! the same fields with `Accept: application/json` and gets `{"location"}` on success, or the
//! form's state (`{"values", "errors", "message"}`) with the failure's status.
//!
//! Declaring one: `api_form!(Login at "/login" => |fields, answer| Done::to("/buy-beer"))` in the
//! feature's module (see `accounts.rs`); [`configure`](crate::configure) mounts every declared
//! address, so nothing else lists forms.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use actix_web::cookie::Cookie;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use api::session::Issued;
use api::{ApiError, Caller, Endpoint};
use serde_json::{json, Map, Value};

use crate::fields::Fields;
use crate::page::{serve, Posted};
use crate::WebState;

/// The largest form the store takes.
pub const FORM_LIMIT: usize = 8 * 1024;

/// What a form with a stale or missing CSRF token is told.
pub const EXPIRED: &str = "This form has expired. Please try again.";

/// The hidden field that names a form's API call (its contract name).
pub const CALL_FIELD: &str = "_call";

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

/// A boxed answer of a form handler.
pub type Answer<'a> = Pin<Box<dyn Future<Output = HttpResponse> + 'a>>;

/// One declared form: the address it posts to, the call it names, and how it is answered.
pub trait FormPost: Sync {
    /// The address the form posts to.
    fn path(&self) -> &'static str;
    /// The API call it names in `_call`, or `None` for a form that is the only one of its address
    /// and runs no single call (the gates, the newsletter).
    fn call(&self) -> Option<&'static str>;
    fn answer<'a>(
        &'static self,
        req: &'a HttpRequest,
        fields: Fields,
        state: &'a web::Data<WebState>,
    ) -> Answer<'a>;
}

/// One registered form.
pub struct Entry(pub &'static dyn FormPost);

inventory::collect!(Entry);

/// Every declared form.
pub fn forms() -> impl Iterator<Item = &'static dyn FormPost> {
    inventory::iter::<Entry>.into_iter().map(|e| e.0)
}

/// A form that runs the API call `E`.
pub struct ApiForm<E: Endpoint> {
    pub path: &'static str,
    /// Where to go once the call succeeded.
    pub done: fn(&Fields, &E::Answer) -> Done,
    /// What the form says of a failure other than field errors or a rate limit (the call's own
    /// words otherwise).
    pub fallback: Option<&'static str>,
    /// What must hold of the fields before the call runs (a confirmation box).
    pub check: Option<fn(&Fields) -> Result<(), ApiError>>,
    /// The field that carries the registration link's token (the API's `registration-token`
    /// header).
    pub link_token: Option<&'static str>,
    pub endpoint: PhantomData<fn() -> E>,
}

impl<E: Endpoint> ApiForm<E> {
    pub const fn new(path: &'static str, done: fn(&Fields, &E::Answer) -> Done) -> Self {
        Self {
            path,
            done,
            fallback: None,
            check: None,
            link_token: None,
            endpoint: PhantomData,
        }
    }
}

/// Declares a form that runs an API call: `api_form!(Login at "/login" => done_fn);` with
/// optional `, fallback: "...", check: f, link_token: "token"` after it.
#[macro_export]
macro_rules! api_form {
    ($endpoint:ty, $path:literal, $done:expr $(, $field:ident : $value:expr)* $(,)?) => {
        inventory::submit! {
            $crate::form::Entry(&$crate::form::ApiForm::<$endpoint> {
                $($field: Some($value),)*
                ..$crate::form::ApiForm::<$endpoint>::new($path, $done)
            })
        }
    };
}

/// A form with its own handler (no single API call): `custom_form!("/gate/consent", consent);`.
pub struct CustomForm {
    pub path: &'static str,
    pub handler: for<'a> fn(&'a HttpRequest, Fields, &'a web::Data<WebState>) -> Answer<'a>,
}

impl FormPost for CustomForm {
    fn path(&self) -> &'static str {
        self.path
    }

    fn call(&self) -> Option<&'static str> {
        None
    }

    fn answer<'a>(
        &'static self,
        req: &'a HttpRequest,
        fields: Fields,
        state: &'a web::Data<WebState>,
    ) -> Answer<'a> {
        (self.handler)(req, fields, state)
    }
}

/// Declares a form with its own async handler `fn(&HttpRequest, Fields, &web::Data<WebState>)`.
#[macro_export]
macro_rules! custom_form {
    ($path:literal, $handler:path) => {
        const _: () = {
            fn handler<'a>(
                req: &'a actix_web::HttpRequest,
                fields: $crate::fields::Fields,
                state: &'a actix_web::web::Data<$crate::WebState>,
            ) -> $crate::form::Answer<'a> {
                Box::pin($handler(req, fields, state))
            }
            inventory::submit! {
                $crate::form::Entry(&$crate::form::CustomForm { path: $path, handler })
            }
        };
    };
}

impl<E: Endpoint> FormPost for ApiForm<E> {
    fn path(&self) -> &'static str {
        self.path
    }

    fn call(&self) -> Option<&'static str> {
        Some(E::NAME)
    }

    fn answer<'a>(
        &'static self,
        req: &'a HttpRequest,
        fields: Fields,
        state: &'a web::Data<WebState>,
    ) -> Answer<'a> {
        Box::pin(async move {
            if !csrf_holds(req, &fields) {
                let refused = Refused {
                    status: StatusCode::FORBIDDEN,
                    message: EXPIRED.into(),
                    errors: Map::new(),
                };
                return refused.answer(req, state, &fields).await;
            }
            let called = match self.check.map_or(Ok(()), |check| check(&fields)) {
                Ok(()) => self.run(req, &fields, state).await,
                Err(e) => Err(e),
            };
            match called {
                Ok((answer, issued, ended)) => {
                    let done = (self.done)(&fields, &answer);
                    let mut res = success(req, &done);
                    if let Some(issued) = &issued {
                        api::endpoint::send_token(
                            &mut res,
                            issued,
                            state.api.config.secure_cookies,
                        );
                    } else if ended {
                        api::endpoint::end_token(&mut res);
                    }
                    res
                }
                Err(ApiError::Unauthenticated) => success(req, &Done::to("/login")),
                Err(e) => {
                    Refused::of(e, self.fallback)
                        .answer(req, state, &fields)
                        .await
                }
            }
        })
    }
}

impl<E: Endpoint> ApiForm<E> {
    /// Runs `E` with the form's fields as its path and body, as the JSON API would.
    async fn run(
        &self,
        req: &HttpRequest,
        fields: &Fields,
        state: &WebState,
    ) -> Result<(E::Answer, Option<Issued>, bool), ApiError> {
        let path: E::Path = api::endpoint::from_pairs(fields.pairs())?;
        let query: E::Query = api::endpoint::from_query("")?;
        let body = <E::Body as api::endpoint::Body>::from_fields(fields.pairs())?;
        let caller = Caller {
            registration_token: self
                .link_token
                .and_then(|name| fields.get(name))
                .map(str::to_string),
            ..Caller::of_page(req)
        };
        state
            .api
            .run(caller, move |ctx| {
                let answer = api::endpoint::run_call::<E>(ctx, path, query, body)?;
                Ok((answer, ctx.issued.take(), ctx.ended))
            })
            .await
    }
}

/// Whether the page posted with JavaScript and reads the answer as JSON.
fn wants_json(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// `303 See Other` to `done.to` (without JavaScript) or `{"location"}` (with it), with the
/// form's cookies.
fn success(req: &HttpRequest, done: &Done) -> HttpResponse {
    let mut b = if wants_json(req) {
        let mut b = HttpResponse::Ok();
        b.insert_header((header::CACHE_CONTROL, "no-store"));
        b
    } else {
        see_other(&done.to)
    };
    for c in &done.cookies {
        b.cookie(c.clone());
    }
    if wants_json(req) {
        b.json(json!({ "location": done.to }))
    } else {
        b.finish()
    }
}

/// A form that needs correcting: its status, one message, each field's messages.
pub struct Refused {
    pub status: StatusCode,
    pub message: String,
    pub errors: Map<String, Value>,
}

impl Refused {
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
            ApiError::Invalid { .. } | ApiError::Fields(_) | ApiError::TooMany(_)
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

    /// The page again with the messages and what was typed (JSON for a page with JavaScript).
    pub async fn answer(
        self,
        req: &HttpRequest,
        state: &web::Data<WebState>,
        fields: &Fields,
    ) -> HttpResponse {
        let form = json!({
            "values": typed_back(fields),
            "errors": self.errors,
            "message": self.message,
        });
        if wants_json(req) {
            return HttpResponse::build(self.status)
                .insert_header((header::CACHE_CONTROL, "no-store"))
                .json(form);
        }
        serve(
            req,
            state,
            Some(Posted {
                status: self.status,
                form,
            }),
        )
        .await
    }
}

/// What was typed, to fill the form again: every field but passwords, tokens and the form's own
/// hidden fields, without control characters (a NUL or CR has no place in a field, and none
/// reaches the page).
fn typed_back(fields: &Fields) -> Map<String, Value> {
    fields
        .pairs()
        .filter(|(k, _)| {
            !k.contains("password") && !matches!(k.as_ref(), "csrf" | CALL_FIELD | "token" | "suid")
        })
        .map(|(k, v)| {
            let clean: String = v.chars().filter(|c| !c.is_control()).collect();
            (k.into_owned(), json!(clean))
        })
        .collect()
}

/// Whether a form carries the CSRF token of the session it was sent with.
pub fn csrf_holds(req: &HttpRequest, fields: &Fields) -> bool {
    let expected = api::endpoint::cookie_token(req).map(|t| api::session::csrf_token(&t));
    matches!((fields.get("csrf"), expected), (Some(sent), Some(expected)) if same(sent, &expected))
}

/// Compares in time that does not depend on where the strings differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

pub fn see_other(to: &str) -> actix_web::HttpResponseBuilder {
    let mut b = HttpResponse::build(StatusCode::SEE_OTHER);
    // Every address here is built from safe parts; should one not be a valid header, go home.
    let to = header::HeaderValue::from_str(to).unwrap_or(header::HeaderValue::from_static("/"));
    b.insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"));
    b
}

/// A failure before any form could be read, as plain text.
pub fn error_page(e: ApiError) -> HttpResponse {
    if matches!(e, ApiError::Internal(_) | ApiError::Unavailable) {
        log::error!("form: {e:?}");
    }
    HttpResponse::build(e.status())
        .content_type("text/plain; charset=utf-8")
        .body(e.to_string())
}

fn forbidden() -> HttpResponse {
    HttpResponse::Forbidden()
        .content_type("text/plain; charset=utf-8")
        .body("This form must be sent from the store's own pages.")
}

/// `POST` on a form address: another site's post, or a body too slow or too large, is answered
/// at once; then the form its `_call` names (or the address's only form) answers.
pub async fn post(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    if !api::origin::same_origin(&req, &state.api.config.origins) {
        return forbidden();
    }
    let body = match api::endpoint::read_body(payload, FORM_LIMIT).await {
        Ok(b) => b,
        Err(e) => return error_page(e),
    };
    let fields = Fields::parse(&body);
    let path = normal(req.path());
    // The form its `_call` names; an address with one form needs no name.
    let here: Vec<&'static dyn FormPost> = forms().filter(|f| normal(f.path()) == path).collect();
    let form = match fields.get(CALL_FIELD) {
        Some(named) => here.iter().find(|f| f.call().is_none_or(|c| c == named)),
        None if here.len() == 1 => here.first(),
        None => None,
    };
    match form {
        Some(form) => form.answer(&req, fields, &state).await,
        None => {
            let refused = Refused {
                status: StatusCode::BAD_REQUEST,
                message: "This form cannot be sent here.".into(),
                errors: Map::new(),
            };
            refused.answer(&req, &state, &fields).await
        }
    }
}

/// A path without its trailing slash (`/login/` posts as `/login`).
fn normal(path: &str) -> &str {
    match path.trim_end_matches('/') {
        "" => "/",
        p => p,
    }
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
    fn passwords_and_tokens_are_never_typed_back() {
        let f = Fields::parse(
            b"login=ana&password=x&current_password=y&csrf=t&_call=login&token=k&suid=s&note=a%00b",
        );
        let back = typed_back(&f);
        let names: Vec<&str> = back.keys().map(String::as_str).collect();
        assert_eq!(names, ["login", "note"]);
        assert_eq!(back["note"], "ab");
    }

    #[test]
    fn every_form_address_and_call_is_declared_once() {
        let mut seen: Vec<(&str, Option<&str>)> = forms().map(|f| (f.path(), f.call())).collect();
        let all = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), all, "a form is declared twice");
        for (path, call) in &seen {
            if call.is_none() {
                assert_eq!(
                    seen.iter().filter(|(p, _)| p == path).count(),
                    1,
                    "{path}: a form without a call must be its address's only one"
                );
            }
            if let Some(call) = call {
                assert!(
                    api::registry::endpoints().iter().any(|e| e.name() == *call),
                    "{path}: {call} is no API call"
                );
            }
        }
    }
}
