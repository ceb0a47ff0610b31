//! Go-to Cases: a member saves a case of the cart (its items of one
//! case type) under a name, adds other cases of that type to it, renames it, changes its
//! quantities, removes items, deletes it, and refills the cart from it ([`refill`]).
//! Members only (401 for anyone else); another member's case is the same 404 as an unknown one.
//! Names are unique per member whatever their case; at most [`MAX_CASES`] cases a member and
//! [`MAX_ITEMS`] items a case.

pub mod create;
pub mod delete;
pub mod read;
pub mod refill;
pub mod update;

use std::collections::BTreeMap;

use db::carts::Item;
use db::goto_cases::GotoCaseRow;
use db::places::Place;
use domain::cases;
use domain::{BarangayId, ProductId, UserId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::cart::pricing::{listed_in, unavailable_reason, CartItem, Pricing};
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

/// The most Go-to Cases a member keeps.
pub const MAX_CASES: i64 = 50;
/// The most items (different products) a Go-to Case holds.
pub const MAX_ITEMS: usize = 50;

/// A list of 1 to `most` products, by id (a Go-to Case's items).
fn product_ids(most: usize) -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("ProductId"))
        .min_items(Some(1))
        .max_items(Some(most))
}
/// The longest name.
pub const MAX_NAME: usize = 60;

framework::export_const!(
    /// The longest name of a Go-to Case, in characters.
    GOTO_CASE_MAX_NAME = MAX_NAME
);

/// A Go-to Case as the member sees it, priced for a barangay when one is given.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GotoCaseView {
    pub id: i64,
    /// The member's name for it.
    pub case_name: String,
    /// Its case type: Bottles, Cans, Keg.
    pub case_type: String,
    pub packaging_id: domain::PackagingId,
    pub family: domain::FilterType,
    /// What one unit is called: bottle, can, keg.
    pub unit_noun: String,
    pub unit_per_case: i32,
    /// Its items at today's prices; `available` says whether each can be bought in the barangay
    /// priced for (without one: whether it is in stock).
    pub items: Vec<CartItem>,
    /// Units of the items that can be bought.
    pub units: u64,
    /// What those items cost now (centavos).
    pub total: i64,
    /// The barangay priced for, if any.
    pub barangay_id: Option<BarangayId>,
}

/// The compatible-case lookup: the answer's data is a list of cases.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GotoCases {
    pub data: Vec<GotoCaseView>,
}

/// A Go-to Case after a change, with what the change did.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GotoCaseSaved {
    pub message: String,
    pub goto_case: GotoCaseView,
    /// Whether the call made a new Go-to Case.
    pub created: bool,
    /// The Go-to Cases page, at this case, saying what happened (where a form without JavaScript
    /// goes).
    pub link: String,
}

/// One of the member's Go-to Cases, for the Go-to Case form's choice.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GotoCaseOption {
    pub id: i64,
    pub case_name: String,
    pub case_type: String,
    pub packaging_id: domain::PackagingId,
    pub item_count: u32,
}

/// What the Go-to Case form offers: the member's cases and the limits.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GotoCaseChoices {
    pub cases: Vec<GotoCaseOption>,
    pub max_cases: i64,
    pub max_items: u32,
    /// Whether the member may create another (fewer than `max_cases`).
    pub can_create: bool,
}

/// The deleted case's name, and what the page says.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GotoCaseDeleted {
    pub message: String,
    pub case_name: String,
}

/// The case type of a packaging: its name, unit noun and size.
fn case_type(pricing: &Pricing, packaging: i32) -> (String, String, i32) {
    match pricing
        .case_types
        .iter()
        .find(|c| c.packaging_id == packaging)
    {
        Some(c) => (c.name.clone(), c.unit_noun.clone(), c.unit_per_case),
        None => (
            pricing
                .packagings
                .iter()
                .find(|k| k.id.get() == packaging)
                .map(|k| k.name.clone())
                .unwrap_or_default(),
            String::new(),
            1,
        ),
    }
}

/// The member's cases `rows` with their items, priced for `place` (or the catalog's prices and
/// stock without one).
pub fn views(
    ctx: &mut Ctx,
    pricing: &Pricing,
    rows: &[GotoCaseRow],
    place: Option<&Place>,
) -> Result<Vec<GotoCaseView>, ApiError> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let mut items: BTreeMap<i64, Vec<Item>> = BTreeMap::new();
    for (case, item) in db::goto_cases::items(ctx.conn, &ids)? {
        items.entry(case).or_default().push(item);
    }
    let listed = match place {
        Some(p) => listed_in(ctx, p, items.values().flatten().map(|i| &i.product))?,
        None => Vec::new(),
    };
    Ok(rows
        .iter()
        .map(|row| {
            let (type_name, unit_noun, unit_per_case) = case_type(pricing, row.packaging_id);
            let packaging = domain::PackagingId::from_db(row.packaging_id);
            let packaging_name = pricing
                .packagings
                .iter()
                .find(|k| k.id == packaging)
                .map(|k| k.name.clone())
                .unwrap_or_default();
            let mut units = 0u64;
            let mut total = 0i64;
            let items = items
                .remove(&row.id)
                .unwrap_or_default()
                .into_iter()
                .map(|item| {
                    let p = &item.product;
                    let reason = match place {
                        Some(place) => unavailable_reason(p, place, &listed),
                        None if !p.orderable => Some("Out of stock.".to_string()),
                        None => None,
                    };
                    let q = u32::try_from(item.quantity).unwrap_or(0);
                    let amount = cases::line_amount(
                        q,
                        u32::try_from(p.unit_per_case).unwrap_or(1),
                        p.price,
                        p.price_per_case,
                    );
                    if reason.is_none() {
                        units += u64::from(q);
                        total = total.saturating_add(amount);
                    }
                    CartItem::of(&item, amount, &packaging_name, reason)
                })
                .collect();
            GotoCaseView {
                id: row.id,
                case_name: row.name.clone(),
                case_type: type_name,
                packaging_id: packaging,
                family: pricing.family(packaging),
                unit_noun,
                unit_per_case,
                items,
                units,
                total,
                barangay_id: place.map(|p| p.barangay.id),
            }
        })
        .collect())
}

/// One of the member's cases, or the 404 of an unknown one.
pub fn own_case(ctx: &mut Ctx, member: UserId, id: i64) -> Result<GotoCaseRow, ApiError> {
    db::goto_cases::find(ctx.conn, member, id)?.ok_or_else(|| not_found(id))
}

/// The Go-to Cases page at case `id`, saying `done`.
fn link(done: &str, id: i64) -> String {
    format!("/my-account/go-to-cases?done={done}&case={id}#case-{id}")
}

fn not_found(id: i64) -> ApiError {
    ApiError::refused(404, "case_id", format!("Go-to Case {id} not found."))
}

/// The barangay a call prices for, when it names one (404 when unknown).
fn place_for(ctx: &mut Ctx, barangay: Option<BarangayId>) -> Result<Option<Place>, ApiError> {
    barangay.map(|b| crate::cart::place_of(ctx, b)).transpose()
}

fn view_one(
    ctx: &mut Ctx,
    pricing: &Pricing,
    member: UserId,
    id: i64,
    place: Option<&Place>,
) -> Result<GotoCaseView, ApiError> {
    let row = own_case(ctx, member, id)?;
    views(ctx, pricing, &[row], place)?
        .pop()
        .ok_or_else(|| not_found(id))
}

/// A change of one of a member's Go-to Cases: what the create, change and remove calls each do
/// within the scaffold they share ([`save`]).
trait CaseChange {
    /// What the change reads before its transaction.
    type Read;
    /// What the write did, for the answer.
    type Done;

    /// Reads what the write needs, once the place and the prices are read.
    fn read(&self, ctx: &mut Ctx, pricing: &Pricing) -> Result<Self::Read, ApiError>;

    /// The change, in its transaction with the member's cases held: the case it changed, and
    /// what it did.
    fn write(
        &self,
        conn: &mut db::AnyConnection,
        member: UserId,
        read: &Self::Read,
        pricing: &Pricing,
        now: i64,
    ) -> Result<(i64, Self::Done), ApiError>;

    /// The name a unique violation of the write is about (answered as [`taken`]); none: such an
    /// error is answered as it is.
    fn name_taken(&self) -> Option<&str>;

    /// The answer, with the changed case as it is now.
    fn answer(&self, read: Self::Read, done: Self::Done, view: GotoCaseView) -> GotoCaseSaved;
}

/// The scaffold of a change of one of the member's Go-to Cases: the barangay to price the
/// answer for (404 when unknown), the prices, what the change reads, its write in one write
/// transaction with the member's cases held, and the changed case priced in the answer.
fn save<C: CaseChange>(
    ctx: &mut Ctx,
    member: UserId,
    barangay: Option<BarangayId>,
    change: &C,
) -> Result<GotoCaseSaved, ApiError> {
    let place = place_for(ctx, barangay)?;
    let pricing = Pricing::load(ctx)?;
    let read = change.read(ctx, &pricing)?;
    let now = domain::calendar::unix_now();
    let written = db::write_transaction(ctx.conn, |conn| {
        db::goto_cases::hold_member(conn, member)?;
        change.write(conn, member, &read, &pricing, now)
    });
    let (id, done) = match (written, change.name_taken()) {
        (Err(e), Some(name)) if is_unique_violation(&e) => return Err(taken(name)),
        (written, _) => written?,
    };
    let view = view_one(ctx, &pricing, member, id, place.as_ref())?;
    Ok(change.answer(read, done, view))
}

/// A name as typed, checked ([`domain::naming::check`]); `what` names it in the messages.
fn check_name<'a>(name: &'a str, what: &str) -> Result<&'a str, ApiError> {
    domain::naming::check(name, MAX_NAME).map_err(|message| ApiError::Invalid {
        field: "name",
        message: match message.as_str() {
            "Enter a name." => format!("Enter a name for {what}."),
            m => m.replace("A name", "A Go-to Case name"),
        },
    })
}

/// The 422 of a name the member already uses.
fn taken(name: &str) -> ApiError {
    ApiError::Invalid {
        field: "name",
        message: format!(
            "You already have a Go-to Case named \"{name}\". Choose another name, or add to that one."
        ),
    }
}

fn is_unique_violation(e: &ApiError) -> bool {
    matches!(e, ApiError::Internal(m) if m.contains("unique") || m.contains("UNIQUE"))
}
