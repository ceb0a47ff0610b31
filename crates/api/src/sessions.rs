//! Guest sessions: `POST /api/v1/guest-token` starts one (the session itself is the framework's,
//! `framework::session`).

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use framework::endpoint::{Args, Ctx, Endpoint, NoBody, NoParams};
use framework::error::ApiError;
use framework::session::TTL_SECS;

framework::register!(GuestToken);

/// `POST /api/v1/guest-token`: a guest session; the token is in the `access-token` header (and the
/// HttpOnly cookie for browsers).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct TokenAnswer {
    /// Always "Bearer".
    pub token_type: String,
    /// Seconds the token lives without use.
    pub expires_in: i64,
}

framework::declare!(
    pub struct GuestToken = Post "/api/v1/guest-token" as "guestToken", Write, errors [429],
    (NoParams, NoParams, NoBody) -> TokenAnswer, "Starts a guest session; the token comes in the access-token header.");

impl Endpoint for GuestToken {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<TokenAnswer, ApiError> {
        ctx.start_guest_session()?;
        Ok(TokenAnswer {
            token_type: "Bearer".into(),
            expires_in: TTL_SECS,
        })
    }
}
