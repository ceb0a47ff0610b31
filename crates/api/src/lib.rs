//! The JSON API: unversioned SPEC calls under `/api/v1`, the others under their version
//! (`/api/v2`, `/api/v3`). Each answer is computed by a plain function over a connection; the
//! actix handlers only parse, call and map, and `web` calls the same functions in process.

pub mod catalog;
pub mod content;
pub mod error;
pub mod locations;
pub mod maintenance;
pub mod params;

use actix_web::{web, HttpRequest, HttpResponse};
use db::{AnyConnection, DbPool};
use serde_json::Value;

pub use error::ApiError;
pub use params::Params;

/// Shared state of the API handlers.
#[derive(Clone)]
pub struct ApiState {
    pub pool: DbPool,
    pub config: ApiConfig,
    pub maintenance: std::sync::Arc<maintenance::Maintenance>,
}

impl ApiState {
    /// State with the maintenance switch read from the database's settings only.
    pub fn new(pool: DbPool, config: ApiConfig, maintenance_forced: bool) -> Self {
        Self {
            maintenance: std::sync::Arc::new(maintenance::Maintenance::new(
                maintenance_forced,
                Some(pool.clone()),
            )),
            pool,
            config,
        }
    }
}

/// While the store is under maintenance every API call answers 503.
async fn maintenance_gate(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let on = req
        .app_data::<web::Data<ApiState>>()
        .is_some_and(|s| s.maintenance.is_on());
    if on {
        let res = HttpResponse::ServiceUnavailable()
            .insert_header(("Retry-After", "300"))
            .json(serde_json::json!({ "error": maintenance::MESSAGE }));
        return Ok(req.into_response(res));
    }
    next.call(req).await.map(|r| r.map_into_boxed_body())
}

#[derive(Debug, Clone, Copy, Default)]
pub struct ApiConfig {
    /// Whether a `testdate` query parameter may stand in for today (dev and test only).
    pub allow_testdate: bool,
}

impl ApiConfig {
    /// Business "now": the `testdate` parameter when allowed and valid, else the Manila clock.
    pub fn now(&self, params: &Params) -> time::PrimitiveDateTime {
        self.allow_testdate
            .then(|| {
                params
                    .get("testdate")
                    .and_then(domain::calendar::parse_testdate)
            })
            .flatten()
            .unwrap_or_else(domain::calendar::manila_now)
    }
}

/// An id in a path: a positive whole number (0 where `zero_ok`), or a 400 naming it.
fn path_id(value: &str, name: &str, zero_ok: bool) -> Result<i64, ApiError> {
    if zero_ok && value == "0" {
        return Ok(0);
    }
    domain::parse_id(value)
        .ok_or_else(|| ApiError::BadRequest(format!("{name} must be a positive whole number.")))
}

/// Runs a blocking database function off the actix worker threads.
pub async fn with_conn<T, F>(pool: &DbPool, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&mut AnyConnection) -> Result<T, ApiError> + Send + 'static,
{
    let pool = pool.clone();
    web::block(move || {
        let mut conn = pool.get().map_err(db::DbError::from)?;
        f(&mut conn)
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
}

/// Answers the API read named by `path` (with its query string) in process, as JSON: the data
/// a page needs under the same key the client's react-query uses for it.
pub fn fetch(
    conn: &mut AnyConnection,
    config: &ApiConfig,
    path_and_query: &str,
) -> Result<Value, ApiError> {
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let params = Params::parse(query)?;
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let value = match segments.as_slice() {
        ["api", "v1", "products"] => to_json(catalog::product_list(conn, &params)?),
        ["api", "v1", "products", "promos"] => {
            let date = domain::calendar::iso_date(config.now(&params).date());
            to_json(catalog::promos(conn, &params, &date)?)
        }
        ["api", "v1", "products", "whats-new"] => to_json(catalog::whats_new(conn, &params)?),
        ["api", "v2", "products", slug, "barangay", b] => to_json(catalog::single_product(
            conn,
            slug,
            path_id(b, "barangayId", true)?,
        )?),
        ["api", "v3", "packagings"] => to_json(catalog::packagings(conn)?),
        ["api", "v1", "banners"] => to_json(catalog::banners(conn)?),
        ["api", "v3", "fulfillment-types"] => to_json(locations::fulfillment_types(conn)?),
        ["api", "v1", "provinces"] => to_json(locations::provinces(conn)?),
        ["api", "v1", "cities"] => to_json(locations::legacy_cities(conn, &params)?),
        ["api", "v1", "barangay"] => to_json(locations::legacy_barangays(conn, &params)?),
        ["api", "v1", "delivery-areas"] => to_json(locations::delivery_areas(conn)?),
        ["api", "v3", "locations", "provinces", p, "fulfillments", f, "cities"] => {
            to_json(locations::cities_for(
                conn,
                path_id(p, "provinceId", false)?,
                path_id(f, "fulfillmentId", false)?,
            )?)
        }
        ["api", "v3", "locations", "cities"] => to_json(locations::keg_cities(
            conn,
            &locations::KegCitiesBody::default(),
        )?),
        ["api", "v3", "locations", "city", c, "barangays"] => {
            to_json(locations::barangays(conn, path_id(c, "cityId", false)?)?)
        }
        ["api", "v3", "locations", "barangay", b, "streets"] => {
            to_json(locations::streets(conn, path_id(b, "barangayId", false)?)?)
        }
        ["api", "v1", "philippine-holiday"] => {
            to_json(content::holiday(conn, config.now(&params))?)
        }
        ["api", "v1", "notice"] => to_json(content::notice(conn, config.now(&params))?),
        ["api", "v1", "site-texts", key] => to_json(content::site_text(conn, key)?),
        _ => return Err(ApiError::NotFound(format!("No data at {path}"))),
    };
    value
}

fn to_json<T: serde::Serialize>(value: T) -> Result<Value, ApiError> {
    serde_json::to_value(value).map_err(|e| ApiError::Internal(e.to_string()))
}

async fn json_of<T, F>(state: web::Data<ApiState>, f: F) -> Result<HttpResponse, ApiError>
where
    T: serde::Serialize + Send + 'static,
    F: FnOnce(&mut AnyConnection) -> Result<T, ApiError> + Send + 'static,
{
    let value = with_conn(&state.pool, f).await?;
    Ok(HttpResponse::Ok().json(value))
}

/// Answers reads through [`fetch`], so the HTTP API and the pages share one dispatcher.
async fn read(req: HttpRequest, state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    let key = match req.query_string() {
        "" => req.path().to_string(),
        q => format!("{}?{q}", req.path()),
    };
    let config = state.config;
    json_of(state, move |c| fetch(c, &config, &key)).await
}

async fn keg_cities(
    state: web::Data<ApiState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    // The body is optional: empty means every province.
    let body: locations::KegCitiesBody = if body.iter().all(u8::is_ascii_whitespace) {
        locations::KegCitiesBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::BadRequest(format!("The request body is not valid JSON: {e}")))?
    };
    json_of(state, move |c| locations::keg_cities(c, &body)).await
}

async fn subscribe(
    state: web::Data<ApiState>,
    body: web::Json<content::SubscribeBody>,
) -> Result<HttpResponse, ApiError> {
    let email = match &body.email {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        // Anything else is not an address; an odd marker keeps it invalid, not empty.
        Some(_) => "\u{0}".to_string(),
    };
    let now = domain::calendar::manila_now();
    let outcome = with_conn(&state.pool, move |c| content::subscribe(c, &email, now)).await?;
    Ok(match outcome {
        content::Subscription::Added(msg) => {
            HttpResponse::Ok().json(serde_json::json!({ "data": { "success": msg } }))
        }
        content::Subscription::Invalid(msg) => HttpResponse::UnprocessableEntity()
            .json(serde_json::json!({ "message": msg, "errors": { "email": [msg] } })),
    })
}

/// `GET /api/v1/user` without a session: 401, still carrying the policy texts (SPEC 7).
async fn user(state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    let texts = with_conn(&state.pool, content::texts).await?;
    Ok(HttpResponse::Unauthorized().json(serde_json::json!({
        "error": "Unauthenticated.",
        "data": texts,
    })))
}

async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed(format!(
        "{} is not allowed on {}",
        req.method(),
        req.path()
    )))
}

/// A resource answering one method; any other method gets a JSON 405.
fn resource(path: &str, route: actix_web::Route) -> actix_web::Resource {
    web::resource(path)
        .route(route)
        .default_service(web::to(method_not_allowed))
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound(format!("No API call at {}", req.path())))
}

/// Mounts the API under `/api`. JSON, path and query extractor failures answer JSON 400s.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::JsonConfig::default().error_handler(|err, _| {
        ApiError::BadRequest(format!("The request body is not valid JSON: {err}")).into()
    }))
    .app_data(web::PathConfig::default().error_handler(|err, _| {
        ApiError::BadRequest(format!("The address is malformed: {err}")).into()
    }))
    .app_data(web::QueryConfig::default().error_handler(|err, _| {
        ApiError::BadRequest(format!("The query string is malformed: {err}")).into()
    }))
    .service(
        web::scope("/api")
            .wrap(actix_web::middleware::from_fn(maintenance_gate))
            .service(
                web::scope("/v1")
                    .service(resource("/products", web::get().to(read)))
                    .service(resource("/products/promos", web::get().to(read)))
                    .service(resource("/products/whats-new", web::get().to(read)))
                    .service(resource("/banners", web::get().to(read)))
                    .service(resource("/provinces", web::get().to(read)))
                    .service(resource("/cities", web::get().to(read)))
                    .service(resource("/barangay", web::get().to(read)))
                    .service(resource("/delivery-areas", web::get().to(read)))
                    .service(resource("/philippine-holiday", web::get().to(read)))
                    .service(resource("/notice", web::get().to(read)))
                    .service(resource("/site-texts/{key}", web::get().to(read)))
                    .service(resource("/mail/subscribe", web::post().to(subscribe)))
                    .service(resource("/user", web::get().to(user)))
                    .default_service(web::to(not_found)),
            )
            .service(
                web::scope("/v2")
                    .service(resource(
                        "/products/{slug}/barangay/{barangayId}",
                        web::get().to(read),
                    ))
                    .default_service(web::to(not_found)),
            )
            .service(
                web::scope("/v3")
                    .service(resource("/packagings", web::post().to(read)))
                    .service(resource("/fulfillment-types", web::get().to(read)))
                    .service(resource("/locations/cities", web::post().to(keg_cities)))
                    .service(resource(
                        "/locations/provinces/{provinceId}/fulfillments/{fulfillmentId}/cities",
                        web::get().to(read),
                    ))
                    .service(resource(
                        "/locations/city/{cityId}/barangays",
                        web::get().to(read),
                    ))
                    .service(resource(
                        "/locations/barangay/{barangayId}/streets",
                        web::get().to(read),
                    ))
                    .default_service(web::to(not_found)),
            )
            .default_service(web::to(not_found)),
    );
}
