//! A guest's page answered again to the same request: the page filled for everyone
//! (`page::answer_shared`) kept by the request as it came (its address, its query and its
//! cookies, byte for byte) under the data version and the Manila day it was made in. A guest who
//! asks again, or another with the same cookies (the gates' choices and nothing of their own), is
//! answered from here before a cookie is parsed or a key of the page is made.
//!
//! Only a request without a session, a cart or the member hint is kept: everything else that
//! shapes the page is in those bytes. What is kept is the page's key in the page cache, not the
//! page: the page cache alone holds pages and weighs them (a page it lets go is made again), and
//! a flood of made-up cookies only churns these few keys.

use std::sync::Arc;

use actix_web::http::{header, Method};
use actix_web::HttpRequest;

use crate::page_with_slots::Page;

/// How many requests' pages are kept: the gates' combinations guests arrive with.
const ENTRIES: usize = 512;

/// The page cache's keys of the pages, by [`key`].
pub struct PagesByRequest(quick_cache::sync::Cache<u128, u128>);

impl Default for PagesByRequest {
    fn default() -> Self {
        Self(quick_cache::sync::Cache::new(ENTRIES))
    }
}

impl PagesByRequest {
    /// The page answered to a request of this key, if it is still in `pages`.
    pub fn get(&self, key: u128, pages: &framework::cache::ResponseCache) -> Option<Arc<Page>> {
        pages.get::<Page>(self.0.get(&key)?)
    }

    /// Keeps the page cache's key `page` for requests of `key` when `req` carries nothing of a
    /// visitor's own.
    pub fn keep(&self, key: u128, req: &HttpRequest, page: u128) {
        let own = framework::request::cookie_token(req).is_some()
            || api::cart::cookie(req).is_some()
            || req.cookie(framework::session::MEMBER_COOKIE).is_some();
        if !own {
            self.0.insert(key, page);
        }
    }
}

/// The key of a page's request (GET or HEAD): its path, query, cookies and `Save-Data` as sent,
/// the data version read before the page is looked up (a page made later is at least as new), and
/// the Manila day (dated notices and promos).
pub fn key(req: &HttpRequest, data_version: u64) -> Option<u128> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return None;
    }
    let day = (domain::calendar::unix_now() + 8 * 3600).div_euclid(86_400);
    let cookies: Vec<&[u8]> = req
        .headers()
        .get_all(header::COOKIE)
        .map(|v| v.as_bytes())
        .collect();
    let save_data = req
        .headers()
        .get("save-data")
        .map_or(&b""[..], |v| v.as_bytes());
    let mut parts: Vec<&[u8]> = Vec::with_capacity(cookies.len() + 6);
    let (version, day) = (data_version.to_le_bytes(), day.to_le_bytes());
    parts.extend([
        &b"same asked"[..],
        req.path().as_bytes(),
        req.query_string().as_bytes(),
        &version,
        &day,
    ]);
    parts.push(save_data);
    parts.extend(cookies);
    Some(framework::cache::key(&parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::StatusCode;
    use actix_web::test::TestRequest;

    const GATES: &str = "cookieAccepted=1; privacyVerification=1; categoryGateId=1";
    /// A well-formed token (43 URL-safe characters), as sessions and carts are named.
    const TOKEN: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";

    fn asked(uri: &str, cookie: Option<&str>) -> HttpRequest {
        let mut r = TestRequest::get().uri(uri);
        if let Some(c) = cookie {
            r = r.insert_header((header::COOKIE, c));
        }
        r.to_http_request()
    }

    /// A page cache holding one page under the key 42.
    fn pages() -> (framework::cache::ResponseCache, Arc<Page>) {
        let body = actix_web::web::Bytes::from_static(b"<html>the page</html>");
        let page = Arc::new(Page::new(framework::cache::Cached::new(
            StatusCode::OK,
            vec![],
            body,
        )));
        let cache = framework::cache::ResponseCache::new(1 << 20);
        cache.insert(42, page.clone());
        (cache, page)
    }

    #[test]
    fn a_key_names_the_request_as_it_came() {
        let k = |uri: &str, cookie: Option<&str>, version: u64| {
            key(&asked(uri, cookie), version).unwrap()
        };
        let one = k("/buy-beer", Some(GATES), 7);
        assert_eq!(one, k("/buy-beer", Some(GATES), 7), "the same bytes");
        for other in [
            k("/buy-beer", Some(GATES), 8),
            k("/buy-beer?filterByType=keg", Some(GATES), 7),
            k("/buy-beer", Some("cookieAccepted=1"), 7),
            k("/buy-beer", None, 7),
            k("/", Some(GATES), 7),
        ] {
            assert_ne!(one, other);
        }
        let posted = TestRequest::post().uri("/buy-beer").to_http_request();
        assert_eq!(key(&posted, 7), None, "a posted form is always answered");
    }

    #[test]
    fn nothing_of_a_visitor_of_their_own_is_kept() {
        let kept = PagesByRequest::default();
        let (cache, page) = pages();
        for own in [
            format!("{GATES}; session={TOKEN}"),
            format!("{GATES}; cart={TOKEN}"),
            format!("{GATES}; member=1"),
        ] {
            let req = asked("/buy-beer", Some(&own));
            let k = key(&req, 1).unwrap();
            kept.keep(k, &req, 42);
            assert!(kept.get(k, &cache).is_none(), "{own}");
        }
        let guest = asked("/buy-beer", Some(GATES));
        let k = key(&guest, 1).unwrap();
        kept.keep(k, &guest, 42);
        assert!(kept.get(k, &cache).is_some_and(|p| Arc::ptr_eq(&p, &page)));
        // A page the page cache let go is not answered from here.
        kept.keep(k, &guest, 43);
        assert!(kept.get(k, &cache).is_none());
    }
}
