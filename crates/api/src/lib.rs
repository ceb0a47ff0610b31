//! The JSON API: unversioned SPEC calls under `/api/v1`, the others under their version
//! (`/api/v2`, `/api/v3`). Each answer is computed by a plain function over a connection; the
//! actix handlers only parse, call and map, and `web` calls the same functions in process.

pub mod catalog;
pub mod error;
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

/// Answers the API GET named by `path` (with its query string) in process, as JSON: the data a
/// page needs under the same key the client's react-query uses for it.
pub fn fetch(conn: &mut AnyConnection, path_and_query: &str) -> Result<Value, ApiError> {
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let params = Params::parse(query)?;
    let value = match path {
        "/api/v1/products" => serde_json::to_value(catalog::product_list(conn, &params)?),
        "/api/v3/packagings" => serde_json::to_value(catalog::packagings(conn)?),
        "/api/v1/banners" => serde_json::to_value(catalog::banners(conn)?),
        other => return Err(ApiError::NotFound(format!("No data at {other}"))),
    };
    value.map_err(|e| ApiError::Internal(e.to_string()))
}

async fn json_of<T, F>(state: web::Data<ApiState>, f: F) -> Result<HttpResponse, ApiError>
where
    T: serde::Serialize + Send + 'static,
    F: FnOnce(&mut AnyConnection) -> Result<T, ApiError> + Send + 'static,
{
    let value = with_conn(&state.pool, f).await?;
    Ok(HttpResponse::Ok().json(value))
}

async fn products(req: HttpRequest, state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    let params = Params::parse(req.query_string())?;
    json_of(state, move |c| catalog::product_list(c, &params)).await
}

async fn packagings(state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    json_of(state, catalog::packagings).await
}

async fn banners(state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    json_of(state, catalog::banners).await
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
            .service(
                web::scope("/v1")
                    .service(resource("/products", web::get().to(products)))
                    .service(resource("/banners", web::get().to(banners)))
                    .default_service(web::to(not_found)),
            )
            .service(
                web::scope("/v3")
                    .service(resource("/packagings", web::post().to(packagings)))
                    .default_service(web::to(not_found)),
            )
            .default_service(web::to(not_found)),
    );
}
