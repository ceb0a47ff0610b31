//! Static files from memory: the hashed build assets (`/assets`, kept a year), the images
//! (`/img`, kept a day) and the files at the site's root that browsers ask for by a fixed name
//! (`/sw.js`, the service worker, and `/manifest.webmanifest`: asked again each time), read once
//! at start with the brotli and gzip variants the build made (`.br`, `.gz` beside a file; made on
//! first request where there are none), answered 304 by ETag. An unknown file is a 404 in the
//! store's own JSON.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use framework::cache::Cached;

use crate::{WebError, WebState};

pub struct Assets {
    files: HashMap<String, Arc<Cached>>,
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "html" => "text/html; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

impl Assets {
    /// Reads `dist/assets` (as `/assets/...`), `public/img` (as `/img/...`) and `dist/root` (as
    /// `/...`).
    pub fn load(dist: &Path, public: &Path) -> Result<Self, WebError> {
        let mut files = HashMap::new();
        let mounts = [
            (
                dist.join("assets"),
                "/assets",
                "public, max-age=31536000, immutable",
            ),
            (public.join("img"), "/img", "public, max-age=86400"),
            // A service worker is checked for a new build on every visit anyway; no-cache keeps
            // any cache between from holding an old one.
            (dist.join("root"), "", "no-cache"),
        ];
        for (dir, prefix, cache_control) in mounts {
            if !dir.is_dir() {
                continue;
            }
            read_dir(&dir, &dir, prefix, cache_control, &mut files)?;
        }
        Ok(Self { files })
    }

    pub fn get(&self, path: &str) -> Option<&Arc<Cached>> {
        self.files.get(path)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

fn read_dir(
    root: &Path,
    dir: &Path,
    prefix: &str,
    cache_control: &'static str,
    files: &mut HashMap<String, Arc<Cached>>,
) -> Result<(), WebError> {
    let err = |p: &Path, e: std::io::Error| WebError::Build(p.display().to_string(), e.to_string());
    for entry in std::fs::read_dir(dir).map_err(|e| err(dir, e))? {
        let path = entry.map_err(|e| err(dir, e))?.path();
        if path.is_dir() {
            read_dir(root, &path, prefix, cache_control, files)?;
            continue;
        }
        let name = path.to_string_lossy();
        if name.ends_with(".br") || name.ends_with(".gz") {
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let url = format!("{prefix}/{}", rel.to_string_lossy().replace('\\', "/"));
        let body = std::fs::read(&path).map_err(|e| err(&path, e))?;
        let sibling = |ext: &str| {
            std::fs::read(format!("{}.{ext}", path.display()))
                .ok()
                .map(Bytes::from)
        };
        let headers: Vec<(HeaderName, HeaderValue)> = vec![
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(&url)),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static(cache_control),
            ),
        ];
        let file = Cached::precompressed(
            StatusCode::OK,
            headers,
            Bytes::from(body),
            sibling("gz"),
            sibling("br"),
        );
        files.insert(url, Arc::new(file));
    }
    Ok(())
}

/// `GET|HEAD /assets/...` and `/img/...`.
pub async fn serve(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    match state.assets.get(req.path()) {
        Some(file) => file.respond(&req),
        None => HttpResponse::NotFound()
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .json(serde_json::json!({ "error": "There is no such file." })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_with_their_variants() {
        let dir = tempfile::tempdir().unwrap();
        let assets = dir.path().join("dist/assets");
        std::fs::create_dir_all(&assets).unwrap();
        std::fs::write(assets.join("app-1.js"), "console.log(1)".repeat(100)).unwrap();
        std::fs::write(assets.join("app-1.js.gz"), b"gz").unwrap();
        let img = dir.path().join("public/img/products");
        std::fs::create_dir_all(&img).unwrap();
        std::fs::write(img.join("a.svg"), "<svg/>").unwrap();
        std::fs::write(img.join("b.webp"), [7u8; 2048]).unwrap();
        let root = dir.path().join("dist/root");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("sw.js"), "self.x=1").unwrap();
        std::fs::write(root.join("manifest.webmanifest"), "{}").unwrap();
        let a = Assets::load(&dir.path().join("dist"), &dir.path().join("public")).unwrap();
        assert_eq!(a.len(), 5);
        let req = actix_web::test::TestRequest::default().to_http_request();
        let sw = a.get("/sw.js").unwrap().respond(&req);
        assert_eq!(sw.headers().get("cache-control").unwrap(), "no-cache");
        assert_eq!(
            sw.headers().get("content-type").unwrap(),
            "text/javascript; charset=utf-8"
        );
        let manifest = a.get("/manifest.webmanifest").unwrap().respond(&req);
        assert_eq!(
            manifest.headers().get("content-type").unwrap(),
            "application/manifest+json"
        );
        assert!(a.get("/assets/app-1.js").is_some());
        assert!(a.get("/assets/app-1.js.gz").is_none());
        assert!(a.get("/img/products/a.svg").is_some());
        assert!(a.get("/img/../dist/assets/app-1.js").is_none());
        let req = actix_web::test::TestRequest::default()
            .insert_header(("accept-encoding", "gzip"))
            .to_http_request();
        let res = a.get("/assets/app-1.js").unwrap().respond(&req);
        assert_eq!(res.headers().get("content-encoding").unwrap(), "gzip");
        // A picture is compressed in its own format: never again.
        let picture = a.get("/img/products/b.webp").unwrap().respond(&req);
        assert!(picture.headers().get("content-encoding").is_none());
        assert_eq!(picture.headers().get("content-type").unwrap(), "image/webp");
        assert_eq!(
            res.headers().get("cache-control").unwrap(),
            "public, max-age=31536000, immutable"
        );
    }
}
