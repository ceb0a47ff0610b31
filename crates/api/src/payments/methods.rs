//! `GET /api/v1/payments/methods`: whether the store takes payments online, and by which methods,
//! as the checkout offers them (the manager's `PAYMONGO_METHODS`; none without a PayMongo
//! account: cash only).

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use super::checkout_session::MIN_AMOUNT;
use super::PayMongo;
use framework::endpoint::{Args, Ctx, Endpoint, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(PaymentMethods);

/// A method shoppers may pay with online.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct MethodView {
    /// PayMongo's name (`gcash`).
    pub id: String,
    /// As the checkout says it (`GCash`).
    pub label: String,
}

/// How the store takes payments online.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PaymentOptions {
    /// Whether the checkout offers paying online (the store has a PayMongo account).
    pub online: bool,
    /// The methods, in the manager's order; empty when `online` is false.
    pub methods: Vec<MethodView>,
    /// The smallest order total paid online, in centavos (PayMongo's smallest payment).
    pub min_total: i64,
    /// Minutes an order awaits its payment online before it is cancelled.
    pub pay_within_minutes: i64,
}

/// A method as the checkout says it.
pub fn label(method: &str) -> &'static str {
    match method {
        "gcash" => "GCash",
        "paymaya" => "Maya",
        "grab_pay" => "GrabPay",
        "qrph" => "QR Ph",
        "card" => "credit or debit card",
        "dob" => "online banking",
        _ => "online",
    }
}

framework::declare!(
    /// `GET /api/v1/payments/methods`.
    pub struct PaymentMethods = Get "/api/v1/payments/methods" as "paymentMethods", Public, errors [],
    (NoParams, NoParams, NoBody) -> PaymentOptions,
    "Whether the store takes payments online (through PayMongo) beside cash, by which methods, and from which order total.");

impl Endpoint for PaymentMethods {
    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<PaymentOptions, ApiError> {
        let account = ctx.config.settings.get::<PayMongo>();
        let methods: Vec<MethodView> = account
            .map(|p| {
                p.methods()
                    .iter()
                    .map(|m| MethodView {
                        id: (*m).to_string(),
                        label: label(m).to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(PaymentOptions {
            online: !methods.is_empty(),
            methods,
            min_total: MIN_AMOUNT,
            pay_within_minutes: account
                .map_or(super::PAY_WITHIN_MINUTES, PayMongo::pay_within_minutes),
        })
    }
}
