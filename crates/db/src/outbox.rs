//! The mail queue: calls write their messages here with their other work; a sender
//! claims due messages for a while (a lease), delivers them and deletes them, or puts them back
//! for a later attempt. A sender that dies mid-way loses nothing: its lease runs out and another
//! claim takes the message again. App servers sharing the database share the queue.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// A message to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail<'a> {
    pub recipient: &'a str,
    pub subject: &'a str,
    pub text_body: &'a str,
    pub html_body: &'a str,
}

/// A queued message, as a sender claims it.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct QueuedMail {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub id: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub recipient: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub subject: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub text_body: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub html_body: String,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pub attempts: i32,
    /// Until when this claim holds: the sender's receipt ([`delivered`], [`failed`]).
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub claimed_until: i64,
}

/// Queues messages, due at once.
pub fn enqueue(conn: &mut AnyConnection, mails: &[NewMail], now: i64) -> QueryResult<()> {
    let rows: Vec<_> = mails
        .iter()
        .map(|m| {
            (
                mail_outbox::recipient.eq(m.recipient),
                mail_outbox::subject.eq(m.subject),
                mail_outbox::text_body.eq(m.text_body),
                mail_outbox::html_body.eq(m.html_body),
                mail_outbox::created_at.eq(now),
                mail_outbox::next_attempt_at.eq(now),
            )
        })
        .collect();
    // One statement per message: SQLite's diesel backend inserts batches row by row anyway.
    for row in rows {
        diesel::insert_into(mail_outbox::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// Claims up to `limit` due messages for `lease` seconds, oldest first. The claim is one
/// statement whose condition is checked again on each row it takes, so two senders never take
/// the same message.
pub fn claim(
    conn: &mut AnyConnection,
    now: i64,
    lease: i64,
    limit: i64,
) -> QueryResult<Vec<QueuedMail>> {
    use diesel::sql_types::BigInt;
    const CLAIM: &str = "UPDATE mail_outbox SET claimed_until = $1 \
        WHERE id IN (SELECT id FROM mail_outbox WHERE next_attempt_at <= $2 \
            AND (claimed_until IS NULL OR claimed_until <= $2) ORDER BY id LIMIT $3) \
        AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2) \
        RETURNING id, recipient, subject, text_body, html_body, attempts, claimed_until";
    let mut rows: Vec<QueuedMail> = match conn {
        AnyConnection::Postgresql(c) => diesel::sql_query(CLAIM)
            .bind::<BigInt, _>(now + lease)
            .bind::<BigInt, _>(now)
            .bind::<BigInt, _>(limit)
            .load(c)?,
        AnyConnection::Sqlite(c) => diesel::sql_query(
            CLAIM
                .replace("$1", "?1")
                .replace("$2", "?2")
                .replace("$3", "?3"),
        )
        .bind::<BigInt, _>(now + lease)
        .bind::<BigInt, _>(now)
        .bind::<BigInt, _>(limit)
        .load(c)?,
    };
    rows.sort_by_key(|m| m.id);
    Ok(rows)
}

/// A message was delivered: it leaves the queue. Only the claim that took it (`claimed_until`)
/// counts; answers whether it still held.
pub fn delivered(conn: &mut AnyConnection, m: &QueuedMail) -> QueryResult<bool> {
    diesel::delete(
        mail_outbox::table
            .find(m.id)
            .filter(mail_outbox::claimed_until.eq(m.claimed_until)),
    )
    .execute(conn)
    .map(|n| n == 1)
}

/// A delivery failed: the message waits until `retry_at` for another attempt (only the claim
/// that took it counts).
pub fn failed(
    conn: &mut AnyConnection,
    m: &QueuedMail,
    retry_at: i64,
    error: &str,
) -> QueryResult<()> {
    diesel::update(
        mail_outbox::table
            .find(m.id)
            .filter(mail_outbox::claimed_until.eq(m.claimed_until)),
    )
    .set((
        mail_outbox::attempts.eq(mail_outbox::attempts + 1),
        mail_outbox::next_attempt_at.eq(retry_at),
        mail_outbox::claimed_until.eq(None::<i64>),
        mail_outbox::last_error.eq(error),
    ))
    .execute(conn)
    .map(|_| ())
}

/// A claimed message not tried after all (the sender is stopping): due again at once for the
/// next claim, with no attempt counted (only the claim that took it counts).
pub fn release(conn: &mut AnyConnection, m: &QueuedMail) -> QueryResult<()> {
    diesel::update(
        mail_outbox::table
            .find(m.id)
            .filter(mail_outbox::claimed_until.eq(m.claimed_until)),
    )
    .set(mail_outbox::claimed_until.eq(None::<i64>))
    .execute(conn)
    .map(|_| ())
}

/// How many messages wait (sent or not yet due).
pub fn waiting(conn: &mut AnyConnection) -> QueryResult<i64> {
    mail_outbox::table.count().get_result(conn)
}
