//! An order paid online: the Checkout Session it is paid in, made after Submit Order's
//! transaction with no connection held ([`pay_url`]), and a payment PayMongo reports taken as the
//! order's, or flagged for staff when it cannot be ([`take`]).

use framework::error::ApiError;
use framework::{ApiState, Caller};

use super::checkout_session;
use super::gateway::{Failed, Paid, Session};
use super::PayMongo;
use crate::orders::{OrderView, PlacedOrder};
use domain::ordering::Status;

/// What a shopper who chose to pay online is told when the store has no PayMongo account.
pub const NOT_OFFERED: &str =
    "Paying online is not offered just now. Choose cash on delivery or at pickup.";
/// What a shopper is told of an order too small for PayMongo.
pub const TOO_SMALL: &str = "Orders under P20.00 cannot be paid online. Choose cash.";
/// What the answer adds when PayMongo could not be reached (down, slow, or its circuit open).
pub const UNREACHABLE: &str = "We could not reach the payment service just now. Your order is \
     kept: pay from its page in a moment, or pay in cash instead.";

framework::export_const!(
    /// What the order's page says when the payment service could not be reached (its address
    /// carries `notice=pay-unreachable`: a form without JavaScript lands there).
    PAY_UNREACHABLE = UNREACHABLE
);

/// The order's page, saying the payment service could not be reached.
fn with_unreachable_notice(link: &str) -> String {
    let joint = if link.contains('?') { '&' } else { '?' };
    format!("{link}{joint}notice=pay-unreachable")
}

/// Submit Order's last step ([`framework::endpoint::Endpoint::THEN`]): an order that awaits its
/// payment is given the page it is paid on, its open Checkout Session's or a new one's. PayMongo
/// out of reach leaves the order as it is, and says so.
pub async fn pay_url(
    state: &ApiState,
    caller: Caller,
    mut placed: PlacedOrder,
) -> Result<PlacedOrder, ApiError> {
    if placed.order.status != Status::AwaitingPayment.as_str() {
        return Ok(placed);
    }
    let Some(paymongo) = state.config.settings.get::<PayMongo>().cloned() else {
        return Ok(placed);
    };
    match session_of(state, caller, &paymongo, &placed.order, &placed.link).await? {
        Ok(url) => placed.pay_url = Some(url),
        Err(failed) => {
            log::warn!(
                "order {}: no Checkout Session: {failed}",
                placed.order.number
            );
            placed.message = format!("{} {UNREACHABLE}", placed.message);
            placed.link = with_unreachable_notice(&placed.link);
        }
    }
    Ok(placed)
}

/// Pay Now's last step ([`super::pay::PayOrder`]): the order's open Checkout Session read back
/// from PayMongo first: paid there (its webhook late), the payment is taken and the order
/// answered placed; expired there, the next attempt is made; otherwise its page is the answer.
/// PayMongo out of reach: the session's page as kept, with a word of it.
pub async fn pay_or_check(
    state: &ApiState,
    caller: Caller,
    mut placed: PlacedOrder,
) -> Result<PlacedOrder, ApiError> {
    let Some(paymongo) = state.config.settings.get::<PayMongo>().cloned() else {
        placed.message = NOT_OFFERED.into();
        return Ok(placed);
    };
    let id = placed.order.id;
    let newest = state
        .run(caller.clone(), move |ctx| {
            Ok(db::payments::newest_session(ctx.conn, id)?)
        })
        .await?;
    if let Some(open) = newest.filter(|s| s.state == "open") {
        let gateway = paymongo.gateway();
        let session_id = open.id.clone();
        let read = actix_web::web::block(move || gateway.retrieve(&session_id))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        match read {
            Ok(session) if session.payments.iter().any(|p| p.status == "paid") => {
                let config = state.config.clone();
                let order = state
                    .run(caller.clone(), move |ctx| {
                        let now = domain::calendar::unix_now();
                        db::write_transaction(ctx.conn, |conn| take(conn, &config, &session, now))?;
                        ctx.mailed = true;
                        let full = db::orders::full(ctx.conn, id)?
                            .ok_or_else(|| ApiError::NotFound(format!("Order {id} not found.")))?;
                        Ok(OrderView::from(full))
                    })
                    .await?;
                if order.status != Status::AwaitingPayment.as_str() {
                    placed.message = format!(
                        "Thank you! We received your payment: your order {} is placed.",
                        order.number
                    );
                    placed.order = order;
                    return Ok(placed);
                }
                placed.order = order;
            }
            Ok(session) if session.status == "expired" => {
                let gone = open.id.clone();
                state
                    .run(caller.clone(), move |ctx| {
                        db::payments::set_session_state(ctx.conn, &gone, "expired")?;
                        Ok(())
                    })
                    .await?;
            }
            Ok(_) => {
                placed.pay_url = Some(open.url);
                return Ok(placed);
            }
            Err(failed) => {
                log::warn!("order {id}: Checkout Session not read back: {failed}");
                placed.pay_url = Some(open.url);
                return Ok(placed);
            }
        }
    }
    match session_of(state, caller, &paymongo, &placed.order, &placed.link).await? {
        Ok(url) => placed.pay_url = Some(url),
        Err(failed) => {
            log::warn!("order {id}: no Checkout Session: {failed}");
            placed.message = format!("{} {UNREACHABLE}", placed.message);
            placed.link = with_unreachable_notice(&placed.link);
        }
    }
    Ok(placed)
}

/// What Pay in Cash answers when PayMongo cannot be asked whether the order was paid there: it is
/// not switched, so nobody pays twice.
pub const CASH_UNREACHABLE: &str = "We could not reach the payment service to close this \
     order's payment page, so it is not switched to cash yet. Please try again in a moment.";

/// Pay in Cash's work, after its call found the order awaiting payment
/// ([`super::pay::PayInCash`]): the order's open Checkout Session is read back from PayMongo
/// first (paid there, its webhook late: the payment is taken and nothing is owed in cash) and
/// expired (nobody pays it afterwards); only then is the order placed as a cash order. PayMongo
/// out of reach leaves the order as it is, and says so.
pub async fn cash_instead(
    state: &ApiState,
    caller: Caller,
    mut placed: PlacedOrder,
) -> Result<PlacedOrder, ApiError> {
    let id = placed.order.id;
    let open = state
        .run(caller.clone(), move |ctx| {
            Ok(db::payments::newest_session(ctx.conn, id)?.filter(|s| s.state == "open"))
        })
        .await?;
    if let (Some(open), Some(paymongo)) = (open, state.config.settings.get::<PayMongo>()) {
        let gateway = paymongo.gateway();
        let session_id = open.id.clone();
        let read = actix_web::web::block(move || {
            let session = gateway.retrieve(&session_id)?;
            if session.payments.iter().any(|p| p.status == "paid") || session.status == "expired" {
                return Ok(session);
            }
            gateway.expire(&session_id)
        })
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
        let session = read.map_err(|failed| {
            log::warn!("order {id}: Checkout Session not closed for cash: {failed}");
            ApiError::Upstream(CASH_UNREACHABLE.into())
        })?;
        if session.payments.iter().any(|p| p.status == "paid") {
            let config = state.config.clone();
            let order = state
                .run(caller, move |ctx| {
                    let now = domain::calendar::unix_now();
                    db::write_transaction(ctx.conn, |conn| take(conn, &config, &session, now))?;
                    ctx.mailed = true;
                    let full = db::orders::full(ctx.conn, id)?
                        .ok_or_else(|| ApiError::NotFound(format!("Order {id} not found.")))?;
                    Ok(OrderView::from(full))
                })
                .await?;
            placed.message = format!(
                "We received your payment online: your order {} is placed, and nothing is to be paid in cash.",
                order.number
            );
            placed.order = order;
            return Ok(placed);
        }
    }
    let pickup = placed.order.fulfillment_id != domain::DEFAULT_FULFILLMENT.get();
    let order = state
        .run(caller, move |ctx| switch_to_cash(ctx, id, pickup))
        .await?;
    placed.message = format!(
        "Thank you! Your order {} is placed: {}.",
        order.number,
        order.payment.to_lowercase()
    );
    placed.order = order;
    Ok(placed)
}

/// Places order `id`, awaiting its payment, as a cash order (at pickup when `pickup`), its
/// sessions marked expired and the shopper and the store told: the order as it is now. An order
/// no longer awaiting payment is a conflict.
fn switch_to_cash(ctx: &mut framework::Ctx, id: i64, pickup: bool) -> Result<OrderView, ApiError> {
    let config = ctx.config;
    let now = domain::calendar::unix_now();
    let moved = db::write_transaction(ctx.conn, |conn| {
        db::payments::hold_order(conn, id)?;
        let awaiting = Status::AwaitingPayment.as_str();
        if !db::staff::set_status(conn, id, awaiting, Status::Placed.as_str(), now, "")? {
            return Ok::<_, ApiError>(false);
        }
        db::payments::expire_sessions(conn, id)?;
        db::payments::set_payment_label(conn, id, crate::orders::payment_of(pickup))?;
        mail_placed(conn, config, id)?;
        Ok(true)
    })?;
    ctx.mailed |= moved;
    let full = db::orders::full(ctx.conn, id)?
        .ok_or_else(|| ApiError::NotFound(format!("Order {id} not found.")))?;
    let order = OrderView::from(full);
    if !moved {
        return Err(ApiError::Conflict(format!(
            "Order {} does not wait for a payment: it is {}.",
            order.number,
            order.status_label.to_lowercase()
        )));
    }
    Ok(order)
}

/// The address of the order's open Checkout Session, made now when it has none (its first, or
/// the next attempt after one expired): the gateway asked on a blocking thread, within its
/// timeout, with the attempt's idempotency key, and no connection held meanwhile.
async fn session_of(
    state: &ApiState,
    caller: Caller,
    paymongo: &PayMongo,
    order: &OrderView,
    link: &str,
) -> Result<Result<String, Failed>, ApiError> {
    let id = order.id;
    let newest = state
        .run(caller.clone(), move |ctx| {
            Ok(db::payments::newest_session(ctx.conn, id)?)
        })
        .await?;
    if let Some(open) = newest.as_ref().filter(|s| s.state == "open") {
        return Ok(Ok(open.url.clone()));
    }
    let attempt = newest.map_or(1, |s| s.attempt + 1);
    let Ok(body) =
        checkout_session::request(order, link, &state.config.public_url, paymongo.methods())
    else {
        // Placed only above the smallest payment: an order under it is never asked for.
        return Err(ApiError::Internal(format!(
            "order {id} is under PayMongo's smallest payment"
        )));
    };
    let key = checkout_session::idempotency_key(order, u32::try_from(attempt).unwrap_or(1));
    let gateway = paymongo.gateway();
    let made = actix_web::web::block(move || gateway.create(&body, &key))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let session = match made {
        Ok(s) if !s.checkout_url.is_empty() => s,
        Ok(_) => return Ok(Err(Failed::Unreadable("no checkout_url".into()))),
        Err(e) => return Ok(Err(e)),
    };
    let row = db::payments::CheckoutSessionRow {
        id: session.id,
        order_id: id,
        attempt,
        url: session.checkout_url,
        created_at: domain::calendar::unix_now(),
        state: "open".into(),
    };
    // Two presses at once made the same attempt: PayMongo answered both with one session (the
    // same key), kept once; each answers the session kept.
    let url = state
        .run(caller, move |ctx| {
            if db::payments::add_session(ctx.conn, &row)? {
                return Ok(row.url);
            }
            Ok(db::payments::newest_session(ctx.conn, row.order_id)?
                .map_or(row.url, |kept| kept.url))
        })
        .await?;
    Ok(Ok(url))
}

/// What became of a payment PayMongo reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken {
    /// The order's payment: it is placed.
    Paid { order_id: i64 },
    /// Recorded but not taken as the order's payment: why (staff refund it).
    Flagged { order_id: i64, problem: String },
    /// Reported before: nothing changed.
    Known,
    /// Not a payment of a session this store made (another shop's, or made up): ignored.
    Unknown,
}

/// Takes the payments of a Checkout Session PayMongo reported paid, in the caller's transaction:
/// each payment once (by its id); one of the order's amount and currency, for an order still
/// awaiting payment, places the order and mails the shopper and the store; any other is recorded
/// with its problem for staff.
pub fn take(
    conn: &mut db::AnyConnection,
    config: &framework::ApiConfig,
    session: &Session,
    now: i64,
) -> Result<Vec<Taken>, ApiError> {
    let Some(kept) = db::payments::session(conn, &session.id)? else {
        return Ok(vec![Taken::Unknown]);
    };
    let mut taken = Vec::new();
    for paid in session.payments.iter().filter(|p| p.status == "paid") {
        taken.push(take_one(conn, config, &kept, paid, now)?);
    }
    Ok(taken)
}

fn take_one(
    conn: &mut db::AnyConnection,
    config: &framework::ApiConfig,
    session: &db::payments::CheckoutSessionRow,
    paid: &Paid,
    now: i64,
) -> Result<Taken, ApiError> {
    let order_id = session.order_id;
    // Held first: the status read below decides whether the payment is the order's, and no
    // cancellation or switch to cash may commit between that reading and this transaction's end.
    db::payments::hold_order(conn, order_id)?;
    let order = db::orders::full(conn, order_id)?
        .ok_or_else(|| ApiError::Internal(format!("order {order_id} vanished")))?
        .order;
    let problem = if paid.currency != "PHP" || paid.amount != order.total {
        format!(
            "Paid {} {} for an order of {}: not taken as its payment; refund it.",
            paid.currency,
            domain::money::format_php(paid.amount),
            domain::money::format_php(order.total)
        )
    } else if order.status != Status::AwaitingPayment.as_str() {
        format!(
            "Paid while the order was {}: not taken as its payment; refund it.",
            crate::orders::label(&order.status).to_lowercase()
        )
    } else {
        String::new()
    };
    let row = db::payments::PaymentRow {
        id: paid.id.clone(),
        order_id,
        checkout_session_id: session.id.clone(),
        amount: paid.amount,
        currency: paid.currency.clone(),
        method: paid.method.clone(),
        paid_at: paid.paid_at,
        received_at: now,
        problem: problem.clone(),
    };
    if !db::payments::add_payment(conn, &row)? {
        return Ok(Taken::Known);
    }
    db::payments::set_session_state(conn, &session.id, "paid")?;
    if !problem.is_empty() {
        log::warn!("order {order_id}: payment {} flagged: {problem}", paid.id);
        return Ok(Taken::Flagged { order_id, problem });
    }
    let placed = Status::Placed.as_str();
    if !db::staff::set_status(conn, order_id, &order.status, placed, now, "")? {
        // The row is held: this cannot happen; rolled back rather than kept half-taken
        // (PayMongo sends the event again).
        return Err(ApiError::Internal(format!(
            "order {order_id} moved while held"
        )));
    }
    db::payments::set_payment_label(conn, order_id, &paid_label(&paid.method))?;
    mail_placed(conn, config, order_id)?;
    Ok(Taken::Paid { order_id })
}

/// How an order paid online shows once paid: `Paid online (GCash)`.
pub fn paid_label(method: &str) -> String {
    match super::methods::label(method) {
        "online" => "Paid online".into(),
        name => format!("Paid online ({name})"),
    }
}

/// Tells the shopper their order is placed (paid, or to be paid in cash; with its page for a
/// member: a guest's needs the key of their confirmation's link), and the store of a new order.
pub(crate) fn mail_placed(
    conn: &mut db::AnyConnection,
    config: &framework::ApiConfig,
    order_id: i64,
) -> Result<(), ApiError> {
    let full = db::orders::full(conn, order_id)?
        .ok_or_else(|| ApiError::Internal(format!("order {order_id} vanished")))?;
    let member = full.order.user_id.is_some();
    let pickup = full.order.fulfillment_type_id != domain::DEFAULT_FULFILLMENT.get();
    let view = OrderView::from(full);
    if !view.email.is_empty() {
        let link = member.then(|| format!("{}/active-order/{order_id}", config.public_url));
        crate::staff::orders::status::queue_status_mail(conn, &view, pickup, link, "")?;
    }
    crate::orders::notify_store(conn, config, &view)?;
    Ok(())
}
