//! A run closed on the cash its rider handed in (every stop ended), and the day's report: the
//! orders placed and what they come to, each run's cash expected, reported and handed in, the
//! containers out and the empties back, the cancelled orders and the failed stops with their
//! reasons, and every stop whose cash or empties differ.

use domain::dispatch::{close_refusal, MAX_CLOSE_NOTE};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::plan::{day_of, today};
use super::run::{view, RunView};
use super::{
    dispatcher, invalid, load_stops, pesos, ContainerCount, RunLine, RunPath, RunState, RunTotals,
};
use crate::staff::entry;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffRunClose, StaffDay);

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CloseForm {
    /// The cash the rider handed in, in pesos as typed.
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::pesos)]
    pub cash_handed_in: String,
    /// Why the cash differs from what the run expects: given when it does (else refused, 422),
    /// empty when it does not. Sent always, as the close form sends it; left out, it is empty.
    #[serde(default)]
    #[schema(required = true, schema_with = close_note)]
    pub note: String,
}

fn close_note() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::line(MAX_CLOSE_NOTE).description(Some(
        "Why the cash handed in differs from what the run expects: required to close on cash that \
         differs (else 422), empty when it does not.",
    ))
}

framework::declare!(
    /// `POST /api/v1/staff/runs/{runId}/close`: closes a run whose stops have all ended, on the
    /// cash its rider handed in (dispatchers and managers), with a note when that differs from
    /// what the run expects (422 without one); closed again on the same cash, it stays as it
    /// is; answers the run.
    pub struct StaffRunClose = Post "/api/v1/staff/runs/{runId}/close" as "staffRunClose", Write, errors [401, 404, 409, 422],
    (RunPath, NoParams, Json<CloseForm, true>) -> RunView,
    "Closes a run on the cash handed in.");

impl Endpoint for StaffRunClose {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<RunView, ApiError> {
        let member = dispatcher(ctx)?.member;
        if f.cash_handed_in.trim().is_empty() {
            return Err(invalid(
                "cash_handed_in",
                "Give the cash the rider handed in, in pesos.",
            ));
        }
        let cash = pesos("cash_handed_in", &f.cash_handed_in, "cash handed in")?;
        let note = f.note.trim().to_string();
        if note.chars().count() > MAX_CLOSE_NOTE || note.chars().any(char::is_control) {
            return Err(invalid(
                "note",
                format!("Keep the note to {MAX_CLOSE_NOTE} characters, on one line."),
            ));
        }
        let id = p.run_id;
        let now = domain::calendar::unix_now();
        db::write_transaction(ctx.conn, |conn| {
            db::runs::hold(conn, id)?;
            let run = db::runs::run(conn, id)?
                .ok_or_else(|| ApiError::NotFound("No such run.".into()))?;
            match RunState::of(&run) {
                RunState::Planned => {
                    return Err(ApiError::Conflict(format!("Run {id} was never sent out.")))
                }
                // Closed twice on the same cash (a double click, a retry): closed, as asked.
                RunState::Closed if run.cash_handed_in == Some(cash) => return Ok(()),
                RunState::Closed => {
                    return Err(ApiError::Conflict(format!(
                        "Run {id} is closed already, on {} handed in.",
                        domain::money::format_php(run.cash_handed_in.unwrap_or(0))
                    )))
                }
                RunState::Out => {}
            }
            let loaded = load_stops(conn, id)?;
            let totals = domain::dispatch::totals(&loaded.figures);
            if totals.pending > 0 {
                return Err(ApiError::Conflict(format!(
                    "{} stop(s) of run {id} have not ended: the rider marks each delivered or failed first.",
                    totals.pending
                )));
            }
            // Measured against what the run expects (`domain::dispatch`): the note says why.
            if let Some(why) = close_refusal(cash, totals.cash_expected, &note) {
                return Err(invalid("note", why));
            }
            db::runs::close(conn, id, cash, &note, now)?;
            Ok::<_, ApiError>(entry(
                conn,
                Some(&member),
                "run.close",
                &format!("run {id}"),
                None,
                Some(serde_json::json!({
                    "cash_handed_in": cash,
                    "cash_expected": totals.cash_expected,
                    "cash_reported": totals.cash_reported,
                    "difference": cash - totals.cash_reported,
                    "expected_difference": cash - totals.cash_expected,
                    "note": note,
                })),
            )?)
        })?;
        view(ctx, id)
    }
}

/// An order or a stop named with why (a cancellation's reason, a failed stop's, a difference).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct ReasonLine {
    pub order_id: i64,
    pub number: String,
    pub reason: String,
}

/// A run of the day with its figures.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct DayRun {
    pub run: RunLine,
    pub totals: RunTotals,
    pub cash_handed_in: Option<i64>,
    /// Handed in less reported (negative: short), once closed.
    pub cash_difference: Option<i64>,
    /// Handed in less expected (negative: short), once closed: what the close note explains.
    pub expected_difference: Option<i64>,
    /// Why the cash handed in differs from what the run expects (empty: it does not).
    pub close_note: String,
}

/// A note of the day that explains a difference: a run's close note, or a delivered stop's note
/// when its cash or empties differ.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct DayNote {
    pub run_id: i64,
    /// The back office's page of what the note is about: the stop's order (`/staff/orders/42`),
    /// or the run (`/staff/runs/7`). An address, not an id that may be null: a client follows it
    /// as it is.
    pub href: String,
    /// `Run 12` or the order's number.
    pub about: String,
    pub note: String,
}

/// A rider's day: their runs' cash and empties added up, and the notes on what differs.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RiderDay {
    pub rider_id: i64,
    pub rider: String,
    pub runs: i64,
    /// How many of them are closed (the cash handed in is theirs).
    pub closed: i64,
    /// Over every run of theirs that day (centavos).
    pub cash_expected: i64,
    pub cash_reported: i64,
    /// Over their closed runs: what those runs expected, and what was handed in on them.
    pub cash_expected_closed: i64,
    pub cash_handed_in: i64,
    /// Handed in less expected over their closed runs (negative: short); none until one closes.
    pub cash_difference: Option<i64>,
    /// Of their closed runs, those whose cash handed in differs from what the run expects
    /// (differences of two runs can even out in `cash_difference`; this says they were there).
    pub closed_off: i64,
    pub empties_expected: i64,
    pub empties_returned: i64,
    pub notes: Vec<DayNote>,
}

/// The day's report (centavos, cases).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct DayReport {
    /// `YYYY-MM-DD`, Manila.
    pub day: String,
    /// Orders placed that day, and what those not cancelled come to.
    pub orders: i64,
    pub revenue: i64,
    pub runs: Vec<DayRun>,
    /// The day's runs by rider, by name: cash and empties, and the notes on what differs.
    pub riders: Vec<RiderDay>,
    /// Over the day's runs.
    pub totals: RunTotals,
    /// The cash handed in on the day's closed runs.
    pub cash_handed_in: i64,
    /// The containers the day's delivered stops took out, by kind.
    pub containers_out: Vec<ContainerCount>,
    /// Orders placed that day and cancelled, with why.
    pub cancelled: Vec<ReasonLine>,
    /// The day's failed stops, with why.
    pub failed: Vec<ReasonLine>,
    /// The day's delivered stops whose cash or empties differ from what was expected.
    pub flagged: Vec<ReasonLine>,
    /// The payments received online that day and taken as their orders', by method.
    pub online: Vec<MethodTotal>,
    /// Their sum (centavos).
    pub online_received: i64,
    /// Payments received online, any day, still to refund: never taken as their orders'
    /// (another amount, an order cancelled or paid in cash by then), or whose orders were
    /// cancelled since; with why, and how their refund stands when one was asked.
    pub to_refund: Vec<ReasonLine>,
    /// The refunds managers first asked for that day: each payment, its amount, how the refund
    /// stands, why and who asked.
    pub refunds: Vec<ReasonLine>,
    /// What those refunds made or pending return of payments taken as their orders' (centavos):
    /// what leaves `online_received`'s kind of money.
    pub refunded: i64,
}

/// The online payments of a day by one method.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct MethodTotal {
    /// As the checkout names it (`GCash`).
    pub method: String,
    pub payments: i64,
    /// Centavos.
    pub amount: i64,
}

/// The online payments received from `start` for a day taken as their orders' by method, their
/// sum, and every payment still owed back, whatever day it came (never taken as its order's, or
/// its order cancelled since, and no refund made or pending).
fn online_payments(
    conn: &mut db::AnyConnection,
    start: i64,
) -> Result<(Vec<MethodTotal>, i64, Vec<ReasonLine>), ApiError> {
    use crate::staff::orders::refund_state::{stands, state_label};
    let received = db::payments::received_between(conn, start, start + 86_400)?;
    let mut by_method: Vec<MethodTotal> = Vec::new();
    // A payment taken as its order's counts with its day's, also when the order was cancelled
    // since (its refund is the refunds' line); one never taken does not.
    for p in received.iter().filter(|p| p.problem.is_empty()) {
        let method = crate::payments::methods::label(&p.method).to_string();
        match by_method.iter_mut().find(|m| m.method == method) {
            Some(m) => {
                m.payments += 1;
                m.amount += p.amount;
            }
            None => by_method.push(MethodTotal {
                method,
                payments: 1,
                amount: p.amount,
            }),
        }
    }
    by_method.sort_by(|a, b| a.method.cmp(&b.method));
    let sum = by_method.iter().map(|m| m.amount).sum();
    let to_refund = db::payments::owed_back(conn)?
        .into_iter()
        .filter(|(_, refund)| !refund.as_ref().is_some_and(|r| stands(&r.state)))
        .map(|(p, refund)| {
            let why = if p.problem.is_empty() {
                "The order was cancelled after it was paid: refund it."
            } else {
                p.problem.as_str()
            };
            let asked = refund.map_or(String::new(), |r| {
                format!(" {}.", state_label(&r.state, &r.detail))
            });
            ReasonLine {
                order_id: p.order_id,
                number: crate::orders::number(p.order_id),
                reason: format!(
                    "{} ({}, {}): {why}{asked}",
                    p.id,
                    p.method,
                    domain::calendar::manila_minute(p.received_at)
                ),
            }
        })
        .collect();
    Ok((by_method, sum, to_refund))
}

/// The refunds asked for from `start` for a day, each with how it stands, and what those PayMongo
/// made or is making return (centavos).
fn refunds_of_day(
    conn: &mut db::AnyConnection,
    start: i64,
) -> Result<(Vec<ReasonLine>, i64), ApiError> {
    use crate::staff::orders::refund_state::{reason_label, stands, state_label, FORMER_STAFF};
    let asked = db::payments::refunds_between(conn, start, start + 86_400)?;
    let mut lines = Vec::new();
    let mut refunded = 0;
    for (r, by, taken) in &asked {
        // What leaves the payments taken as their orders' (a payment never taken was never
        // counted with the day's).
        if stands(&r.state) && *taken {
            refunded += r.amount;
        }
        let by = by.as_deref().unwrap_or(FORMER_STAFF);
        lines.push(ReasonLine {
            order_id: r.order_id,
            number: crate::orders::number(r.order_id),
            reason: format!(
                "{} {}: {} ({}; asked by {by}).",
                r.payment_id,
                domain::money::format_php(r.amount),
                state_label(&r.state, &r.detail),
                reason_label(&r.reason)
            ),
        });
    }
    Ok((lines, refunded))
}

/// The line of `run`'s rider among `riders`, added when it is their first run.
fn rider_day<'a>(riders: &'a mut Vec<RiderDay>, run: &db::runs::RunRow) -> &'a mut RiderDay {
    let at = match riders.iter().position(|r| r.rider_id == run.rider_id) {
        Some(at) => at,
        None => {
            riders.push(RiderDay {
                rider_id: run.rider_id,
                rider: run.rider_name.clone(),
                runs: 0,
                closed: 0,
                cash_expected: 0,
                cash_reported: 0,
                cash_expected_closed: 0,
                cash_handed_in: 0,
                cash_difference: None,
                closed_off: 0,
                empties_expected: 0,
                empties_returned: 0,
                notes: Vec::new(),
            });
            riders.len() - 1
        }
    };
    &mut riders[at]
}

/// Run `run` (its `totals` and `stops`) added to its rider's day.
fn add_run(
    rider: &mut RiderDay,
    run: &db::runs::RunRow,
    totals: &domain::dispatch::Totals,
    stops: &[super::StopView],
) {
    rider.runs += 1;
    rider.cash_expected += totals.cash_expected;
    rider.cash_reported += totals.cash_reported;
    rider.empties_expected += totals.empties_expected;
    rider.empties_returned += totals.empties_returned;
    if let Some(cash) = run.cash_handed_in {
        rider.closed += 1;
        rider.cash_expected_closed += totals.cash_expected;
        rider.cash_handed_in += cash;
        let off = cash - totals.cash_expected;
        rider.cash_difference = Some(rider.cash_difference.unwrap_or(0) + off);
        rider.closed_off += i64::from(off != 0);
    }
    for s in stops {
        if s.outcome == domain::dispatch::Outcome::Delivered
            && !s.differences.is_empty()
            && !s.note.is_empty()
        {
            rider.notes.push(DayNote {
                run_id: run.id,
                href: format!("/staff/orders/{}", s.order_id),
                about: s.number.clone(),
                note: s.note.clone(),
            });
        }
    }
    if !run.close_note.is_empty() {
        rider.notes.push(DayNote {
            run_id: run.id,
            href: format!("/staff/runs/{}", run.id),
            about: format!("Run {}", run.id),
            note: run.close_note.clone(),
        });
    }
}

/// The cancelled orders among `placed`, each with why.
fn cancelled_of(
    conn: &mut db::AnyConnection,
    placed: &[db::orders::OrderRow],
) -> Result<Vec<ReasonLine>, ApiError> {
    let mut cancelled = Vec::new();
    for o in placed.iter().filter(|o| o.status == "cancelled") {
        let why = db::orders::full(conn, o.id)?
            .and_then(|f| f.history.into_iter().rev().find(|h| h.0 == "cancelled"))
            .map(|h| h.2)
            .unwrap_or_default();
        cancelled.push(ReasonLine {
            order_id: o.id,
            number: crate::orders::number(o.id),
            reason: why,
        });
    }
    Ok(cancelled)
}

/// The report of Manila day `day`.
pub fn report(ctx: &mut Ctx, day: &str) -> Result<DayReport, ApiError> {
    let start = domain::calendar::manila_day_start(day)
        .ok_or_else(|| ApiError::BadRequest("day is a day, YYYY-MM-DD.".into()))?;
    let placed = db::runs::placed_between(ctx.conn, start, start + 86_400)?;
    let revenue = placed
        .iter()
        .filter(|o| o.status != "cancelled")
        .map(|o| o.total)
        .sum();
    let cancelled = cancelled_of(ctx.conn, &placed)?;
    let (online, online_received, to_refund) = online_payments(ctx.conn, start)?;
    let (refunds, refunded) = refunds_of_day(ctx.conn, start)?;
    let runs = db::runs::of_day(ctx.conn, day, None)?;
    let (mut day_runs, mut all, mut delivered_containers) = (Vec::new(), Vec::new(), Vec::new());
    let (mut failed, mut flagged) = (Vec::new(), Vec::new());
    let mut riders: Vec<RiderDay> = Vec::new();
    for run in &runs {
        let loaded = load_stops(ctx.conn, run.id)?;
        let totals = domain::dispatch::totals(&loaded.figures);
        let rider = rider_day(&mut riders, run);
        add_run(rider, run, &totals, &loaded.stops);
        for s in &loaded.stops {
            let line = |reason: String| ReasonLine {
                order_id: s.order_id,
                number: s.number.clone(),
                reason,
            };
            match s.outcome {
                domain::dispatch::Outcome::Failed => failed.push(line(if s.note.is_empty() {
                    s.reason.clone()
                } else {
                    format!("{} ({})", s.reason, s.note)
                })),
                domain::dispatch::Outcome::Delivered if !s.differences.is_empty() => {
                    flagged.push(line(s.differences.join("; ")));
                }
                _ => {}
            }
        }
        let delivered: Vec<i64> = loaded
            .stops
            .iter()
            .filter(|s| s.outcome == domain::dispatch::Outcome::Delivered)
            .map(|s| s.order_id)
            .collect();
        delivered_containers.extend(db::runs::containers(ctx.conn, &delivered)?);
        day_runs.push(DayRun {
            run: super::line(run, &super::outcomes(&loaded.figures)),
            cash_difference: run.cash_handed_in.map(|c| c - totals.cash_reported),
            expected_difference: run.cash_handed_in.map(|c| c - totals.cash_expected),
            cash_handed_in: run.cash_handed_in,
            close_note: run.close_note.clone(),
            totals: totals.into(),
        });
        all.extend(loaded.figures);
    }
    Ok(DayReport {
        day: day.to_string(),
        orders: placed.len() as i64,
        revenue,
        cash_handed_in: runs.iter().filter_map(|r| r.cash_handed_in).sum(),
        runs: day_runs,
        riders: {
            riders.sort_by(|a, b| a.rider.cmp(&b.rider).then(a.rider_id.cmp(&b.rider_id)));
            riders
        },
        totals: domain::dispatch::totals(&all).into(),
        containers_out: super::count_containers(&delivered_containers, |c| c.cases_out),
        cancelled,
        failed,
        flagged,
        online,
        online_received,
        to_refund,
        refunds,
        refunded,
    })
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportQuery {
    /// A Manila day (`YYYY-MM-DD`); today when left out.
    #[param(schema_with = framework::rules::day)]
    pub day: Option<String>,
}

framework::declare!(
    /// `GET /api/v1/staff/day`: a day's report (dispatchers and managers).
    pub struct StaffDay = Get "/api/v1/staff/day" as "staffDay", Session, errors [400, 401, 404],
    (NoParams, ReportQuery, NoBody) -> DayReport,
    "A day's orders, runs, cash and empties, cancellations and failures.");

impl Endpoint for StaffDay {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<DayReport, ApiError> {
        let signed = dispatcher(ctx)?;
        let day = match q.day.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
            Some(d) => day_of("day", d)
                .map_err(|_| ApiError::BadRequest("day is a day, YYYY-MM-DD.".into()))?,
            None => today(),
        };
        crate::staff::kept(ctx, &signed, "staffDay", &day, |ctx| report(ctx, &day))
    }
}
