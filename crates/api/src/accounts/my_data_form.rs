//! "Download my data" without JavaScript: the page's form (`/my-account/my-data`, the current
//! password and the session's CSRF token) runs the API's own call (`myData`,
//! [`super::my_data`]) and is answered with the page showing the data (a readable page), or,
//! from its "Download" button (`format=json`), with the same answer as a JSON file
//! (`Content-Disposition: attachment`). A wrong password comes back as the page with the field's
//! message, as every form's failure does (and counts against the same limit). Every answer is
//! `private, no-store` (`web::form::post`). With JavaScript the page calls the API itself.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpRequest, HttpResponse};
use framework::form::{csrf_holds, wants_json, Answer, Done, Fields, Refused, EXPIRED};
use framework::{ApiError, ApiState, Caller};
use serde_json::{json, Map, Value};

/// The page and its form's address.
pub const PAGE: &str = "/my-account/my-data";

/// The call the form runs (its contract name).
const CALL: &str = "myData";

framework::custom_form!(PAGE, answer);

async fn answer(req: &HttpRequest, fields: Fields, state: &ApiState) -> Answer {
    let caller = Caller::of_page(req);
    if !csrf_holds(&caller, &fields) {
        let refused = Refused {
            status: StatusCode::FORBIDDEN,
            message: EXPIRED.into(),
            errors: Map::new(),
        };
        return Answer::Refused(refused, fields);
    }
    let Some(endpoint) = framework::registry::by_name(CALL) else {
        return Answer::Failed(ApiError::Internal(format!("no call {CALL}")));
    };
    // Only the password reaches the call.
    let pairs: Vec<(String, String)> = fields
        .get("current_password")
        .map(|p| ("current_password".to_string(), p.to_string()))
        .into_iter()
        .collect();
    let called = state
        .run(caller, move |ctx| {
            let answer = endpoint.run_form(ctx, &pairs, &[])?;
            Ok((answer, ctx.issued.take()))
        })
        .await;
    let (data, issued) = match called {
        Ok(done) => done,
        Err(ApiError::Unauthenticated) => return Answer::Done(Done::to("/login")),
        Err(e) => return Answer::Refused(Refused::of(e, None), fields),
    };
    let answer = if fields.get("format") == Some("json") {
        Answer::Response(file(&data))
    } else if wants_json(req) {
        Answer::Response(HttpResponse::Ok().json(json!({ "data": data })))
    } else {
        let form = json!({ "values": {}, "errors": {}, "message": "", "answer": data });
        Answer::Page {
            status: StatusCode::OK,
            form,
        }
    };
    match issued {
        Some(issued) => Answer::Renewed(Box::new(answer), issued),
        None => answer,
    }
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
