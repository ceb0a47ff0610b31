//! The newsletter: signing up (`subscribe`, the same answer for a new and a known address) and
//! confirming by the mailed link (`confirmSubscription`), and the footer's form without
//! JavaScript ([`form`]).

pub mod form;

use serde::{Deserialize, Serialize};
use time::PrimitiveDateTime;
use ts_rs::TS;
use utoipa::ToSchema;

use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;

framework::mail_templates!("newsletter_confirm");

framework::register!(Subscribe, ConfirmSubscription);

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SubscribeBody {
    /// The address to add; anything but text counts as invalid.
    #[serde(default)]
    #[schema(required = true, schema_with = subscribe_email)]
    pub email: Option<serde_json::Value>,
}

/// The address to subscribe: an email address (anything but text counts as invalid).
fn subscribe_email() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::email().description(Some(
        "The address to add; anything but text counts as invalid.",
    ))
}

/// The answer to every accepted signup, new or known address alike (double opt-in).
pub const CHECK_EMAIL: &str =
    "Thank you! Open the link we sent to your email to confirm your subscription.";
/// The newsletter signup's success message, now said when the link is opened.
pub const SUBSCRIBED: &str =
    "Your email has been added to our mailing list and will receive our latest news.";
/// How long a confirmation link works.
pub const CONFIRM_DAYS: i64 = 7;

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Success {
    pub success: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct SubscribeAnswer {
    pub data: Success,
}

framework::declare!(
    /// `POST /api/v1/mail/subscribe`: 200 with the same text for a new and a known address (a
    /// confirmation link goes to a new or unconfirmed one), 422 with the field's error.
    pub struct Subscribe = Post "/api/v1/mail/subscribe" as "subscribe", Write, errors [422, 429],
    (NoParams, NoParams, Json<SubscribeBody, true>) -> SubscribeAnswer, "Adds an address to the newsletter.");

impl Endpoint for Subscribe {
    fn call(ctx: &mut Ctx, (_, _, Json(body), _): Args<Self>) -> Result<SubscribeAnswer, ApiError> {
        let email = match &body.email {
            None | Some(serde_json::Value::Null) => String::new(),
            Some(serde_json::Value::String(s)) => s.clone(),
            // Anything else is not an address; an odd marker keeps it invalid, not empty.
            Some(_) => "\u{0}".to_string(),
        };
        let message = subscribe(ctx, &email, domain::calendar::manila_now())?;
        Ok(SubscribeAnswer {
            data: Success {
                success: message.into(),
            },
        })
    }
}

/// Newsletter signups a client may try in ten minutes (one address receives at most
/// [`framework::limits::MAILS_PER_ADDRESS`] an hour).
pub const SIGNUPS_PER_CLIENT: i32 = framework::limits::NEWSLETTER;

/// A newsletter signup, for the JSON call and the form post alike: the success text, a 422
/// naming the field, or a 429 past the rate limits (kept in the database, so every app server
/// counts together).
pub fn subscribe(
    ctx: &mut Ctx,
    email: &str,
    now: PrimitiveDateTime,
) -> Result<&'static str, ApiError> {
    ctx.limit_client("newsletter", SIGNUPS_PER_CLIENT, framework::limits::WINDOW)?;
    let email = domain::email::validate_email(email).map_err(|msg| ApiError::Invalid {
        field: "email",
        message: msg.into(),
    })?;
    ctx.limit_mails("newsletter address", &email)?;
    let stamp = stamp(now);
    let token = framework::session::new_token();
    let expires = domain::calendar::unix_now() + CONFIRM_DAYS * 86_400;
    let signup = db::content::subscribe(
        ctx.conn,
        &email,
        &stamp,
        &framework::session::hash(&token),
        expires,
    )?;
    if signup == db::content::Signup::Pending {
        let link = format!("{}/newsletter/confirm?token={token}", ctx.config.public_url);
        ctx.outgoing.push(framework::mail::Mail::render(
            "newsletter_confirm",
            email,
            "Confirm your subscription",
            &serde_json::json!({ "link": link, "days": CONFIRM_DAYS }),
        )?);
    }
    Ok(CHECK_EMAIL)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ConfirmBody {
    /// The link's token.
    #[serde(default)]
    #[schema(required = true)]
    pub token: String,
}

/// When a signup happened or was confirmed, as the table keeps it (Manila time, to the minute).
fn stamp(now: PrimitiveDateTime) -> String {
    format!(
        "{} {:02}:{:02}",
        domain::calendar::iso_date(now.date()),
        now.hour(),
        now.minute()
    )
}

framework::declare!(
    /// `POST /api/v1/mail/confirm`: the emailed link's token; the address counts from now.
    pub struct ConfirmSubscription = Post "/api/v1/mail/confirm" as "confirmSubscription", Write, errors [404, 429],
    (NoParams, NoParams, Json<ConfirmBody, true>) -> SubscribeAnswer, "Confirms a newsletter signup through its emailed link.");

impl Endpoint for ConfirmSubscription {
    fn call(ctx: &mut Ctx, (_, _, Json(body), _): Args<Self>) -> Result<SubscribeAnswer, ApiError> {
        ctx.limit_client(
            "newsletter confirm",
            framework::limits::NEWSLETTER_CONFIRM,
            framework::limits::WINDOW,
        )?;
        let stamp = stamp(domain::calendar::manila_now());
        let hash = framework::session::hash(body.token.trim());
        if !db::content::confirm_subscription(
            ctx.conn,
            &hash,
            domain::calendar::unix_now(),
            &stamp,
        )? {
            return Err(ApiError::NotFound(
                "This link is invalid or has expired.".into(),
            ));
        }
        Ok(SubscribeAnswer {
            data: Success {
                success: SUBSCRIBED.into(),
            },
        })
    }
}
