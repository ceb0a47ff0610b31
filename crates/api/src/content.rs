//! Dated and editorial calls: holidays, the notice, the editorial texts, the guest user with the
//! policy texts (the newsletter's calls are `crate::newsletter`'s).

use db::models::{Notice, SiteText};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use framework::endpoint::{Args, Ctx, Endpoint, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(HolidayCall, NoticeCall, SiteTextCall);

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
