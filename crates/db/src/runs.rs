//! Dispatch runs: a rider, a Manila day and the delivery orders they take, stop by stop; how
//! each stop ended; the cash handed in when the run closed. And the containers each order lends
//! and the empties its shopper returns (`order_containers`), which a run loads and collects.
//! Each function takes a connection, so several compose in one transaction.

use diesel::prelude::*;

use crate::orders::{OrderItemRow, OrderRow};
use crate::schema::*;
use crate::AnyConnection;

/// A stop not ended yet, written out rather than bound: the planner then reads the stops not
/// ended from their partial index (`run_stops_one_open`, `WHERE outcome = 'pending'`), which it
/// cannot know a bound value matches (at 82,000 stops a bound `outcome = ?` read every stop, on
/// each read of a run page: half its time).
fn pending() -> diesel::expression::SqlLiteral<diesel::sql_types::Bool> {
    diesel::dsl::sql::<diesel::sql_types::Bool>("run_stops.outcome = 'pending'")
}

/// A run as it is read, with its rider's name.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct RunRow {
    pub id: i64,
    pub day: String,
    pub rider_id: i64,
    pub created_at: i64,
    pub sent_at: Option<i64>,
    pub closed_at: Option<i64>,
    pub cash_handed_in: Option<i64>,
    /// Why the cash handed in differs from what the run expects (empty: it does not).
    pub close_note: String,
    pub rider_name: String,
}

type RunColumns = (
    runs::id,
    runs::day,
    runs::rider_id,
    runs::created_at,
    runs::sent_at,
    runs::closed_at,
    runs::cash_handed_in,
    runs::close_note,
    staff::name,
);

const RUN: RunColumns = (
    runs::id,
    runs::day,
    runs::rider_id,
    runs::created_at,
    runs::sent_at,
    runs::closed_at,
    runs::cash_handed_in,
    runs::close_note,
    staff::name,
);

/// A stop as it is read.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = run_stops)]
pub struct StopRow {
    pub run_id: i64,
    pub order_id: i64,
    pub seq: i32,
    pub outcome: String,
    pub cash_received: Option<i64>,
    pub empties_returned: Option<i32>,
    pub reason: String,
    pub note: String,
    pub done_at: Option<i64>,
}

/// What an order lends and gets back, by deposit.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = order_containers)]
pub struct ContainerRow {
    pub order_id: i64,
    pub name: String,
    pub cases_out: i32,
    pub cases_back: i32,
}

/// Writes an order's containers (its id filled in).
pub fn add_containers(
    conn: &mut AnyConnection,
    order_id: i64,
    rows: &[ContainerRow],
) -> QueryResult<()> {
    for row in rows {
        let mut row = row.clone();
        row.order_id = order_id;
        diesel::insert_into(order_containers::table)
            .values(&row)
            .execute(conn)?;
    }
    Ok(())
}

/// A new run of `rider` on `day`, created at `now`: its id.
pub fn create(conn: &mut AnyConnection, day: &str, rider: i64, now: i64) -> QueryResult<i64> {
    let values = (
        runs::day.eq(day),
        runs::rider_id.eq(rider),
        runs::created_at.eq(now),
    );
    match conn {
        AnyConnection::Postgresql(c) => diesel::insert_into(runs::table)
            .values(values)
            .returning(runs::id)
            .get_result(c),
        AnyConnection::Sqlite(c) => {
            diesel::insert_into(runs::table).values(values).execute(c)?;
            diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "last_insert_rowid()",
            ))
            .get_result(c)
        }
    }
}

/// Run `id`, when there is one.
pub fn run(conn: &mut AnyConnection, id: i64) -> QueryResult<Option<RunRow>> {
    runs::table
        .inner_join(staff::table)
        .filter(runs::id.eq(id))
        .select(RUN)
        .first(conn)
        .optional()
}

/// Holds run `id` for a change, as the first statement of the transaction (a write that changes
/// nothing: SQLite takes its write lock now, PostgreSQL locks the row). Answers whether it exists.
pub fn hold(conn: &mut AnyConnection, id: i64) -> QueryResult<bool> {
    let held = diesel::update(runs::table.find(id))
        .set(runs::day.eq(runs::day))
        .execute(conn)?;
    Ok(held == 1)
}

/// The runs of `day` (of one rider, when given), oldest first.
pub fn of_day(conn: &mut AnyConnection, day: &str, rider: Option<i64>) -> QueryResult<Vec<RunRow>> {
    let mut q = runs::table
        .inner_join(staff::table)
        .filter(runs::day.eq(day))
        .select(RUN)
        .order(runs::id.asc())
        .into_boxed();
    if let Some(rider) = rider {
        q = q.filter(runs::rider_id.eq(rider));
    }
    q.load(conn)
}

/// The runs of the days `from` to `until` (`YYYY-MM-DD`, both shown; of one rider, when given),
/// by day, oldest first in one.
pub fn of_days(
    conn: &mut AnyConnection,
    from: &str,
    until: &str,
    rider: Option<i64>,
) -> QueryResult<Vec<RunRow>> {
    let mut q = runs::table
        .inner_join(staff::table)
        .filter(runs::day.ge(from))
        .filter(runs::day.le(until))
        .select(RUN)
        .order((runs::day.asc(), runs::id.asc()))
        .into_boxed();
    if let Some(rider) = rider {
        q = q.filter(runs::rider_id.eq(rider));
    }
    q.load(conn)
}

/// The open runs (not closed) of a rider, oldest first: the runs their phone shows.
pub fn open_of_rider(conn: &mut AnyConnection, rider: i64) -> QueryResult<Vec<RunRow>> {
    runs::table
        .inner_join(staff::table)
        .filter(runs::rider_id.eq(rider))
        .filter(runs::closed_at.is_null())
        .select(RUN)
        .order(runs::id.asc())
        .load(conn)
}

/// Every run out now (sent, not closed), whatever its day, oldest first.
pub fn out(conn: &mut AnyConnection) -> QueryResult<Vec<RunRow>> {
    runs::table
        .inner_join(staff::table)
        .filter(runs::sent_at.is_not_null())
        .filter(runs::closed_at.is_null())
        .select(RUN)
        .order(runs::id.asc())
        .load(conn)
}

/// The stops of runs `ids`, each run's in its order.
pub fn stops(conn: &mut AnyConnection, ids: &[i64]) -> QueryResult<Vec<StopRow>> {
    run_stops::table
        .filter(run_stops::run_id.eq_any(ids))
        .order((run_stops::run_id, run_stops::seq))
        .select(StopRow::as_select())
        .load(conn)
}

/// What a run's page reads: its stops in order, their orders, the orders' items and containers.
#[derive(Debug, Default)]
pub struct Sheet {
    pub stops: Vec<StopRow>,
    pub orders: Vec<OrderRow>,
    pub items: Vec<OrderItemRow>,
    pub containers: Vec<ContainerRow>,
}

/// Run `run`'s [`Sheet`], each part read by the run's id rather than a list of order ids, so the
/// four statements are prepared once per connection (a statement with a list of ids is prepared
/// again on every read; on a run page that was a third of its time).
pub fn sheet(conn: &mut AnyConnection, run: i64) -> QueryResult<Sheet> {
    let on_run = || {
        run_stops::table
            .filter(run_stops::run_id.eq(run))
            .select(run_stops::order_id)
    };
    Ok(Sheet {
        stops: run_stops::table
            .filter(run_stops::run_id.eq(run))
            .order(run_stops::seq)
            .select(StopRow::as_select())
            .load(conn)?,
        orders: orders::table
            .filter(orders::id.eq_any(on_run()))
            .select(OrderRow::as_select())
            .load(conn)?,
        items: order_items::table
            .filter(order_items::order_id.eq_any(on_run()))
            .order((order_items::order_id, order_items::line))
            .select(OrderItemRow::as_select())
            .load(conn)?,
        containers: order_containers::table
            .filter(order_containers::order_id.eq_any(on_run()))
            .order((order_containers::order_id, order_containers::name))
            .select(ContainerRow::as_select())
            .load(conn)?,
    })
}

/// Orders `ids`.
pub fn orders(conn: &mut AnyConnection, ids: &[i64]) -> QueryResult<Vec<OrderRow>> {
    orders::table
        .filter(orders::id.eq_any(ids))
        .select(OrderRow::as_select())
        .load(conn)
}

/// The containers of orders `ids`.
pub fn containers(conn: &mut AnyConnection, ids: &[i64]) -> QueryResult<Vec<ContainerRow>> {
    order_containers::table
        .filter(order_containers::order_id.eq_any(ids))
        .order((order_containers::order_id, order_containers::name))
        .select(ContainerRow::as_select())
        .load(conn)
}

/// The orders waiting for a run: confirmed, of fulfillment `delivery`, on no pending stop; the
/// oldest `limit`, oldest first (a page groups them by [`barangays`]).
pub fn waiting(conn: &mut AnyConnection, delivery: i32, limit: i64) -> QueryResult<Vec<OrderRow>> {
    let on_a_run = run_stops::table
        .filter(pending())
        .select(run_stops::order_id);
    orders::table
        .filter(orders::status.eq("confirmed"))
        .filter(orders::fulfillment_type_id.eq(delivery))
        .filter(orders::id.ne_all(on_a_run))
        .order(orders::id.asc())
        .limit(limit)
        .select(OrderRow::as_select())
        .load(conn)
}

/// The most waiting orders a run page weighs (the oldest): far more than a run takes.
pub const NEAR_CANDIDATES: i64 = 1_000;

/// A waiting order as a run page offers it: what its list shows, and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct NearRow {
    pub id: i64,
    pub contact_name: String,
    pub place: String,
    pub total: i64,
    pub barangay_id: i64,
    pub city_id: i64,
    pub barangay_name: String,
    pub city_name: String,
}

impl NearRow {
    /// Its barangay and city (`Bel-Air, Makati City`), what a run groups by.
    pub fn barangay(&self) -> String {
        format!("{}, {}", self.barangay_name, self.city_name)
    }
}

/// The orders waiting for a run (as [`waiting`]) nearest run `run`'s stops, at most `limit`:
/// first those in the barangays of its stops, then those elsewhere in its stops' cities, then
/// the rest; oldest first within each (of the oldest [`NEAR_CANDIDATES`]). Answers the three
/// tiers apart. Two statements, neither with a list of ids (so both are prepared once per
/// connection), reading only the columns the list shows.
pub fn waiting_near(
    conn: &mut AnyConnection,
    delivery: i32,
    run: i64,
    limit: usize,
) -> QueryResult<[Vec<NearRow>; 3]> {
    let places: Vec<(i64, i64)> = run_stops::table
        .inner_join(orders::table.inner_join(barangays::table))
        .filter(run_stops::run_id.eq(run))
        .select((orders::barangay_id, barangays::city_id))
        .load(conn)?;
    let on_a_run = run_stops::table
        .filter(pending())
        .select(run_stops::order_id);
    let candidates: Vec<NearRow> = orders::table
        .inner_join(barangays::table.inner_join(cities::table))
        .filter(orders::status.eq("confirmed"))
        .filter(orders::fulfillment_type_id.eq(delivery))
        .filter(orders::id.ne_all(on_a_run))
        .order(orders::id.asc())
        .limit(NEAR_CANDIDATES)
        .select((
            orders::id,
            orders::contact_name,
            orders::place,
            orders::total,
            orders::barangay_id,
            barangays::city_id,
            barangays::barangay_name,
            cities::city_name,
        ))
        .load(conn)?;
    let mut tiers: [Vec<NearRow>; 3] = Default::default();
    for order in candidates {
        let tier = if places.iter().any(|(b, _)| *b == order.barangay_id) {
            0
        } else if places.iter().any(|(_, c)| *c == order.city_id) {
            1
        } else {
            2
        };
        tiers[tier].push(order);
    }
    let mut left = limit;
    for tier in &mut tiers {
        tier.truncate(left);
        left -= tier.len();
    }
    Ok(tiers)
}

/// The barangay of each of orders `ids`, with its city (`Bel-Air, Makati City`): what a run's
/// stops are grouped by. (An order's `place` begins with its street, when it has one.)
pub fn barangays(conn: &mut AnyConnection, ids: &[i64]) -> QueryResult<Vec<(i64, String)>> {
    let rows: Vec<(i64, String, String)> = orders::table
        .inner_join(barangays::table.inner_join(cities::table))
        .filter(orders::id.eq_any(ids))
        .select((orders::id, barangays::barangay_name, cities::city_name))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, barangay, city)| (id, format!("{barangay}, {city}")))
        .collect())
}

/// The run order `id` waits on (its pending stop), if any.
pub fn open_run_of(conn: &mut AnyConnection, order: i64) -> QueryResult<Option<i64>> {
    run_stops::table
        .filter(run_stops::order_id.eq(order))
        .filter(pending())
        .select(run_stops::run_id)
        .first(conn)
        .optional()
}

/// Adds order `order` to run `run` as its stop number `seq`.
pub fn add_stop(conn: &mut AnyConnection, run: i64, order: i64, seq: i32) -> QueryResult<()> {
    diesel::insert_into(run_stops::table)
        .values((
            run_stops::run_id.eq(run),
            run_stops::order_id.eq(order),
            run_stops::seq.eq(seq),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Numbers a run's stops anew: `orders` in their new order.
pub fn renumber(conn: &mut AnyConnection, run: i64, orders: &[i64]) -> QueryResult<()> {
    for (n, order) in orders.iter().enumerate() {
        diesel::update(run_stops::table.find((run, *order)))
            .set(run_stops::seq.eq(n as i32 + 1))
            .execute(conn)?;
    }
    Ok(())
}

/// Takes a pending stop off its run (answers whether there was one).
pub fn remove_stop(conn: &mut AnyConnection, run: i64, order: i64) -> QueryResult<bool> {
    let gone =
        diesel::delete(run_stops::table.find((run, order)).filter(pending())).execute(conn)?;
    Ok(gone == 1)
}

/// Deletes a run that has no stop left and was never sent (answers whether it did).
pub fn delete_empty(conn: &mut AnyConnection, run: i64) -> QueryResult<bool> {
    let stops: i64 = run_stops::table
        .filter(run_stops::run_id.eq(run))
        .count()
        .get_result(conn)?;
    if stops > 0 {
        return Ok(false);
    }
    let gone =
        diesel::delete(runs::table.find(run).filter(runs::sent_at.is_null())).execute(conn)?;
    Ok(gone == 1)
}

/// How a stop ended, as the rider reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopEnd<'a> {
    pub outcome: &'a str,
    pub cash_received: Option<i64>,
    pub empties_returned: Option<i32>,
    pub reason: &'a str,
    pub note: &'a str,
    pub at: i64,
}

/// Ends a pending stop; answers false, changing nothing, when it is not pending (ended already).
pub fn end_stop(
    conn: &mut AnyConnection,
    run: i64,
    order: i64,
    end: &StopEnd,
) -> QueryResult<bool> {
    let done = diesel::update(run_stops::table.find((run, order)).filter(pending()))
        .set((
            run_stops::outcome.eq(end.outcome),
            run_stops::cash_received.eq(end.cash_received),
            run_stops::empties_returned.eq(end.empties_returned),
            run_stops::reason.eq(end.reason),
            run_stops::note.eq(end.note),
            run_stops::done_at.eq(end.at),
        ))
        .execute(conn)?;
    Ok(done == 1)
}

/// Marks a run sent out at `at` (false: it was already).
pub fn send(conn: &mut AnyConnection, run: i64, at: i64) -> QueryResult<bool> {
    let sent = diesel::update(runs::table.find(run).filter(runs::sent_at.is_null()))
        .set(runs::sent_at.eq(at))
        .execute(conn)?;
    Ok(sent == 1)
}

/// Closes a run with the cash handed in and the note on its difference, if any (false: it was
/// already closed).
pub fn close(
    conn: &mut AnyConnection,
    run: i64,
    cash: i64,
    note: &str,
    at: i64,
) -> QueryResult<bool> {
    let closed = diesel::update(runs::table.find(run).filter(runs::closed_at.is_null()))
        .set((
            runs::closed_at.eq(at),
            runs::cash_handed_in.eq(cash),
            runs::close_note.eq(note),
        ))
        .execute(conn)?;
    Ok(closed == 1)
}

/// The members of staff who may take a run (riders not disabled): id and name, by name.
pub fn riders(conn: &mut AnyConnection) -> QueryResult<Vec<(i64, String)>> {
    staff::table
        .filter(staff::role.eq("rider"))
        .filter(staff::disabled_at.is_null())
        .order((staff::name, staff::id))
        .select((staff::id, staff::name))
        .load(conn)
}

/// The orders placed in `[from, until)` (Unix seconds), for the day report.
pub fn placed_between(
    conn: &mut AnyConnection,
    from: i64,
    until: i64,
) -> QueryResult<Vec<OrderRow>> {
    orders::table
        .filter(orders::placed_at.ge(from))
        .filter(orders::placed_at.lt(until))
        .order(orders::id.asc())
        .select(OrderRow::as_select())
        .load(conn)
}
