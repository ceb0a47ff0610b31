//! One order as the staff work it: everything the shopper's page shows, the steps it may take
//! next, and the staff's notes (which the shopper never sees).

use domain::ordering::{Fulfillment, Status};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::super::{entry, signed_in_as};
use super::{StatusChoice, WORKERS};
use crate::orders::read::OrderPath;
use crate::orders::OrderView;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffOrder, StaffOrderNote);

/// The longest note.
pub const MAX_NOTE: usize = 1000;

/// A staff note on an order.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct NoteView {
    /// Manila time, `YYYY-MM-DD HH:MM`.
    pub at: String,
    /// Who wrote it.
    pub by: String,
    pub body: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StaffOrderView {
    pub order: OrderView,
    /// The statuses it may go to now (none once completed or cancelled).
    pub next: Vec<StatusChoice>,
    pub notes: Vec<NoteView>,
    /// The payments PayMongo reported for it, oldest first.
    pub payments: Vec<PaymentView>,
}

/// An online payment of an order, as the staff see it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PaymentView {
    /// PayMongo's `pay_` id.
    pub id: String,
    /// As the checkout names it (`GCash`).
    pub method: String,
    /// Centavos.
    pub amount: i64,
    /// When the store learnt of it, Manila time (`YYYY-MM-DD HH:MM`).
    pub received_at: String,
    /// Empty when it was taken as the order's payment; else why not (to refund).
    pub problem: String,
    /// Whether a manager may refund it now: not the order's payment (or the order is cancelled),
    /// not refunded already, and the store has its PayMongo keys.
    pub refundable: bool,
    /// Its refund, once one was asked for.
    pub refund: Option<RefundView>,
}

/// A refund asked for.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct RefundView {
    /// `asking`, `pending`, `succeeded` or `failed`.
    pub state: String,
    /// The state as the back office says it.
    pub label: String,
    /// Centavos.
    pub amount: i64,
    /// Why, as the back office says it.
    pub reason: String,
    /// Why, as PayMongo's reason (`requested_by_customer`): what asking again sends.
    pub reason_code: String,
    pub notes: String,
    /// Who asked for it.
    pub by: String,
    /// When, Manila time.
    pub at: String,
}

/// The order's payments as the staff see them (`status`: the order's).
fn payments(ctx: &mut Ctx, id: i64, status: &str) -> Result<Vec<PaymentView>, ApiError> {
    use super::refund_state::{reason_label, stands, state_label, FORMER_STAFF};
    let list = db::payments::of_order(ctx.conn, id)?;
    if list.is_empty() {
        return Ok(Vec::new());
    }
    let refunds = db::payments::refunds_of_order(ctx.conn, id)?;
    let online = ctx
        .config
        .settings
        .get::<crate::payments::PayMongo>()
        .is_some();
    let cancelled = status == Status::Cancelled.as_str();
    Ok(list
        .into_iter()
        .map(|p| {
            let refund = refunds
                .iter()
                .find(|(r, _)| r.payment_id == p.id)
                .map(|(r, by)| RefundView {
                    state: r.state.clone(),
                    label: state_label(&r.state, &r.detail),
                    amount: r.amount,
                    reason: reason_label(&r.reason),
                    reason_code: r.reason.clone(),
                    notes: r.notes.clone(),
                    by: by.clone().unwrap_or_else(|| FORMER_STAFF.into()),
                    at: domain::calendar::manila_minute(r.asked_at),
                });
            let owed = !p.problem.is_empty() || cancelled;
            PaymentView {
                refundable: online && owed && !refund.as_ref().is_some_and(|r| stands(&r.state)),
                method: crate::payments::methods::label(&p.method).into(),
                received_at: domain::calendar::manila_minute(p.received_at),
                amount: p.amount,
                problem: p.problem,
                id: p.id,
                refund,
            }
        })
        .collect())
}

/// The order `id` as the staff see it.
pub(crate) fn view(ctx: &mut Ctx, id: i64) -> Result<StaffOrderView, ApiError> {
    let full = db::orders::full(ctx.conn, id)?
        .ok_or_else(|| ApiError::NotFound("No such order.".into()))?;
    let pickup = full.order.fulfillment_type_id != domain::DEFAULT_FULFILLMENT.get();
    let fulfillment = if pickup {
        Fulfillment::Pickup
    } else {
        Fulfillment::Delivery
    };
    let next = Status::parse(&full.order.status)
        .map(|from| {
            Status::ALL
                .into_iter()
                .filter(|s| from.can_become(*s, fulfillment))
                .map(StatusChoice::from)
                .collect()
        })
        .unwrap_or_default();
    let notes = db::staff::notes(ctx.conn, id)?
        .into_iter()
        .map(|n| NoteView {
            at: domain::calendar::manila_minute(n.at),
            by: n.staff_name,
            body: n.body,
        })
        .collect();
    let payments = payments(ctx, id, &full.order.status)?;
    Ok(StaffOrderView {
        order: full.into(),
        next,
        notes,
        payments,
    })
}

framework::declare!(
    /// `GET /api/v1/staff/orders/{orderId}`: one order, its next steps and the staff's notes
    /// (dispatchers and managers).
    pub struct StaffOrder = Get "/api/v1/staff/orders/{orderId}" as "staffOrder", Session, errors [401, 404],
    (OrderPath, NoParams, NoBody) -> StaffOrderView,
    "One order as the staff work it.");

impl Endpoint for StaffOrder {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<StaffOrderView, ApiError> {
        let signed = signed_in_as(ctx, &WORKERS)?;
        let id = p.order_id;
        crate::staff::kept(ctx, &signed, "staffOrder", &id.to_string(), |ctx| {
            view(ctx, id)
        })
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct NoteForm {
    /// What the staff note (never shown to the shopper).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 1000)]
    pub body: String,
}

framework::declare!(
    /// `POST /api/v1/staff/orders/{orderId}/notes`: adds a staff note to an order (dispatchers
    /// and managers); answers the order.
    pub struct StaffOrderNote = Post "/api/v1/staff/orders/{orderId}/notes" as "staffOrderNote", Write, errors [401, 404, 422],
    (OrderPath, NoParams, Json<NoteForm, true>) -> StaffOrderView,
    "Adds a staff note to an order.");

impl Endpoint for StaffOrderNote {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<StaffOrderView, ApiError> {
        let signed = signed_in_as(ctx, &WORKERS)?;
        let body = f.body.trim();
        // Line breaks are the note's own; other control characters are not text.
        if body.is_empty()
            || body.chars().count() > MAX_NOTE
            || body
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\r')
        {
            return Err(ApiError::Invalid {
                field: "body",
                message: format!("Write the note: 1 to {MAX_NOTE} characters."),
            });
        }
        let id = p.order_id;
        if db::staff::status_of(ctx.conn, id)?.is_none() {
            return Err(ApiError::NotFound("No such order.".into()));
        }
        let member = signed.member;
        db::transaction(ctx.conn, |conn| {
            db::staff::add_note(conn, id, member.id, body, domain::calendar::unix_now())?;
            Ok::<_, ApiError>(entry(
                conn,
                Some(&member),
                "order.note",
                &format!("order {id}"),
                None,
                Some(serde_json::json!({ "note": body })),
            )?)
        })?;
        view(ctx, id)
    }
}
