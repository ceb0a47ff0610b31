//! The index an app server holds: built from the catalog when first asked and again once the
//! catalog's data version has moved (an import, a product changed, a search word set), by one
//! call while the others go on with the index before (a moment older); never on the actix worker
//! (calls run on the database's blocking threads).

use framework::endpoint::Ctx;
use framework::error::ApiError;
use framework::per_data_version::PerDataVersion;

/// The index an app server holds (a setting of the API: `ApiConfig::settings`).
pub type IndexPerVersion = PerDataVersion<search::Index>;

/// The index of the catalog at `version`: the one the app server holds, or (a tool's context,
/// without one) built for this call.
pub(crate) fn index(
    ctx: &mut Ctx,
    version: i64,
) -> Result<std::sync::Arc<search::Index>, ApiError> {
    match ctx
        .config
        .settings
        .get::<std::sync::Arc<IndexPerVersion>>()
        .cloned()
    {
        Some(built) => built.get(version, || build(ctx)),
        None => Ok(std::sync::Arc::new(build(ctx)?)),
    }
}

/// Builds the index of the catalog as the lists hold it (read once for both): each product's
/// name, and its brewery, style, packaging, type, size and description; the store's search words.
pub(crate) fn build(ctx: &mut Ctx) -> Result<search::Index, ApiError> {
    let items: Vec<search::Item> = crate::catalog::list::listed(ctx)?
        .views()
        .map(|p| search::Item {
            id: i64::from(p.id.get()),
            words: format!(
                "{} {} {} {} {} {}",
                p.brand, p.style, p.packaging.name, p.types.name, p.size, p.description
            ),
            name: p.product_name.clone(),
        })
        .collect();
    let synonyms = search::Synonyms::new(db::search::words(ctx.conn)?);
    search::Index::build(&items, synonyms).map_err(|e| ApiError::Internal(e.to_string()))
}
