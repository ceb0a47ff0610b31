//! One page request end to end: route, gate cookies, the page's data in process, the render, the
//! shell, the status.

use actix_web::http::{header, Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use api::{ApiConfig, ApiError, Params};
use db::AnyConnection;
use domain::FilterType;
use rand::RngCore;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::gate::{Gate, GateCookies, Step};
use crate::keys::{fill_template, is_complete, Vars};
use crate::routes::{RouteDef, RouteTable};
use crate::shell::ShellPage;
use crate::WebState;

/// The request as the planner needs it.
pub struct Request<'a> {
    pub path: &'a str,
    pub query: &'a str,
    pub cookies: GateCookies,
    /// The store is under maintenance: every page shows the maintenance page.
    pub maintenance: bool,
}

/// A page ready to render: its route, status and the render input.
pub struct Plan {
    pub route: RouteDef,
    pub status: StatusCode,
    /// Where to send the browser instead (302), e.g. an unknown product.
    pub redirect: Option<String>,
    pub canonical: Option<String>,
    pub url: String,
    /// `{url, route, status, origin, vars, gate, state}`: what the bundle's `render` takes.
    pub input: Value,
}

/// Query parameters that carry the location gate's steps in the no-JS flow, and their variables.
const GATE_STEPS: [(&str, &str); 4] = [
    ("fulfillment", "gateFulfillment"),
    ("province", "gateProvince"),
    ("city", "gateCity"),
    ("barangay", "gateBarangay"),
];

fn vars_for(
    conn: &mut AnyConnection,
    api: &ApiConfig,
    route_params: Vars,
    gate: &Gate,
    params: &Params,
) -> Result<Vars, ApiError> {
    let mut vars = route_params;
    if let Some(id) = gate.barangay_id {
        vars.insert("barangay".into(), id.to_string());
    }
    let packaging = match params.get("filterByType").and_then(FilterType::parse) {
        Some(ft) => db::queries::packaging_by_filter_type(conn, ft.as_str())?.map(|p| p.id),
        None => gate.category_id,
    };
    if let Some(id) = packaging {
        vars.insert("packaging".into(), id.to_string());
    }
    if api.allow_testdate {
        if let Some(t) = params
            .get("testdate")
            .filter(|t| domain::calendar::parse_testdate(t).is_some())
        {
            vars.insert("testdate".into(), t.to_string());
        }
    }
    for (param, var) in GATE_STEPS {
        if let Ok(Some(id)) = params.id(param) {
            vars.insert(var.into(), id.to_string());
        }
    }
    if !vars.contains_key("gateFulfillment") {
        if let Some(f) = gate.fulfillment_id {
            vars.insert("gateFulfillment".into(), f.to_string());
        }
    }
    Ok(vars)
}

/// The key templates of what the open gate lists.
fn gate_templates(routes: &RouteTable, gate: &Gate) -> Vec<String> {
    let k = &routes.gate;
    match gate.open {
        None => vec![],
        Some(Step::Policy) => vec![k.policy.clone()],
        Some(Step::Category) => vec![k.packagings.clone()],
        Some(Step::Location) => vec![
            k.packagings.clone(),
            k.fulfillments.clone(),
            k.provinces.clone(),
            if gate.category_filter.as_deref() == Some("keg") {
                k.keg_cities.clone()
            } else {
                k.cities.clone()
            },
            k.barangays.clone(),
            k.streets.clone(),
        ],
    }
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

struct Loaded {
    vars: Vars,
    gate: Gate,
    queries: Vec<Value>,
    /// Keys of the route's own data that do not exist (404).
    not_found: Vec<String>,
}

fn load(
    conn: &mut AnyConnection,
    api: &ApiConfig,
    routes: &RouteTable,
    route: &RouteDef,
    route_params: Vars,
    req: &Request,
) -> Result<Loaded, ApiError> {
    let params = Params::parse(req.query).unwrap_or_default();
    let mut gate = Gate::resolve(conn, &req.cookies)?;
    gate.decide(route.shop, route.policy, params.get("gate"));
    let vars = vars_for(conn, api, route_params, &gate, &params)?;
    let mut queries = Vec::new();
    let mut not_found = Vec::new();
    let own = route.data.len();
    let templates = route
        .data
        .iter()
        .cloned()
        .chain(gate_templates(routes, &gate));
    for (i, template) in templates.enumerate() {
        if !is_complete(&template, &vars) {
            continue;
        }
        let key = fill_template(&template, &vars);
        if queries
            .iter()
            .any(|q: &Value| q["queryKey"][0] == key.as_str())
        {
            continue;
        }
        match api::fetch(conn, api, &key) {
            Ok(data) => queries.push(dehydrated_query(&key, data)),
            Err(ApiError::NotFound(_)) if i < own => not_found.push(key),
            // The client fetches what is missing and shows its error state.
            Err(e) => log::warn!("page data {key}: {e}"),
        }
    }
    Ok(Loaded {
        vars,
        gate,
        queries,
        not_found,
    })
}

/// Plans the page for a request: the route, the gate, the page's data fetched in process. Data
/// that cannot be had is left out (the client fetches it and shows its error state).
pub fn plan(
    conn: Option<&mut AnyConnection>,
    api: &ApiConfig,
    routes: &RouteTable,
    origin: &str,
    req: &Request,
) -> Plan {
    let (route, route_params) = match (req.maintenance, routes.by_name("maintenance")) {
        (true, Some(m)) => (m, Vars::new()),
        _ => routes.find(req.path),
    };
    let status = if req.maintenance {
        StatusCode::SERVICE_UNAVAILABLE
    } else if route.name == routes.not_found.name {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    };
    let loaded = match conn.map(|c| load(c, api, routes, route, route_params, req)) {
        Some(Ok(l)) => l,
        Some(Err(e)) => {
            log::error!("page {}: {e}", req.path);
            empty_load()
        }
        None => empty_load(),
    };
    // SPEC 2: an unknown or failed product goes back to the product list.
    let redirect =
        (route.name == "product" && !loaded.not_found.is_empty()).then(|| "/buy-beer".to_string());
    let url = if req.query.is_empty() {
        req.path.to_string()
    } else {
        format!("{}?{}", req.path, req.query)
    };
    let params = Params::parse(req.query).unwrap_or_default();
    let canonical = (status == StatusCode::OK).then(|| {
        let mut c = format!("{origin}{}", req.path);
        if route.name == "buy-beer" {
            if let Some(ft) = params.get("filterByType").and_then(FilterType::parse) {
                c.push_str("?filterByType=");
                c.push_str(ft.as_str());
            }
        }
        c
    });
    let input = json!({
        "url": url,
        "route": route.name,
        "status": status.as_u16(),
        "origin": origin,
        "vars": loaded.vars,
        "gate": loaded.gate,
        "state": { "mutations": [], "queries": loaded.queries },
    });
    Plan {
        route: route.clone(),
        status,
        redirect,
        canonical,
        url,
        input,
    }
}

fn empty_load() -> Loaded {
    Loaded {
        vars: Vars::new(),
        gate: Gate::default(),
        queries: Vec::new(),
        not_found: Vec::new(),
    }
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

fn nonce() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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
    let path = req.path().to_string();
    // SPEC 2: the product page without a slug goes home.
    if path.trim_end_matches('/') == "/single-product" {
        return redirect("/", StatusCode::FOUND);
    }
    let query = req.query_string().to_string();
    let cookies = GateCookies::from_request(&req);
    let st = state.clone();
    let (p, q, c) = (path.clone(), query.clone(), cookies.clone());
    let planned = api::with_conn(&state.pool, move |conn| {
        let maintenance = st.maintenance.is_on();
        let request = Request {
            path: &p,
            query: &q,
            cookies: c,
            maintenance,
        };
        Ok(plan(
            Some(conn),
            &st.api,
            &st.routes,
            &st.config.public_url,
            &request,
        ))
    })
    .await;
    let Plan {
        route,
        status,
        redirect: to,
        canonical,
        url,
        mut input,
    } = match planned {
        Ok(p) => p,
        // No database connection: the page still renders, and the client fetches its data.
        Err(e) => {
            log::error!("page {path}: {e}");
            let request = Request {
                path: &path,
                query: &query,
                cookies,
                maintenance: false,
            };
            plan(
                None,
                &state.api,
                &state.routes,
                &state.config.public_url,
                &request,
            )
        }
    };
    if let Some(to) = to {
        return redirect(&to, StatusCode::FOUND);
    }
    let rendered = state.renderer.render(input.to_string()).await;
    let output = match &rendered {
        Ok(r) => serde_json::from_str::<RenderOutput>(&r.html).unwrap_or_else(|e| {
            log::error!("ssr {url}: unreadable output: {e}");
            RenderOutput::default()
        }),
        Err(e) => {
            log::warn!("ssr {url}: {e}; the client renders this page");
            RenderOutput::default()
        }
    };
    input["ssr"] = Value::Bool(!output.html.is_empty());
    let json_ld: Vec<String> = output
        .head
        .json_ld
        .iter()
        .map(|v| crate::shell::escape_json_for_script(&v.to_string()))
        .collect();
    let nonce = nonce();
    let html = state.shell.render(&ShellPage {
        title: output.head.title.as_deref().unwrap_or(&route.title),
        description: output
            .head
            .description
            .as_deref()
            .unwrap_or(&route.description),
        canonical: canonical.as_deref().unwrap_or(""),
        noindex: status != StatusCode::OK,
        nonce: &nonce,
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
                .insert_header((
                    header::CONTENT_SECURITY_POLICY,
                    format!(
                        "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-{nonce}'; \
                         img-src 'self' data:; connect-src 'self'; object-src 'none'; \
                         base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
                    ),
                ))
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
