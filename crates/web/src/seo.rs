//! What crawlers read besides the pages: sitemap.xml (an index of sitemap-N.xml past 50,000
//! addresses) and robots.txt.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::WebState;

/// The most addresses one sitemap file lists (the sitemaps protocol's limit): past it,
/// `/sitemap.xml` is an index of `/sitemap-1.xml`, `/sitemap-2.xml`…
pub const SITEMAP_MAX: usize = 50_000;

/// The sitemap files of a data version: one (`/sitemap.xml` itself), or the index first and then
/// its parts. Made once a version (a setting of the pages: [`WebState::sitemaps`]).
pub struct Sitemaps {
    /// Shared by every answer (no copy of a file of megabytes per request).
    files: Vec<web::Bytes>,
}

impl Sitemaps {
    /// The files listing `locs` (absolute addresses, in order), at most `max` a file.
    pub fn of(base: &str, locs: &[String], max: usize) -> Self {
        let urlset = |locs: &[String]| {
            let mut xml = String::from(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
            );
            for loc in locs {
                xml.push_str(&format!(
                    "  <url><loc>{}</loc></url>\n",
                    crate::shell::escape_html(loc)
                ));
            }
            xml.push_str("</urlset>\n");
            xml
        };
        if locs.len() <= max {
            return Self {
                files: vec![urlset(locs).into()],
            };
        }
        let parts: Vec<String> = locs.chunks(max.max(1)).map(urlset).collect();
        let mut index = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for n in 1..=parts.len() {
            index.push_str(&format!(
                "  <sitemap><loc>{}</loc></sitemap>\n",
                crate::shell::escape_html(&format!("{base}/sitemap-{n}.xml"))
            ));
        }
        index.push_str("</sitemapindex>\n");
        let mut files = vec![web::Bytes::from(index)];
        files.extend(parts.into_iter().map(web::Bytes::from));
        Self { files }
    }
}

/// Every address crawlers are given: the listed pages, then every product. Made on the database's
/// blocking threads, once a data version (the other callers wait for that one build).
async fn sitemaps(state: &WebState) -> Result<std::sync::Arc<Sitemaps>, framework::ApiError> {
    let version = state.api.watch.data_version() as i64;
    if let Some(held) = state.sitemaps.at(version) {
        return Ok(held);
    }
    let base = state.api.config.public_url.to_string();
    let pages: Vec<String> = state
        .routes
        .routes
        .iter()
        .filter(|r| r.sitemap)
        .map(|r| format!("{base}{}", r.path))
        .collect();
    let built = state.sitemaps.clone();
    state
        .api
        .run(framework::Caller::default(), move |ctx| {
            built.get(version, || {
                let slugs = api::catalog::slugs(ctx.conn)?;
                let locs: Vec<String> = pages
                    .into_iter()
                    .chain(slugs.iter().map(|slug| {
                        format!(
                            "{base}/single-product/{}",
                            crate::keys::encode_component(slug)
                        )
                    }))
                    .collect();
                Ok(Sitemaps::of(&base, &locs, SITEMAP_MAX))
            })
        })
        .await
}

fn xml(body: web::Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "application/xml; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(body)
}

/// `/sitemap.xml`: every listed page and every product, or past [`SITEMAP_MAX`] addresses the
/// index of the files that list them.
pub async fn sitemap(_: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    match sitemaps(&state).await {
        Ok(s) => xml(s.files[0].clone()),
        Err(e) => HttpResponse::build(e.status()).body(e.to_string()),
    }
}

/// `/sitemap-{n}.xml`: part `n` of the index (a part that does not exist is a 404).
pub async fn sitemap_part(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    let n = req
        .match_info()
        .get("n")
        .filter(|n| !n.starts_with('0') && n.len() <= 6)
        .and_then(|n| n.parse::<usize>().ok());
    match sitemaps(&state).await {
        Ok(s) => match n.filter(|n| s.files.len() > 1 && *n < s.files.len()) {
            Some(n) => xml(s.files[n].clone()),
            None => HttpResponse::NotFound()
                .insert_header((header::CONTENT_TYPE, "text/plain; charset=utf-8"))
                .body("No such sitemap."),
        },
        Err(e) => HttpResponse::build(e.status()).body(e.to_string()),
    }
}

/// `/robots.txt`: everything but carts, accounts, forms and the API is for crawling.
pub async fn robots(_: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    let body = format!(
        "User-agent: *\nDisallow: /api/\nDisallow: /cart\nDisallow: /checkout\nDisallow: /my-account\nDisallow: /setup-address\nDisallow: /change-password\nDisallow: /reset-password\nDisallow: /logout\nDisallow: /gate/\nDisallow: /newsletter\nDisallow: /staff\nAllow: /\n\nSitemap: {}/sitemap.xml\n",
        state.api.config.public_url
    );
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &Sitemaps, i: usize) -> &str {
        std::str::from_utf8(&s.files[i]).unwrap()
    }

    #[test]
    fn past_the_limit_the_sitemap_is_an_index_of_parts() {
        let locs: Vec<String> = (1..=5).map(|n| format!("https://s.ph/p/{n}?a&b")).collect();
        let one = Sitemaps::of("https://s.ph", &locs, 5);
        assert_eq!(one.files.len(), 1);
        assert!(text(&one, 0).contains("<urlset"));
        assert_eq!(text(&one, 0).matches("<url>").count(), 5);
        assert!(text(&one, 0).contains("<loc>https://s.ph/p/1?a&amp;b</loc>"));
        let split = Sitemaps::of("https://s.ph", &locs, 2);
        assert_eq!(split.files.len(), 4, "the index and three parts");
        assert!(text(&split, 0).starts_with("<?xml") && text(&split, 0).contains("<sitemapindex"));
        for n in 1..=3 {
            assert!(text(&split, 0).contains(&format!("<loc>https://s.ph/sitemap-{n}.xml</loc>")));
        }
        assert_eq!(text(&split, 0).matches("<sitemap>").count(), 3);
        let listed: usize = (1..split.files.len())
            .map(|i| text(&split, i).matches("<url>").count())
            .sum();
        assert_eq!(listed, 5);
        assert_eq!(text(&split, 3).matches("<url>").count(), 1);
        assert!(text(&Sitemaps::of("https://s.ph", &[], 2), 0).contains("<urlset"));
    }
}
