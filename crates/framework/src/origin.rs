//! Where a request comes from, and the store's one rule for cross-site requests:
//! every request with an unsafe method (an API call or a form post, with or without cookies) must
//! come from the store's own pages: its `Origin` (or, without one, its `Referer`) must be one of
//! the store's origins (PUBLIC_URL's), never judged by `Host` or `X-Forwarded-Host`, which the
//! client controls, and `Sec-Fetch-Site: cross-site` is a refusal. The one exemption is a request
//! that authenticates by a bearer token and sends no session cookie: a browser never adds such a
//! header to another site's request on its own. [`guard`] applies the rule to the API; `web::form`
//! calls [`refused`] for the forms.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest};

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

/// The client's address, for rate limits: the connection's peer, or, when the peer is one of the
/// store's trusted proxies (`TRUSTED_PROXIES`), the last `X-Forwarded-For` address that is not a
/// trusted proxy (the ones before it are the client's to write, and so to forge).
pub fn client_ip(req: &HttpRequest) -> Option<std::net::IpAddr> {
    let peer = req.peer_addr().map(|a| a.ip())?;
    let trusted = req
        .app_data::<web::Data<crate::ApiState>>()
        .map(|s| s.config.trusted_proxies.clone())
        .unwrap_or_else(|| std::sync::Arc::from(vec![]));
    Some(forwarded_client(peer, &trusted, req.headers()))
}

fn forwarded_client(
    peer: std::net::IpAddr,
    trusted: &[std::net::IpAddr],
    headers: &header::HeaderMap,
) -> std::net::IpAddr {
    // IPv4 peers of a server bound to `[::]` arrive as IPv4-mapped IPv6 addresses.
    let peer = peer.to_canonical();
    let is_trusted = |ip: &std::net::IpAddr| trusted.iter().any(|t| t.to_canonical() == *ip);
    if !is_trusted(&peer) {
        return peer;
    }
    // Each hop on its own, from the raw bytes: a client's junk before the proxy's hop (not text,
    // not an address) spoils only itself.
    let hops: Vec<Option<std::net::IpAddr>> = headers
        .get_all(header::HeaderName::from_static("x-forwarded-for"))
        .flat_map(|v| v.as_bytes().split(|b| *b == b','))
        .map(|hop| {
            std::str::from_utf8(hop)
                .ok()
                .and_then(|h| h.trim().parse::<std::net::IpAddr>().ok())
                .map(|ip| ip.to_canonical())
        })
        .collect();
    // From the right: past the proxies' own hops, the first one names the client (one that is
    // not an address names nobody: the peer stands).
    hops.into_iter()
        .rev()
        .find(|hop| hop.is_none_or(|ip| !is_trusted(&ip)))
        .flatten()
        .unwrap_or(peer)
}

/// Whether the request authenticates by `Authorization: Bearer` (the scheme in any case).
pub fn bearer(req: &HttpRequest) -> Option<&str> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// A cookie that speaks for its holder as the session's does (the guest's cart cookie): a
/// request carrying one is held to the rule like a session's. Features register theirs
/// (`inventory::submit!`); the session's is always one.
pub struct CredentialCookie(pub &'static str);

inventory::collect!(CredentialCookie);

/// Whether an unsafe request is refused as another site's (the rule above).
pub fn refused(req: &HttpRequest, allowed: &[String]) -> bool {
    if req.method().is_safe() {
        return false;
    }
    // No credential cookie rides along: neither the session's nor a feature's.
    let bearer_only = bearer(req).is_some()
        && req.cookie(crate::session::COOKIE).is_none()
        && inventory::iter::<CredentialCookie>
            .into_iter()
            .all(|c| req.cookie(c.0).is_none());
    !bearer_only && !same_origin(req, allowed)
}

/// What a refused form post answers.
pub const REFUSED_FORM: &str = "This form must be sent from the store's own pages.";

/// The rule as a middleware over the API (forms call [`refused`] themselves): a refused
/// request is answered 403 in JSON at once and reaches no handler.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let refuse = req
        .app_data::<web::Data<crate::ApiState>>()
        .is_some_and(|s| refused(req.request(), &s.config.origins));
    if refuse {
        let res = actix_web::ResponseError::error_response(&crate::ApiError::CrossSite);
        return Ok(req.into_response(res));
    }
    next.call(req).await.map(|r| r.map_into_boxed_body())
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

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let ip = |s: &str| s.parse::<std::net::IpAddr>().unwrap();
        let proxy = ip("10.0.0.1");
        let trusted = [proxy, ip("10.0.0.2")];
        let headers = |xff: &[&str]| {
            let mut h = header::HeaderMap::new();
            for v in xff {
                h.append(
                    header::HeaderName::from_static("x-forwarded-for"),
                    header::HeaderValue::from_str(v).unwrap(),
                );
            }
            h
        };
        // Not from a proxy: the peer, whatever the header says.
        let stranger = ip("203.0.113.9");
        assert_eq!(
            forwarded_client(stranger, &trusted, &headers(&["1.2.3.4"])),
            stranger
        );
        // From the proxy: the last address the proxies did not add; forged ones before it and
        // the proxies' own are skipped.
        let h = headers(&["6.6.6.6, 198.51.100.7", "10.0.0.2"]);
        assert_eq!(forwarded_client(proxy, &trusted, &h), ip("198.51.100.7"));
        assert_eq!(forwarded_client(proxy, &trusted, &headers(&[])), proxy);
        assert_eq!(
            forwarded_client(proxy, &trusted, &headers(&["junk"])),
            proxy
        );
        let h = headers(&["junk, 198.51.100.7"]);
        assert_eq!(forwarded_client(proxy, &trusted, &h), ip("198.51.100.7"));
        let h = headers(&["198.51.100.7, junk"]);
        assert_eq!(forwarded_client(proxy, &trusted, &h), proxy);
        // Bytes that are not text before the proxy's hop spoil only that hop.
        let mut h = header::HeaderMap::new();
        h.append(
            header::HeaderName::from_static("x-forwarded-for"),
            header::HeaderValue::from_bytes(b"\xff\xfe, 198.51.100.7").unwrap(),
        );
        assert_eq!(forwarded_client(proxy, &trusted, &h), ip("198.51.100.7"));
        // The proxy seen as an IPv4-mapped IPv6 peer is the proxy.
        let mapped = ip("::ffff:10.0.0.1");
        let h = headers(&["198.51.100.7"]);
        assert_eq!(forwarded_client(mapped, &trusted, &h), ip("198.51.100.7"));
    }

    #[test]
    fn only_a_bearer_without_the_cookie_is_exempt() {
        let allowed = vec!["https://shop.example".to_string()];
        let post = |headers: &[(&str, &str)]| {
            let mut r = actix_web::test::TestRequest::post();
            for h in headers {
                r = r.insert_header(*h);
            }
            r.to_http_request()
        };
        let evil = ("origin", "https://evil.example");
        assert!(
            refused(&post(&[evil]), &allowed),
            "no cookie is no exemption"
        );
        assert!(refused(
            &post(&[("sec-fetch-site", "cross-site")]),
            &allowed
        ));
        assert!(refused(&post(&[("origin", "null")]), &allowed));
        assert!(!refused(&post(&[]), &allowed), "no browser, no forged page");
        assert!(!refused(
            &post(&[("origin", "https://shop.example")]),
            &allowed
        ));
        for scheme in ["Bearer", "bearer", "BEARER"] {
            let auth = format!("{scheme} abc");
            assert!(!refused(&post(&[evil, ("authorization", &auth)]), &allowed));
            let with_cookie = [evil, ("authorization", &auth), ("cookie", "session=abc")];
            assert!(
                refused(&post(&with_cookie), &allowed),
                "{scheme} and a cookie"
            );
        }
        for other in ["Basic YTpi", "Token abc", "Bearer ", "Bearerabc"] {
            assert!(
                refused(&post(&[evil, ("authorization", other)]), &allowed),
                "{other}"
            );
        }
        let get = actix_web::test::TestRequest::get()
            .insert_header(evil)
            .to_http_request();
        assert!(!refused(&get, &allowed), "reads are not refused");
    }
}
