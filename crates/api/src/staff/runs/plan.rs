//! The runs of a day (a rider: of today and the coming days) and a new run: a rider, a day and
//! the confirmed delivery orders they take, grouped by barangay (`domain::dispatch::by_barangay`);
//! the dispatcher orders them after.

use domain::staff::Role;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::{dispatcher, invalid, lines, RunLine, EVERYONE};
use crate::staff::{entry, signed_in_as};
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffRuns, StaffRunCreate);

/// The most orders the waiting list shows.
pub const WAITING: i64 = 200;
/// The days a rider's runs page shows: the day and the next 7 (a dispatcher's, the day).
pub const RIDER_DAYS: i64 = 8;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DayQuery {
    /// A Manila day (`YYYY-MM-DD`), today when left out: the day shown (a rider's page shows
    /// the next 7 too).
    #[param(schema_with = framework::rules::day)]
    pub day: Option<String>,
}

/// An order waiting for a run.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct WaitingOrder {
    pub id: i64,
    pub number: String,
    pub contact_name: String,
    /// Where: the street (when one is named), barangay, city and province, as the order keeps it.
    pub place: String,
    /// Centavos.
    pub total: i64,
}

/// A rider a run may go to.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RiderChoice {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RunsPage {
    /// The first day shown (`YYYY-MM-DD`) and today (Manila).
    pub day: String,
    pub today: String,
    /// The last day shown: `day` itself unless more days are shown (a rider's page shows the
    /// next 7 too).
    pub until: String,
    /// The runs of the days shown, by day, oldest first in one; for a rider, their own (and any
    /// of theirs still open from an earlier day, first).
    pub runs: Vec<RunLine>,
    /// Confirmed delivery orders on no run (dispatchers and managers; a rider gets none).
    pub waiting: Vec<WaitingOrder>,
    /// The riders a run may go to (dispatchers and managers; a rider gets none).
    pub riders: Vec<RiderChoice>,
}

/// The Manila day `text` (`YYYY-MM-DD`), or refused on `field`.
pub(crate) fn day_of(field: &'static str, text: &str) -> Result<String, ApiError> {
    let t = text.trim();
    domain::calendar::parse_iso_date(t)
        .map(domain::calendar::iso_date)
        .ok_or_else(|| invalid(field, "Give the day as YYYY-MM-DD."))
}

/// The day `n` days after `day` (`YYYY-MM-DD`, a day checked by [`day_of`]).
fn day_plus(day: &str, n: i64) -> String {
    let Some(mut d) = domain::calendar::parse_iso_date(day) else {
        return day.to_string();
    };
    for _ in 0..n {
        d = d.next_day().unwrap_or(d);
    }
    domain::calendar::iso_date(d)
}

/// Today in Manila, `YYYY-MM-DD`.
pub(crate) fn today() -> String {
    domain::calendar::iso_date(domain::calendar::manila_now().date())
}

/// Orders `orders` in the order a run takes them: grouped by barangay, oldest first in one
/// (`domain::dispatch::by_barangay`; an order's `place` begins with its street, so the barangay
/// is read apart).
fn grouped(
    conn: &mut db::AnyConnection,
    orders: Vec<db::orders::OrderRow>,
) -> Result<Vec<db::orders::OrderRow>, ApiError> {
    let ids: Vec<i64> = orders.iter().map(|o| o.id).collect();
    let names = db::runs::barangays(conn, &ids)?;
    let keyed: Vec<(&str, i64)> = orders
        .iter()
        .map(|o| {
            let name = names.iter().find(|(id, _)| *id == o.id);
            (name.map_or(o.place.as_str(), |(_, n)| n.as_str()), o.id)
        })
        .collect();
    let order = domain::dispatch::by_barangay(&keyed);
    let mut slots: Vec<Option<db::orders::OrderRow>> = orders.into_iter().map(Some).collect();
    Ok(order.into_iter().filter_map(|i| slots[i].take()).collect())
}

/// Waiting orders as the pages list them: the oldest [`WAITING`], grouped by barangay.
pub(crate) fn waiting(ctx: &mut Ctx) -> Result<Vec<WaitingOrder>, ApiError> {
    let rows = db::runs::waiting(ctx.conn, domain::DEFAULT_FULFILLMENT.get(), WAITING)?;
    Ok(grouped(ctx.conn, rows)?
        .into_iter()
        .map(waiting_order)
        .collect())
}

/// The waiting orders a planned run has room for, nearest its stops first (`db::runs::waiting_near`:
/// its barangays, then its cities, then the rest; each grouped by barangay).
pub(crate) fn waiting_near(
    ctx: &mut Ctx,
    run: i64,
    stops: usize,
) -> Result<Vec<WaitingOrder>, ApiError> {
    let room = domain::dispatch::MAX_STOPS.saturating_sub(stops);
    if room == 0 {
        return Ok(Vec::new());
    }
    let tiers = db::runs::waiting_near(ctx.conn, domain::DEFAULT_FULFILLMENT.get(), run, room)?;
    Ok(tiers
        .into_iter()
        .flat_map(|tier| {
            let places: Vec<String> = tier.iter().map(db::runs::NearRow::barangay).collect();
            let keyed: Vec<(&str, i64)> = places
                .iter()
                .zip(&tier)
                .map(|(p, o)| (p.as_str(), o.id))
                .collect();
            let order = domain::dispatch::by_barangay(&keyed);
            let mut slots: Vec<Option<db::runs::NearRow>> = tier.into_iter().map(Some).collect();
            order
                .into_iter()
                .filter_map(|i| slots[i].take())
                .map(|o| WaitingOrder {
                    number: crate::orders::number(o.id),
                    id: o.id,
                    contact_name: o.contact_name,
                    place: o.place,
                    total: o.total,
                })
                .collect::<Vec<_>>()
        })
        .collect())
}

/// An order as the waiting list shows it.
fn waiting_order(o: db::orders::OrderRow) -> WaitingOrder {
    WaitingOrder {
        number: crate::orders::number(o.id),
        id: o.id,
        contact_name: o.contact_name,
        place: o.place,
        total: o.total,
    }
}

framework::declare!(
    /// `GET /api/v1/staff/runs`: a day's runs, the orders waiting for one and the riders
    /// (dispatchers and managers); a rider's own runs.
    pub struct StaffRuns = Get "/api/v1/staff/runs" as "staffRuns", Session, errors [400, 401, 404],
    (NoParams, DayQuery, NoBody) -> RunsPage,
    "A day's runs, the orders waiting for a run and the riders.");

impl Endpoint for StaffRuns {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<RunsPage, ApiError> {
        let signed = signed_in_as(ctx, &EVERYONE)?;
        let args = format!("{q:?}");
        crate::staff::kept(ctx, &signed, "staffRuns", &args, |ctx| {
            runs_page(ctx, &signed, q)
        })
    }
}

/// The day's runs `signed` sees.
fn runs_page(
    ctx: &mut Ctx,
    signed: &crate::staff::Signed,
    q: DayQuery,
) -> Result<RunsPage, ApiError> {
    let today = today();
    let day = match q.day.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) => day_of("day", d)
            .map_err(|_| ApiError::BadRequest("day is a day, YYYY-MM-DD.".into()))?,
        None => today.clone(),
    };
    let rider = signed.role == Role::Rider;
    // A rider's page is "My Runs": today's and the coming days' (a run planned for tomorrow
    // shows without the day chosen); a dispatcher's, the day's (and the orders waiting).
    let until = day_plus(&day, if rider { RIDER_DAYS - 1 } else { 0 });
    let mut runs = db::runs::of_days(ctx.conn, &day, &until, rider.then_some(signed.member.id))?;
    if rider {
        // Still open from an earlier day (out yesterday, not closed): first, as older.
        let earlier: Vec<db::runs::RunRow> = db::runs::open_of_rider(ctx.conn, signed.member.id)?
            .into_iter()
            .filter(|r| r.day < day)
            .collect();
        runs.splice(0..0, earlier);
    }
    let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
    let stops = db::runs::stops(ctx.conn, &ids)?;
    let (waiting, riders) = if rider {
        (Vec::new(), Vec::new())
    } else {
        let riders = db::runs::riders(ctx.conn)?
            .into_iter()
            .map(|(id, name)| RiderChoice { id, name })
            .collect();
        (waiting(ctx)?, riders)
    };
    Ok(RunsPage {
        runs: lines(&runs, &stops),
        day,
        today,
        until,
        waiting,
        riders,
    })
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RunForm {
    /// The rider (a member of staff whose role is rider).
    #[serde(default)]
    #[schema(required = true, nullable = false, minimum = 1)]
    pub rider_id: Option<i64>,
    /// The day of the run (`YYYY-MM-DD`, Manila): today or later.
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::day)]
    pub day: String,
    /// The orders it takes: confirmed delivery orders on no other run (a form sends `42,57`).
    #[serde(default, deserialize_with = "crate::staff::orders::status::order_ids")]
    #[schema(required = true, schema_with = stop_ids)]
    pub order_ids: Vec<i64>,
}

/// 1 to [`domain::dispatch::MAX_STOPS`] order ids.
pub(crate) fn stop_ids() -> utoipa::openapi::schema::ArrayBuilder {
    crate::staff::orders::status::ids_schema(
        domain::dispatch::MAX_STOPS,
        "The orders it takes: ids (a form sends `42,57`).",
    )
}

/// A run made or changed.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RunChanged {
    pub run_id: i64,
    /// The run's page.
    pub link: String,
    pub message: String,
}

/// In the caller's transaction: the orders of `ids` that go on run `run` (`None`: a run not yet
/// made). Each must exist (else 404) and be a delivery (else 422); one confirmed and on no open
/// run goes, one already on `run` stays where it is (a repeated add changes nothing), and one
/// on another run or not confirmed is refused with 409: where it stands may change.
pub(crate) fn takeable(
    conn: &mut db::AnyConnection,
    run: Option<i64>,
    ids: &[i64],
) -> Result<Vec<db::orders::OrderRow>, ApiError> {
    let orders = db::runs::orders(conn, ids)?;
    let mut take = Vec::new();
    for id in ids {
        let number = crate::orders::number(*id);
        let Some(o) = orders.iter().find(|o| o.id == *id) else {
            return Err(ApiError::NotFound(format!("There is no order {number}.")));
        };
        if o.fulfillment_type_id != domain::DEFAULT_FULFILLMENT.get() {
            return Err(invalid(
                "order_ids",
                format!("Order {number} is picked up at the store: it goes on no run."),
            ));
        }
        match db::runs::open_run_of(conn, *id)? {
            Some(other) if Some(other) == run => continue,
            Some(other) => {
                return Err(ApiError::Conflict(format!(
                    "Order {number} is already on run {other}."
                )))
            }
            None => {}
        }
        if o.status != "confirmed" {
            return Err(ApiError::Conflict(format!(
                "Order {number} is {}: only confirmed orders go on a run.",
                crate::orders::label(&o.status).to_lowercase()
            )));
        }
        take.push(o.clone());
    }
    Ok(take)
}

/// In the caller's transaction: `orders` (checked by [`takeable`]) added to run `run` after its
/// `after` stops, grouped by barangay; their numbers.
pub(crate) fn add_orders(
    conn: &mut db::AnyConnection,
    run: i64,
    orders: Vec<db::orders::OrderRow>,
    after: i32,
) -> Result<Vec<String>, ApiError> {
    let mut numbers = Vec::new();
    for (n, o) in grouped(conn, orders)?.into_iter().enumerate() {
        let number = crate::orders::number(o.id);
        match db::runs::add_stop(conn, run, o.id, after + n as i32 + 1) {
            Ok(()) => {}
            // Put on another run by a call that ran alongside, after the check above: the index
            // of open stops keeps it on one (on PostgreSQL; SQLite's writers take turns).
            Err(db::diesel::result::Error::DatabaseError(
                db::diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => {
                return Err(ApiError::Conflict(format!(
                    "Order {number} was just put on another run."
                )))
            }
            Err(e) => return Err(e.into()),
        }
        numbers.push(number);
    }
    Ok(numbers)
}

/// The order ids of a form, each once, 1 to [`domain::dispatch::MAX_STOPS`] of them.
pub(crate) fn chosen(mut ids: Vec<i64>) -> Result<Vec<i64>, ApiError> {
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() || ids.len() > domain::dispatch::MAX_STOPS {
        return Err(invalid(
            "order_ids",
            format!(
                "Choose 1 to {} orders for the run.",
                domain::dispatch::MAX_STOPS
            ),
        ));
    }
    Ok(ids)
}

framework::declare!(
    /// `POST /api/v1/staff/runs`: a new run of a rider on a day with orders (dispatchers and
    /// managers).
    pub struct StaffRunCreate = Post "/api/v1/staff/runs" as "staffRunCreate", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<RunForm, true>) -> RunChanged,
    "Plans a run: a rider, a day and the orders they take, grouped by barangay.");

impl Endpoint for StaffRunCreate {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<RunChanged, ApiError> {
        let signed = dispatcher(ctx)?;
        let rider = f
            .rider_id
            .ok_or_else(|| invalid("rider_id", "Choose the rider."))?;
        let ids = chosen(f.order_ids)?;
        let member = signed.member;
        let now = domain::calendar::unix_now();
        // The orders first (a missing one is 404, one taken or not confirmed 409), then the
        // rider (404 when the id names none) and the day.
        let (run, numbers, rider_name, day) = db::write_transaction(ctx.conn, |conn| {
            let orders = takeable(conn, None, &ids)?;
            // Riders are named by id like the orders: one that names no rider (a member of
            // staff of another role, a disabled rider, nobody) names nothing there is.
            let rider_name = db::runs::riders(conn)?
                .into_iter()
                .find(|(id, _)| *id == rider)
                .map(|(_, name)| name)
                .ok_or_else(|| {
                    ApiError::NotFound("Choose a rider of the store (not disabled).".into())
                })?;
            let day = day_of("day", &f.day)?;
            if day < today() {
                return Err(invalid("day", "A run is for today or a later day."));
            }
            let run = db::runs::create(conn, &day, rider, now)?;
            let numbers = add_orders(conn, run, orders, 0)?;
            entry(
                conn,
                Some(&member),
                "run.create",
                &format!("run {run}"),
                None,
                Some(serde_json::json!({ "rider": rider_name, "day": day, "orders": numbers })),
            )?;
            Ok::<_, ApiError>((run, numbers, rider_name, day))
        })?;
        Ok(RunChanged {
            run_id: run,
            link: format!("/staff/runs/{run}?done=created"),
            message: format!(
                "Run {run} for {rider_name} on {day}: {} stop(s).",
                numbers.len()
            ),
        })
    }
}
