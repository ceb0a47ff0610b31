//! Where a request comes from. Unsafe requests a browser sends with the store's cookies must come
//! from the store's own pages: the `Origin` (or, without one, the `Referer`) must be one of the
//! store's origins (PUBLIC_URL's), never judged by `Host` or `X-Forwarded-Host`, which the client
//! controls; `Sec-Fetch-Site: cross-site` is a refusal.

use actix_web::http::header;
use actix_web::HttpRequest;

/// `scheme://host[:port]` of an address, lower-cased, without a default port; `None` when it is
/// not an http(s) address.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?.to_ascii_lowercase();
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let authority = match (scheme.as_str(), authority.rsplit_once(':')) {
        ("https", Some((host, "443"))) | ("http", Some((host, "80"))) => host.to_string(),
        _ => authority,
    };
    Some(format!("{scheme}://{authority}"))
}

/// Whether a request comes from one of `allowed`. A request with neither `Origin` nor `Referer`
/// comes from no browser, and so from no forged page.
pub fn same_origin(req: &HttpRequest, allowed: &[String]) -> bool {
    let header = |name: header::HeaderName| {
        req.headers()
            .get(name)
            .map(|v| v.to_str().unwrap_or("\u{0}").to_string())
    };
    if header(header::HeaderName::from_static("sec-fetch-site")).as_deref() == Some("cross-site") {
        return false;
    }
    let claimed = header(header::ORIGIN).or_else(|| header(header::REFERER));
    match claimed {
        None => true,
        Some(url) => origin_of(&url).is_some_and(|o| allowed.contains(&o)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_compared_by_scheme_host_and_port() {
        assert_eq!(
            origin_of("https://Shop.Example:443/x?y").as_deref(),
            Some("https://shop.example")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:8080").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(origin_of("null"), None);
        assert_eq!(origin_of("javascript:alert(1)"), None);
        assert_eq!(origin_of("https://shop.example@evil.com/"), None);
        let allowed = vec!["https://shop.example".to_string()];
        let req = |headers: &[(&str, &str)]| {
            let mut r = actix_web::test::TestRequest::post();
            for h in headers {
                r = r.insert_header(*h);
            }
            r.to_http_request()
        };
        assert!(same_origin(
            &req(&[("origin", "https://shop.example")]),
            &allowed
        ));
        assert!(same_origin(&req(&[]), &allowed));
        assert!(!same_origin(
            &req(&[
                ("origin", "http://evil.com"),
                ("x-forwarded-host", "evil.com"),
                ("host", "evil.com")
            ]),
            &allowed
        ));
        assert!(
            !same_origin(&req(&[("origin", "http://shop.example")]), &allowed),
            "scheme"
        );
        assert!(
            !same_origin(&req(&[("origin", "https://shop.example:8443")]), &allowed),
            "port"
        );
        assert!(same_origin(
            &req(&[("referer", "https://shop.example/buy-beer")]),
            &allowed
        ));
        assert!(!same_origin(
            &req(&[("referer", "https://evil.com/shop.example")]),
            &allowed
        ));
        assert!(!same_origin(
            &req(&[
                ("origin", "https://shop.example"),
                ("sec-fetch-site", "cross-site")
            ]),
            &allowed
        ));
    }
}
