//! The orders board: the store's orders newest first, how many have each status, filtered by
//! status, the days they were placed, delivery or pickup, city and barangay, and a text (an order
//! number, part of a name or a mobile number), a page at a time (keyset: the next page starts
//! below the last order shown).

use domain::ordering::Status;
use domain::{BarangayId, CityId, FulfillmentId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::super::signed_in_as;
use super::{StatusChoice, WORKERS};
use framework::endpoint::{Args, Ctx, Endpoint, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffOrders);

/// Orders a page of the board shows.
pub const PAGE: i64 = 25;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// One status.
    #[param(inline)]
    pub status: Option<Status>,
    /// Placed on or after this Manila day (`YYYY-MM-DD`).
    #[param(schema_with = framework::rules::day)]
    pub from: Option<String>,
    /// Placed on or before this Manila day (`YYYY-MM-DD`).
    #[param(schema_with = framework::rules::day)]
    pub to: Option<String>,
    pub fulfillment: Option<FulfillmentId>,
    /// Paid in cash or online.
    #[param(inline)]
    pub paid: Option<PaidBy>,
    pub city: Option<CityId>,
    pub barangay: Option<BarangayId>,
    /// An order number (`TB-000042`), or part of a contact's name or mobile number.
    #[param(schema_with = framework::rules::search)]
    pub q: Option<String>,
    /// Orders older than this one (the next page: the last page's `next_before`).
    #[param(minimum = 1)]
    pub before: Option<i64>,
}

/// How orders are paid, as the board filters them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaidBy {
    /// To the rider or at pickup.
    Cash,
    /// Online, paid or awaiting its payment.
    Online,
}

/// An order as a line of the board.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct BoardOrder {
    pub id: i64,
    pub number: String,
    /// Manila time, `YYYY-MM-DD HH:MM`.
    pub placed_at: String,
    pub status: StatusChoice,
    pub fulfillment: String,
    /// How it is paid: `Cash on delivery`, `Pay at pickup`, `Pay online` (awaiting its payment),
    /// `Paid online (GCash)`.
    pub payment: String,
    pub contact_name: String,
    pub mobile: String,
    /// Where: the street (when one is named), barangay, city and province, as the order keeps it.
    pub place: String,
    /// Centavos.
    pub total: i64,
}

/// How many orders have a status.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StatusCount {
    pub status: StatusChoice,
    pub count: i64,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct BoardPage {
    /// Every status with its number of orders (the whole store, whatever the filters).
    pub counts: Vec<StatusCount>,
    pub orders: Vec<BoardOrder>,
    /// Where the next (older) page starts, when there is one.
    pub next_before: Option<i64>,
    /// The served cities, by name: the city filter's choices.
    pub cities: Vec<PlaceChoice>,
    /// The barangays of the city filtered by, by name (none without a city).
    pub barangays: Vec<PlaceChoice>,
}

/// A city or barangay the board filters by.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PlaceChoice {
    pub id: i64,
    pub name: String,
}

/// How many orders of the store have each of `statuses`, in that order.
pub fn counts(ctx: &mut Ctx, statuses: &[Status]) -> Result<Vec<StatusCount>, ApiError> {
    let counted = db::staff::status_counts(ctx.conn)?;
    Ok(statuses
        .iter()
        .map(|s| StatusCount {
            count: counted
                .iter()
                .find(|(name, _)| name == s.as_str())
                .map_or(0, |(_, n)| *n),
            status: (*s).into(),
        })
        .collect())
}

fn bad(message: &str) -> ApiError {
    ApiError::BadRequest(message.into())
}

/// The query as the board's filter.
fn filter(q: BoardQuery) -> Result<db::staff::BoardFilter, ApiError> {
    let day = |d: &Option<String>, name: &str| -> Result<Option<i64>, ApiError> {
        d.as_deref()
            .map(|d| {
                domain::calendar::manila_day_start(d.trim())
                    .ok_or_else(|| bad(&format!("{name} is a day, YYYY-MM-DD.")))
            })
            .transpose()
    };
    let status = q.status;
    let before_id = super::super::positive("before", q.before)?;
    let text = super::super::search_text("q", q.q)?;
    Ok(db::staff::BoardFilter {
        status: status.map(|s| s.as_str().to_string()),
        from: day(&q.from, "from")?,
        until: day(&q.to, "to")?.map(|d| d + 86_400),
        fulfillment: q.fulfillment.map(FulfillmentId::get),
        online: q.paid.map(|p| p == PaidBy::Online),
        city: q.city.map(CityId::get),
        barangay: q.barangay.map(BarangayId::get),
        number: text.as_deref().and_then(crate::orders::parse_number),
        text,
        before_id,
        limit: PAGE + 1,
    })
}

framework::declare!(
    /// `GET /api/v1/staff/orders`: the orders board (dispatchers and managers).
    pub struct StaffOrders = Get "/api/v1/staff/orders" as "staffOrders", Session, errors [401, 404],
    (NoParams, BoardQuery, NoBody) -> BoardPage,
    "The orders board: counts per status and a page of orders, newest first, filtered.");

impl Endpoint for StaffOrders {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<BoardPage, ApiError> {
        let signed = signed_in_as(ctx, &WORKERS)?;
        let args = format!("{q:?}");
        crate::staff::kept(ctx, &signed, "staffOrders", &args, |ctx| board(ctx, q))
    }
}

/// The board for `q`.
fn board(ctx: &mut Ctx, q: BoardQuery) -> Result<BoardPage, ApiError> {
    let city = q.city;
    let f = filter(q)?;
    let mut rows = db::staff::board(ctx.conn, &f)?;
    let more = rows.len() as i64 > PAGE;
    rows.truncate(PAGE as usize);
    let counts = counts(ctx, &Status::ALL)?;
    let orders: Vec<BoardOrder> = rows
        .into_iter()
        .map(|o| BoardOrder {
            number: crate::orders::number(o.id),
            placed_at: domain::calendar::manila_minute(o.placed_at),
            status: StatusChoice {
                label: crate::orders::label(&o.status),
                status: o.status,
            },
            id: o.id,
            fulfillment: o.fulfillment_name,
            payment: o.payment,
            contact_name: o.contact_name,
            mobile: o.mobile,
            place: o.place,
            total: o.total,
        })
        .collect();
    let cities = db::places::served_cities(ctx.conn, None, None)?
        .into_iter()
        .map(|c| PlaceChoice {
            id: c.id.get(),
            name: c.city_name,
        })
        .collect();
    let barangays = match city {
        Some(c) => db::places::barangays_of_city(ctx.conn, c)?
            .into_iter()
            .map(|b| PlaceChoice {
                id: b.id.get(),
                name: b.barangay_name,
            })
            .collect(),
        None => Vec::new(),
    };
    Ok(BoardPage {
        next_before: more.then(|| orders.last().map(|o| o.id)).flatten(),
        counts,
        orders,
        cities,
        barangays,
    })
}
