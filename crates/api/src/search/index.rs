//! The index an app server holds: built from the catalog when first asked and again once the
//! catalog's data version has moved (an import, a product changed, a search word set), by one
//! call while the others go on with the index before (a moment older); never on the actix worker
//! (calls run on the database's blocking threads).

use std::sync::{Arc, Mutex, RwLock, TryLockError};

use framework::endpoint::Ctx;
use framework::error::ApiError;

/// The index of one data version, shared by the app server's calls (a setting of the API:
/// `ApiConfig::settings`). Without one (a tool's context) each call builds its own.
#[derive(Default)]
pub struct Shelf {
    held: RwLock<Option<(i64, Arc<search::Index>)>>,
    /// Taken by the call that builds.
    building: Mutex<()>,
}

impl Shelf {
    /// The index of the data version `version`, built now if none of it is held; while another
    /// call builds it, the index before.
    pub(crate) fn index(
        &self,
        ctx: &mut Ctx,
        version: i64,
    ) -> Result<Arc<search::Index>, ApiError> {
        let held = || self.held.read().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some((v, index)) = held() {
            if v == version {
                return Ok(index);
            }
        }
        let _turn = match self.building.try_lock() {
            Ok(turn) => turn,
            // A build that failed by panicking left the turn poisoned: the next call builds.
            Err(TryLockError::Poisoned(turn)) => turn.into_inner(),
            Err(TryLockError::WouldBlock) => {
                if let Some((_, index)) = held() {
                    return Ok(index);
                }
                self.building.lock().unwrap_or_else(|e| e.into_inner())
            }
        };
        // Built meanwhile by the call waited for (a version that moved back, a restored
        // database, is built again).
        if let Some((_, index)) = held().filter(|(v, _)| *v == version) {
            return Ok(index);
        }
        let index = Arc::new(build(ctx)?);
        *self.held.write().unwrap_or_else(|e| e.into_inner()) = Some((version, index.clone()));
        Ok(index)
    }
}

/// Builds the index of the catalog as it is: each product's name, and its brewery, packaging,
/// type, size and description; the store's search words.
pub(crate) fn build(ctx: &mut Ctx) -> Result<search::Index, ApiError> {
    let products = db::catalog::products(ctx.conn, db::catalog::Area::Anywhere, None)?;
    let views = crate::catalog::views(ctx, products)?;
    let items: Vec<search::Item> = views
        .into_iter()
        .map(|p| search::Item {
            id: i64::from(p.id.get()),
            words: format!(
                "{} {} {} {} {}",
                p.brand, p.packaging.name, p.types.name, p.size, p.description
            ),
            name: p.product_name,
        })
        .collect();
    let synonyms = search::Synonyms::new(db::search::words(ctx.conn)?);
    search::Index::build(&items, synonyms).map_err(|e| ApiError::Internal(e.to_string()))
}
