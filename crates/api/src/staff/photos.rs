//! A product's or a banner's photo, given by a manager (the catalog and banners pages' photo
//! forms and the API's photo calls, both through [`receive`]; a product's also by the command
//! line's `store catalog photo`): checked and kept by `media` (type from the content, size from
//! the header, a damaged or oversized file refused before anything is written), named by its
//! owner in one transaction with its audit record. An owner whose photo is taken away shows its
//! drawing again; the files stay (other products, or an order's page, may show the same photo).

use std::sync::Arc;

use db::catalog::{Photo, PhotoOwner};
use db::team::StaffRow;
use domain::staff::Role;
use framework::error::ApiError;
use framework::{ApiState, Caller};

use super::entry;

/// What a photo is given to: a product by its SKU, or a home page banner by its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Product(String),
    Banner(i32),
}

impl Subject {
    /// The id of its place on its page, which a photo form's answer comes back to.
    pub fn anchor(&self) -> String {
        match self {
            Self::Product(sku) => anchor_of(sku),
            Self::Banner(id) => format!("banner-{id}"),
        }
    }
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Product(sku) => write!(f, "product {sku}"),
            Self::Banner(id) => write!(f, "banner {id}"),
        }
    }
}

/// A subject as its row holds it: who it is, what the audit log calls it, its photo now.
struct Owner {
    id: PhotoOwner,
    action: &'static str,
    named: String,
    photo: Option<Photo>,
}

/// The subject's row, or a message naming what was asked for.
fn owner(conn: &mut db::AnyConnection, subject: &Subject) -> Result<Owner, ApiError> {
    match subject {
        Subject::Product(sku) => {
            let p = db::catalog::product_by_sku(conn, sku)?.ok_or_else(|| ApiError::Invalid {
                field: "sku",
                message: format!("No product has the SKU {sku:?}."),
            })?;
            Ok(Owner {
                id: PhotoOwner::Product(p.id.get()),
                action: "product.photo",
                named: format!("product {} ({})", p.id.get(), p.sku),
                photo: p.kept_photo(),
            })
        }
        Subject::Banner(id) => {
            let b = db::catalog::banner(conn, *id)?
                .ok_or_else(|| ApiError::NotFound("No such banner.".into()))?;
            Ok(Owner {
                id: PhotoOwner::Banner(b.id),
                action: "banner.photo",
                named: banner_named(b.id, &b.title),
                photo: b.kept_photo(),
            })
        }
    }
}

/// Names `photo` as the banner `id`'s (titled `title`) in the transaction that added it: a new
/// row, held by that transaction, with no photo before.
pub fn of_new_banner(
    conn: &mut db::AnyConnection,
    by: &StaffRow,
    id: i32,
    title: &str,
    photo: &Photo,
) -> db::diesel::QueryResult<()> {
    db::catalog::set_photo(conn, PhotoOwner::Banner(id), Some(photo))?;
    super::entry(
        conn,
        Some(by),
        "banner.photo",
        &banner_named(id, title),
        Some(picture(None)),
        Some(picture(Some(photo))),
    )
}

/// A banner as the audit log names it.
fn banner_named(id: i32, title: &str) -> String {
    format!("banner {id} ({title})")
}

fn picture(photo: Option<&Photo>) -> serde_json::Value {
    serde_json::json!({
        "photo": photo.map(|p| &p.hash),
        "width": photo.map(|p| p.width),
        "height": photo.map(|p| p.height),
    })
}

/// Gives `subject` the photo (none: its drawing) with its audit record, in one transaction whose
/// first write holds the subject's row (its photo before is read once it is held: a concurrent
/// upload or an import that removed it went first, or waits). Answers whether it had a photo.
fn set(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    subject: &Subject,
    photo: Option<&Photo>,
) -> Result<bool, ApiError> {
    let first = owner(conn, subject)?;
    db::write_transaction(conn, |conn| {
        db::catalog::hold_photo_owner(conn, first.id)?;
        // Gone meanwhile: said as the first look would have said it.
        let held = owner(conn, subject)?;
        if held.id != first.id {
            return Err(ApiError::Conflict(format!(
                "{subject} changed meanwhile: reload the page."
            )));
        }
        if photo.is_none() && held.photo.is_none() {
            return Ok(false);
        }
        db::catalog::set_photo(conn, held.id, photo)?;
        entry(
            conn,
            by,
            held.action,
            &held.named,
            Some(picture(held.photo.as_ref())),
            Some(picture(photo)),
        )?;
        Ok(held.photo.is_some())
    })
}

/// Checks `upload` and keeps it in `store` (nothing is kept when it is refused); `subject` names
/// it in the log. Blocking work (a photo is decoded, a file written): run it off the request
/// threads, and without a database connection held.
pub fn keep(
    store: &media::Store,
    subject: &impl std::fmt::Display,
    upload: &[u8],
) -> Result<Photo, ApiError> {
    let original = media::inspect(upload, &media::Limits::default()).map_err(|refused| {
        if let media::Refused::Damaged(why) = &refused {
            log::info!("photo for {subject} refused as damaged: {why}");
        }
        refusal(&refused)
    })?;
    let saved = store
        .save(&original)
        .map_err(|e| ApiError::Internal(format!("MEDIA_DIR: {e}")))?;
    let side = |n: u32| i32::try_from(n).map_err(|e| ApiError::Internal(e.to_string()));
    Ok(Photo {
        hash: saved.hash,
        width: side(saved.width)?,
        height: side(saved.height)?,
    })
}

/// A refused upload in the API's words: a file of a type not taken is a 415, one larger than a
/// photo may be a 413, a picture that cannot be taken (damaged, too many pixels) a 422 on
/// `photo`. A page's form says each beside its photo field ([`in_form`]).
fn refusal(refused: &media::Refused) -> ApiError {
    let message = refused.to_string();
    match refused {
        media::Refused::NotAnImage | media::Refused::OtherType(_) => ApiError::Unacceptable {
            status: 415,
            message,
        },
        media::Refused::TooManyBytes { .. } => ApiError::Unacceptable {
            status: 413,
            message,
        },
        media::Refused::TooManyPixels { .. } | media::Refused::Damaged(_) => ApiError::Invalid {
            field: "photo",
            message,
        },
    }
}

/// The most a whole photo body may be, form or API call: the photo, the text, and the parts'
/// headers.
pub fn body_limit() -> usize {
    media::Limits::default().max_bytes + 64 * 1024
}

/// What a body larger than a photo may be is told, by the form and the API call alike.
pub fn too_large() -> &'static str {
    static SAID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SAID.get_or_init(|| {
        let limit = media::Limits::default().max_bytes >> 20;
        format!(
            "This photo is larger than the {limit} MB a photo may be: save it smaller and upload \
             it again."
        )
    })
}

/// A refused photo as a page's form shows it: beside its photo field, to correct (422).
pub fn in_form(e: ApiError) -> ApiError {
    match e {
        ApiError::Unacceptable { message, .. } => ApiError::Invalid {
            field: "photo",
            message,
        },
        other => other,
    }
}

/// The photos' folder (`MEDIA_DIR`), which the server puts in the API's settings.
pub fn folder(state: &ApiState) -> Result<Arc<media::Store>, ApiError> {
    state
        .config
        .settings
        .get::<Arc<media::Store>>()
        .cloned()
        .ok_or_else(|| ApiError::Internal("no photos' folder (MEDIA_DIR) in the settings".into()))
}

/// [`keep`] on a blocking thread, holding no database connection (a photo is decoded, a file
/// written): never on the request's own thread.
pub async fn kept(state: &ApiState, named: String, upload: Vec<u8>) -> Result<Photo, ApiError> {
    let store = folder(state)?;
    actix_web::web::block(move || keep(&store, &named, &upload))
        .await
        .map_err(|_| ApiError::Unavailable)?
}

/// Gives `subject` the photo `upload` that `caller`, a manager, sent: the one way the photo forms
/// and the API's photo calls give a photo. The subject is looked up (a message naming it when it
/// is not there), the photo checked and kept on a blocking thread with no connection held, then
/// given with its audit record by the manager, asked again (a session may end meanwhile).
/// Answers the photo given.
pub async fn receive(
    state: &ApiState,
    caller: Caller,
    subject: Subject,
    upload: Vec<u8>,
) -> Result<Photo, ApiError> {
    let known_one = subject.clone();
    state
        .run(caller.clone(), move |ctx| known(ctx.conn, &known_one))
        .await?;
    let photo = kept(state, subject.to_string(), upload).await?;
    let given = photo.clone();
    state
        .run(caller, move |ctx| {
            let signed = super::signed_in_as(ctx, &[Role::Manager])?;
            give_kept(ctx.conn, Some(&signed.member), &subject, &given)
        })
        .await?;
    Ok(photo)
}

/// Gives `subject` a photo [`keep`] kept, recorded for `by` (none: the command line).
pub fn give_kept(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    subject: &Subject,
    photo: &Photo,
) -> Result<(), ApiError> {
    set(conn, by, subject, Some(photo)).map(|_| ())
}

/// Checks `upload`, keeps it in `store` and gives it to `subject` (which is looked up first),
/// recorded for `by`: the command line's `store catalog photo`.
pub fn give(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    store: &media::Store,
    subject: &Subject,
    upload: &[u8],
) -> Result<Photo, ApiError> {
    known(conn, subject)?;
    let photo = keep(store, subject, upload)?;
    give_kept(conn, by, subject, &photo)?;
    Ok(photo)
}

/// Whether `subject` exists (a message naming it when not).
pub fn known(conn: &mut db::AnyConnection, subject: &Subject) -> Result<(), ApiError> {
    owner(conn, subject).map(|_| ())
}

/// Takes the photo away from `subject` (its drawing shows again), recorded for `by`; answers
/// whether it had one.
pub fn take_away(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    subject: &Subject,
) -> Result<bool, ApiError> {
    set(conn, by, subject, None)
}

framework::register!(StaffCatalog);

/// The id of a product's row on the catalog page, which its photo form's answer comes back to.
pub fn anchor_of(sku: &str) -> String {
    let safe: String = sku
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("product-{safe}")
}

/// A product as the catalog page lists it for managers.
#[derive(Debug, Clone, serde::Serialize, PartialEq, utoipa::ToSchema, ts_rs::TS)]
pub struct CatalogProduct {
    pub id: domain::ProductId,
    pub sku: String,
    pub slug: String,
    pub product_name: String,
    pub size: String,
    /// Whether it can be ordered (false: Out Of Stock).
    pub orderable: bool,
    /// Its drawing, shown while it has no photo.
    pub product_image: Option<String>,
    pub photo: Option<crate::catalog::PhotoView>,
    /// The id of its row on the catalog page (where its photo form's answer comes back to).
    pub anchor: String,
}

framework::declare!(
    /// `GET /api/v1/staff/catalog`: every product with its photo (managers).
    pub struct StaffCatalog = Get "/api/v1/staff/catalog" as "staffCatalog", Session, errors [401, 404],
    (framework::endpoint::NoParams, framework::endpoint::NoParams, framework::endpoint::NoBody) -> framework::endpoint::Results<CatalogProduct>,
    "Every product of the catalog with its photo, in the shop's order (managers only).");

impl framework::endpoint::Endpoint for StaffCatalog {
    const CREDENTIAL: Option<(&'static str, &'static str)> = super::CREDENTIAL;

    fn call(
        ctx: &mut framework::endpoint::Ctx,
        _: framework::endpoint::Args<Self>,
    ) -> Result<framework::endpoint::Results<CatalogProduct>, ApiError> {
        super::signed_in_as(ctx, &[domain::staff::Role::Manager])?;
        let all = db::catalog::products(ctx.conn, db::catalog::Area::Anywhere, None)?;
        Ok(all
            .iter()
            .map(|p| CatalogProduct {
                id: p.id,
                sku: p.sku.clone(),
                slug: p.slug.clone(),
                product_name: p.product_name.clone(),
                size: p.size.clone(),
                orderable: p.orderable,
                product_image: p.product_image.clone(),
                photo: crate::catalog::PhotoView::of(p),
                anchor: anchor_of(&p.sku),
            })
            .collect::<Vec<_>>()
            .into())
    }
}
