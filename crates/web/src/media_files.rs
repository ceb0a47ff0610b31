//! The product photos at `/media/{hash}-{width}.{webp|jpg}` (`MEDIA_DIR`): each size made from
//! the kept original the first time it is asked for (once, however many ask at once; on the
//! blocking threads, never an actix worker), then served from its file by `actix-files` with
//! `ETag`, `Last-Modified` and ranges. A name never changes its bytes (it names the original's
//! hash and the width), so browsers keep it a year without asking again.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::WebState;

/// `GET|HEAD /media/{file}`.
pub async fn serve(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    let name = req.match_info().query("file");
    let Some((hash, width, format)) = media::parse(name) else {
        return no_such_file();
    };
    let (store, hash) = (state.media.clone(), hash.to_owned());
    // Made if missing and opened, both on a blocking thread.
    let opened = web::block(move || {
        store
            .sized(&hash, width, format)
            .map(|path| (actix_files::NamedFile::open(&path), path))
    })
    .await;
    let made = match opened {
        Ok(made) => made,
        Err(e) => {
            log::error!("media {name}: {e}");
            return HttpResponse::ServiceUnavailable()
                .insert_header((header::CACHE_CONTROL, "no-store"))
                .insert_header((header::RETRY_AFTER, "1"))
                .json(serde_json::json!({ "error": "The photo could not be made now. Please try again." }));
        }
    };
    let file = match made {
        Ok((Ok(file), _)) => file,
        Ok((Err(e), path)) => {
            log::error!("media {}: {e}", path.display());
            return no_such_file();
        }
        Err(media::Error::BadName(_) | media::Error::BadWidth(_) | media::Error::Unknown(_)) => {
            return no_such_file()
        }
        Err(e) => {
            log::error!("media {name}: {e}");
            return HttpResponse::InternalServerError()
                .insert_header((header::CACHE_CONTROL, "no-store"))
                .json(serde_json::json!({ "error": "Something went wrong on our side. Please try again." }));
        }
    };
    let mut res = file
        .set_content_type(format.content_type().parse().expect("a media type"))
        .disable_content_disposition()
        .into_response(&req);
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    res.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    res
}

fn no_such_file() -> HttpResponse {
    HttpResponse::NotFound()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(serde_json::json!({ "error": "There is no such file." }))
}
