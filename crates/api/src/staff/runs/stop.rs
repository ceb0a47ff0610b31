//! A stop ended by its rider (or a dispatcher for them): delivered, with the cash received and
//! the empty cases taken back (typed when its shopper returns empties, 0 an answer and none not;
//! none means 0 when none are due), the order completed and its shopper mailed; or failed, with
//! a reason from the list and a note (the order goes back to confirmed, for another run or a
//! cancellation). Once given, an outcome stays.

use domain::dispatch::{Outcome, FAILURE_REASONS, MAX_EMPTIES, MAX_STOP_NOTE};
use domain::ordering::Status;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::run::{view, RunView};
use super::{invalid, pesos, visible, RunState};
use crate::staff::entry;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;

framework::register!(StaffRunStop);

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct StopPath {
    #[serde(rename = "runId")]
    #[param(rename = "runId", minimum = 1)]
    pub run_id: i64,
    #[serde(rename = "orderId")]
    #[param(rename = "orderId", minimum = 1)]
    pub order_id: i64,
}

/// [`StopForm::empties_returned`]: 0 to the most a stop may report, or none.
fn empties_returned() -> utoipa::openapi::schema::ObjectBuilder {
    use utoipa::openapi::schema::{SchemaType, Type};
    framework::rules::int32(0, MAX_EMPTIES)
        .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
        .description(Some(
            "The empty cases taken back (delivered): required when the shopper returns empties, \
             else none when left out means 0.",
        ))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct StopForm {
    /// Delivered or failed.
    #[serde(default)]
    #[schema(required = true, schema_with = ending)]
    pub outcome: Option<Outcome>,
    /// The cash received, in pesos as typed (delivered).
    #[serde(default)]
    #[schema(schema_with = framework::rules::pesos)]
    pub cash_received: String,
    /// The empty cases taken back ([`empties_returned`]).
    #[serde(default)]
    #[schema(schema_with = empties_returned)]
    pub empties_returned: Option<i32>,
    /// Why it failed: one of the run's `failure_reasons` (failed).
    #[serde(default)]
    #[schema(schema_with = reason)]
    pub reason: String,
    /// The rider's note.
    #[serde(default)]
    #[schema(schema_with = note)]
    pub note: String,
}

/// The outcomes a stop may end with (not `pending`).
fn ending() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some([
            Outcome::Delivered.as_str(),
            Outcome::Failed.as_str(),
        ]))
        .description(Some("Delivered or failed."))
}

/// The failure reasons, or empty (a delivery).
fn reason() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(std::iter::once("").chain(FAILURE_REASONS)))
        .description(Some(
            "Why it failed: one of the run's `failure_reasons` (failed); empty or left out when delivered.",
        ))
}

fn note() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::line(MAX_STOP_NOTE).description(Some("The rider's note."))
}

framework::declare!(
    /// `POST /api/v1/staff/runs/{runId}/stops/{orderId}`: ends a stop of a run that is out,
    /// delivered or failed (its rider, dispatchers and managers); answers the run.
    pub struct StaffRunStop = Post "/api/v1/staff/runs/{runId}/stops/{orderId}" as "staffRunStop", Write, errors [401, 404, 409, 422],
    (StopPath, NoParams, Json<StopForm, true>) -> RunView,
    "Ends a stop: delivered (cash and empties) or failed (a reason).");

/// A stop's end as the form gives it, checked.
struct Ended {
    outcome: Outcome,
    cash: Option<i64>,
    empties: Option<i32>,
    reason: String,
    note: String,
}

/// The stop's end as the form gives it, checked; `empties_due` is the empty cases its shopper said
/// they return: then a delivery needs the empties taken back typed (0 is an answer, none is not),
/// and when there are none due, none typed means 0.
fn checked(f: &StopForm, empties_due: i32) -> Result<Ended, ApiError> {
    let outcome = f
        .outcome
        .filter(|o| *o != Outcome::Pending)
        .ok_or_else(|| invalid("outcome", "Say whether the order was delivered or failed."))?;
    let reason = f.reason.trim();
    if !reason.is_empty() && !FAILURE_REASONS.contains(&reason) {
        return Err(invalid("reason", "Choose why the delivery failed."));
    }
    let note = f.note.trim().to_string();
    if note.chars().count() > MAX_STOP_NOTE || note.chars().any(char::is_control) {
        return Err(invalid(
            "note",
            format!("Keep the note to {MAX_STOP_NOTE} characters, on one line."),
        ));
    }
    if outcome == Outcome::Failed {
        if reason.is_empty() {
            return Err(invalid("reason", "Choose why the delivery failed."));
        }
        return Ok(Ended {
            outcome,
            cash: None,
            empties: None,
            reason: reason.to_string(),
            note,
        });
    }
    if f.cash_received.trim().is_empty() {
        return Err(invalid(
            "cash_received",
            "Give the cash received, in pesos (0 if none).",
        ));
    }
    let cash = pesos("cash_received", &f.cash_received, "cash received")?;
    let empties = match f.empties_returned {
        Some(typed) => typed,
        None if empties_due > 0 => {
            return Err(invalid(
                "empties_returned",
                format!(
                    "Give the empty cases taken back: the shopper returns {empties_due} (0 if none came back)."
                ),
            ))
        }
        None => 0,
    };
    if !(0..=MAX_EMPTIES).contains(&empties) {
        return Err(invalid(
            "empties_returned",
            format!("Give the empty cases taken back: 0 to {MAX_EMPTIES}."),
        ));
    }
    Ok(Ended {
        outcome,
        cash: Some(cash),
        empties: Some(empties),
        reason: String::new(),
        note,
    })
}

impl Endpoint for StaffRunStop {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<RunView, ApiError> {
        let (signed, _) = visible(ctx, p.run_id)?;
        let base = ctx.config.public_url.to_string();
        let member = signed.member;
        let ended = db::write_transaction(ctx.conn, |conn| {
            let stop = StopOf {
                run: p.run_id,
                order: p.order_id,
            };
            end(conn, &member, stop, &f, &base)
        })?;
        ctx.mailed = ended == Some(Outcome::Delivered);
        view(ctx, p.run_id)
    }
}

/// A stop: order `order` on run `run`.
#[derive(Debug, Clone, Copy)]
struct StopOf {
    run: i64,
    order: i64,
}

/// In a write transaction: the stop of order `order` on run `id` ended as the form `f` says
/// (the stop looked up first: 404 when the order is not on the run, 409 when the run is not
/// out), its order moved (completed, or back to confirmed), recorded for `member`; the outcome
/// given, or `None` when the stop had ended exactly so already (a retry changes nothing).
fn end(
    conn: &mut db::AnyConnection,
    member: &db::team::StaffRow,
    stop: StopOf,
    f: &StopForm,
    base: &str,
) -> Result<Option<Outcome>, ApiError> {
    let StopOf { run: id, order } = stop;
    let number = crate::orders::number(order);
    let now = domain::calendar::unix_now();
    db::runs::hold(conn, id)?;
    let run = db::runs::run(conn, id)?.ok_or_else(|| ApiError::NotFound("No such run.".into()))?;
    let Some(was) = db::runs::stops(conn, &[id])?
        .into_iter()
        .find(|s| s.order_id == order)
    else {
        return Err(ApiError::NotFound(format!(
            "Order {number} is not on run {id}."
        )));
    };
    if RunState::of(&run) != RunState::Out {
        return Err(ApiError::Conflict(format!(
            "Run {id} is not out: its stops end while it is."
        )));
    }
    let empties_due = db::runs::containers(conn, &[order])?
        .iter()
        .map(|c| c.cases_back)
        .sum();
    let ended = checked(f, empties_due)?;
    if was.outcome != Outcome::Pending.as_str() {
        let same = was.outcome == ended.outcome.as_str()
            && was.cash_received == ended.cash
            && was.empties_returned == ended.empties
            && was.reason == ended.reason
            && was.note == ended.note;
        if same {
            return Ok(None);
        }
        return Err(ApiError::Conflict(format!(
            "Order {number} was already marked {}.",
            was.outcome
        )));
    }
    let stop = db::runs::StopEnd {
        outcome: ended.outcome.as_str(),
        cash_received: ended.cash,
        empties_returned: ended.empties,
        reason: &ended.reason,
        note: &ended.note,
        at: now,
    };
    if !db::runs::end_stop(conn, id, order, &stop)? {
        return Err(ApiError::Conflict(format!(
            "Order {number} was already marked."
        )));
    }
    move_order(conn, member, order, &ended, MovedAt { now, base })?;
    entry(
        conn,
        Some(member),
        "run.stop",
        &format!("run {id}, order {order}"),
        None,
        Some(serde_json::json!({
            "outcome": ended.outcome.as_str(),
            "cash_received": ended.cash,
            "empties_returned": ended.empties,
            "reason": ended.reason,
            "note": ended.note,
        })),
    )?;
    Ok(Some(ended.outcome))
}

/// When an order moves as its stop ended (`now`), and the store's public address (`base`), which
/// the shopper's mail links to.
#[derive(Debug, Clone, Copy)]
struct MovedAt<'a> {
    now: i64,
    base: &'a str,
}

/// In the stop's transaction: order `order` moved as its stop `ended`: completed when delivered,
/// back to confirmed when failed (at `now`; `base` is the store's public address, for the
/// shopper's mail).
fn move_order(
    conn: &mut db::AnyConnection,
    member: &db::team::StaffRow,
    order: i64,
    ended: &Ended,
    at: MovedAt<'_>,
) -> Result<(), ApiError> {
    let MovedAt { now, base } = at;
    let number = crate::orders::number(order);
    if ended.outcome == Outcome::Delivered {
        // The orders board may have moved the order while it was out: completed there, it was
        // delivered (the stop ends, the order is not completed twice); cancelled there, it was
        // not (the rider marks the stop failed). Else a stop could never end, nor its run close.
        match db::staff::status_of(conn, order)?
            .as_deref()
            .and_then(Status::parse)
        {
            Some(Status::Completed) => {}
            Some(Status::Cancelled) => {
                return Err(invalid(
                    "outcome",
                    format!("Order {number} was cancelled while out: mark its stop failed."),
                ))
            }
            _ => {
                crate::staff::orders::status::change_status(
                    conn,
                    Some(member),
                    order,
                    Status::Completed,
                    "",
                    base,
                )?;
            }
        }
    } else {
        // The one step back: the order waits for another run (or a cancellation).
        let why = if ended.note.is_empty() {
            format!("Delivery failed: {}", ended.reason)
        } else {
            format!("Delivery failed: {} ({})", ended.reason, ended.note)
        };
        let moved = db::staff::set_status(
            conn,
            order,
            Status::OutForDelivery.as_str(),
            Status::Confirmed.as_str(),
            now,
            &why,
        )?;
        // An order cancelled while out stays cancelled; its stop still ends. One completed on
        // the board was delivered.
        let cancelled =
            db::staff::status_of(conn, order)?.as_deref() == Some(Status::Cancelled.as_str());
        if !moved && !cancelled {
            return Err(invalid(
                "outcome",
                format!("Order {number} was completed while out: mark its stop delivered."),
            ));
        }
    }
    Ok(())
}
