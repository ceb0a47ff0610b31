//! Answers every form and page path shares: the redirect after a post and a plain failure (the
//! CSRF check of a no-JS form is `framework::form::csrf_holds`).

use actix_web::http::{header, StatusCode};
use actix_web::HttpResponse;
use framework::ApiError;

/// A `303 See Other` to `to`, never kept.
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
