//! The back office's first page for those who work the orders: today's orders and revenue, the
//! orders waiting at each status, and the last 30 days (orders and revenue a day, the products
//! that sold most). Revenue is what orders not cancelled come to; days are Manila's.

use domain::ordering::Status;
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use super::orders::board::{counts, StatusCount};
use super::orders::WORKERS;
use super::*;
use framework::endpoint::{Args, Endpoint, NoBody, NoParams};

framework::register!(StaffDashboard);

/// The days the chart covers, today among them.
pub const DAYS: i64 = 30;
/// The products the dashboard names.
pub const TOP: usize = 5;

/// One day of the chart.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct DayFigures {
    /// `YYYY-MM-DD`, Manila.
    pub day: String,
    pub orders: i64,
    /// Centavos.
    pub revenue: i64,
}

/// A product that sold.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct ProductFigures {
    pub product_name: String,
    pub units: i64,
    /// Centavos.
    pub revenue: i64,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Dashboard {
    pub today: DayFigures,
    /// The orders at each status that is not final.
    pub waiting: Vec<StatusCount>,
    /// The last 30 days, oldest first.
    pub days: Vec<DayFigures>,
    /// The products that sold most in those days, by revenue.
    pub top_products: Vec<ProductFigures>,
    /// The runs out now (sent, not closed), whatever their day, with their stops counted.
    pub runs_out: Vec<crate::staff::runs::RunLine>,
}

/// The Manila day of Unix seconds, as days since 1970-01-01.
fn day_of(unix: i64) -> i64 {
    (unix + 8 * 3600).div_euclid(86_400)
}

/// `YYYY-MM-DD` of a day number.
fn day_name(day: i64) -> String {
    domain::calendar::manila_minute(day * 86_400 - 8 * 3600)[..10].to_string()
}

/// The figures of the days `first..=last` from the orders placed since (when, status, total).
fn days(orders: &[(i64, String, i64)], first: i64, last: i64) -> Vec<DayFigures> {
    let mut by: std::collections::HashMap<i64, (i64, i64)> = Default::default();
    for (at, status, total) in orders {
        let e = by.entry(day_of(*at)).or_default();
        e.0 += 1;
        if status != Status::Cancelled.as_str() {
            e.1 += total;
        }
    }
    (first..=last)
        .map(|d| {
            let (orders, revenue) = by.get(&d).copied().unwrap_or_default();
            DayFigures {
                day: day_name(d),
                orders,
                revenue,
            }
        })
        .collect()
}

/// The products that sold most, by revenue (then name), from the lines sold.
fn top(lines: Vec<(String, i32, i64)>) -> Vec<ProductFigures> {
    let mut by: std::collections::BTreeMap<String, (i64, i64)> = Default::default();
    for (name, units, amount) in lines {
        let e = by.entry(name).or_default();
        e.0 += i64::from(units);
        e.1 += amount;
    }
    let mut all: Vec<ProductFigures> = by
        .into_iter()
        .map(|(product_name, (units, revenue))| ProductFigures {
            product_name,
            units,
            revenue,
        })
        .collect();
    all.sort_by(|a, b| {
        b.revenue
            .cmp(&a.revenue)
            .then(a.product_name.cmp(&b.product_name))
    });
    all.truncate(TOP);
    all
}

/// The runs out now, each as a line of the runs' list.
fn runs_out(ctx: &mut Ctx) -> Result<Vec<crate::staff::runs::RunLine>, ApiError> {
    let runs = db::runs::out(ctx.conn)?;
    let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
    let stops = db::runs::stops(ctx.conn, &ids)?;
    Ok(crate::staff::runs::lines(&runs, &stops))
}

framework::declare!(
    /// `GET /api/v1/staff/dashboard`: today's figures, the orders waiting, the runs out and the
    /// last 30 days (dispatchers and managers).
    pub struct StaffDashboard = Get "/api/v1/staff/dashboard" as "staffDashboard", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> Dashboard,
    "Today's orders and revenue, the orders waiting, the runs out, and the last 30 days.");

impl Endpoint for StaffDashboard {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<Dashboard, ApiError> {
        let signed = signed_in_as(ctx, &WORKERS)?;
        crate::staff::kept(ctx, &signed, "staffDashboard", "", dashboard)
    }
}

/// Today's figures and each of the last `DAYS` days', the top products, the orders waiting and
/// the runs out.
fn dashboard(ctx: &mut Ctx) -> Result<Dashboard, ApiError> {
    let today = day_of(now());
    let first = today - (DAYS - 1);
    let since = first * 86_400 - 8 * 3600;
    let orders = db::staff::orders_since(ctx.conn, since)?;
    let days = days(&orders, first, today);
    let waiting = counts(
        ctx,
        &[
            Status::Placed,
            Status::Confirmed,
            Status::OutForDelivery,
            Status::ReadyForPickup,
        ],
    )?;
    Ok(Dashboard {
        today: days.last().cloned().unwrap_or(DayFigures {
            day: day_name(today),
            orders: 0,
            revenue: 0,
        }),
        waiting,
        days,
        top_products: top(db::staff::items_since(ctx.conn, since)?),
        runs_out: runs_out(ctx)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_manilas() {
        // 2026-11-24 23:59 in Manila (15:59 UTC); a minute later it is the 25th there.
        let late = domain::calendar::manila_day_start("2026-11-25").unwrap() - 60;
        assert_eq!(day_name(day_of(late)), "2026-11-24");
        assert_eq!(day_name(day_of(late + 60)), "2026-11-25");
        let orders = vec![
            (late, "placed".to_string(), 100),
            (late + 60, "cancelled".to_string(), 50),
            (late + 120, "completed".to_string(), 70),
        ];
        let d = days(&orders, day_of(late), day_of(late) + 1);
        assert_eq!((d[0].orders, d[0].revenue), (1, 100));
        assert_eq!(
            (d[1].orders, d[1].revenue),
            (2, 70),
            "a cancelled order brings nothing"
        );
    }

    #[test]
    fn the_top_products_are_by_revenue() {
        let lines = vec![
            ("Keg".to_string(), 1, 500),
            ("Pilsen".to_string(), 24, 300),
            ("Keg".to_string(), 1, 500),
        ];
        let t = top(lines);
        assert_eq!(t[0].product_name, "Keg");
        assert_eq!((t[0].units, t[0].revenue), (2, 1000));
    }
}
