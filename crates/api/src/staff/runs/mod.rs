//! Dispatch runs (`domain::dispatch`): the day's runs and the orders waiting for one, a new run
//! (`plan`); one run with its pick list, its run sheet and its reconciliation (`run`); its stops
//! added, moved and taken off, and the run sent out (`arrange`); a stop delivered or failed
//! (`stop`); the run closed on the cash handed in, and the day's report (`close`).
//!
//! Dispatchers and managers work every run; a rider sees and ends the stops of their own runs
//! only (another's run is answered as one that does not exist).

pub mod arrange;
pub mod close;
pub mod plan;
pub mod run;
pub mod stop;

use std::collections::BTreeMap;

use domain::dispatch::{Outcome, StopFigures};
use domain::staff::Role;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::orders::WORKERS;
use super::{signed_in_as, Signed};
use framework::endpoint::Ctx;
use framework::error::ApiError;

framework::export_const!(
    /// The most stops a run takes.
    MAX_STOPS = domain::dispatch::MAX_STOPS
);

/// Everyone who works runs: dispatchers and managers, and riders (their own).
pub const EVERYONE: [Role; 3] = [Role::Dispatcher, Role::Manager, Role::Rider];

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct RunPath {
    #[serde(rename = "runId")]
    #[param(rename = "runId", minimum = 1)]
    pub run_id: i64,
}

/// Where a run is: planned (stops may change), out (the rider has it), closed (reconciled).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    Planned,
    Out,
    Closed,
}

impl RunState {
    fn of(run: &db::runs::RunRow) -> Self {
        match (run.sent_at, run.closed_at) {
            (_, Some(_)) => Self::Closed,
            (Some(_), None) => Self::Out,
            (None, None) => Self::Planned,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Planned => "Planned",
            Self::Out => "Out for delivery",
            Self::Closed => "Closed",
        }
    }
}

/// A run as a line of a list.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RunLine {
    pub id: i64,
    /// `YYYY-MM-DD`, Manila.
    pub day: String,
    pub rider_id: i64,
    pub rider: String,
    pub state: RunState,
    pub state_label: String,
    pub stops: i64,
    pub delivered: i64,
    pub failed: i64,
}

/// What a stop delivers: a line of its order.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StopItem {
    pub product_name: String,
    pub case_name: String,
    pub quantity: i32,
}

/// Cases of a kind of container.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct ContainerCount {
    pub name: String,
    pub cases: i64,
}

/// A stop of a run: the run sheet's line, and how it ended.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StopView {
    pub seq: i32,
    pub order_id: i64,
    pub number: String,
    pub contact_name: String,
    pub mobile: String,
    /// The street address.
    pub address: String,
    /// Where: the street (when one is named), barangay, city and province, as the order keeps it.
    pub place: String,
    /// The shopper's note.
    pub notes: String,
    pub items: Vec<StopItem>,
    /// The cash to collect (centavos): the order's total, less what was paid online.
    pub total: i64,
    /// What was paid online (centavos; 0 for an order paid in cash).
    pub paid_online: i64,
    /// The empty cases to collect, by kind.
    pub empties: Vec<ContainerCount>,
    pub empties_expected: i32,
    pub outcome: Outcome,
    /// Centavos, as the rider reported.
    pub cash_received: Option<i64>,
    pub empties_returned: Option<i32>,
    /// Why a failed stop failed, and the rider's note.
    pub reason: String,
    pub note: String,
    /// What the reconciliation found wrong (cash short or over, empties missing).
    pub differences: Vec<String>,
}

/// A line of the pick list: a product's cases and loose units over the run.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PickLine {
    pub product_name: String,
    pub case_name: String,
    pub unit_per_case: i32,
    pub cases: i64,
    /// Units besides the whole cases.
    pub units: i64,
}

/// A run's figures (centavos, cases).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RunTotals {
    pub stops: i64,
    pub delivered: i64,
    pub failed: i64,
    pub pending: i64,
    /// What the stops delivered or still out should bring.
    pub cash_expected: i64,
    /// What the rider reported receiving.
    pub cash_reported: i64,
    pub empties_expected: i64,
    pub empties_returned: i64,
}

impl From<domain::dispatch::Totals> for RunTotals {
    fn from(t: domain::dispatch::Totals) -> Self {
        Self {
            stops: t.stops as i64,
            delivered: t.delivered as i64,
            failed: t.failed as i64,
            pending: t.pending as i64,
            cash_expected: t.cash_expected,
            cash_reported: t.cash_reported,
            empties_expected: t.empties_expected,
            empties_returned: t.empties_returned,
        }
    }
}

/// A run's stops, read with their orders' lines and containers.
pub(crate) struct Loaded {
    pub stops: Vec<StopView>,
    pub pick_list: Vec<PickLine>,
    pub containers_out: Vec<ContainerCount>,
    pub figures: Vec<StopFigures>,
}

/// Every product's cases and loose units over `items`, by name.
fn pick_list(items: &[db::orders::OrderItemRow]) -> Vec<PickLine> {
    let mut picks: BTreeMap<(String, String, i32), i64> = BTreeMap::new();
    for i in items {
        *picks
            .entry((i.product_name.clone(), i.case_name.clone(), i.unit_per_case))
            .or_default() += i64::from(i.quantity);
    }
    picks
        .into_iter()
        .map(|((product_name, case_name, per), units)| {
            let per_case = i64::from(per.max(1));
            PickLine {
                product_name,
                case_name,
                unit_per_case: per,
                cases: units / per_case,
                units: units % per_case,
            }
        })
        .collect()
}

/// The cases of each kind of container, summed over `rows` (`cases` reads out or back).
pub(crate) fn count_containers(
    rows: &[db::runs::ContainerRow],
    cases: fn(&db::runs::ContainerRow) -> i32,
) -> Vec<ContainerCount> {
    let mut out: BTreeMap<String, i64> = BTreeMap::new();
    for c in rows {
        *out.entry(c.name.clone()).or_default() += i64::from(cases(c));
    }
    out.into_iter()
        .filter(|(_, cases)| *cases > 0)
        .map(|(name, cases)| ContainerCount { name, cases })
        .collect()
}

/// The stop of `s` on its order `o` (its lines and containers among `items` and `containers`).
fn stop_view(
    s: db::runs::StopRow,
    o: &db::orders::OrderRow,
    paid_online: i64,
    items: &[db::orders::OrderItemRow],
    containers: &[db::runs::ContainerRow],
) -> (StopView, StopFigures) {
    let mine: Vec<db::runs::ContainerRow> = containers
        .iter()
        .filter(|c| c.order_id == o.id)
        .cloned()
        .collect();
    let empties = count_containers(&mine, |c| c.cases_back);
    let empties_expected = mine.iter().map(|c| c.cases_back).sum();
    let outcome = Outcome::parse(&s.outcome).unwrap_or(Outcome::Pending);
    let collect = (o.total - paid_online).max(0);
    let f = StopFigures {
        outcome,
        total: collect,
        empties_expected,
        cash_received: s.cash_received,
        empties_returned: s.empties_returned,
    };
    let view = StopView {
        seq: s.seq,
        order_id: o.id,
        number: crate::orders::number(o.id),
        contact_name: o.contact_name.clone(),
        mobile: o.mobile.clone(),
        address: o.address.clone(),
        place: o.place.clone(),
        notes: o.notes.clone(),
        items: items
            .iter()
            .filter(|i| i.order_id == o.id)
            .map(|i| StopItem {
                product_name: i.product_name.clone(),
                case_name: i.case_name.clone(),
                quantity: i.quantity,
            })
            .collect(),
        total: collect,
        paid_online,
        empties,
        empties_expected,
        outcome,
        cash_received: s.cash_received,
        empties_returned: s.empties_returned,
        reason: s.reason,
        note: s.note,
        differences: f.differences(),
    };
    (view, f)
}

/// The stops of run `id`, in their order, with what the pick list and reconciliation need.
pub(crate) fn load_stops(conn: &mut db::AnyConnection, id: i64) -> Result<Loaded, ApiError> {
    let db::runs::Sheet {
        stops: rows,
        orders,
        items,
        containers,
    } = db::runs::sheet(conn, id)?;
    let ids: Vec<i64> = orders.iter().map(|o| o.id).collect();
    let mut paid: BTreeMap<i64, i64> = BTreeMap::new();
    for (order, amount) in db::payments::taken_of(conn, &ids)? {
        *paid.entry(order).or_default() += amount;
    }
    let orders: BTreeMap<i64, db::orders::OrderRow> =
        orders.into_iter().map(|o| (o.id, o)).collect();
    let (mut stops, mut figures) = (Vec::new(), Vec::new());
    for s in rows {
        if let Some(o) = orders.get(&s.order_id) {
            let online = paid.get(&o.id).copied().unwrap_or(0);
            let (view, f) = stop_view(s, o, online, &items, &containers);
            stops.push(view);
            figures.push(f);
        }
    }
    Ok(Loaded {
        stops,
        pick_list: pick_list(&items),
        containers_out: count_containers(&containers, |c| c.cases_out),
        figures,
    })
}

/// The line of run `run` in a list, its stops' `outcomes` counted.
pub(crate) fn line(run: &db::runs::RunRow, outcomes: &[Outcome]) -> RunLine {
    let count = |o: Outcome| outcomes.iter().filter(|x| **x == o).count() as i64;
    let state = RunState::of(run);
    RunLine {
        id: run.id,
        day: run.day.clone(),
        rider_id: run.rider_id,
        rider: run.rider_name.clone(),
        state,
        state_label: state.label().into(),
        stops: outcomes.len() as i64,
        delivered: count(Outcome::Delivered),
        failed: count(Outcome::Failed),
    }
}

/// The lines of `runs`, each with its stops among `stops` counted.
pub(crate) fn lines(runs: &[db::runs::RunRow], stops: &[db::runs::StopRow]) -> Vec<RunLine> {
    runs.iter()
        .map(|r| {
            let outcomes: Vec<Outcome> = stops
                .iter()
                .filter(|s| s.run_id == r.id)
                .filter_map(|s| Outcome::parse(&s.outcome))
                .collect();
            line(r, &outcomes)
        })
        .collect()
}

/// The outcomes of a run's stops, as read.
pub(crate) fn outcomes(figures: &[StopFigures]) -> Vec<Outcome> {
    figures.iter().map(|f| f.outcome).collect()
}

/// The signed-in member who works runs, and run `id` when they may see it: a rider only their
/// own (another's, or none, is not found).
pub(crate) fn visible(ctx: &mut Ctx, id: i64) -> Result<(Signed, db::runs::RunRow), ApiError> {
    let signed = signed_in_as(ctx, &EVERYONE)?;
    let run = db::runs::run(ctx.conn, id)?
        .filter(|r| signed.role != Role::Rider || r.rider_id == signed.member.id)
        .ok_or_else(|| ApiError::NotFound("No such run.".into()))?;
    Ok((signed, run))
}

/// The signed-in dispatcher or manager.
pub(crate) fn dispatcher(ctx: &mut Ctx) -> Result<Signed, ApiError> {
    signed_in_as(ctx, &WORKERS)
}

/// Refused as the staff are told it, on `field`.
pub(crate) fn invalid(field: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::Invalid {
        field,
        message: message.into(),
    }
}

/// Pesos as typed (`domain::money::PESOS`), in centavos, or refused on `field`.
pub(crate) fn pesos(field: &'static str, text: &str, what: &str) -> Result<i64, ApiError> {
    // The rule's length (`framework::rules::pesos`) holds before the text is trimmed.
    let fits = text.chars().count() <= 20;
    fits.then(|| domain::money::parse_pesos(text))
        .flatten()
        .ok_or_else(|| {
            invalid(
                field,
                format!("Give the {what} in pesos, like 1,250.00 (no minus)."),
            )
        })
}
