//! Filling the cart from what a member bought or kept before: a Go-to Case into the
//! cart for a barangay, and Order Again (an order's items at today's prices and availability).
//! What cannot be added (not sold in the barangay, out of stock, no room in the cart) is listed
//! by name with the reason, never dropped silently; a cart of the other family asks the reset
//! question first ([`RESET_QUESTION`]: a 422 on the `reset` field; sending `reset: true` empties
//! the cart and goes on).

use db::carts::CartRow;
use db::models::Product;
use db::places::Place;
use domain::cases;
use domain::{BarangayId, FulfillmentId, StreetId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::cart::pricing::{is_keg, unavailable_reason, CartAnswer, Pricing, RESET_QUESTION};
use crate::cart::CartOwner;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::{ApiError, DisabledProduct};

framework::register!(GotoCaseToCart, OrderAgain);

/// The cart after a refill, and what could not be added.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Refilled {
    pub message: String,
    /// What was not added (or not all of it), by name and why.
    pub left_out: Vec<DisabledProduct>,
    /// The cart page, naming what was left out and why (`/cart?done=refilled&left=1:area,5:max`).
    pub link: String,
    /// Where the cart is now for, when the refill chose it (Order Again without a `barangay`:
    /// the order's): a page without a location chosen takes it as the shop's.
    pub place: Option<RefillPlace>,
    /// True when this refill had been made before against the same cart revision (a double
    /// click, a retry, a second tab): nothing was added again.
    pub already: bool,
    pub cart: CartAnswer,
}

/// The place a refill filled the cart for.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RefillPlace {
    pub city_id: domain::CityId,
    pub city_name: String,
    pub barangay_id: BarangayId,
    pub barangay_name: String,
    pub street_id: Option<StreetId>,
}

/// How a refill goes on: the reset question's answer, and where the cart is for.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RefillBody {
    /// The cart revision the page or client saw when the shopper asked (0 without a cart): one
    /// refill per click. The same refill sent again against the same revision adds nothing and
    /// answers `already`.
    #[serde(default)]
    #[schema(minimum = 0, required = true, nullable = false)]
    pub revision: Option<i64>,
    /// `true` once the shopper agreed to the reset question: the cart of the other family
    /// is emptied first.
    #[serde(default)]
    pub reset: bool,
    #[serde(default)]
    pub street_id: Option<StreetId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
}

/// One refill as the shopper asked for it: what it fills from (`order 42`, `goto case 7`), the
/// cart revision they saw, and their answer to the reset question.
pub struct Click<'a> {
    pub source: &'a str,
    pub revision: i64,
    pub reset: bool,
}

impl<'a> Click<'a> {
    /// The click of a refill body: its revision is required (one refill per click).
    pub fn of(source: &'a str, revision: Option<i64>, reset: bool) -> Result<Self, ApiError> {
        match revision {
            Some(revision) if revision >= 0 => Ok(Self {
                source,
                revision,
                reset,
            }),
            _ => Err(ApiError::Invalid {
                field: "revision",
                message: "Open the page again and try from there.".into(),
            }),
        }
    }
}

/// What a refill did: filled the cart (what was left out, why), or nothing because this click
/// had been made before.
pub enum Filled {
    Done(CartRow, Vec<(DisabledProduct, Left)>),
    Already(CartRow),
}

/// Puts `wanted` (products and units) into the owner's cart for `place`: quantities add within
/// the cart's limits; what cannot be had is answered by name with the reason. Once per click:
/// the same source against the same revision again adds nothing.
pub fn refill(
    ctx: &mut Ctx,
    pricing: &Pricing,
    owner: &CartOwner,
    wanted: &[(Product, i32)],
    place: &Place,
    street: Option<StreetId>,
    click: &Click,
) -> Result<Filled, ApiError> {
    let Sorted { fit, mut left_out } = sort_out(ctx, wanted, place)?;
    if fit.is_empty() {
        return Err(nothing(place, left_out));
    }
    let keg = is_keg(pricing.family(fit[0].0.packaging_id));
    let now = domain::calendar::unix_now();
    let cart = db::carts::find_or_create(ctx.conn, owner.as_owner(), now)?;
    // A revision the cart has not reached yet was never seen by anyone: made up.
    if click.revision > cart.revision {
        return Err(ApiError::Invalid {
            field: "revision",
            message: "Open the page again and try from there.".into(),
        });
    }
    let clipped = db::write_transaction(ctx.conn, |conn| {
        if !db::carts::record_once(conn, cart.id, click.source, click.revision, now)? {
            return Ok(None);
        }
        db::carts::lock(conn, cart.id, now)?;
        make_room(conn, pricing, cart.id, keg, click.reset)?;
        let (added, clipped) = add(conn, cart.id, &fit, now)?;
        if added == 0 {
            // Nothing went in: say so, and leave the cart as it was (a reset included).
            let mut all = left_out.clone();
            all.extend(clipped);
            return Err(nothing(place, all));
        }
        db::carts::set_place(conn, cart.id, place.barangay.id, street)?;
        Ok::<_, ApiError>(Some(clipped))
    })?;
    let cart_now = db::carts::find(ctx.conn, owner.as_owner())?
        .ok_or_else(|| ApiError::Internal("cart vanished".into()))?;
    let Some(clipped) = clipped else {
        return Ok(Filled::Already(cart_now));
    };
    left_out.extend(clipped);
    Ok(Filled::Done(cart_now, left_out))
}

/// What a refill left out, each with why.
type LeftOut = Vec<(DisabledProduct, Left)>;

/// What is wanted, sorted out for a place.
struct Sorted<'w> {
    /// What can be had there: products and units.
    fit: Vec<(&'w Product, i32)>,
    /// What cannot, with why.
    left_out: LeftOut,
}

/// Sorts out what is wanted: what can be had at `place`, and what cannot.
fn sort_out<'w>(
    ctx: &mut Ctx,
    wanted: &'w [(Product, i32)],
    place: &Place,
) -> Result<Sorted<'w>, ApiError> {
    let listed = crate::cart::pricing::listed_in(ctx, place, wanted.iter().map(|(p, _)| p))?;
    let mut left_out = Vec::new();
    let mut fit = Vec::new();
    for (p, q) in wanted {
        match unavailable_reason(p, place, &listed) {
            Some(reason) => {
                let why = if place.served && !p.orderable {
                    Left::Stock
                } else {
                    Left::Area
                };
                left_out.push((named(p, reason), why));
            }
            None => fit.push((p, *q)),
        }
    }
    Ok(Sorted { fit, left_out })
}

/// The refusal of a refill that added nothing for `place`, naming what was left out and why.
fn nothing(place: &Place, left_out: LeftOut) -> ApiError {
    ApiError::Refused {
        status: 422,
        field: "cart",
        message: format!(
            "Nothing could be added to your cart for {}: {}",
            place.barangay.barangay_name,
            listing(&left_out)
        ),
        products: left_out.into_iter().map(|(d, _)| d).collect(),
    }
}

/// A cart holding the other family than the refill's (`keg`) asks the reset question; once
/// the shopper agreed (`reset`), it is emptied.
fn make_room(
    conn: &mut db::AnyConnection,
    pricing: &Pricing,
    cart: i64,
    keg: bool,
    reset: bool,
) -> Result<(), ApiError> {
    let items = db::carts::items(conn, cart)?;
    if items
        .iter()
        .any(|i| is_keg(pricing.family(i.product.packaging_id)) != keg)
    {
        if !reset {
            return Err(ApiError::Invalid {
                field: "reset",
                message: RESET_QUESTION.into(),
            });
        }
        db::carts::clear(conn, cart)?;
    }
    Ok(())
}

/// Adds `fit` to the cart within its limits (products in a cart, units of a product): how many
/// products went in, and what did not, or not all of it, with why.
fn add(
    conn: &mut db::AnyConnection,
    cart: i64,
    fit: &[(&Product, i32)],
    now: i64,
) -> Result<(usize, LeftOut), ApiError> {
    let mut clipped = Vec::new();
    let mut added = 0;
    for (p, q) in fit {
        let have = db::carts::quantity_of(conn, cart, p.id)?;
        if have == 0 && db::carts::count_items(conn, cart)? >= cases::MAX_PRODUCTS as i64 {
            clipped.push((named(p, Left::Full.reason()), Left::Full));
            continue;
        }
        let max = cases::MAX_QUANTITY as i32;
        if have + q > max {
            clipped.push((
                named(
                    p,
                    format!(
                        "{} of {q} added: a cart holds at most {max} of a product.",
                        max - have
                    ),
                ),
                Left::Max,
            ));
        }
        if have < max {
            db::carts::set_quantity(conn, cart, p.id, (have + q).min(max), now)?;
            added += 1;
        }
    }
    Ok((added, clipped))
}

fn named(p: &Product, reason: impl Into<String>) -> DisabledProduct {
    DisabledProduct {
        id: p.id,
        product_name: p.product_name.clone(),
        reason: reason.into(),
    }
}

/// Why a refill left a product out, as its link names it for the cart page (`17:area`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Left {
    /// Not sold at the place (or the place is not served).
    Area,
    /// Out of stock.
    Stock,
    /// Only part of it went in: a cart holds at most 999 of a product.
    Max,
    /// The cart holds 50 products already.
    Full,
}

impl Left {
    pub fn code(self) -> &'static str {
        match self {
            Self::Area => "area",
            Self::Stock => "stock",
            Self::Max => "max",
            Self::Full => "full",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        [Self::Area, Self::Stock, Self::Max, Self::Full]
            .into_iter()
            .find(|l| l.code() == code)
    }

    /// What the cart page says of it (`Area` and `Stock` say it of the place, by the caller).
    pub fn reason(self) -> String {
        match self {
            Self::Area => "Not sold at your location.".into(),
            Self::Stock => "Out of stock.".into(),
            Self::Max => format!(
                "Not all of it: a cart holds at most {} of a product.",
                cases::MAX_QUANTITY
            ),
            Self::Full => format!(
                "Your cart holds {} different products, the most it can.",
                cases::MAX_PRODUCTS
            ),
        }
    }
}

fn listing(left_out: &[(DisabledProduct, Left)]) -> String {
    left_out
        .iter()
        .map(|(d, _)| format!("{} ({})", d.product_name, d.reason.trim_end_matches('.')))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The answer of a refill: the cart priced for the place, what was left out, and the message;
/// `chosen` when the refill chose the place.
fn answer(
    ctx: &mut Ctx,
    pricing: &Pricing,
    filled: Filled,
    place: &Place,
    fulfillment: Option<FulfillmentId>,
    what: &str,
    chosen: bool,
) -> Result<Refilled, ApiError> {
    let fulfillment = crate::cart::fulfillment_of(ctx, place, fulfillment)?;
    let (cart, left_out, already) = match filled {
        Filled::Done(cart, left_out) => (cart, left_out, false),
        Filled::Already(cart) => (cart, Vec::new(), true),
    };
    let a = crate::cart::answer(ctx, pricing, Some(&cart), place, fulfillment, None)?;
    crate::cart::changed(ctx, a.revision);
    if already {
        return Ok(Refilled {
            message: format!("{what} was already added to your cart; it was not added again."),
            left_out: Vec::new(),
            link: "/cart?done=already".into(),
            place: None,
            already,
            cart: a,
        });
    }
    let mut message = format!("{what} is in your cart.");
    let mut link = "/cart?done=refilled".to_string();
    if !left_out.is_empty() {
        message = format!(
            "{what} is in your cart, but not all of it: {}.",
            listing(&left_out)
        );
        let ids: Vec<String> = left_out
            .iter()
            .map(|(d, why)| format!("{}:{}", d.id, why.code()))
            .collect();
        link.push_str("&left=");
        link.push_str(&ids.join(","));
    }
    Ok(Refilled {
        message,
        left_out: left_out.into_iter().map(|(d, _)| d).collect(),
        link,
        place: chosen.then(|| RefillPlace {
            city_id: place.city.id,
            city_name: place.city.city_name.clone(),
            barangay_id: place.barangay.id,
            barangay_name: place.barangay.barangay_name.clone(),
            street_id: cart.street_id.map(StreetId::from_db),
        }),
        already,
        cart: a,
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ToCartPath {
    /// The Go-to Case's id.
    #[serde(rename = "caseId")]
    #[param(rename = "caseId")]
    pub case_id: i64,
    /// The barangay the cart is for (the location gate's).
    #[serde(rename = "barangayId")]
    #[param(rename = "barangayId")]
    pub barangay_id: BarangayId,
}

framework::declare!(
    /// `POST /api/v1/user/goto-case/cart/{caseId}/barangay/{barangayId}`.
    pub struct GotoCaseToCart = Post "/api/v1/user/goto-case/cart/{caseId}/barangay/{barangayId}" as "gotoCaseToCart", Write, errors [401, 404, 422],
    (ToCartPath, NoParams, Json<RefillBody, true>) -> Refilled,
    "Adds a Go-to Case to the member's cart for a barangay; answers the cart and what could not be added.");

impl Endpoint for GotoCaseToCart {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "createGotoCase",
        name: "GotoCaseToCart",
        params: &[("caseId", "$response.body#/goto_case/id")],
        body: None,
    }];

    fn call(ctx: &mut Ctx, (p, _, Json(b), _): Args<Self>) -> Result<Refilled, ApiError> {
        let member = ctx.member()?;
        let row = crate::goto_cases::own_case(ctx, member.id, p.case_id)?;
        let place = crate::cart::place_of(ctx, p.barangay_id)?;
        let street = crate::cart::street_named(ctx, &place, b.street_id)?.map(|s| s.id);
        let wanted: Vec<(Product, i32)> = db::goto_cases::items(ctx.conn, &[row.id])?
            .into_iter()
            .map(|(_, i)| (i.product, i.quantity))
            .collect();
        if wanted.is_empty() {
            return Err(ApiError::refused(
                422,
                "case_id",
                format!("Your Go-to Case \"{}\" is empty.", row.name),
            ));
        }
        let source = format!("goto case {}", row.id);
        let click = Click::of(&source, b.revision, b.reset)?;
        let pricing = Pricing::load(ctx)?;
        let owner = CartOwner::Member(member.id);
        let filled = refill(ctx, &pricing, &owner, &wanted, &place, street, &click)?;
        let what = format!("Your Go-to Case \"{}\"", row.name);
        answer(ctx, &pricing, filled, &place, b.fulfillment, &what, false)
    }
}

/// Order Again: where the cart is for (else the order's barangay) and the reset answer.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AgainBody {
    /// A guest's key from the order's link (40 characters; a member's own order needs none,
    /// and any text given is then not looked at).
    #[serde(default)]
    pub key: Option<String>,
    /// The barangay the cart is for (the location gate's); the order's own when not given.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    /// The cart revision the page or client saw when the shopper asked (0 without a cart): one
    /// refill per click, as [`RefillBody::revision`].
    #[serde(default)]
    #[schema(minimum = 0, required = true, nullable = false)]
    pub revision: Option<i64>,
    #[serde(default)]
    pub reset: bool,
    #[serde(default)]
    pub street_id: Option<StreetId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
}

framework::declare!(
    /// `POST /api/v1/orders/{orderId}/again`.
    pub struct OrderAgain = Post "/api/v1/orders/{orderId}/again" as "orderAgain", Write, errors [401, 404, 422],
    (crate::orders::read::OrderPath, NoParams, Json<AgainBody, true>) -> Refilled,
    "Fills the cart from an order (the member's own, or a guest's with its key) at today's prices; answers the cart and what could not be added.");

impl Endpoint for OrderAgain {
    const LINKS: &'static [framework::endpoint::Link] = &[
        framework::endpoint::Link {
            from: "placeOrder",
            name: "OrderAgain",
            params: &[("orderId", "$response.body#/order/id")],
            body: None,
        },
        framework::endpoint::Link {
            from: "myOrders",
            name: "OrderAgain",
            params: &[("orderId", "$response.body#/orders/0/id")],
            body: None,
        },
    ];

    fn call(ctx: &mut Ctx, (p, _, Json(b), _): Args<Self>) -> Result<Refilled, ApiError> {
        // Without a session there is no cart to fill: 401 before anything about the order.
        let owner = crate::cart::owner(ctx, true)?.ok_or(ApiError::Unauthenticated)?;
        let full = crate::orders::read::visible(ctx, p.order_id, b.key.as_deref())?;
        let barangay = b
            .barangay
            .unwrap_or(BarangayId::from_db(full.order.barangay_id));
        let place = crate::cart::place_of(ctx, barangay)?;
        let street = crate::cart::street_named(ctx, &place, b.street_id)?.map(|s| s.id);
        let mut wanted: Vec<(Product, i32)> = Vec::new();
        let mut left_out = Vec::new();
        for line in &full.items {
            let id = domain::ProductId::from_db(line.product_id);
            match db::carts::product(ctx.conn, id)? {
                Some(product) => match wanted.iter_mut().find(|(w, _)| w.id == id) {
                    Some((_, q)) => *q += line.quantity,
                    None => wanted.push((product, line.quantity)),
                },
                None => left_out.push((
                    DisabledProduct {
                        id,
                        product_name: line.product_name.clone(),
                        reason: "No longer sold.".into(),
                    },
                    Left::Stock,
                )),
            }
        }
        let source = format!("order {}", full.order.id);
        let click = Click::of(&source, b.revision, b.reset)?;
        let pricing = Pricing::load(ctx)?;
        let filled = match refill(ctx, &pricing, &owner, &wanted, &place, street, &click) {
            Err(ApiError::Refused {
                status,
                field,
                message,
                mut products,
            }) if !left_out.is_empty() => {
                products.extend(left_out.into_iter().map(|(d, _)| d));
                return Err(ApiError::Refused {
                    status,
                    field,
                    message,
                    products,
                });
            }
            other => other?,
        };
        let filled = match filled {
            Filled::Done(cart, more) => {
                left_out.extend(more);
                Filled::Done(cart, left_out)
            }
            already => already,
        };
        let what = format!("Your order {}", crate::orders::number(full.order.id));
        let chosen = b.barangay.is_none();
        answer(ctx, &pricing, filled, &place, b.fulfillment, &what, chosen)
    }
}
