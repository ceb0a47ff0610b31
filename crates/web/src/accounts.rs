//! The account forms without JavaScript (issue 8): login, logout, registration, password reset
//! and change, profile, addresses and account deletion. Each posts to its own page, runs the same
//! API call the client sends as JSON, and answers `303 See Other` on success; a form that needs
//! correcting comes back rendered with its messages and what was entered (never a password).
//! Besides the Origin check every form carries its session's CSRF token.

use std::borrow::Cow;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use api::accounts::{Login, Logout, PreRegister, Registration};
use api::addresses::{CreateAddress, DeleteAddress, UpdateAddress};
use api::profile::{ChangePassword, DeleteUser, ResetLink, ResetPassword, UpdateUser};
use api::session::Issued;
use api::{ApiError, Endpoint};
use serde_json::{json, Map, Value};

use crate::fields::Fields;
use crate::page::{serve, Posted};
use crate::WebState;

/// What a call left besides its answer: a token to send, or the session ended.
struct Called<A> {
    answer: A,
    issued: Option<Issued>,
    ended: bool,
}

/// Runs the API call `E` as the JSON API would, with the request's session and client.
async fn call<E: Endpoint>(
    req: &HttpRequest,
    state: &WebState,
    path: &[(&str, &str)],
    body: Value,
    registration_token: Option<String>,
) -> Result<Called<E::Answer>, ApiError> {
    let path: E::Path = api::endpoint::from_pairs(
        path.iter()
            .map(|(k, v)| (Cow::Owned(k.to_string()), Cow::Owned(v.to_string()))),
    )?;
    let query: E::Query = api::endpoint::from_query("")?;
    let body = <E::Body as api::endpoint::Body>::parse(body.to_string().as_bytes())?;
    let caller = api::Caller {
        registration_token,
        ..api::Caller::of_page(req)
    };
    state
        .api
        .run(caller, move |ctx| {
            let answer = api::endpoint::run_call::<E>(ctx, path, query, body)?;
            Ok(Called {
                answer,
                issued: ctx.issued.take(),
                ended: ctx.ended,
            })
        })
        .await
}

/// The session token the browser's cookie carries (pages and forms read only the cookie).
pub(crate) fn session_token(req: &HttpRequest) -> Option<String> {
    api::endpoint::cookie_token(req)
}

/// `303 See Other` to `to`, with the session's new token or its end.
fn done<A>(state: &WebState, to: &str, called: &Called<A>) -> HttpResponse {
    let mut res = crate::forms::see_other(to).finish();
    if let Some(issued) = &called.issued {
        api::endpoint::send_token(&mut res, issued, state.api.config.secure_cookies);
    } else if called.ended {
        api::endpoint::end_token(&mut res);
    }
    res
}

/// Compares in time that does not depend on where the strings differ.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

pub const EXPIRED: &str = "This form has expired. Please try again.";

/// The fields of an account form from the store's own page with its session's CSRF token; a
/// form from elsewhere is refused, one with a missing or old token comes back to be sent again.
async fn accept(
    req: &HttpRequest,
    payload: web::Payload,
    state: &web::Data<WebState>,
) -> Result<Fields, HttpResponse> {
    let fields = crate::forms::accept(req, payload, state).await?.0;
    if csrf_holds(req, &fields) {
        Ok(fields)
    } else {
        Err(serve(
            req,
            state,
            Some(Posted {
                status: StatusCode::FORBIDDEN,
                form: json!({ "values": {}, "errors": {}, "message": EXPIRED }),
            }),
        )
        .await)
    }
}

/// Whether a form carries the CSRF token of the session it was sent with.
pub(crate) fn csrf_holds(req: &HttpRequest, fields: &Fields) -> bool {
    let expected = session_token(req).map(|t| api::session::csrf_token(&t));
    matches!((fields.get("csrf"), expected), (Some(sent), Some(expected)) if same(sent, &expected))
}

/// The form again, with the call's messages and the entered `keep` fields.
async fn again(
    req: &HttpRequest,
    state: &web::Data<WebState>,
    fields: &Fields,
    keep: &[&str],
    e: ApiError,
    fallback: Option<&str>,
) -> HttpResponse {
    if matches!(e, ApiError::Unauthenticated) {
        return crate::forms::see_other("/login").finish();
    }
    if matches!(e, ApiError::Internal(_)) {
        log::error!("{} form: {e}", req.path());
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
    let message = match (&e, fallback) {
        (ApiError::Invalid { .. } | ApiError::Fields(_) | ApiError::TooMany(_), _) | (_, None) => {
            e.to_string()
        }
        (_, Some(text)) => text.to_string(),
    };
    // What was typed goes back into the form, without control characters (a NUL or CR has no
    // place in a field, and none reaches the page).
    let values: Map<String, Value> = keep
        .iter()
        .filter_map(|k| {
            let clean: String = fields.get(k)?.chars().filter(|c| !c.is_control()).collect();
            Some(((*k).to_string(), json!(clean)))
        })
        .collect();
    serve(
        req,
        state,
        Some(Posted {
            status: e.status(),
            form: json!({ "values": values, "errors": errors, "message": message }),
        }),
    )
    .await
}

fn text(fields: &Fields, name: &str) -> Value {
    json!(fields.get(name).unwrap_or(""))
}

/// An id field as JSON: a number when it is one, else the text (the call names it as invalid).
fn id(fields: &Fields, name: &str) -> Value {
    match fields.get(name) {
        Some(v) => v
            .trim()
            .parse::<i64>()
            .map_or_else(|_| json!(v), |n| json!(n)),
        None => Value::Null,
    }
}

macro_rules! accepted {
    ($req:expr, $payload:expr, $state:expr) => {
        match accept(&$req, $payload, &$state).await {
            Ok(f) => f,
            Err(refused) => return refused,
        }
    };
}

/// `POST /login`: to /checkout when login began there, else /buy-beer (SPEC 6).
pub async fn login(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    let body = json!({ "login": text(&f, "login"), "password": text(&f, "password") });
    match call::<Login>(&req, &state, &[], body, None).await {
        Ok(c) => {
            let to = if f.get("from") == Some("checkout") {
                "/checkout"
            } else {
                "/buy-beer"
            };
            done(&state, to, &c)
        }
        Err(e) => again(&req, &state, &f, &["login", "from"], e, None).await,
    }
}

/// `POST /logout`: ends the session and goes to /login.
pub async fn logout(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let _ = accepted!(req, payload, state);
    match call::<Logout>(&req, &state, &[], Value::Null, None).await {
        Ok(c) => done(&state, "/login?done=logout", &c),
        Err(e) => crate::forms::error_page(e),
    }
}

const REGISTRATION_FAILED: &str = "Something went wrong creating your account. Please try again.";

/// `POST /registration`: the form mails a link; the link's page (with `token`) creates the
/// account and goes on to the first address.
pub async fn registration(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    if let Some(token) = f.get("token") {
        return match call::<Registration>(&req, &state, &[], json!({}), Some(token.into())).await {
            Ok(c) => done(&state, "/setup-address?done=welcome", &c),
            Err(e) => again(&req, &state, &f, &[], e, Some(REGISTRATION_FAILED)).await,
        };
    }
    let keep = ["first_name", "last_name", "email", "mobile", "birth_date"];
    let mut body: Map<String, Value> = keep.iter().map(|k| ((*k).into(), text(&f, k))).collect();
    body.insert("password".into(), text(&f, "password"));
    body.insert(
        "accept_terms".into(),
        json!(f.get("accept_terms").is_some()),
    );
    match call::<PreRegister>(&req, &state, &[], Value::Object(body), None).await {
        Ok(c) => done(&state, "/registration?done=sent", &c),
        Err(e) => again(&req, &state, &f, &keep, e, Some(REGISTRATION_FAILED)).await,
    }
}

/// `POST /reset-password`: without a link, mails one; with its `suid`, sets the new password.
pub async fn reset_password(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    if f.get("suid").is_some() {
        let body = json!({ "suid": text(&f, "suid"), "password": text(&f, "password") });
        return match call::<ResetPassword>(&req, &state, &[], body, None).await {
            Ok(c) => done(&state, "/login?done=reset", &c),
            Err(e) => again(&req, &state, &f, &["suid"], e, None).await,
        };
    }
    match call::<ResetLink>(
        &req,
        &state,
        &[],
        json!({ "email": text(&f, "email") }),
        None,
    )
    .await
    {
        Ok(c) => done(&state, "/reset-password?done=sent", &c),
        Err(e) => again(&req, &state, &f, &["email"], e, None).await,
    }
}

/// `POST /change-password`: the current password and the new one; this session goes on.
pub async fn change_password(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    let body = json!({
        "current_password": text(&f, "current_password"),
        "password": text(&f, "password"),
    });
    match call::<ChangePassword>(&req, &state, &[], body, None).await {
        Ok(c) => done(&state, "/my-account?done=password", &c),
        Err(e) => again(&req, &state, &f, &[], e, None).await,
    }
}

/// `POST /my-account`: the profile.
pub async fn profile(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    let keep = ["first_name", "last_name", "mobile", "birth_date"];
    let body: Map<String, Value> = keep.iter().map(|k| ((*k).into(), text(&f, k))).collect();
    match call::<UpdateUser>(&req, &state, &[], Value::Object(body), None).await {
        Ok(c) => done(&state, "/my-account?done=profile", &c),
        Err(e) => again(&req, &state, &f, &keep, e, None).await,
    }
}

/// `POST /my-account/addresses` and `POST /setup-address`: `action` create (the default),
/// update or delete (with `id`).
pub async fn addresses(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    let keep = ["action", "id", "address", "barangay_id", "street_id"];
    let body = json!({
        "address": text(&f, "address"),
        "barangay_id": id(&f, "barangay_id"),
        "street_id": id(&f, "street_id"),
    });
    let address_id = f.get("id").unwrap_or("").to_string();
    let path = [("addressId", address_id.as_str())];
    let listed = |what: &str| format!("/my-account/addresses?done={what}");
    let first = req.path().trim_end_matches('/') == "/setup-address";
    let answered = match f.get("action") {
        Some("delete") => call::<DeleteAddress>(&req, &state, &path, Value::Null, None)
            .await
            .map(|c| done(&state, &listed("deleted"), &c)),
        Some("update") => call::<UpdateAddress>(&req, &state, &path, body, None)
            .await
            .map(|c| done(&state, &listed("saved"), &c)),
        _ => call::<CreateAddress>(&req, &state, &[], body, None)
            .await
            .map(|c| {
                if !first {
                    return done(&state, &listed("added"), &c);
                }
                // The first address becomes the location the shop is shown for, as the
                // client's USE THIS ADDRESS does.
                let mut res = done(&state, "/buy-beer", &c);
                let a = &c.answer;
                for cookie in crate::gate::location_cookies(&crate::gate::Location {
                    fulfillment: domain::DEFAULT_FULFILLMENT,
                    city: a.city_id,
                    city_name: &a.city_name,
                    barangay: a.barangay_id,
                    barangay_name: &a.barangay_name,
                    street: a.street_id,
                }) {
                    let _ = res.add_cookie(&cookie);
                }
                res
            }),
    };
    match answered {
        Ok(res) => res,
        Err(e) => again(&req, &state, &f, &keep, e, None).await,
    }
}

/// `POST /newsletter/confirm`: the emailed link's confirmation, without JavaScript.
pub async fn confirm_newsletter(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    let body = json!({ "token": text(&f, "token") });
    match call::<api::content::ConfirmSubscription>(&req, &state, &[], body, None).await {
        Ok(c) => done(&state, "/newsletter/confirm?done=confirmed", &c),
        Err(e) => again(&req, &state, &f, &[], e, None).await,
    }
}

/// `POST /my-account/delete-account`: deletes the account; home says so (SPEC 2).
pub async fn delete_account(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let f = accepted!(req, payload, state);
    if f.get("confirm").is_none() {
        let e = ApiError::Invalid {
            field: "confirm",
            message: "Tick the box to confirm that you want to delete your account.".into(),
        };
        return again(&req, &state, &f, &[], e, None).await;
    }
    match call::<DeleteUser>(&req, &state, &[], Value::Null, None).await {
        Ok(c) => done(&state, "/?accountSuccessDelete=yes", &c),
        Err(e) => again(&req, &state, &f, &[], e, None).await,
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
}
