//! Dated and editorial calls: holidays, the notice, the editorial texts, the guest user with the
//! policy texts, and the newsletter.

use db::models::{Notice, SiteText};
use db::queries;
use serde::{Deserialize, Serialize};
use time::PrimitiveDateTime;
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::endpoint::{Access, Ctx, Endpoint, Json, Method, NoBody, NoParams};
use crate::error::ApiError;

crate::register!(
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

/// `GET /api/v1/philippine-holiday`: whether the (business) date is a holiday.
pub struct HolidayCall;

impl Endpoint for HolidayCall {
    const NAME: &'static str = "holiday";
    const METHOD: Method = Method::Get;
    const PATH: &'static str = "/api/v1/philippine-holiday";
    const SUMMARY: &'static str = "Whether today (Manila time) is a Philippine holiday.";
    const ACCESS: Access = Access::Public;
    type Path = NoParams;
    type Query = TestdateQuery;
    type Body = NoBody;
    type Answer = Holiday;

    fn call(ctx: &mut Ctx, _: NoParams, q: TestdateQuery, _: NoBody) -> Result<Holiday, ApiError> {
        let date = iso_today(ctx, &q);
        Ok(Holiday {
            holiday: queries::is_holiday(ctx.conn, &date)?,
            date,
        })
    }
}

fn iso_today(ctx: &Ctx, q: &TestdateQuery) -> String {
    domain::calendar::iso_date(ctx.config.now(q.testdate.as_deref()).date())
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

/// `GET /api/v1/notice`: the "Notice to our Members" in force on the date, and whether the date
/// is a holiday (the notice's picker shows only on other days).
pub struct NoticeCall;

impl Endpoint for NoticeCall {
    const NAME: &'static str = "notice";
    const METHOD: Method = Method::Get;
    const PATH: &'static str = "/api/v1/notice";
    const SUMMARY: &'static str =
        "The notice to members in force today, and whether today is a holiday.";
    const ACCESS: Access = Access::Public;
    type Path = NoParams;
    type Query = TestdateQuery;
    type Body = NoBody;
    type Answer = NoticeAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        q: TestdateQuery,
        _: NoBody,
    ) -> Result<NoticeAnswer, ApiError> {
        let date = iso_today(ctx, &q);
        Ok(NoticeAnswer {
            notice: queries::notice_on(ctx.conn, &date)?.map(|n: Notice| NoticeView {
                id: n.id,
                title: n.title,
                body: n.body,
                starts_on: n.starts_on,
                ends_on: n.ends_on,
            }),
            holiday: queries::is_holiday(ctx.conn, &date)?,
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

/// `GET /api/v1/site-texts/{key}`.
pub struct SiteTextCall;

impl Endpoint for SiteTextCall {
    const NAME: &'static str = "siteText";
    const METHOD: Method = Method::Get;
    const PATH: &'static str = "/api/v1/site-texts/{key}";
    const SUMMARY: &'static str = "An editorial text: the policy agreement, the terms, about us.";
    const ACCESS: Access = Access::Public;
    const ERRORS: &'static [u16] = &[404];
    type Path = TextPath;
    type Query = NoParams;
    type Body = NoBody;
    type Answer = SiteTextView;

    fn call(ctx: &mut Ctx, p: TextPath, _: NoParams, _: NoBody) -> Result<SiteTextView, ApiError> {
        let t: SiteText = queries::site_text(ctx.conn, &p.key)?
            .ok_or_else(|| ApiError::NotFound(format!("No text {}", p.key)))?;
        Ok(SiteTextView {
            key: t.key,
            title: t.title,
            body: t.body,
        })
    }
}

/// The policy texts that `GET /api/v1/user` carries, also for guests (SPEC 7).
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
    #[schema(value_type = Option<String>)]
    pub email: Option<serde_json::Value>,
}

/// The answer to every accepted signup, new or known address alike (double opt-in).
pub const CHECK_EMAIL: &str =
    "Thank you! Open the link we sent to your email to confirm your subscription.";
/// SPEC 8's text, now said when the link is opened.
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

/// `POST /api/v1/mail/subscribe`: 200 with the same text for a new and a known address (a
/// confirmation link goes to a new or unconfirmed one), 422 with the field's error.
pub struct Subscribe;

impl Endpoint for Subscribe {
    const NAME: &'static str = "subscribe";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/mail/subscribe";
    const SUMMARY: &'static str = "Adds an address to the newsletter.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[422, 429];
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<SubscribeBody, true>;
    type Answer = SubscribeAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(body): Self::Body,
    ) -> Result<SubscribeAnswer, ApiError> {
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

/// Newsletter signups a client may try in ten minutes, and one address may receive in an hour.
pub const SIGNUPS_PER_CLIENT: i32 = 10;
pub const SIGNUPS_PER_ADDRESS: i32 = 3;

/// A newsletter signup, for the JSON call and the form post alike: the success text, a 422
/// naming the field, or a 429 past the rate limits (kept in the database, so every app server
/// counts together).
pub fn subscribe(
    ctx: &mut Ctx,
    email: &str,
    now: PrimitiveDateTime,
) -> Result<&'static str, ApiError> {
    let client = ctx.client_key();
    ctx.limit("newsletter", &client, SIGNUPS_PER_CLIENT, 600)?;
    let email = domain::email::validate_email(email).map_err(|msg| ApiError::Invalid {
        field: "email",
        message: msg.into(),
    })?;
    ctx.limit("newsletter address", &email, SIGNUPS_PER_ADDRESS, 3600)?;
    let stamp = stamp(now);
    let token = crate::session::new_token();
    let expires = domain::calendar::unix_now() + CONFIRM_DAYS * 86_400;
    let signup = queries::subscribe(
        ctx.conn,
        &email,
        &stamp,
        &crate::session::hash(&token),
        expires,
    )?;
    if signup == queries::Signup::Pending {
        let link = format!("{}/newsletter/confirm?token={token}", ctx.config.public_url);
        ctx.outgoing.push(crate::mail::Mail::render(
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

/// `POST /api/v1/mail/confirm`: the emailed link's token; the address counts from now.
pub struct ConfirmSubscription;

impl Endpoint for ConfirmSubscription {
    const NAME: &'static str = "confirmSubscription";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/mail/confirm";
    const SUMMARY: &'static str = "Confirms a newsletter signup through its emailed link.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[404, 429];
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<ConfirmBody, true>;
    type Answer = SubscribeAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(body): Self::Body,
    ) -> Result<SubscribeAnswer, ApiError> {
        let client = ctx.client_key();
        ctx.limit("newsletter confirm", &client, 20, 600)?;
        let stamp = stamp(domain::calendar::manila_now());
        let hash = crate::session::hash(body.token.trim());
        if !queries::confirm_subscription(ctx.conn, &hash, domain::calendar::unix_now(), &stamp)? {
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
