//! Catalog answers: the plain functions behind `/api/v1/products`, `/api/v3/packagings` and
//! `/api/v1/banners`, called by the HTTP handlers and, in process, by the pages.

use db::models::{Banner, Packaging, Product, ProductType};
use db::queries::{self, Area};
use db::AnyConnection;
use serde::Serialize;

use crate::error::ApiError;
use crate::params::Params;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Named {
    pub id: i32,
    pub name: String,
}

/// A product as SPEC 3 gives it. Money fields are integer centavos.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProductView {
    pub id: i32,
    pub slug: String,
    pub product_name: String,
    pub sku: String,
    pub brand: String,
    pub size: String,
    pub price: i64,
    pub price_per_case: i64,
    pub unit_per_case: i32,
    pub types: Named,
    pub packaging: Named,
    pub product_image: Option<String>,
    pub description: String,
    pub custom_description: String,
    pub orderable: bool,
    /// When the product joined the catalog (`YYYY-MM-DD`): what's new.
    pub created_on: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FilterTypeView {
    pub id: i32,
    pub name: String,
    /// The `filterByType` value of /buy-beer: keg, bottle or can.
    pub value: String,
}

/// SPEC 3's product list response.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProductList {
    pub products: Vec<ProductView>,
    /// Filled for members by a later issue; guests get none (SPEC 6).
    pub recommended_products: Vec<ProductView>,
    pub best_sellers: Vec<ProductView>,
    pub filter_types: Vec<FilterTypeView>,
    pub brands: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Results<T> {
    pub results: Vec<T>,
}

fn view(p: Product, types: &[ProductType], packagings: &[Packaging]) -> ProductView {
    let type_name = types
        .iter()
        .find(|t| t.id == p.product_type_id)
        .map(|t| t.name.clone())
        .unwrap_or_default();
    let packaging_name = packagings
        .iter()
        .find(|k| k.id == p.packaging_id)
        .map(|k| k.name.clone())
        .unwrap_or_default();
    ProductView {
        id: p.id,
        slug: p.slug,
        product_name: p.product_name,
        sku: p.sku,
        brand: p.brand,
        size: p.size,
        price: p.price,
        price_per_case: p.price_per_case,
        unit_per_case: p.unit_per_case,
        types: Named {
            id: p.product_type_id,
            name: type_name,
        },
        packaging: Named {
            id: p.packaging_id,
            name: packaging_name,
        },
        product_image: p.product_image,
        description: p.description,
        custom_description: p.custom_description,
        orderable: p.orderable,
        created_on: p.created_on,
    }
}

/// `GET /api/v1/products?barangay=&packaging=`: the products sold in a barangay (all products
/// when no barangay is given; none when the barangay's city is not served), optionally of one
/// packaging.
pub fn product_list(conn: &mut AnyConnection, params: &Params) -> Result<ProductList, ApiError> {
    let barangay = params.id("barangay")?;
    let packaging = params.id("packaging")?;
    let packagings = queries::packagings(conn)?;
    let packaging_id = match packaging {
        Some(id) => Some(
            packagings
                .iter()
                .find(|k| i64::from(k.id) == id)
                .map(|k| k.id)
                .ok_or_else(|| ApiError::NotFound(format!("Packaging {id} not found")))?,
        ),
        None => None,
    };
    let Some(area) = area_of(conn, barangay)? else {
        return Ok(ProductList {
            products: vec![],
            recommended_products: vec![],
            best_sellers: vec![],
            filter_types: filter_types(&packagings),
            brands: vec![],
        });
    };
    let types = queries::product_types(conn)?;
    let rows = queries::products(conn, area, packaging_id)?;
    let best_sellers = rows
        .iter()
        .filter(|p| p.best_seller)
        .cloned()
        .map(|p| view(p, &types, &packagings))
        .collect();
    let products: Vec<ProductView> = rows
        .into_iter()
        .map(|p| view(p, &types, &packagings))
        .collect();
    let mut brands: Vec<String> = products.iter().map(|p| p.brand.clone()).collect();
    brands.sort();
    brands.dedup();
    Ok(ProductList {
        products,
        recommended_products: vec![],
        best_sellers,
        filter_types: filter_types(&packagings),
        brands,
    })
}

fn filter_types(packagings: &[Packaging]) -> Vec<FilterTypeView> {
    packagings
        .iter()
        .map(|k| FilterTypeView {
            id: k.id,
            name: k.name.clone(),
            value: k.filter_type.clone(),
        })
        .collect()
}

/// `POST /api/v3/packagings`: the categories of the category gate.
pub fn packagings(conn: &mut AnyConnection) -> Result<Results<Packaging>, ApiError> {
    Ok(Results {
        results: queries::packagings(conn)?,
    })
}

/// `GET /api/v1/banners`: the home carousel's banners, desktop and mobile images.
pub fn banners(conn: &mut AnyConnection) -> Result<Results<Banner>, ApiError> {
    Ok(Results {
        results: queries::banners(conn)?,
    })
}

/// A promotion with its product.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PromoView {
    pub id: i32,
    pub title: String,
    pub description: String,
    pub starts_on: String,
    pub ends_on: String,
    pub product: ProductView,
}

/// `GET /api/v1/products/promos?barangay=`: the promotions running on the date, for products
/// sold in the barangay (every promotion when none is given).
pub fn promos(
    conn: &mut AnyConnection,
    params: &Params,
    date: &str,
) -> Result<Results<PromoView>, ApiError> {
    let area = area_of(conn, params.id("barangay")?)?;
    let Some(area) = area else {
        return Ok(Results { results: vec![] });
    };
    let sold = queries::products(conn, area, None)?;
    let types = queries::product_types(conn)?;
    let packagings = queries::packagings(conn)?;
    let results = queries::promos_on(conn, date)?
        .into_iter()
        .filter_map(|promo| {
            let product = sold.iter().find(|p| p.id == promo.product_id)?.clone();
            Some(PromoView {
                id: promo.id,
                title: promo.title,
                description: promo.description,
                starts_on: promo.starts_on,
                ends_on: promo.ends_on,
                product: view(product, &types, &packagings),
            })
        })
        .collect();
    Ok(Results { results })
}

/// Where to look for products: anywhere without a barangay, its city when served, nowhere
/// (`None`) when the city is not served. An unknown barangay is a 404.
fn area_of(conn: &mut AnyConnection, barangay: Option<i64>) -> Result<Option<Area>, ApiError> {
    match barangay {
        None => Ok(Some(Area::Anywhere)),
        Some(id) => {
            let b = queries::barangay(conn, id)?
                .ok_or_else(|| ApiError::NotFound(format!("Barangay {id} not found")))?;
            Ok(queries::city_is_served(conn, b.city_id)?.then_some(Area::City(b.city_id)))
        }
    }
}

/// What's new: the catalog, newest first.
pub fn whats_new(conn: &mut AnyConnection, params: &Params) -> Result<ProductList, ApiError> {
    let mut list = product_list(conn, params)?;
    list.products
        .sort_by(|a, b| b.created_on.cmp(&a.created_on).then(a.id.cmp(&b.id)));
    Ok(list)
}

/// SPEC 3's single product response.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SingleProduct {
    pub product_single: ProductView,
    /// Whether the product is sold at the barangay asked for; `None` when none was given.
    pub available_in_area: Option<bool>,
    pub you_might_also_like: Vec<ProductView>,
}

/// How many products YOU MIGHT ALSO LIKE shows.
pub const ALSO_LIKE: usize = 8;

/// `GET /api/v2/products/{slug}/barangay/{barangayId}`: a product with others of its packaging
/// sold in the same area. Barangay 0 means no location chosen yet (crawlers, first visits).
pub fn single_product(
    conn: &mut AnyConnection,
    slug: &str,
    barangay_id: i64,
) -> Result<SingleProduct, ApiError> {
    let product = queries::product_by_slug(conn, slug)?
        .ok_or_else(|| ApiError::NotFound(format!("Product {slug} not found")))?;
    let (area, available) = if barangay_id == 0 {
        (Some(Area::Anywhere), None)
    } else {
        let b = queries::barangay(conn, barangay_id)?
            .ok_or_else(|| ApiError::NotFound(format!("Barangay {barangay_id} not found")))?;
        let sold = queries::product_sold_in_city(conn, &product, b.city_id)?;
        let served = queries::city_is_served(conn, b.city_id)?;
        (served.then_some(Area::City(b.city_id)), Some(sold))
    };
    let types = queries::product_types(conn)?;
    let packagings = queries::packagings(conn)?;
    let mut also: Vec<Product> = match area {
        Some(area) => queries::products(conn, area, Some(product.packaging_id))?
            .into_iter()
            .filter(|p| p.id != product.id)
            .collect(),
        None => vec![],
    };
    // Best sellers first, then orderable ones, then catalog order (a stable sort keeps it).
    also.sort_by_key(|p| (!p.best_seller, !p.orderable));
    also.truncate(ALSO_LIKE);
    Ok(SingleProduct {
        product_single: view(product, &types, &packagings),
        available_in_area: available,
        you_might_also_like: also
            .into_iter()
            .map(|p| view(p, &types, &packagings))
            .collect(),
    })
}
