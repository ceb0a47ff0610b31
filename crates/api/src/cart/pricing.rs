//! What a cart comes to: its items grouped into cases by case type with the
//! case math of `domain::cases`, each line's price (whole cases at the case price), deposits per
//! deposit row less the empties returned, the delivery fee of the area and fulfillment, what
//! cannot be bought at the place and why, and whether checkout can take it now. The cart's
//! answer and the order are both made from [`price`].

use std::collections::BTreeMap;

use db::carts::Item;
use db::places::Place;
use domain::cases::{self, CaseRule, Line};
use domain::{BarangayId, FilterType, FulfillmentId, ProductId};
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::catalog::ProductView;
use framework::endpoint::Ctx;
use framework::error::{ApiError, DisabledProduct};

/// The message for incomplete cases.
pub const INCOMPLETE: &str =
    "For you to proceed to checkout, you need to complete filling up your cases.";
/// The cart page's empty state.
pub const EMPTY: &str = "There are no items in your cart.";
/// What choosing a category of the other family than the cart holds asks first.
pub const RESET_QUESTION: &str = "Your current cart will be reset. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Continue to reset your cart?";

framework::export_const!(
    /// The message for cases not yet filled.
    INCOMPLETE = INCOMPLETE
);
framework::export_const!(
    /// The empty cart's words.
    EMPTY_CART = EMPTY
);
framework::export_const!(
    /// What choosing a category of the other family than the cart holds asks first.
    RESET_QUESTION = RESET_QUESTION
);
/// Every family, as the contract's tables list them.
const FAMILIES: [FilterType; 3] = [FilterType::Keg, FilterType::Bottle, FilterType::Can];

framework::export_const!(
    /// The families that are kegs: kegs and bottles/cans go in separate orders.
    KEG_FAMILIES = FAMILIES
        .into_iter()
        .filter(|f| is_keg(*f))
        .map(FilterType::as_str)
        .collect::<Vec<_>>()
);
framework::export_const!(
    /// By the family a shopper chooses, the families a cart may not hold then: a cart holding
    /// one of them is emptied first, after the reset question (the rule of `resets`).
    RESET_FAMILIES = FAMILIES
        .into_iter()
        .map(|chosen| {
            let held: Vec<&str> = FAMILIES
                .into_iter()
                .filter(|f| resets([*f], chosen))
                .map(FilterType::as_str)
                .collect();
            (chosen.as_str().to_string(), serde_json::json!(held))
        })
        .collect::<serde_json::Map<_, _>>()
);

/// One item of a case (a cart item). Money is integer centavos.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct CartItem {
    /// The product's id (what PUT and DELETE name).
    pub id: ProductId,
    pub slug: String,
    pub product_name: String,
    pub product_image: Option<String>,
    pub photo: Option<crate::catalog::PhotoView>,
    /// The unit price.
    pub price: i64,
    pub price_per_case: i64,
    /// Units (bottles, cans, kegs).
    pub quantity: i32,
    /// Units in one case of this product.
    pub quantity_per_pack: i32,
    /// What the units cost: whole cases at the case price, the rest at the unit price.
    pub total_price: i64,
    pub packaging: String,
    /// Whether it can be bought in the barangay priced for; when not, `unavailable_reason` says
    /// why and it counts in no total.
    pub available: bool,
    pub unavailable_reason: Option<String>,
}

impl CartItem {
    /// An item as the shopper sees it: `total` is what its units cost, `reason` why it cannot be
    /// bought at the place (none: it can).
    pub fn of(item: &Item, total: i64, packaging: &str, reason: Option<String>) -> Self {
        let p = &item.product;
        Self {
            id: p.id,
            slug: p.slug.clone(),
            product_name: p.product_name.clone(),
            product_image: p.product_image.clone(),
            photo: crate::catalog::PhotoView::of(p),
            price: p.price,
            price_per_case: p.price_per_case,
            quantity: item.quantity,
            quantity_per_pack: p.unit_per_case,
            total_price: total,
            packaging: packaging.to_string(),
            available: reason.is_none(),
            unavailable_reason: reason,
        }
    }
}

/// A case of the cart: the items of one case type (a case panel of the cart page).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct CartCase {
    /// The case type's name: Bottles, Cans, Keg.
    pub name: String,
    pub packaging_id: domain::PackagingId,
    /// The family (keg, bottle, can).
    pub family: FilterType,
    /// What one unit is called: bottle, can, keg.
    pub unit_noun: String,
    pub unit_per_case: i32,
    pub minimum_order_qty: i32,
    /// How many cases the units fill (the last possibly partly).
    pub cases: u64,
    /// Units of available items.
    pub units: u64,
    /// `cases x unit_per_case`.
    pub capacity: u64,
    /// Units still needed ("Need N More"); 0 when complete.
    pub missing: u64,
    /// What the available items cost.
    pub total: i64,
    /// The summary line: each item's name and units.
    pub summary: String,
    pub items: Vec<CartItem>,
}

/// A line of the order summary.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct NameAmount {
    pub name: String,
    /// Centavos (a returned-empties credit is negative).
    pub amount: i64,
}

/// The cart's `cart_order_summary`: items in cart (one line a case), deposits (one line a deposit
/// row charged, and a negative line a row whose empties are returned), delivery fee, subtotal.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct OrderSummary {
    pub items_in_cart: Vec<NameAmount>,
    pub items_total: i64,
    pub deposits: Vec<NameAmount>,
    pub deposits_total: i64,
    pub delivery_fee: i64,
    /// Everything: items, deposits less returned empties, delivery fee.
    pub subtotal: i64,
}

/// Empties the shopper may return: one line a deposit row the cart is charged.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct EmptiesLine {
    pub deposit_id: i32,
    pub name: String,
    /// The deposit of one case.
    pub per_case: i64,
    /// Empty cases the shopper says they return.
    pub returned: i32,
    /// At most as many as the cart's cases of this row.
    pub max_cases: i32,
    /// The credit (at most what the row charges).
    pub credit: i64,
}

/// Whether the cart can go to checkout now, and if not, why.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct CheckoutState {
    pub ready: bool,
    pub reason: Option<String>,
}

/// The cart answer.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct CartAnswer {
    pub shopping_cart: Vec<CartCase>,
    pub cart_order_summary: OrderSummary,
    /// Members only; guests get none.
    pub recommended_products: Vec<ProductView>,
    pub delivery_fee: i64,
    /// How many items (different products) the cart holds: the header's count.
    pub item_count: u32,
    /// Items that cannot be bought in this barangay now, by name and reason.
    pub unavailable: Vec<DisabledProduct>,
    pub empties: Vec<EmptiesLine>,
    pub checkout: CheckoutState,
    /// The barangay and fulfillment priced for.
    pub barangay_id: BarangayId,
    pub fulfillment_id: FulfillmentId,
    /// Counts the cart's changes; checkout submits the revision it showed.
    pub revision: i64,
    /// A message for the shopper about what the call did (added, changed), or empty.
    pub message: String,
    /// A member who logged in with a guest cart of the other family: both carts are kept until
    /// they choose (`POST /api/v1/cart/keep`).
    pub conflict: Option<CartConflict>,
    /// What a refill (a Go-to Case, Order Again) could not add, by name and why: the cart page
    /// names it after the refill (`GET /api/v1/cart/{barangayId}?left=1,5`).
    pub left_out: Vec<DisabledProduct>,
}

/// The guest cart a member brought to login that could not join their cart (the other family:
/// kegs and bottles/cans are never in one cart).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct CartConflict {
    /// What the guest cart holds: "Tala Pale Pilsen Keg 30 L x 1", ...
    pub guest_items: Vec<String>,
    pub message: String,
}

/// What a cart is priced with: read once per call, kept per data version.
#[derive(Debug, Clone, Serialize)]
pub struct Pricing {
    /// The catalog's data version it was read at: what else is kept under the same version
    /// (the products of a cart's lines, `held_in`) goes with it.
    pub version: i64,
    pub case_types: Vec<db::carts::CaseType>,
    pub deposits: Vec<db::carts::Deposit>,
    pub packagings: Vec<db::models::Packaging>,
    /// Every city's delivery fees (a few rows a city): a cart change reads none in its
    /// transaction.
    pub delivery_fees: Vec<db::carts::DeliveryFee>,
}

impl Pricing {
    /// The catalog's case types, deposits, packagings and delivery fees: kept under the data
    /// version (their tables bump it), so a cart change reads one row for them instead of four
    /// tables.
    pub fn load(ctx: &mut Ctx) -> Result<Self, ApiError> {
        let version = crate::catalog::data_version(ctx)?;
        Self::at(ctx, version)
    }

    /// The prices as of the catalog's `version`, read before (kept under it).
    pub fn at(ctx: &mut Ctx, version: i64) -> Result<Self, ApiError> {
        let key = framework::cache::key(&[b"pricing", &version.to_le_bytes()]);
        ctx.kept(key, |ctx| {
            Ok(Self {
                version,
                case_types: db::carts::case_types(ctx.conn)?,
                deposits: db::carts::deposits(ctx.conn)?,
                packagings: crate::catalog::packagings(ctx.conn)?,
                delivery_fees: db::carts::delivery_fees(ctx.conn)?,
            })
        })
    }

    /// The delivery fee of `city` for `fulfillment` (none: no fee).
    pub fn delivery_fee(&self, city: domain::CityId, fulfillment: FulfillmentId) -> i64 {
        self.delivery_fees
            .iter()
            .find(|f| f.city == city && f.fulfillment == fulfillment)
            .map_or(0, |f| f.amount)
    }

    pub fn family(&self, packaging: domain::PackagingId) -> FilterType {
        self.packagings
            .iter()
            .find(|k| k.id == packaging)
            .map_or(FilterType::Bottle, crate::catalog::family)
    }

    /// The deposit row of a product: its own, else its packaging's.
    ///
    /// Rows of the same name and amount are one container (the grande crate of two products):
    /// they answer as the first of them, so a mixed crate is charged, listed and credited as one.
    fn deposit_of(&self, p: &db::models::Product) -> Option<&db::carts::Deposit> {
        let row = self
            .deposits
            .iter()
            .find(|d| d.product_id == Some(p.id.get()))
            .or_else(|| {
                self.deposits.iter().find(|d| {
                    d.product_id.is_none() && d.packaging_id == Some(p.packaging_id.get())
                })
            })?;
        self.deposits
            .iter()
            .find(|d| d.name == row.name && d.amount == row.amount)
    }
}

/// Kegs and bottles/cans go in separate orders.
pub fn is_keg(f: FilterType) -> bool {
    f == FilterType::Keg
}

/// Whether a cart holding these families must be emptied before `chosen` is chosen: it holds
/// the other family ([`is_keg`]). An empty cart goes straight on.
pub fn resets(held: impl IntoIterator<Item = FilterType>, chosen: FilterType) -> bool {
    held.into_iter().any(|f| is_keg(f) != is_keg(chosen))
}

/// Of `products`, those listed as sold in `place`'s city, as [`unavailable_reason`] asks: only a
/// product not sold everywhere is looked up, and nothing where the store does not deliver.
pub fn listed_in<'p>(
    ctx: &mut Ctx,
    place: &Place,
    products: impl IntoIterator<Item = &'p db::models::Product>,
) -> Result<Vec<ProductId>, ApiError> {
    let ids: Vec<ProductId> = products
        .into_iter()
        .filter(|p| !p.sold_in_all_areas)
        .map(|p| p.id)
        .collect();
    if !place.served || ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(db::carts::listed_in_city(ctx.conn, place.city.id, &ids)?)
}

/// Why an item cannot be bought at `place` now, if it cannot.
pub fn unavailable_reason(
    p: &db::models::Product,
    place: &Place,
    listed: &[ProductId],
) -> Option<String> {
    if !place.served {
        Some(format!(
            "We do not deliver to {} yet.",
            place.barangay.barangay_name
        ))
    } else if !p.orderable {
        Some("Out of stock.".into())
    } else if !p.sold_in_all_areas && !listed.contains(&p.id) {
        Some(format!("Not sold in {}.", place.city.city_name))
    } else {
        None
    }
}

/// A case type's items, each with why it cannot be bought, if it cannot.
type Group = Vec<(Item, Option<String>)>;

/// Everything a priced cart comes to; the answer and the order are both made from it.
pub struct Priced {
    pub answer: CartAnswer,
    /// Each available item with its case type's name (what an order keeps).
    pub lines: Vec<(Item, String, i64)>,
}

/// What [`price`] prices: a cart's items and the empties returned, for `place` and
/// `fulfillment` at `now` (checkout's hours and blackouts), at the cart's `revision`.
pub struct PriceInput<'a> {
    pub items: Vec<Item>,
    /// Empty cases returned, by deposit row.
    pub empties: &'a [(i32, i32)],
    pub place: &'a Place,
    pub fulfillment: FulfillmentId,
    pub now: time::PrimitiveDateTime,
    pub revision: i64,
}

/// Prices a cart. What it reads from the database, in this order: the items listed in the
/// place's city, the checkout window (a cart nothing else keeps from checkout); the rest is
/// `Cases`, `deposits` (and the delivery fee, from `pricing`) and `blocked_reason`, pure rules on
/// what was loaded.
pub fn price(ctx: &mut Ctx, pricing: &Pricing, input: PriceInput<'_>) -> Result<Priced, ApiError> {
    let PriceInput {
        items,
        empties,
        place,
        fulfillment,
        now,
        revision,
    } = input;
    let listed = listed_in(ctx, place, items.iter().map(|i| &i.product))?;
    let cases = Cases::of(pricing, group(pricing, items, place, &listed))?;
    let (deposits, empties_lines) = deposits(pricing, &cases.deposit_lines, empties);
    let items_in_cart = items_in_cart(&cases.shopping_cart);
    let items_total: i64 = items_in_cart.iter().map(|l| l.amount).sum();
    let deposits_total: i64 = deposits.iter().map(|l| l.amount).sum();
    let has_items = items_total > 0 || !cases.lines.is_empty();
    let delivery_fee = if has_items && place.served {
        pricing.delivery_fee(place.city.id, fulfillment)
    } else {
        0
    };
    let item_count = cases.item_count();
    let reason = match blocked_reason(&cases, item_count, place) {
        Some(reason) => Some(reason),
        None => closed_reason(ctx, now)?,
    };
    let Cases {
        shopping_cart,
        unavailable,
        lines,
        ..
    } = cases;
    Ok(Priced {
        answer: CartAnswer {
            shopping_cart,
            cart_order_summary: OrderSummary {
                items_in_cart,
                items_total,
                deposits,
                deposits_total,
                delivery_fee,
                subtotal: items_total + deposits_total + delivery_fee,
            },
            recommended_products: Vec::new(),
            delivery_fee,
            item_count,
            unavailable,
            empties: empties_lines,
            checkout: CheckoutState {
                ready: reason.is_none(),
                reason,
            },
            barangay_id: place.barangay.id,
            fulfillment_id: fulfillment,
            revision,
            message: String::new(),
            conflict: None,
            left_out: Vec::new(),
        },
        lines,
    })
}

/// The items by case type, in the order of the case types (packagings without one last), each
/// with why it cannot be bought at `place`, if it cannot.
fn group(
    pricing: &Pricing,
    items: Vec<Item>,
    place: &Place,
    listed: &[ProductId],
) -> BTreeMap<(i32, i32), Group> {
    let mut groups: BTreeMap<(i32, i32), Group> = BTreeMap::new();
    for item in items {
        let reason = unavailable_reason(&item.product, place, listed);
        let packaging = item.product.packaging_id.get();
        let order = pricing
            .case_types
            .iter()
            .position(|c| c.packaging_id == packaging)
            .map_or(i32::MAX, |i| i as i32);
        groups
            .entry((order, packaging))
            .or_default()
            .push((item, reason));
    }
    groups
}

/// The cart's case panels and what their items come to.
#[derive(Default)]
struct Cases {
    shopping_cart: Vec<CartCase>,
    /// Items that cannot be bought at the place, in the order of the panels.
    unavailable: Vec<DisabledProduct>,
    /// Each available item with its case type's name and what it costs.
    lines: Vec<(Item, String, i64)>,
    /// Each available item's deposit row, if it has one.
    deposit_lines: Vec<domain::deposits::DepositLine>,
    /// Whether any case is not yet full.
    incomplete: bool,
}

impl Cases {
    fn of(pricing: &Pricing, groups: BTreeMap<(i32, i32), Group>) -> Result<Self, ApiError> {
        let mut cases = Self::default();
        for ((_, packaging), group) in groups {
            cases.add_case(pricing, packaging, group)?;
        }
        Ok(cases)
    }

    /// How many items (different products) the panels hold.
    fn item_count(&self) -> u32 {
        self.shopping_cart
            .iter()
            .map(|c| c.items.len() as u32)
            .sum()
    }

    /// The panel of one case type: its items priced, its cases filled.
    fn add_case(
        &mut self,
        pricing: &Pricing,
        packaging: i32,
        group: Group,
    ) -> Result<(), ApiError> {
        let case_type = pricing
            .case_types
            .iter()
            .find(|c| c.packaging_id == packaging);
        let upc = case_type.map_or(1, |c| c.unit_per_case);
        let min = case_type.map_or(1, |c| c.minimum_order_qty);
        let packaging_name = pricing
            .packagings
            .iter()
            .find(|k| k.id.get() == packaging)
            .map(|k| k.name.clone())
            .unwrap_or_default();
        let name = case_type.map_or_else(|| packaging_name.clone(), |c| c.name.clone());
        let mut case_items = Vec::new();
        let mut case_lines = Vec::new();
        let mut summary = Vec::new();
        for (item, reason) in group {
            let total = self.add_item(pricing, &item, reason.as_deref(), &name, &mut case_lines);
            summary.push(format!("{} x {}", item.product.product_name, item.quantity));
            case_items.push(CartItem::of(&item, total, &packaging_name, reason));
        }
        let fill = fill(upc, min, &case_lines)?;
        self.incomplete |= !fill.complete();
        self.shopping_cart.push(CartCase {
            name,
            packaging_id: domain::PackagingId::from_db(packaging),
            family: pricing.family(domain::PackagingId::from_db(packaging)),
            unit_noun: case_type.map(|c| c.unit_noun.clone()).unwrap_or_default(),
            unit_per_case: upc,
            minimum_order_qty: min,
            cases: fill.cases,
            units: fill.units,
            capacity: fill.capacity,
            missing: fill.missing,
            total: fill.amount,
            summary: summary.join(", "),
            items: case_items,
        });
        Ok(())
    }

    /// What an item's units cost. One that cannot be bought (`reason`) is listed as such; one
    /// that can counts in its case (`case_lines`), its deposit row and the order's lines.
    fn add_item(
        &mut self,
        pricing: &Pricing,
        item: &Item,
        reason: Option<&str>,
        case_name: &str,
        case_lines: &mut Vec<Line>,
    ) -> i64 {
        let p = &item.product;
        let units = u32::try_from(item.quantity).unwrap_or(0);
        let upc_item = u32::try_from(p.unit_per_case).unwrap_or(1);
        let total = cases::line_amount(units, upc_item, p.price, p.price_per_case);
        if let Some(reason) = reason {
            self.unavailable.push(DisabledProduct {
                id: p.id,
                product_name: p.product_name.clone(),
                reason: reason.to_string(),
            });
            return total;
        }
        case_lines.push(Line {
            units,
            amount: total,
        });
        if let Some(d) = pricing.deposit_of(p) {
            self.deposit_lines.push(domain::deposits::DepositLine {
                row: i64::from(d.id),
                per_case: d.amount,
                units,
                unit_per_case: upc_item,
            });
        }
        self.lines
            .push((item.clone(), case_name.to_string(), total));
        total
    }
}

/// How a case type's available items fill its cases (`upc` units a case, at least `min`).
fn fill(upc: i32, min: i32, lines: &[Line]) -> Result<cases::CaseFill, ApiError> {
    let rule = CaseRule {
        unit_per_case: u32::try_from(upc).unwrap_or(1),
        minimum_order_qty: u32::try_from(min).unwrap_or(1),
    };
    match rule.fill(lines) {
        Ok(f) => Ok(f),
        // Only unavailable items: nothing counts.
        Err(cases::CaseError::Empty) => Ok(cases::CaseFill {
            units: 0,
            cases: 0,
            capacity: 0,
            missing: 0,
            amount: 0,
        }),
        Err(e) => Err(ApiError::Internal(format!("case math: {e:?}"))),
    }
}

/// The summary's deposit lines (each row charged, then the credit for the empties returned
/// against it, if any) and the empties the shopper may return (one a row charged).
fn deposits(
    pricing: &Pricing,
    deposit_lines: &[domain::deposits::DepositLine],
    empties: &[(i32, i32)],
) -> (Vec<NameAmount>, Vec<EmptiesLine>) {
    let charged = domain::deposits::charged(deposit_lines);
    let mut deposits = Vec::new();
    let mut empties_lines = Vec::new();
    for (row, amount) in &charged {
        let Some(d) = pricing.deposits.iter().find(|d| i64::from(d.id) == *row) else {
            continue;
        };
        deposits.push(NameAmount {
            name: d.name.clone(),
            amount: *amount,
        });
        let line = empties_line(d, *amount, empties);
        if line.credit > 0 {
            deposits.push(NameAmount {
                name: format!("Returned empties: {} x {}", line.returned, d.name),
                amount: -line.credit,
            });
        }
        empties_lines.push(line);
    }
    (deposits, empties_lines)
}

/// The empties line of deposit row `d`, which the cart is charged `amount` for: the empty
/// cases returned, at most as many as the cases charged, and their credit.
fn empties_line(d: &db::carts::Deposit, amount: i64, empties: &[(i32, i32)]) -> EmptiesLine {
    let returned = empties
        .iter()
        .find(|(id, _)| *id == d.id)
        .map_or(0, |(_, n)| *n);
    let max_cases = if d.amount > 0 {
        i32::try_from((amount + d.amount - 1) / d.amount).unwrap_or(i32::MAX)
    } else {
        0
    };
    let returned = returned.min(max_cases);
    let credit = domain::deposits::credit(amount, d.amount, u32::try_from(returned).unwrap_or(0));
    EmptiesLine {
        deposit_id: d.id,
        name: d.name.clone(),
        per_case: d.amount,
        returned,
        max_cases,
        credit,
    }
}

/// The summary's items: one line a case panel with units in it.
fn items_in_cart(shopping_cart: &[CartCase]) -> Vec<NameAmount> {
    shopping_cart
        .iter()
        .filter(|c| c.units > 0)
        .map(|c| NameAmount {
            name: format!(
                "{} ({} {})",
                c.name,
                c.cases,
                if c.cases == 1 { "case" } else { "cases" }
            ),
            amount: c.total,
        })
        .collect()
}

/// Why the cart cannot go to checkout whatever the hour: it is empty, holds what cannot be
/// bought at `place`, or has a case not yet full. None: only the store's hours can keep it.
fn blocked_reason(cases: &Cases, item_count: u32, place: &Place) -> Option<String> {
    if item_count == 0 {
        Some(EMPTY.to_string())
    } else if !cases.unavailable.is_empty() {
        Some(format!(
            "Remove what cannot be bought in {}: {}.",
            place.barangay.barangay_name,
            cases
                .unavailable
                .iter()
                .map(|u| u.product_name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    } else if cases.incomplete {
        Some(INCOMPLETE.to_string())
    } else {
        None
    }
}

/// Why checkout takes no order at `now`, from the hours and blackouts in the database.
pub fn closed_reason(
    ctx: &mut Ctx,
    now: time::PrimitiveDateTime,
) -> Result<Option<String>, ApiError> {
    let window = db::orders::checkout_window(ctx.conn)?;
    let hm = time::macros::format_description!("[hour]:[minute]");
    let opens = time::Time::parse(&window.opens, &hm).unwrap_or(time::macros::time!(08:00));
    let closes = time::Time::parse(&window.closes, &hm).unwrap_or(time::macros::time!(22:00));
    let at = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    let blackouts: Vec<domain::ordering::Blackout> = window
        .blackouts
        .iter()
        .filter_map(|(s, e)| {
            Some(domain::ordering::Blackout {
                start: time::PrimitiveDateTime::parse(s, &at).ok()?,
                end: time::PrimitiveDateTime::parse(e, &at).ok()?,
            })
        })
        .collect();
    Ok(domain::ordering::closed(now, opens, closes, &blackouts).map(|c| c.message()))
}

#[cfg(test)]
mod tests {
    use domain::FilterType::{Bottle, Can, Keg};

    #[test]
    fn only_the_other_family_resets_the_cart() {
        assert!(super::resets([Bottle, Bottle, Can], Keg));
        assert!(!super::resets([Bottle, Can], Can));
        assert!(!super::resets([Bottle, Can], Bottle));
        assert!(super::resets([Keg], Bottle));
        assert!(!super::resets([Keg], Keg));
        assert!(!super::resets([], Keg), "an empty cart goes straight on");
    }

    #[test]
    fn a_delivery_fee_is_its_citys_for_its_fulfillment_and_none_without_a_row() {
        use domain::{CityId, FulfillmentId};
        let fee = |city, fulfillment, amount| db::carts::DeliveryFee {
            city: CityId::from_db(city),
            fulfillment: FulfillmentId::from_db(fulfillment),
            amount,
        };
        let pricing = super::Pricing {
            version: 1,
            case_types: vec![],
            deposits: vec![],
            packagings: vec![],
            delivery_fees: vec![
                fee(1380300000, 1, 10_000),
                fee(1380300000, 2, 0),
                fee(1381300000, 1, 15_000),
            ],
        };
        let at = |city, fulfillment| {
            pricing.delivery_fee(CityId::from_db(city), FulfillmentId::from_db(fulfillment))
        };
        assert_eq!(at(1380300000, 1), 10_000);
        assert_eq!(at(1381300000, 1), 15_000, "each city its own");
        assert_eq!(at(1380300000, 2), 0);
        assert_eq!(at(1381300000, 2), 0, "no row: no fee");
        assert_eq!(at(1380100000, 1), 0, "a city without fees");
    }
}
