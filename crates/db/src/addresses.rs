//! Members' saved addresses. Each function takes a connection, so several compose in one
//! `conn.transaction(...)`.

use diesel::prelude::*;

use crate::models::*;
use crate::schema::*;
use crate::AnyConnection;
use domain::{BarangayId, StreetId};

/// A saved address with its place's names.
#[derive(Debug, Clone, PartialEq)]
pub struct AddressRow {
    pub id: domain::AddressId,
    pub address: String,
    pub barangay: Barangay,
    pub city: City,
    pub province_name: String,
    pub street: Option<Street>,
}

/// A member's addresses, newest first; `only` narrows to one (owned) address.
pub fn addresses_of(
    conn: &mut AnyConnection,
    user: domain::UserId,
    only: Option<domain::AddressId>,
) -> QueryResult<Vec<AddressRow>> {
    let mut q = addresses::table
        .inner_join(barangays::table.inner_join(cities::table.inner_join(provinces::table)))
        .left_join(streets::table)
        .filter(addresses::user_id.eq(user.get()))
        .order(addresses::id.desc())
        .select((
            addresses::id,
            addresses::address,
            Barangay::as_select(),
            City::as_select(),
            provinces::province_name,
            Option::<Street>::as_select(),
        ))
        .into_boxed();
    if let Some(id) = only {
        q = q.filter(addresses::id.eq(id.get()));
    }
    let rows: Vec<(i64, String, Barangay, City, String, Option<Street>)> = q.load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(id, address, barangay, city, province_name, street)| AddressRow {
                id: domain::AddressId::from_db(id),
                address,
                barangay,
                city,
                province_name,
                street,
            },
        )
        .collect())
}

pub fn count_addresses(conn: &mut AnyConnection, user: domain::UserId) -> QueryResult<i64> {
    addresses::table
        .filter(addresses::user_id.eq(user.get()))
        .count()
        .get_result(conn)
}

/// Saves a new address; answers its id.
pub fn create_address(
    conn: &mut AnyConnection,
    user: domain::UserId,
    address: &str,
    barangay: BarangayId,
    street: Option<StreetId>,
    now: i64,
) -> QueryResult<domain::AddressId> {
    crate::transaction(conn, |conn| {
        diesel::insert_into(addresses::table)
            .values((
                addresses::user_id.eq(user.get()),
                addresses::address.eq(address),
                addresses::barangay_id.eq(barangay.get()),
                addresses::street_id.eq(street.map(StreetId::get)),
                addresses::created_at.eq(now),
            ))
            .execute(conn)?;
        addresses::table
            .filter(addresses::user_id.eq(user.get()))
            .select(diesel::dsl::max(addresses::id))
            .first::<Option<i64>>(conn)
            .map(|id| domain::AddressId::from_db(id.unwrap_or_default()))
    })
}

/// Changes an owned address; `false` when the member has no such address.
pub fn update_address(
    conn: &mut AnyConnection,
    user: domain::UserId,
    id: domain::AddressId,
    address: &str,
    barangay: BarangayId,
    street: Option<StreetId>,
) -> QueryResult<bool> {
    diesel::update(
        addresses::table
            .filter(addresses::id.eq(id.get()))
            .filter(addresses::user_id.eq(user.get())),
    )
    .set((
        addresses::address.eq(address),
        addresses::barangay_id.eq(barangay.get()),
        addresses::street_id.eq(street.map(StreetId::get)),
    ))
    .execute(conn)
    .map(|n| n == 1)
}

/// Deletes an owned address; `false` when the member has no such address.
pub fn delete_address(
    conn: &mut AnyConnection,
    user: domain::UserId,
    id: domain::AddressId,
) -> QueryResult<bool> {
    diesel::delete(
        addresses::table
            .filter(addresses::id.eq(id.get()))
            .filter(addresses::user_id.eq(user.get())),
    )
    .execute(conn)
    .map(|n| n == 1)
}
