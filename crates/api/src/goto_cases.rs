//! Go-to Cases (issue 16, SPEC 1-3 and 8): a member saves a case of the cart (its items of one
//! case type) under a name, adds other cases of that type to it, renames it, changes its
//! quantities, removes items, deletes it, and refills the cart from it ([`crate::refill`]).
//! Members only (401 for anyone else); another member's case is the same 404 as an unknown one.
//! Names are unique per member whatever their case; at most [`MAX_CASES`] cases a member and
//! [`MAX_ITEMS`] items a case.

use std::collections::BTreeMap;

use db::carts::Item;
use db::goto_cases::GotoCaseRow;
use db::places::Place;
use domain::cases;
use domain::{BarangayId, ProductId, UserId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::cart::{unavailable_reason, CartItem, Pricing};
use crate::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use crate::error::ApiError;

crate::register!(
    GotoCaseList,
    GotoCaseGet,
    GotoCaseOptions,
    GotoCaseCreate,
    GotoCaseUpdate,
    GotoCaseDelete,
    GotoCaseRemoveItems
);

/// The most Go-to Cases a member keeps.
pub const MAX_CASES: i64 = 50;
/// The most items (different products) a Go-to Case holds.
pub const MAX_ITEMS: usize = 50;
/// The longest name.
pub const MAX_NAME: usize = 60;

/// A Go-to Case as the member sees it, priced for a barangay when one is given.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GotoCaseView {
    pub id: i64,
    /// The member's name for it (SPEC 3's `case_name`).
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

/// SPEC 3's compatible-case lookup: the answer's data is a list of cases.
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
        Some(p) if p.served => {
            let all: Vec<ProductId> = items.values().flatten().map(|i| i.product.id).collect();
            db::carts::listed_in_city(ctx.conn, p.city.id, &all)?
        }
        _ => Vec::new(),
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

// ---------------------------------------------------------------------------------------------
// The calls

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Price the cases for this barangay (the location gate's): each item says whether it can be
    /// bought there.
    pub barangay: Option<BarangayId>,
    /// Product ids of a cart case (`1,5,12`): only the Go-to Cases of that case type, the ones
    /// that case can be added to.
    #[param(pattern = r"^ *[1-9][0-9]{0,8} *(, *[1-9][0-9]{0,8} *){0,49}$")]
    pub cart_items: Option<String>,
}

/// Product ids as a list's text (`1,5,12`), 1 to 50 of them.
fn id_list(text: &str, field: &'static str) -> Result<Vec<ProductId>, ApiError> {
    let ids: Option<Vec<ProductId>> = text
        .split(',')
        .map(|id| ProductId::parse(id.trim()))
        .collect();
    match ids {
        Some(ids) if !ids.is_empty() && ids.len() <= MAX_ITEMS => Ok(ids),
        _ => Err(ApiError::Invalid {
            field,
            message: format!("Name 1 to {MAX_ITEMS} products by their ids: 1,5,12."),
        }),
    }
}

crate::declare!(
    /// `GET /api/v1/user/goto-case`.
    pub struct GotoCaseList = Get "/api/v1/user/goto-case" as "gotoCases", Session, errors [401, 404, 422],
    (NoParams, ListQuery, NoBody) -> GotoCases,
    "The member's Go-to Cases, priced for a barangay; with cart_items, those of that cart case's type.");

impl Endpoint for GotoCaseList {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<GotoCases, ApiError> {
        let member = ctx.member()?;
        let place = place_for(ctx, q.barangay)?;
        let pricing = Pricing::load(ctx)?;
        let mut rows = db::goto_cases::list(ctx.conn, member.id)?;
        if let Some(text) = q.cart_items.as_deref() {
            let ids = id_list(text, "cart_items")?;
            let mut packagings = Vec::new();
            for id in ids {
                if let Some(p) = db::carts::product(ctx.conn, id)? {
                    packagings.push(p.packaging_id.get());
                }
            }
            packagings.sort_unstable();
            packagings.dedup();
            if packagings.len() > 1 {
                return Err(ApiError::Invalid {
                    field: "cart_items",
                    message: "Name the items of one case of your cart (one case type).".into(),
                });
            }
            rows.retain(|r| packagings.contains(&r.packaging_id));
        }
        Ok(GotoCases {
            data: views(ctx, &pricing, &rows, place.as_ref())?,
        })
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct CasePath {
    /// The Go-to Case's id.
    pub id: i64,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlaceQuery {
    /// Price the case for this barangay.
    pub barangay: Option<BarangayId>,
}

crate::declare!(
    /// `GET /api/v1/user/goto-case/{id}`.
    pub struct GotoCaseGet = Get "/api/v1/user/goto-case/{id}" as "gotoCase", Session, errors [401, 404],
    (CasePath, PlaceQuery, NoBody) -> GotoCaseView,
    "One of the member's Go-to Cases, priced for a barangay when one is given.");

impl Endpoint for GotoCaseGet {
    fn call(ctx: &mut Ctx, (p, q, _, _): Args<Self>) -> Result<GotoCaseView, ApiError> {
        let member = ctx.member()?;
        let place = place_for(ctx, q.barangay)?;
        let pricing = Pricing::load(ctx)?;
        view_one(ctx, &pricing, member.id, p.id, place.as_ref())
    }
}

crate::declare!(
    /// `GET /api/v1/user/goto-case/options`.
    pub struct GotoCaseOptions = Get "/api/v1/user/goto-case/options" as "gotoCaseOptions", Session, errors [401],
    (NoParams, NoParams, NoBody) -> GotoCaseChoices,
    "What the Go-to Case form offers: the member's cases by name and type, and the limits.");

impl Endpoint for GotoCaseOptions {
    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<GotoCaseChoices, ApiError> {
        let member = ctx.member()?;
        let pricing = Pricing::load(ctx)?;
        let rows = db::goto_cases::list(ctx.conn, member.id)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let items = db::goto_cases::items(ctx.conn, &ids)?;
        let cases: Vec<GotoCaseOption> = rows
            .iter()
            .map(|r| GotoCaseOption {
                id: r.id,
                case_name: r.name.clone(),
                case_type: case_type(&pricing, r.packaging_id).0,
                packaging_id: domain::PackagingId::from_db(r.packaging_id),
                item_count: items.iter().filter(|(c, _)| *c == r.id).count() as u32,
            })
            .collect();
        Ok(GotoCaseChoices {
            can_create: (cases.len() as i64) < MAX_CASES,
            cases,
            max_cases: MAX_CASES,
            max_items: MAX_ITEMS as u32,
        })
    }
}

/// SPEC 3's creation payload: a cart case saved as a new Go-to Case (`name`) or added to one the
/// member has (`case_id`).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CreateBody {
    /// The new Go-to Case's name (ignored when `case_id` is given).
    #[serde(default)]
    #[schema(max_length = 60)]
    pub name: Option<String>,
    /// An existing Go-to Case to add the cart case to.
    #[serde(default)]
    pub case_id: Option<i64>,
    /// The products of the cart case (its items, with the cart's quantities): a list, or a
    /// form's `1,5,12`.
    #[serde(default, deserialize_with = "crate::cart::one_or_many")]
    #[schema(min_items = 1, max_items = 50)]
    pub cart_items: Vec<ProductId>,
    /// The barangay to price the answer for.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
}

crate::declare!(
    /// `POST /api/v1/user/goto-case`.
    pub struct GotoCaseCreate = Post "/api/v1/user/goto-case" as "createGotoCase", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<CreateBody, true>) -> GotoCaseSaved,
    "Saves a case of the member's cart as a new Go-to Case (name), or adds it to one they have (case_id).");

impl Endpoint for GotoCaseCreate {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<GotoCaseSaved, ApiError> {
        let member = ctx.member()?;
        if b.cart_items.is_empty() || b.cart_items.len() > MAX_ITEMS {
            return Err(ApiError::Invalid {
                field: "cart_items",
                message: format!("Choose a case of your cart (1 to {MAX_ITEMS} products)."),
            });
        }
        let name = match (b.case_id, b.name.as_deref()) {
            // Adding to a case: a name typed as well is not used, but it is never one the
            // store would refuse (the document bounds it either way).
            (Some(_), Some(n)) if !n.is_empty() => {
                check_name(n, "your new Go-to Case")?;
                None
            }
            (Some(_), _) => None,
            (None, Some(n)) => Some(check_name(n, "your new Go-to Case")?.to_string()),
            (None, None) => {
                return Err(ApiError::Invalid {
                    field: "name",
                    message: "Choose one of your Go-to Cases, or enter a name for a new one."
                        .into(),
                })
            }
        };
        let place = place_for(ctx, b.barangay)?;
        let pricing = Pricing::load(ctx)?;
        // The cart case: the cart's items named, all of one case type.
        let cart = db::carts::find(ctx.conn, db::carts::Owner::Member(member.id))?;
        let in_cart = match &cart {
            Some(c) => db::carts::items(ctx.conn, c.id)?,
            None => Vec::new(),
        };
        let mut chosen: Vec<&Item> = Vec::new();
        for id in &b.cart_items {
            let item = in_cart
                .iter()
                .find(|i| i.product.id == *id)
                .ok_or_else(|| {
                    ApiError::refused(
                        422,
                        "cart_items",
                        format!("Product {id} is not in your cart."),
                    )
                })?;
            if !chosen.iter().any(|c| c.product.id == *id) {
                chosen.push(item);
            }
        }
        let packaging = chosen[0].product.packaging_id.get();
        if chosen
            .iter()
            .any(|i| i.product.packaging_id.get() != packaging)
        {
            return Err(ApiError::refused(
                422,
                "cart_items",
                "A Go-to Case holds one case type: choose the items of one case of your cart.",
            ));
        }
        let (cart_case, _, _) = case_type(&pricing, packaging);
        let now = domain::calendar::unix_now();
        let saved = db::write_transaction(ctx.conn, |conn| {
            db::goto_cases::hold_member(conn, member.id)?;
            let (id, clipped) = match (b.case_id, &name) {
                (Some(id), _) => {
                    let row =
                        db::goto_cases::find(conn, member.id, id)?.ok_or_else(|| not_found(id))?;
                    if row.packaging_id != packaging {
                        let (theirs, _, _) = case_type(&pricing, row.packaging_id);
                        return Err(ApiError::refused(
                            422,
                            "case_id",
                            format!(
                                "Your Go-to Case \"{}\" holds {theirs}: add this case of {cart_case} to a Go-to Case of {cart_case}, or create a new one.",
                                row.name
                            ),
                        ));
                    }
                    let have = db::goto_cases::items(conn, &[id])?;
                    let new = chosen
                        .iter()
                        .filter(|c| !have.iter().any(|(_, h)| h.product.id == c.product.id))
                        .count();
                    if have.len() + new > MAX_ITEMS {
                        return Err(ApiError::refused(
                            422,
                            "case_id",
                            format!(
                                "A Go-to Case holds at most {MAX_ITEMS} products; \"{}\" has {}.",
                                row.name,
                                have.len()
                            ),
                        ));
                    }
                    let mut clipped = false;
                    for item in &chosen {
                        let before = have
                            .iter()
                            .find(|(_, h)| h.product.id == item.product.id)
                            .map_or(0, |(_, h)| h.quantity);
                        let total = before + item.quantity;
                        clipped |= total > cases::MAX_QUANTITY as i32;
                        db::goto_cases::set_quantity(
                            conn,
                            id,
                            item.product.id,
                            total.min(cases::MAX_QUANTITY as i32),
                            now,
                        )?;
                    }
                    db::goto_cases::touch(conn, id, now)?;
                    (id, clipped)
                }
                (None, Some(name)) => {
                    if db::goto_cases::find_by_name(conn, member.id, name)?.is_some() {
                        return Err(taken(name));
                    }
                    if db::goto_cases::count(conn, member.id)? >= MAX_CASES {
                        return Err(ApiError::refused(
                            422,
                            "name",
                            format!(
                                "You have {MAX_CASES} Go-to Cases, the most you can keep. Delete one first, or add to one you have."
                            ),
                        ));
                    }
                    let id = db::goto_cases::create(conn, member.id, name, packaging, now)?;
                    for item in &chosen {
                        db::goto_cases::set_quantity(
                            conn,
                            id,
                            item.product.id,
                            item.quantity,
                            now,
                        )?;
                    }
                    (id, false)
                }
                (None, None) => unreachable!("checked above"),
            };
            Ok::<_, ApiError>((id, clipped))
        });
        let (id, clipped) = match saved {
            Err(e) if is_unique_violation(&e) => return Err(taken(name.as_deref().unwrap_or(""))),
            other => other?,
        };
        let view = view_one(ctx, &pricing, member.id, id, place.as_ref())?;
        let mut message = if b.case_id.is_some() {
            format!(
                "You successfully added from your case \"{cart_case}\" to your existing Go-to Case \"{}\"",
                view.case_name
            )
        } else {
            format!(
                "You successfully created Go-to Case \"{}\" from your case \"{cart_case}\"",
                view.case_name
            )
        };
        if clipped {
            message.push_str(&format!(
                ". A Go-to Case holds at most {} of a product: the rest was left out.",
                cases::MAX_QUANTITY
            ));
        }
        Ok(GotoCaseSaved {
            message,
            link: link(
                if b.case_id.is_some() {
                    "added"
                } else {
                    "created"
                },
                id,
            ),
            goto_case: view,
            created: b.case_id.is_none(),
        })
    }
}

/// An item's new quantity.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ItemQuantity {
    pub product_id: ProductId,
    /// Units, 1-999.
    #[schema(minimum = 1, maximum = 999)]
    pub quantity: i64,
}

/// A change of a Go-to Case: its name, and its items' quantities (`items`, or one item as
/// `product_id` and `quantity`, as a form without JavaScript sends it).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct UpdateBody {
    pub case_id: Option<i64>,
    /// Left out to keep the name; never `null`.
    #[serde(default, deserialize_with = "crate::endpoint::not_null")]
    #[schema(max_length = 60)]
    pub name: Option<String>,
    #[serde(default)]
    #[schema(max_items = 50)]
    pub items: Vec<ItemQuantity>,
    #[serde(default, deserialize_with = "crate::endpoint::not_null")]
    pub product_id: Option<ProductId>,
    #[serde(default, deserialize_with = "crate::endpoint::not_null")]
    #[schema(minimum = 1, maximum = 999)]
    pub quantity: Option<i64>,
    /// The barangay to price the answer for.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
}

crate::declare!(
    /// `PUT /api/v1/user/goto-case`.
    pub struct GotoCaseUpdate = Put "/api/v1/user/goto-case" as "updateGotoCase", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<UpdateBody, true>) -> GotoCaseSaved,
    "Renames a Go-to Case and sets its items' quantities.");

impl Endpoint for GotoCaseUpdate {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<GotoCaseSaved, ApiError> {
        let member = ctx.member()?;
        let id = b.case_id.ok_or_else(|| ApiError::Invalid {
            field: "case_id",
            message: "Choose a Go-to Case.".into(),
        })?;
        let mut items = b.items.clone();
        match (b.product_id, b.quantity) {
            (Some(product_id), Some(quantity)) => items.push(ItemQuantity {
                product_id,
                quantity,
            }),
            (Some(_), None) => {
                return Err(ApiError::Invalid {
                    field: "quantity",
                    message: "Enter the quantity.".into(),
                })
            }
            (None, Some(_)) => {
                return Err(ApiError::Invalid {
                    field: "product_id",
                    message: "Choose the product whose quantity changes.".into(),
                })
            }
            (None, None) => {}
        }
        if items.len() > MAX_ITEMS {
            return Err(ApiError::Invalid {
                field: "items",
                message: format!("A Go-to Case holds at most {MAX_ITEMS} products."),
            });
        }
        let mut checked = Vec::new();
        for i in &items {
            let q = cases::check_quantity(i.quantity)
                .map_err(|message| ApiError::refused(422, "quantity", message))?;
            checked.push((i.product_id, q as i32));
        }
        let name = b
            .name
            .as_deref()
            .map(|n| check_name(n, "your Go-to Case"))
            .transpose()?;
        if name.is_none() && checked.is_empty() {
            return Err(ApiError::Invalid {
                field: "name",
                message: "Enter a new name or new quantities.".into(),
            });
        }
        let place = place_for(ctx, b.barangay)?;
        let pricing = Pricing::load(ctx)?;
        let now = domain::calendar::unix_now();
        let done = db::write_transaction(ctx.conn, |conn| {
            db::goto_cases::hold_member(conn, member.id)?;
            let row = db::goto_cases::find(conn, member.id, id)?.ok_or_else(|| not_found(id))?;
            if let Some(name) = name {
                if let Some(other) = db::goto_cases::find_by_name(conn, member.id, name)? {
                    if other.id != id {
                        return Err(taken(name));
                    }
                }
                db::goto_cases::rename(conn, id, name, now)?;
            }
            let have = db::goto_cases::items(conn, &[id])?;
            for (product, quantity) in &checked {
                if !have.iter().any(|(_, h)| h.product.id == *product) {
                    return Err(ApiError::refused(
                        404,
                        "product_id",
                        format!(
                            "Product {product} is not in your Go-to Case \"{}\".",
                            row.name
                        ),
                    ));
                }
                db::goto_cases::set_quantity(conn, id, *product, *quantity, now)?;
            }
            db::goto_cases::touch(conn, id, now)?;
            Ok::<_, ApiError>(())
        });
        match done {
            Err(e) if is_unique_violation(&e) => return Err(taken(name.unwrap_or(""))),
            other => other?,
        }
        let view = view_one(ctx, &pricing, member.id, id, place.as_ref())?;
        Ok(GotoCaseSaved {
            message: format!("Your Go-to Case \"{}\" is saved.", view.case_name),
            link: link("saved", id),
            goto_case: view,
            created: false,
        })
    }
}

crate::declare!(
    /// `DELETE /api/v1/user/goto-case/{id}`.
    pub struct GotoCaseDelete = Delete "/api/v1/user/goto-case/{id}" as "deleteGotoCase", Write, errors [401, 404],
    (CasePath, NoParams, NoBody) -> GotoCaseDeleted,
    "Deletes one of the member's Go-to Cases.");

impl Endpoint for GotoCaseDelete {
    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<GotoCaseDeleted, ApiError> {
        let member = ctx.member()?;
        let row = own_case(ctx, member.id, p.id)?;
        let gone = db::write_transaction(ctx.conn, |conn| {
            db::goto_cases::hold_member(conn, member.id)?;
            db::goto_cases::delete(conn, member.id, p.id)
        })?;
        if !gone {
            return Err(not_found(p.id));
        }
        Ok(GotoCaseDeleted {
            message: format!("Your Go-to Case \"{}\" is deleted.", row.name),
            case_name: row.name,
        })
    }
}

/// Items to take out of a Go-to Case.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RemoveItemsBody {
    pub case_id: Option<i64>,
    /// 1 to 50 product ids: a list, or a form's `1,5,12`.
    #[serde(default, deserialize_with = "crate::cart::one_or_many")]
    #[schema(min_items = 1, max_items = 50)]
    pub items: Vec<ProductId>,
    /// The barangay to price the answer for.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
}

crate::declare!(
    /// `DELETE /api/v1/user/goto-case/items`.
    pub struct GotoCaseRemoveItems = Delete "/api/v1/user/goto-case/items" as "removeGotoCaseItems", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<RemoveItemsBody, true>) -> GotoCaseSaved,
    "Takes items out of a Go-to Case (the case stays, empty or not).");

impl Endpoint for GotoCaseRemoveItems {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<GotoCaseSaved, ApiError> {
        let member = ctx.member()?;
        let id = b.case_id.ok_or_else(|| ApiError::Invalid {
            field: "case_id",
            message: "Choose a Go-to Case.".into(),
        })?;
        if b.items.is_empty() || b.items.len() > MAX_ITEMS {
            return Err(ApiError::Invalid {
                field: "items",
                message: format!("Name 1 to {MAX_ITEMS} products to remove."),
            });
        }
        let place = place_for(ctx, b.barangay)?;
        let pricing = Pricing::load(ctx)?;
        let now = domain::calendar::unix_now();
        let removed = db::write_transaction(ctx.conn, |conn| {
            db::goto_cases::hold_member(conn, member.id)?;
            db::goto_cases::find(conn, member.id, id)?.ok_or_else(|| not_found(id))?;
            let n = db::goto_cases::remove(conn, id, &b.items)?;
            if n == 0 {
                return Err(ApiError::refused(
                    404,
                    "items",
                    "None of these products is in this Go-to Case.",
                ));
            }
            db::goto_cases::touch(conn, id, now)?;
            Ok::<_, ApiError>(n)
        })?;
        let view = view_one(ctx, &pricing, member.id, id, place.as_ref())?;
        Ok(GotoCaseSaved {
            message: format!(
                "Removed {removed} item(s) from your Go-to Case \"{}\".",
                view.case_name
            ),
            link: link("removed", id),
            goto_case: view,
            created: false,
        })
    }
}
