//! Dispatch runs as the depot works them, on SQLite and PostgreSQL: a dispatcher plans a run of
//! confirmed delivery orders for a rider (its stops grouped by barangay, its pick list summing
//! cases and loose units), arranges it and sends it out (the orders go out for delivery and the
//! shoppers are mailed, all or none); the rider ends each stop delivered (cash and empties, any
//! difference named) or failed (the order goes back to confirmed, the reason in its history, and
//! waits for another run); the run is closed on the cash handed in; the day's report adds it all
//! up, and every write is in the audit log. Every refusal names its field and changes nothing; a
//! rider reaches their own runs only; a shopper's session reaches none; two dispatchers taking
//! one order at once leave it on one run.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::staff::Staff;
use support::{
    add_to_cart, call_api, checkout, database, view_cart, Backend, Res, TestDb, CALOOCAN, MAKATI,
    OPEN, OWN,
};

/// Poblacion, Makati City: served for delivery, with streets of its own (Kalayaan Avenue among
/// them, as in Bel-Air).
const POBLACION: i64 = 1380300020;
/// Tala Light 330 ml: bottles at P55.00, in the same case of 24 as the Pale Pilsen.
const LIGHT: i64 = 3;

/// The id of the street `name` of barangay `barangay`.
fn street(db: &TestDb, barangay: i64, name: &str) -> i64 {
    use db::schema::streets;
    let mut conn = db.pool.get().unwrap();
    let id: i32 = streets::table
        .filter(streets::barangay_id.eq(barangay))
        .filter(streets::street_name.eq(name))
        .select(streets::id)
        .first(&mut conn)
        .unwrap();
    i64::from(id)
}

/// A guest's delivery order in `barangay` (on `street`, when given) of `lines` (product,
/// units), returning `empties` empty cases of bottles, mailed to `email`: its id and total.
async fn order_in(
    db: &TestDb,
    barangay: i64,
    street: Option<i64>,
    lines: &[(i64, i64)],
    empties: i64,
    email: &str,
) -> (i64, i64) {
    let token = support::guest(db).await;
    for (product, units) in lines {
        let (s, v) = add_to_cart(db, &token, *product, *units, barangay).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    if empties > 0 {
        let body = json!({"deposit_id": 1, "cases": empties, "barangay": barangay});
        let (s, v) = call_api(db, "POST", "/api/v3/return-empty", &token, body).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, cart) = view_cart(db, &token, barangay, &format!("?testdate={OPEN}")).await;
    let mut form = checkout(&cart);
    form["email"] = json!(email);
    form["barangay"] = json!(barangay);
    form["street_id"] = json!(street);
    let (s, placed) = call_api(db, "POST", "/api/v1/orders", &token, form).await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    (
        placed["order"]["id"].as_i64().unwrap(),
        placed["order"]["total"].as_i64().unwrap(),
    )
}

/// A guest's delivery order of a case of Pale Pilsen on Jupiter Street, Bel-Air (P1,578.00).
async fn a_delivery(db: &TestDb, email: &str) -> i64 {
    support::guest_order(db, 1, email).await.0
}

/// The order number as the staff read it.
fn number(id: i64) -> String {
    format!("TB-{id:06}")
}

/// The answer, asserted 200, as JSON.
fn ok(r: &Res) -> Value {
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    r.json()
}

/// The message of a 422 that names `field`.
fn refused(r: &Res, field: &str) -> String {
    assert_eq!(
        r.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{field}: {}",
        r.text()
    );
    let v = r.json();
    v["errors"][field][0]
        .as_str()
        .unwrap_or_else(|| panic!("a refusal on {field}: {v}"))
        .to_string()
}

/// The message of a 409: where the thing named stands forbids the request.
fn conflict(r: &Res) -> String {
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    r.json()["error"]
        .as_str()
        .unwrap_or_else(|| panic!("a conflict's message: {}", r.text()))
        .to_string()
}

/// An answer that refuses (4xx), never a 500 nor a success.
fn rejected(r: &Res, what: &str) {
    assert!(
        r.status.is_client_error(),
        "{what}: {} {}",
        r.status,
        r.text()
    );
}

impl Staff<'_> {
    async fn get(&self, uri: &str) -> Value {
        ok(&self.send("GET", uri, None).await)
    }

    async fn post(&self, uri: &str, body: Value) -> Res {
        self.send("POST", uri, Some(body)).await
    }

    /// Moves orders to `status` (a cancellation's reason given).
    async fn set_status(&self, ids: &[i64], status: &str) {
        let r = self
            .post(
                "/api/v1/staff/orders/status",
                json!({"order_ids": ids, "status": status, "reason": "The shopper changed their mind"}),
            )
            .await;
        ok(&r);
    }

    /// A new run of `rider` on `day` with `orders`: its id.
    async fn plan(&self, rider: i64, day: &Value, orders: &[i64]) -> i64 {
        let r = self
            .post(
                "/api/v1/staff/runs",
                json!({"rider_id": rider, "day": day, "order_ids": orders}),
            )
            .await;
        ok(&r)["run_id"].as_i64().unwrap()
    }

    async fn run(&self, id: i64) -> Value {
        self.get(&format!("/api/v1/staff/runs/{id}")).await
    }

    async fn arrange(&self, run: i64, order: i64, to: &str) -> Res {
        self.post(
            &format!("/api/v1/staff/runs/{run}/arrange"),
            json!({"order_id": order, "move": to}),
        )
        .await
    }

    async fn send_out(&self, run: i64) -> Res {
        self.send("POST", &format!("/api/v1/staff/runs/{run}/send"), None)
            .await
    }

    async fn end(&self, run: i64, order: i64, body: Value) -> Res {
        self.post(&format!("/api/v1/staff/runs/{run}/stops/{order}"), body)
            .await
    }

    async fn close(&self, run: i64, cash: &str) -> Res {
        self.post(
            &format!("/api/v1/staff/runs/{run}/close"),
            json!({ "cash_handed_in": cash }),
        )
        .await
    }

    /// An order as the staff see it.
    async fn order(&self, id: i64) -> Value {
        self.get(&format!("/api/v1/staff/orders/{id}")).await["order"].clone()
    }
}

/// The order ids of a run's stops, in their order, and their numbers 1, 2, 3...
fn stop_orders(run: &Value) -> Vec<i64> {
    let stops = run["stops"].as_array().unwrap();
    for (n, s) in stops.iter().enumerate() {
        assert_eq!(s["seq"], n + 1, "stops numbered from 1 with no gap: {run}");
    }
    stops
        .iter()
        .map(|s| s["order_id"].as_i64().unwrap())
        .collect()
}

/// The stop of order `id` on a run.
fn stop_of(run: &Value, id: i64) -> Value {
    run["stops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["order_id"] == id)
        .unwrap_or_else(|| panic!("order {id} on the run: {run}"))
        .clone()
}

/// The ids of a list's entries (`waiting`, `runs`, ...).
fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect()
}

/// How many mails with `subject` the queue holds.
fn mails_with(db: &TestDb, subject: &str) -> i64 {
    use db::schema::mail_outbox;
    let mut conn = db.pool.get().unwrap();
    mail_outbox::table
        .filter(mail_outbox::subject.eq(subject))
        .count()
        .get_result(&mut conn)
        .unwrap()
}

/// The audit log's run entries, oldest first: action, actor and what was written after.
async fn run_entries(boss: &Staff<'_>) -> Vec<(String, String, Value)> {
    let log = boss.get("/api/v1/staff/audit").await;
    let mut out: Vec<(String, String, Value)> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"].as_str().unwrap().starts_with("run."))
        .map(|e| {
            (
                e["action"].as_str().unwrap().to_string(),
                e["actor"].as_str().unwrap().to_string(),
                e["after"]
                    .as_str()
                    .map(|a| serde_json::from_str(a).unwrap())
                    .unwrap_or(Value::Null),
            )
        })
        .collect();
    out.reverse();
    out
}

/// The day after `day` (`YYYY-MM-DD`).
fn day_after(day: &Value) -> Value {
    let d = domain::calendar::parse_iso_date(day.as_str().unwrap()).unwrap();
    json!(domain::calendar::iso_date(d.next_day().unwrap()))
}

/// The day before `day` (`YYYY-MM-DD`).
fn day_before(day: &Value) -> Value {
    let d = domain::calendar::parse_iso_date(day.as_str().unwrap()).unwrap();
    json!(domain::calendar::iso_date(d.previous_day().unwrap()))
}

/// A whole day: the dispatcher plans a run of four orders in three barangays for a rider (the
/// stops grouped by barangay, the pick list in cases and units, the containers to load), adds,
/// moves and takes off a stop, and sends it out (the orders out for delivery, each shopper
/// mailed once); the rider delivers with the exact cash and empties, delivers short (the
/// differences named), and fails a stop (the order back to confirmed with the reason in its
/// history, waiting again, and planned on another rider's run); the run closes only once every
/// stop has ended, on the cash handed in (the difference from what was reported); the day's
/// report adds up the runs, the cash, the containers, the cancelled, the failed and the flagged;
/// every write is in the audit log under who made it.
async fn a_day_of_dispatch(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let cai = Staff::signed_in(&db, "cai@tala.example", "rider").await;

    // Four orders in three barangays, placed in this order: Bel-Air (Polaris Street), Barangay 1
    // of Caloocan, Bel-Air (Jupiter Street), Poblacion (Kalayaan Avenue); a fifth in Bel-Air.
    let polaris = street(&db, MAKATI, "Polaris Street");
    let kalayaan = street(&db, POBLACION, "Kalayaan Avenue");
    // A mixed case (12 Pale Pilsen, 12 Light), one empty case returned.
    let (a, a_total) = order_in(
        &db,
        MAKATI,
        Some(polaris),
        &[(1, 12), (LIGHT, 12)],
        1,
        "a@example.com",
    )
    .await;
    // 12 x P52 + 12 x P55, the deposit returned, delivery P150.
    assert_eq!(a_total, 62_400 + 66_000 + 15_000);
    // Two cases (30 Pale Pilsen, 18 Light), two empty cases returned.
    let (bb, b_total) = order_in(
        &db,
        CALOOCAN,
        None,
        &[(1, 30), (LIGHT, 18)],
        2,
        "b@example.com",
    )
    .await;
    let c = a_delivery(&db, "c@example.com").await;
    let (e, e_total) = order_in(
        &db,
        POBLACION,
        Some(kalayaan),
        &[(1, 24)],
        0,
        "e@example.com",
    )
    .await;
    let d = a_delivery(&db, "d@example.com").await;
    let c_total = 157_800;

    // Nothing waits until confirmed.
    let page = dora.get("/api/v1/staff/runs").await;
    assert_eq!(page["waiting"], json!([]), "{page}");
    let today = page["today"].clone();
    assert_eq!(page["day"], today);
    dora.set_status(&[a, bb, c, e, d], "confirmed").await;
    let page = dora
        .get(&format!(
            "/api/v1/staff/runs?day={}",
            today.as_str().unwrap()
        ))
        .await;
    assert_eq!(page["runs"], json!([]));
    // Waiting: grouped by barangay (Barangay 1, Bel-Air, Poblacion), oldest first in one.
    assert_eq!(ids(&page["waiting"]), [bb, a, c, d, e], "{page}");
    assert_eq!(page["waiting"][0]["number"], number(bb));
    assert_eq!(page["waiting"][0]["total"], b_total);
    assert_eq!(
        page["riders"],
        json!([{"id": ben.id, "name": "ben"}, {"id": cai.id, "name": "cai"}])
    );

    // The run, the orders given in any order: its stops grouped by barangay, then by age.
    let r = dora
        .post(
            "/api/v1/staff/runs",
            json!({"rider_id": ben.id, "day": today, "order_ids": [e, c, a, bb]}),
        )
        .await;
    let made = ok(&r);
    let run = made["run_id"].as_i64().unwrap();
    assert_eq!(made["link"], format!("/staff/runs/{run}?done=created"));
    assert_eq!(
        made["message"],
        format!(
            "Run {run} for ben on {}: 4 stop(s).",
            today.as_str().unwrap()
        )
    );
    let view = dora.run(run).await;
    assert_eq!(stop_orders(&view), [bb, a, c, e], "{view}");
    assert_eq!(view["run"]["state"], "planned");
    assert_eq!(view["run"]["state_label"], "Planned");
    assert_eq!(view["run"]["rider"], "ben");
    assert_eq!(view["run"]["stops"], 4);
    let first = &view["stops"][0];
    assert_eq!(first["number"], number(bb));
    assert_eq!(first["contact_name"], "Ana Santos");
    assert_eq!(first["mobile"], "09171234567");
    assert!(
        first["place"].as_str().unwrap().contains("Caloocan"),
        "{first}"
    );
    assert_eq!(first["total"], b_total);
    assert_eq!(first["empties_expected"], 2);
    assert_eq!(first["outcome"], "pending");
    let items: Vec<(String, i64)> = first["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["product_name"].as_str().unwrap().into(),
                i["quantity"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            ("Tala Pale Pilsen 320 ml".to_string(), 30),
            ("Tala Light 330 ml".to_string(), 18)
        ]
    );
    // The pick list: 90 Pale Pilsen are 3 cases and 18 bottles; 30 Light, 1 case and 6.
    let picks: Vec<(String, i64, i64, i64)> = view["pick_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["product_name"].as_str().unwrap().into(),
                p["unit_per_case"].as_i64().unwrap(),
                p["cases"].as_i64().unwrap(),
                p["units"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        picks,
        [
            ("Tala Light 330 ml".to_string(), 24, 1, 6),
            ("Tala Pale Pilsen 320 ml".to_string(), 24, 3, 18)
        ]
    );
    // The containers to load: one kind, a case for each of A, C and E and two for B.
    let out = view["containers_out"].as_array().unwrap();
    assert_eq!(out.len(), 1, "{view}");
    assert_eq!(out[0]["cases"], 5);
    let totals = &view["totals"];
    assert_eq!(totals["stops"], 4);
    assert_eq!(totals["pending"], 4);
    assert_eq!(
        totals["cash_expected"],
        a_total + b_total + c_total + e_total
    );
    assert_eq!(totals["cash_reported"], 0);
    assert_eq!(totals["empties_expected"], 3);
    assert_eq!(
        (
            &view["can_arrange"],
            &view["can_send"],
            &view["can_end_stops"],
            &view["can_close"]
        ),
        (&json!(true), &json!(true), &json!(false), &json!(false))
    );
    assert_eq!(ids(&view["waiting"]), [d], "the orders that may be added");
    assert_eq!(view["failure_reasons"][0], "Nobody at the address");

    // Added: after the stops. Arranged: up, down, nothing above the first, taken off.
    let r = dora
        .post(
            &format!("/api/v1/staff/runs/{run}/stops"),
            json!({ "order_ids": [d] }),
        )
        .await;
    assert_eq!(stop_orders(&ok(&r)), [bb, a, c, e, d]);
    let moved = ok(&dora.arrange(run, d, "up").await);
    assert_eq!(moved["link"], format!("/staff/runs/{run}?done=arranged"));
    assert_eq!(moved["message"], format!("Order {} moved.", number(d)));
    assert_eq!(stop_orders(&moved["run"]), [bb, a, c, d, e]);
    let moved = ok(&dora.arrange(run, bb, "down").await);
    assert_eq!(stop_orders(&moved["run"]), [a, bb, c, d, e]);
    let moved = ok(&dora.arrange(run, a, "up").await);
    assert_eq!(stop_orders(&moved["run"]), [a, bb, c, d, e]);
    let moved = ok(&dora.arrange(run, e, "down").await);
    assert_eq!(stop_orders(&moved["run"]), [a, bb, c, d, e]);
    let moved = ok(&dora.arrange(run, d, "remove").await);
    assert_eq!(
        moved["message"],
        format!("Order {} is off the run.", number(d))
    );
    assert_eq!(stop_orders(&moved["run"]), [a, bb, c, e]);
    assert_eq!(
        ids(&moved["run"]["waiting"]),
        [d],
        "taken off, it waits again"
    );

    // The rider sees the run, without what only dispatchers do; another rider sees nothing.
    let mine = ben.get("/api/v1/staff/runs").await;
    assert_eq!(ids(&mine["runs"]), [run]);
    assert_eq!(
        (&mine["waiting"], &mine["riders"]),
        (&json!([]), &json!([]))
    );
    let sheet = ben.run(run).await;
    assert_eq!(stop_orders(&sheet), [a, bb, c, e]);
    assert_eq!(sheet["can_arrange"], false);
    assert_eq!(sheet["can_send"], false);
    assert_eq!(sheet["waiting"], json!([]));
    assert_eq!(cai.get("/api/v1/staff/runs").await["runs"], json!([]));
    let r = cai
        .send("GET", &format!("/api/v1/staff/runs/{run}"), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    // A stop ends only once the run is out.
    let r = ben
        .end(
            run,
            a,
            json!({"outcome": "delivered", "cash_received": "1,434.00"}),
        )
        .await;
    assert!(conflict(&r).contains("not out"));

    // Sent out: every order out for delivery, each shopper mailed once; sent once only.
    let sent = ok(&dora.send_out(run).await);
    assert_eq!(sent["run_id"], run);
    assert_eq!(sent["link"], format!("/staff/runs/{run}?done=sent"));
    assert_eq!(
        sent["message"],
        format!("Run {run} is out: 4 order(s) out for delivery.")
    );
    for id in [a, bb, c, e] {
        assert_eq!(dora.order(id).await["status"], "out_for_delivery");
        let subject = format!("Your order {} is out for delivery", number(id));
        assert_eq!(mails_with(&db, &subject), 1, "{subject}");
    }
    assert_eq!(dora.order(d).await["status"], "confirmed");
    // The dashboard counts it among the runs out.
    let out = &dora.get("/api/v1/staff/dashboard").await["runs_out"];
    assert_eq!(ids(out), [run], "{out}");
    assert_eq!(
        (&out[0]["stops"], &out[0]["delivered"]),
        (&json!(4), &json!(0))
    );
    // Sent again (a double click): answered as sent, nobody mailed twice.
    let again = ok(&dora.send_out(run).await);
    assert_eq!(again["message"], format!("Run {run} is out already."));
    for id in [a, bb, c, e] {
        let subject = format!("Your order {} is out for delivery", number(id));
        assert_eq!(mails_with(&db, &subject), 1, "{subject}");
    }
    let r = dora.arrange(run, a, "down").await;
    assert!(conflict(&r).contains("out already"));
    let r = dora
        .post(
            &format!("/api/v1/staff/runs/{run}/stops"),
            json!({ "order_ids": [d] }),
        )
        .await;
    assert!(conflict(&r).contains("out already"));
    let sheet = ben.run(run).await;
    assert_eq!(sheet["run"]["state"], "out");
    assert_eq!(sheet["run"]["state_label"], "Out for delivery");
    assert_eq!(sheet["can_end_stops"], true);
    assert_eq!(sheet["can_close"], false);

    // Delivered with the exact cash (as typed, with the peso sign) and the empties.
    let typed = domain::money::format_php(a_total);
    let r = ben
        .end(
            run,
            a,
            json!({"outcome": "delivered", "cash_received": typed, "empties_returned": 1}),
        )
        .await;
    let s = stop_of(&ok(&r), a);
    assert_eq!(s["outcome"], "delivered");
    assert_eq!(s["cash_received"], a_total);
    assert_eq!(s["empties_returned"], 1);
    assert_eq!(s["differences"], json!([]));
    assert_eq!(dora.order(a).await["status"], "completed");
    assert_eq!(
        mails_with(&db, &format!("Your order {} is completed", number(a))),
        1
    );
    // Delivered P100 short, one of the two empty cases missing: both named. The shopper returns
    // two, so the empties are typed: left out, they are asked for, and nothing changes.
    let short = format!("{}", (b_total - 10_000) / 100);
    let r = ben
        .end(
            run,
            bb,
            json!({"outcome": "delivered", "cash_received": short, "note": "Will pay the rest tomorrow"}),
        )
        .await;
    assert_eq!(
        refused(&r, "empties_returned"),
        "Give the empty cases taken back: the shopper returns 2 (0 if none came back)."
    );
    assert_eq!(stop_of(&ben.run(run).await, bb)["outcome"], "pending");
    let r = ben
        .end(
            run,
            bb,
            json!({"outcome": "delivered", "cash_received": short, "empties_returned": 1, "note": "Will pay the rest tomorrow"}),
        )
        .await;
    let s = stop_of(&ok(&r), bb);
    assert_eq!(
        s["differences"],
        json!(["Cash short by P100.00", "1 empty case(s) missing"])
    );
    assert_eq!(s["note"], "Will pay the rest tomorrow");
    // The same ending sent again (a phone retrying on a bad link) changes nothing.
    let again = ben
        .end(
            run,
            bb,
            json!({"outcome": "delivered", "cash_received": short, "empties_returned": 1, "note": "Will pay the rest tomorrow"}),
        )
        .await;
    assert_eq!(stop_of(&ok(&again), bb), s);
    // A stop ends once: another ending is refused.
    let r = ben
        .end(
            run,
            bb,
            json!({"outcome": "delivered", "cash_received": format!("{}", b_total / 100), "empties_returned": 2}),
        )
        .await;
    assert_eq!(
        conflict(&r),
        format!("Order {} was already marked delivered.", number(bb))
    );
    assert_eq!(
        stop_of(&ben.run(run).await, bb)["cash_received"],
        b_total - 10_000
    );

    // Not closed while a stop is pending.
    let r = dora.close(run, "5,000.00").await;
    assert!(conflict(&r).contains("2 stop(s)"), "{}", r.text());

    // Failed: the order back to confirmed, the reason and note in its history; it waits again.
    let r = ben
        .end(
            run,
            c,
            json!({"outcome": "failed", "reason": "Nobody at the address", "note": " Gate locked; called twice "}),
        )
        .await;
    let s = stop_of(&ok(&r), c);
    assert_eq!(s["outcome"], "failed");
    assert_eq!(s["reason"], "Nobody at the address");
    assert_eq!(s["note"], "Gate locked; called twice");
    assert_eq!(s["cash_received"], Value::Null);
    let failed = dora.order(c).await;
    assert_eq!(failed["status"], "confirmed");
    let last = failed["history"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["status"], "confirmed");
    assert_eq!(
        last["note"],
        "Delivery failed: Nobody at the address (Gate locked; called twice)"
    );
    let r = ben
        .end(
            run,
            c,
            json!({"outcome": "failed", "reason": "Ran out of time"}),
        )
        .await;
    assert!(conflict(&r).contains("already marked failed"));
    let page = dora.get("/api/v1/staff/runs").await;
    assert_eq!(ids(&page["waiting"]), [c, d], "{page}");
    // It goes on another rider's run.
    let second = dora.plan(cai.id, &today, &[c]).await;
    assert_eq!(stop_orders(&dora.run(second).await), [c]);

    // A dispatcher ends a stop for the rider.
    let r = dora
        .end(
            run,
            e,
            json!({"outcome": "delivered", "cash_received": format!("{}.00", e_total / 100)}),
        )
        .await;
    let view = ok(&r);
    assert_eq!(stop_of(&view, e)["differences"], json!([]));
    let reported = a_total + (b_total - 10_000) + e_total;
    let totals = &view["totals"];
    assert_eq!(
        (
            &totals["stops"],
            &totals["delivered"],
            &totals["failed"],
            &totals["pending"]
        ),
        (&json!(4), &json!(3), &json!(1), &json!(0))
    );
    // A failed stop brings nothing.
    assert_eq!(totals["cash_expected"], a_total + b_total + e_total);
    assert_eq!(totals["cash_reported"], reported);
    assert_eq!(totals["empties_expected"], 3);
    assert_eq!(totals["empties_returned"], 2);
    assert_eq!(view["can_close"], true);
    assert_eq!(view["can_end_stops"], false);
    assert_eq!(ben.run(run).await["can_close"], false, "dispatchers close");

    // Closed on the cash handed in, P20 short of what was reported and so P120 short of what
    // the run expects: refused without a note saying why (the form shows by how much), and
    // nothing changes; closed with one; closed once.
    let handed = reported - 2_000;
    let expected = a_total + b_total + e_total;
    let r = dora.close(run, &domain::money::format_php(handed)).await;
    assert_eq!(
        refused(&r, "note"),
        format!(
            "The cash is short by P120.00 of what the run expects ({}): say why in a note to close the run.",
            domain::money::format_php(expected)
        )
    );
    let r = dora
        .post(
            &format!("/api/v1/staff/runs/{run}/close"),
            json!({"cash_handed_in": domain::money::format_php(handed), "note": "   "}),
        )
        .await;
    assert!(refused(&r, "note").contains("say why in a note"));
    let r = dora
        .post(
            &format!("/api/v1/staff/runs/{run}/close"),
            json!({"cash_handed_in": domain::money::format_php(handed), "note": "two\nlines"}),
        )
        .await;
    assert_eq!(
        refused(&r, "note"),
        "Keep the note to 500 characters, on one line."
    );
    let view = dora.run(run).await;
    assert_eq!(
        (
            &view["run"]["state"],
            &view["cash_handed_in"],
            &view["close_note"]
        ),
        (&json!("out"), &Value::Null, &json!(""))
    );
    let why = "B pays P100 tomorrow; P20 missing from the bag, rider told";
    let r = dora
        .post(
            &format!("/api/v1/staff/runs/{run}/close"),
            json!({"cash_handed_in": domain::money::format_php(handed), "note": format!(" {why} ")}),
        )
        .await;
    let closed = ok(&r);
    assert_eq!(closed["run"]["state"], "closed");
    assert_eq!(closed["cash_handed_in"], handed);
    assert_eq!(closed["cash_difference"], -2_000);
    assert_eq!(closed["expected_difference"], -12_000);
    assert_eq!(closed["close_note"], why);
    assert_eq!(closed["can_close"], false);
    assert_eq!(
        ben.run(run).await["close_note"],
        why,
        "the rider reads it too"
    );
    assert_eq!(
        dora.get("/api/v1/staff/dashboard").await["runs_out"],
        json!([])
    );
    // Closed again on the same cash (a double click, the note sent or not): as it is; on other
    // cash, refused.
    let again = ok(&dora.close(run, &domain::money::format_php(handed)).await);
    assert_eq!(again["cash_handed_in"], handed);
    assert_eq!(again["close_note"], why);
    let r = dora.close(run, "1.00").await;
    assert!(conflict(&r).contains("closed already"));
    assert_eq!(dora.run(run).await["cash_handed_in"], handed);
    let r = ben
        .end(
            run,
            e,
            json!({"outcome": "failed", "reason": "Ran out of time"}),
        )
        .await;
    assert!(conflict(&r).contains("not out"));
    // The rider's open runs show whatever the day; a closed one only on its day.
    let tomorrow = day_after(&today);
    let later = format!("/api/v1/staff/runs?day={}", tomorrow.as_str().unwrap());
    assert_eq!(ben.get(&later).await["runs"], json!([]));
    assert_eq!(ids(&cai.get(&later).await["runs"]), [second]);
    assert_eq!(ids(&ben.get("/api/v1/staff/runs").await["runs"]), [run]);

    // The day's report. A fifth order cancelled: counted, not in the revenue.
    dora.set_status(&[d], "cancelled").await;
    let report = dora.get("/api/v1/staff/day").await;
    assert_eq!(report["day"], today);
    assert_eq!(report["orders"], 5);
    assert_eq!(report["revenue"], a_total + b_total + c_total + e_total);
    let lines: Vec<(i64, Value, Value, Value, Value)> = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["run"]["id"].as_i64().unwrap(),
                r["cash_handed_in"].clone(),
                r["cash_difference"].clone(),
                r["expected_difference"].clone(),
                r["close_note"].clone(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            (
                run,
                json!(handed),
                json!(-2_000),
                json!(-12_000),
                json!(why)
            ),
            (second, Value::Null, Value::Null, Value::Null, json!(""))
        ]
    );
    // By rider: the cash expected, reported and handed in, the difference (over their closed
    // runs), the empties, and the notes on what differs (a stop's, the run's close).
    assert_eq!(
        report["riders"],
        json!([
            {
                "rider_id": ben.id, "rider": "ben", "runs": 1, "closed": 1,
                "cash_expected": expected, "cash_reported": reported,
                "cash_expected_closed": expected, "cash_handed_in": handed,
                "cash_difference": -12_000, "closed_off": 1,
                "empties_expected": 3, "empties_returned": 2,
                "notes": [
                    {"run_id": run, "href": format!("/staff/orders/{bb}"), "about": number(bb), "note": "Will pay the rest tomorrow"},
                    {"run_id": run, "href": format!("/staff/runs/{run}"), "about": format!("Run {run}"), "note": why},
                ],
            },
            {
                "rider_id": cai.id, "rider": "cai", "runs": 1, "closed": 0,
                "cash_expected": c_total, "cash_reported": 0,
                "cash_expected_closed": 0, "cash_handed_in": 0,
                "cash_difference": null, "closed_off": 0,
                "empties_expected": 0, "empties_returned": 0,
                "notes": [],
            },
        ]),
        "{report}"
    );
    let t = &report["totals"];
    assert_eq!(
        (&t["stops"], &t["delivered"], &t["failed"], &t["pending"]),
        (&json!(5), &json!(3), &json!(1), &json!(1))
    );
    // The stop still out on the second run is still due.
    assert_eq!(t["cash_expected"], a_total + b_total + e_total + c_total);
    assert_eq!(t["cash_reported"], reported);
    assert_eq!(report["cash_handed_in"], handed);
    // The containers out: those of the delivered stops (A one, B two, E one).
    assert_eq!(report["containers_out"][0]["cases"], 4, "{report}");
    assert_eq!(
        report["cancelled"],
        json!([{"order_id": d, "number": number(d), "reason": "The shopper changed their mind"}])
    );
    assert_eq!(
        report["failed"],
        json!([{"order_id": c, "number": number(c), "reason": "Nobody at the address (Gate locked; called twice)"}])
    );
    assert_eq!(
        report["flagged"],
        json!([{"order_id": bb, "number": number(bb), "reason": "Cash short by P100.00; 1 empty case(s) missing"}])
    );
    // Another day has nothing; a day that is none is a 400.
    let other = dora
        .get(&format!(
            "/api/v1/staff/day?day={}",
            day_before(&today).as_str().unwrap()
        ))
        .await;
    assert_eq!((&other["orders"], &other["runs"]), (&json!(0), &json!([])));
    for bad in ["2026-02-30", "yesterday", "2026-1-1x", "%00"] {
        let r = dora
            .send("GET", &format!("/api/v1/staff/day?day={bad}"), None)
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text());
        let r = dora
            .send("GET", &format!("/api/v1/staff/runs?day={bad}"), None)
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text());
    }
    let r = ben.send("GET", "/api/v1/staff/day", None).await;
    assert_eq!(
        r.status,
        StatusCode::NOT_FOUND,
        "the report is the dispatchers'"
    );

    // Every write in the audit log, under who made it; no refusal.
    let entries = run_entries(&boss).await;
    let actions: Vec<(&str, &str)> = entries
        .iter()
        .map(|(a, who, _)| (a.as_str(), who.split(' ').next().unwrap()))
        .collect();
    assert_eq!(
        actions,
        [
            ("run.create", "dora"),
            ("run.add", "dora"),
            ("run.arrange", "dora"),
            ("run.arrange", "dora"),
            ("run.arrange", "dora"),
            ("run.arrange", "dora"),
            ("run.arrange", "dora"),
            ("run.send", "dora"),
            ("run.stop", "ben"),
            ("run.stop", "ben"),
            ("run.stop", "ben"),
            ("run.create", "dora"),
            ("run.stop", "dora"),
            ("run.close", "dora"),
        ]
    );
    assert_eq!(
        entries[0].2["orders"],
        json!([number(bb), number(a), number(c), number(e)])
    );
    assert_eq!(entries[6].2["move"], "remove");
    assert_eq!(entries[10].2["reason"], "Nobody at the address");
    assert_eq!(entries[13].2["difference"], -2_000);
    assert_eq!(entries[13].2["expected_difference"], -12_000);
    assert_eq!(entries[13].2["note"], why);
}
both!(a_day_of_dispatch);

/// A rider of the store who no longer rides (disabled from the command line).
fn disable(db: &TestDb, who: &Staff<'_>) {
    support::process::store_ok(db, &["staff", "disable", &who.email]);
}

/// How many runs the database holds, and the pending stops of order `id`.
fn runs_and_open_stops(db: &TestDb, id: i64) -> (i64, i64) {
    use db::schema::{run_stops, runs};
    let mut conn = db.pool.get().unwrap();
    let n: i64 = runs::table.count().get_result(&mut conn).unwrap();
    let open: i64 = run_stops::table
        .filter(run_stops::order_id.eq(id))
        .filter(run_stops::outcome.eq("pending"))
        .count()
        .get_result(&mut conn)
        .unwrap();
    (n, open)
}

/// Every refusal of planning, arranging, sending, ending a stop and closing names its field
/// (422), says why, and changes nothing: a rider who is none (a dispatcher, a disabled rider, no
/// one); a day that is none or past; no orders or more than 60; an order that is not confirmed,
/// picked up at the store, on another run, or none; a stop that is not on the run; a send with
/// an order cancelled meanwhile (all or none); an outcome, cash, empties, reason or note the
/// rider could not have meant; a close before the run is out, before every stop ended, without
/// the cash.
async fn every_refusal_names_its_field_and_changes_nothing(b: Backend) {
    let db = database(b);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let cai = Staff::signed_in(&db, "cai@tala.example", "rider").await;
    let zed = Staff::added(&db, "zed@tala.example", "rider");
    disable(&db, &zed);
    let x = a_delivery(&db, "x@example.com").await;
    let y = a_delivery(&db, "y@example.com").await;
    let z = a_delivery(&db, "z@example.com").await;
    let placed = a_delivery(&db, "u@example.com").await;
    let (pickup, _) = support::guest_order(&db, 2, "p@example.com").await;
    dora.set_status(&[x, y, z, pickup], "confirmed").await;
    let today = dora.get("/api/v1/staff/runs").await["today"].clone();
    let r1 = dora.plan(ben.id, &today, &[y, z]).await;

    let form = |rider: Value, day: Value, orders: Value| json!({"rider_id": rider, "day": day, "order_ids": orders});
    let many: Vec<i64> = (1..=61).collect();
    let yesterday = day_before(&today);
    for (body, field, words) in [
        (
            json!({"day": today, "order_ids": [x]}),
            "rider_id",
            "Choose the rider.",
        ),
        (
            form(json!(ben.id), json!(""), json!([x])),
            "day",
            "YYYY-MM-DD",
        ),
        (
            form(json!(ben.id), json!("2026-13-01"), json!([x])),
            "day",
            "YYYY-MM-DD",
        ),
        (
            form(json!(ben.id), json!("tomorrow"), json!([x])),
            "day",
            "YYYY-MM-DD",
        ),
        (
            form(json!(ben.id), yesterday, json!([x])),
            "day",
            "today or a later day",
        ),
        (
            form(json!(ben.id), today.clone(), json!([])),
            "order_ids",
            "Choose 1 to 60",
        ),
        (
            json!({"rider_id": ben.id, "day": today}),
            "order_ids",
            "Choose 1 to 60",
        ),
        (
            form(json!(ben.id), today.clone(), json!(many)),
            "order_ids",
            "Choose 1 to 60",
        ),
        (
            form(json!(ben.id), today.clone(), json!([x, pickup])),
            "order_ids",
            "picked up at the store",
        ),
    ] {
        let r = dora.post("/api/v1/staff/runs", body.clone()).await;
        let said = refused(&r, field);
        assert!(said.contains(words), "{body}: {said}");
    }
    // Orders that are not where a run may take them: 409 (where they stand may change), one
    // that does not exist 404; the orders are read before the rider and the day.
    for (body, status, words) in [
        (
            form(json!(ben.id), today.clone(), json!([x, placed])),
            StatusCode::CONFLICT,
            "is placed: only confirmed orders".to_string(),
        ),
        (
            form(json!(ben.id), today.clone(), json!([x, y])),
            StatusCode::CONFLICT,
            format!("already on run {r1}"),
        ),
        (
            form(json!(999_999), json!("tomorrow"), json!([y])),
            StatusCode::CONFLICT,
            format!("already on run {r1}"),
        ),
        (
            form(json!(ben.id), today.clone(), json!([x, 999_999])),
            StatusCode::NOT_FOUND,
            "There is no order TB-999999".into(),
        ),
        // A rider id that names no rider (a dispatcher, a disabled rider, nobody) is not found.
        (
            form(json!(dora.id), today.clone(), json!([x])),
            StatusCode::NOT_FOUND,
            "not disabled".into(),
        ),
        (
            form(json!(zed.id), today.clone(), json!([x])),
            StatusCode::NOT_FOUND,
            "not disabled".into(),
        ),
        (
            form(json!(999_999), today.clone(), json!([x])),
            StatusCode::NOT_FOUND,
            "not disabled".into(),
        ),
    ] {
        let r = dora.post("/api/v1/staff/runs", body.clone()).await;
        assert_eq!(r.status, status, "{body}: {}", r.text());
        let said = r.json()["error"].as_str().unwrap_or_default().to_string();
        assert!(said.contains(&words), "{body}: {said}");
    }
    // Nothing was planned: one run, x on none.
    assert_eq!(runs_and_open_stops(&db, x), (1, 0));
    assert_eq!(ids(&dora.get("/api/v1/staff/runs").await["waiting"]), [x]);

    // Adding to a run: the same rules, and at most 60 stops.
    let add = |orders: Value| json!({ "order_ids": orders });
    let stops = format!("/api/v1/staff/runs/{r1}/stops");
    for (body, words) in [
        (add(json!([])), "Choose 1 to 60".to_string()),
        (add(json!([pickup])), "picked up at the store".into()),
        (add(json!(many)), "Choose 1 to 60".into()),
    ] {
        let r = dora.post(&stops, body.clone()).await;
        let said = refused(&r, "order_ids");
        assert!(said.contains(&words), "{body}: {said}");
    }
    let r = dora.post(&stops, add(json!([x, placed]))).await;
    assert!(conflict(&r).contains("only confirmed orders"));
    let r = dora.post(&stops, add(json!([x, 999_999]))).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    // Orders already on the run stay where they are (a form sent twice adds nothing).
    let again = ok(&dora.post(&stops, add(json!([z, y]))).await);
    assert_eq!(stop_orders(&again), [y, z]);
    // Arranging: the stop and the move are named, and the stop is on the run.
    let arrange = format!("/api/v1/staff/runs/{r1}/arrange");
    let r = dora.post(&arrange, json!({})).await;
    assert_eq!(refused(&r, "order_id"), "Choose the stop.");
    let r = dora.post(&arrange, json!({ "order_id": y })).await;
    assert_eq!(refused(&r, "move"), "Choose up, down or remove.");
    let r = dora.arrange(r1, x, "up").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    assert_eq!(
        r.json()["error"],
        format!("Order {} is not on run {r1}.", number(x))
    );
    let r = dora.arrange(r1, 999_999, "remove").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    assert_eq!(stop_orders(&dora.run(r1).await), [y, z]);
    // Nothing is closed or ended before it is out.
    let r = dora.close(r1, "100").await;
    assert!(conflict(&r).contains("never sent out"));
    let r = ben
        .end(
            r1,
            y,
            json!({"outcome": "failed", "reason": "Ran out of time"}),
        )
        .await;
    assert!(conflict(&r).contains("not out"));

    // An order cancelled after it was planned: the send is refused, and nothing moved.
    dora.set_status(&[z], "cancelled").await;
    let r = dora.send_out(r1).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    // Said in the staff's words, not the status's code.
    assert!(
        r.text().contains(&format!(
            "Order {} is cancelled, which is final: it cannot become out for delivery.",
            number(z)
        )),
        "{}",
        r.text()
    );
    assert_eq!(dora.order(y).await["status"], "confirmed");
    assert_eq!(dora.run(r1).await["run"]["state"], "planned");
    let out = |id: i64| format!("Your order {} is out for delivery", number(id));
    assert_eq!(mails_with(&db, &out(y)), 0);
    // Taken off, the rest goes.
    ok(&dora.arrange(r1, z, "remove").await);
    ok(&dora.send_out(r1).await);
    assert_eq!(mails_with(&db, &out(y)), 1);

    // Ending a stop: what the rider could not have meant is refused on its field.
    let long = "n".repeat(301);
    for (body, field) in [
        (json!({}), "outcome"),
        (json!({"outcome": "pending"}), "outcome"),
        (json!({"outcome": "delivered"}), "cash_received"),
        (
            json!({"outcome": "delivered", "cash_received": "  "}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "-5"}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1e3"}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "99999999999"}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "12.345"}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1,2,3"}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "abc"}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "NaN"}),
            "cash_received",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1578", "empties_returned": -1}),
            "empties_returned",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1578", "empties_returned": 1000}),
            "empties_returned",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1578", "note": "a\u{0}b"}),
            "note",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1578", "note": "two\nlines"}),
            "note",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1578", "note": "bell\u{7}"}),
            "note",
        ),
        (
            json!({"outcome": "delivered", "cash_received": "1578", "note": long}),
            "note",
        ),
        (json!({"outcome": "failed"}), "reason"),
        (
            json!({"outcome": "failed", "reason": "The dog ate it"}),
            "reason",
        ),
        (
            json!({"outcome": "failed", "reason": "nobody at the address"}),
            "reason",
        ),
        // A reason is one of the list whatever the outcome (the document's closed set).
        (
            json!({"outcome": "delivered", "cash_received": "1578", "reason": "The dog ate it"}),
            "reason",
        ),
    ] {
        let r = ben.end(r1, y, body.clone()).await;
        let said = refused(&r, field);
        assert!(!said.is_empty(), "{body}");
    }
    // Or refused whole, as a body that is no form (never a 500).
    for body in [
        json!({"outcome": "lost"}),
        json!({"outcome": "delivered", "cash_received": 1578}),
        json!({"outcome": "delivered", "cash_received": "1578", "empties_returned": 99_999_999_999_i64}),
        json!({"outcome": "delivered", "cash_received": "1578", "empties_returned": "2"}),
        json!([]),
    ] {
        let r = ben.end(r1, y, body.clone()).await;
        rejected(&r, &body.to_string());
    }
    let sheet = ben.run(r1).await;
    assert_eq!(stop_of(&sheet, y)["outcome"], "pending", "{sheet}");
    assert_eq!(dora.order(y).await["status"], "out_for_delivery");

    // The close: the cash named, as pesos; not while a stop is pending.
    let close = format!("/api/v1/staff/runs/{r1}/close");
    let r = dora.post(&close, json!({})).await;
    refused(&r, "cash_handed_in");
    for cash in ["-5", "1e3", "99999999999", "abc"] {
        let r = dora.close(r1, cash).await;
        assert!(refused(&r, "cash_handed_in").contains("in pesos"), "{cash}");
    }
    let r = dora.close(r1, "1,578.00").await;
    assert!(conflict(&r).contains("1 stop(s)"));
    // A note of 300 characters, trimmed, is taken; the run then closes.
    let note = format!(" {} ", "n".repeat(300));
    let r = ben
        .end(
            r1,
            y,
            json!({"outcome": "delivered", "cash_received": "P 1,578", "note": note}),
        )
        .await;
    let s = stop_of(&ok(&r), y);
    assert_eq!(s["cash_received"], 157_800);
    assert_eq!(s["note"].as_str().unwrap().len(), 300);
    ok(&dora.close(r1, "1,578.00").await);
    // A run of another rider still plans x; none of the refused writes is in the audit log.
    dora.plan(cai.id, &today, &[x]).await;
    let mut conn = db.pool.get().unwrap();
    let actions: Vec<String> = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.like("run.%"))
        .order(db::schema::audit_log::id.asc())
        .select(db::schema::audit_log::action)
        .load(&mut conn)
        .unwrap();
    assert_eq!(
        actions,
        [
            "run.create",
            "run.arrange",
            "run.send",
            "run.stop",
            "run.close",
            "run.create"
        ]
    );
}
both!(every_refusal_names_its_field_and_changes_nothing);

/// A run takes at most `domain::dispatch::MAX_STOPS` (60) orders, planned at once or added: the
/// 61st is refused (409: the run is full) and nothing is added.
async fn a_run_takes_at_most_sixty_orders(b: Backend) {
    let db = database(b);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let mut orders = Vec::new();
    for n in 0..=domain::dispatch::MAX_STOPS {
        orders.push(a_delivery(&db, &format!("full{n}@example.com")).await);
    }
    dora.set_status(&orders, "confirmed").await;
    let today = dora.get("/api/v1/staff/runs").await["today"].clone();
    let (last, sixty) = orders.split_last().unwrap();
    let run = dora.plan(ben.id, &today, &sixty[..59]).await;
    ok(&dora
        .post(
            &format!("/api/v1/staff/runs/{run}/stops"),
            json!({ "order_ids": [sixty[59]] }),
        )
        .await);
    let r = dora
        .post(
            &format!("/api/v1/staff/runs/{run}/stops"),
            json!({ "order_ids": [last] }),
        )
        .await;
    assert_eq!(
        conflict(&r),
        "A run takes at most 60 orders; this one has 60."
    );
    assert_eq!(stop_orders(&dora.run(run).await).len(), 60);
    assert_eq!(runs_and_open_stops(&db, *last), (1, 0));
    // A full run offers nothing more to add.
    assert_eq!(dora.run(run).await["waiting"], json!([]));
}
both!(a_run_takes_at_most_sixty_orders);

/// A planned run offers the waiting orders nearest its stops first (its barangays, then its
/// cities, then anywhere; oldest first in each), as many as it has room for.
async fn a_run_offers_the_orders_nearest_it(b: Backend) {
    let db = database(b);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    // Oldest first: Caloocan, Poblacion (Makati), Bel-Air (Makati) twice.
    let (far, _) = order_in(&db, CALOOCAN, None, &[(1, 24)], 0, "far@example.com").await;
    let (city, _) = order_in(&db, POBLACION, None, &[(1, 24)], 0, "city@example.com").await;
    let planned = a_delivery(&db, "planned@example.com").await;
    let near = a_delivery(&db, "near@example.com").await;
    dora.set_status(&[far, city, planned, near], "confirmed")
        .await;
    // The runs page lists them grouped by barangay, in the order of the barangays' names.
    let page = dora.get("/api/v1/staff/runs").await;
    assert_eq!(ids(&page["waiting"]), [far, planned, near, city], "{page}");
    let today = page["today"].clone();
    let run = dora.plan(ben.id, &today, &[planned]).await;
    let view = dora.run(run).await;
    assert_eq!(ids(&view["waiting"]), [near, city, far], "{view}");
}
both!(a_run_offers_the_orders_nearest_it);

/// A rider sees and ends the stops of their own runs only: another rider's run, or a stop that
/// is not on the run, is answered as one that does not exist (404), the same as no run at all;
/// planning, arranging, sending, closing and the day's report are not theirs (404). A shopper's
/// session, as a bearer token or a cookie, reaches no run call (401). A run or an order named by
/// what is no id (0, negative, too big, not a number) is a 4xx, never a 500.
async fn a_rider_reaches_only_their_own_runs(b: Backend) {
    let db = database(b);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let cai = Staff::signed_in(&db, "cai@tala.example", "rider").await;
    let x = a_delivery(&db, "x@example.com").await;
    let y = a_delivery(&db, "y@example.com").await;
    dora.set_status(&[x, y], "confirmed").await;
    let today = dora.get("/api/v1/staff/runs").await["today"].clone();
    let bens = dora.plan(ben.id, &today, &[x]).await;
    let cais = dora.plan(cai.id, &today, &[y]).await;
    ok(&dora.send_out(bens).await);
    ok(&dora.send_out(cais).await);

    // Cai's run, to Ben, is no run: the same answer as a run that does not exist.
    let delivered = json!({"outcome": "delivered", "cash_received": "1,578.00"});
    let theirs = ben
        .send("GET", &format!("/api/v1/staff/runs/{cais}"), None)
        .await;
    let none = ben.send("GET", "/api/v1/staff/runs/999999", None).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);
    assert_eq!((theirs.status, theirs.text()), (none.status, none.text()));
    let r = ben.end(cais, y, delivered.clone()).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    // Cai's order through Ben's own run: not on it.
    let r = ben.end(bens, y, delivered.clone()).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    let r = ben.end(bens, 999_999, delivered.clone()).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    let list = ben.get("/api/v1/staff/runs").await;
    assert_eq!(ids(&list["runs"]), [bens]);
    // What dispatchers do is not the rider's, on their own run too.
    for (uri, body) in [
        (
            "/api/v1/staff/runs".to_string(),
            Some(json!({"rider_id": ben.id, "day": today, "order_ids": [y]})),
        ),
        (
            format!("/api/v1/staff/runs/{bens}/stops"),
            Some(json!({"order_ids": [y]})),
        ),
        (
            format!("/api/v1/staff/runs/{bens}/arrange"),
            Some(json!({"order_id": x, "move": "remove"})),
        ),
        (format!("/api/v1/staff/runs/{bens}/send"), None),
        (
            format!("/api/v1/staff/runs/{bens}/close"),
            Some(json!({"cash_handed_in": "0"})),
        ),
        ("/api/v1/staff/day".to_string(), None),
    ] {
        let method = if uri.ends_with("/day") { "GET" } else { "POST" };
        let r = ben.send(method, &uri, body).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{uri}: {}", r.text());
    }
    // Nothing of the above changed a thing; Cai's stop is still to end, by Cai.
    assert_eq!(stop_of(&cai.run(cais).await, y)["outcome"], "pending");
    let r = cai.end(cais, y, delivered.clone()).await;
    assert_eq!(stop_of(&ok(&r), y)["outcome"], "delivered");

    // A shopper's session reaches no run call.
    let member = support::member(&db, 1).await;
    let calls = [
        ("GET", "/api/v1/staff/runs".to_string()),
        ("POST", "/api/v1/staff/runs".to_string()),
        ("GET", format!("/api/v1/staff/runs/{bens}")),
        ("POST", format!("/api/v1/staff/runs/{bens}/stops")),
        ("POST", format!("/api/v1/staff/runs/{bens}/arrange")),
        ("POST", format!("/api/v1/staff/runs/{bens}/send")),
        ("POST", format!("/api/v1/staff/runs/{bens}/stops/{x}")),
        ("POST", format!("/api/v1/staff/runs/{bens}/close")),
        ("GET", "/api/v1/staff/day".to_string()),
    ];
    for (method, uri) in &calls {
        for header in [
            ("authorization", format!("Bearer {member}")),
            ("cookie", format!("session={member}")),
            ("cookie", format!("{}={member}", api::staff::COOKIE)),
        ] {
            let mut req = match *method {
                "GET" => TestRequest::get(),
                _ => TestRequest::post().set_json(&delivered),
            }
            .uri(uri)
            .insert_header(("origin", OWN))
            .insert_header(header.clone());
            req = req.insert_header(("accept", "application/json"));
            let r = support::send_api(&db.pool, req).await;
            assert_eq!(
                r.status,
                StatusCode::UNAUTHORIZED,
                "{uri} {header:?}: {}",
                r.text()
            );
        }
    }
    assert_eq!(stop_of(&ben.run(bens).await, x)["outcome"], "pending");

    // What is no id, in every place an id goes: a 4xx, never a 500 nor a run.
    for bad in [
        "0",
        "-1",
        "99999999999999999999",
        "9223372036854775807",
        "abc",
        "1.5",
        "%20",
        "1%00",
    ] {
        for (method, uri, body) in [
            ("GET", format!("/api/v1/staff/runs/{bad}"), None),
            (
                "POST",
                format!("/api/v1/staff/runs/{bad}/stops"),
                Some(json!({"order_ids": [y]})),
            ),
            (
                "POST",
                format!("/api/v1/staff/runs/{bad}/arrange"),
                Some(json!({"order_id": x, "move": "up"})),
            ),
            ("POST", format!("/api/v1/staff/runs/{bad}/send"), None),
            (
                "POST",
                format!("/api/v1/staff/runs/{bad}/close"),
                Some(json!({"cash_handed_in": "1"})),
            ),
            (
                "POST",
                format!("/api/v1/staff/runs/{bad}/stops/{x}"),
                Some(delivered.clone()),
            ),
            (
                "POST",
                format!("/api/v1/staff/runs/{bens}/stops/{bad}"),
                Some(delivered.clone()),
            ),
        ] {
            for who in [&dora, &ben] {
                let r = who.send(method, &uri, body.clone()).await;
                rejected(&r, &uri);
                assert_ne!(r.status, StatusCode::UNAUTHORIZED, "{uri}");
            }
        }
    }
    for bad in [
        json!([0]),
        json!([-1]),
        json!(["abc"]),
        json!(["1e3"]),
        json!([1.5]),
        json!(99_999_999_999_999_999_999.0),
        json!({"a": 1}),
    ] {
        let body = json!({"rider_id": ben.id, "day": today, "order_ids": bad});
        let r = dora.post("/api/v1/staff/runs", body).await;
        rejected(&r, &bad.to_string());
        let r = dora
            .post(
                &format!("/api/v1/staff/runs/{bens}/arrange"),
                json!({"order_id": bad, "move": "up"}),
            )
            .await;
        rejected(&r, &bad.to_string());
    }
    for bad in [json!(-1), json!(0), json!("ben"), json!(1.5)] {
        let body = json!({"rider_id": bad, "day": today, "order_ids": [y]});
        let r = dora.post("/api/v1/staff/runs", body).await;
        rejected(&r, &bad.to_string());
    }
    for bad in [json!("sideways"), json!("UP"), json!(1), json!(null)] {
        let r = dora
            .post(
                &format!("/api/v1/staff/runs/{bens}/arrange"),
                json!({"order_id": x, "move": bad}),
            )
            .await;
        rejected(&r, &bad.to_string());
    }
    assert_eq!(stop_of(&ben.run(bens).await, x)["outcome"], "pending");
    assert_eq!(
        ids(&dora.get("/api/v1/staff/runs").await["runs"]),
        [bens, cais]
    );
}
both!(a_rider_reaches_only_their_own_runs);

/// Calls sent at once to one API over the test database, as concurrent clients of one server
/// send them: each a member of staff, a POST's path and its body; each answer's status and JSON.
async fn at_once(
    db: &TestDb,
    calls: Vec<(&Staff<'_>, String, Option<Value>)>,
) -> Vec<(StatusCode, Value)> {
    let mut config = framework::ApiConfig::default();
    config
        .settings
        .insert(api::orders::OrdersTo("orders@tala.example".into()));
    let outbox = tempfile::tempdir().unwrap();
    let state = support::api_state(&db.pool, outbox.path(), config);
    let app = actix_web::test::init_service(
        actix_web::App::new()
            .app_data(state)
            .configure(framework::configure),
    )
    .await;
    let reqs = calls.into_iter().map(|(who, uri, body)| {
        let mut req = TestRequest::post()
            .uri(&uri)
            .insert_header(("origin", OWN))
            .insert_header((
                "cookie",
                format!("{}={}", api::staff::COOKIE, who.cookie.as_ref().unwrap()),
            ));
        if let Some(b) = body {
            req = req.set_json(b);
        }
        req.to_request()
    });
    let answers =
        futures_util::future::join_all(reqs.map(|r| actix_web::test::call_service(&app, r))).await;
    let mut out = Vec::new();
    for res in answers {
        let r = support::read(res).await;
        out.push((r.status, r.json_or_null()));
    }
    out
}

/// Exactly one of `answers` is a 200; the others are 409s saying why.
fn one_wins(answers: &[(StatusCode, Value)]) -> usize {
    let won: Vec<usize> = (0..answers.len())
        .filter(|i| answers[*i].0 == StatusCode::OK)
        .collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    for (i, (s, v)) in answers.iter().enumerate() {
        if i != won[0] {
            assert_eq!(*s, StatusCode::CONFLICT, "{answers:?}");
            assert!(v["error"].is_string(), "{v}");
        }
    }
    won[0]
}

/// Two dispatchers at once: planning one order on two runs, adding it to two runs, sending one
/// run, ending one stop, closing one run. Each time exactly one wins, the other is told why
/// (409; a second send is answered as sent), and the loser leaves nothing behind: the order on one pending stop, one run made, each
/// shopper mailed once, one entry in the audit log.
async fn two_dispatchers_at_once(b: Backend) {
    let db = database(b);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let eve = Staff::signed_in(&db, "eve@tala.example", "manager").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let cai = Staff::signed_in(&db, "cai@tala.example", "rider").await;
    let mut orders = Vec::new();
    for n in 0..4 {
        orders.push(a_delivery(&db, &format!("o{n}@example.com")).await);
    }
    dora.set_status(&orders, "confirmed").await;
    let today = dora.get("/api/v1/staff/runs").await["today"].clone();

    // One order planned on two runs at once, a few times over: one run each time.
    let mut runs = Vec::new();
    for (n, o) in orders[..3].iter().enumerate() {
        let plan = |rider: i64| Some(json!({"rider_id": rider, "day": today, "order_ids": [o]}));
        let answers = at_once(
            &db,
            vec![
                (&dora, "/api/v1/staff/runs".into(), plan(ben.id)),
                (&eve, "/api/v1/staff/runs".into(), plan(cai.id)),
            ],
        )
        .await;
        let won = one_wins(&answers);
        runs.push(answers[won].1["run_id"].as_i64().unwrap());
        assert_eq!(
            runs_and_open_stops(&db, *o),
            (n as i64 + 1, 1),
            "{answers:?}"
        );
    }
    // The last order added to two planned runs at once: on one of them.
    let o = orders[3];
    let add = || Some(json!({ "order_ids": [o] }));
    let answers = at_once(
        &db,
        vec![
            (
                &dora,
                format!("/api/v1/staff/runs/{}/stops", runs[0]),
                add(),
            ),
            (&eve, format!("/api/v1/staff/runs/{}/stops", runs[1]), add()),
        ],
    )
    .await;
    one_wins(&answers);
    assert_eq!(runs_and_open_stops(&db, o).1, 1);

    // One run sent twice at once: out once, each shopper mailed once.
    let run = runs[2];
    let sheet = dora.run(run).await;
    let on_it = stop_orders(&sheet);
    let send = format!("/api/v1/staff/runs/{run}/send");
    let answers = at_once(
        &db,
        vec![(&dora, send.clone(), None), (&eve, send.clone(), None)],
    )
    .await;
    // Both answered as sent (the second finds it out already), one of them sent it.
    assert!(
        answers.iter().all(|(s, _)| *s == StatusCode::OK),
        "{answers:?}"
    );
    let sent: Vec<&Value> = answers
        .iter()
        .map(|(_, v)| &v["message"])
        .filter(|m| m.as_str().is_some_and(|m| m.contains("out for delivery")))
        .collect();
    assert_eq!(sent.len(), 1, "{answers:?}");
    for id in &on_it {
        let subject = format!("Your order {} is out for delivery", number(*id));
        assert_eq!(mails_with(&db, &subject), 1, "{subject}");
    }

    // One stop ended by its rider and a dispatcher at once, differently: one outcome stays.
    let rider = if sheet["run"]["rider_id"] == ben.id {
        &ben
    } else {
        &cai
    };
    let stop = format!("/api/v1/staff/runs/{run}/stops/{}", on_it[0]);
    let answers = at_once(
        &db,
        vec![
            (rider, stop.clone(), Some(json!({"outcome": "delivered", "cash_received": "1,578.00", "empties_returned": 0}))),
            (&dora, stop.clone(), Some(json!({"outcome": "failed", "reason": "Refused the order"}))),
        ],
    )
    .await;
    let won = one_wins(&answers);
    let status = dora.order(on_it[0]).await["status"].clone();
    let outcome = stop_of(&dora.run(run).await, on_it[0])["outcome"].clone();
    if won == 0 {
        assert_eq!((status, outcome), (json!("completed"), json!("delivered")));
    } else {
        assert_eq!((status, outcome), (json!("confirmed"), json!("failed")));
    }

    // Closed twice at once: once, on one cash.
    let close = format!("/api/v1/staff/runs/{run}/close");
    let answers = at_once(
        &db,
        vec![
            (
                &dora,
                close.clone(),
                Some(json!({"cash_handed_in": "1,578.00", "note": "Counted"})),
            ),
            (
                &eve,
                close.clone(),
                Some(json!({"cash_handed_in": "1,000.00", "note": "Counted"})),
            ),
        ],
    )
    .await;
    let won = one_wins(&answers);
    let handed = if won == 0 { 157_800 } else { 100_000 };
    assert_eq!(dora.run(run).await["cash_handed_in"], handed);

    // One entry for each write that won.
    let mut conn = db.pool.get().unwrap();
    let actions: Vec<String> = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.like("run.%"))
        .order(db::schema::audit_log::id.asc())
        .select(db::schema::audit_log::action)
        .load(&mut conn)
        .unwrap();
    assert_eq!(
        actions,
        [
            "run.create",
            "run.create",
            "run.create",
            "run.add",
            "run.send",
            "run.stop",
            "run.close"
        ]
    );
}
both!(two_dispatchers_at_once);

/// The orders board moves orders on its own, runs or not: an order the board completed while
/// its run was out still ends its stop as delivered (the cash recorded; completed once, mailed
/// once), one it cancelled ends as failed (and stays cancelled), so the run still closes. An
/// order the board sent out while its run was planned holds the send back until it is taken
/// off. The last stop taken off a run deletes the run.
async fn the_board_and_the_runs_agree(b: Backend) {
    let db = database(b);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let p = a_delivery(&db, "p@example.com").await;
    let q = a_delivery(&db, "q@example.com").await;
    let s = a_delivery(&db, "s@example.com").await;
    let t = a_delivery(&db, "t@example.com").await;
    dora.set_status(&[p, q, s, t], "confirmed").await;
    let today = dora.get("/api/v1/staff/runs").await["today"].clone();
    // Orders named as a form names them: their numbers, in one text.
    let r = dora
        .post(
            "/api/v1/staff/runs",
            json!({"rider_id": ben.id, "day": today, "order_ids": format!("{},{},{}", number(p), number(q), number(s))}),
        )
        .await;
    let run = ok(&r)["run_id"].as_i64().unwrap();
    assert_eq!(stop_orders(&dora.run(run).await), [p, q, s]);

    // Sent out on the board first: the run's send is refused until it is taken off.
    dora.set_status(&[s], "out_for_delivery").await;
    let r = dora.send_out(run).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert_eq!(dora.order(p).await["status"], "confirmed");
    ok(&dora.arrange(run, s, "remove").await);
    ok(&dora.send_out(run).await);

    // Completed and cancelled on the board while out.
    dora.set_status(&[p], "completed").await;
    dora.set_status(&[q], "cancelled").await;
    let completed = format!("Your order {} is completed", number(p));
    assert_eq!(mails_with(&db, &completed), 1);
    // The cancelled order was not delivered: the rider says it failed.
    let r = ben
        .end(
            run,
            q,
            json!({"outcome": "delivered", "cash_received": "1,578.00"}),
        )
        .await;
    assert!(refused(&r, "outcome").contains("mark its stop failed"));
    let r = ben
        .end(
            run,
            q,
            json!({"outcome": "failed", "reason": "Refused the order"}),
        )
        .await;
    assert_eq!(stop_of(&ok(&r), q)["outcome"], "failed");
    assert_eq!(dora.order(q).await["status"], "cancelled");
    // The completed one was delivered (not failed): its cash is recorded, the order completed
    // once.
    let r = ben
        .end(
            run,
            p,
            json!({"outcome": "failed", "reason": "Ran out of time"}),
        )
        .await;
    assert!(refused(&r, "outcome").contains("mark its stop delivered"));
    let r = ben
        .end(
            run,
            p,
            json!({"outcome": "delivered", "cash_received": "1,578.00", "empties_returned": 0}),
        )
        .await;
    let view = ok(&r);
    assert_eq!(stop_of(&view, p)["outcome"], "delivered");
    assert_eq!(stop_of(&view, p)["cash_received"], 157_800);
    assert_eq!(view["can_close"], false, "the rider does not close");
    let order = dora.order(p).await;
    assert_eq!(order["status"], "completed");
    let steps = order["history"].as_array().unwrap();
    assert_eq!(
        steps.iter().filter(|h| h["status"] == "completed").count(),
        1,
        "{order}"
    );
    assert_eq!(mails_with(&db, &completed), 1);
    // Every stop has ended: the run closes.
    let closed = ok(&dora.close(run, "1,578.00").await);
    assert_eq!(closed["cash_difference"], 0);

    // A run whose last stop is taken off is deleted; its page is gone.
    let lone = dora.plan(ben.id, &today, &[t]).await;
    let gone = ok(&dora.arrange(lone, t, "remove").await);
    assert_eq!(gone["run"], Value::Null);
    assert_eq!(
        gone["link"],
        format!("/staff/runs?day={}&done=deleted", today.as_str().unwrap())
    );
    assert_eq!(
        gone["message"],
        format!("Run {lone} had no stop left and was deleted.")
    );
    let r = dora
        .send("GET", &format!("/api/v1/staff/runs/{lone}"), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let page = dora.get("/api/v1/staff/runs").await;
    assert_eq!(ids(&page["runs"]), [run]);
    assert_eq!(ids(&page["waiting"]), [t]);
    let r = dora.send_out(lone).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}
both!(the_board_and_the_runs_agree);

/// "My Runs": a rider's page shows their runs of today and the next 7 days, by day (any still
/// open from an earlier day first), a run further on once its days are shown; from a day chosen,
/// the 8 days from it. Dispatchers keep the day's view.
async fn my_runs_show_the_coming_days(b: Backend) {
    let db = database(b);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let cai = Staff::signed_in(&db, "cai@tala.example", "rider").await;
    let mut orders = Vec::new();
    for n in 0..4 {
        orders.push(a_delivery(&db, &format!("m{n}@example.com")).await);
    }
    dora.set_status(&orders, "confirmed").await;
    let today = dora.get("/api/v1/staff/runs").await["today"].clone();
    let tomorrow = day_after(&today);
    // Today and the next 7: the last day shown; the day after it is not.
    let mut week = today.clone();
    for _ in 0..7 {
        week = day_after(&week);
    }
    let later = day_after(&week);
    let now = dora.plan(ben.id, &today, &[orders[0]]).await;
    let next = dora.plan(ben.id, &tomorrow, &[orders[1]]).await;
    let last = dora.plan(ben.id, &week, &[orders[2]]).await;
    let far = dora.plan(ben.id, &later, &[orders[3]]).await;

    let mine = ben.get("/api/v1/staff/runs").await;
    assert_eq!((&mine["day"], &mine["until"]), (&today, &week), "{mine}");
    assert_eq!(ids(&mine["runs"]), [now, next, last], "{mine}");
    let days: Vec<&Value> = mine["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["day"])
        .collect();
    assert_eq!(days, [&today, &tomorrow, &week]);
    assert_eq!(cai.get("/api/v1/staff/runs").await["runs"], json!([]));
    // From tomorrow: today's run, still open, first; then the 8 days from tomorrow.
    let from = format!("/api/v1/staff/runs?day={}", tomorrow.as_str().unwrap());
    let page = ben.get(&from).await;
    assert_eq!(page["until"], later);
    assert_eq!(ids(&page["runs"]), [now, next, last, far]);
    // A dispatcher's page is the day's, as it was, whichever day.
    let desk = dora.get("/api/v1/staff/runs").await;
    assert_eq!((ids(&desk["runs"]), &desk["until"]), (vec![now], &today));
    let desk = dora.get(&from).await;
    assert_eq!(
        (ids(&desk["runs"]), &desk["until"]),
        (vec![next], &tomorrow)
    );
}
both!(my_runs_show_the_coming_days);
