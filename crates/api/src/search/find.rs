//! `GET /api/v1/search?q=&barangay=&limit=`: the products a shopper's words find, best first,
//! those that can be ordered at their place apart from the others.

use domain::BarangayId;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{Ref, RefOr, Required, Schema};
use utoipa::{IntoParams, ToSchema};

use framework::endpoint::{Args, Ctx, Endpoint, NoBody, NoParams};
use framework::error::ApiError;

use super::index::index;
use crate::catalog::ProductView;

/// The longest query read, in characters.
pub const MAX_QUERY: usize = 100;
/// How many products a search answers unless asked for fewer or more (up to [`MAX_LIMIT`]).
pub const PAGE: u32 = 24;
const MAX_LIMIT: u32 = 48;
framework::export_const!(
    /// The longest query the search reads, in characters (longer is refused).
    SEARCH_MAX_QUERY = MAX_QUERY
);
framework::export_const!(
    /// How many products of each list a page of search results shows.
    SEARCH_PER_PAGE = PAGE
);
/// How many of the best matches are sorted by the shopper's place before a page is cut.
const CONSIDERED: usize = 240;

/// The search's query; the document describes it as [`SearchQuery::into_params`] says.
#[derive(Debug, Default, Deserialize)]
pub struct SearchQuery {
    /// What the shopper typed (at most [`MAX_QUERY`] characters); without words, nothing is found.
    pub q: Option<String>,
    /// The shopper's barangay: what can be ordered there comes first.
    pub barangay: Option<BarangayId>,
    /// How many products of each list: up to [`MAX_LIMIT`] ([`PAGE`] unless given).
    pub limit: Option<u32>,
}

/// The query's parameters as the document states them, their limits from the constants the call
/// checks (utoipa's derive takes only numbers written out in `max_length` and `maximum`, and only
/// doc comments as descriptions, which could not name the constants).
impl IntoParams for SearchQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let query = |name: &str, description: String, schema: RefOr<Schema>| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Query)
                .required(Required::False)
                .description(Some(description))
                .schema(Some(schema))
                .build()
        };
        // The words are the document's as they always were, their line breaks included.
        vec![
            query(
                "q",
                format!(
                    "What the shopper typed: names, breweries, styles, packagings, sizes, in any \
                     order, with\ntypos and Filipino words (`habagat lata`, `serbesa keg 30l`); \
                     at most {MAX_QUERY} characters.\nWithout words, nothing is found."
                ),
                framework::rules::up_to(MAX_QUERY).into(),
            ),
            query(
                "barangay",
                "The shopper's barangay: what can be ordered there comes first.".into(),
                RefOr::Ref(Ref::from_schema_name(<BarangayId as ToSchema>::name())),
            ),
            query(
                "limit",
                format!("How many products of each list: 1 to {MAX_LIMIT} ({PAGE} unless given)."),
                framework::rules::int32(1, MAX_LIMIT as i32).into(),
            ),
        ]
    }
}

/// What a search found.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct SearchAnswer {
    /// The query as the store read it (trimmed).
    pub q: String,
    /// Found and orderable at the shopper's place (anywhere without one), best match first.
    pub products: Vec<ProductView>,
    /// Found, but not orderable at the shopper's place (not sold there, or not now).
    pub elsewhere: Vec<ProductView>,
}

framework::declare!(
    /// `GET /api/v1/search?q=&barangay=&limit=`.
    pub struct Search = Get "/api/v1/search" as "search", Public, errors [404, 422],
    (NoParams, SearchQuery, NoBody) -> SearchAnswer, "The products a shopper's words find: those orderable in their barangay, then the others.");

/// The query as read: trimmed, at most [`MAX_QUERY`] characters; none when there are no words
/// (the search page before anything was typed), which finds nothing.
fn query_of(q: Option<&str>) -> Result<Option<String>, ApiError> {
    let text = q.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Ok(None);
    }
    if text.chars().count() > MAX_QUERY {
        return Err(ApiError::refused(
            422,
            "q",
            format!("Enter at most {MAX_QUERY} characters."),
        ));
    }
    Ok(Some(text.to_string()))
}

impl Endpoint for Search {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<SearchAnswer, ApiError> {
        let text = query_of(q.q.as_deref())?;
        let limit = q.limit.unwrap_or(PAGE);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::refused(
                422,
                "limit",
                format!("Enter a limit from 1 to {MAX_LIMIT}."),
            ));
        }
        let Some(text) = text else {
            return Ok(SearchAnswer {
                q: String::new(),
                products: vec![],
                elsewhere: vec![],
            });
        };
        let version = crate::catalog::data_version(ctx)?;
        let index = index(ctx, version)?;
        let hits = index
            .search(&text, CONSIDERED)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        // What the hits are and where they are sold: the catalog the lists hold (no query).
        let listed = crate::catalog::list::listed(ctx)?;
        let area = crate::catalog::area_of(ctx, q.barangay)?;
        let limit = limit as usize;
        let (mut products, mut elsewhere) = (Vec::new(), Vec::new());
        // Best match first: the order of the hits.
        for hit in &hits {
            let Some(p) = i32::try_from(hit.id)
                .ok()
                .and_then(|id| listed.get(domain::ProductId::from_db(id)))
            else {
                continue;
            };
            let here = p.orderable && area.is_some_and(|a| listed.sold_in(a, p.id).is_some());
            let list = if here { &mut products } else { &mut elsewhere };
            if list.len() < limit {
                list.push(p.clone());
            }
        }
        Ok(SearchAnswer {
            q: text,
            products,
            elsewhere,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search's query states the limits its call checks (as the lists' query does:
    /// `catalog::tests::the_lists_query_states_the_constants`).
    #[test]
    fn the_search_query_states_the_constants() {
        let params = SearchQuery::into_params(|| None);
        let param = |name: &str| {
            let p = params.iter().find(|p| p.name == name).expect(name);
            serde_json::to_value(p).unwrap()
        };
        assert_eq!(param("q")["schema"]["maxLength"], MAX_QUERY);
        assert_eq!(param("limit")["schema"]["maximum"], MAX_LIMIT);
        let q = param("q")["description"].as_str().unwrap().to_string();
        assert!(
            q.contains(&format!("at most {MAX_QUERY} characters")),
            "{q}"
        );
        let limit = param("limit")["description"].as_str().unwrap().to_string();
        assert!(
            limit.contains(&format!("1 to {MAX_LIMIT} ({PAGE} unless given)")),
            "{limit}"
        );
    }

    #[test]
    fn a_query_is_trimmed_and_not_too_long() {
        assert_eq!(
            query_of(Some("  habagat lata ")).unwrap().as_deref(),
            Some("habagat lata")
        );
        for none in [None, Some(""), Some("   \t ")] {
            assert_eq!(query_of(none).unwrap(), None);
        }
        assert!(query_of(Some(&"é".repeat(MAX_QUERY))).is_ok());
        assert!(matches!(
            query_of(Some(&"é".repeat(MAX_QUERY + 1))),
            Err(ApiError::Refused { field: "q", .. })
        ));
    }
}
