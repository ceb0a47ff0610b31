//! Orders: Submit Order places the session's cart as an order in one
//! transaction, once per cart revision (a double click, a retry, two tabs or 20 submits at once
//! make one order: the revision is the idempotency key, the cart row is held while deciding, and
//! the key is unique); prices, availability, hours and the blackout are checked again at that
//! moment; the order keeps its own copy of everything it shows; the cart empties. A member sees
//! their orders; a guest reaches an order by the unguessable key of its link; anyone else gets the
//! 404 of an unknown order.

pub mod place;
pub mod read;

use db::carts::CartRow;
use db::orders::{FullOrder, OrderChargeRow, OrderItemRow, OrderRow};
use domain::ordering::Status;
use domain::text::{Problem, CHARACTERS};
use domain::{BarangayId, FulfillmentId, StreetId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::cart::pricing::NameAmount;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;
use framework::mail::Mail;

framework::mail_templates!("order_placed", "order_notice", "order_status");

/// How an order is paid: at pickup, or cash on delivery.
pub fn payment_of(pickup: bool) -> &'static str {
    if pickup {
        "Pay at pickup"
    } else {
        "Cash on delivery"
    }
}

framework::export_const!(
    /// How an order is paid, by its fulfillment id.
    PAYMENT_BY_FULFILLMENT = serde_json::json!({
        domain::DELIVERY.get().to_string(): payment_of(false),
        domain::PICKUP.get().to_string(): payment_of(true),
    })
);
framework::export_const!(
    /// The fulfillment id of delivery.
    DELIVERY = domain::DELIVERY.get()
);
framework::export_const!(
    /// The fulfillment id of pickup.
    PICKUP = domain::PICKUP.get()
);

/// Where the store is told of each new order (`ORDERS_TO`), in the framework's settings; unset,
/// only the shopper is mailed.
#[derive(Debug, Clone)]
pub struct OrdersTo(pub std::sync::Arc<str>);

/// The longest notes an order takes (landmarks, gate codes, when to call), in characters.
pub const MAX_NOTES: usize = 500;

framework::export_const!(
    /// The longest notes an order takes, in characters.
    ORDER_MAX_NOTES = MAX_NOTES
);

/// Orders a page of /my-account/orders shows.
pub const PAGE_SIZE: i64 = 10;

/// A line of an order.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct OrderItemView {
    pub product_id: i32,
    pub product_name: String,
    pub sku: String,
    pub case_name: String,
    pub unit_price: i64,
    pub price_per_case: i64,
    pub quantity: i32,
    pub amount: i64,
}

/// A step of an order's status.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StatusStep {
    pub status: String,
    pub label: String,
    /// Manila time, `YYYY-MM-DD HH:MM`.
    pub at: String,
    /// Why, when the step was given a reason (a cancellation's); else empty.
    pub note: String,
}

/// An order as the active order page shows it. Money is integer centavos.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct OrderView {
    pub id: i64,
    /// What the shopper quotes: `TB-000123`.
    pub number: String,
    pub status: String,
    pub status_label: String,
    pub placed_at: String,
    pub fulfillment_id: i32,
    pub fulfillment: String,
    pub payment: String,
    pub contact_name: String,
    pub mobile: String,
    pub email: String,
    pub address: String,
    pub place: String,
    pub notes: String,
    pub items: Vec<OrderItemView>,
    pub items_total: i64,
    pub deposits: Vec<NameAmount>,
    pub deposits_total: i64,
    pub delivery_fee: i64,
    pub total: i64,
    pub history: Vec<StatusStep>,
    /// Whether the confirmation was mailed to `email` (a guest's is held once the address has
    /// had 3 in an hour: the order's link is then the only way back to it).
    pub confirmation_mailed: bool,
}

/// What Submit Order answers: the order and the address of its page (with a guest's key).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PlacedOrder {
    pub order: OrderView,
    /// `/active-order/{id}`, with `?key=` for a guest.
    pub link: String,
    /// Whether this call placed it (false: it had been placed by an earlier submit of the same cart).
    pub placed: bool,
    pub message: String,
    /// An order paid online that awaits its payment: the gateway's page where it is paid (null
    /// when the gateway could not be reached: the order's page offers to try again).
    pub pay_url: Option<String>,
}

/// How the shopper pays: cash (to the rider, or at pickup), or online before delivery (offered
/// only when the store has a PayMongo account).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaymentChoice {
    #[default]
    Cash,
    Online,
}

/// How an order paid online shows, awaiting its payment.
pub const PAY_ONLINE: &str = "Pay online";

/// A page of a member's orders.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct OrderList {
    pub orders: Vec<OrderView>,
    pub page: i64,
    pub pages: i64,
    pub total: i64,
}

/// A status as the store's pages name it (`Out for delivery`).
pub fn label(status: &str) -> String {
    match Status::parse(status) {
        Some(Status::AwaitingPayment) => "Awaiting payment",
        Some(Status::Placed) => "Placed",
        Some(Status::Confirmed) => "Confirmed",
        Some(Status::OutForDelivery) => "Out for delivery",
        Some(Status::ReadyForPickup) => "Ready for pickup",
        Some(Status::Completed) => "Completed",
        Some(Status::Cancelled) => "Cancelled",
        None => status,
    }
    .to_string()
}

fn manila(unix: i64) -> String {
    let fmt = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    time::OffsetDateTime::from_unix_timestamp(unix)
        .map(|t| t.to_offset(time::macros::offset!(+8)))
        .ok()
        .and_then(|t| t.format(&fmt).ok())
        .unwrap_or_default()
}

/// The number a shopper quotes.
/// The order an order number (`TB-000042`, any case) or id (`42`) names.
pub fn parse_number(s: &str) -> Option<i64> {
    let t = s.trim();
    // `get`: the first three bytes may end inside a character (`𝓣B-1`).
    let digits = match t.get(..3) {
        Some(prefix) if t.len() > 3 && prefix.eq_ignore_ascii_case("TB-") => &t[3..],
        _ => t,
    };
    digits
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0 && digits.bytes().all(|b| b.is_ascii_digit()))
}

pub fn number(id: i64) -> String {
    format!("TB-{id:06}")
}

impl From<FullOrder> for OrderView {
    fn from(f: FullOrder) -> Self {
        let o = f.order;
        Self {
            id: o.id,
            number: number(o.id),
            status_label: label(&o.status),
            status: o.status,
            placed_at: manila(o.placed_at),
            fulfillment_id: o.fulfillment_type_id,
            fulfillment: o.fulfillment_name,
            payment: o.payment,
            contact_name: o.contact_name,
            mobile: o.mobile,
            email: o.email,
            address: o.address,
            place: o.place,
            notes: o.notes,
            items: f
                .items
                .into_iter()
                .map(|i| OrderItemView {
                    product_id: i.product_id,
                    product_name: i.product_name,
                    sku: i.sku,
                    case_name: i.case_name,
                    unit_price: i.unit_price,
                    price_per_case: i.price_per_case,
                    quantity: i.quantity,
                    amount: i.amount,
                })
                .collect(),
            items_total: o.items_total,
            deposits: f
                .charges
                .into_iter()
                .map(|c| NameAmount {
                    name: c.name,
                    amount: c.amount,
                })
                .collect(),
            deposits_total: o.deposits_total,
            delivery_fee: o.delivery_fee,
            total: o.total,
            confirmation_mailed: o.confirmation_mailed,
            history: f
                .history
                .into_iter()
                .map(|(status, at, note)| StatusStep {
                    label: label(&status),
                    status,
                    at: manila(at),
                    note,
                })
                .collect(),
        }
    }
}

/// What stands for the shopper's secret in a guest's order key: the browser's cart token, or
/// the session token of a client without cookies.
fn owner_secret(ctx: &mut Ctx) -> String {
    let (cookie, _) = crate::cart::browser_cookie(ctx);
    match cookie {
        Some(c) => format!("cart:{c}"),
        None => format!("session:{}", ctx.token().unwrap_or_default()),
    }
}

/// A guest's key to an order: derived from the shopper's secret and the order's idempotency key,
/// so a repeated submit answers the same link; only its hash is stored.
fn access_key(secret: &str, idempotency_key: &str) -> String {
    let h = framework::session::hash(&format!("order access:{secret}:{idempotency_key}"));
    h[..40].to_string()
}

pub(crate) fn link(order: &OrderRow, key: Option<&str>) -> String {
    match key {
        Some(k) if order.user_id.is_none() => format!("/active-order/{}?key={k}", order.id),
        _ => format!("/active-order/{}", order.id),
    }
}

/// Queues the store's notice of a new order, when `ORDERS_TO` says where it goes.
pub(crate) fn notify_store(
    conn: &mut db::AnyConnection,
    config: &framework::ApiConfig,
    view: &OrderView,
) -> Result<(), ApiError> {
    let Some(to) = config.settings.get::<OrdersTo>() else {
        return Ok(());
    };
    let mail = Mail::render(
        "order_notice",
        to.0.as_ref(),
        format!("New order {}", view.number),
        &serde_json::json!({ "order": view, "money": money(view) }),
    )?;
    framework::mail::enqueue(conn, std::slice::from_ref(&mail))?;
    Ok(())
}

/// The money of an order as mail shows it (`P1,234.00`).
pub(crate) fn money(v: &OrderView) -> serde_json::Value {
    let f = domain::money::format_php;
    serde_json::json!({
        "items": v.items.iter().map(|i| f(i.amount)).collect::<Vec<_>>(),
        "deposits": v.deposits.iter().map(|d| f(d.amount)).collect::<Vec<_>>(),
        "items_total": f(v.items_total),
        "deposits_total": f(v.deposits_total),
        "delivery_fee": f(v.delivery_fee),
        "total": f(v.total),
    })
}

#[cfg(test)]
mod parse_tests {
    use super::parse_number;

    #[test]
    fn an_order_number_is_read_whatever_is_typed() {
        assert_eq!(parse_number("TB-000042"), Some(42));
        assert_eq!(parse_number(" tb-42 "), Some(42));
        assert_eq!(parse_number("42"), Some(42));
        for bad in [
            "\u{4ecdd}",
            "\u{4ecdd}1",
            "TB-",
            "TB-x",
            "-1",
            "0",
            "4 2",
            "+42",
            "",
        ] {
            assert_eq!(parse_number(bad), None, "{bad:?}");
        }
    }
}
