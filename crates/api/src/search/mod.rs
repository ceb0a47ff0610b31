//! Search: the catalog found by a shopper's words (`GET /api/v1/search`, the `/search` page and
//! the header's search box). The index is crates/search's, built from the catalog and the
//! store's search words and held by each app server ([`IndexPerVersion`]) until the catalog's data
//! version moves; what is sold at the shopper's place comes first.
//!
//! - `index`: the index held per data version, and the catalog as the index reads it.
//! - `find`: the call.
//! - `words`: the search words as staff set them.

mod find;
mod index;
mod words;

pub use find::{Search, SearchAnswer, SearchQuery, MAX_QUERY, PAGE};
pub use index::IndexPerVersion;
pub use words::search_word;

framework::register!(Search);

/// Makes what the app server holds for the catalog's data version now (the catalog as the lists
/// read it, and its search index) if it does not hold it yet: the server does so when it starts
/// and each time the version moves, so no shopper's request waits for a build. Answers how many
/// products are held.
pub fn hold(ctx: &mut framework::endpoint::Ctx) -> Result<usize, framework::error::ApiError> {
    let listed = crate::catalog::list::listed(ctx)?;
    let version = crate::catalog::data_version(ctx)?;
    index::index(ctx, version)?;
    Ok(listed.len())
}
