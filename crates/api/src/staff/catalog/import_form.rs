//! The catalog file in the browser: `GET /staff/catalog/export` downloads it (as `store catalog
//! export` writes it), and the import page's upload form (`multipart/form-data` to
//! `/staff/catalog/import`, a file form of [`framework::form`]) checks an uploaded file and keeps it
//! for its dry run, which its own page shows (`/staff/catalog/import/{draftId}`) before the
//! manager applies it. The same rules as every file form (see `photo_form`): a signed-in
//! manager, asked before the body is read; the body's limits; the page's CSRF token; then the
//! import's rules ([`super::import`]), every problem listed beside the file field.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use domain::staff::Role;
use framework::form::upload::{receive, Received, Upload};
use framework::form::{Answer, Done, Refused};
use framework::{ApiError, ApiState};

use super::import::MAX_FILE;

/// The import page: the upload form posts to its address, and is answered from it.
pub const PAGE: &str = "/staff/catalog/import";

/// The most a whole body may be: the file, the text, and the parts' headers.
const BODY_LIMIT: usize = MAX_FILE + 64 * 1024;

framework::file_form!(PAGE, answer);

async fn answer(req: &HttpRequest, payload: web::Payload, state: &ApiState) -> Answer {
    let form = Upload {
        may: super::a_manager,
        credential: Some(crate::staff::COOKIE),
        file: "file",
        most: BODY_LIMIT,
        too_large: format!(
            "This file is larger than the {} MB a catalog file may be.",
            MAX_FILE >> 20
        ),
        unreadable: "This form could not be read. Choose the file and send it again.",
    };
    let Received {
        caller,
        fields,
        file,
    } = match receive(req, payload, state, form).await {
        Ok(received) => received,
        Err(refused) => return refused,
    };
    let Some((name, bytes)) = file else {
        let none = Refused::with(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a catalog file to upload.",
            Some("file"),
        );
        return Answer::Refused(none, fields);
    };
    let Ok(text) = String::from_utf8(bytes) else {
        let binary = Refused::with(
            StatusCode::UNPROCESSABLE_ENTITY,
            "This is not a catalog file: a catalog file is JSON text (UTF-8), as Export writes it.",
            Some("file"),
        );
        return Answer::Refused(binary, fields);
    };
    let kept = state
        .run(caller, move |ctx| {
            let signed = crate::staff::signed_in_as(ctx, &[Role::Manager])?;
            super::import::upload(ctx.conn, &signed.member, &name, &text)
        })
        .await;
    match kept {
        Ok(id) => Answer::Done(Done::to(format!("{PAGE}/{id}"))),
        Err(e) => Answer::Refused(Refused::of(e, None), fields),
    }
}

/// `GET /staff/catalog/export`: the catalog file, to download (managers; others are sent to sign
/// in, or told there is no such page).
pub async fn export(req: &HttpRequest, state: &ApiState) -> Answer {
    let caller = framework::Caller::of_page(req);
    let file = state.run(caller, super::import::export).await;
    match file {
        Ok(json) => {
            let today = domain::calendar::iso_date(domain::calendar::manila_now().date());
            let mut res = HttpResponse::Ok()
                .content_type("application/json; charset=utf-8")
                .insert_header((
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"catalog-{today}.json\""),
                ))
                .body(json);
            framework::request::mark_private(res.headers_mut());
            Answer::Response(res)
        }
        Err(ApiError::Unauthenticated) => {
            let mut res = HttpResponse::Found()
                .insert_header((header::LOCATION, "/staff/login"))
                .finish();
            framework::request::mark_private(res.headers_mut());
            Answer::Response(res)
        }
        Err(e) => Answer::Failed(e),
    }
}
