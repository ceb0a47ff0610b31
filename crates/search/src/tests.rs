use super::*;

/// The seed's products: name, and brewery, packaging, type and size.
const SEED: [(i64, &str, &str); 26] = [
    (
        1,
        "Tala Pale Pilsen 320 ml",
        "Tala BOTTLES Full Goods 320 ml",
    ),
    (
        2,
        "Tala Pale Pilsen Grande 500 ml",
        "Tala BOTTLES Full Goods 500 ml",
    ),
    (3, "Tala Light 330 ml", "Tala BOTTLES Full Goods 330 ml"),
    (
        4,
        "Tala Dark Lager 330 ml",
        "Tala BOTTLES Full Goods 330 ml",
    ),
    (
        5,
        "Habagat Strong Lager 330 ml",
        "Habagat BOTTLES Full Goods 330 ml",
    ),
    (
        6,
        "Habagat Extra Strong 500 ml",
        "Habagat BOTTLES Full Goods 500 ml",
    ),
    (7, "Amihan Wheat 330 ml", "Amihan BOTTLES Full Goods 330 ml"),
    (
        8,
        "Amihan Mango Ale 330 ml",
        "Amihan BOTTLES Full Goods 330 ml",
    ),
    (9, "Bangkal IPA 330 ml", "Bangkal BOTTLES Full Goods 330 ml"),
    (
        10,
        "Kalamansi Shandy 330 ml",
        "Tala BOTTLES Full Goods 330 ml",
    ),
    (
        11,
        "Sampaguita Session Ale 330 ml",
        "Amihan BOTTLES Full Goods 330 ml",
    ),
    (12, "Tala Pale Pilsen Can 330 ml", "Tala CANS Cans 330 ml"),
    (13, "Tala Light Can 330 ml", "Tala CANS Cans 330 ml"),
    (
        14,
        "Habagat Strong Lager Can 500 ml",
        "Habagat CANS Cans 500 ml",
    ),
    (15, "Amihan Wheat Can 330 ml", "Amihan CANS Cans 330 ml"),
    (16, "Bangkal IPA Can 330 ml", "Bangkal CANS Cans 330 ml"),
    (
        17,
        "Bangkal Double IPA Can 473 ml",
        "Bangkal CANS Cans 473 ml",
    ),
    (18, "Kalamansi Shandy Can 330 ml", "Tala CANS Cans 330 ml"),
    (19, "Tala Zero Can 330 ml", "Tala CANS Cans 330 ml"),
    (20, "Ube Porter Can 330 ml", "Bangkal CANS Cans 330 ml"),
    (
        21,
        "Tala Pale Pilsen Keg 30 L",
        "Tala DRAFT BEER IN KEG Keg 30 L",
    ),
    (
        22,
        "Tala Pale Pilsen Keg 20 L",
        "Tala DRAFT BEER IN KEG Keg 20 L",
    ),
    (
        23,
        "Habagat Strong Lager Keg 30 L",
        "Habagat DRAFT BEER IN KEG Keg 30 L",
    ),
    (
        24,
        "Amihan Wheat Keg 20 L",
        "Amihan DRAFT BEER IN KEG Keg 20 L",
    ),
    (
        25,
        "Bangkal IPA Keg 20 L",
        "Bangkal DRAFT BEER IN KEG Keg 20 L",
    ),
    (26, "Tala Light Keg 30 L", "Tala DRAFT BEER IN KEG Keg 30 L"),
];

fn seed() -> Vec<Item> {
    SEED.into_iter()
        .map(|(id, name, words)| Item {
            id,
            name: name.into(),
            words: words.into(),
        })
        .collect()
}

/// Words a store keeps (the seed's are crates/db/seed/catalog.json's `search_words`).
fn synonyms() -> Synonyms {
    Synonyms::new([
        ("bote", "bottle bottles"),
        ("lata", "can cans"),
        ("serbesa", ""),
        ("beer", ""),
        ("bariles", "keg"),
        ("draft", "keg"),
    ])
}

fn index() -> Index {
    Index::build(&seed(), synonyms()).unwrap()
}

fn found(index: &Index, q: &str) -> Vec<i64> {
    index
        .search(q, 50)
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn a_shopper_finds_what_they_typed_with_typos_in_any_order() {
    let index = index();
    assert_eq!(found(&index, "tala pilsn grande"), [2]);
    assert_eq!(found(&index, "GRANDE pilsen Tala").first(), Some(&2));
    assert_eq!(found(&index, "Tala Pale Pilsen Grande 500 ml"), [2]);
    // Two letters off in a long word, one in a short one.
    assert_eq!(found(&index, "sampagita").first(), Some(&11));
    assert_eq!(found(&index, "habagta lager can").first(), Some(&14));
}

#[test]
fn filipino_and_taglish_words_reach_the_catalog_s() {
    let index = index();
    assert_eq!(found(&index, "habagat lata"), [14]);
    assert_eq!(found(&index, "habagat bote").len(), 2);
    let kegs = found(&index, "serbesa keg 30l");
    let first_three: std::collections::BTreeSet<i64> = kegs.iter().take(3).copied().collect();
    assert_eq!(first_three, [21, 23, 26].into(), "{kegs:?}");
    assert_eq!(found(&index, "bariles 20 litro").len(), 3);
    // A size is never a few letters off another: 320 ml bottles are not 330 ml ones.
    let small = found(&index, "tala 320ml bote");
    assert_eq!(small, [1], "{small:?}");
    // Half typed, the last word's size is its beginning.
    assert_eq!(found(&index, "bangkal double 473").first(), Some(&17));
}

#[test]
fn half_a_word_is_its_beginning_and_words_for_everything_find_everything() {
    let index = index();
    let habagat = found(&index, "habag");
    assert_eq!(habagat.len(), 4, "{habagat:?}");
    assert_eq!(found(&index, "serbesa").len(), 26);
    assert_eq!(index.search("serbesa", 5).unwrap().len(), 5);
}

#[test]
fn nonsense_finds_nothing_and_any_word_is_enough_when_all_are_not() {
    let index = index();
    assert!(found(&index, "xyzzy").is_empty());
    assert!(found(&index, "").is_empty());
    assert!(found(&index, "%%% ;;").is_empty());
    assert!(found(&index, &"a".repeat(10_000)).is_empty());
    // No product is both: each word alone is.
    let either = found(&index, "mango porter");
    assert_eq!(either.len(), 2, "{either:?}");
    assert!(index.search("tala", 0).unwrap().is_empty());
}
