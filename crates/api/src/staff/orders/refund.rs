//! `POST /api/v1/staff/payments/{paymentId}/refund`: a manager refunds an online payment through
//! PayMongo's refund call, whole and once: a payment not taken as its order's (another amount, an
//! order cancelled or paid in cash by then), or the payment of an order cancelled since. The call
//! keeps the refund as being asked for and writes it to the audit log in one transaction; then,
//! holding no connection, PayMongo is asked ([`ask`]) with the refund's idempotency key, and its
//! answer kept: `pending` or `succeeded`, or `failed` with PayMongo's words. A refund whose answer
//! was lost is asked again under the same key (PayMongo makes it once); one PayMongo refused,
//! under the next. PayMongo's `payment.refund.updated` event moves it on
//! ([`crate::payments::webhook`]).

use domain::ordering::Status;
use domain::staff::Role;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::super::{entry, signed_in_as};
use super::order::{view, StaffOrderView};
use super::refund_state::{stands, state_label, RefundReason, MAX_REFUND_NOTES};
use crate::payments::gateway::Failed;
use crate::payments::PayMongo;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;
use framework::{ApiState, Caller};

framework::register!(StaffRefundPayment);

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct PaymentPath {
    /// PayMongo's `pay_` id of the payment.
    #[serde(rename = "paymentId")]
    #[param(rename = "paymentId", pattern = "^[A-Za-z0-9_]{1,100}$")]
    pub payment_id: String,
}

fn reasons() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(RefundReason::ALL.map(RefundReason::as_str)))
        .description(Some("Why: one of PayMongo's reasons."))
}

fn notes() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::line(MAX_REFUND_NOTES).description(Some("A note PayMongo keeps with it."))
}

/// A refund as the manager asks for it.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RefundForm {
    #[serde(default)]
    #[schema(required = true, schema_with = reasons)]
    pub reason: String,
    #[serde(default)]
    #[schema(schema_with = notes)]
    pub notes: String,
}

framework::declare!(
    /// `POST /api/v1/staff/payments/{paymentId}/refund`: refunds an online payment whole through
    /// PayMongo (managers); answers its order.
    pub struct StaffRefundPayment = Post "/api/v1/staff/payments/{paymentId}/refund" as "staffRefundPayment", Write, errors [401, 404, 409, 422, 502],
    (PaymentPath, NoParams, Json<RefundForm, true>) -> StaffOrderView,
    "Refunds an online payment whole through PayMongo's refund call (managers): one not taken as its order's payment, or the payment of an order cancelled since. Made once: asked again after a lost answer, PayMongo makes it once. 409 for a payment that is its order's (cancel the order first) or refunded already; 502 when PayMongo could not be reached or refused it (its words).");

fn invalid(field: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::Invalid {
        field,
        message: message.into(),
    }
}

impl Endpoint for StaffRefundPayment {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;
    const THEN: Option<framework::endpoint::Then<Self>> =
        Some(|state, caller, view| Box::pin(ask(state, caller, view)));

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<StaffOrderView, ApiError> {
        let signed = signed_in_as(ctx, &[Role::Manager])?;
        let reason = RefundReason::parse(f.reason.trim())
            .ok_or_else(|| invalid("reason", "Choose why the payment is refunded."))?;
        let notes = f.notes.trim();
        if notes.chars().count() > MAX_REFUND_NOTES || notes.chars().any(char::is_control) {
            return Err(invalid(
                "notes",
                format!("Keep the note to {MAX_REFUND_NOTES} characters, on one line."),
            ));
        }
        let Some(paymongo) = ctx.config.settings.get::<PayMongo>() else {
            return Err(ApiError::Conflict(
                "Refunds are made through PayMongo, and this store has no PayMongo keys now: \
                 refund it from PayMongo's dashboard."
                    .into(),
            ));
        };
        // A refund asked this long ago may still be on its way to PayMongo.
        let in_flight = i64::try_from(paymongo.timeout().as_secs()).unwrap_or(8) + 2;
        let member = signed.member;
        let now = domain::calendar::unix_now();
        let order_id = db::write_transaction(ctx.conn, |conn| {
            let payment = db::payments::payment(conn, &p.payment_id)?
                .ok_or_else(|| ApiError::NotFound("No such payment.".into()))?;
            // Held before the refund is read: another manager's ask and PayMongo's news of it
            // (the webhook holds it too) come one after the other.
            db::payments::hold_order(conn, payment.order_id)?;
            let status = db::staff::status_of(conn, payment.order_id)?.unwrap_or_default();
            let number = crate::orders::number(payment.order_id);
            if payment.problem.is_empty() && status != Status::Cancelled.as_str() {
                return Err(ApiError::Conflict(format!(
                    "Payment {} is order {number}'s payment: cancel the order first to refund it.",
                    payment.id
                )));
            }
            let before = db::payments::refund_of(conn, &payment.id)?;
            let asked = Asked {
                reason,
                notes,
                by: member.id,
                now,
                in_flight,
            };
            let row = to_ask(&payment, before, &asked)?;
            db::payments::put_refund(conn, &row)?;
            entry(
                conn,
                Some(&member),
                "payment.refund",
                &format!("order {}", payment.order_id),
                None,
                Some(serde_json::json!({
                    "payment": payment.id,
                    "amount": domain::money::format_php(payment.amount),
                    "method": payment.method,
                    "reason": row.reason,
                    "notes": row.notes,
                    "attempt": row.attempt,
                })),
            )?;
            Ok::<_, ApiError>(payment.order_id)
        })?;
        view(ctx, order_id)
    }
}

/// A manager's ask: why, their note, who, when, and how long an ask may be on its way to PayMongo.
struct Asked<'a> {
    reason: RefundReason,
    notes: &'a str,
    by: i64,
    now: i64,
    in_flight: i64,
}

/// The refund of `payment` to ask PayMongo for, given the one asked `before`: refused when it
/// stands or may still be on its way.
fn to_ask(
    payment: &db::payments::PaymentRow,
    before: Option<db::payments::RefundRow>,
    asked: &Asked,
) -> Result<db::payments::RefundRow, ApiError> {
    Ok(match before {
        Some(r) if stands(&r.state) => {
            return Err(ApiError::Conflict(format!(
                "Payment {} is refunded already: {}.",
                payment.id,
                state_label(&r.state, &r.detail).to_lowercase()
            )));
        }
        Some(r) if r.state == "asking" && r.updated_at > asked.now - asked.in_flight => {
            return Err(ApiError::Conflict(format!(
                "The refund of payment {} is being asked of PayMongo just now: reload the page \
                 in a moment.",
                payment.id
            )));
        }
        // Its answer was lost: asked again as it was (the same key and the same body, or
        // PayMongo refuses it), whoever asks now.
        Some(r) if r.state == "asking" => db::payments::RefundRow {
            updated_at: asked.now,
            ..r
        },
        // Refused or failed: asked anew under the next key, as this manager asks it.
        before => db::payments::RefundRow {
            payment_id: payment.id.clone(),
            order_id: payment.order_id,
            amount: payment.amount,
            reason: asked.reason.as_str().into(),
            notes: asked.notes.into(),
            staff_id: Some(asked.by),
            attempt: before.map_or(1, |r| r.attempt + 1),
            gateway_id: String::new(),
            state: "asking".into(),
            detail: String::new(),
            asked_at: asked.now,
            updated_at: asked.now,
        },
    })
}

/// What the manager is told when PayMongo could not be reached.
pub const REFUND_UNREACHABLE: &str = "We could not reach PayMongo, so the refund is not \
     confirmed. Ask again in a moment: PayMongo makes it once.";

/// The refund call's last step: every refund of the order still being asked for is sent to
/// PayMongo (on a blocking thread, holding no connection, with its idempotency key) and its
/// answer kept. PayMongo out of reach or refusing is a 502 with what it said; the refund stays
/// kept either way.
pub async fn ask(
    state: &ApiState,
    caller: Caller,
    view_now: StaffOrderView,
) -> Result<StaffOrderView, ApiError> {
    let Some(paymongo) = state.config.settings.get::<PayMongo>().cloned() else {
        return Ok(view_now);
    };
    let order_id = view_now.order.id;
    let asking: Vec<db::payments::RefundRow> = state
        .run(caller.clone(), move |ctx| {
            Ok(db::payments::refunds_of_order(ctx.conn, order_id)?
                .into_iter()
                .map(|(r, _)| r)
                .filter(|r| r.state == "asking")
                .collect())
        })
        .await?;
    let mut failed: Option<String> = None;
    for refund in asking {
        if let Some(message) = send(state, caller.clone(), &paymongo, refund).await? {
            failed = Some(message);
        }
    }
    if let Some(message) = failed {
        return Err(ApiError::Upstream(message));
    }
    state.run(caller, move |ctx| view(ctx, order_id)).await
}

/// Sends `refund` to PayMongo under its key (on a blocking thread, holding no connection) and
/// keeps the answer: what the manager is told when it was not made, or not known to be.
async fn send(
    state: &ApiState,
    caller: Caller,
    paymongo: &PayMongo,
    refund: db::payments::RefundRow,
) -> Result<Option<String>, ApiError> {
    let gateway = paymongo.gateway();
    let key = idempotency_key(&refund);
    let sent = refund.clone();
    let answer = actix_web::web::block(move || {
        gateway.refund(
            &sent.payment_id,
            sent.amount,
            &sent.reason,
            &sent.notes,
            &key,
        )
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    let Some((gateway_id, kept_state, detail)) = kept(&refund, answer) else {
        return Ok(Some(REFUND_UNREACHABLE.into()));
    };
    let told = (kept_state == "failed").then(|| {
        format!(
            "PayMongo did not refund payment {}: {detail}",
            refund.payment_id
        )
    });
    let (payment_id, attempt) = (refund.payment_id, refund.attempt);
    state
        .run(caller, move |ctx| {
            let now = domain::calendar::unix_now();
            db::payments::answer_refund(
                ctx.conn,
                &payment_id,
                attempt,
                &gateway_id,
                &kept_state,
                &detail,
                now,
            )?;
            Ok(())
        })
        .await?;
    Ok(told)
}

/// Refunds looked at a minute.
pub const READ_BACK_BATCH: i64 = 20;
/// How long PayMongo keeps an idempotency key: a refund whose answer is still not known after
/// this long is not asked again under it (a new request could refund twice).
pub const KEY_KEPT_FOR: i64 = 23 * 3600;

/// What became of refunds not known done, every minute on each app server (beside the expiry of
/// unpaid orders): one asked whose answer was lost is asked again as it was (the same key: made
/// once); one pending at PayMongo is read back (`GET /refunds/{id}`), in case its event never
/// came. One still not answered when PayMongo may have forgotten its key is marked failed, for a
/// manager to look it up. Answers how many were looked at.
pub async fn read_back(state: &ApiState) -> Result<usize, ApiError> {
    let Some(paymongo) = state.config.settings.get::<PayMongo>().cloned() else {
        return Ok(0);
    };
    let now = domain::calendar::unix_now();
    let due = state
        .run(Caller::default(), move |ctx| {
            Ok(db::payments::refunds_to_read_back(
                ctx.conn,
                now - 60,
                READ_BACK_BATCH,
            )?)
        })
        .await?;
    let looked = due.len();
    for refund in due {
        if refund.state == "asking" && refund.asked_at < now - KEY_KEPT_FOR {
            let (payment_id, attempt) = (refund.payment_id, refund.attempt);
            state
                .run(Caller::default(), move |ctx| {
                    db::payments::answer_refund(
                        ctx.conn,
                        &payment_id,
                        attempt,
                        "",
                        "failed",
                        "PayMongo never answered it within a day: look it up in PayMongo's \
                         dashboard before asking again",
                        now,
                    )?;
                    Ok(())
                })
                .await?;
        } else if refund.state == "asking" {
            send(state, Caller::default(), &paymongo, refund).await?;
        } else {
            let gateway = paymongo.gateway();
            let id = refund.gateway_id.clone();
            let read = actix_web::web::block(move || gateway.retrieve_refund(&id))
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            let status = match read {
                Ok(r) if r.payment_id == refund.payment_id => r.status,
                _ => refund.state.clone(),
            };
            state
                .run(Caller::default(), move |ctx| {
                    db::write_transaction(ctx.conn, |conn| {
                        db::payments::hold_order(conn, refund.order_id)?;
                        if status == refund.state {
                            db::payments::touch_refund(conn, &refund.payment_id, now)?;
                        } else {
                            db::payments::refund_moved(
                                conn,
                                &refund.payment_id,
                                &refund.gateway_id,
                                &status,
                                now,
                            )?;
                        }
                        Ok::<_, ApiError>(())
                    })
                })
                .await?;
        }
    }
    Ok(looked)
}

/// What to keep of PayMongo's answer to `refund`: its id, state and why (a failure's); none when
/// the answer is not known (PayMongo out of reach, or an answer about another payment), and the
/// refund stays asked for.
fn kept(
    refund: &db::payments::RefundRow,
    answer: Result<crate::payments::gateway::Refund, Failed>,
) -> Option<(String, String, String)> {
    match answer {
        Ok(r) if r.payment_id == refund.payment_id => {
            let state = if ["pending", "succeeded", "failed"].contains(&r.status.as_str()) {
                r.status
            } else {
                "pending".into()
            };
            let detail = if state == "failed" {
                "PayMongo could not make it".to_string()
            } else {
                String::new()
            };
            Some((r.id, state, detail))
        }
        Ok(r) => {
            log::error!(
                "refund of {}: PayMongo answered a refund of {}",
                refund.payment_id,
                r.payment_id
            );
            None
        }
        // The key refused, another request under the same key still running, too many
        // requests: PayMongo made nothing of this one, and may have of the first; not known.
        Err(Failed::Refused { status, detail }) if [401, 403, 409, 429].contains(&status) => {
            log::warn!(
                "refund of {}: PayMongo answered {status}: {detail}",
                refund.payment_id
            );
            None
        }
        Err(Failed::Refused { detail, .. }) => {
            Some((refund.gateway_id.clone(), "failed".into(), detail))
        }
        Err(other) => {
            log::warn!("refund of {}: {other}", refund.payment_id);
            None
        }
    }
}

/// The key a refund is asked under: its payment's and its attempt's (a refund PayMongo refused
/// is asked again under the next).
pub fn idempotency_key(refund: &db::payments::RefundRow) -> String {
    format!("tala-refund-{}-{}", refund.payment_id, refund.attempt)
}
