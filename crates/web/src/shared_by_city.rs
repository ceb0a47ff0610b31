//! Pages shared by the places of a city. A list, a product or the home page of a shopper in one
//! barangay differs from the same page in the next barangay of the city only by the place it
//! names: the barangay's name in the header and its id in the page state (the gate, the
//! variables, the query keys). Rendering it once for each of the city's barangays would cost a
//! render each (the most a page costs) and keep each whole page apart in the page cache.
//!
//! So a shared page's input is abstracted before it is rendered: the barangay's id where the
//! page names the shopper's barangay (`"barangayId":`, `"barangay":"…"`, `barangay=` and
//! `/barangay/` in the query keys) becomes the place-id sentinel, and the gate's barangay name
//! the place-name sentinel (`crate::page_with_slots`). The page is rendered from that input and
//! kept by it, with the place as two more slots; every barangay whose page abstracts to the same
//! input (its data the same, the place apart) is answered that page with its own place filled in.
//! Nothing is assumed about which data depends on the barangay: the page of each barangay is
//! still planned (its data read), and a barangay whose data differs abstracts to another input
//! and gets a page of its own. What is assumed is that the bundle only copies the place into
//! the page (text, attributes, addresses), which `tests/placed_pages.rs` checks by rendering every
//! shop page of two barangays of one city both ways and comparing the bytes.

use std::sync::Arc;

use serde_json::Value;

use crate::page_with_slots::Page;
pub use crate::page_with_slots::Place;

/// What the page cache keeps under a page's key (`page::page_key`): the page, or, for a page
/// shared by the places of a city, the key its shared page is kept under and the place to fill
/// in (a few bytes each, however many barangays ask).
pub enum PageCacheEntry {
    Page(Arc<Page>),
    CityShared { shared: u128, place: Place },
}

impl PageCacheEntry {
    /// The page, with the place to fill in; `None` when the page the city's places share was
    /// let go by the cache (made again then).
    pub fn page(
        &self,
        cache: &framework::cache::ResponseCache,
    ) -> Option<(Arc<Page>, Option<Place>)> {
        match self {
            Self::Page(page) => Some((page.clone(), None)),
            Self::CityShared { shared, place } => {
                cache.get::<Page>(*shared).map(|p| (p, Some(place.clone())))
            }
        }
    }
}

/// The page kept under a page's key `key` and its place, or the duty to make it: a key whose
/// shared page the cache let go is let go too and asked again, so that one asker makes it while
/// the others wait (as for a page nobody has).
pub async fn kept_or_duty(
    cache: &framework::cache::ResponseCache,
    key: u128,
    wait: std::time::Duration,
) -> Result<(Arc<Page>, Option<Place>), framework::cache::DutyToMake<'_>> {
    for _ in 0..2 {
        match cache.get_or_make::<PageCacheEntry>(key, wait).await {
            Ok(kept) => match kept.page(cache) {
                Some(found) => return Ok(found),
                None => cache.remove(key),
            },
            Err(duty) => return Err(duty),
        }
    }
    Err(cache.replacing(key))
}

impl framework::cache::Weigh for PageCacheEntry {
    fn weight(&self) -> u64 {
        match self {
            Self::Page(page) => framework::cache::Weigh::weight(page.as_ref()),
            Self::CityShared { place, .. } => 128 + place.name.len() as u64,
        }
    }
}

/// The key of the page the places of a city share: everything its shell is made of.
pub fn shared_key(route: &str, input: &str, canonical: Option<&str>, status: u16) -> u128 {
    framework::cache::key(&[
        b"placed page",
        route.as_bytes(),
        input.as_bytes(),
        canonical.unwrap_or("").as_bytes(),
        &status.to_le_bytes(),
    ])
}

/// The smallest barangay id abstracted: ids are the places' official codes (nine digits and
/// more), which no count, page number or price of the same page could pass for.
const SMALLEST_ID: i64 = 10_000_000;

/// Where the page names the shopper's barangay by its id: after one of these, followed by
/// something that is not a digit.
const NAMED_AFTER: [&str; 4] = [
    "\"barangayId\":",
    "\"barangay\":\"",
    "barangay=",
    "/barangay/",
];

/// The page's input with its place abstracted, and the place; `None` when the page names no
/// barangay, when the location gate is open (its picker shows the barangay chosen among the
/// city's), or when the input already holds a sentinel.
pub fn abstracted(input: &Value) -> Option<(String, Place)> {
    let gate = input.get("gate")?;
    if !gate.get("open").is_none_or(Value::is_null) {
        return None;
    }
    let id = gate.get("barangayId")?.as_i64()?;
    let name = gate.get("barangayName")?.as_str()?.to_string();
    // An empty name reads as no place to the header (the sentinel would read as one).
    if id < SMALLEST_ID || name.is_empty() {
        return None;
    }
    let sentinels = crate::page_with_slots::sentinels();
    let mut named = input.clone();
    named["gate"]["barangayName"] = Value::from(sentinels.place_name.as_str());
    let text = named.to_string();
    if text.contains(&sentinels.place_id) {
        return None;
    }
    Some((
        with_id(&text, &id.to_string(), &sentinels.place_id),
        Place { id, name },
    ))
}

/// `text` with `id` replaced by `by` wherever it stands alone after one of [`NAMED_AFTER`].
fn with_id(text: &str, id: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (at, _) in text.match_indices(id) {
        let after = &text.as_bytes()[at + id.len()..];
        let alone = !after.first().is_some_and(u8::is_ascii_digit)
            && !text.as_bytes()[..at].last().is_some_and(u8::is_ascii_digit);
        if alone && NAMED_AFTER.iter().any(|n| text[..at].ends_with(n)) {
            out.push_str(&text[from..at]);
            out.push_str(by);
            from = at + id.len();
        }
    }
    out.push_str(&text[from..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(id: i64, name: &str) -> Value {
        json!({
            "gate": {"barangayId": id, "barangayName": name, "cityName": "Makati City", "open": null},
            "vars": {"barangay": id.to_string(), "page": "2"},
            "state": {"queries": [{
                "queryKey": [format!("/api/v1/products?barangay={id}&page=2")],
                "queryHash": format!("[\"/api/v2/products/tala/barangay/{id}\"]"),
                "state": {"data": {"price": id, "sku": format!("SKU-{id}9"), "note": format!("{name} Ale")}}
            }]}
        })
    }

    #[test]
    fn two_barangays_with_the_same_data_abstract_to_one_input() {
        let (one, place) = abstracted(&input(1_380_300_002, "Bel-Air")).unwrap();
        assert_eq!(
            place,
            Place {
                id: 1_380_300_002,
                name: "Bel-Air".into()
            }
        );
        let s = crate::page_with_slots::sentinels();
        assert!(!one.contains("\"barangayId\":1380300002"), "{one}");
        assert!(one.contains(&format!("\"barangayId\":{}", s.place_id)));
        assert!(one.contains(&format!("\"barangay\":\"{}\"", s.place_id)));
        assert!(one.contains(&format!("barangay={}&", s.place_id)));
        assert!(one.contains(&format!("/barangay/{}\\\"", s.place_id)));
        assert!(one.contains(&s.place_name));
        // Data that only looks like the place is data: a price, a code, a name in a text.
        assert!(one.contains("\"price\":1380300002"), "{one}");
        assert!(one.contains("SKU-13803000029"));
        assert!(one.contains("Bel-Air Ale"));
        let mut other = input(1_380_300_005, "Poblacion");
        other["state"]["queries"][0]["state"]["data"] =
            input(1_380_300_002, "Bel-Air")["state"]["queries"][0]["state"]["data"].clone();
        assert_eq!(abstracted(&other).unwrap().0, one);
        let differs = abstracted(&input(1_380_300_005, "Poblacion")).unwrap().0;
        assert_ne!(differs, one, "its own data: a page of its own");
    }

    #[test]
    fn pages_without_a_plain_place_are_not_abstracted() {
        let mut open = input(1_380_300_002, "Bel-Air");
        open["gate"]["open"] = json!("location");
        assert_eq!(
            abstracted(&open),
            None,
            "the picker shows the chosen barangay"
        );
        assert_eq!(
            abstracted(&input(42, "Small")),
            None,
            "an id a count could be"
        );
        assert_eq!(
            abstracted(&input(1_380_300_002, "")),
            None,
            "no name to show"
        );
        assert_eq!(abstracted(&json!({"gate": {"barangayId": null}})), None);
        assert_eq!(abstracted(&json!({"route": "faqs"})), None);
        let s = crate::page_with_slots::sentinels();
        let mut forged = input(1_380_300_002, "Bel-Air");
        forged["vars"]["q"] = json!(s.place_id.clone());
        assert_eq!(abstracted(&forged), None, "a sentinel typed in stays text");
    }
}
