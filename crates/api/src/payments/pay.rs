//! `POST /api/v1/orders/{orderId}/pay`: Pay Now on the page of an order awaiting its payment, and
//! the check of a payment PayMongo has not told yet: its open Checkout Session is read back from
//! PayMongo (a late webhook: a payment found there is taken as the webhook would take it); a
//! session PayMongo expired gives way to the order's next; an order without one is given one.
//! The answer names the page to pay on, or the order paid. Its gateway work runs after the call,
//! holding no connection ([`super::online::pay_or_check`]).

use serde::Deserialize;
use utoipa::ToSchema;

use crate::orders::read::{visible, OrderPath};
use crate::orders::{link, OrderView, PlacedOrder};
use domain::ordering::Status;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;

framework::register!(PayOrder, PayInCash);

/// [`OrderKeyBody::key`]: at most [`KEY_LENGTH`] characters, or null.
fn key_rule() -> utoipa::openapi::schema::ObjectBuilder {
    use utoipa::openapi::schema::{SchemaType, Type};
    framework::rules::up_to(KEY_LENGTH)
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
}

/// Which order: a guest's gives the key of its link (members are known by their session).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct OrderKeyBody {
    /// A guest's key from the order's link.
    #[serde(default)]
    #[schema(schema_with = key_rule)]
    pub key: Option<String>,
}

/// The key a body gives, within the length an order link's key has (a longer one is no key).
fn key_of(body: &OrderKeyBody) -> Result<Option<&str>, ApiError> {
    match body.key.as_deref() {
        Some(k) if k.chars().count() > KEY_LENGTH => Err(ApiError::Invalid {
            field: "key",
            message: format!("The key of an order's link is {KEY_LENGTH} characters."),
        }),
        key => Ok(key),
    }
}

/// The length of an order link's key.
const KEY_LENGTH: usize = 40;

framework::declare!(
    /// `POST /api/v1/orders/{orderId}/pay`.
    pub struct PayOrder = Post "/api/v1/orders/{orderId}/pay" as "payOrder", Write, errors [404, 409, 422],
    (OrderPath, NoParams, Json<OrderKeyBody, false>) -> PlacedOrder,
    "Pays an order awaiting its payment online: answers the PayMongo page it is paid on (`pay_url`: its open Checkout Session's, or a new one's), or the order placed when PayMongo has its payment. An order not awaiting payment is a 409.");

impl Endpoint for PayOrder {
    const THEN: Option<framework::endpoint::Then<Self>> =
        Some(|state, caller, placed| Box::pin(super::online::pay_or_check(state, caller, placed)));

    fn call(ctx: &mut Ctx, (p, _, Json(b), _): Args<Self>) -> Result<PlacedOrder, ApiError> {
        let key = key_of(&b)?;
        let full = visible(ctx, p.order_id, key)?;
        let link = link(&full.order, key);
        let order = OrderView::from(full);
        if order.status != Status::AwaitingPayment.as_str() {
            return Err(ApiError::Conflict(format!(
                "Order {} does not wait for a payment: it is {}.",
                order.number,
                order.status_label.to_lowercase()
            )));
        }
        Ok(PlacedOrder {
            message: format!("Your order {} waits for your payment online.", order.number),
            order,
            link,
            placed: false,
            pay_url: None,
        })
    }
}

framework::declare!(
    /// `POST /api/v1/orders/{orderId}/cash`.
    pub struct PayInCash = Post "/api/v1/orders/{orderId}/cash" as "payInCash", Write, errors [404, 409, 422, 502],
    (OrderPath, NoParams, Json<OrderKeyBody, false>) -> PlacedOrder,
    "Pays an order awaiting its payment in cash instead (to the rider, or at pickup): it is placed as a cash order. A payment made online afterwards is flagged for a refund. An order not awaiting payment is a 409.");

impl Endpoint for PayInCash {
    const THEN: Option<framework::endpoint::Then<Self>> =
        Some(|state, caller, placed| Box::pin(super::online::cash_instead(state, caller, placed)));

    fn call(ctx: &mut Ctx, (p, _, Json(b), _): Args<Self>) -> Result<PlacedOrder, ApiError> {
        let key = key_of(&b)?;
        let full = visible(ctx, p.order_id, key)?;
        let link = link(&full.order, key);
        let order = OrderView::from(full);
        if order.status != Status::AwaitingPayment.as_str() {
            return Err(ApiError::Conflict(format!(
                "Order {} does not wait for a payment: it is {}.",
                order.number,
                order.status_label.to_lowercase()
            )));
        }
        Ok(PlacedOrder {
            message: String::new(),
            order,
            link,
            placed: false,
            pay_url: None,
        })
    }
}
