//! The security headers of every answer, in one place: no sniffing, no framing, a strict
//! referrer policy, and the Content-Security-Policy. The one inline style (the critical CSS) is
//! allowed by its hash, so the policy is the same on every answer and a finished page can be
//! reused as it is. Scripts come only from the store itself (`script-src 'self'`): the client's
//! entry, the chunks its pages import and the `<link rel="modulepreload">` of a page's chunks.

use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The policy for pages whose only inline style is `css`.
pub fn content_security_policy(css: &str) -> String {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(css.as_bytes()));
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'sha256-{hash}'; \
         img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// The headers every answer carries.
pub fn headers(csp: &str) -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::REFERRER_POLICY, "strict-origin-when-cross-origin"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((header::CONTENT_SECURITY_POLICY, csp.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_style_is_allowed_by_its_hash() {
        // echo -n 'a{}' | openssl dgst -sha256 -binary | base64
        let csp = content_security_policy("a{}");
        assert!(
            csp.contains("style-src 'self' 'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='"),
            "{csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"));
    }

    #[test]
    fn scripts_and_their_preloads_come_from_the_store_only() {
        // Module scripts, their dynamic imports and modulepreload links all answer to script-src.
        let csp = content_security_policy("a{}");
        assert!(csp.contains("script-src 'self';"), "{csp}");
        assert!(!csp.contains("unsafe"), "{csp}");
    }
}
