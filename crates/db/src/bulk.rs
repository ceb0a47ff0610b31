//! Orders in bulk, for `make bench` (the staff's board and run sheets at 100,000 orders): a
//! seeded SQLite store gets `n` orders over its served cities, barangays and products, written
//! straight into the tables (batched inserts, one transaction a few thousand orders) as placing
//! them would have left them: the order with its lines, deposit charges, status history and the
//! containers it lends (`order_containers`, one row a deposit name), and the runs that took the
//! delivery orders out with their stops.
//!
//! What it makes, from a seed (the same seed, the same store):
//! - orders placed within checkout's hours (08:00-22:00 Manila) over the last `days` days, a
//!   little more on Fridays and Saturdays, ids in the order they were placed; delivery, or pickup
//!   (about 15%) where the city offers it; 1 to 3 lines of whole cases of products sold there;
//!   deposits for bottles and kegs, and the empties shoppers said they return;
//! - statuses by age: the newest orders are placed, then confirmed, then out for delivery (ready
//!   for pickup), about a day's orders in all; older ones completed (92%) or cancelled;
//! - six riders (when the store has none) and closed runs of up to 25 stops a day for the
//!   delivery orders that went out (delivered, or failed and then cancelled); today's runs out
//!   with the orders out for delivery; and one planned run for today of up to 25 confirmed
//!   orders (the run sheet the bench loads), the rest of the confirmed ones waiting.
//!
//! On either database: ids are written as the generator counts them (on PostgreSQL through
//! [`crate::with_ids_given`]).

use std::collections::{BTreeMap, HashMap};

use diesel::prelude::*;

use crate::orders::{OrderChargeRow, OrderItemRow};
use crate::runs::ContainerRow;
use crate::schema::*;
use crate::{AnyConnection, DbError};

/// What to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub orders: usize,
    /// Over how many days, the last of them today (Manila).
    pub days: i64,
    /// Now (Unix seconds): no order is placed after it.
    pub now: i64,
    /// The random numbers' seed.
    pub seed: u64,
}

impl Default for Plan {
    fn default() -> Self {
        Self {
            orders: 100_000,
            days: 120,
            now: domain::calendar::unix_now(),
            seed: 26,
        }
    }
}

/// What was made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Made {
    pub orders: usize,
    pub items: usize,
    pub charges: usize,
    pub history: usize,
    pub containers: usize,
    pub runs: usize,
    pub stops: usize,
    /// Orders by status.
    pub statuses: BTreeMap<String, usize>,
    /// Today's planned run (`None`: no confirmed delivery order to put on one).
    pub planned_run: Option<i64>,
    /// Its stops.
    pub planned_stops: usize,
    /// Today, Manila (`YYYY-MM-DD`).
    pub today: String,
}

/// Orders written a transaction.
const ORDERS_A_TRANSACTION: usize = 5_000;
/// Rows an insert statement (under SQLite's 32,766 bound parameters at 23 columns).
const ROWS_A_STATEMENT: usize = 500;
/// The most stops the generator puts on a run.
const STOPS: usize = 25;
const MANILA: i64 = 8 * 3600;
const DAY: i64 = 86_400;
const MINUTE: i64 = 60;

/// Writes `plan.orders` orders (and their runs) into a seeded SQLite store, after what it holds.
pub fn orders(conn: &mut AnyConnection, plan: &Plan) -> Result<Made, DbError> {
    let catalog = Catalog::load(conn)?;
    let riders = riders(conn, plan.now)?;
    let c = &mut *conn;
    let first_order: i64 = orders::table
        .select(diesel::dsl::max(orders::id))
        .first::<Option<i64>>(c)?
        .unwrap_or(0)
        + 1;
    let first_run: i64 = runs::table
        .select(diesel::dsl::max(runs::id))
        .first::<Option<i64>>(c)?
        .unwrap_or(0)
        + 1;
    let mut g = Generator {
        rng: Rng(plan.seed ^ 0x5EED_0000_0026),
        catalog,
        riders,
        plan: *plan,
        next_run: first_run,
        rider_turn: 0,
        open_run: None,
        out_run: Vec::new(),
        planned: Vec::new(),
        made: Made {
            today: manila_date(plan.now),
            ..Made::default()
        },
    };
    let times = placed_times(&mut g.rng, plan);
    let bands = Bands::of(plan);
    let mut batch = Batch::default();
    for (k, placed_at) in times.into_iter().enumerate() {
        let id = first_order + k as i64;
        let age = plan.orders - 1 - k;
        g.order(&mut batch, id, placed_at, bands.status_of(age));
        if batch.orders.len() == ORDERS_A_TRANSACTION {
            g.made.add(&batch);
            crate::write_transaction(conn, |conn| batch.write(conn))?;
            batch = Batch::default();
        }
    }
    g.finish(&mut batch);
    g.made.add(&batch);
    crate::write_transaction(conn, |conn| batch.write(conn))?;
    Ok(g.made)
}

/// The six riders the runs go out with (the store's own riders when it has some).
fn riders(conn: &mut AnyConnection, now: i64) -> Result<Vec<i64>, DbError> {
    let have = crate::runs::riders(conn)?;
    if !have.is_empty() {
        return Ok(have.into_iter().map(|(id, _)| id).collect());
    }
    const NAMES: [&str; 6] = ["Jun", "Boyet", "Rommel", "Arnel", "Dodong", "Jomar"];
    let mut ids = Vec::new();
    for name in NAMES {
        let email = format!("{}.rider@tala.example", name.to_lowercase());
        ids.push(crate::team::add(
            conn,
            &email,
            &format!("{name} (rider)"),
            "rider",
            now,
        )?);
    }
    Ok(ids)
}

/// The Manila day of `unix`, `YYYY-MM-DD`.
fn manila_date(unix: i64) -> String {
    domain::calendar::manila_minute(unix)[..10].to_string()
}

/// The first second of `unix`'s Manila day.
fn manila_day_start(unix: i64) -> i64 {
    (unix + MANILA).div_euclid(DAY) * DAY - MANILA
}

/// splitmix64: small, quick, and the same numbers from the same seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub(crate) fn between(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low + 1).max(1) as u64) as i64
    }

    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }

    /// An index of `weights`, in proportion to them.
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut at = (self.next() % u64::from(total.max(1))) as u32;
        for (i, w) in weights.iter().enumerate() {
            if at < *w {
                return i;
            }
            at -= w;
        }
        weights.len() - 1
    }
}

/// When each order was placed, oldest first: spread over checkout's hours of the plan's days
/// (Fridays and Saturdays a third busier, Sundays a tenth), none after now.
fn placed_times(rng: &mut Rng, plan: &Plan) -> Vec<i64> {
    let today = manila_day_start(plan.now);
    // (opens, closes, weight) of each day's hours.
    let windows: Vec<(i64, i64, f64)> = (0..plan.days.max(1))
        .rev()
        .filter_map(|back| {
            let start = today - back * DAY;
            let (opens, closes) = (start + 8 * 3600, (start + 22 * 3600).min(plan.now));
            // 1970-01-01 was a Thursday: 0 is Sunday.
            let weekday = ((start + MANILA).div_euclid(DAY) + 4) % 7;
            let weight = match weekday {
                5 | 6 => 1.35,
                0 => 1.1,
                _ => 1.0,
            };
            (closes > opens).then_some((opens, closes, weight))
        })
        .collect();
    let total: f64 = windows.iter().map(|(o, c, w)| (c - o) as f64 * w).sum();
    let n = plan.orders;
    let (mut window, mut before) = (0, 0.0);
    (0..n)
        .map(|k| {
            let at = (k as f64 + rng.unit()) / n as f64 * total;
            loop {
                let (o, c, w) = windows[window];
                let len = (c - o) as f64 * w;
                if at < before + len || window + 1 == windows.len() {
                    return (o + ((at - before) / w) as i64).min(c - 1);
                }
                before += len;
                window += 1;
            }
        })
        .collect()
}

/// How many of the newest orders are at each status on the way, about a day's orders in all.
struct Bands {
    placed: usize,
    confirmed: usize,
    out: usize,
}

impl Bands {
    fn of(plan: &Plan) -> Self {
        let per_day = plan.orders as f64 / plan.days.max(1) as f64;
        let n = |share: f64| (per_day * share).ceil() as usize;
        Self {
            placed: n(0.12),
            confirmed: n(0.3),
            out: n(0.3),
        }
    }

    /// The status of the order with `age` newer orders than it.
    fn status_of(&self, age: usize) -> Band {
        if age < self.placed {
            Band::Placed
        } else if age < self.placed + self.confirmed {
            Band::Confirmed
        } else if age < self.placed + self.confirmed + self.out {
            Band::Out
        } else {
            Band::Done
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Band {
    Placed,
    Confirmed,
    Out,
    Done,
}

/// The seeded store's places and catalog, as orders use them.
struct Catalog {
    cities: Vec<City>,
    /// Each city's weight (Metro Manila's busier).
    weights: Vec<u32>,
    products: Vec<Product>,
    fulfillment_names: HashMap<i32, String>,
}

struct City {
    id: i64,
    /// `City, Province`.
    name: String,
    barangays: Vec<(i64, String)>,
    pickup: bool,
    delivery_fee: i64,
    /// The products sold here (indexes of `Catalog::products`).
    products: Vec<usize>,
}

struct Product {
    id: i32,
    name: String,
    sku: String,
    price: i64,
    price_per_case: i64,
    unit_per_case: i32,
    case_name: String,
    keg: bool,
    /// Its deposit row (id, name, amount for a case), if it lends a container.
    deposit: Option<(i32, String, i64)>,
}

type ProductColumns = (i32, String, String, i64, i64, i32, i32, bool, bool);
/// A deposit row: id, name, amount for a case, and its product or packaging.
type DepositColumns = (i32, String, i64, Option<i32>, Option<i32>);

impl Catalog {
    fn load(c: &mut AnyConnection) -> Result<Self, DbError> {
        let products = Self::products(c)?;
        let served: Vec<(i64, i32)> = served_areas::table
            .select((served_areas::city_id, served_areas::fulfillment_type_id))
            .load(c)?;
        let delivering: Vec<i64> = served
            .iter()
            .filter(|(_, f)| *f == domain::DELIVERY.get())
            .map(|(c, _)| *c)
            .collect();
        let names: Vec<(i64, String, String)> = cities::table
            .inner_join(provinces::table)
            .filter(cities::id.eq_any(&delivering))
            .order(cities::id)
            .select((cities::id, cities::city_name, provinces::province_name))
            .load(c)?;
        let mut barangays: HashMap<i64, Vec<(i64, String)>> = HashMap::new();
        for (id, city, name) in barangays::table
            .filter(barangays::city_id.eq_any(&delivering))
            .order(barangays::id)
            .select((barangays::id, barangays::city_id, barangays::barangay_name))
            .load::<(i64, i64, String)>(c)?
        {
            barangays.entry(city).or_default().push((id, name));
        }
        let fees: HashMap<i64, i64> = delivery_fees::table
            .filter(delivery_fees::fulfillment_type_id.eq(domain::DELIVERY.get()))
            .select((delivery_fees::city_id, delivery_fees::amount))
            .load::<(i64, i64)>(c)?
            .into_iter()
            .collect();
        let areas: Vec<(i32, i64)> = product_areas::table
            .select((product_areas::product_id, product_areas::city_id))
            .load(c)?;
        let cities: Vec<City> = names
            .into_iter()
            .filter_map(|(id, city, province)| {
                let sold = products
                    .iter()
                    .enumerate()
                    .filter(|(_, (p, everywhere))| *everywhere || areas.contains(&(p.id, id)))
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>();
                Some(City {
                    id,
                    name: format!("{city}, {province}"),
                    barangays: barangays.remove(&id).filter(|b| !b.is_empty())?,
                    pickup: served.contains(&(id, domain::PICKUP.get())),
                    delivery_fee: fees.get(&id).copied().unwrap_or(0),
                    products: sold,
                })
            })
            .filter(|c| !c.products.is_empty())
            .collect();
        if cities.is_empty() {
            return Err(DbError::Seed(
                "bulk orders need a seeded store (served cities and products)".into(),
            ));
        }
        // Metro Manila (PSGC region 13) busier; Quezon City and Manila busiest.
        let weights = cities
            .iter()
            .map(|c| match c.id {
                1_381_300_000 => 6,
                1_380_600_000 => 5,
                id if id / 100_000_000 == 13 => 3,
                _ => 1,
            })
            .collect();
        Ok(Self {
            cities,
            weights,
            products: products.into_iter().map(|(p, _)| p).collect(),
            fulfillment_names: fulfillment_types::table
                .select((fulfillment_types::id, fulfillment_types::name))
                .load::<(i32, String)>(c)?
                .into_iter()
                .collect(),
        })
    }

    /// The orderable products, each with whether it is sold in every served city.
    fn products(c: &mut AnyConnection) -> Result<Vec<(Product, bool)>, DbError> {
        let case_names: HashMap<i32, String> = case_types::table
            .select((case_types::packaging_id, case_types::name))
            .load::<(i32, String)>(c)?
            .into_iter()
            .collect();
        let deposits: Vec<DepositColumns> = deposits::table
            .order(deposits::id)
            .select((
                deposits::id,
                deposits::name,
                deposits::amount,
                deposits::product_id,
                deposits::packaging_id,
            ))
            .load(c)?;
        let rows: Vec<ProductColumns> = products::table
            .filter(products::orderable)
            .order(products::id)
            .select((
                products::id,
                products::product_name,
                products::sku,
                products::price,
                products::price_per_case,
                products::unit_per_case,
                products::packaging_id,
                products::orderable,
                products::sold_in_all_areas,
            ))
            .load(c)?;
        Ok(rows
            .into_iter()
            .map(
                |(id, name, sku, price, per_case, upc, packaging, _, everywhere)| {
                    // A product's own deposit row, else its packaging's.
                    let deposit = deposits
                        .iter()
                        .find(|d| d.3 == Some(id))
                        .or_else(|| {
                            deposits
                                .iter()
                                .find(|d| d.3.is_none() && d.4 == Some(packaging))
                        })
                        .map(|d| (d.0, d.1.clone(), d.2));
                    let product = Product {
                        id,
                        name,
                        sku,
                        price,
                        price_per_case: per_case,
                        unit_per_case: upc,
                        case_name: case_names.get(&packaging).cloned().unwrap_or_default(),
                        keg: upc == 1,
                        deposit,
                    };
                    (product, everywhere)
                },
            )
            .collect())
    }
}

#[derive(Insertable)]
#[diesel(table_name = orders, treat_none_as_null = true)]
struct NewOrder {
    id: i64,
    user_id: Option<i64>,
    access_hash: String,
    idempotency_key: String,
    status: String,
    fulfillment_type_id: i32,
    fulfillment_name: String,
    payment: String,
    contact_name: String,
    mobile: String,
    email: String,
    address: String,
    barangay_id: i64,
    street_id: Option<i32>,
    place: String,
    notes: String,
    items_total: i64,
    deposits_total: i64,
    delivery_fee: i64,
    total: i64,
    placed_at: i64,
    confirmation_mailed: bool,
}

#[derive(Insertable)]
#[diesel(table_name = order_status_history)]
struct NewStep {
    order_id: i64,
    seq: i32,
    status: String,
    at: i64,
    note: String,
}

#[derive(Insertable)]
#[diesel(table_name = runs, treat_none_as_null = true)]
struct NewRun {
    id: i64,
    day: String,
    rider_id: i64,
    created_at: i64,
    sent_at: Option<i64>,
    closed_at: Option<i64>,
    cash_handed_in: Option<i64>,
}

#[derive(Insertable)]
#[diesel(table_name = run_stops, treat_none_as_null = true)]
struct NewStop {
    run_id: i64,
    order_id: i64,
    seq: i32,
    outcome: String,
    cash_received: Option<i64>,
    empties_returned: Option<i32>,
    reason: String,
    note: String,
    done_at: Option<i64>,
}

/// The rows of a transaction's orders.
#[derive(Default)]
struct Batch {
    orders: Vec<NewOrder>,
    items: Vec<OrderItemRow>,
    charges: Vec<OrderChargeRow>,
    history: Vec<NewStep>,
    containers: Vec<ContainerRow>,
    runs: Vec<NewRun>,
    stops: Vec<NewStop>,
}

impl Batch {
    fn write(&self, conn: &mut AnyConnection) -> Result<(), DbError> {
        // Orders and runs are numbered here, so that lines, steps and stops can name them.
        Ok(crate::with_ids_given(conn, &["orders", "runs"], |conn| {
            // Each kind of row in statements of at most ROWS_A_STATEMENT rows.
            macro_rules! insert {
                ($($rows:ident => $table:ident),* $(,)?) => {$(
                    for rows in self.$rows.chunks(ROWS_A_STATEMENT) {
                        match conn {
                            AnyConnection::Sqlite(c) => diesel::insert_into($table::table).values(rows).execute(c)?,
                            AnyConnection::Postgresql(c) => diesel::insert_into($table::table).values(rows).execute(c)?,
                        };
                    }
                )*};
            }
            insert!(
                orders => orders,
                items => order_items,
                charges => order_charges,
                history => order_status_history,
                containers => order_containers,
                runs => runs,
                stops => run_stops,
            );
            Ok(())
        })?)
    }
}

impl Made {
    fn add(&mut self, b: &Batch) {
        self.orders += b.orders.len();
        self.items += b.items.len();
        self.charges += b.charges.len();
        self.history += b.history.len();
        self.containers += b.containers.len();
        self.runs += b.runs.len();
        self.stops += b.stops.len();
        for o in &b.orders {
            *self.statuses.entry(o.status.clone()).or_default() += 1;
        }
    }
}

/// A delivery order that went out on a run, as its stop will read.
struct Out {
    order: i64,
    placed_at: i64,
    /// When it was confirmed: its second step (the run writes the steps after it).
    confirmed_at: i64,
    total: i64,
    empties: i32,
    /// Failed (then cancelled), with the reason.
    failed: Option<&'static str>,
}

/// A run being filled: the day's delivery orders, up to [`STOPS`].
struct OpenRun {
    day_start: i64,
    stops: Vec<Out>,
}

struct Generator {
    rng: Rng,
    catalog: Catalog,
    riders: Vec<i64>,
    plan: Plan,
    next_run: i64,
    rider_turn: usize,
    /// The closed run being filled with the orders completed (or failed) of one day.
    open_run: Option<OpenRun>,
    /// The orders out for delivery now, for today's runs out.
    out_run: Vec<Out>,
    /// The oldest confirmed delivery orders, for today's planned run.
    planned: Vec<Out>,
    made: Made,
}

const FIRST: [&str; 24] = [
    "Maria", "Jose", "Ana", "Juan", "Liza", "Mark", "Grace", "Paolo", "Joy", "Carlo", "Rhea",
    "Miguel", "Kristine", "Ramon", "Bea", "Enrico", "Cherry", "Nestor", "Aileen", "Jerome",
    "Marites", "Rogelio", "Shiela", "Vincent",
];
const LAST: [&str; 24] = [
    "Santos",
    "Reyes",
    "Cruz",
    "Bautista",
    "Ocampo",
    "Garcia",
    "Mendoza",
    "Torres",
    "Tomas",
    "Andrada",
    "Castillo",
    "Flores",
    "Villanueva",
    "Ramos",
    "Castro",
    "Rivera",
    "Aquino",
    "Navarro",
    "Salazar",
    "Mercado",
    "Dela Cruz",
    "Lim",
    "Tan",
    "Domingo",
];
const STREETS: [&str; 10] = [
    "Rizal Street",
    "Mabini Street",
    "Bonifacio Avenue",
    "Luna Street",
    "Sampaguita Street",
    "Kamagong Street",
    "Narra Street",
    "Molave Street",
    "Acacia Lane",
    "Ilang-Ilang Street",
];
const NOTES: [&str; 5] = [
    "Please call when you are outside.",
    "Leave with the guard at the gate.",
    "Green gate beside the sari-sari store.",
    "Deliver after 5 pm please.",
    "Ring the bell twice.",
];
const CANCELLED: [&str; 4] = [
    "The shopper asked to cancel.",
    "Could not reach the shopper to confirm.",
    "A duplicate of another order.",
    "Out of stock of an item.",
];

impl Generator {
    /// Order `id`, placed at `placed_at`, and where `band` puts it.
    fn order(&mut self, b: &mut Batch, id: i64, placed_at: i64, band: Band) {
        let city_at = self.rng.weighted(&self.catalog.weights);
        let city = &self.catalog.cities[city_at];
        let (barangay, barangay_name) = self.rng.pick(&city.barangays).clone();
        let place = format!("{barangay_name}, {}", city.name);
        let pickup = city.pickup && self.rng.chance(0.15);
        let delivery_fee = if pickup { 0 } else { city.delivery_fee };
        let fulfillment = if pickup {
            domain::PICKUP
        } else {
            domain::DELIVERY
        }
        .get();
        let (first, last) = (*self.rng.pick(&FIRST), *self.rng.pick(&LAST));
        let street = *self.rng.pick(&STREETS);
        let address = format!("{} {street}", self.rng.between(1, 250));
        let (items_total, lent) = self.lines(b, id, city_at);
        let (deposits_total, empties) = self.deposits(b, id, &lent);
        let total = items_total + deposits_total + delivery_fee;
        let confirmed_at = (placed_at + self.rng.between(5, 40) * MINUTE)
            .min(self.plan.now - MINUTE)
            .max(placed_at);
        let out = Out {
            order: id,
            placed_at,
            confirmed_at,
            total,
            empties,
            failed: None,
        };
        let status = self.history(b, out, band, pickup);
        let n = self.rng.next();
        b.orders.push(NewOrder {
            id,
            user_id: None,
            access_hash: format!("{:016x}{:016x}{:016x}{:016x}", n, !n, n.rotate_left(17), id),
            idempotency_key: format!("bulk:{id}"),
            status: status.into(),
            fulfillment_type_id: fulfillment,
            fulfillment_name: self
                .catalog
                .fulfillment_names
                .get(&fulfillment)
                .cloned()
                .unwrap_or_default(),
            payment: if pickup {
                "Pay at pickup"
            } else {
                "Cash on delivery"
            }
            .into(),
            contact_name: format!("{first} {last}"),
            mobile: format!("09{:09}", self.rng.next() % 1_000_000_000),
            email: format!(
                "{}.{}{}@example.com",
                first.to_lowercase(),
                last.to_lowercase().replace(' ', ""),
                id % 997
            ),
            address,
            barangay_id: barangay,
            street_id: None,
            place,
            notes: if self.rng.chance(0.2) {
                (*self.rng.pick(&NOTES)).into()
            } else {
                String::new()
            },
            items_total,
            deposits_total,
            delivery_fee,
            total,
            placed_at,
            confirmation_mailed: true,
        });
    }

    /// Order `id`'s lines: 1 to 3 products sold in the city, whole cases. Answers what they
    /// come to and the cases each deposit row lends ((row, name, amount a case) -> cases).
    fn lines(
        &mut self,
        b: &mut Batch,
        id: i64,
        city_at: usize,
    ) -> (i64, BTreeMap<(i32, String, i64), i32>) {
        let sold = &self.catalog.cities[city_at].products;
        let lines = [1, 1, 1, 2, 2, 3][self.rng.below(6)].min(sold.len());
        let mut chosen: Vec<usize> = Vec::new();
        while chosen.len() < lines {
            let p = *self.rng.pick(sold);
            if !chosen.contains(&p) {
                chosen.push(p);
            }
        }
        let mut items_total = 0;
        let mut lent: BTreeMap<(i32, String, i64), i32> = BTreeMap::new();
        for (n, p) in chosen.iter().enumerate() {
            let p = &self.catalog.products[*p];
            let cases = if p.keg {
                self.rng.between(1, 2) as i32
            } else {
                [1, 1, 1, 2, 2, 3, 4, 5][self.rng.below(8)]
            };
            let amount = p.price_per_case * i64::from(cases);
            items_total += amount;
            b.items.push(OrderItemRow {
                order_id: id,
                line: n as i32 + 1,
                product_id: p.id,
                product_name: p.name.clone(),
                sku: p.sku.clone(),
                case_name: p.case_name.clone(),
                unit_price: p.price,
                price_per_case: p.price_per_case,
                unit_per_case: p.unit_per_case,
                quantity: cases * p.unit_per_case,
                amount,
            });
            if let Some(d) = &p.deposit {
                *lent.entry(d.clone()).or_default() += cases;
            }
        }
        (items_total, lent)
    }

    /// Order `id`'s deposits charged and empties credited (its charges), and the containers it
    /// lends by name (deposit rows may share a name); answers the deposits' total and the empty
    /// cases its shopper returns.
    fn deposits(
        &mut self,
        b: &mut Batch,
        id: i64,
        lent: &BTreeMap<(i32, String, i64), i32>,
    ) -> (i64, i32) {
        let mut total = 0;
        let mut line = 0;
        let mut containers: BTreeMap<String, (i32, i32)> = BTreeMap::new();
        for ((_, name, per_case), cases) in lent {
            let returned = match self.rng.below(20) {
                0..=11 => *cases,
                12..=14 => self.rng.between(1, i64::from(*cases)) as i32,
                _ => 0,
            };
            let charged = per_case * i64::from(*cases);
            total += charged;
            line += 1;
            b.charges.push(OrderChargeRow {
                order_id: id,
                line,
                name: name.clone(),
                amount: charged,
            });
            if returned > 0 {
                let credit = per_case * i64::from(returned);
                total -= credit;
                line += 1;
                b.charges.push(OrderChargeRow {
                    order_id: id,
                    line,
                    name: format!("Returned empties: {returned} x {name}"),
                    amount: -credit,
                });
            }
            let c = containers.entry(name.clone()).or_default();
            c.0 += cases;
            c.1 += returned;
        }
        let empties = containers.values().map(|c| c.1).sum();
        for (name, (out, back)) in containers {
            b.containers.push(ContainerRow {
                order_id: id,
                name,
                cases_out: out,
                cases_back: back,
            });
        }
        (total, empties)
    }

    /// Writes the order's steps and puts it on a run where it goes on one; answers its status.
    fn history(&mut self, b: &mut Batch, out: Out, band: Band, pickup: bool) -> &'static str {
        let now = self.plan.now;
        let (id, confirmed_at) = (out.order, out.confirmed_at);
        let mut steps: Vec<(&'static str, i64, String)> =
            vec![("placed", out.placed_at, String::new())];
        let status = match band {
            Band::Placed if self.rng.chance(0.04) => {
                steps.push(("cancelled", confirmed_at, self.why()));
                "cancelled"
            }
            Band::Placed => "placed",
            Band::Confirmed if self.rng.chance(0.03) => {
                steps.push(("confirmed", confirmed_at, String::new()));
                steps.push(("cancelled", (confirmed_at + 600).min(now), self.why()));
                "cancelled"
            }
            Band::Confirmed => {
                steps.push(("confirmed", confirmed_at, String::new()));
                if !pickup && self.planned.len() < STOPS {
                    self.planned.push(out);
                }
                "confirmed"
            }
            Band::Out if pickup => {
                steps.push(("confirmed", confirmed_at, String::new()));
                let ready = (confirmed_at + self.rng.between(30, 120) * MINUTE).min(now);
                steps.push(("ready_for_pickup", ready, String::new()));
                "ready_for_pickup"
            }
            Band::Out => {
                // Its out-for-delivery step is written with its run (when the run is sent).
                steps.push(("confirmed", confirmed_at, String::new()));
                self.out_run.push(out);
                if self.out_run.len() == STOPS {
                    self.send_out_run(b);
                }
                "out_for_delivery"
            }
            Band::Done => self.ended(b, &mut steps, out, pickup),
        };
        for (n, (status, at, note)) in steps.into_iter().enumerate() {
            b.history.push(NewStep {
                order_id: id,
                seq: n as i32 + 1,
                status: status.into(),
                at,
                note,
            });
        }
        status
    }

    /// The steps of an order that has ended: cancelled (8%: before it went out, or failed on
    /// its run), or completed (picked up, or delivered on its run). A run writes the steps from
    /// going out on.
    fn ended(
        &mut self,
        b: &mut Batch,
        steps: &mut Vec<(&'static str, i64, String)>,
        out: Out,
        pickup: bool,
    ) -> &'static str {
        let confirmed_at = out.confirmed_at;
        if self.rng.chance(0.08) {
            if pickup || self.rng.chance(0.6) {
                if self.rng.chance(0.5) {
                    steps.push(("confirmed", confirmed_at, String::new()));
                }
                let at = steps.last().map_or(out.placed_at, |s| s.1) + 15 * MINUTE;
                steps.push(("cancelled", at, self.why()));
            } else {
                steps.push(("confirmed", confirmed_at, String::new()));
                let reason = *self.rng.pick(&domain::dispatch::FAILURE_REASONS);
                self.on_closed_run(
                    b,
                    Out {
                        failed: Some(reason),
                        ..out
                    },
                );
            }
            return "cancelled";
        }
        steps.push(("confirmed", confirmed_at, String::new()));
        if pickup {
            let ready = confirmed_at + self.rng.between(30, 120) * MINUTE;
            steps.push(("ready_for_pickup", ready, String::new()));
            let done = ready + self.rng.between(20, 600) * MINUTE;
            steps.push(("completed", done.min(self.plan.now - MINUTE), String::new()));
        } else {
            self.on_closed_run(b, out);
        }
        "completed"
    }

    fn why(&mut self) -> String {
        (*self.rng.pick(&CANCELLED)).into()
    }

    fn rider(&mut self) -> i64 {
        self.rider_turn += 1;
        self.riders[self.rider_turn % self.riders.len()]
    }

    /// Puts a delivery order that went out (and ended) on the day's run being filled.
    fn on_closed_run(&mut self, b: &mut Batch, out: Out) {
        let day_start = manila_day_start(out.placed_at);
        if self
            .open_run
            .as_ref()
            .is_some_and(|r| r.day_start != day_start || r.stops.len() == STOPS)
        {
            self.close_run(b);
        }
        self.open_run
            .get_or_insert(OpenRun {
                day_start,
                stops: Vec::new(),
            })
            .stops
            .push(out);
    }

    /// Writes the run being filled: sent after its last order was confirmed, each stop ended
    /// delivered (the cash and empties as expected) or failed, closed on the cash delivered.
    fn close_run(&mut self, b: &mut Batch) {
        let Some(run) = self.open_run.take() else {
            return;
        };
        let now = self.plan.now;
        let last = run.stops.iter().map(|s| s.placed_at).max().unwrap_or(now);
        let confirmed = run
            .stops
            .iter()
            .map(|s| s.confirmed_at)
            .max()
            .unwrap_or(now);
        let sent = (last + self.rng.between(45, 120) * MINUTE)
            .min(now - 3 * 3600)
            .max(confirmed);
        let id = self.next_run;
        self.next_run += 1;
        let rider = self.rider();
        let mut done = sent;
        let mut cash = 0;
        for (n, s) in run.stops.iter().enumerate() {
            done = (done + self.rng.between(6, 15) * MINUTE).min(now - MINUTE);
            let mut step = |status: &str, at: i64, note: String, k: i32| {
                b.history.push(NewStep {
                    order_id: s.order,
                    seq: 2 + k,
                    status: status.into(),
                    at,
                    note,
                });
            };
            step("out_for_delivery", sent, String::new(), 1);
            match s.failed {
                None => {
                    step("completed", done, String::new(), 2);
                    cash += s.total;
                }
                Some(reason) => {
                    step("confirmed", done, format!("Delivery failed: {reason}"), 2);
                    step(
                        "cancelled",
                        done + 20 * MINUTE,
                        format!("Delivery failed: {reason}"),
                        3,
                    );
                }
            }
            b.stops.push(NewStop {
                run_id: id,
                order_id: s.order,
                seq: n as i32 + 1,
                outcome: if s.failed.is_some() {
                    "failed"
                } else {
                    "delivered"
                }
                .into(),
                cash_received: s.failed.is_none().then_some(s.total),
                empties_returned: s.failed.is_none().then_some(s.empties),
                reason: s.failed.unwrap_or_default().into(),
                note: String::new(),
                done_at: Some(done),
            });
        }
        b.runs.push(NewRun {
            id,
            day: manila_date(sent),
            rider_id: rider,
            created_at: sent - 40 * MINUTE,
            sent_at: Some(sent),
            closed_at: Some(done + 30 * MINUTE),
            cash_handed_in: Some(cash),
        });
    }

    /// Writes a run out now with the orders out for delivery gathered: sent, stops pending.
    fn send_out_run(&mut self, b: &mut Batch) {
        if self.out_run.is_empty() {
            return;
        }
        let now = self.plan.now;
        let stops = std::mem::take(&mut self.out_run);
        let last = stops.iter().map(|s| s.placed_at).max().unwrap_or(now);
        let sent = (last + 50 * MINUTE).min(now - MINUTE).max(last);
        let id = self.next_run;
        self.next_run += 1;
        let rider = self.rider();
        for (n, s) in stops.iter().enumerate() {
            b.history.push(NewStep {
                order_id: s.order,
                seq: 3,
                status: "out_for_delivery".into(),
                at: sent.max(s.confirmed_at),
                note: String::new(),
            });
            b.stops.push(pending(id, s.order, n));
        }
        b.runs.push(NewRun {
            id,
            day: manila_date(sent),
            rider_id: rider,
            created_at: sent - 30 * MINUTE,
            sent_at: Some(sent),
            closed_at: None,
            cash_handed_in: None,
        });
    }

    /// The last runs: the one being filled closed, the last run out sent, and today's planned
    /// run of the oldest confirmed delivery orders.
    fn finish(&mut self, b: &mut Batch) {
        self.close_run(b);
        self.send_out_run(b);
        let planned = std::mem::take(&mut self.planned);
        if planned.is_empty() {
            return;
        }
        let id = self.next_run;
        self.next_run += 1;
        for (n, s) in planned.iter().enumerate() {
            b.stops.push(pending(id, s.order, n));
        }
        b.runs.push(NewRun {
            id,
            day: self.made.today.clone(),
            rider_id: self.riders[0],
            created_at: self.plan.now - 10 * MINUTE,
            sent_at: None,
            closed_at: None,
            cash_handed_in: None,
        });
        self.made.planned_run = Some(id);
        self.made.planned_stops = planned.len();
    }
}

/// Stop number `n + 1` of run `run`, not ended.
fn pending(run: i64, order: i64, n: usize) -> NewStop {
    NewStop {
        run_id: run,
        order_id: order,
        seq: n as i32 + 1,
        outcome: "pending".into(),
        cash_received: None,
        empties_returned: None,
        reason: String::new(),
        note: String::new(),
        done_at: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many rows `sql` (a `SELECT count(*) AS n ...`) counts.
    fn count(conn: &mut AnyConnection, sql: &str) -> usize {
        #[derive(QueryableByName)]
        struct N {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        diesel::sql_query(sql).get_result::<N>(conn).unwrap().n as usize
    }

    /// Each table holds what the generator says it wrote; orders are whole: lines, a history
    /// ending at their status in steps numbered 1, 2..., totals that add up, placed in the days.
    fn written_whole(conn: &mut AnyConnection, made: &Made) {
        assert_eq!(made.orders, 6_000);
        for (table, rows) in [
            ("orders", made.orders),
            ("order_items", made.items),
            ("order_charges", made.charges),
            ("order_status_history", made.history),
            ("order_containers", made.containers),
            ("runs", made.runs),
            ("run_stops", made.stops),
        ] {
            assert_eq!(
                count(conn, &format!("SELECT count(*) AS n FROM {table}")),
                rows,
                "{table}"
            );
        }
        assert!(made.items >= made.orders && made.history >= 2 * made.orders);
        assert_eq!(
            count(
                conn,
                "SELECT count(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)
                   OR (SELECT status FROM order_status_history h WHERE h.order_id = o.id ORDER BY seq DESC LIMIT 1) <> o.status
                   OR (SELECT max(seq) FROM order_status_history h WHERE h.order_id = o.id) <> (SELECT count(*) FROM order_status_history h WHERE h.order_id = o.id)"
            ),
            0
        );
        assert_eq!(
            count(
                conn,
                "SELECT count(*) AS n FROM orders WHERE total <> items_total + deposits_total + delivery_fee
                   OR items_total <> (SELECT sum(amount) FROM order_items i WHERE i.order_id = orders.id)
                   OR deposits_total <> coalesce((SELECT sum(amount) FROM order_charges c WHERE c.order_id = orders.id), 0)
                   OR placed_at >= 1790000000 OR placed_at < 1790000000 - 21 * 86400"
            ),
            0
        );
        // Mostly completed; some of each status on the way.
        let s = |name: &str| made.statuses.get(name).copied().unwrap_or(0);
        assert!(s("completed") > 4_500, "{:?}", made.statuses);
        assert!(s("cancelled") > 200 && s("placed") > 20 && s("confirmed") > 50);
        assert!(s("out_for_delivery") > 50 && s("ready_for_pickup") > 0);
    }

    /// Every completed delivery was delivered on a closed run, the orders out are on runs out,
    /// and today's planned run has 25 confirmed orders, read as the run sheet reads them.
    fn on_runs(conn: &mut AnyConnection, made: &Made) {
        assert_eq!(
            count(
                conn,
                "SELECT count(*) AS n FROM orders o WHERE o.fulfillment_type_id = 1 AND o.status = 'completed'
                   AND NOT EXISTS (SELECT 1 FROM run_stops s JOIN runs r ON r.id = s.run_id
                                   WHERE s.order_id = o.id AND s.outcome = 'delivered' AND r.closed_at IS NOT NULL)"
            ),
            0
        );
        assert_eq!(
            count(
                conn,
                "SELECT count(*) AS n FROM orders o WHERE o.status = 'out_for_delivery'
                   AND NOT EXISTS (SELECT 1 FROM run_stops s JOIN runs r ON r.id = s.run_id
                                   WHERE s.order_id = o.id AND s.outcome = 'pending' AND r.sent_at IS NOT NULL)"
            ),
            0
        );
        let run = made.planned_run.expect("a planned run");
        assert_eq!(made.planned_stops, STOPS);
        let row = crate::runs::run(conn, run).unwrap().unwrap();
        assert_eq!((row.day.as_str(), row.sent_at), (made.today.as_str(), None));
        let sheet = crate::runs::sheet(conn, run).unwrap();
        let ids: Vec<i64> = sheet.stops.iter().map(|s| s.order_id).collect();
        assert_eq!((sheet.stops.len(), sheet.orders.len()), (STOPS, STOPS));
        assert!(sheet.orders.iter().all(|o| o.status == "confirmed"));
        assert!(!sheet.items.is_empty());
        // Waiting for a run: the confirmed delivery orders not on the planned one.
        let waiting = crate::runs::waiting(conn, 1, 1_000).unwrap();
        assert!(!waiting.is_empty() && waiting.iter().all(|o| !ids.contains(&o.id)));
    }

    /// The board reads them: newest first, by status, city and page, and its counts are what
    /// grouping by status counts.
    fn on_the_board(conn: &mut AnyConnection, made: &Made) {
        let board = |conn: &mut AnyConnection, f: crate::staff::BoardFilter| {
            crate::staff::board(conn, &crate::staff::BoardFilter { limit: 26, ..f }).unwrap()
        };
        let page = board(conn, Default::default());
        assert_eq!((page.len(), page[0].id), (26, 6_000));
        let confirmed = board(
            conn,
            crate::staff::BoardFilter {
                status: Some("confirmed".into()),
                city: Some(1_381_300_000),
                ..Default::default()
            },
        );
        assert!(!confirmed.is_empty());
        assert!(confirmed
            .iter()
            .all(|o| o.status == "confirmed" && o.place.contains("Quezon City")));
        assert!(confirmed.windows(2).all(|w| w[0].id > w[1].id));
        let mut counts = crate::staff::status_counts(conn).unwrap();
        counts.sort();
        let grouped: Vec<(String, i64)> = orders::table
            .group_by(orders::status)
            .select((orders::status, diesel::dsl::count_star()))
            .order(orders::status)
            .load(conn)
            .unwrap();
        assert_eq!(counts, grouped);
        let made_counts: Vec<(String, i64)> = made
            .statuses
            .iter()
            .map(|(s, n)| (s.clone(), *n as i64))
            .collect();
        assert_eq!(grouped, made_counts);
    }

    #[test]
    fn bulk_orders_are_written_as_placing_and_runs_leave_them() {
        let dir = tempfile_dir();
        let pool = crate::connect(&dir.join("bulk.db").display().to_string(), 1).unwrap();
        let mut conn = pool.get().unwrap();
        crate::migrate(&mut conn).unwrap();
        crate::seed::seed(&mut conn).unwrap();
        let plan = Plan {
            orders: 6_000,
            days: 20,
            now: 1_790_000_000,
            seed: 7,
        };
        let made = orders(&mut conn, &plan).unwrap();
        written_whole(&mut conn, &made);
        on_runs(&mut conn, &made);
        on_the_board(&mut conn, &made);
        drop(conn);
        drop(pool);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A new folder for the test's SQLite file.
    fn tempfile_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("bulk-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
