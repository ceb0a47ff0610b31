//! "Download my data" without JavaScript: the page's form (`/my-account/my-data`, the current
//! password and the session's CSRF token) runs the API's own call (`myData`,
//! `api::accounts::my_data`) and is answered with the page showing the data (a readable page), or,
//! from its "Download" button (`format=json`), with the same answer as a JSON file
//! (`Content-Disposition: attachment`). A wrong password comes back as the page with the field's
//! message, as every form's failure does (and counts against the same limit). Every answer is
//! `private, no-store` (`form::post`). With JavaScript the page calls the API itself.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use framework::{ApiError, Caller};
use serde_json::{json, Map, Value};

use crate::fields::Fields;
use crate::form::{success, Done, Refused, EXPIRED};
use crate::page::{serve, Posted};
use crate::respond::{csrf_holds, error_page};
use crate::WebState;

/// The page and its form's address.
pub const PAGE: &str = "/my-account/my-data";

/// The call the form runs (its contract name).
const CALL: &str = "myData";

crate::custom_form!("/my-account/my-data", answer);

async fn answer(req: &HttpRequest, fields: Fields, state: &web::Data<WebState>) -> HttpResponse {
    let caller = Caller::of_page(req);
    if !csrf_holds(&caller, &fields) {
        let refused = Refused {
            status: StatusCode::FORBIDDEN,
            message: EXPIRED.into(),
            errors: Map::new(),
        };
        return refused.answer(req, state, &fields).await;
    }
    let Some(endpoint) = framework::registry::by_name(CALL) else {
        return error_page(ApiError::Internal(format!("no call {CALL}")));
    };
    // Only the password reaches the call.
    let pairs: Vec<(String, String)> = fields
        .get("current_password")
        .map(|p| ("current_password".to_string(), p.to_string()))
        .into_iter()
        .collect();
    let called = state
        .api
        .run(caller, move |ctx| {
            let answer = endpoint.run_form(ctx, &pairs, &[])?;
            Ok((answer, ctx.issued.take()))
        })
        .await;
    let (data, issued) = match called {
        Ok(done) => done,
        Err(ApiError::Unauthenticated) => return success(req, &Done::to("/login")),
        Err(e) => return Refused::of(e, None).answer(req, state, &fields).await,
    };
    let mut res = if fields.get("format") == Some("json") {
        file(&data)
    } else if wants_json(req) {
        HttpResponse::Ok().json(json!({ "data": data }))
    } else {
        let form = json!({ "values": {}, "errors": {}, "message": "", "answer": data });
        let posted = Posted {
            status: StatusCode::OK,
            form,
        };
        serve(req, state, Some(posted)).await
    };
    if let Some(issued) = &issued {
        framework::request::send_token(&mut res, issued, state.api.config.secure_cookies);
    }
    res
}

/// The data as a file to keep: the API's answer, indented, named by the day.
fn file(data: &Value) -> HttpResponse {
    let today = domain::calendar::iso_date(domain::calendar::manila_now().date());
    let body = serde_json::to_string_pretty(data).unwrap_or_default();
    HttpResponse::Ok()
        .content_type("application/json; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"tala-my-data-{today}.json\""),
        ))
        .body(body)
}

/// Whether the page posted with JavaScript and reads the answer as JSON.
fn wants_json(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
