//! The member as pages and the UI see them: `GET /api/v1/user` and the pages' viewer.

use super::*;

framework::register!(User);

framework::declare!(
    pub struct User = Get "/api/v1/user" as "user", Session, errors [],
    (NoParams, NoParams, NoBody) -> UserAnswer, "The member; guests get 401 with the policy texts (and a guest token).", also [401]);

impl Endpoint for User {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<UserAnswer, ApiError> {
        let (session, member) = ctx.session_member()?;
        if let Some(u) = member {
            return member_answer(ctx, u);
        }
        // A 401 that carries a new token lets the client store it. A visitor without a
        // live session gets a guest one (within the same limit as POST /guest-token).
        if session.is_none() {
            ctx.start_guest_if_allowed()?;
        }
        Ok(UserAnswer::Guest {
            error: "Unauthenticated.".into(),
            data: GuestUser {
                policy_agreement_accepted: false,
                policy_agreement_text: text(ctx.conn, "policy_agreement")?,
                term_and_condition_text: text(ctx.conn, "terms_and_conditions")?,
                about_us_text: text(ctx.conn, "about_us")?,
            },
        })
    }

    fn status(answer: &UserAnswer) -> u16 {
        match answer {
            UserAnswer::Member { .. } => 200,
            UserAnswer::Guest { .. } => 401,
        }
    }
}

/// What a page shows of a member: the first name in the header, and whether the policy was
/// accepted (then the policy modal never opens).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, Hash)]
pub struct MemberView {
    #[serde(skip)]
    pub id: domain::UserId,
    pub firstname: String,
    pub policy_agreement_accepted: bool,
}

/// Who asks for a page.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    pub member: Option<MemberView>,
    /// The live session's token (the presented one, or one just started): the page's calls and
    /// its forms' CSRF token come from it.
    pub token: Option<String>,
    /// A token to send back (just started, or extended).
    pub issued: Option<framework::endpoint::Issued>,
    /// A token was presented that is no longer live: its cookies are cleared.
    pub stale: bool,
    /// When the presented session ends unless it is used again (unix seconds).
    pub ends_at: Option<i64>,
}

/// The viewer of the presented session; with `start`, a visitor without a live session gets a
/// guest one (pages with forms need it for their CSRF token; past the guest-session limit the
/// page shows without one).
pub fn viewer(ctx: &mut Ctx, start: bool) -> Result<Viewer, ApiError> {
    let (session, member) = ctx.session_member()?;
    let member = member.map(|u| MemberView {
        id: u.id,
        firstname: u.first_name,
        policy_agreement_accepted: u.policy_agreement_accepted,
    });
    let presented = ctx.token();
    let stale = presented.is_some() && session.is_none();
    let mut token = session.as_ref().and(presented);
    if session.is_none() && start && ctx.start_guest_if_allowed()? {
        token = ctx.issued.as_ref().map(|i| i.token.clone());
    }
    let issued = ctx.issued.take();
    Ok(Viewer {
        member,
        token,
        stale: stale && issued.is_none(),
        issued,
        ends_at: session.map(|s| s.expires_at),
    })
}
