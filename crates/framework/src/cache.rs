//! Finished answers kept as bytes: a page or an API answer is made once and then served as it is,
//! compressed once per encoding (brotli, gzip) on the first request that asks for it, answered 304
//! when the browser already holds it. The cache is bounded by bytes; keys carry everything that
//! shapes an answer, the data version included, so a write to the catalog retires every entry.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};

/// An encoding a client accepts, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// The best encoding `Accept-Encoding` allows (a `q=0` refuses one).
    pub fn negotiate(req: &HttpRequest) -> Self {
        if Self::allows(req, "br") {
            Self::Brotli
        } else if Self::allows(req, "gzip") {
            Self::Gzip
        } else {
            Self::Identity
        }
    }

    /// Whether `Accept-Encoding` allows the coding `name` (a `q=0` refuses it).
    pub fn allows(req: &HttpRequest, name: &str) -> bool {
        let Some(accept) = req
            .headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
        else {
            return false;
        };
        accept.split(',').any(|part| {
            let mut it = part.split(';');
            let coding = it.next().unwrap_or("").trim();
            let refused = it.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            coding.eq_ignore_ascii_case(name) && !refused
        })
    }

    fn suffix(self) -> &'static str {
        match self {
            Self::Brotli => "-br",
            Self::Gzip => "-gz",
            Self::Identity => "",
        }
    }
}

/// One finished answer: status, headers, body and its compressed forms.
pub struct Cached {
    status: StatusCode,
    headers: Vec<(HeaderName, HeaderValue)>,
    body: Bytes,
    /// The identity body's length, also when only its compressed forms are kept
    /// ([`Cached::compressed_only`]).
    len: usize,
    /// The strong validator of the identity body, without quotes or encoding suffix.
    tag: String,
    gzip: OnceLock<Bytes>,
    brotli: OnceLock<Bytes>,
    /// Answered once and dropped (a staff page, a private answer): compressed fast, not hard.
    once: bool,
    /// Compressed in its own format already (its `Content-Type` is one of [`PACKED`]): answered
    /// as it is, as gzip or brotli would only spend time to gain nothing.
    packed: bool,
}

/// Brotli's quality and window for an answer kept and served many times (compressed once, so
/// worth compressing hard) and for one answered once. Measured on a run sheet of 153 KB (quality,
/// window: bytes, ms): 5, 22: 17,864 B in 5.6 ms; 2, 18: 20,427 B in 1.5 ms (gzip 6: 21,831 B in
/// 3.1 ms); on a board page of 38 KB, 8,435 B in 1.2 ms against 9,657 B in 0.4 ms.
const BROTLI_KEPT: (u32, u32) = (5, 22);
const BROTLI_ONCE: (u32, u32) = (2, 18);

/// Bodies smaller than this are not worth compressing.
const COMPRESS_FROM: usize = 512;

/// The content types whose bodies are compressed in their own format (pictures, fonts).
const PACKED: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "font/woff2"];

impl Cached {
    pub fn new(status: StatusCode, headers: Vec<(HeaderName, HeaderValue)>, body: Bytes) -> Self {
        let tag = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(&body));
        let packed = headers.iter().any(|(name, value)| {
            name == header::CONTENT_TYPE && PACKED.contains(&value.to_str().unwrap_or(""))
        });
        Self {
            status,
            headers,
            len: body.len(),
            body,
            tag,
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
            once: false,
            packed,
        }
    }

    /// The same answer, to be answered once and dropped: compressed for speed rather than size.
    pub fn answered_once(mut self) -> Self {
        self.once = true;
        self
    }

    /// The same answer's status, headers and validator without its body: for an owner that keeps
    /// the body in another form (a page split at its slots) and answers from that.
    pub fn without_body(self) -> Self {
        Self {
            body: Bytes::new(),
            len: 0,
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
            ..self
        }
    }

    /// The same answer kept in its compressed forms alone, both made now: for an answer kept
    /// while clients ask for it many times over, at a third of the weight. A client that takes
    /// neither encoding is answered the gzip form inflated (a body under [`COMPRESS_FROM`] is
    /// kept as it is).
    pub fn compressed_only(mut self) -> Self {
        if self.len < COMPRESS_FROM {
            return self;
        }
        self.encoded(Encoding::Gzip);
        self.encoded(Encoding::Brotli);
        self.body = Bytes::new();
        self
    }

    /// Whether the answer is to be answered once and dropped ([`Cached::answered_once`]).
    pub fn is_answered_once(&self) -> bool {
        self.once
    }

    /// The strong validator of the body.
    pub fn tag(&self) -> &str {
        &self.tag
    }

    pub fn headers(&self) -> &[(HeaderName, HeaderValue)] {
        &self.headers
    }

    /// With its compressed forms ready (files read at start, made once).
    pub fn precompressed(
        status: StatusCode,
        headers: Vec<(HeaderName, HeaderValue)>,
        body: Bytes,
        gzip: Option<Bytes>,
        brotli: Option<Bytes>,
    ) -> Self {
        let c = Self::new(status, headers, body);
        if let Some(g) = gzip {
            let _ = c.gzip.set(g);
        }
        if let Some(b) = brotli {
            let _ = c.brotli.set(b);
        }
        c
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The identity body; empty when only the compressed forms are kept
    /// ([`Cached::compressed_only`], [`Cached::without_body`]).
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// What the entry costs the cache: the body and room for its compressed forms, or the
    /// compressed forms alone when only they are kept.
    pub fn weight(&self) -> u64 {
        if self.body.is_empty() {
            let made = |b: &OnceLock<Bytes>| b.get().map_or(0, Bytes::len);
            return (made(&self.gzip) + made(&self.brotli) + 512) as u64;
        }
        (self.body.len() + self.body.len() / 2 + 512) as u64
    }

    fn encoded(&self, encoding: Encoding) -> Bytes {
        match encoding {
            Encoding::Identity if self.body.len() < self.len => {
                let mut out = Vec::with_capacity(self.len);
                let gzip = self.gzip.get().cloned().unwrap_or_default();
                let _ = std::io::Read::read_to_end(
                    &mut flate2::read::GzDecoder::new(&gzip[..]),
                    &mut out,
                );
                Bytes::from(out)
            }
            Encoding::Identity => self.body.clone(),
            Encoding::Gzip => self
                .gzip
                .get_or_init(|| {
                    let mut enc = flate2::write::GzEncoder::new(
                        Vec::with_capacity(self.body.len() / 3),
                        flate2::Compression::new(if self.once { 1 } else { 6 }),
                    );
                    let _ = enc.write_all(&self.body);
                    Bytes::from(enc.finish().unwrap_or_default())
                })
                .clone(),
            Encoding::Brotli => self
                .brotli
                .get_or_init(|| {
                    let mut out = Vec::with_capacity(self.body.len() / 3);
                    {
                        let (quality, window) = if self.once { BROTLI_ONCE } else { BROTLI_KEPT };
                        let mut w = brotli::CompressorWriter::new(&mut out, 4096, quality, window);
                        let _ = w.write_all(&self.body);
                    }
                    Bytes::from(out)
                })
                .clone(),
        }
    }

    /// The answer for this request: 304 when its `If-None-Match` names this body, else the body
    /// in the best encoding the client takes.
    pub fn respond(&self, req: &HttpRequest) -> HttpResponse {
        let encoding = if self.len < COMPRESS_FROM || self.packed {
            Encoding::Identity
        } else {
            Encoding::negotiate(req)
        };
        let etag = format!("\"{}{}\"", self.tag, encoding.suffix());
        let matches = if_none_match(req, &etag);
        let mut res = HttpResponse::build(if matches {
            StatusCode::NOT_MODIFIED
        } else {
            self.status
        });
        for (name, value) in &self.headers {
            res.insert_header((name.clone(), value.clone()));
        }
        res.insert_header((header::ETAG, etag));
        res.append_header((header::VARY, "Accept-Encoding"));
        if matches {
            return res.finish();
        }
        match encoding {
            Encoding::Identity => {}
            Encoding::Gzip => {
                res.insert_header((header::CONTENT_ENCODING, "gzip"));
            }
            Encoding::Brotli => {
                res.insert_header((header::CONTENT_ENCODING, "br"));
            }
        }
        res.body(self.encoded(encoding))
    }
}

/// What an entry costs a cache, in bytes.
pub trait Weigh {
    fn weight(&self) -> u64;
}

impl Weigh for Cached {
    fn weight(&self) -> u64 {
        Cached::weight(self)
    }
}

/// An entry: what it weighs and the value, of the type its owner keeps (an API answer here, a
/// page with its slots in `web`).
#[derive(Clone)]
struct Entry {
    weight: u64,
    value: Arc<dyn std::any::Any + Send + Sync>,
}

impl Entry {
    fn of<V: Weigh + std::any::Any + Send + Sync>(value: Arc<V>) -> Self {
        Self {
            weight: value.weight(),
            value,
        }
    }
}

#[derive(Clone)]
struct ByBytes;

/// The duty to make a missing answer others may be waiting for ([`ResponseCache::get_or_make`]).
pub struct DutyToMake<'a>(Duty<'a>);

enum Duty<'a> {
    Guard(
        quick_cache::sync::PlaceholderGuard<
            'a,
            u128,
            Entry,
            ByBytes,
            quick_cache::DefaultHashBuilder,
            quick_cache::sync::DefaultLifecycle<u128, Entry>,
        >,
        &'a ResponseCache,
        u128,
    ),
    Replace(&'a ResponseCache, u128),
}

/// What those waiting for an answer that is not kept (a redirect, a 404, a private page) are
/// handed: each makes their own at once instead of waiting in turn for one another.
struct NotKept;

impl Weigh for NotKept {
    fn weight(&self) -> u64 {
        64
    }
}

impl DutyToMake<'_> {
    /// Says the answer made is not to be kept: those waiting make their own at once. The mark
    /// they are handed is taken out of the cache again, so addresses nobody keeps (a flood of
    /// made-up ones) leave nothing behind, and the next asker is the maker again.
    pub fn give_up(self) {
        if let Duty::Guard(guard, cache, key) = self.0 {
            drop(guard.insert(Entry::of(Arc::new(NotKept))));
            cache.entries.remove(&key);
        }
    }

    /// Keeps the answer made: the waiters get it, and so does everyone after them.
    pub fn keep<V: Weigh + std::any::Any + Send + Sync>(self, value: Arc<V>) {
        match self.0 {
            // Gone when the placeholder was pushed out meanwhile: the answer is not kept.
            Duty::Guard(guard, ..) => drop(guard.insert(Entry::of(value))),
            Duty::Replace(cache, key) => cache.insert(key, value),
        }
    }
}

impl quick_cache::Weighter<u128, Entry> for ByBytes {
    fn weight(&self, _: &u128, entry: &Entry) -> u64 {
        entry.weight
    }
}

/// Finished answers by key, bounded by bytes: API answers and pages share the one budget
/// (`CACHE_MB`), each kept as its owner's type.
pub struct ResponseCache {
    entries: quick_cache::sync::Cache<u128, Entry, ByBytes>,
    max_bytes: u64,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// The cache as the metrics show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    /// Bytes held, and the most it holds.
    pub bytes: u64,
    pub max_bytes: u64,
}

impl ResponseCache {
    pub fn new(max_bytes: u64) -> Self {
        Self {
            entries: quick_cache::sync::Cache::with_weighter(
                (max_bytes / 16_384).max(16) as usize,
                max_bytes,
                ByBytes,
            ),
            max_bytes,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The answer of type `V` kept under `key`; each lookup counts as a hit or a miss.
    pub fn get<V: std::any::Any + Send + Sync>(&self, key: u128) -> Option<Arc<V>> {
        let found = self
            .entries
            .get(&key)
            .and_then(|e| e.value.downcast::<V>().ok());
        let count = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        count.fetch_add(1, Ordering::Relaxed);
        found
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            bytes: self.entries.weight(),
            max_bytes: self.max_bytes,
        }
    }

    pub fn insert<V: Weigh + std::any::Any + Send + Sync>(&self, key: u128, value: Arc<V>) {
        self.entries.insert(key, Entry::of(value));
    }

    /// The answer of type `V` kept under `key`, or the duty to make it: while one asker makes a
    /// missing answer, the others asking for the same key wait for it instead of making it again
    /// (a crowd asking for a page nobody has yet costs one render). The maker [`DutyToMake::keep`]s
    /// what it made, or gives it up ([`DutyToMake::give_up`]) and the others make their own at
    /// once; a duty dropped unsaid passes to the next waiter. A waiter waits at most
    /// `wait`, then makes its own too (answers that keep failing to be made, a render that times
    /// out, are not made one after the other for a queue of waiters).
    pub async fn get_or_make<V: std::any::Any + Send + Sync>(
        &self,
        key: u128,
        wait: std::time::Duration,
    ) -> Result<Arc<V>, DutyToMake<'_>> {
        let asked = tokio::time::timeout(wait, self.entries.get_value_or_guard_async(&key)).await;
        let made = match asked {
            Err(_waited_long) => Err(DutyToMake(Duty::Replace(self, key))),
            Ok(Ok(entry)) => match entry.value.downcast::<V>() {
                Ok(found) => Ok(found),
                // A key whose answer is not kept ([`DutyToMake::give_up`]), or another type under
                // it (a 128-bit collision of two owners' keys): made again and put in its place.
                Err(_) => Err(DutyToMake(Duty::Replace(self, key))),
            },
            Ok(Err(guard)) => Err(DutyToMake(Duty::Guard(guard, self, key))),
        };
        let count = if made.is_ok() {
            &self.hits
        } else {
            &self.misses
        };
        count.fetch_add(1, Ordering::Relaxed);
        made
    }

    /// The duty to make again an answer found kept under `key` but not whole (a part of it the
    /// cache let go), when making it through [`ResponseCache::get_or_make`] again found it so
    /// again: what is made takes its place.
    pub fn replacing(&self, key: u128) -> DutyToMake<'_> {
        DutyToMake(Duty::Replace(self, key))
    }

    /// Lets go of what is kept under `key` (an answer found not whole): the next
    /// [`ResponseCache::get_or_make`] makes it, the others asking meanwhile waiting for it.
    pub fn remove(&self, key: u128) {
        self.entries.remove(&key);
    }

    /// Bytes held.
    pub fn weight(&self) -> u64 {
        self.entries.weight()
    }
}

/// Whether the request's `If-None-Match` names `etag` (weakly: `W/` on either side is ignored) or
/// any version (`*`).
pub fn if_none_match(req: &HttpRequest, etag: &str) -> bool {
    let etag = etag.trim_start_matches("W/");
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',').any(|t| {
                let t = t.trim().trim_start_matches("W/");
                t == "*" || t == etag
            })
        })
}

/// A key from the parts that shape an answer (each part length-prefixed, so parts cannot run
/// into each other).
pub fn key(parts: &[&[u8]]) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.digest128()
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn page() -> Cached {
        Cached::new(
            StatusCode::OK,
            vec![(header::CONTENT_TYPE, HeaderValue::from_static("text/html"))],
            Bytes::from("<p>beer</p>".repeat(200)),
        )
    }

    /// A crowd asking for one missing answer: one makes it and the others wait for it; when the
    /// maker gives up, the next waiter makes its own.
    #[actix_web::test]
    async fn a_crowd_asking_for_a_missing_answer_makes_it_once() {
        use std::cell::Cell;
        use std::rc::Rc;
        let cache = Rc::new(ResponseCache::new(1 << 20));
        let made = Rc::new(Cell::new(0));
        let wait = std::time::Duration::from_secs(5);
        let ask = |key: u128, give_up: bool| {
            let (cache, made) = (cache.clone(), made.clone());
            async move {
                match cache.get_or_make::<Cached>(key, wait).await {
                    Ok(found) => Some(found.tag().to_string()),
                    Err(making) => {
                        made.set(made.get() + 1);
                        // The make takes a while, as a render does: the others ask meanwhile.
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                        let answer = Arc::new(page());
                        let tag = answer.tag().to_string();
                        if give_up {
                            return None;
                        }
                        making.keep(answer);
                        Some(tag)
                    }
                }
            }
        };
        let tags = futures_util::future::join_all((0..8).map(|_| ask(7, false))).await;
        assert_eq!(made.get(), 1, "one asker made it, seven waited");
        assert!(tags.iter().all(|t| t.is_some() && *t == tags[0]));
        assert_eq!(cache.stats().misses, 1);
        assert_eq!(cache.stats().hits, 7);

        // The first asker gives up (a render that failed): one of the waiters makes it instead.
        made.set(0);
        let tags = futures_util::future::join_all(
            std::iter::once(ask(8, true)).chain((0..5).map(|_| ask(8, false))),
        )
        .await;
        assert_eq!(made.get(), 2, "the quitter and one waiter made it");
        assert_eq!(tags[0], None);
        assert!(tags[1..].iter().all(|t| t.is_some() && *t == tags[1]));
        assert!(cache.get::<Cached>(8).is_some());

        // The first asker says its answer is not to be kept (a redirect, a private page): the
        // waiters make their own at once, all together.
        made.set(0);
        let quitter = cache.clone();
        let gives_up = async move {
            let making = quitter.get_or_make::<Cached>(10, wait).await.err().unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            making.give_up();
        };
        // The waiters' duties are held together: released by the mark, none is the placeholder's
        // (waiting in turn, the first would hold it and the others wait it out).
        let waiters =
            futures_util::future::join_all((0..4).map(|_| cache.get_or_make::<Cached>(10, wait)));
        let (_, duties) = futures_util::future::join(gives_up, waiters).await;
        assert!(duties
            .iter()
            .all(|d| matches!(d, Err(DutyToMake(Duty::Replace(..))))));
        drop(duties);
        // Nothing is left under the key: the next asker is its maker again.
        assert!(matches!(
            cache.get_or_make::<Cached>(10, wait).await,
            Err(DutyToMake(Duty::Guard(..)))
        ));

        // A make that takes longer than a waiter waits: the waiter makes its own.
        made.set(0);
        let slow = cache.clone();
        let duty = slow.get_or_make::<Cached>(9, wait).await;
        assert!(duty.is_err(), "the first asker makes it");
        let waited = cache
            .get_or_make::<Cached>(9, std::time::Duration::from_millis(10))
            .await;
        assert!(waited.is_err(), "waited 10 ms, then made its own");
        if let Err(m) = waited {
            m.keep(Arc::new(page()));
        }
        drop(duty);
        assert!(cache.get::<Cached>(9).is_some());
    }

    #[test]
    fn encodings_follow_accept_encoding() {
        let neg = |v: &str| {
            Encoding::negotiate(
                &TestRequest::default()
                    .insert_header(("accept-encoding", v))
                    .to_http_request(),
            )
        };
        assert_eq!(neg("gzip, deflate, br"), Encoding::Brotli);
        assert_eq!(neg("gzip"), Encoding::Gzip);
        assert_eq!(neg("br;q=0, gzip;q=0.5"), Encoding::Gzip);
        assert_eq!(neg("identity"), Encoding::Identity);
        assert_eq!(
            Encoding::negotiate(&TestRequest::default().to_http_request()),
            Encoding::Identity
        );
    }

    #[test]
    fn compressed_bodies_decode_to_the_page() {
        use std::io::Read;
        // Kept (compressed hard) and answered once (compressed fast): both decode to the body.
        for c in [page(), page().answered_once()] {
            let gz = c.encoded(Encoding::Gzip);
            let mut out = String::new();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_string(&mut out)
                .unwrap();
            assert_eq!(out.as_bytes(), &c.body()[..]);
            let br = c.encoded(Encoding::Brotli);
            let mut out = Vec::new();
            brotli::Decompressor::new(&br[..], 4096)
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, &c.body()[..]);
            assert!(br.len() < c.body().len() / 10);
        }
    }

    #[test]
    fn an_answer_kept_compressed_only_answers_every_client_the_same_page() {
        use std::io::Read;
        let whole = page();
        let body = whole.body().clone();
        let tag = whole.tag().to_string();
        let kept = page().compressed_only();
        assert!(kept.body().is_empty());
        assert_eq!(kept.tag(), tag, "the same validator");
        assert!(kept.weight() < whole.weight() / 5, "{}", kept.weight());
        let ask = |accept: Option<&str>| {
            let mut r = TestRequest::default();
            if let Some(a) = accept {
                r = r.insert_header(("accept-encoding", a));
            }
            kept.respond(&r.to_http_request())
        };
        for (accept, coding) in [(Some("br"), "br"), (Some("gzip"), "gzip"), (None, "")] {
            let res = ask(accept);
            assert_eq!(res.status(), StatusCode::OK);
            let got = res
                .headers()
                .get("content-encoding")
                .map_or("", |v| v.to_str().unwrap())
                .to_string();
            assert_eq!(got, coding);
            let bytes = actix_web::rt::System::new()
                .block_on(actix_web::body::to_bytes(res.into_body()))
                .unwrap();
            let mut out = Vec::new();
            match coding {
                "br" => {
                    brotli::Decompressor::new(&bytes[..], 4096)
                        .read_to_end(&mut out)
                        .unwrap();
                }
                "gzip" => {
                    flate2::read::GzDecoder::new(&bytes[..])
                        .read_to_end(&mut out)
                        .unwrap();
                }
                _ => out = bytes.to_vec(),
            }
            assert_eq!(out, &body[..], "{accept:?}");
        }
        // A body too small to compress is kept as it is.
        let small = Cached::new(StatusCode::OK, vec![], Bytes::from_static(b"<p>beer</p>"));
        let small = small.compressed_only();
        assert_eq!(&small.body()[..], b"<p>beer</p>");
    }

    #[test]
    fn a_known_etag_is_answered_304() {
        let c = page();
        let req = TestRequest::default()
            .insert_header(("accept-encoding", "br"))
            .to_http_request();
        let first = c.respond(&req);
        assert_eq!(first.status(), StatusCode::OK);
        assert_eq!(first.headers().get("content-encoding").unwrap(), "br");
        let etag = first.headers().get("etag").unwrap().clone();
        let again = TestRequest::default()
            .insert_header(("accept-encoding", "br"))
            .insert_header(("if-none-match", etag))
            .to_http_request();
        assert_eq!(c.respond(&again).status(), StatusCode::NOT_MODIFIED);
    }

    #[test]
    fn the_cache_is_bounded_by_bytes() {
        let cache = ResponseCache::new(100_000);
        for i in 0..100u32 {
            cache.insert(key(&[&i.to_le_bytes()]), Arc::new(page()));
        }
        assert!(cache.weight() <= 100_000, "{}", cache.weight());
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
    }
}
