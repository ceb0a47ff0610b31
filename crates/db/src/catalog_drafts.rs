//! Catalog files uploaded in the browser, kept between their dry run and their import (see the
//! `catalog_drafts` migration): each belongs to the member of staff who uploaded it. How long one
//! waits and how many each keeps are the upload's rules (`api::staff::catalog::import`), given
//! to these functions.

use diesel::prelude::*;

use crate::schema::catalog_drafts;
use crate::AnyConnection;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = catalog_drafts)]
pub struct Draft {
    pub id: String,
    pub staff_id: i64,
    pub file_name: String,
    pub body: String,
    pub created_at: i64,
}

/// Keeps `draft`, after sweeping those uploaded more than `kept_for` seconds before it and its
/// uploader's oldest past `most_each` (it included).
pub fn add(
    conn: &mut AnyConnection,
    draft: &Draft,
    kept_for: i64,
    most_each: i64,
) -> QueryResult<()> {
    let kept: Vec<String> = catalog_drafts::table
        .filter(catalog_drafts::staff_id.eq(draft.staff_id))
        .order((catalog_drafts::created_at.desc(), catalog_drafts::id))
        .offset(most_each - 1)
        .select(catalog_drafts::id)
        .load(conn)?;
    diesel::delete(catalog_drafts::table.filter(catalog_drafts::id.eq_any(&kept))).execute(conn)?;
    diesel::delete(
        catalog_drafts::table.filter(catalog_drafts::created_at.lt(draft.created_at - kept_for)),
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

/// Draft `id` of member `staff_id`, unless it was uploaded more than `kept_for` seconds before
/// `now`.
pub fn get(
    conn: &mut AnyConnection,
    id: &str,
    staff_id: i64,
    now: i64,
    kept_for: i64,
) -> QueryResult<Option<Draft>> {
    catalog_drafts::table
        .filter(catalog_drafts::id.eq(id))
        .filter(catalog_drafts::staff_id.eq(staff_id))
        .filter(catalog_drafts::created_at.ge(now - kept_for))
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
