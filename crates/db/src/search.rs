//! The search's words: what the words shoppers type (in Filipino, Taglish, other spellings) mean
//! in the catalog's (`search_words`), edited by staff. A change moves the catalog's data version,
//! so every app server rebuilds its index (crates/search) within a second.

use diesel::prelude::*;

use crate::schema::{data_version, search_words};
use crate::AnyConnection;

/// Every word and what it means (the catalog's words, space-separated; empty: a word for anything
/// the store sells), by word.
pub fn words(conn: &mut AnyConnection) -> QueryResult<Vec<(String, String)>> {
    search_words::table
        .select((search_words::word, search_words::means))
        .order(search_words::word)
        .load(conn)
}

/// Says that `word` means `means` (replacing what it meant); the data version moves.
pub fn set_word(conn: &mut AnyConnection, word: &str, means: &str) -> QueryResult<()> {
    crate::write_transaction(conn, |conn| {
        diesel::delete(search_words::table.find(word)).execute(conn)?;
        diesel::insert_into(search_words::table)
            .values((search_words::word.eq(word), search_words::means.eq(means)))
            .execute(conn)?;
        moved(conn)
    })
}

/// Forgets `word`; false when it was not known. The data version moves when it was.
pub fn remove_word(conn: &mut AnyConnection, word: &str) -> QueryResult<bool> {
    crate::write_transaction(conn, |conn| {
        let gone = diesel::delete(search_words::table.find(word)).execute(conn)? > 0;
        if gone {
            moved(conn)?;
        }
        Ok(gone)
    })
}

fn moved(conn: &mut AnyConnection) -> QueryResult<()> {
    diesel::update(data_version::table.find(1))
        .set(data_version::version.eq(data_version::version + 1))
        .execute(conn)
        .map(|_| ())
}
