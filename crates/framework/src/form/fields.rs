//! Form fields and query strings as the pages and forms read them.

use std::borrow::Cow;

/// Form fields or a query string, decoded leniently (a malformed escape stays as text): the last of repeated names wins, an empty value
/// counts as absent.
pub struct Fields(Vec<(String, String)>);

impl Fields {
    pub fn parse(body: &[u8]) -> Self {
        Self(
            form_urlencoded::parse(body)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }

    /// Fields read some other way (a `multipart/form-data` form's text parts).
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Self {
        Self(pairs)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty())
    }

    /// The fields as parameter pairs, for typed parsing ([`framework::endpoint::from_pairs`]).
    pub fn pairs(&self) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
        self.0
            .iter()
            .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str())))
    }

    /// A typed id, or `None` when absent or malformed.
    pub fn id<T>(&self, name: &str, parse: fn(&str) -> Option<T>) -> Option<T> {
        self.get(name).and_then(parse)
    }
}
