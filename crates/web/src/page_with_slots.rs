//! A shared page with the shopper's own small parts left open (docs/shopping.md, "Carts, checkout
//! and orders": shared pages, the shopper's own parts): the page is rendered once for everyone with
//! the same data, with sentinels where a visitor's parts go (the CSRF token of their session,
//! their first name, the cart count, the cart drawer's body, the visitor's part of the page
//! state). Each answer fills them in: escaped as the renderer escapes text in the HTML, as JSON in
//! the page state.
//!
//! Filling must not cost a compression per answer: the static stretches between the slots are
//! compressed once, each as raw DEFLATE ending on a full flush (byte-aligned, no shared window),
//! so an answer is the gzip header, the stretches with the filled slots between them as stored
//! blocks, an empty final block, and the CRC-32 combined from the stretches' (crc32fast's
//! `combine`) and run on through the slots' bytes. Brotli streams cannot be spliced so; a filled page goes as gzip (or uncompressed).

use std::io::Write;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use framework::cache::{Cached, Encoding, Weigh};

/// The sentinels: a private-use character around a name and a random nonce made when the process
/// starts, so that nothing a visitor types or puts in an address can stand for one (they cannot
/// know the nonce); the page cache lives no longer than the process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentinels {
    pub csrf: String,
    pub firstname: String,
    pub count: String,
    /// The cart link's accessible name: `Cart, 1 item`, `Cart, 3 items`
    /// (ui/src/features/cart/rules.ts).
    pub label: String,
    pub drawer: String,
    /// The visitor's part of the page state (`"visitor":"<sentinel>"` in the state's JSON).
    pub visitor: String,
    /// The cart's revision a refill form sends (one refill per click).
    pub revision: String,
    /// The shopper's barangay id in a page shared by the places of a city
    /// (`crate::shared_by_city`): a number of 15 digits, so that it stays a number where the page
    /// state holds one and the bundle reads it as exactly as a barangay's id.
    pub place_id: String,
    /// The shopper's barangay's name in such a page.
    pub place_name: String,
}

/// This process's sentinels.
pub fn sentinels() -> &'static Sentinels {
    static SENTINELS: std::sync::OnceLock<Sentinels> = std::sync::OnceLock::new();
    SENTINELS.get_or_init(|| {
        let nonce = framework::session::hash(&framework::session::new_token());
        let s = |name: &str| format!("\u{E000}{name}:{}\u{E000}", &nonce[..32]);
        Sentinels {
            csrf: s("csrf"),
            firstname: s("firstname"),
            count: s("count"),
            label: s("label"),
            drawer: s("drawer"),
            visitor: s("visitor"),
            revision: s("revision"),
            place_id: (100_000_000_000_000
                + u64::from_str_radix(&nonce[32..44], 16).unwrap_or(1) % 900_000_000_000_000)
                .to_string(),
            place_name: s("place"),
        }
    })
}

/// Which part a slot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Csrf,
    FirstName,
    Count,
    Label,
    Drawer,
    /// In the page state's JSON: the whole quoted sentinel is replaced by a JSON value.
    Visitor,
    Revision,
    /// A barangay's id (`crate::shared_by_city`): digits, the same in the HTML and the state.
    PlaceId,
    /// A barangay's name (`crate::shared_by_city`).
    PlaceName,
}

/// Where a slot sits: in the HTML (the renderer's text escaping) or inside a JSON string of the
/// state script (JSON escaping, `<` as `\u003c`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Html,
    Json,
}

/// A visitor's parts. `drawer` is HTML already rendered by the renderer; `visitor` is JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fill<'a> {
    pub csrf: &'a str,
    pub firstname: &'a str,
    pub count: u32,
    pub drawer: &'a str,
    pub visitor: &'a str,
    /// The cart's revision (0 without a cart).
    pub revision: i64,
    /// The shopper's barangay, in a page shared by the places of its city
    /// (`crate::shared_by_city`).
    pub place: Option<&'a Place>,
}

/// The header that names the session a shop page was filled for, and the one that says when a
/// member's ends (`framework::session`).
pub use framework::session::{
    PAGE_SESSION_ENDS_HEADER as SESSION_ENDS_HEADER, PAGE_SESSION_HEADER as SESSION_HEADER,
};

/// What [`SESSION_HEADER`] says for a session whose CSRF token is `csrf` (empty: no session),
/// filled for the member named `firstname` (empty: a guest). A member's session that ended while
/// the browser kept its cookie is then a guest's, with another tag.
pub fn session_tag(csrf: &str, firstname: &str) -> String {
    if csrf.is_empty() {
        return String::new();
    }
    let key = framework::cache::key(&[
        b"the session the worker keeps pages for",
        csrf.as_bytes(),
        firstname.as_bytes(),
    ]);
    format!("{key:032x}")[..20].to_string()
}

/// A shopper's barangay as a page shared by the places of its city names it
/// (`crate::shared_by_city`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub id: i64,
    pub name: String,
}

struct Stretch {
    raw: Bytes,
    /// The stretch deflated and its CRC-32: made when a kept page is split, or for a page
    /// answered once when its first filling is spliced (a page filled as it is never needs it).
    packed: std::sync::OnceLock<(Bytes, crc32fast::Hasher)>,
}

/// A page with its slots: static stretches (each compressed once) and the slots between them.
pub struct SlottedBody {
    stretches: Vec<Stretch>,
    /// `slots[i]` sits after `stretches[i]`.
    slots: Vec<(Slot, Context)>,
    /// A hash of the stretches and the slots between them: the same for the same page from one
    /// start of the store to the next (the sentinels' nonce is not in it).
    static_tag: u128,
}

/// The sentinels that begin with the private-use character (the place's id, digits, is found
/// by a pass of its own in [`SlottedBody::new`]).
fn each() -> [(&'static str, Slot); 8] {
    let s = sentinels();
    [
        (s.csrf.as_str(), Slot::Csrf),
        (s.firstname.as_str(), Slot::FirstName),
        (s.count.as_str(), Slot::Count),
        (s.label.as_str(), Slot::Label),
        (s.drawer.as_str(), Slot::Drawer),
        (s.visitor.as_str(), Slot::Visitor),
        (s.revision.as_str(), Slot::Revision),
        (s.place_name.as_str(), Slot::PlaceName),
    ]
}

/// The state script's opening tag (the shell's).
const STATE_OPEN: &str = r#"<script type="application/json" id="__STATE__">"#;

impl SlottedBody {
    /// Splits a page at its sentinels; `None` when it has none.
    pub fn new(page: &str) -> Option<Self> {
        let state = page
            .find(STATE_OPEN)
            .map(|s| (s, page[s..].find("</script>").map_or(page.len(), |e| s + e)));
        let mut found: Vec<(usize, usize, Slot, Context)> = Vec::new();
        let each = each();
        // One pass for the sentinels that begin with the private-use character, one for the
        // place's id (digits).
        let mut at_marks = Vec::new();
        let mut from = 0;
        while let Some(i) = page[from..].find('\u{E000}') {
            let at = from + i;
            match each.iter().find(|(s, _)| page[at..].starts_with(s)) {
                Some((s, slot)) => {
                    at_marks.push((at, *s, *slot));
                    from = at + s.len();
                }
                None => from = at + '\u{E000}'.len_utf8(),
            }
        }
        let place_id = sentinels().place_id.as_str();
        let ids = page
            .match_indices(place_id)
            .map(|(at, _)| (at, place_id, Slot::PlaceId));
        for (at, sentinel, slot) in at_marks.into_iter().chain(ids) {
            let json = state.is_some_and(|(s, e)| at > s && at < e);
            let (start, end) = if json && slot == Slot::Visitor {
                // The quotes go too: a JSON value takes their place.
                (at - 1, at + sentinel.len() + 1)
            } else {
                (at, at + sentinel.len())
            };
            let context = if json { Context::Json } else { Context::Html };
            found.push((start, end, slot, context));
        }
        if found.is_empty() {
            return None;
        }
        found.sort_by_key(|f| f.0);
        let mut stretches = Vec::new();
        let mut slots = Vec::new();
        let mut from = 0;
        for (start, end, slot, context) in found {
            stretches.push(Stretch::new(&page.as_bytes()[from..start]));
            slots.push((slot, context));
            from = end;
        }
        stretches.push(Stretch::new(&page.as_bytes()[from..]));
        let kinds: Vec<u8> = slots
            .iter()
            .map(|(s, c)| (*s as u8) << 1 | *c as u8)
            .collect();
        let mut parts: Vec<&[u8]> = stretches.iter().map(|s| s.raw.as_ref()).collect();
        parts.push(&kinds);
        let static_tag = framework::cache::key(&parts);
        Some(Self {
            stretches,
            slots,
            static_tag,
        })
    }

    /// What the page and its compressed stretches weigh.
    pub fn weight(&self) -> u64 {
        self.stretches
            .iter()
            .map(|s| (s.raw.len() + s.packed.get().map_or(0, |p| p.0.len())) as u64)
            .sum::<u64>()
            + 64 * self.slots.len() as u64
    }

    fn value(&self, slot: Slot, context: Context, fill: &Fill) -> String {
        let text = |s: &str| match context {
            Context::Html => html_escape(s),
            Context::Json => json_escape(s),
        };
        match slot {
            Slot::Csrf => text(fill.csrf),
            Slot::FirstName => text(fill.firstname),
            Slot::Count => fill.count.to_string(),
            Slot::Label => api::cart::visitor::cart_label(fill.count),
            Slot::Drawer => fill.drawer.to_string(),
            Slot::Revision => fill.revision.to_string(),
            Slot::PlaceId => fill.place.map_or_else(String::new, |p| p.id.to_string()),
            Slot::PlaceName => fill.place.map_or_else(String::new, |p| text(&p.name)),
            Slot::Visitor => match context {
                Context::Json => fill.visitor.replace('<', "\\u003c"),
                Context::Html => String::new(),
            },
        }
    }

    /// A validator of the page with `fill`'s parts: the page's static stretches and every part
    /// filled in, and the encoding.
    fn etag(&self, fill: &Fill, gzip: bool) -> String {
        let place_id = fill.place.map_or(0, |p| p.id).to_le_bytes();
        let filled = framework::cache::key(&[
            fill.csrf.as_bytes(),
            fill.firstname.as_bytes(),
            &fill.count.to_le_bytes(),
            fill.drawer.as_bytes(),
            fill.visitor.as_bytes(),
            &fill.revision.to_le_bytes(),
            &place_id,
            fill.place.map_or("", |p| p.name.as_str()).as_bytes(),
        ]);
        let encoding = if gzip { "gz" } else { "id" };
        format!("W/\"{:032x}-{:032x}-{encoding}\"", self.static_tag, filled)
    }

    /// The page with `fill`'s parts, uncompressed.
    pub fn uncompressed(&self, fill: &Fill) -> Bytes {
        let mut out =
            Vec::with_capacity(self.stretches.iter().map(|s| s.raw.len()).sum::<usize>() + 1024);
        for (i, s) in self.stretches.iter().enumerate() {
            out.extend_from_slice(&s.raw);
            if let Some((slot, context)) = self.slots.get(i) {
                out.extend_from_slice(self.value(*slot, *context, fill).as_bytes());
            }
        }
        Bytes::from(out)
    }

    /// The page with `fill`'s parts as a gzip stream, without compressing anything but the
    /// stretches compressed once.
    pub fn gzip(&self, fill: &Fill) -> Bytes {
        let mut out = Vec::with_capacity(
            self.stretches
                .iter()
                .map(|s| s.packed().0.len())
                .sum::<usize>()
                + 1024,
        );
        // Header: deflate, no flags, no time, unknown OS.
        out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
        let mut crc = crc32fast::Hasher::new();
        for (i, s) in self.stretches.iter().enumerate() {
            let (deflated, stretch_crc) = s.packed();
            out.extend_from_slice(deflated);
            crc.combine(stretch_crc);
            if let Some((slot, context)) = self.slots.get(i) {
                let value = self.value(*slot, *context, fill);
                stored_blocks(&mut out, value.as_bytes());
                // The running CRC goes on through the slot's bytes (no combine of a hasher of
                // its own, whose cost grows with the length's bits).
                crc.update(value.as_bytes());
            }
        }
        // The final block: empty, stored.
        out.extend_from_slice(&[0x01, 0x00, 0x00, 0xff, 0xff]);
        let len = crc.total_len();
        out.extend_from_slice(&crc.finalize().to_le_bytes());
        out.extend_from_slice(&(len as u32).to_le_bytes());
        Bytes::from(out)
    }
}

impl Stretch {
    fn new(raw: &[u8]) -> Self {
        Self {
            raw: Bytes::copy_from_slice(raw),
            packed: std::sync::OnceLock::new(),
        }
    }

    fn packed(&self) -> &(Bytes, crc32fast::Hasher) {
        self.packed.get_or_init(|| {
            // Each stretch is its own encoder, flushed (a sync flush ends it byte-aligned with an
            // empty stored block) and never finished: no final block, and nothing after it
            // refers back into it. What the dropped encoder writes on drop goes nowhere.
            let mut c = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(6));
            let _ = c.write_all(&self.raw);
            let _ = c.flush();
            let deflated = std::mem::take(c.get_mut());
            drop(c);
            let mut crc = crc32fast::Hasher::new();
            crc.update(&self.raw);
            (Bytes::from(deflated), crc)
        })
    }
}

/// Appends `data` as non-final stored DEFLATE blocks (at a byte boundary).
fn stored_blocks(out: &mut Vec<u8>, data: &[u8]) {
    for chunk in data.chunks(65_535) {
        let len = chunk.len() as u16;
        out.push(0x00);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
}

/// Text as React's server renderer escapes it in HTML, text and attribute values alike: `"`, `&`,
/// `'`, `<` and `>` (react-dom's `escapeTextForBrowser`), nothing else.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&#x27;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Text inside a JSON string of a `<script>`: JSON escaping, `<` as `\u003c`.
fn json_escape(s: &str) -> String {
    let quoted = serde_json::Value::from(s).to_string();
    quoted[1..quoted.len() - 1].replace('<', "\\u003c")
}

/// A finished page and its open slots (the visitor's own parts), when it has any: what the page
/// cache keeps.
pub struct Page {
    answer: Cached,
    slots: Option<SlottedBody>,
}

impl Page {
    /// A page whose body may hold the sentinels: its slots are found once, here. A page with
    /// slots is kept as its stretches alone (every answer is filled from them), compressed now
    /// when it is kept (a page answered once is compressed only if it is spliced).
    pub fn new(answer: Cached) -> Self {
        let slots = std::str::from_utf8(answer.body())
            .ok()
            .and_then(SlottedBody::new);
        if let (Some(slots), false) = (&slots, answer.is_answered_once()) {
            for s in &slots.stretches {
                s.packed();
            }
        }
        let answer = if slots.is_some() {
            answer.without_body()
        } else {
            answer
        };
        Self { answer, slots }
    }

    /// Whether the body has slots to fill.
    pub fn has_slots(&self) -> bool {
        self.slots.is_some()
    }

    /// The body with `fill`'s parts (the body itself without slots).
    pub fn filled_uncompressed(&self, fill: &Fill) -> Bytes {
        self.slots
            .as_ref()
            .map_or_else(|| self.answer.body().clone(), |s| s.uncompressed(fill))
    }

    /// The page with a visitor's parts filled in, gzip-spliced when the client takes gzip. It is
    /// that visitor's own. A page with account forms or one shopper's data is kept nowhere
    /// (private, no-store: `crate::page` says so in its headers). A shop page may be kept by that
    /// shopper's browser and its service worker (private, no-cache), with a validator made of the
    /// page and the parts filled in (answered 304 while both are the same), and names the session
    /// it was filled for ([`SESSION_HEADER`]) and, a member's, in how many seconds (`ends_in`)
    /// that session ends ([`SESSION_ENDS_HEADER`]), so that the worker keeps a shopper's pages
    /// only while that shopper is the one at the browser (docs/shopping.md, "On a slow or
    /// dropping link").
    pub fn respond_filled(
        &self,
        req: &HttpRequest,
        fill: &Fill,
        ends_in: Option<i64>,
    ) -> HttpResponse {
        let Some(slots) = &self.slots else {
            return self.answer.respond(req);
        };
        let kept_nowhere = self.answer.headers().iter().any(|(name, value)| {
            name == header::CACHE_CONTROL && value.to_str().is_ok_and(|v| v.contains("no-store"))
        });
        // A filled page is spliced as gzip only (Brotli streams cannot be spliced): a client that
        // does not take gzip gets it as it is.
        let gzip = Encoding::allows(req, "gzip");
        let etag = (!kept_nowhere).then(|| slots.etag(fill, gzip));
        let unchanged = etag
            .as_deref()
            .is_some_and(|etag| framework::cache::if_none_match(req, etag));
        let mut res = HttpResponse::build(if unchanged {
            actix_web::http::StatusCode::NOT_MODIFIED
        } else {
            self.answer.status()
        });
        for (name, value) in self.answer.headers() {
            res.insert_header((name.clone(), value.clone()));
        }
        match &etag {
            None => {
                for (name, value) in framework::request::PRIVATE {
                    res.insert_header((name, value));
                }
            }
            Some(etag) => {
                res.insert_header((header::CACHE_CONTROL, "private, no-cache"));
                res.insert_header((header::ETAG, etag.as_str()));
                res.insert_header((SESSION_HEADER, session_tag(fill.csrf, fill.firstname)));
                if let Some(seconds) = ends_in {
                    res.insert_header((SESSION_ENDS_HEADER, seconds.to_string()));
                }
            }
        }
        res.append_header((header::VARY, "Accept-Encoding"));
        if unchanged {
            return res.finish();
        }
        if gzip {
            res.insert_header((header::CONTENT_ENCODING, "gzip"));
            res.body(slots.gzip(fill))
        } else {
            res.body(slots.uncompressed(fill))
        }
    }
}

impl std::ops::Deref for Page {
    type Target = Cached;

    fn deref(&self) -> &Cached {
        &self.answer
    }
}

impl Weigh for Page {
    fn weight(&self) -> u64 {
        self.answer.weight() + self.slots.as_ref().map_or(0, SlottedBody::weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn page() -> String {
        let s = sentinels();
        format!(
            "<html><body><form><input name=\"csrf\" value=\"{csrf}\"></form><summary>{first}</summary><span>{count}</span><div>{drawer}</div>{}<script type=\"application/json\" id=\"__STATE__\">{{\"csrf\":\"{csrf}\",\"member\":{{\"firstname\":\"{first}\"}},\"visitor\":\"{visitor}\"}}</script></body></html>",
            "<p>beer</p>".repeat(500),
            csrf = s.csrf,
            first = s.firstname,
            count = s.count,
            drawer = s.drawer,
            visitor = s.visitor,
        )
    }

    fn fill() -> Fill<'static> {
        Fill {
            csrf: "tok-EN_1",
            firstname: "Ana <\"Bea\"> & 'Cy'",
            count: 3,
            drawer: "<ul><li>Tala x 24</li></ul>",
            visitor: r#"{"cart_count":3,"cart":{"x":"</script>"}}"#,
            revision: 7,
            place: None,
        }
    }

    #[test]
    fn slots_are_filled_in_their_context() {
        let s = SlottedBody::new(&page()).expect("slots");
        let body = String::from_utf8(s.uncompressed(&fill()).to_vec()).unwrap();
        assert!(body.contains(r#"value="tok-EN_1""#));
        assert!(
            body.contains("<summary>Ana &lt;&quot;Bea&quot;&gt; &amp; &#x27;Cy&#x27;</summary>")
        );
        assert!(body.contains("<span>3</span><div><ul><li>Tala x 24</li></ul></div>"));
        let state = &body[body.find("__STATE__").unwrap() + 11..];
        assert!(state.starts_with(r#"{"csrf":"tok-EN_1","member":{"firstname":"Ana \u003c\"Bea\"> & 'Cy'"},"visitor":{"cart_count":3,"cart":{"x":"\u003c/script>"}}}"#), "{state}");
        assert!(!body.contains('\u{E000}'));
    }

    #[test]
    fn the_spliced_gzip_is_the_filled_page() {
        let s = SlottedBody::new(&page()).expect("slots");
        for f in [fill(), Fill::default()] {
            let gz = s.gzip(&f);
            let mut out = String::new();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_string(&mut out)
                .expect("a valid gzip stream");
            assert_eq!(out.as_bytes(), &s.uncompressed(&f)[..]);
            assert!(gz.len() < out.len() / 3, "the stretches stay compressed");
        }
    }

    #[test]
    fn a_place_is_filled_where_the_page_names_it() {
        let s = sentinels();
        let page = format!(
            "<p>{name}, Makati City</p><a href=\"/x?barangay={id}\">{}</a><script type=\"application/json\" id=\"__STATE__\">{{\"gate\":{{\"barangayId\":{id},\"barangayName\":\"{name}\"}},\"q\":[\"/api/v1/products?barangay={id}&page=2\"]}}</script>",
            "beer ".repeat(300),
            id = s.place_id,
            name = s.place_name,
        );
        let slotted = SlottedBody::new(&page).expect("slots");
        let place = Place {
            id: 1_380_300_006,
            name: "Dasmariñas & \"Village\" <O'Hara>".into(),
        };
        let f = Fill {
            place: Some(&place),
            ..Fill::default()
        };
        let body = String::from_utf8(slotted.uncompressed(&f).to_vec()).unwrap();
        assert!(body.starts_with(
            "<p>Dasmariñas &amp; &quot;Village&quot; &lt;O&#x27;Hara&gt;, Makati City</p><a href=\"/x?barangay=1380300006\">"
        ));
        assert!(body.ends_with(r#"{"gate":{"barangayId":1380300006,"barangayName":"Dasmariñas & \"Village\" \u003cO'Hara>"},"q":["/api/v1/products?barangay=1380300006&page=2"]}</script>"#), "{body}");
        let mut out = String::new();
        flate2::read::GzDecoder::new(&slotted.gzip(&f)[..])
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, body);
        assert_eq!(s.place_id.len(), 15, "a number the bundle reads exactly");
        assert!(s.place_id.bytes().all(|b| b.is_ascii_digit()));
    }

    #[test]
    fn typed_sentinel_lookalikes_are_text() {
        let page = "<p>\u{E000}csrf\u{E000} \u{E000}visitor\u{E000}</p>";
        assert!(
            SlottedBody::new(page).is_none(),
            "without the nonce nothing is a slot"
        );
    }

    #[test]
    fn a_page_without_sentinels_has_no_slots() {
        assert!(SlottedBody::new("<p>beer</p>").is_none());
    }
}
