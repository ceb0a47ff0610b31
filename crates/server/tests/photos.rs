//! Product photos end to end, against SQLite and PostgreSQL: given to a product by a manager (the
//! function behind `store catalog photo`, and the API's photo calls), shown by the pages at the
//! sizes made, served like the store's assets; bad uploads refused with the manager's message and
//! the API's status, nothing kept, nothing logged. Needs `make build` (the pages are rendered).

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use db::diesel::prelude::*;
use support::{database, get, Backend};

const KEG: &str = "TBC-KEG-021";
const KEG_PAGE: &str = "/single-product/tala-pale-pilsen-keg-30l";

fn keg() -> api::staff::photos::Subject {
    api::staff::photos::Subject::Product(KEG.to_string())
}

fn photo_records(db: &support::TestDb) -> i64 {
    use db::schema::audit_log;
    audit_log::table
        .filter(audit_log::action.eq("product.photo"))
        .count()
        .get_result(&mut db.pool.get().unwrap())
        .unwrap()
}

fn config_with(db: &support::TestDb, media_dir: &std::path::Path) -> server::Config {
    server::Config {
        media_dir: media_dir.to_path_buf(),
        ..support::store_config(&db.url, false)
    }
}

fn header<'a>(r: &'a support::Res, name: &str) -> &'a str {
    r.headers.get(name).map_or("", |v| v.to_str().unwrap_or(""))
}

async fn a_photo_is_shown_at_the_sizes_made_and_served_like_an_asset(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let folder = media::Store::open(dir.path()).unwrap();
    let upload = media::testing::jpeg(1600, 1200);
    let given =
        api::staff::photos::give(&mut db.pool.get().unwrap(), None, &folder, &keg(), &upload)
            .unwrap();
    assert_eq!((given.width, given.height), (1600, 1200));
    assert_eq!(photo_records(&db), 1);
    let hash = given.hash;
    let store = store!(db, config_with(&db, dir.path()));

    // The page: a picture of every width made, WebP first, its size for the layout, previews.
    let page = send!(store, get(KEG_PAGE, "")).text();
    assert!(page.contains("<picture>"), "{page}");
    assert!(page.contains(&format!("/media/{hash}-480.webp 480w")));
    assert!(page.contains(&format!("/media/{hash}-1280.jpg 1280w")));
    assert!(page.contains(r#"width="1600" height="1200""#));
    let large = format!("https://shop.example/media/{hash}-1280.jpg");
    assert!(page.contains(&format!(r#"<meta property="og:image" content="{large}">"#)));
    assert!(page.contains(&format!(r#""image":"{large}""#)), "JSON-LD");
    // The list's card too, lazily (it may be below the first screen).
    let list = send!(store, get("/buy-beer?filterByType=keg", "")).text();
    assert!(list.contains(&format!("/media/{hash}-320.webp 320w")));

    // A size: made on the first request, immutable a year, validated, ranged.
    for (name, kind, width) in [
        (format!("{hash}-320.webp"), "image/webp", 320),
        (format!("{hash}-480.jpg"), "image/jpeg", 480),
    ] {
        let r = send!(store, get(&format!("/media/{name}"), ""));
        assert_eq!(r.status, StatusCode::OK, "{name}");
        assert_eq!(header(&r, "content-type"), kind);
        assert_eq!(
            header(&r, "cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert!(r.body.len() < 40 * 1024, "{name}: {} bytes", r.body.len());
        let made = media::inspect(&r.body, &media::Limits::default()).unwrap();
        assert_eq!((made.width(), made.height()), (width, width * 3 / 4));
        let etag = header(&r, "etag").to_string();
        assert!(!etag.is_empty());
        let again = send!(
            store,
            get(&format!("/media/{name}"), "").insert_header(("if-none-match", etag))
        );
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        let part = send!(
            store,
            get(&format!("/media/{name}"), "").insert_header(("range", "bytes=0-99"))
        );
        assert_eq!(part.status, StatusCode::PARTIAL_CONTENT);
        assert_eq!(part.body, r.body[..100]);
    }

    // Names that are no photo's size are 404s, never a file outside the folder.
    for bad in [
        format!("{hash}-400.webp"),
        format!("{hash}-2560.webp"),
        format!("{hash}-320.png"),
        format!("{hash}-0320.webp"),
        "0123456789abcdef0123456789abcdef-320.webp".to_string(),
        "..%2F..%2Fetc%2Fpasswd".to_string(),
        "%ff%fe-320.webp".to_string(),
    ] {
        let r = send!(store, get(&format!("/media/{bad}"), ""));
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{bad}");
        assert_eq!(header(&r, "cache-control"), "no-store");
    }
    let post = send!(
        store,
        actix_web::test::TestRequest::post().uri(&format!("/media/{hash}-320.webp"))
    );
    assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED);

    // Taken away: the drawing again (a new store: a page is kept under the data version its
    // server reads four times a second).
    assert!(api::staff::photos::take_away(&mut db.pool.get().unwrap(), None, &keg()).unwrap());
    assert!(!api::staff::photos::take_away(&mut db.pool.get().unwrap(), None, &keg()).unwrap());
    assert_eq!(photo_records(&db), 2);
    let store = store!(db, config_with(&db, dir.path()));
    let page = send!(store, get(KEG_PAGE, "")).text();
    assert!(!page.contains("<picture>"));
    assert!(page.contains("/img/products/"));
    assert!(!page.contains("og:image"));
}
both!(a_photo_is_shown_at_the_sizes_made_and_served_like_an_asset);

async fn a_browser_saving_data_is_offered_smaller_photos(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let folder = media::Store::open(dir.path()).unwrap();
    let upload = media::testing::jpeg(1600, 1200);
    let hash =
        api::staff::photos::give(&mut db.pool.get().unwrap(), None, &folder, &keg(), &upload)
            .unwrap()
            .hash;
    let store = store!(db, config_with(&db, dir.path()));
    // Offered the widths up to 480 (its own page, kept apart); the pages say they vary with it.
    let saving = send!(store, get(KEG_PAGE, "").insert_header(("Save-Data", "on")));
    assert_eq!(header(&saving, "vary"), "Cookie, Save-Data");
    let saving = saving.text();
    // The attributes the browser picks from (the page's state still holds the API's whole answer).
    let offered: Vec<&str> = saving
        .split(r#"srcSet=""#)
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(offered.len(), 2, "WebP and JPEG");
    for set in offered {
        assert!(
            set.ends_with(&format!("{hash}-480.webp 480w"))
                || set.ends_with(&format!("{hash}-480.jpg 480w")),
            "{set}"
        );
    }
    assert!(saving.contains(r#""saveData":true"#));
    // The page kept for everyone else is still the whole one.
    let again = send!(store, get(KEG_PAGE, "")).text();
    assert!(again.contains(&format!("/media/{hash}-1280.jpg 1280w")));
    assert!(!again.contains(r#""saveData":true"#));
}
both!(a_browser_saving_data_is_offered_smaller_photos);

async fn a_crowd_asking_for_a_new_size_gets_one_file(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let folder = media::Store::open(dir.path()).unwrap();
    let upload = media::testing::jpeg(1000, 1000);
    let hash =
        api::staff::photos::give(&mut db.pool.get().unwrap(), None, &folder, &keg(), &upload)
            .unwrap()
            .hash;
    let store = store!(db, config_with(&db, dir.path()));
    let uri = format!("/media/{hash}-640.webp");
    let asks = (0..8).map(|_| support::call(&store, get(&uri, "").to_request()));
    let answers = futures_util::future::join_all(asks).await;
    assert!(answers.iter().all(|a| a.status == StatusCode::OK));
    assert!(answers.iter().all(|a| a.body == answers[0].body));
    let sized: Vec<_> = std::fs::read_dir(dir.path().join("sized"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(
        sized,
        [format!("{hash}-640.webp")],
        "one file, no leftovers"
    );
}
both!(a_crowd_asking_for_a_new_size_gets_one_file);

async fn bad_uploads_are_refused_and_leave_nothing_behind(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let folder = media::Store::open(dir.path()).unwrap();
    let whole = media::testing::jpeg(800, 600);
    let mut truncated = whole.clone();
    truncated.truncate(whole.len() / 3);
    // Each with the status the API answers (a page's form says each beside its field, 422).
    for (upload, says, status) in [
        (
            b"SKU,price\nTBC-KEG-021,725000\n".to_vec(),
            "This file is not a photo",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            media::testing::png_header_only(20_000, 20_000),
            "20000 x 20000 pixels",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            truncated,
            "damaged or incomplete",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            vec![0xff; 11 << 20],
            "more than the 10 MB",
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ] {
        let e =
            api::staff::photos::give(&mut db.pool.get().unwrap(), None, &folder, &keg(), &upload)
                .unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
        assert_eq!(e.status(), status, "{says}");
        let in_form = api::staff::photos::in_form(e);
        assert_eq!(in_form.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(in_form.to_string().contains(says));
    }
    let e = api::staff::photos::give(
        &mut db.pool.get().unwrap(),
        None,
        &folder,
        &api::staff::photos::Subject::Product("NO-SUCH".into()),
        &whole,
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "No product has the SKU \"NO-SUCH\".");
    assert_eq!(
        std::fs::read_dir(dir.path().join("originals"))
            .unwrap()
            .count(),
        0
    );
    let keg = db::catalog::product_by_sku(&mut db.pool.get().unwrap(), KEG)
        .unwrap()
        .unwrap();
    assert_eq!(keg.photo, None);
    assert_eq!(photo_records(&db), 0);
}
both!(bad_uploads_are_refused_and_leave_nothing_behind);

/// A photo is its name and its size together: the database refuses one set in part.
async fn a_photo_is_never_set_in_part(b: Backend) {
    use db::schema::products;
    let db = database(b);
    let mut conn = db.pool.get().unwrap();
    let keg = products::table.filter(products::sku.eq(KEG));
    for (photo, width, height) in [
        (Some("0123456789abcdef0123456789abcdef"), None, Some(300)),
        (Some("0123456789abcdef0123456789abcdef"), Some(400), None),
        (Some("0123456789abcdef0123456789abcdef"), Some(0), Some(300)),
        (None, Some(400), Some(300)),
    ] {
        let set = diesel::update(keg)
            .set((
                products::photo.eq(photo),
                products::photo_width.eq(width),
                products::photo_height.eq(height),
            ))
            .execute(&mut conn);
        assert!(set.is_err(), "{photo:?} {width:?} {height:?}");
    }
}
both!(a_photo_is_never_set_in_part);

/// A banner removed (a catalog import that leaves it out) after its upload was checked and kept:
/// the photo goes to no banner and nothing is recorded; taking its photo away says the same.
async fn a_photo_for_a_banner_removed_meanwhile_is_refused(b: Backend) {
    use api::staff::photos::{give_kept, keep, known, take_away, Subject};
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let folder = media::Store::open(dir.path()).unwrap();
    let mut conn = db.pool.get().unwrap();
    let banner = Subject::Banner(3);
    known(&mut conn, &banner).unwrap();
    let kept = keep(&folder, &banner, &media::testing::jpeg(600, 200)).unwrap();
    diesel::delete(db::schema::banners::table.find(3))
        .execute(&mut conn)
        .unwrap();
    for e in [
        give_kept(&mut conn, None, &banner, &kept).unwrap_err(),
        take_away(&mut conn, None, &banner).unwrap_err(),
    ] {
        assert_eq!(e.status(), StatusCode::NOT_FOUND);
        assert_eq!(e.to_string(), "No such banner.");
    }
    let records: i64 = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.eq("banner.photo"))
        .count()
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(records, 0);
}
both!(a_photo_for_a_banner_removed_meanwhile_is_refused);

/// A `multipart/form-data` body of `parts` (name, file name if a file, bytes), and its type.
fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    const BOUNDARY: &str = "----store-photo-api-boundary-51c2";
    let mut body = Vec::new();
    for (name, file, bytes) in parts {
        body.extend(format!("--{BOUNDARY}\r\n").as_bytes());
        let disposition = match file {
            Some(f) => format!(
                "form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream"
            ),
            None => format!("form-data; name=\"{name}\""),
        };
        body.extend(format!("Content-Disposition: {disposition}\r\n\r\n").as_bytes());
        body.extend(*bytes);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
}

/// A call of the photo API from the store's own pages, with the staff session `session` (none:
/// no cookie).
fn photo_call(
    method: actix_web::http::Method,
    uri: &str,
    session: Option<&str>,
) -> actix_web::test::TestRequest {
    let mut req = actix_web::test::TestRequest::default()
        .method(method)
        .uri(uri)
        .insert_header(("origin", support::SHOP));
    if let Some(s) = session {
        req = req.insert_header(("cookie", format!("{}={s}", api::staff::COOKIE)));
    }
    req
}

/// `PUT uri` with `parts` as its multipart body.
fn put_parts(
    uri: &str,
    session: Option<&str>,
    parts: &[(&str, Option<&str>, &[u8])],
) -> actix_web::test::TestRequest {
    let (kind, body) = multipart(parts);
    photo_call(actix_web::http::Method::PUT, uri, session)
        .insert_header(("content-type", kind))
        .set_payload(body)
}

/// `PUT uri` with `file` as its one part `photo`.
fn put_photo(uri: &str, session: Option<&str>, file: &[u8]) -> actix_web::test::TestRequest {
    put_parts(uri, session, &[("photo", Some("photo.jpg"), file)])
}

fn delete(uri: &str, session: Option<&str>) -> actix_web::test::TestRequest {
    photo_call(actix_web::http::Method::DELETE, uri, session)
}

const KEG_PHOTO: &str = "/api/v1/staff/catalog/products/TBC-KEG-021/photo";
const BANNER_PHOTO: &str = "/api/v1/staff/catalog/banners/2/photo";

/// The hash of a photo as an answer shows it (`/media/{hash}-480.jpg`).
fn hash_of(photo: &serde_json::Value) -> String {
    let src = photo["src"].as_str().unwrap_or_else(|| panic!("{photo}"));
    let name = src.trim_start_matches("/media/");
    name[..name.find('-').unwrap()].to_string()
}

/// A manager gives a keg and a banner photos by the API (`PUT`, `multipart/form-data`, the part
/// `photo`) and takes them away (`DELETE`): the answers show the photo as the catalog does, the
/// catalog's answers and the product's page show it, each change is in the audit log as the
/// manager's.
async fn a_manager_gives_photos_by_the_api(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let store = store!(db, config_with(&db, dir.path()));
    let boss = support::staff::Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let boss = boss.cookie.as_deref();

    let r = send!(
        store,
        put_photo(KEG_PHOTO, boss, &media::testing::jpeg(1200, 900))
    );
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(header(&r, "content-type"), "application/json");
    assert_eq!(header(&r, "cache-control"), "private, no-store");
    let photo = r.json()["photo"].clone();
    assert_eq!(
        (photo["width"].as_i64(), photo["height"].as_i64()),
        (Some(1200), Some(900))
    );
    let hash = hash_of(&photo);
    assert!(photo["jpeg"]
        .as_str()
        .unwrap()
        .contains(&format!("/media/{hash}-1200.jpg 1200w")));
    let keg = db::catalog::product_by_sku(&mut db.pool.get().unwrap(), KEG)
        .unwrap()
        .unwrap();
    assert_eq!(keg.photo.as_deref(), Some(hash.as_str()));
    assert_eq!(photo_records(&db), 1);
    let by: Vec<String> = {
        use db::schema::audit_log;
        audit_log::table
            .filter(audit_log::action.eq("product.photo"))
            .select(audit_log::actor)
            .load(&mut db.pool.get().unwrap())
            .unwrap()
    };
    assert!(by[0].contains("boss@tala.example"), "{by:?}");

    // The catalog's answer shows it as the call answered it.
    let catalog = send!(
        store,
        photo_call(actix_web::http::Method::GET, "/api/v1/staff/catalog", boss)
    );
    assert_eq!(catalog.status, StatusCode::OK, "{}", catalog.text());
    let listed = catalog.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["sku"] == KEG)
        .unwrap()["photo"]
        .clone();
    assert_eq!(listed, photo);
    // The product's page (a new store: a page is kept under the data version its server reads
    // four times a second).
    let shop = store!(db, config_with(&db, dir.path()));
    let page = send!(shop, get(KEG_PAGE, "")).text();
    assert!(
        page.contains(&format!("/media/{hash}-480.webp 480w")),
        "{page}"
    );
    let large = photo["large"].as_str().unwrap();
    assert!(page.contains(&format!(
        r#"<meta property="og:image" content="https://shop.example{large}">"#
    )));

    // A banner's, shown by the banners' answer.
    let r = send!(
        store,
        put_photo(BANNER_PHOTO, boss, &media::testing::jpeg(1500, 500))
    );
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let banner_photo = r.json()["photo"].clone();
    assert_eq!(banner_photo["width"], 1500);
    let banners = send!(
        store,
        photo_call(
            actix_web::http::Method::GET,
            "/api/v1/staff/catalog/banners",
            boss
        )
    )
    .json();
    let listed = banners["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == 2)
        .unwrap()["photo"]
        .clone();
    assert_eq!(listed, banner_photo);

    // Taken away: no photo, its drawing shows again; asked again, the same answer.
    for _ in 0..2 {
        let r = send!(store, delete(KEG_PHOTO, boss));
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        assert_eq!(r.json(), serde_json::json!({ "photo": null }));
    }
    let r = send!(store, delete(BANNER_PHOTO, boss));
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let keg = db::catalog::product_by_sku(&mut db.pool.get().unwrap(), KEG)
        .unwrap()
        .unwrap();
    assert_eq!(keg.photo, None);
    let banner = db::catalog::banner(&mut db.pool.get().unwrap(), 2)
        .unwrap()
        .unwrap();
    assert_eq!(banner.photo, None);
    assert_eq!(photo_records(&db), 2, "given, then taken away once");
}
both!(a_manager_gives_photos_by_the_api);

/// What the photo calls refuse, each with its status, nothing kept and nothing recorded: no staff
/// session (401), a rider's or a dispatcher's (404, as a page beyond their role), an unknown SKU
/// or banner (404), a file that is no photo (415), a body that is not multipart (415), a damaged
/// or oversized picture (422), a body larger than a photo's form takes (413), no photo (422),
/// another part (400), another site's page (403).
async fn the_photo_calls_refuse_what_they_must(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let store = store!(db, config_with(&db, dir.path()));
    let photo = media::testing::jpeg(800, 600);

    for req in [put_photo(KEG_PHOTO, None, &photo), delete(KEG_PHOTO, None)] {
        let r = send!(store, req);
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text());
    }
    for role in ["rider", "dispatcher"] {
        let them =
            support::staff::Staff::signed_in(&db, &format!("{role}@tala.example"), role).await;
        let them = them.cookie.as_deref();
        for req in [
            put_photo(KEG_PHOTO, them, &photo),
            put_photo(BANNER_PHOTO, them, &photo),
            delete(KEG_PHOTO, them),
        ] {
            let r = send!(store, req);
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{role}: {}", r.text());
        }
    }

    let boss = support::staff::Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let boss = boss.cookie.as_deref();
    let mut truncated = photo.clone();
    truncated.truncate(photo.len() / 3);
    let error = |r: &support::Res| {
        let v = r.json();
        v["error"]
            .as_str()
            .or_else(|| v["errors"]["photo"][0].as_str())
            .unwrap_or_else(|| panic!("{v}"))
            .to_string()
    };
    for (req, status, says) in [
        (
            put_photo("/api/v1/staff/catalog/products/NO-SUCH/photo", boss, &photo),
            StatusCode::NOT_FOUND,
            "No product has the SKU",
        ),
        (
            delete("/api/v1/staff/catalog/products/NO-SUCH/photo", boss),
            StatusCode::NOT_FOUND,
            "No product has the SKU",
        ),
        (
            put_photo("/api/v1/staff/catalog/banners/999/photo", boss, &photo),
            StatusCode::NOT_FOUND,
            "No such banner.",
        ),
        (
            put_photo(KEG_PHOTO, boss, b"SKU,price\nTBC-KEG-021,725000\n"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "This file is not a photo",
        ),
        (
            photo_call(actix_web::http::Method::PUT, KEG_PHOTO, boss)
                .insert_header(("content-type", "application/json"))
                .set_payload(r#"{"photo": "x"}"#),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "multipart/form-data",
        ),
        (
            put_photo(KEG_PHOTO, boss, &truncated),
            StatusCode::UNPROCESSABLE_ENTITY,
            "damaged or incomplete",
        ),
        (
            put_photo(
                KEG_PHOTO,
                boss,
                &media::testing::png_header_only(20_000, 20_000),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
            "20000 x 20000 pixels",
        ),
        (
            put_photo(KEG_PHOTO, boss, &vec![0xff; 11 << 20]),
            StatusCode::PAYLOAD_TOO_LARGE,
            "larger than the 10 MB a photo may be",
        ),
        (
            put_parts(KEG_PHOTO, boss, &[("photo", Some("empty.jpg"), b"")]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a file to send as photo.",
        ),
        (
            put_parts(
                KEG_PHOTO,
                boss,
                &[
                    ("photo", Some("k.jpg"), &photo),
                    ("sku", None, b"TBC-KEG-022"),
                ],
            ),
            StatusCode::BAD_REQUEST,
            "send only the part named photo",
        ),
        (
            put_photo(KEG_PHOTO, boss, &photo).insert_header(("origin", "https://evil.example")),
            StatusCode::FORBIDDEN,
            "store's own pages",
        ),
        (
            put_photo(KEG_PHOTO, boss, &photo).insert_header(("sec-fetch-site", "cross-site")),
            StatusCode::FORBIDDEN,
            "store's own pages",
        ),
        (
            delete(KEG_PHOTO, boss).insert_header(("origin", "https://evil.example")),
            StatusCode::FORBIDDEN,
            "store's own pages",
        ),
    ] {
        let r = send!(store, req);
        assert_eq!(r.status, status, "{says}: {}", r.text());
        assert!(error(&r).contains(says), "{says}: {}", r.text());
    }
    // A POST is no photo call.
    let (kind, body) = multipart(&[("photo", Some("k.jpg"), &photo)]);
    let r = send!(
        store,
        photo_call(actix_web::http::Method::POST, KEG_PHOTO, boss)
            .insert_header(("content-type", kind))
            .set_payload(body)
    );
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(header(&r, "allow"), "DELETE, PUT");

    let kept = std::fs::read_dir(dir.path().join("originals"))
        .unwrap()
        .count();
    assert_eq!(kept, 0, "nothing kept");
    let keg = db::catalog::product_by_sku(&mut db.pool.get().unwrap(), KEG)
        .unwrap()
        .unwrap();
    assert_eq!(keg.photo, None);
    assert_eq!(photo_records(&db), 0);
}
both!(the_photo_calls_refuse_what_they_must);
