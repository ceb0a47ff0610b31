//! A large catalog for tests and the bench (`store seed --demo-catalog N`): N products a shopper
//! would recognise as beer, made from breweries, styles, editions and packagings (bottles of 320
//! ml to 1 L, cans of 330 to 500 ml, kegs of 20 to 50 L), with prices by size, about one in five
//! sold only in some served cities and one in twenty not orderable now. The same N give the same
//! products (no randomness: a counter walked through the combinations). The seed's breweries are
//! left out, so its 26 products keep their names to themselves.

use diesel::prelude::*;

use crate::models::ProductValues;
use crate::schema::{data_version, product_areas, products, served_areas};
use crate::AnyConnection;

const BREWERIES: [&str; 15] = [
    "Bagyo Brewing",
    "Lambanog Bay",
    "Sierra Madre",
    "Taal Lake",
    "Baguio Highlands",
    "Siargao Surf",
    "Cebu Craft",
    "Davao Riverside",
    "Ilocos Norte",
    "Palawan Reef",
    "Bicol Spice",
    "Iloilo Harbour",
    "Pampanga Kusina",
    "Batangas Barako",
    "Mayon Peak",
];

const STYLES: [&str; 20] = [
    "Pale Pilsen",
    "Strong Lager",
    "Light Lager",
    "Wheat",
    "IPA",
    "Double IPA",
    "Porter",
    "Stout",
    "Mango Ale",
    "Kalamansi Shandy",
    "Session Ale",
    "Amber Ale",
    "Red Ale",
    "Saison",
    "Coconut Stout",
    "Ube Porter",
    "Calamansi Gose",
    "Pineapple Sour",
    "Brown Ale",
    "Black Lager",
];

const EDITIONS: [&str; 10] = [
    "",
    "Reserve",
    "Export",
    "Dry-Hopped",
    "Barrel-Aged",
    "Summer",
    "Rainy Season",
    "Fiesta",
    "Christmas",
    "Anniversary",
];

/// A packaging and size: the packaging's id and family word in the name, the size as written,
/// units in a case, and the price of one unit in centavos.
struct Pack {
    packaging: i32,
    product_type: i32,
    word: &'static str,
    size: &'static str,
    unit_per_case: i32,
    price: i64,
}

const PACKS: [Pack; 11] = [
    Pack {
        packaging: 1,
        product_type: 2,
        word: "",
        size: "320 ml",
        unit_per_case: 24,
        price: 5_200,
    },
    Pack {
        packaging: 1,
        product_type: 2,
        word: "",
        size: "330 ml",
        unit_per_case: 24,
        price: 5_800,
    },
    Pack {
        packaging: 1,
        product_type: 2,
        word: "Grande",
        size: "500 ml",
        unit_per_case: 12,
        price: 8_200,
    },
    Pack {
        packaging: 1,
        product_type: 2,
        word: "Grande",
        size: "1 L",
        unit_per_case: 12,
        price: 14_500,
    },
    Pack {
        packaging: 2,
        product_type: 1,
        word: "Can",
        size: "330 ml",
        unit_per_case: 24,
        price: 6_500,
    },
    Pack {
        packaging: 2,
        product_type: 1,
        word: "Can",
        size: "355 ml",
        unit_per_case: 24,
        price: 7_000,
    },
    Pack {
        packaging: 2,
        product_type: 1,
        word: "Can",
        size: "473 ml",
        unit_per_case: 24,
        price: 9_000,
    },
    Pack {
        packaging: 2,
        product_type: 1,
        word: "Can",
        size: "500 ml",
        unit_per_case: 24,
        price: 9_500,
    },
    Pack {
        packaging: 3,
        product_type: 3,
        word: "Keg",
        size: "20 L",
        unit_per_case: 1,
        price: 520_000,
    },
    Pack {
        packaging: 3,
        product_type: 3,
        word: "Keg",
        size: "30 L",
        unit_per_case: 1,
        price: 760_000,
    },
    Pack {
        packaging: 3,
        product_type: 3,
        word: "Keg",
        size: "50 L",
        unit_per_case: 1,
        price: 1_240_000,
    },
];

/// Product number `n` of the demo catalog: its own words (owned) and the rest of its row;
/// `values` lends them to the row the store writes.
struct Made {
    id: i32,
    n: usize,
    name: String,
    slug: String,
    sku: String,
    image: String,
    description: String,
    created_on: String,
    brewery: &'static str,
    style: &'static str,
    pack: &'static Pack,
    price: i64,
    price_per_case: i64,
}

impl Made {
    fn sold_in_all_areas(&self) -> bool {
        self.n % 5 != 3
    }

    fn values(&self) -> ProductValues<'_> {
        ProductValues {
            id: self.id,
            slug: &self.slug,
            product_name: &self.name,
            sku: &self.sku,
            brand: self.brewery,
            size: self.pack.size,
            style: self.style,
            price: self.price,
            price_per_case: self.price_per_case,
            unit_per_case: self.pack.unit_per_case,
            product_type_id: self.pack.product_type,
            packaging_id: self.pack.packaging,
            product_image: Some(&self.image),
            description: &self.description,
            custom_description: "",
            orderable: self.n % 20 != 7,
            sold_in_all_areas: self.sold_in_all_areas(),
            best_seller: self.n.is_multiple_of(97),
            recommended: false,
            sort_order: 1_000 + self.id,
            created_on: &self.created_on,
        }
    }
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Product number `n` of the demo catalog (every combination once, then again as a later batch).
fn product(n: usize, id: i32) -> Made {
    let combos = BREWERIES.len() * STYLES.len() * EDITIONS.len() * PACKS.len();
    // A stride coprime with every count walks the combinations in a mixed order.
    let k = (n * 7_919) % combos;
    let brewery = BREWERIES[k % BREWERIES.len()];
    let style = STYLES[(k / BREWERIES.len()) % STYLES.len()];
    let edition = EDITIONS[(k / (BREWERIES.len() * STYLES.len())) % EDITIONS.len()];
    let pack = &PACKS[(k / (BREWERIES.len() * STYLES.len() * EDITIONS.len())) % PACKS.len()];
    let batch = n / combos;
    let words: Vec<&str> = [brewery, edition, style, pack.word]
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect();
    let mut name = format!("{} {}", words.join(" "), pack.size);
    if batch > 0 {
        name = format!("{name} Batch {}", batch + 1);
    }
    // Prices vary by style and edition, by whole pesos.
    let price = pack.price + ((k % 7) as i64) * 300 + if edition.is_empty() { 0 } else { 500 };
    let price_per_case = price * i64::from(pack.unit_per_case) * 95 / 100 / 100 * 100;
    let family = match pack.packaging {
        1 => "bottle",
        2 => "can",
        _ => "keg",
    };
    Made {
        id,
        n,
        slug: format!("{}-{}", slug(&name), id),
        sku: format!("DEMO-{id:06}"),
        image: format!("/img/packagings/{family}.svg"),
        description: format!(
            "{brewery}'s {style}{}, by the {family} ({}).",
            if edition.is_empty() {
                String::new()
            } else {
                format!(", {edition} edition")
            },
            pack.size
        ),
        created_on: format!("2026-{:02}-{:02}", 1 + n % 11, 1 + n % 28),
        name,
        brewery,
        style,
        pack,
        price,
        price_per_case,
    }
}

/// Adds `count` demo products after the catalog's last; those not sold everywhere are sold in
/// one or two served cities. Moves the data version. Answers how many were added.
pub fn generate(conn: &mut AnyConnection, count: usize) -> QueryResult<usize> {
    crate::write_transaction(conn, |conn| {
        let last: Option<i32> = products::table
            .select(diesel::dsl::max(products::id))
            .first(conn)?;
        let first = last.unwrap_or(0) + 1;
        let mut cities: Vec<i64> = served_areas::table
            .select(served_areas::city_id)
            .distinct()
            .load(conn)?;
        cities.sort_unstable();
        let made: Vec<Made> = (0..count).map(|n| product(n, first + n as i32)).collect();
        let areas: Vec<(i32, i64)> = made
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.sold_in_all_areas() && !cities.is_empty())
            .flat_map(|(n, p)| {
                let a = cities[n % cities.len()];
                let b = cities[(n * 3 + 1) % cities.len()];
                let mut listed = vec![(p.id, a)];
                if b != a {
                    listed.push((p.id, b));
                }
                listed
            })
            .collect();
        for chunk in made.chunks(500) {
            let chunk: Vec<ProductValues> = chunk.iter().map(Made::values).collect();
            let chunk = &chunk;
            match conn {
                AnyConnection::Sqlite(c) => diesel::insert_into(products::table)
                    .values(chunk)
                    .execute(c)?,
                AnyConnection::Postgresql(c) => diesel::insert_into(products::table)
                    .values(chunk)
                    .execute(c)?,
            };
        }
        for chunk in areas.chunks(2_000) {
            let rows: Vec<_> = chunk
                .iter()
                .map(|&(p, c)| {
                    (
                        product_areas::product_id.eq(p),
                        product_areas::city_id.eq(c),
                    )
                })
                .collect();
            match conn {
                AnyConnection::Sqlite(c) => diesel::insert_into(product_areas::table)
                    .values(&rows)
                    .execute(c)?,
                AnyConnection::Postgresql(c) => diesel::insert_into(product_areas::table)
                    .values(&rows)
                    .execute(c)?,
            };
        }
        diesel::update(data_version::table.find(1))
            .set(data_version::version.eq(data_version::version + 1))
            .execute(conn)?;
        Ok(made.len())
    })
}
