//! The product lists at size (`/buy-beer`, its packaging lists, what's new): sorted, filtered
//! and cut into pages from the catalog an app server holds in memory for the data version
//! ([`ListedPerVersion`]: every product as the answers show it and the cities it is sold in), so a
//! list page costs no more at 10,000 products than at 26 and reads one row of the database (the
//! data version) besides the place.

use std::collections::BTreeMap;

use db::catalog::Area;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use framework::endpoint::Ctx;
use framework::error::ApiError;
use framework::per_data_version::PerDataVersion;

use super::{Lookup, ProductView};

/// How many products a list page shows unless asked for fewer or more (up to [`MAX_PER_PAGE`]).
pub const PER_PAGE: u32 = 24;
pub const MAX_PER_PAGE: u32 = 48;
/// The last page a list is asked for (a page past the last is empty).
pub const MAX_PAGE: u32 = 1_000_000;
/// The highest price a list's range reads, in whole pesos.
pub const MAX_PESOS: i64 = 10_000_000;
/// The longest style, brewery or size a list is filtered by, in characters.
pub const MAX_FILTER: usize = 100;
/// How many best sellers a list names (the home page's strip).
pub const BEST_SELLERS: usize = 24;

/// How a list is sorted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema, TS)]
pub enum ListSort {
    /// Best sellers first, then the catalog's order.
    #[default]
    #[serde(rename = "best")]
    BestSellers,
    /// The lowest price first.
    #[serde(rename = "price")]
    PriceLow,
    /// The highest price first.
    #[serde(rename = "price-desc")]
    PriceHigh,
    /// The newest first.
    #[serde(rename = "newest")]
    Newest,
    /// By name, A to Z.
    #[serde(rename = "name")]
    Name,
}

impl ListSort {
    pub const ALL: [ListSort; 5] = [
        Self::BestSellers,
        Self::PriceLow,
        Self::PriceHigh,
        Self::Newest,
        Self::Name,
    ];

    /// Its value in an address (`?sort=price-desc`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BestSellers => "best",
            Self::PriceLow => "price",
            Self::PriceHigh => "price-desc",
            Self::Newest => "newest",
            Self::Name => "name",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.as_str() == s)
    }

    /// What the sort menu calls it.
    pub fn label(self) -> &'static str {
        match self {
            Self::BestSellers => "Best sellers",
            Self::PriceLow => "Price: low to high",
            Self::PriceHigh => "Price: high to low",
            Self::Newest => "Newest",
            Self::Name => "Name: A to Z",
        }
    }
}

framework::export_const!(
    /// The list pages' sort menu: each sort's value in the address and its label, the default
    /// first.
    LIST_SORTS = ListSort::ALL
        .iter()
        .map(|s| serde_json::json!({ "value": s.as_str(), "label": s.label() }))
        .collect::<Vec<_>>()
);
framework::export_const!(
    /// How many products a list page shows.
    LIST_PER_PAGE = PER_PAGE
);
framework::export_const!(
    /// The highest price a list's range reads, in whole pesos.
    LIST_MAX_PESOS = MAX_PESOS
);

/// One value of a filter and how many products of the list (before the other filters) have it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Facet {
    pub value: String,
    pub count: i64,
}

/// What a list can be narrowed by, counted among the products sold at the place (of the
/// packaging asked for); the lowest and highest price in centavos (0 when there are none).
#[derive(Debug, Clone, Default, Serialize, PartialEq, ToSchema, TS)]
pub struct Facets {
    pub styles: Vec<Facet>,
    pub sizes: Vec<Facet>,
    pub brands: Vec<Facet>,
    pub min_price: i64,
    pub max_price: i64,
}

/// What a list filters by besides the place, the packaging and the price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Style,
    Brand,
    Size,
}

impl Filter {
    pub const ALL: [Filter; 3] = [Filter::Style, Filter::Brand, Filter::Size];

    /// Its name in a list's address and the products call.
    pub fn as_str(self) -> &'static str {
        match self {
            Filter::Style => "style",
            Filter::Brand => "brand",
            Filter::Size => "size",
        }
    }

    fn of(self, view: &ProductView) -> &str {
        match self {
            Filter::Style => &view.style,
            Filter::Brand => &view.brand,
            Filter::Size => &view.size,
        }
        .trim()
    }
}

/// A list asked for: the filters besides the place and packaging, the sort and the page.
#[derive(Debug, Clone, Default)]
pub struct ListRequest {
    pub style: Option<String>,
    pub brand: Option<String>,
    pub size: Option<String>,
    /// Whole pesos, inclusive.
    pub min_pesos: Option<i64>,
    pub max_pesos: Option<i64>,
    pub sort: ListSort,
    /// From 1.
    pub page: u32,
    pub per_page: u32,
}

impl ListRequest {
    /// The list's first page, not filtered (but for the place and packaging) nor sorted.
    fn is_first_plain(&self) -> bool {
        self.page == 1
            && self.sort == ListSort::default()
            && self.style.is_none()
            && self.brand.is_none()
            && self.size.is_none()
            && self.min_pesos.is_none()
            && self.max_pesos.is_none()
    }
}

/// A page of a list.
pub struct Page {
    pub products: Vec<ProductView>,
    pub best_sellers: Vec<ProductView>,
    pub facets: Facets,
    pub total: i64,
}

/// Every product, in the catalog's order, with where it is sold; each sort's order made once;
/// each place's facets and best sellers made once when first asked.
pub struct Listed {
    entries: Vec<Entry>,
    /// Each product's place in `entries`, by id.
    by_id: std::collections::HashMap<domain::ProductId, u32>,
    /// For each of [`ListSort::ALL`], the entries' indices in its order.
    orders: Vec<Vec<u32>>,
    /// Each filter's values as the catalog spells them (the first product's spelling), by their
    /// trimmed lowercase: [`Filter`]'s order.
    spellings: [std::collections::HashMap<String, String>; 3],
    /// By place (a city or anywhere) and packaging.
    places: std::sync::Mutex<std::collections::HashMap<PlaceKey, std::sync::Arc<Place>>>,
}

type PlaceKey = (Option<i64>, Option<i32>);

/// What a list of one place and packaging shows whatever its filters.
struct Place {
    facets: Facets,
    best_sellers: Vec<ProductView>,
}

struct Entry {
    view: ProductView,
    best_seller: bool,
    all_areas: bool,
    /// The cities it is listed for (when not sold everywhere), sorted.
    cities: Vec<i64>,
    /// Its name as the name sort compares it.
    name_key: String,
}

impl Entry {
    /// Whether it is sold in `area`, and of `packaging` when given.
    fn sold(&self, area: Area, packaging: Option<domain::PackagingId>) -> bool {
        packaging.is_none_or(|k| self.view.packaging.id == k)
            && match area {
                Area::Anywhere => true,
                Area::City(city) => {
                    self.all_areas || self.cities.binary_search(&city.get()).is_ok()
                }
            }
    }
}

/// The catalog an app server holds for the lists (a setting of the API: `ApiConfig::settings`).
pub type ListedPerVersion = PerDataVersion<Listed>;

impl Listed {
    fn build(ctx: &mut Ctx) -> Result<Self, ApiError> {
        let products = db::catalog::products(ctx.conn, Area::Anywhere, None)?;
        let mut cities: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
        for (product, city) in db::catalog::product_cities(ctx.conn)? {
            cities.entry(product).or_default().push(city);
        }
        let lookup = Lookup::load(ctx)?;
        let entries = products
            .into_iter()
            .map(|p| {
                let mut listed = cities.remove(&p.id.get()).unwrap_or_default();
                listed.sort_unstable();
                Entry {
                    best_seller: p.best_seller,
                    all_areas: p.sold_in_all_areas,
                    cities: listed,
                    name_key: p.product_name.to_lowercase(),
                    view: lookup.view(p),
                }
            })
            .collect::<Vec<_>>();
        let orders = ListSort::ALL
            .iter()
            .map(|sort| {
                let mut order: Vec<u32> = (0..entries.len() as u32).collect();
                let e = |i: &u32| &entries[*i as usize];
                // Stable sorts: equal products keep the catalog's order.
                match sort {
                    ListSort::BestSellers => order.sort_by_key(|i| !e(i).best_seller),
                    ListSort::PriceLow => order.sort_by_key(|i| e(i).view.price),
                    ListSort::PriceHigh => {
                        order.sort_by_key(|i| std::cmp::Reverse(e(i).view.price))
                    }
                    ListSort::Newest => {
                        order.sort_by(|a, b| e(b).view.created_on.cmp(&e(a).view.created_on))
                    }
                    ListSort::Name => order.sort_by(|a, b| e(a).name_key.cmp(&e(b).name_key)),
                }
                order
            })
            .collect();
        let spellings = Filter::ALL.map(|filter| {
            let mut spelled = std::collections::HashMap::new();
            for e in &entries {
                let value = filter.of(&e.view);
                if !value.is_empty() {
                    spelled
                        .entry(value.to_lowercase())
                        .or_insert_with(|| value.to_string());
                }
            }
            spelled
        });
        Ok(Self {
            spellings,
            by_id: entries
                .iter()
                .enumerate()
                .map(|(i, e)| (e.view.id, i as u32))
                .collect(),
            entries,
            orders,
            places: Default::default(),
        })
    }

    /// The facets and best sellers of a place and packaging, made once.
    fn place(&self, area: Area, packaging: Option<domain::PackagingId>) -> std::sync::Arc<Place> {
        let key = (
            match area {
                Area::Anywhere => None,
                Area::City(c) => Some(c.get()),
            },
            packaging.map(|k| k.get()),
        );
        let mut places = self.places.lock().unwrap_or_else(|e| e.into_inner());
        places
            .entry(key)
            .or_insert_with(|| {
                let sold: Vec<&Entry> = self.sold(area, packaging).collect();
                std::sync::Arc::new(Place {
                    facets: self.facets(&sold),
                    best_sellers: sold
                        .iter()
                        .filter(|e| e.best_seller)
                        .take(BEST_SELLERS)
                        .map(|e| e.view.clone())
                        .collect(),
                })
            })
            .clone()
    }

    /// `value` of `filter` as the catalog spells it (whatever its case and the spaces around
    /// it); `None` when no product has it.
    pub fn spelled(&self, filter: Filter, value: &str) -> Option<&str> {
        self.spellings[filter as usize]
            .get(&value.trim().to_lowercase())
            .map(String::as_str)
    }

    /// How many products it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every product as the answers show it, in the catalog's order (what the search indexes).
    pub fn views(&self) -> impl Iterator<Item = &ProductView> {
        self.entries.iter().map(|e| &e.view)
    }

    /// Product `id`, wherever it is sold.
    pub fn get(&self, id: domain::ProductId) -> Option<&ProductView> {
        self.entry(id).map(|e| &e.view)
    }

    fn entry(&self, id: domain::ProductId) -> Option<&Entry> {
        self.by_id.get(&id).map(|i| &self.entries[*i as usize])
    }

    /// The products sold in `area`, of `packaging` when given, in the catalog's order.
    fn sold(
        &self,
        area: Area,
        packaging: Option<domain::PackagingId>,
    ) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| e.sold(area, packaging))
    }

    /// Up to `n` products like `product` (its packaging, sold in `area`): best sellers first,
    /// then the orderable ones, then the catalog's order.
    pub fn similar_to(&self, area: Area, product: &ProductView, n: usize) -> Vec<ProductView> {
        let mut similar: Vec<&Entry> = self
            .sold(area, Some(product.packaging.id))
            .filter(|e| e.view.id != product.id)
            .collect();
        similar.sort_by_key(|e| (!e.best_seller, !e.view.orderable));
        similar
            .into_iter()
            .take(n)
            .map(|e| e.view.clone())
            .collect()
    }

    /// The product `id` if it is sold in `area`.
    pub fn sold_in(&self, area: Area, id: domain::ProductId) -> Option<&ProductView> {
        self.entry(id)
            .filter(|e| e.sold(area, None))
            .map(|e| &e.view)
    }

    /// The page `request` of the products sold in `area`, of `packaging` when given.
    pub fn page(
        &self,
        area: Area,
        packaging: Option<domain::PackagingId>,
        request: &ListRequest,
    ) -> Page {
        let place = self.place(area, packaging);
        // A filter matches whatever the case, as the facets count (Unicode's lowercase, so an
        // "Ñ" is an "ñ").
        let lower = |w: &Option<String>| w.as_deref().map(|w| w.trim().to_lowercase());
        let wants = [&request.style, &request.brand, &request.size].map(lower);
        let same = |want: &Option<String>, have: &str| {
            want.as_deref().is_none_or(|w| {
                have.trim()
                    .chars()
                    .flat_map(char::to_lowercase)
                    .eq(w.chars())
            })
        };
        let sort = ListSort::ALL
            .iter()
            .position(|s| *s == request.sort)
            .unwrap_or(0);
        let chosen: Vec<&Entry> = self.orders[sort]
            .iter()
            .map(|i| &self.entries[*i as usize])
            .filter(|e| e.sold(area, packaging))
            .filter(|e| same(&wants[0], &e.view.style))
            .filter(|e| same(&wants[1], &e.view.brand))
            .filter(|e| same(&wants[2], &e.view.size))
            .filter(|e| request.min_pesos.is_none_or(|m| e.view.price >= m * 100))
            .filter(|e| request.max_pesos.is_none_or(|m| e.view.price <= m * 100))
            .collect();
        let per_page = request.per_page.max(1) as usize;
        let skip = (request.page.max(1) as usize - 1).saturating_mul(per_page);
        Page {
            total: chosen.len() as i64,
            products: chosen
                .iter()
                .skip(skip)
                .take(per_page)
                .map(|e| e.view.clone())
                .collect(),
            // The home page's strip reads them with the list's plain first page; every other
            // page of a list would only carry them unread (half its data, at 24 a page).
            best_sellers: if request.is_first_plain() {
                place.best_sellers.clone()
            } else {
                vec![]
            },
            facets: place.facets.clone(),
        }
    }
}

impl Listed {
    /// The filters' values among `sold`, each counted under the catalog's spelling of it (a
    /// "lager" and a "Lager" are one value, as the filter reads them).
    fn facets(&self, sold: &[&Entry]) -> Facets {
        let count = |filter: Filter| {
            let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
            for e in sold {
                if let Some(value) = self.spelled(filter, filter.of(&e.view)) {
                    *counts.entry(value).or_default() += 1;
                }
            }
            counts
                .into_iter()
                .map(|(value, count)| Facet {
                    value: value.to_string(),
                    count,
                })
                .collect::<Vec<_>>()
        };
        let mut sizes = count(Filter::Size);
        // Sizes by how much they hold (320 ml before 1 L before 20 L), not by their text.
        sizes.sort_by_key(|f| (millilitres(&f.value).unwrap_or(u64::MAX), f.value.clone()));
        Facets {
            styles: count(Filter::Style),
            sizes,
            brands: count(Filter::Brand),
            min_price: sold.iter().map(|e| e.view.price).min().unwrap_or(0),
            max_price: sold.iter().map(|e| e.view.price).max().unwrap_or(0),
        }
    }
}

/// `330 ml`, `1 L`, `1.5 L`, `20L` in millilitres.
fn millilitres(size: &str) -> Option<u64> {
    let s = size.trim().to_ascii_lowercase();
    let (number, unit) = s.split_at(s.find(|c: char| !(c.is_ascii_digit() || c == '.'))?);
    let number: f64 = number.parse().ok()?;
    let factor = match unit.trim() {
        "ml" => 1.0,
        "cl" => 10.0,
        "l" => 1000.0,
        _ => return None,
    };
    Some((number * factor).round() as u64)
}

/// The catalog held for the lists at `version`: the app server's, or (a tool's context, without
/// one) built for this call.
pub fn listed(ctx: &mut Ctx) -> Result<std::sync::Arc<Listed>, ApiError> {
    let version = super::data_version(ctx)?;
    match ctx
        .config
        .settings
        .get::<std::sync::Arc<ListedPerVersion>>()
        .cloned()
    {
        Some(built) => built.get(version, || Listed::build(ctx)),
        None => Ok(std::sync::Arc::new(Listed::build(ctx)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_millilitres() {
        assert_eq!(millilitres("330 ml"), Some(330));
        assert_eq!(millilitres("1 L"), Some(1000));
        assert_eq!(millilitres("1.5 L"), Some(1500));
        assert_eq!(millilitres("20L"), Some(20_000));
        assert_eq!(millilitres("a keg"), None);
        assert_eq!(millilitres(""), None);
    }

    #[test]
    fn every_sort_reads_back_from_its_value() {
        for s in ListSort::ALL {
            assert_eq!(ListSort::parse(s.as_str()), Some(s));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.as_str()));
        }
        assert_eq!(ListSort::parse("cheapest"), None);
        assert_eq!(ListSort::default(), ListSort::ALL[0]);
    }
}
