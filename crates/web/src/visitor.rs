//! The visitor's own small parts of a page: the CSRF token of their session, their
//! first name, the cart's count and the cart drawer's body, and the visitor's part of the page
//! state. Shared pages are rendered once with sentinels there ([`crate::page_with_slots`]) and
//! filled per answer; the parts of a visitor with a cart are made once per cart revision and place
//! (the `cart_v` cookie every cart change sends), kept in memory, so browsing costs neither SQL
//! nor QuickJS while nothing changed. What the cart's parts hold and the drawer is rendered from
//! are the cart's (`api::cart::visitor`); here they are rendered, kept and filled in.

use std::sync::Arc;

use crate::page_with_slots::Fill;
use actix_web::HttpRequest;
use api::accounts::user::MemberView;
use api::cart::visitor::{drawer_input, Visitor};
use api::gate::Choices;
use serde_json::{json, Value};

use crate::WebState;

/// A visitor's cart parts, as filled into a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parts {
    pub count: u32,
    /// The cart's revision (0 without a cart).
    pub revision: i64,
    /// The drawer's body as the renderer renders it.
    pub drawer: String,
    /// `{"cart_count", "cart", "cart_revision"}`: the visitor's part of the page state.
    pub json: String,
}

/// Renders the drawer's body for `cart` (memoised by the render pool); empty on failure, which
/// the client repairs when it hydrates.
async fn drawer(state: &WebState, cart: &Value) -> String {
    match state.renderer.render(drawer_input(cart)).await {
        Ok(r) => serde_json::from_str::<Value>(&r.output)
            .ok()
            .and_then(|v| v["html"].as_str().map(str::to_string))
            .unwrap_or_default(),
        Err(e) => {
            log::warn!("ssr cart drawer: {e}");
            String::new()
        }
    }
}

/// The parts of a visitor with an empty cart (made once).
pub async fn empty(state: &WebState) -> Arc<Parts> {
    let key = framework::cache::key(&[b"visitor parts", b"empty"]);
    if let Some(p) = state.visitors.get(&key) {
        return p;
    }
    let parts = Arc::new(Parts {
        count: 0,
        revision: 0,
        drawer: drawer(state, &Value::Null).await,
        json: serde_json::to_value(Visitor::none())
            .unwrap_or_default()
            .to_string(),
    });
    state.visitors.insert(key, parts.clone());
    parts
}

/// The parts of this visitor: the empty ones without a cart cookie or a member; else made from
/// the cart priced for the gate's place, kept per cart revision.
pub async fn parts(
    req: &HttpRequest,
    state: &WebState,
    member: Option<&MemberView>,
    choices: &Choices,
) -> Arc<Parts> {
    let cart = api::cart::cookie(req);
    if member.is_none() && cart.is_none() {
        return empty(state).await;
    }
    let data_version = state.api.watch.data_version();
    let id = |v: Option<i64>| v.unwrap_or(0).to_le_bytes();
    let key = |owner: &str, revision: &str| {
        framework::cache::key(&[
            b"visitor parts",
            owner.as_bytes(),
            revision.as_bytes(),
            &id(choices.barangay.map(|b| b.get())),
            &id(choices.fulfillment.map(|f| i64::from(f.get()))),
            &data_version.to_le_bytes(),
        ])
    };
    let Some((owner, revision, trusted)) = whose(req, state, member, cart.as_deref()).await else {
        return empty(state).await;
    };
    let key = key(&owner, &revision);
    if let Some(p) = state.visitors.get(&key) {
        return p;
    }
    let (barangay, fulfillment) = (choices.barangay, choices.fulfillment);
    let visitor = state
        .api
        .run(framework::Caller::of_page(req), move |ctx| {
            api::cart::visitor::visitor(ctx, barangay, fulfillment)
        })
        .await;
    let visitor = match visitor {
        Ok(v) => v,
        Err(e) => {
            // The page still shows; its count and drawer are the empty ones this time.
            log::warn!("visitor parts: {e}");
            return empty(state).await;
        }
    };
    let keep = trusted
        || visitor
            .cart
            .as_ref()
            .is_some_and(|c| c.revision.to_string() == revision);
    if visitor.cart_count == 0 && visitor.cart_revision == 0 {
        return empty(state).await;
    }
    let parts = made(state, &visitor).await;
    if keep {
        state.visitors.insert(key, parts.clone());
    }
    parts
}

/// Whose parts these are and by which revision they are kept: a member's cart changes on any
/// device, so their parts are kept by the revision the database holds (one indexed read, trusted);
/// a guest's cart is this browser's, kept by the revision its last change sent (`cart_v`), and
/// only once the database agrees, so a made-up one keeps nothing. `None`: the database failed.
async fn whose(
    req: &HttpRequest,
    state: &WebState,
    member: Option<&MemberView>,
    cart: Option<&str>,
) -> Option<(String, String, bool)> {
    let Some(m) = member else {
        let version = req
            .cookie(api::cart::VERSION_COOKIE)
            .map(|c| c.value().to_string())
            .unwrap_or_default();
        return Some((
            api::cart::guest_key(cart.unwrap_or_default()),
            version,
            false,
        ));
    };
    let id = m.id;
    let revision = state
        .api
        .run(framework::Caller::default(), move |ctx| {
            api::cart::visitor::member_revision(ctx, id)
        })
        .await;
    match revision {
        Ok(r) => Some((format!("member {}", m.id), r.to_string(), true)),
        Err(e) => {
            log::warn!("visitor parts: {e}");
            None
        }
    }
}

/// The parts of a visitor's cart. An emptied cart shows nothing, but its revision is what the
/// page's refill forms send (one refill per click), so it is this visitor's own.
async fn made(state: &WebState, visitor: &Visitor) -> Arc<Parts> {
    if visitor.cart_count == 0 {
        let empty = empty(state).await;
        return Arc::new(Parts {
            count: 0,
            revision: visitor.cart_revision,
            drawer: empty.drawer.clone(),
            json: serde_json::to_string(visitor).unwrap_or_default(),
        });
    }
    let cart = serde_json::to_value(&visitor.cart).unwrap_or(Value::Null);
    Arc::new(Parts {
        count: visitor.cart_count,
        revision: visitor.cart_revision,
        drawer: drawer(state, &cart).await,
        json: serde_json::to_string(visitor).unwrap_or_default(),
    })
}

impl Parts {
    /// Nothing of the visitor's own: no cart, or one never changed.
    pub fn is_nobodys(&self) -> bool {
        self.count == 0 && self.revision == 0
    }
}

/// What a visitor's parts weigh in memory (the cache is bounded by bytes).
#[derive(Clone)]
pub struct ByBytes;

impl quick_cache::Weighter<u128, Arc<Parts>> for ByBytes {
    fn weight(&self, _: &u128, p: &Arc<Parts>) -> u64 {
        (p.drawer.len() + p.json.len() + 64) as u64
    }
}

/// The visitors' parts kept in memory: at most this many bytes.
pub const PARTS_BYTES: u64 = 32 << 20;

/// The cache of visitors' parts.
pub type PartsCache = quick_cache::sync::Cache<u128, Arc<Parts>, ByBytes>;

pub fn parts_cache() -> PartsCache {
    quick_cache::sync::Cache::with_weighter(20_000, PARTS_BYTES, ByBytes)
}

/// The visitor's part of a page rendered for that visitor alone (not shared).
pub fn own_input(parts: &Parts) -> Value {
    serde_json::from_str(&parts.json).unwrap_or(Value::Null)
}

/// The render input's visitor part of a shared page: the sentinels the client never sees (the
/// page state carries the visitor's own part instead).
pub fn shared_input() -> Value {
    let s = crate::page_with_slots::sentinels();
    json!({
        "cart_count": 0,
        "cart": null,
        "shared": true,
        "slots": { "count": s.count, "label": s.label, "drawer": s.drawer, "revision": s.revision },
    })
}

/// What fills a shared page for this visitor.
pub fn fill<'a>(parts: &'a Parts, csrf: &'a str, member: Option<&'a MemberView>) -> Fill<'a> {
    Fill {
        csrf,
        firstname: member.map_or("", |m| m.firstname.as_str()),
        count: parts.count,
        drawer: &parts.drawer,
        visitor: &parts.json,
        revision: parts.revision,
        place: None,
    }
}
