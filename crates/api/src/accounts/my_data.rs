//! "Download my data": what the store holds about a member (the Data Privacy Act's right of
//! access), behind the current password: the profile, saved addresses, every order with its
//! items, totals, statuses, contact and delivery details, the Go-to Cases, the newsletter's state
//! and each live session's times (never a token or its hash). The password is checked as every
//! sensitive change checks it (`profile::confirm_password`: 5 tries in 10 minutes a member, the
//! hash verified on the blocking thread that runs the call). The answer is the member's own:
//! `private, no-store`, like every call that is not public. The page `/my-account/my-data`
//! shows it ([`super::my_data_form`] answers its form without JavaScript, as the page or as a file).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::addresses::AddressView;
use crate::goto_cases::GotoCaseView;
use crate::orders::OrderView;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;

framework::register!(DownloadMyData);

/// What the data download takes.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct MyDataForm {
    /// The member's current password.
    #[serde(default)]
    #[schema(required = true)]
    pub current_password: String,
}

/// The member's profile as stored (the password only as whether one was chosen).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct MyProfile {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub mobile: String,
    /// `YYYY-MM-DD`.
    pub birth_date: String,
    /// Whether they accepted the website policy.
    pub policy_agreement_accepted: bool,
    /// Whether they chose a password (an account a social provider made has none of its own).
    pub password_set: bool,
    /// When the account was made, Manila time (`YYYY-MM-DD HH:MM`).
    pub created_at: String,
}

/// The newsletter's state for the member's email address.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct MyNewsletter {
    /// `subscribed`, `waiting` (its confirmation link not yet followed) or `not subscribed`.
    pub status: String,
    /// When the address signed up, as stored; none when it did not.
    pub signed_up_at: Option<String>,
    /// When the signup was confirmed, as stored.
    pub confirmed_at: Option<String>,
}

/// A live session of the member (a device or browser logged in): its times, never its token.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct MySession {
    /// When it began (the login), Manila time (`YYYY-MM-DD HH:MM`).
    pub began_at: String,
    /// When it was last used, to the half hour: a session is renewed when used with less than
    /// half its hour left, and this is its last renewal. Manila time.
    pub last_used_at: String,
    /// When it ends unless used again, Manila time.
    pub expires_at: String,
    /// It is the session that asked for this copy.
    pub this_session: bool,
}

/// Everything the store holds about the member.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct MyData {
    /// When this copy was made, Manila time (`YYYY-MM-DD HH:MM`).
    pub made_at: String,
    pub profile: MyProfile,
    /// Saved addresses, newest first.
    pub addresses: Vec<AddressView>,
    /// Every order, newest first, with its items, totals, status history, contact and address.
    pub orders: Vec<OrderView>,
    /// Go-to Cases at today's prices.
    pub goto_cases: Vec<GotoCaseView>,
    pub newsletter: MyNewsletter,
    /// The sessions that have not ended, oldest first.
    pub sessions: Vec<MySession>,
}

framework::declare!(
    /// `POST /api/v1/user/my-data` (body `current_password`): everything the store holds about
    /// the member; a wrong password is refused on its field, 5 tries in 10 minutes.
    pub struct DownloadMyData = Post "/api/v1/user/my-data" as "myData", Write, errors [401, 422, 429],
    (NoParams, NoParams, Json<MyDataForm, true>) -> MyData,
    "Everything the store holds about the member: profile, addresses, orders, Go-to Cases, newsletter, sessions (with the current password).");

impl Endpoint for DownloadMyData {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MyData, ApiError> {
        let user = ctx.member()?;
        crate::profile::confirm_password(ctx, &user, &f.current_password)?;
        collect(ctx, user)
    }
}

/// What the store holds about `user`, read now.
fn collect(ctx: &mut Ctx, user: db::users::UserRow) -> Result<MyData, ApiError> {
    let minute = domain::calendar::manila_minute;
    let now = domain::calendar::unix_now();
    let addresses = db::addresses::addresses_of(ctx.conn, user.id, None)?
        .into_iter()
        .map(AddressView::from)
        .collect();
    let (rows, _) = db::orders::of_member(ctx.conn, user.id, 0, i64::MAX)?;
    let mut orders = Vec::with_capacity(rows.len());
    for row in rows {
        if let Some(full) = db::orders::full(ctx.conn, row.id)? {
            orders.push(OrderView::from(full));
        }
    }
    let pricing = crate::cart::pricing::Pricing::load(ctx)?;
    let cases = db::goto_cases::list(ctx.conn, user.id)?;
    let goto_cases = crate::goto_cases::views(ctx, &pricing, &cases, None)?;
    let newsletter = match db::erasure::subscription(ctx.conn, &user.email)? {
        None => MyNewsletter {
            status: "not subscribed".into(),
            signed_up_at: None,
            confirmed_at: None,
        },
        Some(s) => MyNewsletter {
            status: if s.confirmed_at.is_some() {
                "subscribed"
            } else {
                "waiting"
            }
            .into(),
            signed_up_at: Some(s.created_at),
            confirmed_at: s.confirmed_at,
        },
    };
    let current = ctx.token().map(|t| framework::session::hash(&t));
    let sessions = db::erasure::sessions_of(ctx.conn, user.id, now, current.as_deref())?
        .into_iter()
        .map(|s| MySession {
            began_at: minute(s.created_at),
            last_used_at: minute(s.expires_at - framework::session::TTL_SECS),
            expires_at: minute(s.expires_at),
            this_session: s.current,
        })
        .collect();
    Ok(MyData {
        made_at: minute(now),
        profile: MyProfile {
            first_name: user.first_name,
            last_name: user.last_name,
            email: user.email,
            mobile: user.mobile,
            birth_date: user.birth_date,
            policy_agreement_accepted: user.policy_agreement_accepted,
            password_set: user.password_set,
            created_at: minute(user.created_at),
        },
        addresses,
        orders,
        goto_cases,
        newsletter,
        sessions,
    })
}
