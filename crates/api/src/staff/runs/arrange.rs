//! A planned run arranged by the dispatcher: orders added, a stop moved up or down or taken off
//! (a run left with no stop is deleted), and the run sent out, which moves its orders out for
//! delivery (the shoppers are mailed), all or none.

use domain::ordering::Status;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::plan::{add_orders, chosen, stop_ids, takeable, RunChanged};
use super::run::{view, RunView};
use super::{dispatcher, invalid, RunPath};
use crate::staff::entry;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody};
use framework::error::ApiError;

framework::register!(StaffRunStops, StaffRunArrange, StaffRunSend);

/// In a write transaction: run `id` held (404 when there is none).
fn held(conn: &mut db::AnyConnection, id: i64) -> Result<db::runs::RunRow, ApiError> {
    db::runs::hold(conn, id)?;
    db::runs::run(conn, id)?.ok_or_else(|| ApiError::NotFound("No such run.".into()))
}

/// In a write transaction: run `id` held, and still planned, or refused (409 once it went out).
fn hold_planned(conn: &mut db::AnyConnection, id: i64) -> Result<db::runs::RunRow, ApiError> {
    let run = held(conn, id)?;
    if run.sent_at.is_some() {
        return Err(ApiError::Conflict(format!(
            "Run {id} is out already: its stops stay as they are."
        )));
    }
    Ok(run)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct StopsForm {
    /// The orders to add: confirmed delivery orders on no other run (a form sends `42,57`).
    #[serde(default, deserialize_with = "crate::staff::orders::status::order_ids")]
    #[schema(required = true, schema_with = stop_ids)]
    pub order_ids: Vec<i64>,
}

framework::declare!(
    /// `POST /api/v1/staff/runs/{runId}/stops`: adds orders to a planned run (dispatchers and
    /// managers); those already on it stay where they are; answers the run.
    pub struct StaffRunStops = Post "/api/v1/staff/runs/{runId}/stops" as "staffRunStops", Write, errors [401, 404, 409, 422],
    (RunPath, framework::endpoint::NoParams, Json<StopsForm, true>) -> RunView,
    "Adds orders to a planned run, after its stops, grouped by barangay; those already on it stay.");

impl Endpoint for StaffRunStops {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<RunView, ApiError> {
        let member = dispatcher(ctx)?.member;
        let id = p.run_id;
        let ids = chosen(f.order_ids)?;
        db::write_transaction(ctx.conn, |conn| {
            hold_planned(conn, id)?;
            let stops = db::runs::stops(conn, &[id])?;
            // Orders already on this run stay where they are: a form sent twice adds nothing.
            let orders = takeable(conn, Some(id), &ids)?;
            if orders.is_empty() {
                return Ok(());
            }
            if stops.len() + orders.len() > domain::dispatch::MAX_STOPS {
                return Err(ApiError::Conflict(format!(
                    "A run takes at most {} orders; this one has {}.",
                    domain::dispatch::MAX_STOPS,
                    stops.len()
                )));
            }
            let last = stops.iter().map(|s| s.seq).max().unwrap_or(0);
            let numbers = add_orders(conn, id, orders, last)?;
            Ok::<_, ApiError>(entry(
                conn,
                Some(&member),
                "run.add",
                &format!("run {id}"),
                None,
                Some(serde_json::json!({ "orders": numbers })),
            )?)
        })?;
        view(ctx, id)
    }
}

/// What to do with a stop of a planned run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Move {
    Up,
    Down,
    Remove,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ArrangeForm {
    /// The stop's order.
    #[serde(default)]
    #[schema(required = true, nullable = false, minimum = 1)]
    pub order_id: Option<i64>,
    /// Up or down one place, or off the run.
    #[serde(default, rename = "move")]
    #[schema(required = true, nullable = false, inline)]
    pub to: Option<Move>,
}

framework::declare!(
    /// `POST /api/v1/staff/runs/{runId}/arrange`: moves a stop of a planned run up or down, or
    /// takes it off (dispatchers and managers); answers the run, or the runs of its day when the
    /// run, left with no stop, is deleted.
    pub struct StaffRunArrange = Post "/api/v1/staff/runs/{runId}/arrange" as "staffRunArrange", Write, errors [401, 404, 409, 422],
    (RunPath, framework::endpoint::NoParams, Json<ArrangeForm, true>) -> Arranged,
    "Moves a stop of a planned run up or down, or takes it off.");

/// A run arranged: the run, or none when its last stop went and it was deleted.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, ts_rs::TS)]
pub struct Arranged {
    pub run: Option<RunView>,
    /// Where the page goes: the run's page, or the runs of its day.
    pub link: String,
    pub message: String,
}

impl Endpoint for StaffRunArrange {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<Arranged, ApiError> {
        let member = dispatcher(ctx)?.member;
        let id = p.run_id;
        let order = f
            .order_id
            .ok_or_else(|| invalid("order_id", "Choose the stop."))?;
        let to =
            f.to.ok_or_else(|| invalid("move", "Choose up, down or remove."))?;
        let number = crate::orders::number(order);
        let (deleted, day) = db::write_transaction(ctx.conn, |conn| {
            let run = hold_planned(conn, id)?;
            let mut order_ids: Vec<i64> = db::runs::stops(conn, &[id])?
                .into_iter()
                .map(|s| s.order_id)
                .collect();
            let Some(at) = order_ids.iter().position(|o| *o == order) else {
                return Err(ApiError::NotFound(format!(
                    "Order {number} is not on run {id}."
                )));
            };
            let mut deleted = false;
            match to {
                Move::Up if at > 0 => order_ids.swap(at, at - 1),
                Move::Down if at + 1 < order_ids.len() => order_ids.swap(at, at + 1),
                Move::Up | Move::Down => {}
                Move::Remove => {
                    db::runs::remove_stop(conn, id, order)?;
                    order_ids.remove(at);
                    deleted = order_ids.is_empty() && db::runs::delete_empty(conn, id)?;
                }
            }
            if !deleted {
                db::runs::renumber(conn, id, &order_ids)?;
            }
            entry(
                conn,
                Some(&member),
                "run.arrange",
                &format!("run {id}"),
                None,
                Some(
                    serde_json::json!({ "order": number, "move": format!("{to:?}").to_lowercase(), "deleted": deleted }),
                ),
            )?;
            Ok::<_, ApiError>((deleted, run.day))
        })?;
        if deleted {
            return Ok(Arranged {
                run: None,
                link: format!("/staff/runs?day={day}&done=deleted"),
                message: format!("Run {id} had no stop left and was deleted."),
            });
        }
        Ok(Arranged {
            run: Some(view(ctx, id)?),
            link: format!("/staff/runs/{id}?done=arranged"),
            message: match to {
                Move::Remove => format!("Order {number} is off the run."),
                _ => format!("Order {number} moved."),
            },
        })
    }
}

framework::declare!(
    /// `POST /api/v1/staff/runs/{runId}/send`: sends a planned run out: its orders go out for
    /// delivery and their shoppers are mailed, all or none (dispatchers and managers).
    pub struct StaffRunSend = Post "/api/v1/staff/runs/{runId}/send" as "staffRunSend", Write, errors [401, 404, 409, 422],
    (RunPath, framework::endpoint::NoParams, NoBody) -> RunChanged,
    "Sends a run out: its orders go out for delivery (a run out already is answered as sent).");

impl Endpoint for StaffRunSend {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<RunChanged, ApiError> {
        let member = dispatcher(ctx)?.member;
        let id = p.run_id;
        let base = ctx.config.public_url.to_string();
        let now = domain::calendar::unix_now();
        let sent = db::write_transaction(ctx.conn, |conn| {
            let run = held(conn, id)?;
            if run.closed_at.is_some() {
                return Err(ApiError::Conflict(format!("Run {id} is closed.")));
            }
            let stops = db::runs::stops(conn, &[id])?;
            if run.sent_at.is_some() {
                // Sent twice (a double click, a retry): it is out, as asked.
                return Ok(None);
            }
            if stops.is_empty() {
                return Err(ApiError::Conflict(format!(
                    "Run {id} has no stop to send out."
                )));
            }
            for s in &stops {
                crate::staff::orders::status::change_status(
                    conn,
                    Some(&member),
                    s.order_id,
                    Status::OutForDelivery,
                    "",
                    &base,
                )?;
            }
            db::runs::send(conn, id, now)?;
            entry(
                conn,
                Some(&member),
                "run.send",
                &format!("run {id}"),
                None,
                Some(serde_json::json!({ "stops": stops.len() })),
            )?;
            Ok::<_, ApiError>(Some(stops.len()))
        })?;
        let Some(sent) = sent else {
            return Ok(RunChanged {
                run_id: id,
                link: format!("/staff/runs/{id}?done=sent"),
                message: format!("Run {id} is out already."),
            });
        };
        ctx.mailed = true;
        Ok(RunChanged {
            run_id: id,
            link: format!("/staff/runs/{id}?done=sent"),
            message: format!("Run {id} is out: {sent} order(s) out for delivery."),
        })
    }
}
