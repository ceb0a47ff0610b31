//! Query-string parameters, parsed once, with errors that name the parameter.

use crate::error::ApiError;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Parses a raw query string (`a=1&b=2`); percent-decoding as browsers send it.
    pub fn parse(query: &str) -> Result<Self, ApiError> {
        serde_urlencoded::from_str::<Vec<(String, String)>>(query)
            .map(Self)
            .map_err(|_| ApiError::BadRequest("The query string is malformed.".into()))
    }

    /// The last value of a parameter; an empty value counts as absent.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty())
    }

    /// A positive integer id, absent, or a 400 naming the parameter.
    pub fn id(&self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => domain::parse_id(v).map(Some).ok_or_else(|| {
                ApiError::BadRequest(format!("{name} must be a positive whole number."))
            }),
        }
    }
}
