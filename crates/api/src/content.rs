//! Dated and editorial calls: holidays, the notice, the editorial texts, the guest user with the
//! policy texts, and the newsletter.

use db::models::{Notice, SiteText};
use serde::{Deserialize, Serialize};
use time::PrimitiveDateTime;
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::mail_templates!("newsletter_confirm");

framework::register!(
    HolidayCall,
    NoticeCall,
    SiteTextCall,
    Subscribe,
    ConfirmSubscription
);

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TestdateQuery {
    /// Development and tests only: pretend it is this day (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`).
    pub testdate: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Holiday {
    pub holiday: bool,
    pub date: String,
}

framework::declare!(
    /// `GET /api/v1/philippine-holiday`: whether the (business) date is a holiday.
    pub struct HolidayCall = Get "/api/v1/philippine-holiday" as "holiday", Public, errors [],
    (NoParams, TestdateQuery, NoBody) -> Holiday, "Whether today (Manila time) is a Philippine holiday.");

impl Endpoint for HolidayCall {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<Holiday, ApiError> {
        let date = iso_today(ctx, &q)?;
        Ok(Holiday {
            holiday: db::content::is_holiday(ctx.conn, &date)?,
            date,
        })
    }
}

/// The business date: a malformed `testdate` is a 400, as everywhere.
fn iso_today(ctx: &Ctx, q: &TestdateQuery) -> Result<String, ApiError> {
    let at = ctx.config.now(framework::testdate(q.testdate.as_deref())?);
    Ok(domain::calendar::iso_date(at.date()))
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct NoticeView {
    pub id: i32,
    pub title: String,
    pub body: String,
    pub starts_on: String,
    pub ends_on: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct NoticeAnswer {
    pub notice: Option<NoticeView>,
    pub holiday: bool,
}

framework::declare!(
    /// `GET /api/v1/notice`: the "Notice to our Members" in force on the date, and whether the date
    /// is a holiday (the notice's picker shows only on other days).
    pub struct NoticeCall = Get "/api/v1/notice" as "notice", Public, errors [],
    (NoParams, TestdateQuery, NoBody) -> NoticeAnswer, "The notice to members in force today, and whether today is a holiday.");

impl Endpoint for NoticeCall {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<NoticeAnswer, ApiError> {
        let date = iso_today(ctx, &q)?;
        Ok(NoticeAnswer {
            notice: db::content::notice_on(ctx.conn, &date)?.map(|n: Notice| NoticeView {
                id: n.id,
                title: n.title,
                body: n.body,
                starts_on: n.starts_on,
                ends_on: n.ends_on,
            }),
            holiday: db::content::is_holiday(ctx.conn, &date)?,
        })
    }
}

/// An editorial page's title and body.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct SiteTextView {
    pub key: String,
    pub title: String,
    pub body: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct TextPath {
    /// policy_agreement, terms_and_conditions or about_us.
    pub key: String,
}

framework::declare!(
    /// `GET /api/v1/site-texts/{key}`.
    pub struct SiteTextCall = Get "/api/v1/site-texts/{key}" as "siteText", Public, errors [404],
    (TextPath, NoParams, NoBody) -> SiteTextView, "An editorial text: the policy agreement, the terms, about us.");

impl Endpoint for SiteTextCall {
    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<SiteTextView, ApiError> {
        // PostgreSQL cannot hold a NUL in text, nor compare one: no key has it.
        let found = if p.key.contains('\0') {
            None
        } else {
            db::content::site_text(ctx.conn, &p.key)?
        };
        let t: SiteText = found
            .ok_or_else(|| ApiError::NotFound(format!("No text {}", p.key.replace('\0', ""))))?;
        let retention = ctx
            .config
            .settings
            .get::<db::housekeeping::Retention>()
            .copied()
            .unwrap_or_default();
        Ok(SiteTextView {
            key: t.key,
            title: t.title,
            body: with_periods(&t.body, &retention),
        })
    }
}

/// A text with the store's retention periods filled in (`{guest_cart_days}`, `{guest_order_days}`,
/// `{mail_days}`): what the privacy page states is what housekeeping keeps.
pub fn with_periods(body: &str, r: &db::housekeeping::Retention) -> String {
    if !body.contains('{') {
        return body.to_string();
    }
    body.replace("{guest_cart_days}", &r.guest_cart_days.to_string())
        .replace("{guest_order_days}", &r.guest_order_days.to_string())
        .replace("{mail_days}", &r.mail_days.to_string())
}

/// The policy texts that `GET /api/v1/user` carries, also for guests.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GuestUser {
    pub policy_agreement_accepted: bool,
    pub policy_agreement_text: String,
    pub term_and_condition_text: String,
    pub about_us_text: String,
}

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
