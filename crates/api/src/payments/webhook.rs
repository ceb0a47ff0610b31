//! `POST /api/v1/payments/paymongo/events`: PayMongo's webhook, the one way the store learns that
//! an order was paid (never the browser's return). Its `Paymongo-Signature` is checked over the
//! body as sent ([`super::signature`]); each event is taken once (its id kept: a replay or a
//! retry changes nothing); a `checkout_session.payment.paid` event's payments are taken as their
//! order's, or flagged for staff ([`super::online::take`]); a `payment.refund.updated` or `payment.refunded`
//! event moves a refund a manager asked for to its new state ([`crate::staff::orders::refund`]). Other events
//! are acknowledged and ignored.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::gateway::{read_session, refunds_in};
use super::online::{take, Taken};
use super::PayMongo;
use framework::endpoint::{Args, Ctx, Endpoint, NoParams, Signed};
use framework::error::ApiError;

framework::register!(PayMongoEvents);

/// The event PayMongo sends when a Checkout Session is paid.
pub const PAID: &str = "checkout_session.payment.paid";

/// The events PayMongo sends when a refund's status changes (`pending` to `succeeded` or
/// `failed`), and when a payment was refunded: each carries the payment with its refunds (or the
/// refund).
pub const REFUND_EVENTS: [&str; 2] = ["payment.refund.updated", "payment.refunded"];

/// An event as PayMongo sends it: `{"data": {"id": "evt_…", "attributes": {"type", "livemode",
/// "data": the resource}}}`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PayMongoEvent {
    pub data: EventData,
}

/// The event itself.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct EventData {
    /// PayMongo's `evt_` id.
    #[schema(
        min_length = 1,
        max_length = 100,
        example = "evt_9xqb2TGg6qpGWZqFFnYJ1fXS"
    )]
    pub id: String,
    #[serde(default)]
    pub attributes: EventAttributes,
}

/// What happened, and to what.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct EventAttributes {
    /// `checkout_session.payment.paid`, `payment.paid`, …
    #[serde(rename = "type", default)]
    #[schema(max_length = 100, example = "checkout_session.payment.paid")]
    pub kind: String,
    /// Whether a live payment (false: PayMongo's test mode).
    #[serde(default)]
    pub livemode: bool,
    /// The resource as it was (a Checkout Session, with its payments).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub data: serde_json::Map<String, serde_json::Value>,
}

/// The webhook's signature header.
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct SignatureHeader {
    /// `t=<unix seconds>,te=<hex>,li=<hex>`: HMAC-SHA256 of `t.body` keyed by the webhook's
    /// secret, `te` in test mode and `li` in live mode.
    #[serde(rename = "paymongo-signature")]
    #[param(rename = "paymongo-signature", value_type = String, required = false)]
    pub signature: Option<String>,
}

/// What the store answers: whether this delivery changed anything (false for an event taken
/// before, or one the store does not act on).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct EventTaken {
    pub taken: bool,
}

framework::declare!(
    /// `POST /api/v1/payments/paymongo/events`.
    pub struct PayMongoEvents = Post "/api/v1/payments/paymongo/events" as "payMongoEvents", Write, errors [400, 401, 404],
    (NoParams, NoParams, Signed<PayMongoEvent>) -> EventTaken,
    "PayMongo's webhook: an event signed with the webhook's secret (Paymongo-Signature), taken once; a paid Checkout Session's payment places its order when it is the order's amount, and is flagged for a refund otherwise; a refund's new state is kept. 404 when the store takes no payments online; 401 for a signature that does not hold.",
    headers SignatureHeader);

/// The largest event taken: a paid session carries every line of its order.
pub const MOST_EVENT: usize = 512 * 1024;

impl Endpoint for PayMongoEvents {
    const MOST_BODY: usize = MOST_EVENT;
    const SIGNATURE: Option<(&'static str, &'static str)> = Some((
        "paymongo-signature",
        "PayMongo's signature of the event: `t=<unix seconds>,te=<hex>,li=<hex>`, HMAC-SHA256 of `t.body` keyed by the webhook's secret (te in test mode, li in live mode), within 5 minutes of the store's clock.",
    ));

    fn call(ctx: &mut Ctx, (_, _, body, headers): Args<Self>) -> Result<EventTaken, ApiError> {
        let Some(paymongo) = ctx.config.settings.get::<PayMongo>().cloned() else {
            return Err(ApiError::NotFound(
                "This store takes no payments online.".into(),
            ));
        };
        let now = domain::calendar::unix_now();
        let header = headers.signature.unwrap_or_default();
        if let Err(refused) = paymongo.verify_webhook(&header, &body.raw, now) {
            log::warn!("a PayMongo event refused: {refused}");
            return Err(ApiError::Unauthenticated);
        }
        let event = body.value.data;
        if event.id.is_empty() || event.id.chars().count() > 100 {
            return Err(ApiError::BadRequest(
                "data.id: an event's id, 1 to 100 characters.".into(),
            ));
        }
        if event.attributes.kind.chars().count() > 100 {
            return Err(ApiError::BadRequest(
                "data.attributes.type: an event's type, at most 100 characters.".into(),
            ));
        }
        let live = paymongo.mode() == super::Mode::Live;
        if event.attributes.livemode != live {
            return Ok(EventTaken { taken: false });
        }
        let session = (event.attributes.kind == PAID)
            .then(|| read_session(&serde_json::Value::Object(event.attributes.data.clone())).ok())
            .flatten();
        let refunds: Vec<_> = if REFUND_EVENTS.contains(&event.attributes.kind.as_str()) {
            refunds_in(&serde_json::Value::Object(event.attributes.data.clone()))
                .into_iter()
                .filter(|r| ["pending", "succeeded", "failed"].contains(&r.status.as_str()))
                .collect()
        } else {
            Vec::new()
        };
        let config = ctx.config;
        let mut moved = false;
        let taken = db::write_transaction(ctx.conn, |conn| {
            if !db::payments::take_event(conn, &event.id, &event.attributes.kind, now)? {
                return Ok::<_, ApiError>(Vec::new());
            }
            for r in &refunds {
                // Held as the refund call holds it, so a manager asking again and this news
                // are one after the other.
                if let Some(order) = db::payments::refund_order(conn, &r.payment_id)? {
                    db::payments::hold_order(conn, order)?;
                    moved |=
                        db::payments::refund_moved(conn, &r.payment_id, &r.id, &r.status, now)?;
                }
            }
            match &session {
                Some(s) => take(conn, config, s, now),
                None => Ok(Vec::new()),
            }
        })?;
        if taken.iter().any(|t| matches!(t, Taken::Paid { .. })) {
            ctx.mailed = true;
        }
        Ok(EventTaken {
            taken: moved
                || taken
                    .iter()
                    .any(|t| matches!(t, Taken::Paid { .. } | Taken::Flagged { .. })),
        })
    }
}
