//! An order is never half-written: the `store` process is killed with SIGKILL at a random instant
//! of a submit, 50 times on each database; after each kill there is either one complete order
//! (items, charges, first status, its mail) and an empty cart, or no order and the cart as it was.
//! Never two.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use diesel::prelude::*;
use serde_json::json;
use support::process::{free_port, json_call, kill, serve};
use support::{a_case, bearer, checkout, database, Backend, TestDb};

const ROUNDS: usize = 50;

/// What the database holds for a cart and its revision's order.
struct Seen {
    orders: i64,
    items: i64,
    charges: i64,
    history: i64,
    mails: i64,
    cart_items: Vec<(i32, i32)>,
    total_ok: bool,
}

fn seen(db: &TestDb, cart: i64, key: &str) -> Seen {
    use db::schema::*;
    let mut conn = db.pool.get().unwrap();
    let order: Option<(i64, i64, i64, i64, i64, String)> = orders::table
        .filter(orders::idempotency_key.eq(key))
        .select((
            orders::id,
            orders::items_total,
            orders::deposits_total,
            orders::delivery_fee,
            orders::total,
            orders::email,
        ))
        .first(&mut *conn)
        .optional()
        .unwrap();
    let orders_n: i64 = orders::table
        .filter(orders::idempotency_key.like(format!("cart {cart} %")))
        .count()
        .get_result(&mut *conn)
        .unwrap();
    let cart_items = cart_items::table
        .filter(cart_items::cart_id.eq(cart))
        .select((cart_items::product_id, cart_items::quantity))
        .load(&mut *conn)
        .unwrap();
    let (mut items, mut charges, mut history, mut mails, mut total_ok) = (0, 0, 0, 0, true);
    if let Some((id, it, dep, fee, total, email)) = order {
        items = order_items::table
            .filter(order_items::order_id.eq(id))
            .count()
            .get_result(&mut *conn)
            .unwrap();
        charges = order_charges::table
            .filter(order_charges::order_id.eq(id))
            .count()
            .get_result(&mut *conn)
            .unwrap();
        history = order_status_history::table
            .filter(order_status_history::order_id.eq(id))
            .count()
            .get_result(&mut *conn)
            .unwrap();
        mails = mail_outbox::table
            .filter(
                mail_outbox::recipient
                    .eq(&email)
                    .or(mail_outbox::recipient.eq("orders@tala.example")),
            )
            .filter(mail_outbox::subject.like(format!("%TB-{id:06}%")))
            .count()
            .get_result(&mut *conn)
            .unwrap();
        total_ok = it + dep + fee == total && total > 0;
    }
    Seen {
        orders: orders_n,
        items,
        charges,
        history,
        mails,
        cart_items,
        total_ok,
    }
}

async fn never_half_written(backend: Backend) {
    let db = database(backend);
    // Mail stays in the queue (the outbox is a path no folder can be made at), so each order's
    // two messages can be counted where they were written: in the order's transaction.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "").unwrap();
    let outbox = dir.path().join("file");
    let mut placed = 0;
    let mut rng = 0x9e37_79b9_u64;
    // How long a submit takes here, unkilled: the kills land anywhere from 0 to twice that.
    let mut spread = Duration::ZERO;
    for round in 0..=ROUNDS {
        let port = free_port();
        let store = serve(&db, port, &outbox);
        // A guest with a case in the cart (the session made in the database: the guest-token
        // call allows a client 30 sessions in ten minutes).
        let token = support::guest(&db).await;
        let r = json_call(port, "POST", "/api/v1/cart", &token, &a_case());
        assert_eq!(r.status, 200, "{}", r.body);
        let cart = r.json();
        let revision = cart["revision"].as_i64().unwrap();
        let cart_id: i64 = {
            use db::schema::carts;
            let mut conn = db.pool.get().unwrap();
            carts::table
                .order(carts::id.desc())
                .select(carts::id)
                .first(&mut *conn)
                .unwrap()
        };
        let mut form = checkout(&cart);
        form["email"] = json!(format!("ana{round}@example.com"));
        if round == 0 {
            let start = Instant::now();
            let r = json_call(port, "POST", "/api/v1/orders", &token, &form);
            assert_eq!(r.status, 201, "{}", r.body);
            spread = start.elapsed() * 2;
            kill(store);
            continue;
        }
        // Submit, and kill the store at a random instant of it.
        let (auth, form) = (bearer(&token), form.to_string());
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let req = format!(
            "POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {auth}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        std::thread::sleep(Duration::from_micros(
            rng % (spread.as_micros() as u64).max(1),
        ));
        kill(store);
        let key = format!("cart {cart_id} revision {revision}");
        let s = seen(&db, cart_id, &key);
        assert!(s.orders <= 1, "round {round}: {} orders", s.orders);
        if s.orders == 1 {
            placed += 1;
            assert!(
                s.cart_items.is_empty(),
                "round {round}: an order and the cart still full"
            );
            assert_eq!(
                (s.items, s.charges, s.history, s.mails),
                (1, 1, 1, 2),
                "round {round}: a partial order"
            );
            assert!(s.total_ok, "round {round}: totals");
        } else {
            assert_eq!(
                s.cart_items,
                vec![(1, 24)],
                "round {round}: no order, and the cart changed"
            );
        }
    }
    println!(
        "{ROUNDS} kills on {backend:?} within {spread:?} of a submit: {placed} orders complete, {} not placed, none partial or doubled",
        ROUNDS - placed
    );
    // The kills must land on both sides of the commit, or the test proves nothing.
    assert!(
        placed > 0 && placed < ROUNDS,
        "kills landed on one side only: {placed} of {ROUNDS}"
    );
}
both!(never_half_written);
