//! Answers every form and page path shares: the redirect after a post, a plain failure, and
//! the CSRF check of a no-JS form.

use actix_web::http::{header, StatusCode};
use actix_web::HttpResponse;
use framework::{ApiError, Caller};

use crate::fields::Fields;

/// Whether a form carries the CSRF token of the session it was sent with (the caller's, read
/// once from the request).
pub fn csrf_holds(caller: &Caller, fields: &Fields) -> bool {
    let expected = caller.token.as_deref().map(framework::session::csrf_token);
    matches!((fields.get("csrf"), expected), (Some(sent), Some(expected)) if same(sent, &expected))
}

/// Compares in time that does not depend on where the strings differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

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
