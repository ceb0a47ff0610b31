//! The cart: items in units grouped into cases by case type, priced
//! for a barangay with deposits, returned empties and the delivery fee; add, change, remove,
//! return empties, and the members' checkout verification.
//!
//! Whose cart: a member's is theirs wherever they log in; a guest's belongs to the browser, named
//! by a long-lived HttpOnly cookie ([`COOKIE`], 30 days) so that it outlives the 60-minute guest
//! session (a client that sends a bearer token and keeps no cookies has the cart of its session).
//! Nobody reaches a cart by naming an id. Reading needs no session (no session and no cart
//! cookie: an empty cart); a change needs a live session or the cart cookie (401 otherwise: the
//! client then starts a guest session, `POST /guest-token`, and sends the change again).
//!
//! What a cart holds is kept whatever the place: an item not sold in the barangay priced for, or
//! out of stock, stays in the cart, is listed by name with the reason, counts in no total and
//! blocks checkout until the shopper removes it. Nothing is dropped silently.

use actix_web::HttpRequest;
use db::carts::{CartRow, Owner};
use db::places::Place;
use domain::cases;
use domain::{BarangayId, FulfillmentId, ProductId, StreetId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

pub mod add;
pub mod change;
pub mod empties;
pub mod merge;
pub mod pricing;
pub mod read;
pub mod verify;
pub mod visitor;

framework::export_const!(
    /// The most of one product a cart (or a Go-to Case) holds.
    MAX_QUANTITY = cases::MAX_QUANTITY
);
framework::export_const!(
    /// The most products a cart (or a Go-to Case) holds.
    MAX_PRODUCTS = cases::MAX_PRODUCTS
);

use crate::catalog::ProductView;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::{ApiError, DisabledProduct};
use pricing::{
    is_keg, price, resets, unavailable_reason, CartAnswer, CartConflict, PriceInput, Pricing, EMPTY,
};

/// The browser's cart cookie.
pub const COOKIE: &str = "cart";
/// How long a browser keeps its cart cookie (renewed by every change).
pub const COOKIE_DAYS: i64 = 30;

/// The cart cookie of a request, when it has the shape of one.
pub fn cookie(req: &HttpRequest) -> Option<String> {
    req.cookie(COOKIE)
        .map(|c| c.value().to_string())
        .filter(|t| well_formed(t))
}

fn well_formed(token: &str) -> bool {
    token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The cookie that names the cart's revision the browser last saw change: part of the key of
/// the visitor's parts of a page, so a change (on any app server) makes them again.
pub const VERSION_COOKIE: &str = "cart_v";

// The cart cookie speaks for the guest as the session's does: held to the cross-site rule.
inventory::submit! { framework::origin::CredentialCookie(COOKIE) }

/// The browser's cart cookie of the call's request (when it has the shape of one), and whether
/// the session token came as a bearer token.
pub fn browser_cookie<'c>(ctx: &'c Ctx) -> (Option<&'c str>, bool) {
    (ctx.cookie(COOKIE).filter(|t| well_formed(t)), ctx.bearer())
}

/// A cart cookie as the store sends it: HttpOnly, SameSite=Lax, [`COOKIE_DAYS`] days.
fn cart_cookie(ctx: &Ctx, name: &'static str, value: String) -> actix_web::cookie::Cookie<'static> {
    let mut cookie = actix_web::cookie::Cookie::new(name, value);
    cookie.set_path("/");
    cookie.set_http_only(true);
    cookie.set_secure(ctx.config.secure_cookies);
    cookie.set_same_site(actix_web::cookie::SameSite::Lax);
    cookie.set_max_age(actix_web::cookie::time::Duration::days(COOKIE_DAYS));
    cookie
}

/// Gives the browser a new cart token (a first cart, or a new one after an order).
pub fn issue(ctx: &mut Ctx, token: String) {
    let cookie = cart_cookie(ctx, COOKIE, token);
    ctx.send_cookie(cookie);
}

/// The call changed the cart: its new revision goes back in the [`VERSION_COOKIE`], so the
/// visitor's parts of the pages (count, drawer) are made again, and the browser's cart cookie
/// is renewed, so a cart in use never expires.
pub fn changed(ctx: &mut Ctx, revision: i64) {
    let token = ctx
        .sent_cookie(COOKIE)
        .or_else(|| browser_cookie(ctx).0)
        .map(str::to_string);
    if let Some(token) = token {
        issue(ctx, token);
    }
    let cookie = cart_cookie(ctx, VERSION_COOKIE, revision.to_string());
    ctx.send_cookie(cookie);
}

/// Whose cart a request speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CartOwner {
    Member(domain::UserId),
    /// The key of the browser's cart token (or of the session token of a cookie-less client):
    /// the id it carries and its SHA-256, [`keyed`].
    Guest(String),
}

impl CartOwner {
    pub fn as_owner(&self) -> Owner<'_> {
        match self {
            Self::Member(id) => Owner::Member(*id),
            Self::Guest(key) => Owner::Guest(key),
        }
    }
}

/// The cart owner of this request: the member, or the guest's browser; `None` without a live
/// session. With `create`, a browser without a cart cookie is given one.
pub fn owner(ctx: &mut Ctx, create: bool) -> Result<Option<CartOwner>, ApiError> {
    let (session, member) = ctx.session_member()?;
    if let Some(m) = member {
        return Ok(Some(CartOwner::Member(m.id)));
    }
    // The browser's cart cookie names its cart, with or without a live session (the cart
    // outlives the guest's 60 minutes).
    let (cookie, bearer) = browser_cookie(ctx);
    if let Some(c) = cookie.or_else(|| ctx.sent_cookie(COOKIE)) {
        return Ok(Some(CartOwner::Guest(guest_key(c))));
    }
    if session.is_none() {
        return Ok(None);
    }
    if bearer {
        let token = ctx.token().unwrap_or_default();
        return Ok(Some(CartOwner::Guest(keyed(
            &token,
            framework::session::hash(&format!("session cart:{token}")),
        ))));
    }
    if !create {
        return Ok(None);
    }
    let token = framework::session::new_keyed_token();
    let key = guest_key(&token);
    issue(ctx, token);
    Ok(Some(CartOwner::Guest(key)))
}

/// The cart of this request, if it has one.
pub fn find(ctx: &mut Ctx) -> Result<Option<CartRow>, ApiError> {
    match owner(ctx, false)? {
        Some(owner) => Ok(db::carts::find(ctx.conn, owner.as_owner())?),
        None => Ok(None),
    }
}

/// What is stored of a browser's cart token: see [`keyed`].
pub fn guest_key(token: &str) -> String {
    keyed(token, framework::session::hash(&format!("cart:{token}")))
}

/// A guest cart's key: the id its token carries (the time it was made and random bits, as a
/// session's; [`framework::session::new_keyed_token`]) in 16 hex digits, then the token's hash.
/// So the carts begun together sit together in the keys' index, and housekeeping, which sweeps
/// old carts in the order they were last changed, frees neighbouring pages of it instead of one
/// page per cart. A token without an id (of another shape) is keyed by its hash alone, as every
/// cart was before; [`db::carts::find`] finds those by the hash after the id.
fn keyed(token: &str, hash: String) -> String {
    db::carts::guest_key(framework::session::token_id(token), hash)
}

/// The barangay a cart call prices for: known (404 otherwise, with `data.error`).
pub(crate) fn place_of(ctx: &mut Ctx, barangay: BarangayId) -> Result<Place, ApiError> {
    crate::locations::place(ctx, barangay)?.ok_or_else(|| no_such_barangay(barangay))
}

/// A cart call's refusal of a barangay that does not exist (with `data.error`).
fn no_such_barangay(barangay: BarangayId) -> ApiError {
    ApiError::refused(404, "barangay", format!("Barangay {barangay} not found."))
}

/// A barangay's place as of the catalog's `version` (read before it), kept across requests under
/// that version (every write to the places' tables moves it) when there is one: a 404 when there
/// is no such barangay.
pub(crate) fn place_at(
    ctx: &mut Ctx,
    version: i64,
    barangay: BarangayId,
) -> Result<Place, ApiError> {
    let key = framework::cache::key(&[
        b"place",
        &version.to_le_bytes(),
        &barangay.get().to_le_bytes(),
    ]);
    ctx.kept_found(key, |ctx| crate::locations::place(ctx, barangay))?
        .ok_or_else(|| no_such_barangay(barangay))
}

/// The fulfillment priced for: the given one when the barangay's city offers it, else delivery.
pub(crate) fn fulfillment_of(
    ctx: &mut Ctx,
    place: &Place,
    asked: Option<FulfillmentId>,
) -> Result<FulfillmentId, ApiError> {
    let asked = asked.unwrap_or(domain::DEFAULT_FULFILLMENT);
    if asked == domain::DEFAULT_FULFILLMENT {
        return Ok(asked);
    }
    Ok(if offers(ctx, place, asked)? {
        asked
    } else {
        domain::DEFAULT_FULFILLMENT
    })
}

/// Whether the place's city offers `fulfillment`.
pub(crate) fn offers(
    ctx: &mut Ctx,
    place: &Place,
    fulfillment: FulfillmentId,
) -> Result<bool, ApiError> {
    Ok(db::places::served_pairs(ctx.conn)?
        .into_iter()
        .any(|(c, f)| c == place.city.id && f == fulfillment))
}

/// The cart's answer for this request at `place`: the cart priced, with members'
/// recommendations.
pub fn answer(
    ctx: &mut Ctx,
    pricing: &Pricing,
    cart: Option<&CartRow>,
    place: &Place,
    fulfillment: FulfillmentId,
    testdate: Option<&str>,
) -> Result<CartAnswer, ApiError> {
    let held = match cart {
        Some(c) => Held {
            items: db::carts::items(ctx.conn, c.id)?,
            empties: db::carts::empties(ctx.conn, c.id)?,
        },
        None => Held::default(),
    };
    priced(ctx, pricing, cart, held, place, fulfillment, testdate)
}

/// As [`answer`], for a change that read what the cart holds after it (in its transaction).
pub fn answer_with(
    ctx: &mut Ctx,
    pricing: &Pricing,
    cart: &CartRow,
    held: Held,
    place: &Place,
    fulfillment: FulfillmentId,
) -> Result<CartAnswer, ApiError> {
    priced(ctx, pricing, Some(cart), held, place, fulfillment, None)
}

fn priced(
    ctx: &mut Ctx,
    pricing: &Pricing,
    cart: Option<&CartRow>,
    held: Held,
    place: &Place,
    fulfillment: FulfillmentId,
    testdate: Option<&str>,
) -> Result<CartAnswer, ApiError> {
    let revision = cart.map_or(0, |c| c.revision);
    let Held { items, empties } = held;
    let now = ctx.config.now(testdate);
    let input = PriceInput {
        items,
        empties: &empties,
        place,
        fulfillment,
        now,
        revision,
    };
    let mut priced = price(ctx, pricing, input)?.answer;
    if cart.is_some_and(|c| c.user_id.is_some()) && place.served {
        priced.recommended_products = recommended(ctx, pricing, place, &priced)?;
    }
    if cart.is_some_and(|c| c.user_id.is_some()) {
        priced.conflict = merge::conflict(ctx)?;
    }
    Ok(priced)
}

/// Members' recommendations: recommended products sold in the place, of the cart's family, not
/// already in it.
fn recommended(
    ctx: &mut Ctx,
    pricing: &Pricing,
    place: &Place,
    cart: &CartAnswer,
) -> Result<Vec<ProductView>, ApiError> {
    let keg = cart.shopping_cart.first().map(|c| is_keg(c.family));
    let in_cart: Vec<ProductId> = cart
        .shopping_cart
        .iter()
        .flat_map(|c| c.items.iter().map(|i| i.id))
        .collect();
    let rows = db::catalog::products(ctx.conn, db::catalog::Area::City(place.city.id), None)?;
    let picked: Vec<db::models::Product> = rows
        .into_iter()
        .filter(|p| p.recommended && p.orderable && !in_cart.contains(&p.id))
        .filter(|p| keg.is_none_or(|k| is_keg(pricing.family(p.packaging_id)) == k))
        .take(8)
        .collect();
    crate::catalog::views(ctx, picked)
}

fn required<T>(v: Option<T>, field: &'static str, message: &str) -> Result<T, ApiError> {
    v.ok_or_else(|| ApiError::Invalid {
        field,
        message: message.into(),
    })
}

/// A change of the cart as [`first_time`] records it: `what` the call does (`add`, `set`), the
/// `change` as the call spells it, and the client's `key` for it (`request_key`), if it sent one.
pub(crate) struct KeyedChange<'a> {
    pub what: &'a str,
    pub change: &'a str,
    pub key: Option<&'a str>,
}

/// A change of the cart the client named by its key (`request_key`), recorded once as the first
/// statement of the change's write transaction with a digest of the `change` (what it changes,
/// as the call spells it): false when the same key came before with the same change (a retry
/// after a lost or late answer), and then nothing is to be changed; refused (422, the key) when
/// it came before with another change, which a careless client would otherwise believe made.
/// Without a key, true.
pub(crate) fn first_time(
    conn: &mut db::AnyConnection,
    cart: i64,
    keyed: KeyedChange<'_>,
    now: i64,
) -> Result<bool, ApiError> {
    let KeyedChange { what, change, key } = keyed;
    let Some(key) = key else {
        return Ok(true);
    };
    let source = format!("{what} {key}");
    let digest = change_digest(change);
    // The cart taken first (a write: SQLite's lock at once; PostgreSQL's row lock), so that the
    // same key with another change, sent at the same moment, waits and then sees this record.
    db::carts::hold(conn, cart)?;
    let first = db::carts::record_once(conn, cart, &source, digest, now)?;
    let before = db::carts::recorded_otherwise(conn, cart, &source, digest)?;
    // Revision 0: recorded before changes had digests; taken as this one.
    if before.iter().any(|r| *r != 0) {
        return Err(ApiError::refused(
            422,
            "request_key",
            "This request key was sent before with another change. Send a new key for a new change.",
        ));
    }
    Ok(first && before.is_empty())
}

/// Products a change names, as its digest reads them: in one order, each once.
pub(crate) fn named_once(ids: &[ProductId]) -> String {
    let mut named: Vec<String> = ids.iter().map(ToString::to_string).collect();
    named.sort();
    named.dedup();
    named.join(" ")
}

/// A change's digest as a positive number (the first 60 bits of its SHA-256; never 0, which
/// marks a key recorded before digests).
fn change_digest(change: &str) -> i64 {
    let hex = framework::session::hash(change);
    i64::from_str_radix(&hex[..15], 16).map_or(1, |d| d.max(1))
}

fn check_quantity(q: Option<i64>) -> Result<i32, ApiError> {
    let q = required(q, "quantity", "Enter the quantity.")?;
    cases::check_quantity(q)
        .map(|q| q as i32)
        .map_err(|message| ApiError::refused(422, "quantity", message))
}

/// A product as of the catalog's `version` (read before it), kept across requests under that
/// version (every write to `products` moves it) when there is one: a 404 when there is none.
fn product_at(ctx: &mut Ctx, version: i64, id: ProductId) -> Result<db::models::Product, ApiError> {
    ctx.kept_found(product_key(version, id), |ctx| {
        Ok(db::carts::product(ctx.conn, id)?)
    })?
    .ok_or_else(|| ApiError::refused(404, "product_id", format!("Product {id} not found.")))
}

/// What a product is kept under as of the catalog's `version` ([`product_at`]).
fn product_key(version: i64, id: ProductId) -> u128 {
    framework::cache::key(&[b"product", &version.to_le_bytes(), &id.get().to_le_bytes()])
}

/// The cart's items and returned empties, within a change's transaction: its contents (lines of
/// ids and units, and the empties, one read: [`db::carts::contents`]), each line with its product
/// as kept under the catalog's `version` (read before the transaction, [`product_at`]). When one
/// of them is not kept (the catalog changed since the cart's products were kept, or the cache let
/// it go), the items with their products read from the database ([`db::carts::items`]), whose
/// products are kept for the adds after.
pub(crate) fn held_in(
    conn: &mut db::AnyConnection,
    kept: &framework::endpoint::KeptOutside,
    version: i64,
    cart: i64,
) -> Result<Held, ApiError> {
    let contents = db::carts::contents(conn, cart)?;
    let mut items = Vec::with_capacity(contents.lines.len());
    for (id, quantity) in contents.lines {
        match kept.get::<Option<db::models::Product>>(product_key(version, id)) {
            Some(Some(product)) => items.push(db::carts::Item { product, quantity }),
            _ => {
                // The cart's products are the catalog's, which a cart's change does not write.
                items = db::carts::items(conn, cart)?;
                for item in &items {
                    kept.keep(
                        product_key(version, item.product.id),
                        Some(item.product.clone()),
                    );
                }
                break;
            }
        }
    }
    Ok(Held {
        items,
        empties: contents.empties,
    })
}

/// What a cart holds, priced from: its items with their products, and the empty cases returned
/// per deposit row.
#[derive(Debug, Clone, Default)]
pub struct Held {
    pub items: Vec<db::carts::Item>,
    pub empties: Vec<(i32, i32)>,
}

/// A live session's cart owner, or 401.
fn live_owner(ctx: &mut Ctx, create: bool) -> Result<CartOwner, ApiError> {
    owner(ctx, create)?.ok_or(ApiError::Unauthenticated)
}

/// A product a refusal names, with why.
fn named(product: &db::models::Product, reason: &str) -> DisabledProduct {
    DisabledProduct {
        id: product.id,
        product_name: product.product_name.clone(),
        reason: reason.into(),
    }
}

/// The street a body names, checked against the barangay's streets.
fn street_of(
    ctx: &mut Ctx,
    place: &Place,
    street: Option<StreetId>,
) -> Result<Option<StreetId>, ApiError> {
    Ok(street_named(ctx, place, street)?.map(|s| s.id))
}

/// The street a body names, with its name, checked against the barangay's streets.
pub(crate) fn street_named(
    ctx: &mut Ctx,
    place: &Place,
    street: Option<StreetId>,
) -> Result<Option<db::models::Street>, ApiError> {
    let Some(s) = street else { return Ok(None) };
    db::places::streets_of_barangay(ctx.conn, place.barangay.id)?
        .into_iter()
        .find(|x| x.id == s)
        .map(Some)
        .ok_or_else(|| ApiError::Invalid {
            field: "street_id",
            message: "Choose a street of this barangay.".into(),
        })
}

/// Whether a product can be bought at `place`: a 422 naming it when not.
fn check_available(
    ctx: &mut Ctx,
    product: &db::models::Product,
    place: &Place,
) -> Result<(), ApiError> {
    let listed = pricing::listed_in(ctx, place, [product])?;
    match unavailable_reason(product, place, &listed) {
        None => Ok(()),
        Some(reason) => Err(ApiError::Refused {
            status: 422,
            field: "product_id",
            message: format!(
                "{} cannot be added to your cart. {reason}",
                product.product_name,
            ),
            products: vec![DisabledProduct {
                id: product.id,
                product_name: product.product_name.clone(),
                reason,
            }],
        }),
    }
}

/// The place an answer is priced for: the one asked, else the cart's last.
fn answer_place(
    ctx: &mut Ctx,
    cart: &CartRow,
    asked: Option<BarangayId>,
) -> Result<Place, ApiError> {
    let id = asked
        .or(cart.barangay_id.map(BarangayId::from_db))
        .ok_or_else(|| ApiError::Invalid {
            field: "barangay",
            message: "Choose your delivery location first.".into(),
        })?;
    place_of(ctx, id)
}

/// The session's cart, or the 404 of a cart that is not there.
fn existing_cart(ctx: &mut Ctx) -> Result<CartRow, ApiError> {
    let owner = live_owner(ctx, false)?;
    db::carts::find(ctx.conn, owner.as_owner())?
        .ok_or_else(|| ApiError::refused(404, "product_id", EMPTY))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cart_key_begins_with_the_id_its_token_carries() {
        let token = framework::session::new_keyed_token();
        let id = framework::session::token_id(&token).unwrap();
        let key = guest_key(&token);
        let hash = framework::session::hash(&format!("cart:{token}"));
        assert_eq!(key, format!("{id:016x}{hash}"));
        // Keys of tokens made later sort later (the id begins with the time).
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(guest_key(&framework::session::new_keyed_token()) > key);
        // A token without an id (its first bit set: a negative id) is keyed by its hash alone.
        let unkeyed = format!("_{}", &token[1..]);
        assert_eq!(framework::session::token_id(&unkeyed), None);
        assert_eq!(
            guest_key(&unkeyed),
            framework::session::hash(&format!("cart:{unkeyed}"))
        );
    }
}
