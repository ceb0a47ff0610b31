//! One page request end to end: route, gate cookies, the page's data in process, the render, the
//! shell, the status.

use actix_web::http::{header, Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use api::{ApiConfig, ApiError, Params};
use db::{queries, AnyConnection};
use domain::FilterType;
use rand::RngCore;
use serde_json::{json, Value};

use crate::gate::GateCookies;
use crate::keys::{fill_template, Vars};
use crate::routes::{RouteDef, RouteTable};
use crate::shell::ShellPage;
use crate::WebState;

/// What the request asks for, read before touching the database.
pub struct Ask {
    pub cookies: GateCookies,
    pub filter_type: Option<FilterType>,
    pub params: Vars,
    pub templates: Vec<String>,
}

/// A page ready to render: its route, status and the render input.
pub struct Plan {
    pub route: RouteDef,
    pub status: StatusCode,
    pub not_found: bool,
    pub filter_type: Option<FilterType>,
    pub url: String,
    /// `{url, route, status, vars, state}`: what the server bundle's `render` takes.
    pub input: Value,
}

/// Plans the page for a path and query: the route, the gate, the page's data fetched in process.
/// Data that cannot be had is left out (the client fetches it and shows its error state).
pub fn plan(
    conn: Option<&mut AnyConnection>,
    api: &ApiConfig,
    routes: &RouteTable,
    path: &str,
    query: &str,
    cookies: GateCookies,
) -> Plan {
    let (route, params) = routes.find(path);
    let not_found = route.name == routes.not_found.name;
    let status = if not_found {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    };
    let filter_type = Params::parse(query)
        .ok()
        .and_then(|p| p.get("filterByType").and_then(FilterType::parse));
    let ask = Ask {
        cookies,
        filter_type,
        params,
        templates: route.data.clone(),
    };
    let (vars, queries) = match conn.map(|c| load(c, api, &ask)) {
        Some(Ok(loaded)) => loaded,
        Some(Err(e)) => {
            log::error!("page {path}: {e}");
            (Vars::new(), Vec::new())
        }
        None => (Vars::new(), Vec::new()),
    };
    let url = if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{query}")
    };
    let input = json!({
        "url": url,
        "route": route.name,
        "status": status.as_u16(),
        "vars": vars,
        "state": { "mutations": [], "queries": queries },
    });
    Plan {
        route: route.clone(),
        status,
        not_found,
        filter_type,
        url,
        input,
    }
}

/// Resolves the key variables against the database: unknown ids count as unset.
fn resolve_vars(conn: &mut AnyConnection, ask: &Ask) -> Result<Vars, ApiError> {
    let mut vars = ask.params.clone();
    if let Some(id) = ask.cookies.barangay_id {
        if queries::barangay(conn, id)?.is_some() {
            vars.insert("barangay".into(), id.to_string());
        }
    }
    let packaging = match ask.filter_type {
        Some(ft) => queries::packaging_by_filter_type(conn, ft.as_str())?.map(|p| p.id),
        None => match ask
            .cookies
            .category_id
            .and_then(|id| i32::try_from(id).ok())
        {
            Some(id) => queries::packaging(conn, id)?.map(|p| p.id),
            None => None,
        },
    };
    if let Some(id) = packaging {
        vars.insert("packaging".into(), id.to_string());
    }
    Ok(vars)
}

/// A query of react-query's dehydrated state, as `hydrate` takes it. Its timestamps come from
/// the data (there is none yet, so 0), never from the clock, so equal data renders equal input.
fn dehydrated_query(key: &str, data: Value) -> Value {
    json!({
        "queryKey": [key],
        "queryHash": Value::from(vec![Value::from(key)]).to_string(),
        "state": {
            "data": data,
            "dataUpdateCount": 1,
            "dataUpdatedAt": 0,
            "error": null,
            "errorUpdateCount": 0,
            "errorUpdatedAt": 0,
            "fetchFailureCount": 0,
            "fetchFailureReason": null,
            "fetchMeta": null,
            "isInvalidated": false,
            "status": "success",
            "fetchStatus": "idle"
        }
    })
}

fn load(
    conn: &mut AnyConnection,
    api: &ApiConfig,
    ask: &Ask,
) -> Result<(Vars, Vec<Value>), ApiError> {
    let vars = resolve_vars(conn, ask)?;
    let mut out = Vec::with_capacity(ask.templates.len());
    for template in &ask.templates {
        let key = fill_template(template, &vars);
        match api::fetch(conn, api, &key) {
            Ok(data) => out.push(dehydrated_query(&key, data)),
            // The client fetches what is missing and shows its error state.
            Err(e) => log::warn!("page data {key}: {e}"),
        }
    }
    Ok((vars, out))
}

fn nonce() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub async fn page(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .finish();
    }
    let path = req.path().to_string();
    let query = req.query_string().to_string();
    let cookies = GateCookies::from_request(&req);
    let st = state.clone();
    let planned = api::with_conn(&state.pool, move |conn| {
        Ok(plan(
            Some(conn),
            &st.api,
            &st.routes,
            &path,
            &query,
            cookies,
        ))
    })
    .await;
    let Plan {
        route,
        status,
        not_found,
        filter_type,
        url,
        mut input,
    } = match planned {
        Ok(p) => p,
        // No database connection: the page still renders, and the client fetches its data.
        Err(e) => {
            log::error!("page {}: {e}", req.path());
            plan(
                None,
                &state.api,
                &state.routes,
                req.path(),
                req.query_string(),
                GateCookies::from_request(&req),
            )
        }
    };
    let path = req.path();
    let rendered = state.renderer.render(input.to_string()).await;
    let body = match &rendered {
        Ok(r) => r.html.to_string(),
        Err(e) => {
            log::warn!("ssr {url}: {e}; the client renders this page");
            String::new()
        }
    };
    input["ssr"] = Value::Bool(rendered.is_ok());

    let canonical = match (not_found, filter_type) {
        (true, _) => String::new(),
        (false, Some(ft)) => format!(
            "{}{path}?filterByType={}",
            state.config.public_url,
            ft.as_str()
        ),
        (false, None) => format!("{}{path}", state.config.public_url),
    };
    let nonce = nonce();
    let html = state.shell.render(&ShellPage {
        title: &route.title,
        description: &route.description,
        canonical: &canonical,
        noindex: not_found,
        nonce: &nonce,
        body: &body,
        state_json: &input.to_string(),
    });
    match html {
        Ok(html) => HttpResponse::build(status)
            .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
            .insert_header((header::CACHE_CONTROL, "private, no-cache"))
            .insert_header((header::VARY, "Cookie"))
            .insert_header((
                header::CONTENT_SECURITY_POLICY,
                format!(
                    "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-{nonce}'; \
                     img-src 'self' data:; connect-src 'self'; object-src 'none'; \
                     base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
                ),
            ))
            .body(html),
        Err(e) => {
            log::error!("shell {url}: {e}");
            HttpResponse::InternalServerError()
                .content_type("text/plain; charset=utf-8")
                .body("Something went wrong on our side. Please try again.")
        }
    }
}
