//! Orders paid online that are never paid: once the manager's time has passed
//! (`PAYMONGO_PAY_WITHIN`, 60 minutes unless said) the order's Checkout Session is read back from
//! PayMongo (a payment whose event never arrived is taken then, and the order placed), else
//! expired there (so nobody pays it afterwards), and the order is cancelled with its reason and
//! the shopper told. The sessions of orders a dispatcher cancelled are expired there too. A
//! payment that still arrives after is flagged for a refund
//! ([`super::online::take`]), never kept silently. Each app server runs [`expire_unpaid`] every
//! minute; an order is cancelled once, by whichever gets there first.

use framework::error::ApiError;
use framework::{ApiState, Caller};

use super::PayMongo;
use domain::ordering::Status;

/// Orders looked at a run: the rest wait for the next minute.
pub const BATCH: i64 = 50;

/// Why an order never paid was cancelled, as its history and the shopper's mail say.
pub fn reason(minutes: i64) -> String {
    format!("Not paid online within {minutes} minutes.")
}

/// Expires the orders awaiting payment for longer than the store allows: how many it cancelled.
/// PayMongo out of reach leaves an order for the next run (its session must not stay payable
/// once the order is cancelled).
pub async fn expire_unpaid(state: &ApiState) -> Result<usize, ApiError> {
    let Some(paymongo) = state.config.settings.get::<PayMongo>().cloned() else {
        return Ok(0);
    };
    close_ended(state, &paymongo).await?;
    let minutes = paymongo.pay_within_minutes();
    let cutoff = domain::calendar::unix_now() - minutes * 60;
    let due = state
        .run(Caller::default(), move |ctx| {
            Ok(db::payments::unpaid_before(ctx.conn, cutoff, BATCH)?)
        })
        .await?;
    let mut cancelled = 0;
    for order_id in due {
        let open = state
            .run(Caller::default(), move |ctx| {
                Ok(db::payments::newest_session(ctx.conn, order_id)?.filter(|s| s.state == "open"))
            })
            .await?;
        if let Some(open) = open {
            // Read back first: a payment whose event never came (lost, or refused) is taken, not
            // cancelled under the shopper; then the session is expired so nobody pays it after.
            let gateway = paymongo.gateway();
            let id = open.id.clone();
            let read = actix_web::web::block(move || {
                let session = gateway.retrieve(&id)?;
                if session.payments.iter().any(|p| p.status == "paid") {
                    return Ok(Some(session));
                }
                if session.status == "expired" {
                    // Expired before (a run whose cancellation then failed): nothing to ask.
                    return Ok(None);
                }
                gateway.expire(&id).map(|_| None)
            })
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
            match read {
                Ok(Some(paid)) => {
                    state
                        .run(Caller::default(), move |ctx| {
                            let config = ctx.config;
                            let now = domain::calendar::unix_now();
                            db::write_transaction(ctx.conn, |conn| {
                                super::online::take(conn, config, &paid, now)
                            })?;
                            ctx.mailed = true;
                            Ok(())
                        })
                        .await?;
                    continue;
                }
                Ok(None) => {}
                Err(failed) => {
                    log::warn!("order {order_id}: Checkout Session not expired ({failed}); tried again in a minute");
                    continue;
                }
            }
        }
        let why = reason(minutes);
        let done = state
            .run(Caller::default(), move |ctx| {
                let config = ctx.config;
                let now = domain::calendar::unix_now();
                let done = db::write_transaction(ctx.conn, |conn| {
                    cancel(conn, config, order_id, now, &why)
                })?;
                ctx.mailed |= done;
                Ok(done)
            })
            .await?;
        cancelled += usize::from(done);
    }
    Ok(cancelled)
}

/// Expires at PayMongo the sessions left open of orders that no longer await their payment (a
/// dispatcher cancelled one): nobody pays an order that is not there. PayMongo out of reach:
/// tried again the next minute.
async fn close_ended(state: &ApiState, paymongo: &PayMongo) -> Result<(), ApiError> {
    let open = state
        .run(Caller::default(), |ctx| {
            Ok(db::payments::open_of_ended(ctx.conn, BATCH)?)
        })
        .await?;
    for id in open {
        let gateway = paymongo.gateway();
        let asked = id.clone();
        let expired = actix_web::web::block(move || gateway.expire(&asked))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        match expired {
            Ok(_) => {
                state
                    .run(Caller::default(), move |ctx| {
                        db::payments::set_session_state(ctx.conn, &id, "expired")?;
                        Ok(())
                    })
                    .await?;
            }
            Err(failed) => log::warn!("Checkout Session {id} not expired: {failed}"),
        }
    }
    Ok(())
}

/// Cancels order `id` if it still awaits its payment, its sessions marked expired and the
/// shopper told: whether it did.
fn cancel(
    conn: &mut db::AnyConnection,
    config: &framework::ApiConfig,
    id: i64,
    now: i64,
    why: &str,
) -> Result<bool, ApiError> {
    let (from, to) = (Status::AwaitingPayment.as_str(), Status::Cancelled.as_str());
    if !db::staff::set_status(conn, id, from, to, now, why)? {
        return Ok(false);
    }
    db::payments::expire_sessions(conn, id)?;
    let full = db::orders::full(conn, id)?
        .ok_or_else(|| ApiError::Internal(format!("order {id} vanished")))?;
    let member = full.order.user_id.is_some();
    let pickup = full.order.fulfillment_type_id != domain::DEFAULT_FULFILLMENT.get();
    let view = crate::orders::OrderView::from(full);
    if !view.email.is_empty() {
        let link = member.then(|| format!("{}/active-order/{id}", config.public_url));
        crate::staff::orders::status::queue_status_mail(conn, &view, pickup, link, why)?;
    }
    Ok(true)
}
