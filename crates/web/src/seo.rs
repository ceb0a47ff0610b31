//! What crawlers read besides the pages: sitemap.xml and robots.txt.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::WebState;

/// `/sitemap.xml`: every listed page and every product.
pub async fn sitemap(_: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    let slugs = state
        .api
        .run(framework::Caller::default(), |ctx| {
            api::catalog::slugs(ctx.conn)
        })
        .await;
    let slugs = match slugs {
        Ok(s) => s,
        Err(e) => return HttpResponse::build(e.status()).body(e.to_string()),
    };
    let base = &state.api.config.public_url;
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for r in state.routes.routes.iter().filter(|r| r.sitemap) {
        xml.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            crate::shell::escape_html(&format!("{base}{}", r.path))
        ));
    }
    for slug in slugs {
        let loc = format!(
            "{base}/single-product/{}",
            crate::keys::encode_component(&slug)
        );
        xml.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            crate::shell::escape_html(&loc)
        ));
    }
    xml.push_str("</urlset>\n");
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "application/xml; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(xml)
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
