//! Pages: server-rendered React through `ssr`, wrapped in the Tera shell, with the data each page
//! needs fetched in process from the same functions that serve the API. Also the static assets.

mod fields;
pub mod forms;
pub mod gate;
pub mod keys;
pub mod page;
pub mod plan;
pub mod routes;
pub mod security;
pub mod seo;
pub mod shell;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use actix_files::Files;
use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use actix_web::web;
use ssr::Renderer;

pub use shell::Shell;

#[derive(Debug, Clone)]
pub struct WebConfig {
    /// The front-end build output: manifest.json, routes.json, assets/.
    pub dist_dir: PathBuf,
    /// Static files served as they are (images).
    pub public_dir: PathBuf,
    /// The address the store is reached at, for canonical URLs (no trailing slash).
    pub public_url: String,
}

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("{0}: {1} (run `make build`)")]
    Build(String, String),
    #[error("shell template: {0}")]
    Template(String),
}

/// What the page handlers share.
pub struct WebState {
    /// The API's state: how pages run its calls in process, and the maintenance switch.
    pub api: api::ApiState,
    pub renderer: Arc<Renderer>,
    pub shell: Shell,
    pub routes: routes::RouteTable,
    pub config: WebConfig,
}

impl WebState {
    pub fn load(
        api: api::ApiState,
        renderer: Arc<Renderer>,
        config: WebConfig,
    ) -> Result<Self, WebError> {
        let read = |p: &Path| {
            std::fs::read_to_string(p)
                .map_err(|e| WebError::Build(p.display().to_string(), e.to_string()))
        };
        let routes_path = config.dist_dir.join("routes.json");
        let routes = serde_json::from_str(&read(&routes_path)?)
            .map_err(|e| WebError::Build(routes_path.display().to_string(), e.to_string()))?;
        let shell = Shell::load(&config.dist_dir)?;
        Ok(Self {
            api,
            renderer,
            shell,
            routes,
            config,
        })
    }
}

/// Static assets and the pages (every GET that no API or asset route took).
pub fn configure(cfg: &mut web::ServiceConfig, state: &web::Data<WebState>) {
    let dist = &state.config.dist_dir;
    let public = &state.config.public_dir;
    cfg.service(
        web::scope("/assets")
            .wrap(
                DefaultHeaders::new()
                    .add((header::CACHE_CONTROL, "public, max-age=31536000, immutable")),
            )
            .service(Files::new("", dist.join("assets"))),
    )
    .service(
        web::scope("/img")
            .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, "public, max-age=86400")))
            .service(Files::new("", public.join("img"))),
    )
    .route("/sitemap.xml", web::get().to(seo::sitemap))
    .route("/robots.txt", web::get().to(seo::robots))
    .route("/gate/consent", web::post().to(forms::consent))
    .route("/gate/category", web::post().to(forms::category))
    .route("/gate/location", web::post().to(forms::location))
    .route("/newsletter", web::post().to(forms::newsletter))
    .route("/gate/{step}", web::get().to(forms::form_get))
    .route("/newsletter", web::get().to(forms::form_get))
    .default_service(web::to(page::page));
}
