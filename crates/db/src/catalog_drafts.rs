//! Catalog files uploaded in the browser, kept between their dry run and their import (see the
//! `catalog_drafts` migration): each belongs to the member of staff who uploaded it.

use diesel::prelude::*;

use crate::schema::catalog_drafts;
use crate::AnyConnection;

/// How long an uploaded file waits to be applied: a day.
pub const KEPT_FOR: i64 = 24 * 60 * 60;
/// The most files one member of staff keeps waiting (an upload past it forgets their oldest).
pub const MOST_EACH: i64 = 10;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = catalog_drafts)]
pub struct Draft {
    pub id: String,
    pub staff_id: i64,
    pub file_name: String,
    pub body: String,
    pub created_at: i64,
}

/// Keeps `draft`, after sweeping those older than [`KEPT_FOR`] and its uploader's oldest past
/// [`MOST_EACH`].
pub fn add(conn: &mut AnyConnection, draft: &Draft) -> QueryResult<()> {
    let kept: Vec<String> = catalog_drafts::table
        .filter(catalog_drafts::staff_id.eq(draft.staff_id))
        .order((catalog_drafts::created_at.desc(), catalog_drafts::id))
        .offset(MOST_EACH - 1)
        .select(catalog_drafts::id)
        .load(conn)?;
    diesel::delete(catalog_drafts::table.filter(catalog_drafts::id.eq_any(&kept))).execute(conn)?;
    diesel::delete(
        catalog_drafts::table.filter(catalog_drafts::created_at.lt(draft.created_at - KEPT_FOR)),
    )
    .execute(conn)?;
    diesel::insert_into(catalog_drafts::table)
        .values((
            catalog_drafts::id.eq(&draft.id),
            catalog_drafts::staff_id.eq(draft.staff_id),
            catalog_drafts::file_name.eq(&draft.file_name),
            catalog_drafts::body.eq(&draft.body),
            catalog_drafts::created_at.eq(draft.created_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Draft `id` of member `staff_id`, unless it is older than [`KEPT_FOR`] at `now`.
pub fn get(
    conn: &mut AnyConnection,
    id: &str,
    staff_id: i64,
    now: i64,
) -> QueryResult<Option<Draft>> {
    catalog_drafts::table
        .filter(catalog_drafts::id.eq(id))
        .filter(catalog_drafts::staff_id.eq(staff_id))
        .filter(catalog_drafts::created_at.ge(now - KEPT_FOR))
        .select(Draft::as_select())
        .first(conn)
        .optional()
}

/// Forgets draft `id`; answers whether it was there.
pub fn remove(conn: &mut AnyConnection, id: &str) -> QueryResult<bool> {
    diesel::delete(catalog_drafts::table.find(id))
        .execute(conn)
        .map(|n| n > 0)
}
