//! One run: its stops in order (the run sheet: contact, a mobile to call, address, items, the
//! cash and empties to collect, how each stop ended), its pick list (every product's cases and
//! units over the run, with the containers they go in), and its reconciliation.

use domain::staff::Role;
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use super::plan::{waiting_near, WaitingOrder};
use super::{
    load_stops, visible, ContainerCount, PickLine, RunLine, RunPath, RunState, RunTotals, StopView,
};
use framework::endpoint::{Args, Ctx, Endpoint, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffRun);

/// One run as the staff work it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RunView {
    pub run: RunLine,
    pub stops: Vec<StopView>,
    pub pick_list: Vec<PickLine>,
    /// The containers the run's orders go in, by kind.
    pub containers_out: Vec<ContainerCount>,
    pub totals: RunTotals,
    /// The cash the rider handed in (centavos; once closed), and its difference from what they
    /// reported (negative: short).
    pub cash_handed_in: Option<i64>,
    pub cash_difference: Option<i64>,
    /// The cash handed in less what the run expects (negative: short; once closed): what a close
    /// note explains, as a run closes on cash that differs only with one.
    pub expected_difference: Option<i64>,
    /// Why the cash handed in differs from what the run expects (empty: it does not).
    pub close_note: String,
    /// What the signed-in member may do now: order, add and take off stops (a planned run,
    /// dispatchers and managers), send it out, end its stops, close it.
    pub can_arrange: bool,
    pub can_send: bool,
    pub can_end_stops: bool,
    pub can_close: bool,
    /// Why a delivery may fail (the rider chooses one).
    pub failure_reasons: Vec<String>,
    /// Orders that may be added (a planned run, dispatchers and managers): as many as the run
    /// has room for, the oldest nearest its stops first (in its stops' barangays, then in their
    /// cities, then anywhere).
    pub waiting: Vec<WaitingOrder>,
}

/// Run `id` as `signed` may work it.
pub(crate) fn view(ctx: &mut Ctx, id: i64) -> Result<RunView, ApiError> {
    let (signed, run) = visible(ctx, id)?;
    let loaded = load_stops(ctx.conn, id)?;
    let line = super::line(&run, &super::outcomes(&loaded.figures));
    let totals = domain::dispatch::totals(&loaded.figures);
    let works = signed.role != Role::Rider;
    let state = RunState::of(&run);
    let can_arrange = works && state == RunState::Planned;
    Ok(RunView {
        can_arrange,
        can_send: can_arrange && !loaded.stops.is_empty(),
        can_end_stops: state == RunState::Out && totals.pending > 0,
        can_close: works && state == RunState::Out && totals.pending == 0,
        cash_difference: run.cash_handed_in.map(|c| c - totals.cash_reported),
        expected_difference: run.cash_handed_in.map(|c| c - totals.cash_expected),
        cash_handed_in: run.cash_handed_in,
        close_note: run.close_note.clone(),
        waiting: if can_arrange {
            waiting_near(ctx, id, loaded.stops.len())?
        } else {
            Vec::new()
        },
        failure_reasons: domain::dispatch::FAILURE_REASONS
            .iter()
            .map(|r| (*r).to_string())
            .collect(),
        run: line,
        stops: loaded.stops,
        pick_list: loaded.pick_list,
        containers_out: loaded.containers_out,
        totals: totals.into(),
    })
}

framework::declare!(
    /// `GET /api/v1/staff/runs/{runId}`: one run, its pick list, run sheet and reconciliation
    /// (dispatchers and managers; a rider, their own).
    pub struct StaffRun = Get "/api/v1/staff/runs/{runId}" as "staffRun", Session, errors [401, 404],
    (RunPath, NoParams, NoBody) -> RunView,
    "One run: its stops, pick list and reconciliation.");

impl Endpoint for StaffRun {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "staffRunCreate",
        name: "GetRun",
        params: &[("runId", "$response.body#/run_id")],
        body: None,
    }];

    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<RunView, ApiError> {
        let signed = crate::staff::signed_in_as(ctx, &super::EVERYONE)?;
        let id = p.run_id;
        crate::staff::kept(ctx, &signed, "staffRun", &id.to_string(), |ctx| {
            view(ctx, id)
        })
    }
}
