//! Erasing a guest's personal data on request (the Data Privacy Act's right to erasure), by a
//! manager: the guest is found by the email address or mobile number they ordered with, the
//! manager sees what would go (the guest orders found, how many and when, and their newsletter
//! signup) and confirms; the orders keep their rows for the books with their personal fields
//! blanked (`db::erasure`, as a deleted member's are) and the signup goes. Each erasure is in the
//! audit log (`guest.erase`: who, when, how many orders and which; never what was erased). The
//! command line's `store staff erase-guest` goes through [`erase`] too.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::*;
use db::erasure::{Found, Guest};
use framework::endpoint::{Args, Endpoint, Json, NoBody, NoParams};

framework::register!(StaffGuestData, StaffEraseGuest);

/// The longest contact a search takes (an email address's).
const CONTACT_MAX: usize = domain::email::MAX;

fn contact_rule() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::line(CONTACT_MAX)
}

/// What the search field says when it names neither an email address nor a mobile number.
pub const NEITHER: &str =
    "Type the guest's email address, or their mobile number (09 followed by 9 digits).";

/// The guest a contact names: an email address (with `@`) or a mobile number, as the store keeps
/// them (lower-cased; `09...` without spaces), or what is wrong with it.
pub fn guest_of(contact: &str) -> Result<Guest, String> {
    let contact = contact.trim();
    if contact.contains('@') {
        let email = domain::email::validate_email(contact).map_err(str::to_string)?;
        return Ok(Guest {
            email: Some(email),
            mobile: None,
        });
    }
    let mobile = domain::account::validate_mobile(contact).map_err(|_| NEITHER.to_string())?;
    Ok(Guest {
        email: None,
        mobile: Some(mobile),
    })
}

/// A guest order found, as the confirmation lists it (nothing personal).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GuestOrderFound {
    pub id: i64,
    /// `TB-000123`.
    pub number: String,
    pub status: String,
    pub status_label: String,
    /// Manila time, `YYYY-MM-DD HH:MM`.
    pub placed_at: String,
    /// Centavos.
    pub total: i64,
}

/// What erasing a guest would take.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GuestData {
    /// The contact searched, as the store keeps it (none: nothing searched yet, or a problem).
    pub contact: Option<String>,
    /// What is wrong with the contact typed, when it names neither an email nor a mobile number.
    pub problem: Option<String>,
    /// The guest orders whose contact has it, oldest first (members' orders are never listed:
    /// a member erases their data by deleting their account).
    pub orders: Vec<GuestOrderFound>,
    /// How many.
    pub count: i64,
    /// Newsletter signups that would be removed: the address searched or an address of these
    /// orders.
    pub newsletter: i64,
}

/// The confirmation's picture of what was found.
pub fn found_view(found: &Found) -> (Vec<GuestOrderFound>, i64) {
    let orders = found
        .orders
        .iter()
        .map(|o| GuestOrderFound {
            id: o.id,
            number: crate::orders::number(o.id),
            status_label: crate::orders::label(&o.status),
            status: o.status.clone(),
            placed_at: domain::calendar::manila_minute(o.placed_at),
            total: o.total,
        })
        .collect();
    (orders, found.newsletter.len() as i64)
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GuestQuery {
    /// The guest's email address or mobile number.
    #[param(schema_with = contact_rule)]
    pub contact: Option<String>,
}

/// A contact as a query or form sends it: a line of at most 254 characters (else a 400 naming
/// it), trimmed; none when empty.
fn contact_text(contact: Option<String>) -> Result<Option<String>, ApiError> {
    if contact
        .as_deref()
        .is_some_and(|t| t.chars().count() > CONTACT_MAX || t.chars().any(char::is_control))
    {
        return Err(ApiError::BadRequest(format!(
            "contact is at most {CONTACT_MAX} characters, without control characters."
        )));
    }
    Ok(contact
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty()))
}

framework::declare!(
    /// `GET /api/v1/staff/guest-data?contact=`: the guest orders an email address or mobile
    /// number would erase, and their newsletter signup (managers).
    pub struct StaffGuestData = Get "/api/v1/staff/guest-data" as "staffGuestData", Session, errors [400, 401, 404],
    (NoParams, GuestQuery, NoBody) -> GuestData,
    "What erasing a guest's personal data would take: their guest orders and newsletter signup (managers only).");

impl Endpoint for StaffGuestData {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<GuestData, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        let mut data = GuestData {
            contact: None,
            problem: None,
            orders: Vec::new(),
            count: 0,
            newsletter: 0,
        };
        let Some(contact) = contact_text(q.contact)? else {
            return Ok(data);
        };
        match guest_of(&contact) {
            Err(problem) => data.problem = Some(problem),
            Ok(guest) => {
                let found = db::erasure::find_guest(ctx.conn, &guest)?;
                (data.orders, data.newsletter) = found_view(&found);
                data.count = data.orders.len() as i64;
                data.contact = guest.email.or(guest.mobile);
            }
        }
        Ok(data)
    }
}

/// Erases a guest's personal data and records it for `by` (none: the command line), in one
/// transaction: answers what was erased.
pub fn erase(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    guest: &Guest,
) -> Result<Found, ApiError> {
    db::write_transaction(conn, |conn| -> Result<Found, ApiError> {
        let found = db::erasure::erase_guest(conn, guest)?;
        let searched = match (&guest.email, &guest.mobile) {
            (Some(_), Some(_)) => "email and mobile",
            (Some(_), None) => "email",
            _ => "mobile",
        };
        let ids: Vec<i64> = found.orders.iter().map(|o| o.id).collect();
        // Who and when are the entry's own; what was erased is never written here.
        let after = serde_json::json!({
            "searched_by": searched,
            "orders": ids.len(),
            "order_ids": ids,
            "newsletter_signups": found.newsletter.len(),
        });
        entry(conn, by, "guest.erase", "guest data", None, Some(after))?;
        Ok(found)
    })
}

/// Whose personal data to erase.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct EraseGuestForm {
    /// The guest's email address or mobile number, as searched.
    #[serde(default)]
    #[schema(required = true, schema_with = contact_rule)]
    pub contact: String,
}

/// What an erasure did.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct GuestErased {
    /// Guest orders whose personal fields were blanked.
    pub orders: i64,
    /// Newsletter signups removed.
    pub newsletter: i64,
    pub message: String,
}

framework::declare!(
    /// `POST /api/v1/staff/guest-data/erase`: blanks the personal fields of the guest orders of an
    /// email address or mobile number and removes their newsletter signup (managers); the orders
    /// stay for the books; recorded in the audit log.
    pub struct StaffEraseGuest = Post "/api/v1/staff/guest-data/erase" as "staffEraseGuest", Write, errors [400, 401, 404, 422],
    (NoParams, NoParams, Json<EraseGuestForm, true>) -> GuestErased,
    "Erases a guest's personal data from their orders and the newsletter (managers only); recorded in the audit log.");

impl Endpoint for StaffEraseGuest {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<GuestErased, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let contact = contact_text(Some(f.contact))?.unwrap_or_default();
        let guest = guest_of(&contact).map_err(|message| ApiError::Invalid {
            field: "contact",
            message,
        })?;
        let found = erase(ctx.conn, Some(&by), &guest)?;
        let (orders, newsletter) = (found.orders.len() as i64, found.newsletter.len() as i64);
        Ok(GuestErased {
            orders,
            newsletter,
            message: format!(
                "Erased: {orders} guest order(s) no longer hold a name, email, mobile, address or note, and {newsletter} newsletter signup(s) were removed."
            ),
        })
    }
}
