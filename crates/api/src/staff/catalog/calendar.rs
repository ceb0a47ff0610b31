//! The store's days in a manager's hands: the holidays (`GET /api/v1/philippine-holiday`: on one
//! the home page's notice shows no delivery or pickup city picker) and the notices (the home page
//! shows the one whose days hold today, the latest starting, such as a liquor ban), each added, changed
//! and removed by a form; a page opened before another's save cannot overwrite it (`version`).
//! Every app server shows a change within a second (the tables' triggers move the data version).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::{as_lines, is_stale, version_of, STALE_MESSAGE};
use crate::staff::{entry, signed_in_as};
use db::models::{Holiday, Notice};
use domain::account::FieldErrors;
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(
    StaffCalendar,
    StaffHolidaySave,
    StaffHolidayRemove,
    StaffNoticeSave,
    StaffNoticeRemove
);

/// A holiday as its form shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct HolidayEdit {
    pub id: i32,
    pub name: String,
    pub starts_on: String,
    pub ends_on: String,
    /// Over (its last day is before today, Manila).
    pub past: bool,
    pub version: String,
}

/// A notice as its form shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct NoticeEdit {
    pub id: i32,
    pub title: String,
    pub body: String,
    pub starts_on: String,
    pub ends_on: String,
    pub past: bool,
    pub version: String,
}

/// Every holiday and notice, by first day.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct Calendar {
    pub holidays: Vec<HolidayEdit>,
    pub notices: Vec<NoticeEdit>,
    /// Today in Manila, `YYYY-MM-DD`.
    pub today: String,
}

fn holiday_version(h: &Holiday) -> String {
    version_of(&(&h.name, &h.starts_on, &h.ends_on))
}

/// A holiday's fields as the audit log keeps them.
fn holiday_fields(h: &Holiday) -> serde_json::Value {
    serde_json::json!({"name": h.name, "starts_on": h.starts_on, "ends_on": h.ends_on})
}

/// A notice's fields as the audit log keeps them.
fn notice_fields(n: &Notice) -> serde_json::Value {
    serde_json::json!({"title": n.title, "body": n.body, "starts_on": n.starts_on, "ends_on": n.ends_on})
}

fn notice_version(n: &Notice) -> String {
    version_of(&(&n.title, &n.body, &n.starts_on, &n.ends_on))
}

fn calendar(ctx: &mut Ctx) -> Result<Calendar, ApiError> {
    let today = domain::calendar::iso_date(ctx.config.now(None).date());
    let holidays = db::calendar::holidays(ctx.conn)?
        .into_iter()
        .map(|h| HolidayEdit {
            version: holiday_version(&h),
            past: h.ends_on < today,
            id: h.id,
            name: h.name,
            starts_on: h.starts_on,
            ends_on: h.ends_on,
        })
        .collect();
    let notices = db::calendar::notices(ctx.conn)?
        .into_iter()
        .map(|n| NoticeEdit {
            version: notice_version(&n),
            past: n.ends_on < today,
            id: n.id,
            title: n.title,
            body: n.body,
            starts_on: n.starts_on,
            ends_on: n.ends_on,
        })
        .collect();
    Ok(Calendar {
        holidays,
        notices,
        today,
    })
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/calendar`: every holiday and notice (managers).
    pub struct StaffCalendar = Get "/api/v1/staff/catalog/calendar" as "staffCalendar", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> Calendar,
    "Every holiday and notice, by first day (managers only).");

impl Endpoint for StaffCalendar {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<Calendar, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        calendar(ctx)
    }
}

/// A typed text's rule: its `field`, `what` the messages call it, at most `most` characters, and
/// whether line breaks are allowed (`lines`).
struct TextRule<'a> {
    field: &'static str,
    what: &'a str,
    most: usize,
    lines: bool,
}

/// A text of 1 to `most` characters (`lines`: line breaks allowed), trimmed, by the store's rule
/// for typed text (`domain::text::check`), or a message on `field`.
fn text(errors: &mut FieldErrors, rule: TextRule<'_>, given: Option<String>) -> String {
    let TextRule {
        field,
        what,
        most,
        lines,
    } = rule;
    let given = given.unwrap_or_default();
    match domain::text::check(&given, 1, most, lines) {
        Ok(t) => return t.to_string(),
        Err(domain::text::Problem::Characters) => errors
            .entry(field)
            .or_default()
            .push(domain::text::CHARACTERS.into()),
        Err(domain::text::Problem::Length) if given.trim().is_empty() => errors
            .entry(field)
            .or_default()
            .push(format!("Enter the {what}.")),
        Err(domain::text::Problem::Length) => errors
            .entry(field)
            .or_default()
            .push(format!("The {what} must be at most {most} characters.")),
    }
    String::new()
}

/// The first and last day, checked: real days, the last not before the first.
fn days(
    errors: &mut FieldErrors,
    starts_on: Option<String>,
    ends_on: Option<String>,
) -> (String, String) {
    let mut day = |field: &'static str, what: &str, text: Option<String>| {
        let text = text.unwrap_or_default().trim().to_string();
        if domain::calendar::parse_iso_date(&text).is_none() {
            errors
                .entry(field)
                .or_default()
                .push(format!("Give the {what} as a date, YYYY-MM-DD."));
        }
        text
    };
    let (starts, ends) = (
        day("starts_on", "first day", starts_on),
        day("ends_on", "last day", ends_on),
    );
    if errors.is_empty() && ends < starts {
        errors.entry("ends_on").or_default().push(format!(
            "The last day {ends} is before the first day {starts}."
        ));
    }
    (starts, ends)
}

/// Refused as stale: the record's version is not the one its form was opened with.
fn stale(now: &str, seen: Option<&str>) -> Result<(), ApiError> {
    if is_stale(now, seen) {
        return Err(ApiError::Conflict(STALE_MESSAGE.into()));
    }
    Ok(())
}

/// A holiday to add (no `id`) or change.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct HolidayForm {
    /// The holiday to change; left out: a new one.
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(nullable = false, minimum = 1, maximum = 2_147_483_647)]
    pub id: Option<i32>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = super::name_rule)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = framework::rules::day)]
    pub starts_on: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = framework::rules::day)]
    pub ends_on: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

fn body_rule() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::lines(MAX_BODY)
        .min_length(Some(1))
        .description(Some("What the home page says in its days (lines allowed)."))
}

/// The longest notice.
const MAX_BODY: usize = 1000;

/// What a change answers: every holiday and notice as they are now.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct CalendarSaved {
    pub calendar: Calendar,
    /// The holiday or notice added or changed (none: removed).
    pub id: Option<i32>,
}

framework::declare!(
    /// `POST /api/v1/staff/catalog/holidays`: adds a holiday, or changes one (managers); every
    /// app server follows within a second.
    pub struct StaffHolidaySave = Post "/api/v1/staff/catalog/holidays" as "staffHolidaySave", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<HolidayForm, true>) -> CalendarSaved,
    "Adds a holiday (no `id`) or changes one (managers only); recorded in the audit log.");

impl Endpoint for StaffHolidaySave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<CalendarSaved, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let mut errors = FieldErrors::new();
        let rule = TextRule {
            field: "name",
            what: "holiday's name",
            most: 200,
            lines: false,
        };
        let name = text(&mut errors, rule, f.name);
        let (starts_on, ends_on) = days(&mut errors, f.starts_on, f.ends_on);
        if !errors.is_empty() {
            return Err(ApiError::Fields(errors));
        }
        let after = serde_json::json!({"name": name, "starts_on": starts_on, "ends_on": ends_on});
        let put = |conn: &mut db::AnyConnection| {
            db::calendar::put_holiday(conn, f.id, &name, &starts_on, &ends_on)
        };
        let edited = Edited {
            id: f.id,
            version: f.version.as_deref(),
        };
        save(ctx, &by, &HOLIDAYS, edited, put, after)
    }
}

/// A notice to add (no `id`) or change.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct NoticeForm {
    /// The notice to change; left out: a new one.
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(nullable = false, minimum = 1, maximum = 2_147_483_647)]
    pub id: Option<i32>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = super::name_rule)]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = body_rule)]
    pub body: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = framework::rules::day)]
    pub starts_on: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = framework::rules::day)]
    pub ends_on: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

framework::declare!(
    /// `POST /api/v1/staff/catalog/notices`: adds a notice, or changes one (managers); the home
    /// page shows it in its days on every app server within a second.
    pub struct StaffNoticeSave = Post "/api/v1/staff/catalog/notices" as "staffNoticeSave", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<NoticeForm, true>) -> CalendarSaved,
    "Adds a notice (no `id`) or changes one (managers only); recorded in the audit log.");

impl Endpoint for StaffNoticeSave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<CalendarSaved, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let mut errors = FieldErrors::new();
        let rule = TextRule {
            field: "title",
            what: "notice's title",
            most: 200,
            lines: false,
        };
        let title = text(&mut errors, rule, f.title);
        // A browser sends a text area's lines ended by CR LF; the store keeps LF.
        let body = f.body.map(as_lines);
        let rule = TextRule {
            field: "body",
            what: "notice's words",
            most: MAX_BODY,
            lines: true,
        };
        let body = text(&mut errors, rule, body);
        let (starts_on, ends_on) = days(&mut errors, f.starts_on, f.ends_on);
        if !errors.is_empty() {
            return Err(ApiError::Fields(errors));
        }
        let after = serde_json::json!({"title": title, "body": body, "starts_on": starts_on, "ends_on": ends_on});
        let put = |conn: &mut db::AnyConnection| {
            db::calendar::put_notice(conn, f.id, &title, &body, &starts_on, &ends_on)
        };
        let edited = Edited {
            id: f.id,
            version: f.version.as_deref(),
        };
        save(ctx, &by, &NOTICES, edited, put, after)
    }
}

/// The holiday or notice to remove.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RemoveForm {
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(
        required = true,
        nullable = false,
        minimum = 1,
        maximum = 2_147_483_647
    )]
    pub id: Option<i32>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

framework::declare!(
    /// `POST /api/v1/staff/catalog/holidays/remove`: removes a holiday (managers).
    pub struct StaffHolidayRemove = Post "/api/v1/staff/catalog/holidays/remove" as "staffHolidayRemove", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<RemoveForm, true>) -> CalendarSaved,
    "Removes a holiday (managers only); recorded in the audit log.");

impl Endpoint for StaffHolidayRemove {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<CalendarSaved, ApiError> {
        remove(ctx, f, &HOLIDAYS)
    }
}

framework::declare!(
    /// `POST /api/v1/staff/catalog/notices/remove`: removes a notice (managers).
    pub struct StaffNoticeRemove = Post "/api/v1/staff/catalog/notices/remove" as "staffNoticeRemove", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<RemoveForm, true>) -> CalendarSaved,
    "Removes a notice (managers only); recorded in the audit log.");

impl Endpoint for StaffNoticeRemove {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<CalendarSaved, ApiError> {
        remove(ctx, f, &NOTICES)
    }
}

/// How the records of one kind (the holidays, the notices) are read, versioned, recorded and
/// removed.
struct CalendarRecords<R> {
    kind: &'static str,
    read: fn(&mut db::AnyConnection, i32) -> db::diesel::QueryResult<Option<R>>,
    version: fn(&R) -> String,
    fields: fn(&R) -> serde_json::Value,
    remove: fn(&mut db::AnyConnection, i32) -> db::diesel::QueryResult<bool>,
}

const HOLIDAYS: CalendarRecords<Holiday> = CalendarRecords {
    kind: "holiday",
    read: db::calendar::holiday,
    version: holiday_version,
    fields: holiday_fields,
    remove: db::calendar::remove_holiday,
};

const NOTICES: CalendarRecords<Notice> = CalendarRecords {
    kind: "notice",
    read: db::calendar::notice,
    version: notice_version,
    fields: notice_fields,
    remove: db::calendar::remove_notice,
};

/// The record a form saves: the one `id` names (none: a new one), and its `version` as the form
/// saw it.
struct Edited<'a> {
    id: Option<i32>,
    version: Option<&'a str>,
}

/// Adds the record (`id` none) or changes the one `id` names, unless its page is stale (`version`
/// as the form saw it): `put` writes it and answers its id; recorded as `{kind}.add` or
/// `{kind}.change` with the fields before and `after`.
fn save<R>(
    ctx: &mut Ctx,
    by: &db::team::StaffRow,
    records: &CalendarRecords<R>,
    edited: Edited<'_>,
    put: impl FnOnce(&mut db::AnyConnection) -> db::diesel::QueryResult<i32>,
    after: serde_json::Value,
) -> Result<CalendarSaved, ApiError> {
    let Edited { id, version } = edited;
    let kind = records.kind;
    let id = db::write_transaction(ctx.conn, |conn| -> Result<i32, ApiError> {
        let before = match id {
            Some(id) => {
                let record = (records.read)(conn, id)?
                    .ok_or_else(|| ApiError::NotFound(format!("No such {kind}.")))?;
                stale(&(records.version)(&record), version)?;
                Some((records.fields)(&record))
            }
            None => None,
        };
        let id = put(conn)?;
        let action = format!("{kind}.{}", if before.is_some() { "change" } else { "add" });
        entry(
            conn,
            Some(by),
            &action,
            &format!("{kind} {id}"),
            before,
            Some(after),
        )?;
        Ok(id)
    })?;
    Ok(CalendarSaved {
        calendar: calendar(ctx)?,
        id: Some(id),
    })
}

/// Removes the record the form names, unless its page is stale; recorded as `{kind}.remove`.
fn remove<R>(
    ctx: &mut Ctx,
    f: RemoveForm,
    records: &CalendarRecords<R>,
) -> Result<CalendarSaved, ApiError> {
    let by = signed_in_as(ctx, &[Role::Manager])?.member;
    let kind = records.kind;
    let id = f.id.ok_or_else(|| ApiError::Invalid {
        field: "id",
        message: format!("Choose the {kind} to remove."),
    })?;
    db::write_transaction(ctx.conn, |conn| -> Result<(), ApiError> {
        let record = (records.read)(conn, id)?
            .ok_or_else(|| ApiError::NotFound(format!("No such {kind}.")))?;
        stale(&(records.version)(&record), f.version.as_deref())?;
        (records.remove)(conn, id)?;
        let (action, subject) = (format!("{kind}.remove"), format!("{kind} {id}"));
        entry(
            conn,
            Some(&by),
            &action,
            &subject,
            Some((records.fields)(&record)),
            None,
        )?;
        Ok(())
    })?;
    Ok(CalendarSaved {
        calendar: calendar(ctx)?,
        id: None,
    })
}
