//! Planning a page: its route and status, the gate, and the page's data fetched in process from
//! the API's own calls, keyed as the client's react-query keys them.

use actix_web::http::StatusCode;
use api::gate::location_steps::{FULFILLMENT_VAR, LOCATION_STEPS};
use api::gate::{Choices, Gate, Step};
use domain::FilterType;
use framework::{ApiError, Ctx};
use serde_json::{json, Value};

use crate::keys::{fill_template, is_complete, Vars};
use crate::routes::{RouteDef, RouteTable, VARS};
use framework::form::Fields;

/// The request as the planner needs it.
pub struct Request<'a> {
    pub path: &'a str,
    pub query: &'a str,
    pub choices: Choices,
    /// The store is under maintenance: every page shows the maintenance page.
    pub maintenance: bool,
    /// What the page shows of its visitor (`member`, `csrf`, a posted `form`), merged into the
    /// render input.
    pub extra: &'a Value,
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
    /// Whether every piece of the page's data was had (a page missing some is not kept).
    pub complete: bool,
    /// The page holds a member's own data (their addresses in the gate): never kept.
    pub private: bool,
    /// The page is one of a bounded set a shared cache may keep by its address: not a list of a
    /// price range (ten million lowest and highest pesos), nor a list or search that found
    /// nothing (made-up words).
    pub keepable: bool,
}

/// The part of a raw query string that shapes a page: the parameters its route declares,
/// re-encoded (malformed escapes and all). Others (`utm_source`, `fbclid`, a cache buster) do not
/// change the page, so they neither reach the render nor split the cache.
pub fn page_query(raw: &str, params: &[String]) -> String {
    let kept: Vec<(String, String)> = form_urlencoded::parse(raw.as_bytes())
        .filter(|(k, _)| params.iter().any(|p| p == k))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(kept)
        .finish()
}

/// A list's sort and filters as the products call reads them (a route that declares none never
/// sees one), in the one spelling its canonical address keeps: a sort the store knows but the
/// default, a style, brewery or size that some product has, as the catalog spells it (whatever
/// the case asked), a price range in whole pesos (a lowest above the highest: the two swapped).
/// Anything else is left out, as if not given, so a made-up value costs no page of its own.
fn list_vars(ctx: &mut Ctx, vars: &mut Vars, query: &Fields) -> Result<(), ApiError> {
    use api::catalog::list::{Filter, ListSort, MAX_FILTER, MAX_PESOS};
    if let Some(sort) = query
        .get("sort")
        .and_then(ListSort::parse)
        .filter(|s| *s != ListSort::default())
    {
        vars.insert("sort".into(), sort.as_str().into());
    }
    let asked: Vec<(Filter, &str)> = Filter::ALL
        .iter()
        .filter_map(|f| Some((*f, query.get(f.as_str())?.trim())))
        .filter(|(_, v)| !v.is_empty() && v.chars().count() <= MAX_FILTER)
        .collect();
    if !asked.is_empty() {
        let listed = api::catalog::list::listed(ctx)?;
        for (filter, value) in asked {
            if let Some(spelled) = listed.spelled(filter, value) {
                vars.insert(filter.as_str().into(), spelled.to_string());
            }
        }
    }
    let pesos = |name: &str| {
        query
            .get(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && v.len() <= 9 && v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<i64>().ok())
            .filter(|p| *p <= MAX_PESOS)
    };
    let (mut min, mut max) = (pesos("min"), pesos("max"));
    if let (Some(lo), Some(hi)) = (min, max) {
        if lo > hi {
            (min, max) = (Some(hi), Some(lo));
        }
    }
    for (name, value) in [("min", min), ("max", max)] {
        if let Some(v) = value {
            vars.insert(name.into(), v.to_string());
        }
    }
    Ok(())
}

fn vars_for(
    ctx: &mut Ctx,
    route_params: Vars,
    gate: &Gate,
    query: &Fields,
) -> Result<Vars, ApiError> {
    let mut vars = route_params;
    if let Some(id) = gate.barangay_id {
        vars.insert("barangay".into(), id.to_string());
    }
    let packaging = match query.get("filterByType").and_then(FilterType::parse) {
        Some(family) => {
            // The filter as the page understood it (its canonical address keeps it).
            vars.insert("filterByType".into(), family.as_str().into());
            api::gate::packaging_of_family(ctx.conn, family)?
        }
        None => gate.packaging_id,
    };
    if let Some(id) = packaging {
        vars.insert("packaging".into(), id.to_string());
    }
    if let Some(t) = query
        .get("testdate")
        .filter(|t| ctx.config.testdate(Some(t)).is_some())
    {
        vars.insert("testdate".into(), t.to_string());
    }
    // An emailed link's token (a route that declares no `token` never sees one: its query keeps
    // only its own parameters).
    if let Some(t) = query.get("token").filter(|t| !t.is_empty()) {
        vars.insert("token".into(), t.to_string());
    }
    // What the search box asked (a route that declares no `q` never sees one), as the search
    // call reads it: trimmed, at most its `MAX_QUERY` characters.
    if let Some(q) = query.get("q").map(str::trim).filter(|q| !q.is_empty()) {
        let q: String = q.chars().take(api::search::MAX_QUERY).collect();
        vars.insert("q".into(), q);
    }
    list_vars(ctx, &mut vars, query)?;
    // An order link's key, and the page of a list.
    if let Some(k) = query.get("key").filter(|k| !k.is_empty()) {
        vars.insert("key".into(), k.to_string());
    }
    // What a refill could not add and why (`17:area,1:max`): the cart page names them.
    if let Some(l) = query.get("left").filter(|l| {
        let parts: Vec<&str> = l.split(',').collect();
        parts.len() <= 50
            && parts.iter().all(|p| {
                let (id, code) = p.split_once(':').unwrap_or((p, ""));
                // As the cart call reads it: 1-9 digits, no leading zero.
                !id.is_empty()
                    && id.len() <= 9
                    && !id.starts_with('0')
                    && id.bytes().all(|b| b.is_ascii_digit())
                    && api::goto_cases::refill::Left::parse(code).is_some()
            })
    }) {
        vars.insert("left".into(), l.to_string());
    }
    // A list's or My Orders' pages are 1 to 1,000,000 (the calls refuse others): another is
    // page 1, which is the default, so no address of its own.
    if let Some(p) = query
        .get("page")
        .and_then(|p| p.parse::<u32>().ok())
        .filter(|p| (2..=1_000_000).contains(p))
    {
        vars.insert("page".into(), p.to_string());
    }
    // The no-JS location gate's steps.
    for step in LOCATION_STEPS {
        if let Some(id) = query.get(step.param).and_then(step.parse) {
            vars.insert(step.var.into(), id);
        }
    }
    if !vars.contains_key(FULFILLMENT_VAR) {
        if let Some(f) = gate.fulfillment_id {
            vars.insert(FULFILLMENT_VAR.into(), f.to_string());
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
            k.fulfillments.clone(),
            k.provinces.clone(),
            if gate.family == Some(FilterType::Keg) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_shapes_a_page_is_kept_of_its_query() {
        let params: Vec<String> = ["filterByType", "gate", "city", "newsletter"]
            .map(String::from)
            .into();
        assert_eq!(
            page_query("utm_source=fb&filterByType=can&fbclid=x", &params),
            "filterByType=can"
        );
        assert_eq!(page_query("%", &params), "");
        assert_eq!(
            page_query("gate=location&city=137602000&miss=9", &params),
            "gate=location&city=137602000"
        );
        assert_eq!(page_query("newsletter=a+b", &params), "newsletter=a+b");
        assert_eq!(
            page_query("filterByType=%ff", &params),
            "filterByType=%EF%BF%BD"
        );
        assert_eq!(page_query("filterByType=can", &[]), "");
    }
}

#[derive(Default)]
struct Loaded {
    vars: Vars,
    gate: Gate,
    queries: Vec<Value>,
    /// Keys of the route's own data that do not exist (404).
    not_found: Vec<String>,
    /// Every piece of data was had (or is known not to exist).
    complete: bool,
    /// Some of it is the member's own.
    private: bool,
    /// A page of a list past its last (`page` above `pages`).
    past_last: bool,
    /// A list of a price range, or a list or search that found nothing.
    unkeepable: bool,
    /// The route's own data needs a session the visitor does not have (a staff page's).
    signed_out: bool,
    /// The page is not for this visitor (its route's `only`: a rider on a manager's page).
    refused: bool,
}

/// A query parameter the route declares and its own data names as a variable (the audit log's
/// `before`) passes as it is: the call checks it, as it checks any client's.
fn own_params(route: &RouteDef, query: &Fields, vars: &mut Vars) {
    for param in &route.params {
        let named = route
            .data
            .iter()
            .any(|t| crate::keys::variables(t).contains(&param.as_str()));
        if let (true, false, Some(v)) = (
            named,
            VARS.contains(&param.as_str()),
            query.get(param).filter(|v| !v.is_empty()),
        ) {
            vars.entry(param.clone()).or_insert_with(|| v.to_string());
        }
    }
}

fn load(
    ctx: &mut Ctx,
    routes: &RouteTable,
    route: &RouteDef,
    route_params: Vars,
    req: &Request,
) -> Result<Loaded, ApiError> {
    let query = Fields::parse(req.query.as_bytes());
    let mut gate = Gate::resolve(ctx, &req.choices)?;
    gate.decide(route.shop, route.policy, query.get("gate"));
    let mut vars = vars_for(ctx, route_params, &gate, &query)?;
    own_params(route, &query, &mut vars);
    let mut queries: Vec<Value> = Vec::new();
    let mut not_found = Vec::new();
    let mut complete = true;
    let mut signed_out = false;
    let mut refused = false;
    let own = route.data.len();
    // A member's location gate offers their saved addresses.
    let member = !req.extra["member"].is_null();
    let saved =
        (member && gate.open == Some(Step::Location)).then(|| routes.gate.saved_addresses.clone());
    let mut private = false;
    let (mut past_last, mut unkeepable) = (false, false);
    let templates = route
        .data
        .iter()
        .cloned()
        .chain(gate_templates(routes, &gate))
        .chain(saved);
    for (i, template) in templates.enumerate() {
        if !is_complete(&template, &vars) {
            continue;
        }
        let key = fill_template(&template, &vars);
        if queries.iter().any(|q| q["queryKey"][0] == key.as_str()) {
            continue;
        }
        match framework::fetch(ctx, &key) {
            Ok(fetched) => {
                private |= fetched.private;
                // Someone the page is not for: sent on, and nothing more of it read.
                if route
                    .only
                    .as_ref()
                    .is_some_and(|o| i == 0 && !o.admits(&fetched.data))
                {
                    refused = true;
                    break;
                }
                if i < own {
                    past_last |= is_past_last(&fetched.data);
                    unkeepable |= found_nothing(&fetched.data);
                }
                queries.push(dehydrated_query(&key, fetched.data));
            }
            // The data that says who may see the page, unread (not a lost session, not the
            // database down): nobody is shown the page, and nothing more of it is read.
            Err(e)
                if i == 0
                    && route.only.is_some()
                    && !matches!(e, ApiError::Unauthenticated | ApiError::DatabaseDown(_)) =>
            {
                refused = true;
                break;
            }
            // A page's own data that does not exist, or whose address names it by an id that
            // cannot be one (`/active-order/abc`): the page of something unknown.
            Err(ApiError::NotFound(_) | ApiError::BadRequest(_)) if i < own => not_found.push(key),
            // The page's own data needs a session of its own (a staff page's): the visitor is
            // sent to sign in, and nothing of the page is rendered.
            Err(ApiError::Unauthenticated) if i < own && route.sign_in.is_some() => {
                signed_out = true;
            }
            // A member's own data on a page guests see too (checkout's saved addresses): a guest's
            // page does without it.
            Err(ApiError::Unauthenticated) => {}
            // The database failed: the rest would fail too.
            Err(e @ ApiError::DatabaseDown(_)) => return Err(e),
            // The client fetches what is missing and shows its error state.
            Err(e) => {
                complete = false;
                // The key's path only: its query may carry a link's token.
                log::warn!("page data {}: {e}", key.split('?').next().unwrap_or(""));
            }
        }
    }
    unkeepable |= vars.contains_key("min") || vars.contains_key("max");
    Ok(Loaded {
        private,
        past_last,
        unkeepable,
        vars,
        gate,
        queries,
        not_found,
        complete,
        signed_out,
        refused,
    })
}

/// A page of a paged answer past its last (`{page, pages}`: page 2 of an empty list is past it
/// too; page 1 never is).
fn is_past_last(data: &Value) -> bool {
    match (data["page"].as_u64(), data["pages"].as_u64()) {
        (Some(page), Some(pages)) => page > pages.max(1),
        _ => false,
    }
}

/// A list (`total`) or a search (`products` and `elsewhere`) that found nothing.
fn found_nothing(data: &Value) -> bool {
    let empty = |k: &str| data[k].as_array().is_some_and(Vec::is_empty);
    data["total"].as_u64() == Some(0) || (empty("products") && empty("elsewhere"))
}

/// Plans the page for a request. Without a connection, or when the database fails, the page
/// still plans, with no data: the client fetches it and shows its error state.
pub fn plan(ctx: Option<&mut Ctx>, routes: &RouteTable, origin: &str, req: &Request) -> Plan {
    match ctx.map(|c| try_plan(c, routes, origin, req)) {
        Some(Ok(plan)) => plan,
        Some(Err(e)) => {
            log::error!("page {}: {e}", req.path);
            shape(
                routes,
                the_route(routes, req).0,
                origin,
                req,
                Loaded::default(),
            )
        }
        None => shape(
            routes,
            the_route(routes, req).0,
            origin,
            req,
            Loaded::default(),
        ),
    }
}

/// Plans the page for a request with its data read on `ctx`; fails only when the database
/// failed (the caller may try once more on a fresh connection).
pub fn try_plan(
    ctx: &mut Ctx,
    routes: &RouteTable,
    origin: &str,
    req: &Request,
) -> Result<Plan, ApiError> {
    let (route, route_params) = the_route(routes, req);
    let loaded = match load(ctx, routes, route, route_params, req) {
        Ok(l) => l,
        Err(e @ ApiError::DatabaseDown(_)) => return Err(e),
        Err(e) => {
            log::error!("page {}: {e}", req.path);
            Loaded::default()
        }
    };
    Ok(shape(routes, route, origin, req, loaded))
}

/// The route a request is for (the maintenance page while the store is in maintenance).
fn the_route<'r>(routes: &'r RouteTable, req: &Request) -> (&'r RouteDef, Vars) {
    if req.maintenance {
        (&routes.maintenance, Vars::new())
    } else {
        routes.find(req.path)
    }
}

/// The page's plan from its route and the data read for it.
fn shape(
    routes: &RouteTable,
    route: &RouteDef,
    origin: &str,
    req: &Request,
    loaded: Loaded,
) -> Plan {
    // A page whose address names its data (`/active-order/{id}`), when that does not exist and
    // the route says nowhere else to go, is a 404 (an unknown order, or another's).
    let status = if req.maintenance {
        StatusCode::SERVICE_UNAVAILABLE
    } else if route.name == routes.not_found.name
        || (!loaded.not_found.is_empty() && route.missing.is_none() && route.path.contains('{'))
        || loaded.past_last
    {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    };
    // A page whose own data does not exist goes where its route says (an unknown product to the
    // product list).
    let redirect = route
        .only
        .as_ref()
        .filter(|_| loaded.refused)
        .map(|o| o.to.clone())
        .or_else(|| {
            route
                .missing
                .clone()
                .filter(|_| !loaded.not_found.is_empty())
        })
        .or_else(|| route.sign_in.clone().filter(|_| loaded.signed_out))
        .or_else(|| to_canonical(route, req, &loaded.vars).filter(|_| status == StatusCode::OK));
    let url = if req.query.is_empty() {
        req.path.to_string()
    } else {
        format!("{}?{}", req.path, req.query)
    };
    let canonical = (status == StatusCode::OK).then(|| {
        // The canonical parameters the page understood, as it understood them.
        let kept: Vec<(&str, &str)> = route
            .canonical
            .iter()
            .filter_map(|p| Some((p.as_str(), loaded.vars.get(p)?.as_str())))
            .collect();
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(kept)
            .finish();
        if query.is_empty() {
            format!("{origin}{}", req.path)
        } else {
            format!("{origin}{}?{query}", req.path)
        }
    });
    let mut input = json!({
        "url": url,
        "route": route.name,
        "status": status.as_u16(),
        "origin": origin,
        "vars": loaded.vars,
        "gate": loaded.gate,
        "state": { "mutations": [], "queries": loaded.queries },
    });
    if let (Some(input), Some(extra)) = (input.as_object_mut(), req.extra.as_object()) {
        for (k, v) in extra {
            input.insert(k.clone(), v.clone());
        }
    }
    Plan {
        route: route.clone(),
        status,
        redirect,
        canonical,
        url,
        input,
        complete: loaded.complete,
        private: loaded.private,
        keepable: !loaded.unkeepable,
    }
}

/// Where a page asked by a non-canonical address is sent: its canonical parameters as the page
/// understood them, in their one order and spelling (a default or a made-up value left out, a
/// facet as the catalog spells it), the others as asked. `None` when asked so, and for a form
/// that comes back to its page.
fn to_canonical(route: &RouteDef, req: &Request, vars: &Vars) -> Option<String> {
    if route.canonical.is_empty() || !req.extra["form"].is_null() {
        return None;
    }
    let asked: Vec<(String, String)> = form_urlencoded::parse(req.query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let is_canonical = |k: &str| route.canonical.iter().any(|p| p == k);
    let understood: Vec<(&str, &str)> = route
        .canonical
        .iter()
        .filter_map(|p| Some((p.as_str(), vars.get(p)?.as_str())))
        .collect();
    let as_asked: Vec<(&str, &str)> = asked
        .iter()
        .filter(|(k, _)| is_canonical(k))
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    if as_asked == understood {
        return None;
    }
    let query = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(understood)
        .extend_pairs(asked.iter().filter(|(k, _)| !is_canonical(k)))
        .finish();
    Some(if query.is_empty() {
        req.path.to_string()
    } else {
        format!("{}?{query}", req.path)
    })
}
