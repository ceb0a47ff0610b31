//! The catalog: packagings, products and where they are sold, banners. Each function takes a connection, so several compose in one
//! `conn.transaction(...)`.

use diesel::prelude::*;

use crate::models::*;
use crate::schema::*;
use crate::AnyConnection;
use domain::{CityId, PackagingId};

pub fn packagings(conn: &mut AnyConnection) -> QueryResult<Vec<Packaging>> {
    packagings::table
        .order((packagings::sort_order, packagings::id))
        .select(Packaging::as_select())
        .load(conn)
}

pub fn packaging(conn: &mut AnyConnection, id: PackagingId) -> QueryResult<Option<Packaging>> {
    packagings::table
        .find(id.get())
        .select(Packaging::as_select())
        .first(conn)
        .optional()
}

pub fn packaging_by_filter_type(
    conn: &mut AnyConnection,
    filter_type: &str,
) -> QueryResult<Option<Packaging>> {
    packagings::table
        .filter(packagings::filter_type.eq(filter_type))
        .select(Packaging::as_select())
        .first(conn)
        .optional()
}

pub fn product_types(conn: &mut AnyConnection) -> QueryResult<Vec<ProductType>> {
    product_types::table
        .order(product_types::id)
        .select(ProductType::as_select())
        .load(conn)
}

/// Where the products are looked for: everywhere (no location chosen yet) or in one served city.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    Anywhere,
    City(CityId),
}

/// The catalog in display order, narrowed to one packaging and to what is sold in an area.
pub fn products(
    conn: &mut AnyConnection,
    area: Area,
    packaging_id: Option<PackagingId>,
) -> QueryResult<Vec<Product>> {
    let mut query = products::table
        .select(Product::as_select())
        .order((products::sort_order, products::id))
        .into_boxed();
    if let Some(pid) = packaging_id {
        query = query.filter(products::packaging_id.eq(pid.get()));
    }
    query = sold_in(query, area);
    query.load(conn)
}

/// Where the products not sold everywhere are sold: (product, city) pairs.
pub fn product_cities(conn: &mut AnyConnection) -> QueryResult<Vec<(i32, i64)>> {
    product_areas::table
        .select((product_areas::product_id, product_areas::city_id))
        .load(conn)
}

/// `query` narrowed to the products sold in `area`: everywhere, or in the city (sold in every
/// area, or listed for it).
fn sold_in<'a, ST>(
    query: products::BoxedQuery<'a, <AnyConnection as diesel::Connection>::Backend, ST>,
    area: Area,
) -> products::BoxedQuery<'a, <AnyConnection as diesel::Connection>::Backend, ST> {
    match area {
        Area::Anywhere => query,
        Area::City(city_id) => {
            let listed = product_areas::table
                .filter(product_areas::city_id.eq(city_id.get()))
                .select(product_areas::product_id);
            query.filter(
                products::sold_in_all_areas
                    .eq(true)
                    .or(products::id.eq_any(listed)),
            )
        }
    }
}

/// Banner `id`, whatever its days.
pub fn banner(conn: &mut AnyConnection, id: i32) -> QueryResult<Option<Banner>> {
    banners::table
        .find(id)
        .select(Banner::as_select())
        .first(conn)
        .optional()
}

/// Every banner, shown today or not, by id.
pub fn all_banners(conn: &mut AnyConnection) -> QueryResult<Vec<Banner>> {
    banners::table
        .order(banners::id)
        .select(Banner::as_select())
        .load(conn)
}

/// The banners shown on `date` (`YYYY-MM-DD`): those whose span holds it.
pub fn banners(conn: &mut AnyConnection, date: &str) -> QueryResult<Vec<Banner>> {
    banners::table
        .filter(banners::starts_on.is_null().or(banners::starts_on.le(date)))
        .filter(banners::ends_on.is_null().or(banners::ends_on.ge(date)))
        .order((banners::sort_order, banners::id))
        .select(Banner::as_select())
        .load(conn)
}

pub fn product_by_slug(conn: &mut AnyConnection, slug: &str) -> QueryResult<Option<Product>> {
    products::table
        .filter(products::slug.eq(slug))
        .select(Product::as_select())
        .first(conn)
        .optional()
}

/// Whether a product is sold in a served city.
pub fn product_sold_in_city(
    conn: &mut AnyConnection,
    product: &Product,
    city_id: CityId,
) -> QueryResult<bool> {
    if product.sold_in_all_areas {
        return Ok(true);
    }
    diesel::select(diesel::dsl::exists(
        product_areas::table
            .filter(product_areas::product_id.eq(product.id.get()))
            .filter(product_areas::city_id.eq(city_id.get())),
    ))
    .get_result(conn)
}

/// Every product's slug, in catalog order (the sitemap).
pub fn product_slugs(conn: &mut AnyConnection) -> QueryResult<Vec<String>> {
    products::table
        .order((products::sort_order, products::id))
        .select(products::slug)
        .load(conn)
}

/// A photo as a product or a banner names it: its name in `MEDIA_DIR` and its size upright.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Photo {
    pub hash: String,
    pub width: i32,
    pub height: i32,
}

impl Photo {
    /// The photo a row's three columns name, if they name one (they are set together).
    pub fn of(hash: Option<&str>, width: Option<i32>, height: Option<i32>) -> Option<Self> {
        Some(Self {
            hash: hash?.to_string(),
            width: width?,
            height: height?,
        })
    }
}

impl Product {
    /// Its photo, if it has one (else its drawing shows).
    pub fn kept_photo(&self) -> Option<Photo> {
        Photo::of(self.photo.as_deref(), self.photo_width, self.photo_height)
    }
}

impl Banner {
    /// Its photo, if it has one (else its drawings show).
    pub fn kept_photo(&self) -> Option<Photo> {
        Photo::of(self.photo.as_deref(), self.photo_width, self.photo_height)
    }
}

/// What a photo is given to, by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhotoOwner {
    Product(i32),
    Banner(i32),
}

/// A product by its SKU.
pub fn product_by_sku(conn: &mut AnyConnection, sku: &str) -> QueryResult<Option<Product>> {
    products::table
        .filter(products::sku.eq(sku))
        .select(Product::as_select())
        .first(conn)
        .optional()
}

/// Holds `owner`'s row for a change of its photo, as the first statement of the transaction: a
/// write that changes nothing, so that SQLite takes its write lock now and PostgreSQL locks the
/// row (a catalog import removing it, or another manager's upload, waits or went first).
pub fn hold_photo_owner(conn: &mut AnyConnection, owner: PhotoOwner) -> QueryResult<()> {
    match owner {
        PhotoOwner::Product(id) => diesel::update(products::table.find(id))
            .set(products::photo.eq(products::photo))
            .execute(conn)?,
        PhotoOwner::Banner(id) => diesel::update(banners::table.find(id))
            .set(banners::photo.eq(banners::photo))
            .execute(conn)?,
    };
    Ok(())
}

/// Gives `owner` the photo (none: its drawing again).
pub fn set_photo(
    conn: &mut AnyConnection,
    owner: PhotoOwner,
    photo: Option<&Photo>,
) -> QueryResult<()> {
    let hash = photo.map(|p| p.hash.as_str());
    let (width, height) = (photo.map(|p| p.width), photo.map(|p| p.height));
    match owner {
        PhotoOwner::Product(id) => diesel::update(products::table.find(id))
            .set((
                products::photo.eq(hash),
                products::photo_width.eq(width),
                products::photo_height.eq(height),
            ))
            .execute(conn)?,
        PhotoOwner::Banner(id) => diesel::update(banners::table.find(id))
            .set((
                banners::photo.eq(hash),
                banners::photo_width.eq(width),
                banners::photo_height.eq(height),
            ))
            .execute(conn)?,
    };
    Ok(())
}
