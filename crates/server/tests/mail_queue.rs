//! The mail queue on SQLite and PostgreSQL: a call's mail waits in the database, not in the
//! request; the sender thread delivers it; a failed delivery is retried later with its error kept;
//! a sender that dies holding messages loses none (its claim runs out); two senders never take the
//! same message.

use crate::support;

use std::time::Duration;

use actix_web::test::TestRequest;
use db::outbox::{self, NewMail};
use support::{database, post_to, Backend};

fn files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

fn queue(conn: &mut db::AnyConnection, to: &str, now: i64) {
    outbox::enqueue(
        conn,
        &[NewMail {
            recipient: to,
            subject: "Hello",
            text_body: "Hello",
            html_body: "<p>Hello</p>",
        }],
        now,
    )
    .unwrap();
}

/// A call queues its mail and answers; the sender thread, woken, writes it to the outbox.
async fn a_calls_mail_leaves_through_the_sender(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = support::store_config(&db.url, false);
    cfg.mail_outbox = dir.path().to_path_buf();
    let mut api = server::api_state(db.pool.clone(), &cfg).unwrap();
    let queued = || {
        let mut conn = db.pool.get().unwrap();
        outbox::waiting(&mut conn).unwrap()
    };
    // Without a sender the mail waits in the queue: the request did not send it.
    let state = actix_web::web::Data::new(api.clone());
    let app = actix_web::test::init_service(
        actix_web::App::new()
            .app_data(state)
            .configure(framework::configure),
    )
    .await;
    let reset = |email: &str| {
        TestRequest::post()
            .uri("/api/v1/reset/password/get-link")
            .set_json(serde_json::json!({ "email": email }))
            .to_request()
    };
    let r = support::call(&app, reset("nobody@example.com")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!((queued(), files(dir.path())), (1, 0));
    // With the sender started, the next call wakes it and both leave.
    api.start_mail().unwrap();
    let state = actix_web::web::Data::new(api);
    let app = actix_web::test::init_service(
        actix_web::App::new()
            .app_data(state)
            .configure(framework::configure),
    )
    .await;
    let r = support::call(&app, reset("someone@example.com")).await;
    assert_eq!(r.status, 200);
    // The sender writes a mail's file, then takes it off the queue: wait for both.
    for _ in 0..200 {
        if (queued(), files(dir.path())) == (0, 2) {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!((queued(), files(dir.path())), (0, 2));
}
both!(a_calls_mail_leaves_through_the_sender);

/// A stopped sender (the server is shutting down) ends its thread at once when idle; mail queued
/// after it stopped stays in the database for the next start, and a sender started then sends it.
async fn a_stopped_sender_leaves_the_queue_for_the_next_start(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let sender =
        framework::mail::Sender::start(db.pool.clone(), std::sync::Arc::new(post_to(dir.path())))
            .unwrap();
    let start = std::time::Instant::now();
    assert!(sender.stop(Duration::from_secs(5)), "the sender stopped");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert!(
        sender.stop(Duration::ZERO),
        "stopping again answers at once"
    );
    let mut conn = db.pool.get().unwrap();
    queue(&mut conn, "ana@example.com", domain::calendar::unix_now());
    sender.wake();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        (outbox::waiting(&mut conn).unwrap(), files(dir.path())),
        (1, 0)
    );
    let next =
        framework::mail::Sender::start(db.pool.clone(), std::sync::Arc::new(post_to(dir.path())))
            .unwrap();
    next.wake();
    for _ in 0..200 {
        if files(dir.path()) == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert_eq!(
        (outbox::waiting(&mut conn).unwrap(), files(dir.path())),
        (0, 1)
    );
    assert!(next.stop(Duration::from_secs(5)));
}
both!(a_stopped_sender_leaves_the_queue_for_the_next_start);

/// A failed delivery stays queued with its error and a later attempt; it leaves once the mail
/// server answers.
async fn a_failed_delivery_is_retried(b: Backend) {
    let db = database(b);
    let mut conn = db.pool.get().unwrap();
    let now = 1_000_000;
    queue(&mut conn, "juan@example.com", now);
    // Nothing listens on port 9 of the loopback: the SMTP server is down.
    let down = framework::mail::Post::new(
        std::path::PathBuf::new(),
        Some("smtp://127.0.0.1:9"),
        "Tala Brewing Co. <hello@tala.example>",
    )
    .unwrap();
    assert_eq!(
        framework::mail::deliver_due(&db.pool, &down, &|| now).unwrap(),
        0
    );
    use db::schema::mail_outbox::dsl::*;
    use diesel::prelude::*;
    let (tries, next, error): (i32, i64, Option<String>) = mail_outbox
        .select((attempts, next_attempt_at, last_error))
        .first(&mut conn)
        .unwrap();
    assert_eq!((tries, next), (1, now + framework::mail::retry_delay(0)));
    assert!(error.is_some_and(|e| !e.is_empty()));
    // Not due yet: nothing is tried.
    let dir = tempfile::tempdir().unwrap();
    let up = post_to(dir.path());
    assert_eq!(
        framework::mail::deliver_due(&db.pool, &up, &|| now + 1).unwrap(),
        0
    );
    // Due, and the server is up.
    assert_eq!(
        framework::mail::deliver_due(&db.pool, &up, &|| next).unwrap(),
        1
    );
    assert_eq!(outbox::waiting(&mut conn).unwrap(), 0);
    assert_eq!(files(dir.path()), 1);
}
both!(a_failed_delivery_is_retried);

/// A sender that claimed messages and died (a crash) loses none: once its claim runs out another
/// takes them; while it holds them, nobody else does (no mail is sent twice).
async fn a_crashed_senders_mail_is_not_lost_nor_sent_twice(b: Backend) {
    let db = database(b);
    let mut conn = db.pool.get().unwrap();
    let now = 2_000_000;
    for n in 0..3 {
        queue(&mut conn, &format!("member{n}@example.com"), now);
    }
    // The first sender claims everything, then dies before sending.
    let claimed = outbox::claim(&mut conn, now, 300, 20).unwrap();
    assert_eq!(claimed.len(), 3);
    // A second sender finds nothing to take while the claim holds.
    assert!(outbox::claim(&mut conn, now + 299, 300, 20)
        .unwrap()
        .is_empty());
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        framework::mail::deliver_due(&db.pool, &post_to(dir.path()), &|| now + 299).unwrap(),
        0
    );
    // Once it runs out, every message leaves, once.
    assert_eq!(
        framework::mail::deliver_due(&db.pool, &post_to(dir.path()), &|| now + 300).unwrap(),
        3
    );
    assert_eq!(files(dir.path()), 3);
    assert_eq!(
        framework::mail::deliver_due(&db.pool, &post_to(dir.path()), &|| now + 900).unwrap(),
        0
    );
}
both!(a_crashed_senders_mail_is_not_lost_nor_sent_twice);

/// Two senders claiming at once (threads, each its own connection) split the queue: every
/// message is taken by exactly one.
async fn concurrent_claims_take_each_message_once(b: Backend) {
    let db = database(b);
    let now = 3_000_000;
    {
        let mut conn = db.pool.get().unwrap();
        for n in 0..40 {
            queue(&mut conn, &format!("m{n}@example.com"), now);
        }
    }
    let takers: Vec<_> = (0..2)
        .map(|_| {
            let pool = db.pool.clone();
            std::thread::spawn(move || {
                let mut conn = pool.get().unwrap();
                let mut ids = vec![];
                loop {
                    let batch = outbox::claim(&mut conn, now, 300, 3).unwrap();
                    if batch.is_empty() {
                        return ids;
                    }
                    ids.extend(batch.into_iter().map(|m| m.id));
                }
            })
        })
        .collect();
    let mut all: Vec<i64> = takers.into_iter().flat_map(|t| t.join().unwrap()).collect();
    all.sort_unstable();
    let before = all.len();
    all.dedup();
    assert_eq!((before, all.len()), (40, 40));
}
both!(concurrent_claims_take_each_message_once);

/// A sender whose claim ran out (slow mail server) cannot acknowledge a message another sender
/// has claimed since: its receipt no longer matches.
async fn a_late_receipt_does_not_touch_a_newer_claim(b: Backend) {
    let db = database(b);
    let mut conn = db.pool.get().unwrap();
    let now = 4_000_000;
    queue(&mut conn, "juan@example.com", now);
    let first = outbox::claim(&mut conn, now, 300, 5).unwrap().remove(0);
    let second = outbox::claim(&mut conn, now + 300, 300, 5)
        .unwrap()
        .remove(0);
    assert_eq!(first.id, second.id);
    outbox::failed(&mut conn, &first, now + 10_000, "late").unwrap();
    assert!(!outbox::delivered(&mut conn, &first).unwrap());
    assert_eq!(
        outbox::waiting(&mut conn).unwrap(),
        1,
        "the newer claim holds"
    );
    assert!(outbox::delivered(&mut conn, &second).unwrap());
    assert_eq!(outbox::waiting(&mut conn).unwrap(), 0);
}
both!(a_late_receipt_does_not_touch_a_newer_claim);

/// A message that fails again and again is parked after `MAX_ATTEMPTS` (kept, never tried
/// again) instead of being tried every hour forever.
async fn a_message_that_keeps_failing_is_parked(b: Backend) {
    let db = database(b);
    let now = 5_000_000;
    queue(&mut db.pool.get().unwrap(), "not an address", now);
    let dir = tempfile::tempdir().unwrap();
    let post = post_to(dir.path());
    let mut at = now;
    for _ in 0..framework::mail::MAX_ATTEMPTS {
        assert_eq!(
            framework::mail::deliver_due(&db.pool, &post, &|| at).unwrap(),
            0
        );
        at += 3600;
    }
    use db::schema::mail_outbox::dsl::*;
    use diesel::prelude::*;
    let (tries, next, error): (i32, i64, Option<String>) = mail_outbox
        .select((attempts, next_attempt_at, last_error))
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(tries, framework::mail::MAX_ATTEMPTS);
    assert!(next > at + 100 * 365 * 86_400, "parked");
    let error = error.unwrap();
    assert!(!error.contains("not an address"), "no address in {error:?}");
    assert_eq!(files(dir.path()), 0);
}
both!(a_message_that_keeps_failing_is_parked);
