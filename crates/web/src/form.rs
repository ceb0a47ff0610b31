//! Page forms. A form posts its fields as they are to an address of the store. A form that runs
//! an API call is declared with its page in `ui/src/routes.ts` (`action(calls.login, '/buy-beer')`)
//! and names the call in a hidden `_call` field; its fields parse into that call's own path and
//! body types ([`framework::endpoint::Body::from_fields`]), so the rules, the field errors and the answer
//! are the JSON API's. Forms that only write cookies (the gates, the newsletter's message) and
//! forms that send files have a handler of their own in their feature
//! ([`framework::custom_form!`], [`framework::file_form!`]), found here by their address; their
//! [`Answer`] is made an HTTP answer here ([`answer`]). Every form passes the same origin rule; a
//! page's API form also carries its session's CSRF token.
//!
//! Without JavaScript the answer is `303 See Other` on success, or the page rendered again with
//! each field's messages and what was typed (never a password). With JavaScript the page posts
//! the same fields with `Accept: application/json` and gets `{"location"}` on success, or the
//! form's state (`{"values", "errors", "message"}`) with the failure's status.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use framework::form::{
    csrf_holds_in, file_forms, forms, wants_json, Answer, Done, Fields, Refused, EXPIRED,
};
use framework::{ApiError, Caller};
use serde_json::{json, Map, Value};

use api::gate::cookies;

use crate::keys::Vars;
use crate::page::{redirect, serve, Posted};
use crate::respond::{error_page, see_other};
use crate::routes::Action;
use crate::WebState;

/// The largest form the store takes: a product's description (5,000 characters, each up to 9
/// bytes percent-encoded, of 4-byte letters) and the catalog's ticked boxes fit.
pub const FORM_LIMIT: usize = 64 * 1024;

/// The hidden field that names a form's API call (its contract name).
pub const CALL_FIELD: &str = "_call";

/// Whether the body is `multipart/form-data` (a form that sends files).
fn is_multipart(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("multipart/form-data"))
        })
}

/// Runs a page's action: the CSRF token, the required fields, the call with the fields as its
/// path and body, then where to go.
async fn act(
    req: &HttpRequest,
    action: &Action,
    fields: Fields,
    state: &web::Data<WebState>,
) -> HttpResponse {
    // A cart form of a visitor who has no session yet (a shared page's first form) needs no
    // token: there is no session to ride, and the origin rule has already been applied.
    let Some(endpoint) = framework::registry::by_name(&action.call) else {
        // RouteTable::index checked every action's call at start.
        return error_page(ApiError::Internal(format!("no call {}", action.call)));
    };
    let caller = Caller::of_page(req);
    let fresh = action.starts_session && caller.token.is_none();
    // The token of the session the call rides (a staff call's, the staff session's).
    let credential = endpoint.credential().map(|(cookie, _)| cookie);
    // The page the form posts to: its own `{name}`s (an order's page's `orderId`) fill its next
    // address too, and a session that has ended is sent to its sign-in (the staff's, on theirs).
    let page = crate::routes::normal(req.path());
    let (route, page_vars) = state.routes.find(&page);
    if !fresh && !csrf_holds_in(&caller, credential, &fields) {
        // A form of a session that has ended (its cookie gone: signed out in another tab) goes
        // to sign in again; nothing ran, so there is nothing to forge.
        let ended = credential.is_some_and(|c| req.cookie(c).is_none_or(|c| c.value().is_empty()));
        if let (true, Some(sign_in)) = (ended, route.sign_in.as_deref()) {
            return success(req, &Done::to(sign_in));
        }
        let refused = Refused {
            status: StatusCode::FORBIDDEN,
            message: EXPIRED.into(),
            errors: Map::new(),
        };
        return refused_page(req, state, refused, &fields).await;
    }
    if let Some((field, message)) = action
        .required
        .iter()
        .find(|(field, _)| fields.get(field).is_none())
    {
        let mut errors = Map::new();
        errors.insert(field.clone(), json!([message]));
        let refused = Refused {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.clone(),
            errors,
        };
        return refused_page(req, state, refused, &fields).await;
    }
    // The link's token, from its field, as the header the call reads.
    let headers: Vec<(String, String)> = action
        .link_token
        .as_deref()
        .and_then(|name| fields.get(name))
        .map(|t| ("registration-token".to_string(), t.to_string()))
        .into_iter()
        .collect();
    let pairs = joined(&fields, &action.lists);
    let called = endpoint
        .form(&state.api, caller, pairs, headers, action.starts_session)
        .await;
    match called {
        Ok(framework::registry::FormDone {
            answer,
            issued,
            ended,
            cookies,
        }) => {
            let mut res = success(req, &done(action, &fields, &page_vars, &answer));
            if let Some(issued) = &issued {
                framework::request::send_token(&mut res, issued, state.api.config.secure_cookies);
            } else if ended {
                framework::request::end_token(&mut res);
            }
            for cookie in cookies {
                let _ = res.add_cookie(&cookie);
            }
            res
        }
        Err(ApiError::Unauthenticated) => {
            success(req, &Done::to(route.sign_in.as_deref().unwrap_or("/login")))
        }
        Err(e) => {
            let refused = Refused::of(e, action.fallback.as_deref());
            refused_page(req, state, refused, &fields).await
        }
    }
}

/// `done` with each `{name}` replaced by the form's field of that name, else by the page's own
/// path segment of that name (the form posts to its page: `/staff/orders/{orderId}` after a form
/// on an order's page that sends only the call's fields), encoded as a path segment; a name that
/// is neither stays as it is (the route table's test refuses such an address).
fn filled(done: &str, fields: &Fields, page: &Vars) -> String {
    const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.');
    let mut out = String::new();
    let mut rest = done;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        let name = &rest[open + 1..close];
        out.push_str(&rest[..open]);
        match fields
            .get(name)
            .or_else(|| page.get(name).map(String::as_str))
        {
            Some(v) => out.extend(percent_encoding::utf8_percent_encode(v.trim(), SEGMENT)),
            None => out.push_str(&rest[open..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The form's fields for its call: each field named in `lists` once, its values joined by
/// commas (ticked checkboxes of one name); the others as sent.
fn joined(fields: &Fields, lists: &[String]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = fields
        .pairs()
        .filter(|(k, _)| !lists.iter().any(|l| l == k))
        .map(|(k, v)| (k.into(), v.into()))
        .collect();
    for list in lists {
        let values: Vec<String> = fields
            .pairs()
            .filter(|(k, v)| k == list && !v.trim().is_empty())
            .map(|(_, v)| v.trim().to_string())
            .collect();
        if !values.is_empty() {
            pairs.push((list.clone(), values.join(",")));
        }
    }
    pairs
}

/// Where an action that succeeded sends the browser, with the cookies it sets.
fn done(action: &Action, fields: &Fields, page: &Vars, answer: &Value) -> Done {
    let to = action
        .done_by
        .as_ref()
        .and_then(|by| by.to.get(fields.get(&by.field)?))
        .unwrap_or(&action.done);
    // A link the answer names, when it is a path of the store (never another site).
    let linked = action
        .answer_link
        .as_ref()
        .and_then(|field| answer.get(field)?.as_str())
        .filter(|l| {
            l.starts_with('/')
                && !l.starts_with("//")
                && !l.contains('\\')
                && l.bytes().all(|b| b > 0x20 && b < 0x7f)
        });
    // Another site's page the server asked for (the payment gateway's), an address of the web.
    let away = action
        .answer_away
        .as_ref()
        .and_then(|field| answer.get(field)?.as_str())
        .filter(|l| {
            (l.starts_with("https://") || l.starts_with("http://"))
                && l.bytes().all(|b| b > 0x20 && b < 0x7f)
        });
    // Where the answer sends the browser instead (a login's cart that could not join).
    let said = action
        .answer_to
        .iter()
        .find(|a| match answer.pointer(&a.field) {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => !s.is_empty(),
            _ => false,
        })
        .map(|a| a.to.as_str());
    let to = filled(to, fields, page);
    let mut done = Done::to(said.or(away).or(linked).unwrap_or(to.as_str()));
    if action.location {
        // The first address becomes the location the shop is shown for, as the client's USE THIS
        // ADDRESS does.
        // The answer is the address, or names the place it filled (a refill's `place`: none when
        // the page's own was used).
        let place = answer.get("place").unwrap_or(answer);
        match serde_json::from_value::<Option<Place>>(place.clone()) {
            Ok(None) => {}
            Ok(Some(p)) => {
                done.cookies = cookies::location_cookies(&cookies::Location {
                    fulfillment: domain::DEFAULT_FULFILLMENT,
                    city: p.city_id,
                    city_name: &p.city_name,
                    barangay: p.barangay_id,
                    barangay_name: &p.barangay_name,
                    street: p.street_id,
                })
                .into()
            }
            Err(e) => log::error!("{}: the answer is no address: {e}", action.call),
        }
    }
    done
}

/// What an answer that is an address says of its place.
#[derive(serde::Deserialize)]
struct Place {
    city_id: domain::CityId,
    city_name: String,
    barangay_id: domain::BarangayId,
    barangay_name: String,
    street_id: Option<domain::StreetId>,
}

/// `303 See Other` to `done.to` (without JavaScript) or `{"location"}` (with it), with the
/// form's cookies.
pub fn success(req: &HttpRequest, done: &Done) -> HttpResponse {
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

/// The page again with the messages and what was typed (JSON for a page with JavaScript).
async fn refused_page(
    req: &HttpRequest,
    state: &web::Data<WebState>,
    refused: Refused,
    fields: &Fields,
) -> HttpResponse {
    let form = json!({
        "values": typed_back(fields),
        "errors": refused.errors,
        "message": refused.message,
    });
    if wants_json(req) {
        let mut res = HttpResponse::build(refused.status);
        res.insert_header((header::CACHE_CONTROL, "no-store"));
        if refused.status == StatusCode::SERVICE_UNAVAILABLE {
            res.insert_header((header::RETRY_AFTER, framework::error::DATABASE_RETRY_AFTER));
        }
        return res.json(form);
    }
    serve(
        req,
        state,
        Some(Posted {
            status: refused.status,
            form,
        }),
    )
    .await
}

/// A feature form's [`Answer`] as the browser gets it.
pub async fn answer(
    req: &HttpRequest,
    state: &web::Data<WebState>,
    answer: Answer,
) -> HttpResponse {
    match answer {
        Answer::Done(done) => success(req, &done),
        Answer::SeeOther(done) => {
            let mut res = see_other(&done.to);
            for c in done.cookies {
                res.cookie(c);
            }
            res.finish()
        }
        Answer::Refused(refused, fields) => refused_page(req, state, refused, &fields).await,
        Answer::Page { status, form } => serve(req, state, Some(Posted { status, form })).await,
        Answer::Failed(e) => error_page(e),
        Answer::Response(res) => res,
        Answer::Renewed(answer, issued) => {
            let mut res = Box::pin(self::answer(req, state, *answer)).await;
            framework::request::send_token(&mut res, &issued, state.api.config.secure_cookies);
            res
        }
    }
}

/// What was typed, to fill the form again: every field but passwords, tokens and the form's own
/// hidden fields, without control characters but a text area's new lines and tabs (a NUL has no
/// place in a field, and none reaches the page); a field sent several times (boxes of one name
/// ticked together) comes back joined by commas, as the form path joins a list field.
fn typed_back(fields: &Fields) -> Map<String, Value> {
    let mut back = Map::new();
    for (k, v) in fields.pairs().filter(|(k, _)| {
        !k.contains("password") && !matches!(k.as_ref(), "csrf" | CALL_FIELD | "token" | "suid")
    }) {
        // A text area's lines stay (not a line's end: one-line fields take none); other control
        // characters go.
        let clean: String = v
            .replace("\r\n", "\n")
            .chars()
            .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
            .collect::<String>()
            .trim_matches('\n')
            .to_string();
        match back.get_mut(k.as_ref()) {
            // Ticked boxes of one name come back joined, as the call reads them (`1,2`).
            Some(Value::String(was)) => {
                was.push(',');
                was.push_str(&clean);
            }
            _ => {
                back.insert(k.into_owned(), json!(clean));
            }
        }
    }
    back
}

fn forbidden() -> HttpResponse {
    HttpResponse::Forbidden()
        .content_type("text/plain; charset=utf-8")
        .body(framework::origin::REFUSED_FORM)
}

/// GET on a form address: its page where it has one, else (a bookmarked or reloaded form
/// result) home.
pub async fn form_get(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    if state.routes.find(req.path()).0.name == state.routes.not_found.name {
        return redirect("/", StatusCode::SEE_OTHER);
    }
    crate::page::page(req, state).await
}

/// `GET /staff/catalog/export`: the catalog file to download
/// (`api::staff::catalog::import_form::export`).
pub async fn catalog_export(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    let answered = api::staff::catalog::import_form::export(&req, &state.api).await;
    answer(&req, &state, answered).await
}

/// `POST` on a form address: another site's post, or a body too slow or too large, is answered
/// at once; then the form its `_call` names (or the address's only form) answers. Every answer
/// depends on the session: caches keep none ([`framework::request::PRIVATE`]).
pub async fn post(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    let mut res = answer_post(req, payload, state).await;
    framework::request::mark_private(res.headers_mut());
    res
}

async fn answer_post(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<WebState>,
) -> HttpResponse {
    // The store's guard refuses other sites' posts first (framework::origin::guard); the same rule
    // here keeps the forms safe wherever they are mounted.
    if framework::origin::refused(&req, &state.api.config.origins) {
        return forbidden();
    }
    // Under maintenance nothing is written (but where it stays open, the back office): the
    // maintenance page (or its words in JSON), 503.
    if state.api.closed_for(req.path()) {
        let closed = Refused {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: framework::MAINTENANCE_MESSAGE.into(),
            errors: Map::new(),
        };
        return refused_page(&req, &state, closed, &Fields::parse(b"")).await;
    }
    if is_multipart(&req) {
        return match file_forms().find(|f| f.path == req.path()) {
            Some(form) => {
                let answered = (form.handler)(&req, payload, &state.api).await;
                answer(&req, &state, answered).await
            }
            None => error_page(ApiError::UnsupportedMediaType),
        };
    }
    let body = match framework::request::read_body(payload, FORM_LIMIT).await {
        Ok(b) => b,
        Err(e) => return error_page(e),
    };
    let fields = Fields::parse(&body);
    // A malformed escape or bytes that are not UTF-8 would be read as U+FFFD and kept: refused,
    // and the form comes back with what could be read of it.
    if let Some(fault) = domain::text::encoding_fault(&body) {
        let refused = Refused {
            status: StatusCode::BAD_REQUEST,
            message: fault.in_form().into(),
            errors: Map::new(),
        };
        return refused_page(&req, &state, refused, &fields).await;
    }
    let path = crate::routes::normal(req.path());
    // The action its `_call` names (an address with one needs no name), else the address's own
    // handler.
    let actions: &[Action] = state
        .routes
        .fixed(&path)
        .map_or(&[], |r| r.actions.as_slice());
    let action = match fields.get(CALL_FIELD) {
        Some(named) => actions.iter().find(|a| a.call == named),
        None if actions.len() == 1 => actions.first(),
        None => None,
    };
    if let Some(action) = action {
        return act(&req, action, fields, &state).await;
    }
    match forms().find(|f| crate::routes::normal(f.path) == path) {
        Some(form) => {
            let answered = (form.handler)(&req, fields, &state.api).await;
            answer(&req, &state, answered).await
        }
        None => {
            let refused = Refused {
                status: StatusCode::BAD_REQUEST,
                message: "This form cannot be sent here.".into(),
                errors: Map::new(),
            };
            refused_page(&req, &state, refused, &fields).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_tokens_are_never_typed_back() {
        let f = Fields::parse(
            b"login=ana&password=x&current_password=y&csrf=t&_call=login&token=k&suid=s&note=a%00b",
        );
        let back = typed_back(&f);
        let names: Vec<&str> = back.keys().map(String::as_str).collect();
        assert_eq!(names, ["login", "note"]);
        assert_eq!(back["note"], "ab");
        let f = Fields::parse(b"about=a%0D%0Ab%09c%0Dd%0D%0A&cities=1&cities=2&name=Rosa%0D%0A");
        let back = typed_back(&f);
        assert_eq!(back["about"], "a\nb\tcd");
        assert_eq!(back["name"], "Rosa");
        assert_eq!(back["cities"], "1,2");
    }

    #[test]
    fn every_own_handler_has_its_own_address() {
        let mut paths: Vec<&str> = forms().map(|f| f.path).collect();
        let all = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), all, "two handlers for one address");
        assert!(all >= 4, "the gates and the newsletter");
    }

    #[test]
    fn a_list_field_sent_several_times_reaches_the_call_as_one() {
        let f = Fields::parse(b"order_ids=42&status=confirmed&order_ids=57&order_ids=&status=x");
        let pairs = joined(&f, &["order_ids".to_string()]);
        assert!(
            pairs.contains(&("order_ids".into(), "42,57".into())),
            "{pairs:?}"
        );
        // Other fields as sent (the call's parsing keeps the last).
        let statuses = pairs.iter().filter(|(k, _)| k == "status").count();
        assert_eq!(statuses, 2);
        assert!(
            joined(&f, &[])
                .iter()
                .filter(|(k, _)| k == "order_ids")
                .count()
                == 3
        );
    }

    #[test]
    fn a_page_goes_back_to_the_address_its_fields_name() {
        let f = Fields::parse(b"orderId=42&evil=..%2F..%2Flogin%3Fx");
        let none = Vars::new();
        assert_eq!(
            filled("/staff/orders/{orderId}?done=moved", &f, &none),
            "/staff/orders/42?done=moved"
        );
        assert_eq!(filled("/a/{evil}", &f, &none), "/a/..%2F..%2Flogin%3Fx");
        assert_eq!(filled("/a/{missing}", &f, &none), "/a/{missing}");
        assert_eq!(filled("/a/{open", &f, &none), "/a/{open");
    }

    #[test]
    fn else_to_its_own_page_by_the_page_s_path() {
        // An order's page's Mark buttons send the call's fields (order_ids, status), not orderId.
        let f = Fields::parse(b"order_ids=7&status=confirmed");
        let page: Vars = [("orderId".to_string(), "7".to_string())].into();
        assert_eq!(
            filled("/staff/orders/{orderId}?done=moved", &f, &page),
            "/staff/orders/7?done=moved"
        );
        // A field of the form wins over the page's own.
        let f = Fields::parse(b"orderId=8");
        assert_eq!(
            filled("/staff/orders/{orderId}", &f, &page),
            "/staff/orders/8"
        );
    }
}
