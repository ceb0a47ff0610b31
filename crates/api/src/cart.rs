//! The cart (issue 15, SPEC 2-5 and 8): items in units grouped into cases by case type, priced
//! for a barangay with deposits, returned empties and the delivery fee; add, change, remove,
//! return empties, and the members' checkout verification.
//!
//! Whose cart: a member's is theirs wherever they log in; a guest's belongs to the browser, named
//! by a long-lived HttpOnly cookie ([`COOKIE`], 30 days) so that it outlives the 60-minute guest
//! session (a client that sends a bearer token and keeps no cookies has the cart of its session).
//! Nobody reaches a cart by naming an id. Reading needs no session (no session and no cart
//! cookie: an empty cart); a change needs a live session or the cart cookie (401 otherwise,
//! SPEC 7's guest-token retry).
//!
//! What a cart holds is kept whatever the place: an item not sold in the barangay priced for, or
//! out of stock, stays in the cart, is listed by name with the reason, counts in no total and
//! blocks checkout until the shopper removes it. Nothing is dropped silently.

use actix_web::{HttpRequest, HttpResponse};
use db::carts::{CartRow, Owner};
use db::places::Place;
use domain::cases;
use domain::{BarangayId, FulfillmentId, ProductId, StreetId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::catalog::ProductView;
use crate::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use crate::error::{ApiError, DisabledProduct};
pub use crate::pricing::*;

crate::register!(
    CartGet,
    AddToCart,
    UpdateCart,
    RemoveFromCart,
    ReturnEmpty,
    CheckoutVerify,
    KeepCart
);

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

/// Sends a new cart cookie and the cart's new revision, where the call made them: HttpOnly,
/// SameSite=Lax, [`COOKIE_DAYS`] days. A change renews the request's own cart cookie, so a cart
/// in use never expires.
pub fn send_cookies(
    res: &mut HttpResponse,
    req: &HttpRequest,
    (token, version): (Option<String>, Option<i64>),
    secure: bool,
) {
    let token = token.or_else(|| version.and_then(|_| cookie(req)));
    let pairs = [
        token.map(|t| (COOKIE, t)),
        version.map(|v| (VERSION_COOKIE, v.to_string())),
    ];
    for (name, value) in pairs.into_iter().flatten() {
        let mut cookie = actix_web::cookie::Cookie::new(name, value);
        cookie.set_path("/");
        cookie.set_http_only(true);
        cookie.set_secure(secure);
        cookie.set_same_site(actix_web::cookie::SameSite::Lax);
        cookie.set_max_age(actix_web::cookie::time::Duration::days(COOKIE_DAYS));
        let _ = res.add_cookie(&cookie);
    }
}

/// Whose cart a request speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CartOwner {
    Member(domain::UserId),
    /// The SHA-256 of the browser's cart token (or of the session token of a cookie-less client).
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

impl Ctx<'_> {
    /// The cart owner of this request: the member, or the guest's browser; `None` without a live
    /// session. With `create`, a browser without a cart cookie is given one.
    pub fn cart_owner(&mut self, create: bool) -> Result<Option<CartOwner>, ApiError> {
        let (session, member) = self.session_member()?;
        if let Some(m) = member {
            return Ok(Some(CartOwner::Member(m.id)));
        }
        // The browser's cart cookie names its cart, with or without a live session (the cart
        // outlives the guest's 60 minutes).
        let (cookie, bearer) = self.cart_cookie();
        if let Some(c) = cookie {
            return Ok(Some(CartOwner::Guest(guest_key(c))));
        }
        if let Some(c) = &self.cart_issued {
            return Ok(Some(CartOwner::Guest(guest_key(c))));
        }
        if session.is_none() {
            return Ok(None);
        }
        if bearer {
            let token = self.token().unwrap_or_default();
            return Ok(Some(CartOwner::Guest(crate::session::hash(&format!(
                "session cart:{token}"
            )))));
        }
        if !create {
            return Ok(None);
        }
        let token = crate::session::new_token();
        let key = guest_key(&token);
        self.cart_issued = Some(token);
        Ok(Some(CartOwner::Guest(key)))
    }

    /// The cart of this request, if it has one.
    pub fn find_cart(&mut self) -> Result<Option<CartRow>, ApiError> {
        match self.cart_owner(false)? {
            Some(owner) => Ok(db::carts::find(self.conn, owner.as_owner())?),
            None => Ok(None),
        }
    }
}

/// What is stored of a browser's cart token.
pub fn guest_key(token: &str) -> String {
    crate::session::hash(&format!("cart:{token}"))
}

/// The barangay a cart call prices for: known (404 otherwise, with `data.error`).
pub(crate) fn place_of(ctx: &mut Ctx, barangay: BarangayId) -> Result<Place, ApiError> {
    ctx.place(barangay)?.ok_or_else(|| {
        ApiError::refused(404, "barangay", format!("Barangay {barangay} not found."))
    })
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
    let (items, empties, revision) = match cart {
        Some(c) => (
            db::carts::items(ctx.conn, c.id)?,
            db::carts::empties(ctx.conn, c.id)?,
            c.revision,
        ),
        None => (Vec::new(), Vec::new(), 0),
    };
    let now = ctx.config.now(testdate);
    let mut priced = price(
        ctx,
        pricing,
        items,
        &empties,
        place,
        fulfillment,
        now,
        revision,
    )?
    .answer;
    if cart.is_some_and(|c| c.user_id.is_some()) && place.served {
        priced.recommended_products = recommended(ctx, pricing, place, &priced)?;
    }
    if cart.is_some_and(|c| c.user_id.is_some()) {
        priced.conflict = conflict(ctx)?;
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

// ---------------------------------------------------------------------------------------------
// The calls

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct CartPath {
    /// The barangay to price the cart for (the location gate's).
    #[serde(rename = "barangayId")]
    #[param(rename = "barangayId")]
    pub barangay_id: BarangayId,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CartQuery {
    /// Delivery (1, the default) or pickup (2): the delivery fee depends on it.
    pub fulfillment: Option<FulfillmentId>,
    /// Dev and test only: pretend it is this Manila time (`YYYY-MM-DDTHH:MM`) for checkout's
    /// hours and blackouts.
    pub testdate: Option<String>,
    /// After a refill: the products it could not add and why (`17:area,1:max`; codes `area`,
    /// `stock`, `max`, `full`), named in the answer's `left_out`.
    #[param(
        pattern = r"^[1-9][0-9]{0,8}:(area|stock|max|full)(,[1-9][0-9]{0,8}:(area|stock|max|full)){0,49}$"
    )]
    pub left: Option<String>,
}

crate::declare!(
    /// `GET /api/v1/cart/{barangayId}`.
    pub struct CartGet = Get "/api/v1/cart/{barangayId}" as "cart", Session, errors [404],
    (CartPath, CartQuery, crate::endpoint::NoBody) -> CartAnswer,
    "The session's cart priced for a barangay (an empty cart without a session).");

impl Endpoint for CartGet {
    fn call(ctx: &mut Ctx, (p, q, _, _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let place = place_of(ctx, p.barangay_id)?;
        let fulfillment = fulfillment_of(ctx, &place, q.fulfillment)?;
        let cart = ctx.find_cart()?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(
            ctx,
            &pricing,
            cart.as_ref(),
            &place,
            fulfillment,
            testdate(q.testdate.as_deref())?,
        )?;
        if let Some(left) = q.left.as_deref() {
            a.left_out = left_out(ctx, left, &place)?;
        }
        Ok(a)
    }
}

/// The products a refill could not add (`17:area,1:max`, as its link names them), each with why:
/// what the refill found (a code of [`crate::refill::Left`]), said of the place.
fn left_out(ctx: &mut Ctx, text: &str, place: &Place) -> Result<Vec<DisabledProduct>, ApiError> {
    let bad = || {
        ApiError::BadRequest(
            "left is not valid: name up to 50 products with why, 17:area,1:max.".into(),
        )
    };
    let mut named_ids = Vec::new();
    for part in text.split(',') {
        let (id, code) = part.split_once(':').unwrap_or((part, ""));
        // As the document's pattern on `left` says: 1-9 digits, no leading zero.
        if id.is_empty()
            || id.len() > 9
            || id.starts_with('0')
            || !id.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let id = ProductId::parse(id).ok_or_else(bad)?;
        let why = crate::refill::Left::parse(code).ok_or_else(bad)?;
        named_ids.push((id, why));
    }
    if named_ids.len() > cases::MAX_PRODUCTS {
        return Err(bad());
    }
    let ids: Vec<ProductId> = named_ids.iter().map(|(id, _)| *id).collect();
    let listed = if place.served {
        db::carts::listed_in_city(ctx.conn, place.city.id, &ids)?
    } else {
        Vec::new()
    };
    let mut out: Vec<DisabledProduct> = Vec::new();
    for (id, why) in named_ids {
        let Some(p) = db::carts::product(ctx.conn, id)? else {
            continue;
        };
        let reason = match why {
            crate::refill::Left::Area | crate::refill::Left::Stock => {
                unavailable_reason(&p, place, &listed).unwrap_or_else(|| why.reason())
            }
            other => other.reason(),
        };
        if !out.iter().any(|d| d.id == id) {
            out.push(named(&p, &reason));
        }
    }
    Ok(out)
}

/// SPEC 3's add-to-cart payload.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AddToCartBody {
    pub product_id: Option<ProductId>,
    /// Units to add (1-999; SPEC 9: 24 for Cans from recommended cards), or with `pack` = case,
    /// cases of the product's `unit_per_case` (the product page's type selector).
    #[schema(minimum = 1, maximum = 999)]
    pub quantity: Option<i64>,
    /// What `quantity` counts: units (the default) or cases.
    #[serde(default)]
    pub pack: Option<domain::selling::Pack>,
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub street_id: Option<StreetId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
}

/// A `testdate` as given: one that is not a date (or date and time) is a 400 naming it, never
/// silently the real clock. The document states its shape ([`crate::rules::TESTDATE`]).
pub fn testdate(t: Option<&str>) -> Result<Option<&str>, ApiError> {
    match t {
        Some(v) if v.trim() != v || domain::calendar::parse_testdate(v).is_none() => {
            Err(ApiError::BadRequest(
                "testdate is not valid: use YYYY-MM-DD or YYYY-MM-DDTHH:MM.".into(),
            ))
        }
        other => Ok(other),
    }
}

fn required<T>(v: Option<T>, field: &'static str, message: &str) -> Result<T, ApiError> {
    v.ok_or_else(|| ApiError::Invalid {
        field,
        message: message.into(),
    })
}

fn check_quantity(q: Option<i64>) -> Result<i32, ApiError> {
    let q = required(q, "quantity", "Enter the quantity.")?;
    cases::check_quantity(q)
        .map(|q| q as i32)
        .map_err(|message| ApiError::refused(422, "quantity", message))
}

/// The product a call names: one of the catalog (404 otherwise).
fn product_of(ctx: &mut Ctx, id: ProductId) -> Result<db::models::Product, ApiError> {
    db::carts::product(ctx.conn, id)?
        .ok_or_else(|| ApiError::refused(404, "product_id", format!("Product {id} not found.")))
}

/// A live session's cart owner, or 401.
fn owner(ctx: &mut Ctx, create: bool) -> Result<CartOwner, ApiError> {
    ctx.cart_owner(create)?.ok_or(ApiError::Unauthenticated)
}

/// Adds `quantity` units of `product` to the cart of `owner` for `place` (the product's and the
/// place's checks done by the caller); the cart after.
pub fn add(
    ctx: &mut Ctx,
    pricing: &Pricing,
    owner: &CartOwner,
    product: &db::models::Product,
    quantity: i32,
    place: &Place,
    street: Option<StreetId>,
) -> Result<CartRow, ApiError> {
    let now = domain::calendar::unix_now();
    let family = pricing.family(product.packaging_id);
    // The cart exists before the change's transaction, whose first statement is a write: SQLite
    // then takes the write lock at once (waiting its turn) instead of failing to upgrade a read.
    let cart = db::carts::find_or_create(ctx.conn, owner.as_owner(), now)?;
    db::write_transaction(ctx.conn, |conn| {
        db::carts::lock(conn, cart.id, now)?;
        let items = db::carts::items(conn, cart.id)?;
        if items
            .iter()
            .any(|i| is_keg(pricing.family(i.product.packaging_id)) != is_keg(family))
        {
            return Err(ApiError::Refused {
                status: 422,
                field: "product_id",
                message: "Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Check out or empty your cart first.".into(),
                products: vec![named(product, "Another family than your cart's.")],
            });
        }
        let have = items
            .iter()
            .find(|i| i.product.id == product.id)
            .map_or(0, |i| i.quantity);
        if have == 0 && items.len() >= cases::MAX_PRODUCTS {
            return Err(ApiError::Refused {
                status: 422,
                field: "product_id",
                message: format!(
                    "Your cart holds {} different products, the most it can. Remove one first.",
                    cases::MAX_PRODUCTS
                ),
                products: vec![named(product, "Your cart has no room for another product.")],
            });
        }
        let total = have + quantity;
        if total > cases::MAX_QUANTITY as i32 {
            return Err(ApiError::Refused {
                status: 422,
                field: "quantity",
                message: format!(
                    "You can have at most {} of {} in your cart (you have {have}).",
                    cases::MAX_QUANTITY,
                    product.product_name
                ),
                products: vec![named(
                    product,
                    &format!("At most {} in a cart.", cases::MAX_QUANTITY),
                )],
            });
        }
        db::carts::set_quantity(conn, cart.id, product.id, total, now)?;
        db::carts::set_place(conn, cart.id, place.barangay.id, street)?;
        db::carts::find(conn, owner.as_owner())?
            .ok_or_else(|| ApiError::Internal("cart vanished".into()))
    })
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

/// Whether a product can be bought at `place`: a 422 naming it when not (SPEC 8).
fn check_available(
    ctx: &mut Ctx,
    product: &db::models::Product,
    place: &Place,
) -> Result<(), ApiError> {
    let listed = if place.served {
        db::carts::listed_in_city(ctx.conn, place.city.id, &[product.id])?
    } else {
        Vec::new()
    };
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

crate::declare!(
    /// `POST /api/v1/cart`.
    pub struct AddToCart = Post "/api/v1/cart" as "addToCart", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<AddToCartBody, true>) -> CartAnswer,
    "Adds units of a product to the session's cart; answers the cart.");

impl Endpoint for AddToCart {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let quantity = check_quantity(b.quantity)?;
        let product_id = required(b.product_id, "product_id", "Choose a product.")?;
        let barangay = required(
            b.barangay,
            "barangay",
            "Choose your delivery location first.",
        )?;
        let owner = owner(ctx, true)?;
        let product = product_of(ctx, product_id)?;
        let quantity = match b.pack {
            Some(domain::selling::Pack::Case) => {
                let units = i64::from(quantity) * i64::from(product.unit_per_case);
                if units > i64::from(cases::MAX_QUANTITY) {
                    return Err(ApiError::refused(
                        422,
                        "quantity",
                        format!(
                            "{quantity} cases of {} come to {units}: a cart holds at most {} of a product.",
                            product.unit_per_case,
                            cases::MAX_QUANTITY
                        ),
                    ));
                }
                units as i32
            }
            _ => quantity,
        };
        let place = place_of(ctx, barangay)?;
        let street = street_of(ctx, &place, b.street_id)?;
        check_available(ctx, &product, &place)?;
        let pricing = Pricing::load(ctx)?;
        let cart = add(ctx, &pricing, &owner, &product, quantity, &place, street)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let mut a = answer(ctx, &pricing, Some(&cart), &place, fulfillment, None)?;
        a.message = "You successfully added this product to the cart.".into();
        ctx.cart_version = Some(a.revision);
        Ok(a)
    }
}

/// A change of one item's units.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct UpdateCartBody {
    pub product_id: Option<ProductId>,
    /// The item's new units (1-999).
    #[schema(minimum = 1, maximum = 999)]
    pub quantity: Option<i64>,
    /// The barangay to price the answer for (else the one the cart was last added for).
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
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
    let owner = owner(ctx, false)?;
    db::carts::find(ctx.conn, owner.as_owner())?
        .ok_or_else(|| ApiError::refused(404, "product_id", EMPTY))
}

crate::declare!(
    /// `PUT /api/v1/cart`.
    pub struct UpdateCart = Put "/api/v1/cart" as "updateCart", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<UpdateCartBody, true>) -> CartAnswer,
    "Sets the units of an item of the session's cart; answers the cart.");

impl Endpoint for UpdateCart {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let quantity = check_quantity(b.quantity)?;
        let product = required(b.product_id, "product_id", "Choose a product.")?;
        let cart = existing_cart(ctx)?;
        let place = answer_place(ctx, &cart, b.barangay)?;
        let now = domain::calendar::unix_now();
        db::write_transaction(ctx.conn, |conn| {
            db::carts::lock(conn, cart.id, now)?;
            if db::carts::quantity_of(conn, cart.id, product)? == 0 {
                return Err(ApiError::refused(
                    404,
                    "product_id",
                    format!("Product {product} is not in your cart."),
                ));
            }
            db::carts::set_quantity(conn, cart.id, product, quantity, now)?;
            Ok::<_, ApiError>(())
        })?;
        let cart = ctx.find_cart()?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(ctx, &pricing, cart.as_ref(), &place, fulfillment, None)?;
        a.message = "Your cart has been updated.".into();
        ctx.cart_version = Some(a.revision);
        Ok(a)
    }
}

/// Items to remove (SPEC 7: `product_id` as a list).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RemoveFromCartBody {
    /// 1 to 50 product ids (a form without JavaScript sends one).
    #[serde(default, deserialize_with = "one_or_many")]
    #[schema(min_items = 1, max_items = 50)]
    pub product_id: Vec<ProductId>,
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
}

/// `product_id` as JSON's list or one id, or as a page form's field (`1,5,12`: a form sends no
/// lists).
pub(crate) fn one_or_many<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<ProductId>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Ids {
        List(Vec<ProductId>),
        One(ProductId),
        Text(String),
    }
    match Ids::deserialize(d)? {
        Ids::List(ids) => Ok(ids),
        Ids::One(id) => Ok(vec![id]),
        Ids::Text(text) => text
            .split(',')
            .map(|id| {
                ProductId::parse(id.trim())
                    .ok_or_else(|| serde::de::Error::custom(domain::ids::NOT_AN_ID))
            })
            .collect(),
    }
}

crate::declare!(
    /// `DELETE /api/v1/cart`.
    pub struct RemoveFromCart = Delete "/api/v1/cart" as "removeFromCart", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<RemoveFromCartBody, true>) -> CartAnswer,
    "Removes items from the session's cart; answers the cart.");

impl Endpoint for RemoveFromCart {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        if b.product_id.is_empty() || b.product_id.len() > cases::MAX_PRODUCTS {
            return Err(ApiError::Invalid {
                field: "product_id",
                message: format!("Name 1 to {} products to remove.", cases::MAX_PRODUCTS),
            });
        }
        let cart = existing_cart(ctx)?;
        let place = answer_place(ctx, &cart, b.barangay)?;
        let now = domain::calendar::unix_now();
        let removed = db::write_transaction(ctx.conn, |conn| {
            db::carts::lock(conn, cart.id, now)?;
            let removed = db::carts::remove(conn, cart.id, &b.product_id)?;
            if db::carts::count_items(conn, cart.id)? == 0 {
                db::carts::clear(conn, cart.id)?;
            }
            Ok::<_, ApiError>(removed)
        })?;
        let cart = ctx.find_cart()?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(ctx, &pricing, cart.as_ref(), &place, fulfillment, None)?;
        a.message = if removed == 0 {
            "Those items were not in your cart.".into()
        } else {
            "Removed from your cart.".into()
        };
        ctx.cart_version = Some(a.revision);
        Ok(a)
    }
}

/// Empty cases the shopper returns against one deposit row.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ReturnEmptyBody {
    pub deposit_id: Option<i32>,
    /// Empty cases returned (0 returns none; at most the cart's cases of that deposit).
    #[schema(minimum = 0, maximum = 999)]
    pub cases: Option<i64>,
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
}

crate::declare!(
    /// `POST /api/v3/return-empty`.
    pub struct ReturnEmpty = Post "/api/v3/return-empty" as "returnEmpty", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<ReturnEmptyBody, true>) -> CartAnswer,
    "Says how many empty cases of a deposit the shopper returns; answers the cart with the credit.");

impl Endpoint for ReturnEmpty {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let deposit = required(b.deposit_id, "deposit_id", "Choose the empties you return.")?;
        let cases_back = required(b.cases, "cases", "Enter how many empty cases you return.")?;
        if !(0..=i64::from(cases::MAX_QUANTITY)).contains(&cases_back) {
            return Err(ApiError::refused(
                422,
                "cases",
                format!("Return from 0 to {} empty cases.", cases::MAX_QUANTITY),
            ));
        }
        let cart = existing_cart(ctx)?;
        let place = answer_place(ctx, &cart, b.barangay)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let before = answer(ctx, &pricing, Some(&cart), &place, fulfillment, None)?;
        let Some(line) = before.empties.iter().find(|e| e.deposit_id == deposit) else {
            return Err(ApiError::refused(
                422,
                "deposit_id",
                "Your cart has no deposit of this kind to return empties against.",
            ));
        };
        if cases_back > i64::from(line.max_cases) {
            return Err(ApiError::refused(
                422,
                "cases",
                format!(
                    "Your cart has {} case(s) of {}: return at most that many.",
                    line.max_cases, line.name
                ),
            ));
        }
        let now = domain::calendar::unix_now();
        db::write_transaction(ctx.conn, |conn| {
            db::carts::lock(conn, cart.id, now)?;
            db::carts::set_empties(conn, cart.id, deposit, cases_back as i32)
        })?;
        let cart = ctx.find_cart()?;
        let mut a = answer(ctx, &pricing, cart.as_ref(), &place, fulfillment, None)?;
        a.message = if cases_back == 0 {
            "You return no empties.".into()
        } else {
            format!("You return {cases_back} empty case(s): the deposit is credited.")
        };
        ctx.cart_version = Some(a.revision);
        Ok(a)
    }
}

/// Where checkout will deliver (SPEC 7: barangay, optional street).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct VerifyBody {
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub street_id: Option<StreetId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
    /// The cart revision the shopper sees; when the cart changed since (another window), the
    /// answer is 410 and the checkout page is loaded afresh.
    #[serde(default)]
    pub revision: Option<i64>,
    /// Dev and test only, as the cart's.
    #[serde(default)]
    pub testdate: Option<String>,
}

crate::declare!(
    /// `POST /api/v1/user/checkout/verify`.
    pub struct CheckoutVerify = Post "/api/v1/user/checkout/verify" as "checkoutVerify", Write, errors [401, 404, 410, 422],
    (NoParams, NoParams, Json<VerifyBody, true>) -> CartAnswer,
    "Checks that the member's cart can go to checkout for a place: 422 naming what stops it, 410 when the cart changed in another window.");

impl Endpoint for CheckoutVerify {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        ctx.member()?;
        let barangay = required(
            b.barangay,
            "barangay",
            "Choose your delivery location first.",
        )?;
        let cart = ctx.find_cart()?;
        let place = place_of(ctx, barangay)?;
        street_of(ctx, &place, b.street_id)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let a = answer(
            ctx,
            &pricing,
            cart.as_ref(),
            &place,
            fulfillment,
            testdate(b.testdate.as_deref())?,
        )?;
        if let (Some(seen), Some(cart)) = (b.revision, cart.as_ref()) {
            if seen != cart.revision {
                return Err(ApiError::refused(
                    410,
                    "revision",
                    "Your cart changed in another window. Check it again before checkout.",
                ));
            }
        }
        if let Some(reason) = &a.checkout.reason {
            return Err(ApiError::Refused {
                status: 422,
                field: "cart",
                message: reason.clone(),
                products: a.unavailable.clone(),
            });
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endpoint::Body;

    #[test]
    fn removal_takes_a_list_or_one_id_from_a_form() {
        let Json(b) = Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":[1,2]}"#).unwrap();
        assert_eq!(b.product_id.len(), 2);
        let Json(b) = Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":3}"#).unwrap();
        assert_eq!(b.product_id, vec![ProductId::from_db(3)]);
        let pairs = [("product_id".into(), "4".into())];
        let Json(b) = Json::<RemoveFromCartBody, true>::from_fields(pairs.into_iter()).unwrap();
        assert_eq!(b.product_id, vec![ProductId::from_db(4)]);
        assert!(Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":"x"}"#).is_err());
        let form = |v: &'static str| {
            crate::endpoint::from_pairs::<RemoveFromCartBody>(
                [(
                    std::borrow::Cow::Borrowed("product_id"),
                    std::borrow::Cow::Borrowed(v),
                )]
                .into_iter(),
            )
        };
        assert_eq!(
            form("1,12, 21").unwrap().product_id,
            [1, 12, 21].map(ProductId::from_db)
        );
        assert!(form("1,x").is_err());
        assert!(form("-1").is_err());
        assert!(Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":[true]}"#).is_err());
    }
}

/// What a page shows of the visitor's cart (issue 15: the header's count and the drawer).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Visitor {
    pub cart_count: u32,
    /// The cart priced for the gate's place; none when empty or no place is chosen yet.
    pub cart: Option<CartAnswer>,
    /// The cart's revision (0 without a cart), whatever its place: what a refill form sends so
    /// that one click refills once (`RefillBody::revision`).
    pub cart_revision: i64,
}

/// The revision of the member's cart (0 without one): what their page parts are kept by.
pub fn member_revision(ctx: &mut Ctx, member: domain::UserId) -> Result<i64, ApiError> {
    Ok(db::carts::find(ctx.conn, Owner::Member(member))?.map_or(0, |c| c.revision))
}

/// The visitor's cart for a page, priced for the gate's barangay and fulfillment.
pub fn visitor(
    ctx: &mut Ctx,
    barangay: Option<BarangayId>,
    fulfillment: Option<FulfillmentId>,
) -> Result<Visitor, ApiError> {
    let Some(cart) = ctx.find_cart()? else {
        return Ok(Visitor {
            cart_count: 0,
            cart: None,
            cart_revision: 0,
        });
    };
    // Before a place is chosen (the category form clears it) the cart is priced where it was
    // last added for, so the drawer never says "empty" beside a count.
    let place = match barangay.or(cart.barangay_id.map(BarangayId::from_db)) {
        Some(b) => ctx.place(b)?,
        None => None,
    };
    let Some(place) = place else {
        let n = db::carts::count_items(ctx.conn, cart.id)?;
        return Ok(Visitor {
            cart_count: u32::try_from(n).unwrap_or(0),
            cart: None,
            cart_revision: cart.revision,
        });
    };
    let fulfillment = fulfillment_of(ctx, &place, fulfillment)?;
    let pricing = Pricing::load(ctx)?;
    let a = answer(ctx, &pricing, Some(&cart), &place, fulfillment, None)?;
    Ok(Visitor {
        cart_count: a.item_count,
        cart_revision: cart.revision,
        cart: (a.item_count > 0).then_some(a),
    })
}

/// The guest cart this browser still holds beside a member's cart: left by a login whose two
/// carts held different families.
fn guest_cart_of_browser(ctx: &mut Ctx) -> Result<Option<CartRow>, ApiError> {
    let (cookie, _) = ctx.cart_cookie();
    let Some(key) = cookie.map(guest_key) else {
        return Ok(None);
    };
    Ok(db::carts::find(ctx.conn, Owner::Guest(&key))?)
}

fn conflict(ctx: &mut Ctx) -> Result<Option<CartConflict>, ApiError> {
    let Some(guest) = guest_cart_of_browser(ctx)? else {
        return Ok(None);
    };
    let items = db::carts::items(ctx.conn, guest.id)?;
    if items.is_empty() {
        return Ok(None);
    }
    Ok(Some(CartConflict {
        guest_items: items
            .iter()
            .map(|i| format!("{} x {}", i.product.product_name, i.quantity))
            .collect(),
        message: "Before you logged in you had a cart with the other kind of beer. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction: choose which cart to keep.".into(),
    }))
}

/// What a login did with the guest's cart.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Merged {
    /// The two carts hold different families: nothing moved.
    pub conflict: bool,
    /// What did not fit, or empty.
    pub message: String,
}

/// At login: the guest's cart joins the member's, quantities adding per product within the
/// limits, and the guest's is deleted; when the two hold different families nothing moves and
/// the answer is `true` (the member chooses later). For a client without cookies the guest's cart
/// was its old session's: it goes with that session.
pub fn merge_at_login(
    ctx: &mut Ctx,
    guest: Option<CartOwner>,
    user: domain::UserId,
) -> Result<Merged, ApiError> {
    let Some(CartOwner::Guest(key)) = guest else {
        return Ok(Merged::default());
    };
    let Some(from) = db::carts::find(ctx.conn, Owner::Guest(&key))? else {
        return Ok(Merged::default());
    };
    let pricing = Pricing::load(ctx)?;
    let now = domain::calendar::unix_now();
    let member = Owner::Member(user);
    enum Outcome {
        Nothing,
        Conflict,
        Merged(i64, Vec<String>),
    }
    let into = db::carts::find_or_create(ctx.conn, member, now)?;
    let outcome = db::write_transaction(ctx.conn, |conn| {
        // A write first (see `add`).
        db::carts::lock(conn, from.id, now)?;
        let theirs = db::carts::items(conn, from.id)?;
        if theirs.is_empty() {
            db::carts::delete(conn, from.id)?;
            return Ok::<_, ApiError>(Outcome::Nothing);
        }
        let mine = db::carts::items(conn, into.id)?;
        let keg = |items: &[db::carts::Item]| {
            items
                .first()
                .map(|i| is_keg(pricing.family(i.product.packaging_id)))
        };
        if let (Some(a), Some(b)) = (keg(&theirs), keg(&mine)) {
            if a != b {
                return Ok(Outcome::Conflict);
            }
        }
        let left_out = db::carts::merge(
            conn,
            from.id,
            into.id,
            cases::MAX_QUANTITY as i32,
            cases::MAX_PRODUCTS as i64,
            now,
        )?;
        let revision = db::carts::lock(conn, into.id, now)?;
        Ok(Outcome::Merged(revision, left_out))
    })?;
    match outcome {
        Outcome::Conflict => Ok(Merged {
            conflict: true,
            message: String::new(),
        }),
        Outcome::Merged(revision, left_out) => {
            ctx.cart_version = Some(revision);
            Ok(Merged {
                conflict: false,
                message: if left_out.is_empty() {
                    String::new()
                } else {
                    format!(
                        "Your cart from before you logged in joined your account's cart, but not all of it fitted: {}.",
                        left_out.join("; ")
                    )
                },
            })
        }
        Outcome::Nothing => Ok(Merged::default()),
    }
}

/// Which cart a member keeps after a login with two carts of different families.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct KeepBody {
    /// `guest`: the cart from before logging in replaces the member's; `member`: the member's
    /// stays and the other is dropped.
    #[serde(default)]
    pub keep: String,
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
}

crate::declare!(
    /// `POST /api/v1/cart/keep`.
    pub struct KeepCart = Post "/api/v1/cart/keep" as "keepCart", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<KeepBody, true>) -> CartAnswer,
    "After a login with two carts of different families: keeps the one the member chooses; answers the cart.");

impl Endpoint for KeepCart {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let member = ctx.member()?;
        let keep_guest = match b.keep.as_str() {
            "guest" => true,
            "member" => false,
            _ => {
                return Err(ApiError::Invalid {
                    field: "keep",
                    message: "Choose which cart to keep.".into(),
                })
            }
        };
        // No second cart (never one, or chosen already in another window): the choice conflicts
        // with how things are, a 409, not an unknown thing.
        let guest = guest_cart_of_browser(ctx)?
            .ok_or_else(|| ApiError::refused(409, "keep", "There is no other cart to choose."))?;
        // The place and fulfillment asked for are checked before anything changes: an unknown
        // barangay is a 404 with both carts still there to choose from.
        let asked = match b.barangay {
            Some(id) => {
                let place = place_of(ctx, id)?;
                fulfillment_of(ctx, &place, b.fulfillment)?;
                Some(place)
            }
            None => None,
        };
        let now = domain::calendar::unix_now();
        let owner = Owner::Member(member.id);
        let into = db::carts::find_or_create(ctx.conn, owner, now)?;
        db::write_transaction(ctx.conn, |conn| {
            // A write first (see `add`).
            db::carts::lock(conn, into.id, now)?;
            if keep_guest {
                db::carts::clear(conn, into.id)?;
                db::carts::merge(
                    conn,
                    guest.id,
                    into.id,
                    cases::MAX_QUANTITY as i32,
                    cases::MAX_PRODUCTS as i64,
                    now,
                )?;
            } else {
                db::carts::delete(conn, guest.id)?;
            }
            Ok::<_, ApiError>(())
        })?;
        let cart = db::carts::find_or_create(ctx.conn, owner, now)?;
        let place = match asked {
            Some(place) => place,
            None => answer_place(ctx, &cart, None)?,
        };
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(ctx, &pricing, Some(&cart), &place, fulfillment, None)?;
        a.message = "Your cart is ready.".into();
        ctx.cart_version = Some(a.revision);
        Ok(a)
    }
}
