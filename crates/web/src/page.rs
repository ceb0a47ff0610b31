//! One page request: a finished page from the cache, or plan (route, gate, data) -> render
//! (QuickJS) -> respond (shell, status), kept for the next shopper who asks the same. The security
//! headers come from [`crate::security`] for every answer.

use std::sync::Arc;

use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::http::{header, Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use api::cache::Cached;
use api::gate::Choices;
use serde::Deserialize;
use serde_json::Value;

use crate::plan::{plan, Plan, Request};
use crate::shell::{escape_json_for_script, ShellPage};
use crate::WebState;

pub fn redirect(to: &str, status: StatusCode) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

/// Pages answered with the client-render fallback since the start (a failed or refused render).
pub static FALLBACKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The longest path and query a page takes; a longer address is refused, not echoed.
pub const MAX_URL: usize = 2_000;

pub async fn page(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .content_type("text/plain; charset=utf-8")
            .body("Pages are read with GET.");
    }
    if req.path().len() + req.query_string().len() > MAX_URL {
        return HttpResponse::UriTooLong()
            .content_type("text/plain; charset=utf-8")
            .body("This address is too long.");
    }
    // SPEC 2: the product page without a slug goes home.
    if req.path().trim_end_matches('/') == "/single-product" {
        return redirect("/", StatusCode::FOUND);
    }
    let choices = crate::gate::choices(&req);
    let maintenance = state.api.watch.maintenance();
    let query = crate::plan::page_query(req.query_string());
    let key = (!maintenance)
        .then(|| page_key(req.path(), &query, &choices, state.api.watch.data_version()));
    if let Some(hit) = key.and_then(|k| state.api.cache.get(k)) {
        return hit.respond(&req);
    }
    let planned = plan_page(&req, &query, &state, choices, maintenance).await;
    if let Some(to) = &planned.redirect {
        return redirect(to, StatusCode::FOUND);
    }
    let output = render(&state, &planned).await;
    // Only pages that exist are kept: a flood of made-up addresses must not evict them.
    let keep = planned.complete && !output.html.is_empty() && planned.status == StatusCode::OK;
    match respond(&state, planned, output) {
        Ok(page) => {
            let page = Arc::new(page);
            if let (true, Some(k)) = (keep, key) {
                state.api.cache.insert(k, page.clone());
            }
            page.respond(&req)
        }
        Err(e) => {
            log::error!("shell {}: {e}", req.path());
            HttpResponse::InternalServerError()
                .content_type("text/plain; charset=utf-8")
                .body("Something went wrong on our side. Please try again.")
        }
    }
}

/// Everything that shapes a page: its address, the shopper's gate choices, the data version and
/// the business day (dated notices and promos).
fn page_key(path: &str, query: &str, c: &Choices, data_version: u64) -> u128 {
    let id = |v: Option<i64>| v.unwrap_or(0).to_le_bytes();
    let today = domain::calendar::iso_date(domain::calendar::manila_now().date());
    api::cache::key(&[
        b"page",
        path.as_bytes(),
        query.as_bytes(),
        &[u8::from(c.consent)],
        &id(c.packaging.map(|p| i64::from(p.get()))),
        &id(c.fulfillment.map(|f| i64::from(f.get()))),
        &id(c.barangay.map(|b| b.get())),
        &id(c.street.map(|s| i64::from(s.get()))),
        &data_version.to_le_bytes(),
        today.as_bytes(),
    ])
}

/// Plans the page with one connection for all its data; without a connection it still plans,
/// and the client fetches the data.
async fn plan_page(
    req: &HttpRequest,
    query: &str,
    state: &web::Data<WebState>,
    choices: Choices,
    maintenance: bool,
) -> Plan {
    let (path, query) = (req.path().to_string(), query.to_string());
    let st = state.clone();
    let (p, q) = (path.clone(), query.clone());
    let planned = state
        .api
        .run(move |ctx| {
            let request = Request {
                path: &p,
                query: &q,
                choices,
                maintenance,
            };
            Ok(plan(
                Some(ctx),
                &st.routes,
                &st.api.config.public_url,
                &request,
            ))
        })
        .await;
    planned.unwrap_or_else(|e| {
        log::error!("page {path}: {e}");
        let request = Request {
            path: &path,
            query: &query,
            choices,
            maintenance: false,
        };
        plan(None, &state.routes, &state.api.config.public_url, &request)
    })
}

/// What the bundle's `render` answers.
#[derive(Debug, Default, Deserialize)]
struct RenderOutput {
    html: String,
    #[serde(default)]
    head: Head,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Head {
    title: Option<String>,
    description: Option<String>,
    #[serde(default)]
    json_ld: Vec<Value>,
}

/// Renders on the SSR threads; a failed render is an empty body the client renders instead.
async fn render(state: &WebState, plan: &Plan) -> RenderOutput {
    match state.renderer.render(plan.input.to_string()).await {
        Ok(r) => serde_json::from_str(&r.output).unwrap_or_else(|e| {
            log::error!("ssr {}: unreadable output: {e}", plan.url);
            RenderOutput::default()
        }),
        Err(e) => {
            FALLBACKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            log::warn!("ssr {}: {e}; the client renders this page", plan.url);
            RenderOutput::default()
        }
    }
}

/// The shell around the rendered body, with the page's status and caching headers.
fn respond(state: &WebState, plan: Plan, output: RenderOutput) -> Result<Cached, crate::WebError> {
    let Plan {
        route,
        status,
        canonical,
        mut input,
        ..
    } = plan;
    input["ssr"] = Value::Bool(!output.html.is_empty());
    let json_ld: Vec<String> = output
        .head
        .json_ld
        .iter()
        .map(|v| escape_json_for_script(&v.to_string()))
        .collect();
    let html = state.shell.render(&ShellPage {
        title: output.head.title.as_deref().unwrap_or(&route.title),
        description: output
            .head
            .description
            .as_deref()
            .unwrap_or(&route.description),
        canonical: canonical.as_deref().unwrap_or(""),
        noindex: status != StatusCode::OK,
        body: &output.html,
        json_ld: &json_ld,
        state_json: &input.to_string(),
    });
    let mut headers: Vec<(HeaderName, HeaderValue)> = vec![
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        ),
        // Browsers keep the page but ask again each time (answered 304 while it is the same).
        (
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        ),
        (header::VARY, HeaderValue::from_static("Cookie")),
    ];
    if status == StatusCode::SERVICE_UNAVAILABLE {
        headers.push((header::RETRY_AFTER, HeaderValue::from_static("300")));
    }
    Ok(Cached::new(status, headers, html?.into()))
}
