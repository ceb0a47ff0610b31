//! A call as actix serves it: the request read once into the call's arguments and its
//! [`Caller`], the call run with one connection, and its answer with the session's and the
//! features' cookies; the answer cache for public reads; the session cookie's helpers.

use std::borrow::Cow;

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};

use crate::error::ApiError;
use crate::ApiState;

use crate::endpoint::*;

impl Caller {
    /// An API request: the token from `Authorization: Bearer` or the cookie.
    pub fn of_api(req: &HttpRequest) -> Self {
        let bearer = crate::origin::bearer(req).is_some();
        Self {
            client: crate::origin::client_ip(req),
            token: presented_token(req),
            cookies: cookies_of(req),
            prepared: http::Extensions::new(),
            bearer,
        }
    }

    /// A page or a form post: browsers present the session by its cookie only.
    pub fn of_page(req: &HttpRequest) -> Self {
        Self {
            client: crate::origin::client_ip(req),
            token: cookie_token(req),
            cookies: cookies_of(req),
            ..Self::default()
        }
    }
}

pub use crate::endpoint::BODY_LIMIT;
/// How long a request body may take to arrive.
pub const BODY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads a request body within [`BODY_LIMIT`] bytes and [`BODY_DEADLINE`]; a slow, huge or
/// undecodable body is answered in the store's own words (408, 413, 400).
pub async fn read_body(payload: web::Payload, limit: usize) -> Result<web::Bytes, ApiError> {
    read_body_within(payload, limit, BODY_DEADLINE).await
}

/// [`read_body`] with its own deadline, for any stream of chunks.
pub async fn read_body_within<S, E>(
    mut payload: S,
    limit: usize,
    deadline: std::time::Duration,
) -> Result<web::Bytes, ApiError>
where
    S: futures_util::Stream<Item = Result<web::Bytes, E>> + Unpin,
{
    use futures_util::StreamExt;
    let read = async move {
        let mut body = web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk
                .map_err(|_| ApiError::BadRequest("The request body could not be read.".into()))?;
            if body.len() + chunk.len() > limit {
                return Err(ApiError::TooLarge(limit));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body.freeze())
    };
    tokio::time::timeout(deadline, read)
        .await
        .map_err(|_| ApiError::Timeout)?
}

/// What an answer that depends on the session says to caches: keep it nowhere.
pub const PRIVATE: [(header::HeaderName, &str); 2] = [
    (header::CACHE_CONTROL, "private, no-store"),
    (header::VARY, "Cookie, Authorization"),
];

/// Marks an answer as depending on the session ([`PRIVATE`]).
pub fn mark_private(headers: &mut header::HeaderMap) {
    for (name, value) in PRIVATE {
        headers.insert(name, header::HeaderValue::from_static(value));
    }
}

/// Answers a call; every answer of a call that is not [`Access::Public`] (errors too) is marked
/// private.
pub(crate) async fn respond<E: Endpoint>(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<ApiState>,
) -> HttpResponse {
    let mut res = match handle::<E>(req, payload, state).await {
        Ok(res) => res,
        Err(e) => actix_web::ResponseError::error_response(&e),
    };
    if E::ACCESS != Access::Public {
        mark_private(res.headers_mut());
    }
    res
}

/// Unsafe calls take JSON bodies only: no HTML form can send one (its types are
/// urlencoded, multipart and text/plain), so no other site's form reaches a call. A call without
/// a body may send no type.
fn json_only(req: &HttpRequest, body: &[u8]) -> Result<(), ApiError> {
    use actix_web::HttpMessage;
    let json = match req.mime_type() {
        Ok(Some(m)) => {
            m.type_() == "application"
                && (m.subtype() == "json" || m.suffix().is_some_and(|s| s == "json"))
        }
        Ok(None) => body.is_empty(),
        Err(_) => false,
    };
    if json {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType)
    }
}

async fn handle<E: Endpoint>(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<ApiState>,
) -> Result<HttpResponse, ApiError> {
    if let Some(rules) = E::Body::file() {
        return handle_file::<E>(req, payload, &state, rules).await;
    }
    let body = read_body(payload, E::MOST_BODY).await?;
    if E::METHOD != Method::Get {
        json_only(&req, &body)?;
    }
    // Only a public read's answer is kept, as bytes, by everything that shapes it.
    let key = (E::ACCESS == Access::Public).then(|| {
        let today = domain::calendar::iso_date(domain::calendar::manila_now().date());
        crate::cache::key(&[
            E::NAME.as_bytes(),
            E::METHOD.as_str().as_bytes(),
            req.path().as_bytes(),
            req.query_string().as_bytes(),
            &body,
            &state.watch.data_version().to_le_bytes(),
            today.as_bytes(),
        ])
    });
    if let Some(hit) = key.and_then(|k| state.cache.get::<crate::cache::Cached>(k)) {
        return Ok(hit.respond(&req));
    }
    let args = arguments::<E>(&req, &body)?;
    let mut caller = Caller::of_api(&req);
    if E::ACCESS == Access::Public {
        // A shared answer is made without the session.
        caller.token = None;
    }
    if let Some(work) = E::prepare(&req, &state.config) {
        caller.prepared = web::block(work)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))??;
    }
    let mut done = answer_call::<E>(&state, caller.clone(), args).await;
    if E::METHOD == Method::Get && matches!(done, Err(ApiError::DatabaseDown(db::Outage::Lost))) {
        // A read that met a dropped connection is run once more on a fresh one (as
        // `ApiState::read` does for pages).
        done = answer_call::<E>(&state, caller.clone(), arguments::<E>(&req, &body)?).await;
    }
    let (answer, issued, ended, cookies) = done?;
    let answer = match E::THEN {
        Some(then) => then(&state, caller, answer).await?,
        None => answer,
    };
    let json = serde_json::to_vec(&answer).map_err(|e| ApiError::Internal(e.to_string()))?;
    let status = StatusCode::from_u16(E::status(&answer)).unwrap_or(StatusCode::OK);
    let answer = crate::cache::Cached::new(
        status,
        vec![(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        )],
        json.into(),
    );
    // An answer no one else is given (a session's own) is compressed for speed.
    let answer = std::sync::Arc::new(if key.is_some() {
        answer
    } else {
        answer.answered_once()
    });
    if let Some(k) = key {
        state.cache.insert(k, answer.clone());
    }
    let mut res = answer.respond(&req);
    if let Some(issued) = issued {
        send_token(&mut res, &issued, state.config.secure_cookies);
    } else if ended {
        end_token(&mut res);
    }
    for cookie in cookies {
        let _ = res.add_cookie(&cookie);
    }
    Ok(res)
}

/// A file call ([`crate::endpoint::File`]): its path, query and headers read first, then
/// whether the caller may send it and what its path names ([`Endpoint::admit`]), before a byte
/// of its body is read; then its file, within the part's limits ([`crate::form::upload::read_file`]);
/// then the call ([`Endpoint::RECEIVE`], else [`Endpoint::call`]). Never kept: a file call
/// changes something.
async fn handle_file<E: Endpoint>(
    req: HttpRequest,
    payload: web::Payload,
    state: &ApiState,
    rules: crate::endpoint::FileRules,
) -> Result<HttpResponse, ApiError> {
    let (path, query) = path_and_query::<E>(&req)?;
    let headers: E::Headers = from_pairs(header_pairs(&req))?;
    let caller = Caller::of_api(&req);
    let path = state
        .run(caller.clone(), move |ctx| {
            E::admit(ctx, &path).map(|()| path)
        })
        .await?;
    let file = crate::form::upload::read_file(&req, payload, &rules).await?;
    let args = (path, query, E::Body::of_file(file)?, headers);
    let (answer, cookies) = match E::RECEIVE {
        Some(receive) => (receive(state, caller, args).await?, Vec::new()),
        None => {
            let (answer, _, _, cookies) = answer_call::<E>(state, caller, args).await?;
            (answer, cookies)
        }
    };
    let json = serde_json::to_vec(&answer).map_err(|e| ApiError::Internal(e.to_string()))?;
    let status = StatusCode::from_u16(E::status(&answer)).unwrap_or(StatusCode::OK);
    let answer = crate::cache::Cached::new(
        status,
        vec![(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        )],
        json.into(),
    )
    .answered_once();
    let mut res = answer.respond(&req);
    for cookie in cookies {
        let _ = res.add_cookie(&cookie);
    }
    Ok(res)
}

/// A call's path and query, read from its request (a query that names a parameter twice or
/// gives it empty refused: [`query_fault`]).
fn path_and_query<E: Endpoint>(req: &HttpRequest) -> Result<(E::Path, E::Query), ApiError> {
    let path: E::Path = from_pairs(
        req.match_info()
            .iter()
            .map(|(k, v)| (Cow::Borrowed(k), Cow::Borrowed(v))),
    )?;
    if let Some(fault) = query_fault(req.query_string()) {
        return Err(ApiError::BadRequest(fault));
    }
    let query: E::Query = from_query_strict(req.query_string())?;
    Ok((path, query))
}

/// A call's arguments, read from its request and body.
fn arguments<E: Endpoint>(req: &HttpRequest, body: &[u8]) -> Result<Args<E>, ApiError> {
    let (path, query) = path_and_query::<E>(req)?;
    let body = E::Body::parse(body)?;
    let headers: E::Headers = from_pairs(header_pairs(req))?;
    Ok((path, query, body, headers))
}

/// What a call answers, with the session and cart it issued or ended.
type Done<E> = (
    <E as Declared>::Answer,
    Option<crate::endpoint::Issued>,
    bool,
    Vec<actix_web::cookie::Cookie<'static>>,
);

/// Runs a call with one connection.
async fn answer_call<E: Endpoint>(
    state: &ApiState,
    caller: Caller,
    args: Args<E>,
) -> Result<Done<E>, ApiError> {
    state
        .run(caller, move |ctx| {
            let answer = run_call::<E>(ctx, args)?;
            Ok((answer, ctx.issued.take(), ctx.ended, ctx.take_cookies()))
        })
        .await
}

/// A request's headers as name-value pairs (values that are not text are left out).
fn header_pairs(req: &HttpRequest) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    req.headers().iter().filter_map(|(k, v)| {
        let v = v.to_str().ok()?;
        Some((Cow::Borrowed(k.as_str()), Cow::Borrowed(v)))
    })
}

/// The session token of the cookie (what pages and forms read).
pub fn cookie_token(req: &HttpRequest) -> Option<String> {
    req.cookie(crate::session::COOKIE)
        .map(|c| c.value().to_string())
        .filter(|t| !t.is_empty())
}

/// The session token a request presents: `Authorization: Bearer` (the scheme in any case)
/// first, else the cookie.
pub fn presented_token(req: &HttpRequest) -> Option<String> {
    crate::origin::bearer(req)
        .map(str::to_string)
        .or_else(|| cookie_token(req))
}

/// Clears the session cookie and the member hint (logout).
pub fn end_token(res: &mut HttpResponse) {
    for name in [crate::session::COOKIE, crate::session::MEMBER_COOKIE] {
        let mut cookie = actix_web::cookie::Cookie::new(name, "");
        cookie.set_path("/");
        cookie.set_http_only(true);
        cookie.make_removal();
        let _ = res.add_cookie(&cookie);
    }
}

/// Sends a new or extended token: the `access-token` header for API clients, an HttpOnly,
/// SameSite=Lax cookie (Secure on https) for browsers, and beside it the member hint
/// ([`crate::session::MEMBER_COOKIE`]) that lets guests' pages come from the shared cache.
pub fn send_token(res: &mut HttpResponse, issued: &crate::endpoint::Issued, secure: bool) {
    if let Ok(v) = header::HeaderValue::from_str(&issued.token) {
        res.headers_mut()
            .insert(header::HeaderName::from_static(crate::session::HEADER), v);
    }
    let value = |v: &str| {
        let mut cookie = actix_web::cookie::Cookie::new(crate::session::COOKIE, v.to_string());
        cookie.set_path("/");
        cookie.set_http_only(true);
        cookie.set_secure(secure);
        cookie.set_same_site(actix_web::cookie::SameSite::Lax);
        cookie.set_max_age(actix_web::cookie::time::Duration::seconds(
            crate::session::TTL_SECS,
        ));
        cookie
    };
    let _ = res.add_cookie(&value(&issued.token));
    let mut hint = value("1");
    hint.set_name(crate::session::MEMBER_COOKIE);
    if !issued.member {
        hint.make_removal();
    }
    let _ = res.add_cookie(&hint);
}

/// 405 for a known address with another method, naming the methods it takes (`Allow`): the
/// API's JSON error under `/api`, plain text for pages and files.
pub fn method_not_allowed(req: &HttpRequest, allowed: &str) -> HttpResponse {
    let mut res = if req.path().starts_with("/api/") {
        actix_web::ResponseError::error_response(&ApiError::MethodNotAllowed(format!(
            "{} is not allowed on {}",
            req.method(),
            req.path()
        )))
    } else {
        HttpResponse::MethodNotAllowed()
            .content_type("text/plain; charset=utf-8")
            .body("This address does not take that method.")
    };
    if let Ok(v) = header::HeaderValue::from_str(allowed) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::{stream, StreamExt};

    type Chunk = Result<web::Bytes, std::io::Error>;

    #[actix_web::test]
    async fn a_body_that_never_ends_is_timed_out() {
        let first = stream::iter(vec![Ok::<_, std::io::Error>(web::Bytes::from_static(b"{"))]);
        let slow = first.chain(stream::pending::<Chunk>());
        let err = read_body_within(Box::pin(slow), 1024, std::time::Duration::from_millis(50))
            .await
            .unwrap_err();
        assert!(matches!(err, ApiError::Timeout), "{err:?}");
        assert_eq!(err.status(), StatusCode::REQUEST_TIMEOUT);
    }

    #[actix_web::test]
    async fn a_body_past_the_limit_is_refused() {
        let big = stream::iter(
            (0..10).map(|_| Ok::<_, std::io::Error>(web::Bytes::from(vec![b'x'; 1000]))),
        );
        let err = read_body_within(big, 4096, BODY_DEADLINE)
            .await
            .unwrap_err();
        assert!(matches!(err, ApiError::TooLarge(4096)), "{err:?}");
        assert_eq!(err.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let ok = stream::iter(vec![Ok::<_, std::io::Error>(web::Bytes::from_static(
            b"{}",
        ))]);
        assert_eq!(
            &read_body_within(ok, 4096, BODY_DEADLINE).await.unwrap()[..],
            b"{}"
        );
    }
}
