//! Statements of fixed text that diesel's statement cache keeps. Diesel prepares every `UPDATE`,
//! every upsert with `DO UPDATE` and every `sql_query` anew each time it runs them (their text may
//! change with their values, so its cache leaves them out). A write that runs on every add to a
//! cart is written here instead: a type per statement whose text is always the same, its values
//! bound, so each pooled connection prepares it once. On SQLite that preparing was done while
//! holding the writers' turn (`crate::write_transaction`), which every other writer waits for. So
//! is the add's read of what the cart holds, whose `UNION ALL` diesel's query builder cannot
//! write.
//!
//! A statement is a struct of its values with a [`QueryFragment`] that writes its text;
//! [`prepared_once!`] gives it the static query id (the cache's key) and diesel's `RunQueryDsl`.
//! The placeholders are the backend's own (`$1` on PostgreSQL, `?` on SQLite), written by
//! `push_bind_param`. They run on `AnyConnection` as diesel's own statements do: no match on the
//! backend.

use diesel::backend::Backend;
use diesel::query_builder::{AstPass, QueryFragment};
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, Integer, Nullable, Text};
use diesel::QueryResult;

/// The query id of a statement of fixed text (the type itself) and `RunQueryDsl` for it.
macro_rules! prepared_once {
    ($name:ident) => {
        impl diesel::query_builder::QueryId for $name {
            type QueryId = $name;
            const HAS_STATIC_QUERY_ID: bool = true;
        }
        impl<Conn> diesel::RunQueryDsl<Conn> for $name {}
    };
    ($name:ident<'_>) => {
        impl diesel::query_builder::QueryId for $name<'_> {
            type QueryId = $name<'static>;
            const HAS_STATIC_QUERY_ID: bool = true;
        }
        impl<Conn> diesel::RunQueryDsl<Conn> for $name<'_> {}
    };
}

/// `lock`: the cart taken for a change, its revision counted; answers the new revision.
#[derive(Debug, Clone, Copy)]
pub struct Lock {
    pub cart: i64,
    pub now: i64,
}
prepared_once!(Lock);

impl diesel::query_builder::Query for Lock {
    type SqlType = BigInt;
}

impl<DB: Backend> QueryFragment<DB> for Lock
where
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("UPDATE carts SET revision = revision + 1, updated_at = ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<BigInt, _>(&self.cart)?;
        out.push_sql(" RETURNING revision");
        Ok(())
    }
}

/// `hold`: the cart taken for a transaction that reads it before deciding, no change counted.
#[derive(Debug, Clone, Copy)]
pub struct Hold {
    pub cart: i64,
}
prepared_once!(Hold);

impl<DB: Backend> QueryFragment<DB> for Hold
where
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("UPDATE carts SET updated_at = updated_at WHERE id = ");
        out.push_bind_param::<BigInt, _>(&self.cart)
    }
}

/// `lock_placed`: as [`Lock`], and the place the cart is priced for set; answers the cart's row
/// (`CartRow`'s columns, in its order).
#[derive(Debug, Clone, Copy)]
pub struct LockPlaced {
    pub cart: i64,
    pub now: i64,
    pub barangay: i64,
    pub street: Option<i32>,
}
prepared_once!(LockPlaced);

impl diesel::query_builder::Query for LockPlaced {
    type SqlType = (
        BigInt,
        Nullable<BigInt>,
        Nullable<BigInt>,
        Nullable<Integer>,
        BigInt,
        BigInt,
    );
}

impl<DB: Backend> QueryFragment<DB> for LockPlaced
where
    i64: ToSql<BigInt, DB>,
    Option<i32>: ToSql<Nullable<Integer>, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        placed_set(&mut out, &self.now, &self.barangay, &self.street)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<BigInt, _>(&self.cart)?;
        out.push_sql(PLACED_RETURNING);
        Ok(())
    }
}

/// `lock_owner_placed` for a member: as [`LockPlaced`], the cart found by its member in the same
/// statement; no row when the member has no cart.
#[derive(Debug, Clone, Copy)]
pub struct LockMemberPlaced {
    pub user: i64,
    pub now: i64,
    pub barangay: i64,
    pub street: Option<i32>,
}
prepared_once!(LockMemberPlaced);

impl diesel::query_builder::Query for LockMemberPlaced {
    type SqlType = <LockPlaced as diesel::query_builder::Query>::SqlType;
}

impl<DB: Backend> QueryFragment<DB> for LockMemberPlaced
where
    i64: ToSql<BigInt, DB>,
    Option<i32>: ToSql<Nullable<Integer>, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        placed_set(&mut out, &self.now, &self.barangay, &self.street)?;
        out.push_sql(" WHERE user_id = ");
        out.push_bind_param::<BigInt, _>(&self.user)?;
        out.push_sql(PLACED_RETURNING);
        Ok(())
    }
}

/// `lock_owner_placed` for a guest: as [`LockPlaced`], the cart found by its key in the same
/// statement (by the key, or by the hash after its id: `carts::find`, the first made of them);
/// no row when the guest has no cart.
#[derive(Debug, Clone, Copy)]
pub struct LockGuestPlaced<'a> {
    pub key: &'a str,
    pub hash: &'a str,
    pub now: i64,
    pub barangay: i64,
    pub street: Option<i32>,
}
prepared_once!(LockGuestPlaced<'_>);

impl diesel::query_builder::Query for LockGuestPlaced<'_> {
    type SqlType = <LockPlaced as diesel::query_builder::Query>::SqlType;
}

impl<DB: Backend> QueryFragment<DB> for LockGuestPlaced<'_>
where
    i64: ToSql<BigInt, DB>,
    str: ToSql<Text, DB>,
    Option<i32>: ToSql<Nullable<Integer>, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        placed_set(&mut out, &self.now, &self.barangay, &self.street)?;
        out.push_sql(" WHERE id = (SELECT id FROM carts WHERE guest_key = ");
        out.push_bind_param::<Text, _>(self.key)?;
        out.push_sql(" OR guest_key = ");
        out.push_bind_param::<Text, _>(self.hash)?;
        out.push_sql(" ORDER BY id LIMIT 1)");
        out.push_sql(PLACED_RETURNING);
        Ok(())
    }
}

/// What the placed locks answer: `CartRow`'s columns, in its order.
const PLACED_RETURNING: &str =
    " RETURNING id, user_id, barangay_id, street_id, revision, updated_at";

/// The placed locks' `UPDATE carts SET ...`: the revision counted, the time and the place set.
fn placed_set<'b, DB: Backend>(
    out: &mut AstPass<'_, 'b, DB>,
    now: &'b i64,
    barangay: &'b i64,
    street: &'b Option<i32>,
) -> QueryResult<()>
where
    i64: ToSql<BigInt, DB>,
    Option<i32>: ToSql<Nullable<Integer>, DB>,
{
    out.push_sql("UPDATE carts SET revision = revision + 1, updated_at = ");
    out.push_bind_param::<BigInt, _>(now)?;
    out.push_sql(", barangay_id = ");
    out.push_bind_param::<BigInt, _>(barangay)?;
    out.push_sql(", street_id = ");
    out.push_bind_param::<Nullable<Integer>, _>(street)?;
    Ok(())
}

/// `add_quantity`: the units added to the cart's item (a new item added `now`) when they come to
/// at most `most`; one row changed when they were.
#[derive(Debug, Clone, Copy)]
pub struct AddUnits {
    pub cart: i64,
    pub product: i32,
    pub quantity: i32,
    pub most: i32,
    pub now: i64,
}
prepared_once!(AddUnits);

impl<DB: Backend> QueryFragment<DB> for AddUnits
where
    i64: ToSql<BigInt, DB>,
    i32: ToSql<Integer, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("INSERT INTO cart_items (cart_id, product_id, quantity, added_at) VALUES (");
        out.push_bind_param::<BigInt, _>(&self.cart)?;
        out.push_sql(", ");
        out.push_bind_param::<Integer, _>(&self.product)?;
        out.push_sql(", ");
        out.push_bind_param::<Integer, _>(&self.quantity)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        // `ON CONFLICT ... DO UPDATE ... WHERE`: past the most, the row stays as it is.
        out.push_sql(
            ") ON CONFLICT (cart_id, product_id) DO UPDATE \
             SET quantity = cart_items.quantity + excluded.quantity \
             WHERE cart_items.quantity + excluded.quantity <= ",
        );
        out.push_bind_param::<Integer, _>(&self.most)?;
        Ok(())
    }
}

/// `contents`: a cart's lines and returned empties in one read, lines first (kind 0: product,
/// units, oldest first), then empties (kind 1: deposit row, cases): `(kind, id, count, added_at)`.
#[derive(Debug, Clone, Copy)]
pub struct ReadContents {
    pub cart: i64,
}
prepared_once!(ReadContents);

impl diesel::query_builder::Query for ReadContents {
    type SqlType = (Integer, Integer, Integer, BigInt);
}

impl<DB: Backend> QueryFragment<DB> for ReadContents
where
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("SELECT 0, product_id, quantity, added_at FROM cart_items WHERE cart_id = ");
        out.push_bind_param::<BigInt, _>(&self.cart)?;
        out.push_sql(
            " UNION ALL SELECT 1, deposit_id, cases, CAST(0 AS BIGINT) FROM cart_empties \
             WHERE cart_id = ",
        );
        out.push_bind_param::<BigInt, _>(&self.cart)?;
        out.push_sql(" ORDER BY 1, 4, 2");
        Ok(())
    }
}

/// `record_once`: a change of the cart made once, recorded unless it was before (no row then).
#[derive(Debug, Clone, Copy)]
pub struct RecordOnce<'a> {
    pub cart: i64,
    pub source: &'a str,
    pub revision: i64,
    pub now: i64,
}
prepared_once!(RecordOnce<'_>);

impl<DB: Backend> QueryFragment<DB> for RecordOnce<'_>
where
    i64: ToSql<BigInt, DB>,
    str: ToSql<Text, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("INSERT INTO cart_refills (cart_id, source, revision, refilled_at) VALUES (");
        out.push_bind_param::<BigInt, _>(&self.cart)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(self.source)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.revision)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(") ON CONFLICT DO NOTHING");
        Ok(())
    }
}
