//! One page request: plan (route, gate, data) -> render (QuickJS) -> respond (shell, status).
//! The security headers come from [`crate::security`] for every answer.

use actix_web::http::{header, Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
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

pub async fn page(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .finish();
    }
    // SPEC 2: the product page without a slug goes home.
    if req.path().trim_end_matches('/') == "/single-product" {
        return redirect("/", StatusCode::FOUND);
    }
    let planned = plan_page(&req, &state).await;
    if let Some(to) = &planned.redirect {
        return redirect(to, StatusCode::FOUND);
    }
    let output = render(&state, &planned).await;
    respond(&state, planned, output)
}

/// Plans the page with one connection for all its data; without a connection it still plans,
/// and the client fetches the data.
async fn plan_page(req: &HttpRequest, state: &web::Data<WebState>) -> Plan {
    let (path, query) = (req.path().to_string(), req.query_string().to_string());
    let choices = crate::gate::choices(req);
    let maintenance = state.api.maintenance.is_on();
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
            Ok(plan(Some(ctx), &st.routes, &st.config.public_url, &request))
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
        plan(None, &state.routes, &state.config.public_url, &request)
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
            log::warn!("ssr {}: {e}; the client renders this page", plan.url);
            RenderOutput::default()
        }
    }
}

/// The shell around the rendered body, with the page's status and caching headers.
fn respond(state: &WebState, plan: Plan, output: RenderOutput) -> HttpResponse {
    let Plan {
        route,
        status,
        canonical,
        url,
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
    match html {
        Ok(html) => {
            let mut res = HttpResponse::build(status);
            if status == StatusCode::SERVICE_UNAVAILABLE {
                res.insert_header((header::RETRY_AFTER, "300"));
            }
            res.insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
                .insert_header((header::CACHE_CONTROL, "private, no-cache"))
                .insert_header((header::VARY, "Cookie"))
                .body(html)
        }
        Err(e) => {
            log::error!("shell {url}: {e}");
            HttpResponse::InternalServerError()
                .content_type("text/plain; charset=utf-8")
                .body("Something went wrong on our side. Please try again.")
        }
    }
}
