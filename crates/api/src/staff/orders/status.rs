//! Moving orders along their steps (`domain::ordering::Status::can_become`): one from the command
//! line, one or many at once from the board. Each move holds its order, writes the step (with the
//! reason of a cancellation) and queues the shopper's mail in one transaction, and goes into the
//! audit log.

use domain::ordering::{Fulfillment, Status};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::super::{entry, signed_in_as};
use super::WORKERS;
use crate::orders::OrderView;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;
use framework::mail::Mail;

framework::register!(StaffOrderStatus);

/// Orders one move may name.
pub const MAX_ORDERS: usize = 100;
/// The longest reason.
pub const MAX_REASON: usize = 300;

/// A move done: the status the order had, the order now, and where its mail went (none: the
/// order keeps no address).
pub struct Moved {
    pub from: Status,
    pub view: OrderView,
    pub mailed: Option<String>,
}

/// A move refused: what is wrong, as the staff are told it.
fn refused(message: String) -> ApiError {
    ApiError::Invalid {
        field: "status",
        message,
    }
}

/// In the caller's transaction: order `id` held and moved to `to`, if its status and fulfillment
/// allow it, with `reason` kept in its history (a cancellation's; may be empty), the shopper's
/// mail queued and the move recorded for `by` (none: the command line). `base` is the store's
/// public address (a member's mail links their order's page).
pub fn change_status(
    conn: &mut db::AnyConnection,
    by: Option<&db::team::StaffRow>,
    id: i64,
    to: Status,
    reason: &str,
    base: &str,
) -> Result<Moved, ApiError> {
    let number = crate::orders::number(id);
    let held = db::staff::hold_order(conn, id)?;
    let Some(full) = db::orders::full(conn, id)?.filter(|_| held) else {
        return Err(ApiError::NotFound(format!(
            "There is no order {number} (id {id})."
        )));
    };
    let from = Status::parse(&full.order.status).ok_or_else(|| {
        refused(format!(
            "Order {number} has a status this store does not know: {:?}.",
            full.order.status
        ))
    })?;
    let pickup = full.order.fulfillment_type_id != domain::DEFAULT_FULFILLMENT.get();
    check_move(&number, &full.order.fulfillment_name, from, to, pickup)?;
    if to == Status::Cancelled && reason.trim().is_empty() {
        return Err(ApiError::Invalid {
            field: "reason",
            message: "Say why the order is cancelled: the shopper is told.".into(),
        });
    }
    let now = domain::calendar::unix_now();
    if !db::staff::set_status(conn, id, from.as_str(), to.as_str(), now, reason)? {
        return Err(refused(format!(
            "Order {number} changed while this ran; look at it again."
        )));
    }
    let full = db::orders::full(conn, id)?
        .ok_or_else(|| ApiError::NotFound(format!("Order {number} vanished.")))?;
    let member = full.order.user_id.is_some();
    let view = OrderView::from(full);
    let mailed = if view.email.is_empty() {
        None
    } else {
        // A member's page is theirs to open; a guest's needs the key of their confirmation's
        // link, which only its hash keeps.
        let link = member.then(|| format!("{base}/active-order/{id}"));
        Some(queue_status_mail(conn, &view, pickup, link, reason)?)
    };
    entry(
        conn,
        by,
        "order.status",
        &format!("order {id}"),
        Some(serde_json::json!({ "status": from.as_str() })),
        Some(serde_json::json!({ "status": to.as_str(), "reason": reason })),
    )?;
    Ok(Moved { from, view, mailed })
}

/// Refuses a move of order `number` from `from` to `to` that is no move, or that its
/// fulfillment (`fulfillment_name`, a pickup or not) does not allow, naming the moves it does.
fn check_move(
    number: &str,
    fulfillment_name: &str,
    from: Status,
    to: Status,
    pickup: bool,
) -> Result<(), ApiError> {
    let fulfillment = if pickup {
        Fulfillment::Pickup
    } else {
        Fulfillment::Delivery
    };
    if from == to {
        return Err(refused(format!(
            "Order {number} is already {}.",
            super::StatusChoice::from(to).label.to_lowercase()
        )));
    }
    if from.can_become(to, fulfillment) {
        return Ok(());
    }
    // In the staff's words (out for delivery), as the board's tabs say them.
    let words = |s: Status| super::StatusChoice::from(s).label.to_lowercase();
    let next: Vec<String> = Status::ALL
        .into_iter()
        .filter(|s| from.can_become(*s, fulfillment))
        .map(words)
        .collect();
    Err(refused(if next.is_empty() {
        format!(
            "Order {number} is {}, which is final: it cannot become {}.",
            words(from),
            words(to)
        )
    } else {
        format!(
            "Order {number} ({fulfillment_name}) is {}: it can become {}, not {}.",
            words(from),
            next.join(" or "),
            words(to)
        )
    }))
}

/// Queues the mail telling the shopper their order's new status (with the order's page for a
/// member, `link`, and the reason when one was given): the address it goes to.
pub(crate) fn queue_status_mail(
    conn: &mut db::AnyConnection,
    view: &OrderView,
    pickup: bool,
    link: Option<String>,
    reason: &str,
) -> Result<String, ApiError> {
    let mail = Mail::render(
        "order_status",
        &view.email,
        format!(
            "Your order {} is {}",
            view.number,
            view.status_label.to_lowercase()
        ),
        &serde_json::json!({
            "order": view,
            "pickup": pickup,
            "link": link,
            "reason": reason,
            "total": domain::money::format_php(view.total),
        }),
    )?;
    framework::mail::enqueue(conn, std::slice::from_ref(&mail))?;
    Ok(mail.to)
}

/// Order ids as JSON's list, or as a page form's field (`42,57`: the board's ticked orders, joined
/// by the form path). A lone JSON number is refused: the document says a list.
pub(crate) fn order_ids<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Number(i64),
        Text(String),
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Ids {
        List(Vec<Id>),
        One(Id),
    }
    let bad = || serde::de::Error::custom(domain::ids::NOT_AN_ID);
    // A number, or text naming one or more orders (`42`, `TB-000042`, `42,57`).
    let read = |id: Id, listed: bool| -> Result<Vec<i64>, D::Error> {
        match id {
            Id::Number(n) if n > 0 && listed => Ok(vec![n]),
            // A lone number is no list (the document says a list).
            Id::Number(_) => Err(bad()),
            Id::Text(text) => text
                .split(',')
                .map(|id| crate::orders::parse_number(id).ok_or_else(bad))
                .collect(),
        }
    };
    match Ids::deserialize(d)? {
        Ids::List(ids) => ids
            .into_iter()
            .map(|id| read(id, true))
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.concat()),
        Ids::One(id) => read(id, false),
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct StatusForm {
    /// The orders to move: ids (a form sends `42,57`).
    #[serde(default, deserialize_with = "order_ids")]
    #[schema(required = true, schema_with = order_ids_schema)]
    pub order_ids: Vec<i64>,
    /// The status they go to (any but `placed`).
    #[serde(default)]
    #[schema(required = true, nullable = false, inline)]
    pub status: Option<Status>,
    /// Why (needed to cancel; the shopper's mail and order page show it).
    #[serde(default)]
    #[schema(schema_with = reason)]
    pub reason: String,
}

/// 1 to [`MAX_ORDERS`] order ids.
fn order_ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    ids_schema(
        MAX_ORDERS,
        "The orders to move: ids (a form sends `42,57`).",
    )
}

/// 1 to `max` order ids, as [`order_ids`] reads them.
pub(crate) fn ids_schema(max: usize, description: &str) -> utoipa::openapi::schema::ArrayBuilder {
    use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                .minimum(Some(1)),
        )
        .min_items(Some(1))
        .max_items(Some(max))
        .description(Some(description))
}

/// A move's reason: a line of at most [`MAX_REASON`] characters.
fn reason() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::line(MAX_REASON).description(Some(
        "Why (needed to cancel; the shopper's mail and order page show it).",
    ))
}

/// What a move did.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StatusMoved {
    /// The orders moved, by number.
    pub moved: Vec<String>,
    /// The orders that already had the status (left as they were).
    pub already: Vec<String>,
    pub status: super::StatusChoice,
    pub message: String,
}

framework::declare!(
    /// `POST /api/v1/staff/orders/status`: moves orders to a status, all or none (dispatchers
    /// and managers).
    pub struct StaffOrderStatus = Post "/api/v1/staff/orders/status" as "staffOrderStatus", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<StatusForm, true>) -> StatusMoved,
    "Moves one or more orders to their next status, all or none; the shoppers are mailed.");

impl Endpoint for StaffOrderStatus {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<StatusMoved, ApiError> {
        let signed = signed_in_as(ctx, &WORKERS)?;
        let mut ids = f.order_ids;
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() || ids.len() > MAX_ORDERS {
            return Err(ApiError::Invalid {
                field: "order_ids",
                message: format!("Choose 1 to {MAX_ORDERS} orders."),
            });
        }
        let to = f
            .status
            .filter(|s| !matches!(s, Status::Placed | Status::AwaitingPayment))
            .ok_or_else(|| ApiError::Invalid {
                field: "status",
                message: "Choose the status the orders go to.".into(),
            })?;
        let reason = f.reason.trim();
        if reason.chars().count() > MAX_REASON || reason.chars().any(char::is_control) {
            return Err(ApiError::Invalid {
                field: "reason",
                message: format!(
                    "Give the reason in at most {MAX_REASON} characters, on one line."
                ),
            });
        }
        let base = ctx.config.public_url.to_string();
        let member = signed.member;
        // An order that already has the status is left as it is (ticked twice, or moved by
        // someone else meanwhile); any other refusal moves none.
        let (moved, already) = db::write_transaction(ctx.conn, |conn| {
            let (mut moved, mut already) = (Vec::new(), Vec::new());
            for id in &ids {
                if db::staff::status_of(conn, *id)?.as_deref() == Some(to.as_str()) {
                    already.push(crate::orders::number(*id));
                    continue;
                }
                let m = change_status(conn, Some(&member), *id, to, reason, &base)?;
                moved.push(m.view.number);
            }
            Ok::<_, ApiError>((moved, already))
        })?;
        ctx.mailed = !moved.is_empty();
        let status: super::StatusChoice = to.into();
        let label = status.label.to_lowercase();
        let message = match (moved.is_empty(), already.is_empty()) {
            (false, true) => format!("{} now {label}.", moved.join(", ")),
            (false, false) => format!(
                "{} now {label}; {} already {label}.",
                moved.join(", "),
                already.join(", ")
            ),
            (true, _) => format!("{} already {label}.", already.join(", ")),
        };
        Ok(StatusMoved {
            message,
            moved,
            already,
            status,
        })
    }
}
