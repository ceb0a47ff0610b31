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
    let area = match barangay {
        Some(id) => {
            let b = queries::barangay(conn, id)?
                .ok_or_else(|| ApiError::NotFound(format!("Barangay {id} not found")))?;
            if !queries::city_is_served(conn, b.city_id)? {
                return Ok(ProductList {
                    products: vec![],
                    recommended_products: vec![],
                    best_sellers: vec![],
                    filter_types: filter_types(&packagings),
                    brands: vec![],
                });
            }
            Area::City(b.city_id)
        }
        None => Area::Anywhere,
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
