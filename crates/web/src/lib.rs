//! Pages: server-rendered React through `ssr`, wrapped in the Tera shell, with the data each page
//! needs fetched in process from the same functions that serve the API. Also the static assets.

pub mod assets;
pub mod form;
pub mod keys;
pub mod media_files;
pub mod page;
pub mod page_with_slots;
pub mod pages_by_request;
pub mod plan;
pub mod respond;
pub mod routes;
pub mod security;
pub mod seo;
pub mod shared_by_city;
pub mod shell;
pub mod visitor;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use actix_web::{guard, web, HttpRequest, HttpResponse};
use ssr::Renderer;

pub use shell::Shell;

#[derive(Debug, Clone)]
pub struct WebConfig {
    /// The front-end build output: manifest.json, routes.json, assets/.
    pub dist_dir: PathBuf,
    /// Static files served as they are (images).
    pub public_dir: PathBuf,
    /// The product photos (`MEDIA_DIR`), served at `/media/` ([`media_files`]).
    pub media_dir: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("{0}: {1} (run `make build`)")]
    Build(String, String),
    #[error("shell template: {0}")]
    Template(String),
    #[error("MEDIA_DIR {0}: {1}")]
    Media(String, String),
}

/// What the page handlers share.
pub struct WebState {
    /// The API's state: how pages and forms run its calls in process, and the maintenance switch
    /// (its settings also hold the photos' folder, for the photo forms).
    pub api: framework::ApiState,
    pub renderer: Arc<Renderer>,
    pub shell: Shell,
    pub assets: assets::Assets,
    pub routes: routes::RouteTable,
    pub config: WebConfig,
    /// Visitors' cart parts of the pages ([`visitor`]), by cart revision and place.
    pub visitors: visitor::PartsCache,
    /// Guests' pages by the request as it came ([`pages_by_request`]).
    pub pages_by_request: pages_by_request::PagesByRequest,
    /// The product photos' folder ([`media_files`]).
    pub media: Arc<media::Store>,
    /// The sitemap files of the data version ([`seo`]).
    pub sitemaps: Arc<framework::per_data_version::PerDataVersion<seo::Sitemaps>>,
    /// Whether the barangays of a city share their pages ([`shared_by_city`]); on, but for a test
    /// that renders each place's page on its own to compare.
    pub share_by_city: bool,
}

impl WebState {
    pub fn load(
        mut api: framework::ApiState,
        renderer: Arc<Renderer>,
        config: WebConfig,
    ) -> Result<Self, WebError> {
        let read = |p: &Path| {
            std::fs::read_to_string(p)
                .map_err(|e| WebError::Build(p.display().to_string(), e.to_string()))
        };
        let routes_path = config.dist_dir.join("routes.json");
        let mut routes: routes::RouteTable = serde_json::from_str(&read(&routes_path)?)
            .map_err(|e| WebError::Build(routes_path.display().to_string(), e.to_string()))?;
        routes
            .index()
            .map_err(|e| WebError::Build(routes_path.display().to_string(), e))?;
        let shell = Shell::load(&config.dist_dir)?;
        let assets = assets::Assets::load(&config.dist_dir, &config.public_dir)?;
        let media =
            Arc::new(media::Store::open(&config.media_dir).map_err(|e| {
                WebError::Media(config.media_dir.display().to_string(), e.to_string())
            })?);
        // The photo forms (`api::staff::catalog::photo_form`) keep photos in the same folder.
        api.config.settings.insert(media.clone());
        Ok(Self {
            api,
            renderer,
            shell,
            assets,
            routes,
            config,
            visitors: visitor::parts_cache(),
            pages_by_request: pages_by_request::PagesByRequest::default(),
            media,
            sitemaps: Arc::default(),
            share_by_city: true,
        })
    }
}

/// A resource that answers `get` (and HEAD) and/or `post`; any other method gets a 405 naming
/// the ones it takes.
fn resource<G, P>(
    path: &str,
    get: Option<G>,
    post: Option<P>,
) -> impl actix_web::dev::HttpServiceFactory
where
    G: actix_web::Handler<(HttpRequest, web::Data<WebState>)>,
    G::Output: actix_web::Responder + 'static,
    P: actix_web::Handler<(HttpRequest, web::Payload, web::Data<WebState>)>,
    P::Output: actix_web::Responder + 'static,
{
    let mut allow = Vec::new();
    let mut r = web::resource(path);
    if let Some(g) = get {
        r = r.route(
            web::route()
                .guard(guard::Any(guard::Get()).or(guard::Head()))
                .to(g),
        );
        allow.push("GET, HEAD");
    }
    if let Some(p) = post {
        r = r.route(web::post().to(p));
        allow.push("POST");
    }
    let allow = allow.join(", ");
    r.default_service(web::to(move |req: HttpRequest| {
        let allow = allow.clone();
        async move { framework::request::method_not_allowed(&req, &allow) }
    }))
    // Counted under its template (metrics, access log).
    .wrap(framework::observe::Mark::of(path))
}

type NoPost =
    fn(HttpRequest, web::Payload, web::Data<WebState>) -> std::future::Ready<HttpResponse>;

/// Static assets, crawler files, the declared forms and the pages (every GET that no API or
/// asset route took).
pub fn configure(cfg: &mut web::ServiceConfig, routes: &routes::RouteTable) {
    cfg.service(resource(
        "/assets/{file:.*}",
        Some(assets::serve),
        None::<NoPost>,
    ))
    .service(resource(
        "/img/{file:.*}",
        Some(assets::serve),
        None::<NoPost>,
    ))
    .service(resource(
        "/media/{file}",
        Some(media_files::serve),
        None::<NoPost>,
    ))
    .service(resource(
        "/staff/catalog/export",
        Some(form::catalog_export),
        None::<NoPost>,
    ))
    .service(resource("/sw.js", Some(assets::serve), None::<NoPost>))
    .service(resource(
        "/manifest.webmanifest",
        Some(assets::serve),
        None::<NoPost>,
    ))
    .service(resource("/sitemap.xml", Some(seo::sitemap), None::<NoPost>))
    .service(resource(
        "/sitemap-{n}.xml",
        Some(seo::sitemap_part),
        None::<NoPost>,
    ))
    .service(resource("/robots.txt", Some(seo::robots), None::<NoPost>));
    // Every form's address: the pages with actions (routes.ts) and the forms with a handler of
    // their own. Its page answers GET; an address without a page goes home.
    let pages = routes.routes.iter().filter(|r| !r.actions.is_empty());
    let mut paths: Vec<&str> = pages
        .map(|r| r.path.as_str())
        .chain(framework::form::forms().map(|f| f.path))
        .chain(framework::form::file_forms().map(|f| f.path))
        .collect();
    paths.sort_unstable();
    paths.dedup();
    for path in paths {
        cfg.service(resource(path, Some(form::form_get), Some(form::post)));
    }
    cfg.default_service(web::to(page::page));
}
