//! Sessions (README.md, "Security"): a token of 256 random bits that the client holds, stored
//! only as its SHA-256, for a guest or a member, with a 60-minute sliding expiry. Browsers carry
//! it in an HttpOnly cookie, API clients as `Authorization: Bearer`; a new or extended token
//! comes back in the `access-token` header. Sessions live in the database, so every app server
//! shares them.

use base64::Engine as _;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::endpoint::{Ctx, Issued};
use crate::error::ApiError;

/// How long a session lives without use.
pub const TTL_SECS: i64 = 60 * 60;
/// A session is extended (one write) once less than this is left.
pub const EXTEND_BELOW: i64 = TTL_SECS / 2;
/// The cookie browsers carry the token in.
pub const COOKIE: &str = "session";
/// The header a new or extended token comes back in.
pub const HEADER: &str = "access-token";
/// A hint, not a credential: set beside a member's session cookie and cleared with it, so that a
/// guest's page request (without it) is answered from the shared page cache without a session
/// lookup. Pages always check the session itself before showing anything of a member.
pub const MEMBER_COOKIE: &str = "member";
/// Guest sessions one client may start in ten minutes.
pub const STARTS_PER_CLIENT: i32 = crate::limits::GUEST_SESSIONS;

/// A live session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub user_id: Option<i64>,
    pub expires_at: i64,
}

/// The CSRF token of the no-JS forms of a session: derived from its token, so it needs no storage
/// and no server secret, and another site can neither read nor guess it.
pub fn csrf_token(token: &str) -> String {
    let digest = Sha256::digest(format!("csrf:{token}").as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..24])
}

/// A new token: 256 random bits, base64url without padding (43 characters).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What is stored of a token.
pub fn hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

use domain::calendar::unix_now as now;

impl Ctx<'_> {
    /// Starts a session (a guest's when `user_id` is `None`); its token goes back with the answer.
    pub fn start_session(&mut self, user_id: Option<i64>) -> Result<String, ApiError> {
        let token = new_token();
        let now = now();
        db::sessions::create_session(self.conn, &hash(&token), user_id, now, now + TTL_SECS)?;
        // From here on, the request's session is this one.
        self.set_token(Some(token.clone()));
        self.issued = Some(Issued {
            token: token.clone(),
            member: user_id.is_some(),
        });
        Ok(token)
    }

    /// Starts a guest session, within [`STARTS_PER_CLIENT`] a client in ten minutes (429 past it).
    pub fn start_guest_session(&mut self) -> Result<(), ApiError> {
        let client = self.client_key();
        self.limit(
            "guest token",
            &client,
            STARTS_PER_CLIENT,
            crate::limits::WINDOW,
        )?;
        self.start_session(None).map(|_| ())
    }

    /// The live session of the request and its member, if any: the one way from a session to a
    /// member.
    pub fn session_member(
        &mut self,
    ) -> Result<(Option<Session>, Option<db::users::UserRow>), ApiError> {
        let session = self.session()?;
        let member = match session.as_ref().and_then(|s| s.user_id) {
            Some(id) => db::users::user(self.conn, domain::UserId::from_db(id))?,
            None => None,
        };
        Ok((session, member))
    }

    /// The logged-in member, or 401.
    pub fn member(&mut self) -> Result<db::users::UserRow, ApiError> {
        self.session_member()?.1.ok_or(ApiError::Unauthenticated)
    }

    /// Starts a guest session for a visitor without a live one; past the guest-session limit the
    /// visitor goes on without (`false`).
    pub fn start_guest_if_allowed(&mut self) -> Result<bool, ApiError> {
        match self.start_guest_session() {
            Ok(()) => Ok(true),
            Err(ApiError::TooMany(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The session of the token the request presented, if it is live; extended (and its token
    /// sent back) once less than half its life is left.
    pub fn session(&mut self) -> Result<Option<Session>, ApiError> {
        let Some(token) = self.token() else {
            return Ok(None);
        };
        // A token of another shape was never ours: no lookup.
        if token.len() != 43
            || !token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Ok(None);
        }
        let h = hash(&token);
        let now = now();
        let Some(row) = db::sessions::live_session(self.conn, &h, now)? else {
            return Ok(None);
        };
        let mut expires_at = row.expires_at;
        if row.expires_at - now < EXTEND_BELOW {
            expires_at = now + TTL_SECS;
            db::sessions::extend_session(self.conn, &h, expires_at)?;
            self.issued = Some(Issued {
                token,
                member: row.user_id.is_some(),
            });
        }
        Ok(Some(Session {
            user_id: row.user_id,
            expires_at,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_256_random_bits_stored_as_their_hash() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert_eq!(hash(&a).len(), 64);
        assert_ne!(hash(&a), a);
        assert_eq!(hash(&a), hash(&a.clone()));
    }
}
