//! A product's photo, given by a manager (today the command line's `store catalog photo`):
//! checked and kept by `media` (type from the content, size from the header, a damaged or
//! oversized file refused before anything is written), named by the product in one transaction
//! with its audit record. A product whose photo is taken away shows its drawing again; the files
//! stay (other products, or an order's page, may show the same photo).

use db::catalog::Photo;
use db::team::StaffRow;
use framework::error::ApiError;

use super::record;

/// The product `sku` or a message naming the SKU.
fn product(conn: &mut db::AnyConnection, sku: &str) -> Result<db::models::Product, ApiError> {
    db::catalog::product_by_sku(conn, sku)?.ok_or_else(|| ApiError::Invalid {
        field: "sku",
        message: format!("No product has the SKU {sku:?}."),
    })
}

fn picture(p: &db::models::Product) -> serde_json::Value {
    serde_json::json!({ "photo": p.photo, "width": p.photo_width, "height": p.photo_height })
}

/// Gives `product` the photo (none: its drawing) with its audit record, in one transaction.
fn set(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    product: &db::models::Product,
    photo: Option<&Photo>,
) -> Result<(), ApiError> {
    let after = serde_json::json!({
        "photo": photo.map(|p| &p.hash),
        "width": photo.map(|p| p.width),
        "height": photo.map(|p| p.height),
    });
    db::write_transaction(conn, |conn| {
        db::catalog::set_photo(conn, product.id.get(), photo)?;
        record(
            conn,
            by,
            "product.photo",
            &format!("product {} ({})", product.id.get(), product.sku),
            Some(picture(product)),
            Some(after),
        )
    })
}

/// Checks `upload` and keeps it in `store` (nothing is kept when it is refused); `sku` names it
/// in the log. Blocking work (a photo is decoded, a file written): run it off the request threads,
/// and without a database connection held.
pub fn keep(store: &media::Store, sku: &str, upload: &[u8]) -> Result<Photo, ApiError> {
    let original = media::inspect(upload, &media::Limits::default()).map_err(|refused| {
        if let media::Refused::Damaged(why) = &refused {
            log::info!("photo for {sku} refused as damaged: {why}");
        }
        ApiError::Invalid {
            field: "photo",
            message: refused.to_string(),
        }
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

/// Gives the product `sku` a photo [`keep`] kept, recorded for `by` (none: the command line).
pub fn give_kept(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    sku: &str,
    photo: &Photo,
) -> Result<(), ApiError> {
    let before = product(conn, sku)?;
    set(conn, by, &before, Some(photo))
}

/// Checks `upload`, keeps it in `store` and gives it to the product `sku` (its SKU checked
/// first), recorded for `by`: the command line's `store catalog photo`.
pub fn give(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    store: &media::Store,
    sku: &str,
    upload: &[u8],
) -> Result<Photo, ApiError> {
    product(conn, sku)?;
    let photo = keep(store, sku, upload)?;
    give_kept(conn, by, sku, &photo)?;
    Ok(photo)
}

/// Whether the product `sku` exists (a message naming the SKU when not).
pub fn known(conn: &mut db::AnyConnection, sku: &str) -> Result<(), ApiError> {
    product(conn, sku).map(|_| ())
}

/// Takes the photo away from the product `sku` (its drawing shows again), recorded for `by`;
/// answers whether it had one.
pub fn take_away(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    sku: &str,
) -> Result<bool, ApiError> {
    let before = product(conn, sku)?;
    if before.photo.is_none() {
        return Ok(false);
    }
    set(conn, by, &before, None)?;
    Ok(true)
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
        super::staff(ctx, &[domain::staff::Role::Manager])?;
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
