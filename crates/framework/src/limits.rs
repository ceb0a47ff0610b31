//! How many tries a client gets: a client is an address (IPv4, or an IPv6 /64), and
//! an address is often many shoppers: behind the store's reverse proxy every shopper would be the
//! proxy were its `X-Forwarded-For` not read (`TRUSTED_PROXIES`), and Philippine mobile networks
//! put whole neighbourhoods behind one carrier-grade NAT address. So the limits per client are
//! sized for a shared address, to stop floods, not people; the tight limits that protect accounts
//! and mailboxes count per account and per email address (login failures per account and client,
//! 3 mails an address an hour, profile changes per member). Windows are in seconds.

/// Pre-registrations a client may send in [`WINDOW`].
pub const PRE_REGISTER: i32 = 100;
/// Registrations (finishing from the mailed link) a client may send in [`WINDOW`].
pub const REGISTRATION: i32 = 100;
/// Logins a client may try in [`WINDOW`], whatever the account (each account's failures have
/// their own, tight limit).
pub const LOGIN: i32 = 300;
/// Newsletter signups a client may send in [`WINDOW`].
pub const NEWSLETTER: i32 = 100;
/// Newsletter confirmations a client may send in [`WINDOW`].
pub const NEWSLETTER_CONFIRM: i32 = 200;
/// Reset links a client may ask for in [`WINDOW`].
pub const RESET_LINK: i32 = 100;
/// Password resets a client may send in [`WINDOW`].
pub const RESET_PASSWORD: i32 = 100;
/// Guest sessions a client may start in [`WINDOW`].
pub const GUEST_SESSIONS: i32 = 1000;
/// Profile changes a client may send in an hour (a member's own: 10 an hour).
pub const PROFILE: i32 = 300;
/// The window of the per-client limits above but the profile's: ten minutes.
pub const WINDOW: i64 = 600;
/// Mails one email address may be sent by one kind of request in [`MAIL_WINDOW`] (a link to
/// register, to reset a password, to confirm a newsletter signup): the store must not become a
/// way to flood a stranger's mailbox.
pub const MAILS_PER_ADDRESS: i32 = 3;
/// The window of [`MAILS_PER_ADDRESS`]: an hour.
pub const MAIL_WINDOW: i64 = 3600;
