//! Catalog calls: the product list, promos, what's new, one product, packagings and banners.
//!
//! - `list`: the lists sorted, filtered and paged from the catalog held in memory.

pub mod list;

use db::catalog::Area;
use db::models::{Banner, Packaging, Product, ProductType};
use db::AnyConnection;
use domain::selling::{PackOption, SoldAs};
use domain::{BarangayId, FilterType, PackagingId, ProductId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use framework::endpoint::{Args, Ctx, Endpoint, NoBody, NoParams, Results};
use framework::error::ApiError;

framework::register!(
    Products,
    WhatsNew,
    Packagings,
    Banners,
    Promos,
    SingleProductCall
);

/// A product type (Cans, Full Goods, Keg).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct TypeRef {
    pub id: i32,
    pub name: String,
}

/// A product's packaging, by id and name.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PackagingRef {
    pub id: PackagingId,
    pub name: String,
}

/// A product's or a banner's photo as the pages show it (uploaded by a manager; none: the
/// drawing, `product_image` or the banner's images).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PhotoView {
    /// The photo's size upright, in pixels: the `img`'s width and height (its aspect ratio).
    pub width: i32,
    pub height: i32,
    /// The JPEG a browser that reads no `srcset` shows (at most 480 px wide).
    pub src: String,
    /// The widest JPEG made (at most 1,280 px): the Open Graph image and the structured data's.
    pub large: String,
    /// Every width made, as a `srcset`: WebP, and JPEG for browsers without WebP.
    pub webp: String,
    pub jpeg: String,
}

impl PhotoView {
    /// The photo a product names, if it names one.
    pub fn of(p: &Product) -> Option<Self> {
        Self::new(&p.kept_photo()?)
    }

    /// The addresses of a kept photo (none for a width that cannot be one).
    pub fn new(photo: &db::catalog::Photo) -> Option<Self> {
        let (hash, width, height) = (photo.hash.as_str(), photo.width, photo.height);
        let w = u32::try_from(width).ok()?;
        Some(Self {
            width,
            height,
            src: media::address(hash, media::fallback_width(w, 480), media::Format::Jpeg),
            large: media::address(
                hash,
                media::fallback_width(w, u32::MAX),
                media::Format::Jpeg,
            ),
            webp: media::srcset(hash, w, media::Format::Webp),
            jpeg: media::srcset(hash, w, media::Format::Jpeg),
        })
    }
}

/// A product as the catalog calls give it. Money fields are integer centavos.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct ProductView {
    pub id: ProductId,
    pub slug: String,
    pub product_name: String,
    pub sku: String,
    pub brand: String,
    pub size: String,
    /// The beer's style (`Pale Pilsen`, `IPA`); empty when none is given.
    pub style: String,
    pub price: i64,
    pub price_per_case: i64,
    pub unit_per_case: i32,
    pub types: TypeRef,
    pub packaging: PackagingRef,
    pub product_image: Option<String>,
    pub photo: Option<PhotoView>,
    pub description: String,
    pub custom_description: String,
    pub orderable: bool,
    /// When the product joined the catalog (`YYYY-MM-DD`): what's new.
    pub created_on: String,
    /// How it is sold: by the box, by the case or bottle, or by the keg.
    pub sold_as: SoldAs,
    /// The type selector's options, the initial one first; its price is the listed price.
    pub pack_options: Vec<PackOption>,
    /// The units a recommended card's Add to Cart puts in (a box of cans, else one).
    pub card_quantity: i32,
}

/// A packaging family as the /buy-beer filter links show it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct FilterTypeView {
    pub id: PackagingId,
    pub name: String,
    /// The `filterByType` value of /buy-beer: keg, bottle or can.
    pub value: FilterType,
}

/// The product list response.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct ProductList {
    pub products: Vec<ProductView>,
    /// Meant for members and not filled yet; guests get none.
    pub recommended_products: Vec<ProductView>,
    /// The place's best sellers (of the packaging; at most 24), with the list's first page when
    /// it is neither filtered nor sorted (the home page's strip); empty with any other page.
    pub best_sellers: Vec<ProductView>,
    pub filter_types: Vec<FilterTypeView>,
    /// The breweries of the list (before its filters), A to Z.
    pub brands: Vec<String>,
    /// How many products match (every page).
    pub total: i64,
    /// This page, from 1, and how many there are (0 when nothing matches).
    pub page: i64,
    pub pages: i64,
    pub per_page: i64,
    /// What the list can be narrowed by, among the products of the place and packaging.
    pub facets: list::Facets,
}

/// A packaging as the category gate offers it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PackagingView {
    pub id: PackagingId,
    pub name: String,
    /// The packaging's family: keg, bottle or can.
    pub filter_type: FilterType,
    pub image: String,
    pub custom_description: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct BannerView {
    pub id: i32,
    pub title: String,
    pub desktop_image: String,
    pub mobile_image: String,
    /// Its photo, shown on every screen in place of both drawings.
    pub photo: Option<PhotoView>,
}

/// What the catalog's answers are made from: product types and packagings, read once a call.
struct Lookup {
    types: Vec<ProductType>,
    packagings: Vec<Packaging>,
}

impl Lookup {
    fn load(ctx: &mut Ctx) -> Result<Self, ApiError> {
        Ok(Self {
            types: db::catalog::product_types(ctx.conn)?,
            packagings: db::catalog::packagings(ctx.conn)?,
        })
    }

    fn view(&self, p: Product) -> ProductView {
        let type_name = self
            .types
            .iter()
            .find(|t| t.id == p.product_type_id)
            .map(|t| t.name.clone())
            .unwrap_or_default();
        let packaging = self.packagings.iter().find(|k| k.id == p.packaging_id);
        let sold_as = SoldAs::of(packaging.map_or(FilterType::Bottle, family));
        let photo = PhotoView::of(&p);
        ProductView {
            id: p.id,
            slug: p.slug,
            product_name: p.product_name,
            sku: p.sku,
            brand: p.brand,
            size: p.size,
            style: p.style,
            price: p.price,
            price_per_case: p.price_per_case,
            unit_per_case: p.unit_per_case,
            types: TypeRef {
                id: p.product_type_id,
                name: type_name,
            },
            packaging: PackagingRef {
                id: p.packaging_id,
                name: packaging.map(|k| k.name.clone()).unwrap_or_default(),
            },
            product_image: p.product_image,
            photo,
            description: p.description,
            custom_description: p.custom_description,
            orderable: p.orderable,
            created_on: p.created_on,
            pack_options: sold_as.options(p.unit_per_case, p.price, p.price_per_case),
            card_quantity: sold_as.card_quantity(p.unit_per_case),
            sold_as,
        }
    }

    fn views(&self, products: Vec<Product>) -> Vec<ProductView> {
        products.into_iter().map(|p| self.view(p)).collect()
    }

    fn filter_types(&self) -> Vec<FilterTypeView> {
        self.packagings
            .iter()
            .map(|k| FilterTypeView {
                id: k.id,
                name: k.name.clone(),
                value: family(k),
            })
            .collect()
    }

    fn packaging(&self, id: PackagingId) -> Result<PackagingId, ApiError> {
        self.packagings
            .iter()
            .find(|k| k.id == id)
            .map(|k| k.id)
            .ok_or_else(|| ApiError::NotFound(format!("Packaging {id} not found")))
    }
}

/// Products as the catalog's answers show them.
pub fn views(ctx: &mut Ctx, products: Vec<Product>) -> Result<Vec<ProductView>, ApiError> {
    Ok(Lookup::load(ctx)?.views(products))
}

/// A packaging's family; the column holds keg, bottle or can (bottles if it ever did not).
pub fn family(p: &Packaging) -> FilterType {
    FilterType::parse(&p.filter_type).unwrap_or(FilterType::Bottle)
}

/// Where to look for products: anywhere without a barangay, its city when served, nowhere
/// (`None`) when the city is not served. An unknown barangay is a 404.
/// Where a barangay's shopper is sold to: anywhere without one, its city when served, else
/// nowhere (`None`).
pub(crate) fn area_of(
    ctx: &mut Ctx,
    barangay: Option<BarangayId>,
) -> Result<Option<Area>, ApiError> {
    match barangay {
        None => Ok(Some(Area::Anywhere)),
        Some(id) => {
            let place = crate::locations::existing_place(ctx, id)?;
            Ok(place.served.then_some(Area::City(place.city.id)))
        }
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProductsQuery {
    /// The shopper's barangay: only what is sold there (nothing where its city is not served).
    pub barangay: Option<BarangayId>,
    /// One packaging family only.
    pub packaging: Option<PackagingId>,
    /// One style only (`IPA`), as the answer's `facets.styles` name them; any case.
    #[param(max_length = 100)]
    pub style: Option<String>,
    /// One brewery only, as `facets.brands` name them; any case.
    #[param(max_length = 100)]
    pub brand: Option<String>,
    /// One size only (`330 ml`), as `facets.sizes` name them; any case.
    #[param(max_length = 100)]
    pub size: Option<String>,
    /// The lowest price of a unit, in whole pesos (0 to 10,000,000).
    #[param(minimum = 0, maximum = 10_000_000)]
    pub min_pesos: Option<i64>,
    /// The highest price of a unit, in whole pesos (0 to 10,000,000; not below `min_pesos`).
    #[param(minimum = 0, maximum = 10_000_000)]
    pub max_pesos: Option<i64>,
    /// The order: best sellers (the default), price either way, newest, or name.
    #[param(inline)]
    pub sort: Option<list::ListSort>,
    /// The page, from 1 (a page past the last is empty).
    #[param(minimum = 1, maximum = 1_000_000)]
    pub page: Option<u32>,
    /// Products a page: 1 to 48 (24 unless given).
    #[param(minimum = 1, maximum = 48)]
    pub per_page: Option<u32>,
}

impl ProductsQuery {
    /// The list asked for, checked: a field out of its range is refused (422).
    fn list_request(&self, sort: list::ListSort) -> Result<list::ListRequest, ApiError> {
        let text = |field: &'static str, v: &Option<String>| match v.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) if t.chars().count() > list::MAX_FILTER => Err(ApiError::refused(
                422,
                field,
                format!("Enter at most {} characters.", list::MAX_FILTER),
            )),
            Some(t) => Ok(Some(t.to_string())),
        };
        let pesos = |field: &'static str, v: Option<i64>| match v {
            Some(p) if !(0..=list::MAX_PESOS).contains(&p) => Err(ApiError::refused(
                422,
                field,
                format!("Enter a price from 0 to {} pesos.", list::MAX_PESOS),
            )),
            _ => Ok(v),
        };
        let (min_pesos, max_pesos) = (
            pesos("min_pesos", self.min_pesos)?,
            pesos("max_pesos", self.max_pesos)?,
        );
        if let (Some(lo), Some(hi)) = (min_pesos, max_pesos) {
            if lo > hi {
                return Err(ApiError::refused(
                    422,
                    "max_pesos",
                    "Enter a highest price that is not below the lowest.".to_string(),
                ));
            }
        }
        let page = self.page.unwrap_or(1);
        if !(1..=list::MAX_PAGE).contains(&page) {
            return Err(ApiError::refused(
                422,
                "page",
                format!("Enter a page from 1 to {}.", list::MAX_PAGE),
            ));
        }
        let per_page = self.per_page.unwrap_or(list::PER_PAGE);
        if !(1..=list::MAX_PER_PAGE).contains(&per_page) {
            return Err(ApiError::refused(
                422,
                "per_page",
                format!(
                    "Enter a number of products a page from 1 to {}.",
                    list::MAX_PER_PAGE
                ),
            ));
        }
        Ok(list::ListRequest {
            style: text("style", &self.style)?,
            brand: text("brand", &self.brand)?,
            size: text("size", &self.size)?,
            min_pesos,
            max_pesos,
            sort: self.sort.unwrap_or(sort),
            page,
            per_page,
        })
    }
}

fn product_list(
    ctx: &mut Ctx,
    q: &ProductsQuery,
    sort: list::ListSort,
) -> Result<ProductList, ApiError> {
    let request = q.list_request(sort)?;
    let lookup = Lookup::load(ctx)?;
    let packaging = q.packaging.map(|id| lookup.packaging(id)).transpose()?;
    let listed = list::listed(ctx)?;
    let page = match area_of(ctx, q.barangay)? {
        Some(area) => listed.page(area, packaging, &request),
        None => list::Page {
            products: vec![],
            best_sellers: vec![],
            facets: list::Facets::default(),
            total: 0,
        },
    };
    let per_page = i64::from(request.per_page);
    Ok(ProductList {
        products: page.products,
        recommended_products: vec![],
        best_sellers: page.best_sellers,
        filter_types: lookup.filter_types(),
        brands: page.facets.brands.iter().map(|f| f.value.clone()).collect(),
        pages: (page.total + per_page - 1) / per_page,
        total: page.total,
        page: i64::from(request.page),
        per_page,
        facets: page.facets,
    })
}

framework::declare!(
    /// `GET /api/v1/products?barangay=&packaging=&style=&brand=&size=&min_pesos=&max_pesos=&sort=&page=&per_page=`.
    pub struct Products = Get "/api/v1/products" as "products", Public, errors [404, 422],
    (NoParams, ProductsQuery, NoBody) -> ProductList, "A page of the products sold in a barangay (all without one), optionally of one packaging, style, brewery, size and price range, sorted.");

impl Endpoint for Products {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<ProductList, ApiError> {
        product_list(ctx, &q, list::ListSort::BestSellers)
    }
}

framework::declare!(
    /// `GET /api/v1/products/whats-new`: the catalog, newest first.
    pub struct WhatsNew = Get "/api/v1/products/whats-new" as "whatsNew", Public, errors [404, 422],
    (NoParams, ProductsQuery, NoBody) -> ProductList, "A page of the products sold in a barangay, newest first unless sorted otherwise.");

impl Endpoint for WhatsNew {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<ProductList, ApiError> {
        product_list(ctx, &q, list::ListSort::Newest)
    }
}

framework::declare!(
    /// `POST /api/v3/packagings`: the categories of the category gate.
    pub struct Packagings = Post "/api/v3/packagings" as "packagings", Public, errors [],
    (NoParams, NoParams, NoBody) -> Results<PackagingView>, "The packagings the category gate offers.");

impl Endpoint for Packagings {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        Ok(packagings(ctx.conn)?
            .into_iter()
            .map(|k| PackagingView {
                filter_type: family(&k),
                id: k.id,
                name: k.name,
                image: k.image,
                custom_description: k.custom_description,
            })
            .collect::<Vec<_>>()
            .into())
    }
}

/// The catalog's data version, read from the database (once per page: a page's calls only read;
/// a write call reads it each time, so what it reads after its own change is keyed anew).
pub fn data_version(ctx: &mut Ctx) -> Result<i64, ApiError> {
    #[derive(Clone, Default)]
    struct Read(Option<i64>);
    if let Some(v) = ctx.memo::<Read>().0.filter(|_| ctx.reading()) {
        return Ok(v);
    }
    let v = db::catalog_io::data_version(ctx.conn)?;
    ctx.memo::<Read>().0 = Some(v);
    Ok(v)
}

/// Every packaging, in the category gate's order.
pub fn packagings(conn: &mut AnyConnection) -> Result<Vec<Packaging>, ApiError> {
    Ok(db::catalog::packagings(conn)?)
}

framework::declare!(
    /// `GET /api/v1/banners`: the home carousel's banners shown today (a scheduled one within its
    /// days), desktop and mobile images.
    pub struct Banners = Get "/api/v1/banners" as "banners", Public, errors [],
    (NoParams, crate::content::TestdateQuery, NoBody) -> Results<BannerView>, "The home page's banners shown today.");

impl Endpoint for Banners {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let at = ctx.config.now(framework::testdate(q.testdate.as_deref())?);
        let date = domain::calendar::iso_date(at.date());
        Ok(db::catalog::banners(ctx.conn, &date)?
            .into_iter()
            .map(|b: Banner| BannerView {
                photo: b.kept_photo().as_ref().and_then(PhotoView::new),
                id: b.id,
                title: b.title,
                desktop_image: b.desktop_image,
                mobile_image: b.mobile_image,
            })
            .collect::<Vec<_>>()
            .into())
    }
}

/// A promotion with its product.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PromoView {
    pub id: i32,
    pub title: String,
    pub description: String,
    pub starts_on: String,
    pub ends_on: String,
    pub product: ProductView,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DatedQuery {
    /// Only promotions of products sold in this barangay.
    pub barangay: Option<BarangayId>,
    /// Development and tests only: pretend it is this day (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`).
    pub testdate: Option<String>,
}

framework::declare!(
    /// `GET /api/v1/products/promos?barangay=`: the promotions running today, for products sold in
    /// the barangay (every promotion when none is given).
    pub struct Promos = Get "/api/v1/products/promos" as "promos", Public, errors [404],
    (NoParams, DatedQuery, NoBody) -> Results<PromoView>, "The promotions running today for products sold in a barangay.");

impl Endpoint for Promos {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let at = ctx.config.now(framework::testdate(q.testdate.as_deref())?);
        let date = domain::calendar::iso_date(at.date());
        let Some(area) = area_of(ctx, q.barangay)? else {
            return Ok(vec![].into());
        };
        let listed = list::listed(ctx)?;
        let results: Vec<PromoView> = db::content::promos_on(ctx.conn, &date)?
            .into_iter()
            .filter_map(|promo| {
                let product = listed.sold_in(area, promo.product_id)?.clone();
                Some(PromoView {
                    id: promo.id,
                    title: promo.title,
                    description: promo.description,
                    starts_on: promo.starts_on,
                    ends_on: promo.ends_on,
                    product,
                })
            })
            .collect();
        Ok(results.into())
    }
}

/// The single product response.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct SingleProduct {
    pub product_single: ProductView,
    /// Whether the product is sold at the barangay asked for; `null` when none was given.
    pub available_in_area: Option<bool>,
    pub you_might_also_like: Vec<ProductView>,
}

/// How many products YOU MIGHT ALSO LIKE shows.
pub const ALSO_LIKE: usize = 8;

/// A barangay in a path where `0` means none chosen yet (crawlers, first visits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaybeBarangay(pub Option<BarangayId>);

impl<'de> Deserialize<'de> for MaybeBarangay {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text.trim() == "0" {
            return Ok(Self(None));
        }
        BarangayId::parse(&text)
            .map(|id| Self(Some(id)))
            .ok_or_else(|| serde::de::Error::custom(domain::ids::NOT_AN_ID))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ProductPath {
    /// The product's slug.
    pub slug: String,
    /// The shopper's barangay, or 0 when no location is chosen yet.
    #[serde(rename = "barangayId")]
    #[param(rename = "barangayId", value_type = i64, minimum = 0, maximum = 999_999_999_999_999_999_i64)]
    pub barangay_id: MaybeBarangay,
}

framework::declare!(
    /// `GET /api/v2/products/{slug}/barangay/{barangayId}`: a product with others of its packaging
    /// sold in the same area.
    pub struct SingleProductCall = Get "/api/v2/products/{slug}/barangay/{barangayId}" as "product", Public, errors [404],
    (ProductPath, NoParams, NoBody) -> SingleProduct, "One product, whether it is sold in the barangay, and others like it.");

impl Endpoint for SingleProductCall {
    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<SingleProduct, ApiError> {
        // PostgreSQL cannot hold a NUL in text, nor compare one: no slug has it.
        let found = if p.slug.contains('\0') {
            None
        } else {
            db::catalog::product_by_slug(ctx.conn, &p.slug)?
        };
        let product = found.ok_or_else(|| {
            ApiError::NotFound(format!("Product {} not found", p.slug.replace('\0', "")))
        })?;
        let (area, available) = match p.barangay_id.0 {
            None => (Some(Area::Anywhere), None),
            Some(id) => {
                let place = crate::locations::existing_place(ctx, id)?;
                let sold = place.served
                    && db::catalog::product_sold_in_city(ctx.conn, &product, place.city.id)?;
                (
                    place.served.then_some(Area::City(place.city.id)),
                    Some(sold),
                )
            }
        };
        let product = Lookup::load(ctx)?.view(product);
        // From the catalog held in memory: a product page never loads the catalog.
        let you_might_also_like = match area {
            Some(area) => list::listed(ctx)?.similar_to(area, &product, ALSO_LIKE),
            None => vec![],
        };
        Ok(SingleProduct {
            product_single: product,
            available_in_area: available,
            you_might_also_like,
        })
    }
}

/// Every product's slug, for the sitemap.
pub fn slugs(conn: &mut AnyConnection) -> Result<Vec<String>, ApiError> {
    Ok(db::catalog::product_slugs(conn)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list's query states the limits its call checks. utoipa's attributes of a query's
    /// parameter take only numbers written out (and `schema_with` would drop the parameter's
    /// description), so the numbers are held to the constants here.
    #[test]
    fn the_lists_query_states_the_constants() {
        let params = <ProductsQuery as utoipa::IntoParams>::into_params(|| None);
        let schema = |name: &str| {
            let p = params.iter().find(|p| p.name == name).expect(name);
            serde_json::to_value(&p.schema).unwrap()
        };
        for filter in ["style", "brand", "size"] {
            assert_eq!(schema(filter)["maxLength"], list::MAX_FILTER, "{filter}");
        }
        for price in ["min_pesos", "max_pesos"] {
            assert_eq!(schema(price)["maximum"], list::MAX_PESOS, "{price}");
        }
        assert_eq!(schema("page")["maximum"], list::MAX_PAGE);
        assert_eq!(schema("per_page")["maximum"], list::MAX_PER_PAGE);
    }
}
