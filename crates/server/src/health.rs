//! What a load balancer asks: `GET /healthz` (the process answers: 200 `ok`, nothing else
//! looked at) and `GET /readyz` (whether this app server can serve: the database answers within
//! [`READY_WAIT`], its migrations are the ones this build knows, the render threads have a
//! runtime; 200 listing each part, or 503 naming the failing one). Both are outside `/api`, so
//! neither the maintenance switch nor the cross-site rule applies, and neither is cached.

use std::time::Duration;

use actix_web::{web, HttpResponse};

/// How long readiness waits for a database connection and its answer.
pub const READY_WAIT: Duration = Duration::from_secs(2);

/// Readiness writes to the database at most this often (the last answer otherwise).
pub const WRITE_PROBE_EVERY: Duration = Duration::from_secs(5);

fn plain(status: actix_web::http::StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/plain; charset=utf-8")
        .insert_header(("cache-control", "no-store"))
        .body(body)
}

/// `GET /healthz`.
pub async fn healthz() -> HttpResponse {
    plain(actix_web::http::StatusCode::OK, "ok\n".into())
}

/// The database's part of readiness: `Ok(pending migrations)` or why it cannot say.
async fn database(pool: db::DbPool) -> Result<Vec<String>, String> {
    // The probe takes a connection of its own from the pool, not a request's turn: a crowd
    // waiting for turns is not a database out of reach. Bounded twice: the pool's wait, and the
    // answer's.
    let probe = actix_web::rt::task::spawn_blocking(move || {
        let mut conn = pool
            .get_timeout(READY_WAIT)
            .map_err(|e| format!("no connection: {e}"))?;
        db::pending_migrations(&mut conn).map_err(|e| e.to_string())
    });
    match actix_web::rt::time::timeout(READY_WAIT + Duration::from_millis(500), probe).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => Err(format!("probe failed: {e}")),
        Err(_) => Err("no answer in time".into()),
    }
}

/// `GET /readyz`.
pub async fn readyz(
    api: web::Data<framework::ApiState>,
    pages: web::Data<::web::WebState>,
) -> HttpResponse {
    let mut ready = true;
    let mut lines = Vec::new();
    match database(api.db.pool().clone()).await {
        Ok(pending) => {
            // Reached is not enough: a full disk or a read-only database takes no order. One
            // row rewritten, at most every WRITE_PROBE_EVERY.
            match api.db.writable(WRITE_PROBE_EVERY, READY_WAIT).await {
                Ok(()) => lines.push("database: ok".to_string()),
                Err(kind) => {
                    ready = false;
                    tracing::warn!("readiness: the database takes no write ({})", kind.as_str());
                    lines.push(format!("database: not writable ({})", kind.as_str()));
                }
            }
            if pending.is_empty() {
                lines.push("migrations: ok".into());
            } else {
                ready = false;
                tracing::warn!("readiness: migrations pending: {}", pending.join(", "));
                lines.push(format!(
                    "migrations: {} pending (run `store migrate`)",
                    pending.len()
                ));
            }
        }
        Err(e) => {
            ready = false;
            // The reason goes to the log, not to whoever asks.
            tracing::warn!("readiness: the database is out of reach: {e}");
            lines.push(format!(
                "database: unreachable (no answer within {} s)",
                READY_WAIT.as_secs()
            ));
            lines.push("migrations: unknown".into());
        }
    }
    let (alive, threads) = (pages.renderer.threads_alive(), pages.renderer.threads());
    if alive == 0 {
        ready = false;
        lines.push(format!("render: down (0 of {threads} threads alive)"));
    } else {
        lines.push(format!("render: ok ({alive} of {threads} threads alive)"));
    }
    if api.watch.maintenance() {
        lines.push("maintenance: on (pages answer the maintenance page)".into());
    }
    let (status, head) = if ready {
        (actix_web::http::StatusCode::OK, "ready")
    } else {
        (
            actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
            "not ready",
        )
    };
    plain(status, format!("{head}\n{}\n", lines.join("\n")))
}
