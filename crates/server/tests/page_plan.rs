//! What planning a page costs the database: the shopper's barangay (from the gate cookie, parsed
//! once at the edge) is looked up once per page, however many of the page's calls need it.
//! Counted with diesel's instrumentation, on SQLite and PostgreSQL.

use crate::support;

use domain::{BarangayId, PackagingId};
use support::{database, Backend, MAKATI};

/// Plans `path` for a shopper past the gates in Makati (Bel-Air); answers every query it ran.
fn queries_of(b: Backend, path: &str) -> (Vec<String>, serde_json::Value) {
    let db = database(b);
    let cfg = support::store_config(&db.url, false);
    let api = server::api_state(db.pool.clone(), &cfg).expect("api state");
    let state = server::web_state(&api, &cfg).expect("web state");
    let mut conn = db.pool.get().expect("connection");
    let seen = support::queries_run(&mut conn);
    let choices = api::gate::Choices {
        consent: true,
        packaging: Some(PackagingId::from_db(1)),
        fulfillment: Some(domain::DEFAULT_FULFILLMENT),
        barangay: BarangayId::parse(&MAKATI.to_string()),
        street: None,
    };
    let plan = server::plan_page(&mut conn, &state, &cfg.public_url, path, choices);
    let queries = seen.lock().unwrap().clone();
    (queries, plan.input)
}

fn barangay_lookups(queries: &[String]) -> usize {
    queries
        .iter()
        .filter(|q| q.replace('`', "\"").contains("\"barangays\""))
        .count()
}

async fn the_barangay_is_looked_up_once_per_page(b: Backend) {
    for path in [
        "/buy-beer",
        "/",
        "/promos",
        "/single-product/tala-light-330ml",
    ] {
        let (queries, input) = queries_of(b, path);
        assert_eq!(
            barangay_lookups(&queries),
            1,
            "{path}: the barangay is looked up once ({} queries in all):\n{}",
            queries.len(),
            queries.join("\n")
        );
        assert_eq!(input["gate"]["barangayName"], "Bel-Air", "{path}");
        assert!(
            !input["state"]["queries"].as_array().unwrap().is_empty(),
            "{path}: the page has its data"
        );
    }
}
both!(the_barangay_is_looked_up_once_per_page);
