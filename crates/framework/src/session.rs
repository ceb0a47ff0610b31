//! Sessions (docs/security.md): a token of 256 bits that the client holds, stored only as
//! its SHA-256, for a guest or a member, with a 60-minute sliding expiry. The token's first 64
//! bits are the session's id ([`db::sessions::new_id`]: its start and 20 random bits), by which
//! it is found; the other 192 are random, and the whole token must hash to what is stored.
//! Browsers carry it in an HttpOnly cookie, API clients as `Authorization: Bearer`; a new or
//! extended token comes back in the `access-token` header. Sessions live in the database, so
//! every app server shares them.

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
/// The header that names, on a shop page filled for a shopper, whose session it was filled for:
/// a hash of the session's CSRF token (and the member's name), empty for a visitor without a
/// session. The service worker throws away the pages it kept for one session when a page comes
/// filled for another (`ui/src/features/offline`).
pub const PAGE_SESSION_HEADER: &str = "x-session";
/// The header that says, on a shop page filled for a member, in how many seconds their session
/// ends unless it is used again: their worker shows none of their kept pages after that, since the
/// next person at the phone would see the member's name and cart.
pub const PAGE_SESSION_ENDS_HEADER: &str = "x-session-ends-in";

crate::export_const!(
    /// The headers a shop page filled for a shopper names their session by, and says when a
    /// member's ends (seconds from the answer).
    PAGE_SESSION_HEADERS = serde_json::json!({
        "session": PAGE_SESSION_HEADER,
        "endsIn": PAGE_SESSION_ENDS_HEADER,
    })
);

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

/// What is stored of a token: its SHA-256 in lowercase hex. Asked on every page of a shopper
/// with a cart (the cart's key), so written in one go rather than a string per byte (which
/// took about 3% of such a page's time in `perf`).
pub fn hash(token: &str) -> String {
    format!("{:x}", Sha256::digest(token.as_bytes()))
}

/// A new session's id and token: the id's 8 bytes (big-endian) and 24 random bytes, base64url
/// without padding (43 characters, the shape of every token).
fn new_session_token(now_millis: i64) -> (i64, String) {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let random = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let id = db::sessions::new_id(now_millis, random);
    bytes[..8].copy_from_slice(&id.to_be_bytes());
    (
        id,
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes),
    )
}

/// A new token that carries an id as a session's does (its time and random bits, then 24 random
/// bytes): for tokens whose rows are kept in the order they were made (a guest's cart).
pub fn new_keyed_token() -> String {
    new_session_token(domain::calendar::unix_millis()).1
}

/// The session id a token carries: `None` for a token of another shape, which was never ours
/// (no lookup).
pub fn token_id(token: &str) -> Option<i64> {
    if token.len() != 43 {
        return None;
    }
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(token)
        .ok()?;
    let id = i64::from_be_bytes(bytes.get(..8)?.try_into().ok()?);
    (id > 0).then_some(id)
}

use domain::calendar::unix_now as now;

impl Ctx<'_> {
    /// Starts a session (a guest's when `user_id` is `None`); its token goes back with the answer.
    pub fn start_session(&mut self, user_id: Option<i64>) -> Result<String, ApiError> {
        let millis = domain::calendar::unix_millis();
        let now = millis / 1000;
        // Another session started in the same millisecond with the same random bits is rare (one
        // in a million such pairs): another id, a few times at most.
        let mut made = None;
        for _ in 0..8 {
            let (id, token) = new_session_token(millis);
            if db::sessions::create_session(
                self.conn,
                id,
                &hash(&token),
                user_id,
                now,
                now + TTL_SECS,
            )? {
                made = Some(token);
                break;
            }
        }
        let token = made.ok_or_else(|| ApiError::Internal("no free session id".into()))?;
        // From here on, the request's session is this one.
        self.set_token(Some(token.clone()));
        self.issued = Some(Issued {
            token: token.clone(),
            member: user_id.is_some(),
        });
        Ok(token)
    }

    /// Ends the session the request presented, if its token is one of ours (logging out, or a
    /// member's session starting in its place).
    pub fn end_session(&mut self) -> Result<(), ApiError> {
        if let Some((id, token)) = self.token().and_then(|t| Some((token_id(&t)?, t))) {
            db::sessions::end_session(self.conn, id, &hash(&token))?;
        }
        Ok(())
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
        let Some(id) = token_id(&token) else {
            return Ok(None);
        };
        let now = now();
        let Some(row) = db::sessions::live_session(self.conn, id, &hash(&token), now)? else {
            return Ok(None);
        };
        let mut expires_at = row.expires_at;
        if row.expires_at - now < EXTEND_BELOW {
            expires_at = now + TTL_SECS;
            db::sessions::extend_session(self.conn, id, expires_at)?;
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
        // SHA-256 of "abc" (FIPS 180-2's example), as stored: lowercase hex.
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_session_token_carries_its_id_and_nothing_else_does() {
        let now = 1_795_000_000_000;
        let (id, token) = new_session_token(now);
        assert_eq!(token.len(), 43);
        assert_eq!(token_id(&token), Some(id));
        assert_eq!(id >> db::sessions::ID_RANDOM_BITS, now);
        let (other, again) = new_session_token(now);
        assert_ne!(token, again, "the secret part is random");
        assert_eq!(other >> db::sessions::ID_RANDOM_BITS, now);
        // Other shapes: no id, no lookup.
        for not_ours in [
            String::new(),
            "x".repeat(42),
            "!".repeat(43),
            format!("{token}="),
            // The first bit set: a negative id.
            format!("_{}", &token[1..]),
            // Eight zero bytes: id 0.
            format!("AAAAAAAAAAA{}", &token[11..]),
        ] {
            assert_eq!(token_id(&not_ours), None, "{not_ours}");
        }
    }
}
