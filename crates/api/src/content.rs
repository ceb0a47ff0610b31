//! Dated and editorial answers: holidays, the notice, the guest user with the policy texts, and
//! the newsletter.

use db::queries;
use db::AnyConnection;
use serde::{Deserialize, Serialize};
use time::PrimitiveDateTime;

use crate::error::ApiError;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Holiday {
    pub holiday: bool,
    pub date: String,
}

/// `GET /api/v1/philippine-holiday`: whether the (business) date is a holiday.
pub fn holiday(conn: &mut AnyConnection, now: PrimitiveDateTime) -> Result<Holiday, ApiError> {
    let date = domain::calendar::iso_date(now.date());
    Ok(Holiday {
        holiday: queries::is_holiday(conn, &date)?,
        date,
    })
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NoticeAnswer {
    pub notice: Option<db::models::Notice>,
    pub holiday: bool,
}

/// `GET /api/v1/notice`: the "Notice to our Members" in force on the date, and whether the date
/// is a holiday (the notice's picker shows only on other days).
pub fn notice(conn: &mut AnyConnection, now: PrimitiveDateTime) -> Result<NoticeAnswer, ApiError> {
    let date = domain::calendar::iso_date(now.date());
    Ok(NoticeAnswer {
        notice: queries::notice_on(conn, &date)?,
        holiday: queries::is_holiday(conn, &date)?,
    })
}

/// The policy texts that `GET /api/v1/user` carries, also for guests (SPEC 7).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GuestUser {
    pub policy_agreement_accepted: bool,
    pub policy_agreement_text: String,
    pub term_and_condition_text: String,
    pub about_us_text: String,
}

pub fn texts(conn: &mut AnyConnection) -> Result<GuestUser, ApiError> {
    let mut text = |key: &str| -> Result<String, ApiError> {
        Ok(queries::site_text(conn, key)?
            .map(|t| t.body)
            .unwrap_or_default())
    };
    Ok(GuestUser {
        policy_agreement_accepted: false,
        policy_agreement_text: text("policy_agreement")?,
        term_and_condition_text: text("terms_and_conditions")?,
        about_us_text: text("about_us")?,
    })
}

/// The editorial page texts (title and body) by key.
pub fn site_text(conn: &mut AnyConnection, key: &str) -> Result<db::models::SiteText, ApiError> {
    queries::site_text(conn, key)?.ok_or_else(|| ApiError::NotFound(format!("No text {key}")))
}

#[derive(Debug, Default, Deserialize)]
pub struct SubscribeBody {
    #[serde(default)]
    pub email: Option<serde_json::Value>,
}

pub const SUBSCRIBED: &str =
    "Your email has been added to our mailing list and will receive our latest news.";
pub const ALREADY_SUBSCRIBED: &str =
    "This email is already on our mailing list. Thank you for staying in touch!";

/// The outcome of a newsletter signup: a success message, or the field's first error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subscription {
    Added(&'static str),
    Invalid(&'static str),
}

/// `POST /api/v1/mail/subscribe`, for the JSON call and the form post alike.
pub fn subscribe(
    conn: &mut AnyConnection,
    email: &str,
    now: PrimitiveDateTime,
) -> Result<Subscription, ApiError> {
    let email = match domain::email::validate_email(email) {
        Ok(e) => e,
        Err(msg) => return Ok(Subscription::Invalid(msg)),
    };
    let stamp = format!(
        "{} {:02}:{:02}",
        domain::calendar::iso_date(now.date()),
        now.hour(),
        now.minute()
    );
    Ok(Subscription::Added(
        if queries::subscribe(conn, &email, &stamp)? {
            SUBSCRIBED
        } else {
            ALREADY_SUBSCRIBED
        },
    ))
}
