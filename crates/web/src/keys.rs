//! Query keys: the API path plus its query string, made from a route's template by filling its
//! variables. The TypeScript twin is `ui/src/lib/keys.ts`; both are tested against
//! `ui/src/lib/keys.cases.json`.

use std::collections::BTreeMap;

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// What JavaScript's `encodeURIComponent` leaves alone.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

pub type Vars = BTreeMap<String, String>;

fn encode(s: &str) -> String {
    utf8_percent_encode(s, COMPONENT).to_string()
}

/// Fills `{name}` in the path with the encoded variable (empty when unset) and keeps only the
/// query parameters whose variable is set.
pub fn fill_template(template: &str, vars: &Vars) -> String {
    let (path_t, query_t) = match template.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (template, None),
    };
    let var = |name: &str| vars.get(name).map(String::as_str).filter(|v| !v.is_empty());
    let mut path = String::with_capacity(template.len());
    let mut rest = path_t;
    while let Some(open) = rest.find('{') {
        match rest[open..].find('}') {
            Some(close) => {
                path.push_str(&rest[..open]);
                path.push_str(&encode(var(&rest[open + 1..open + close]).unwrap_or("")));
                rest = &rest[open + close + 1..];
            }
            None => break,
        }
    }
    path.push_str(rest);
    let Some(query_t) = query_t else {
        return path;
    };
    let mut parts = Vec::new();
    for pair in query_t.split('&') {
        let (name, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let value = match raw.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            Some(v) => var(v),
            None => Some(raw).filter(|r| !r.is_empty()),
        };
        if let Some(value) = value {
            parts.push(format!("{name}={}", encode(value)));
        }
    }
    if parts.is_empty() {
        path
    } else {
        format!("{path}?{}", parts.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Case {
        template: String,
        vars: Vars,
        key: String,
    }

    #[test]
    fn agrees_with_the_typescript_twin_on_the_shared_table() {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../../ui/src/lib/keys.cases.json")).unwrap();
        assert!(cases.len() >= 5);
        for c in cases {
            assert_eq!(fill_template(&c.template, &c.vars), c.key, "{}", c.template);
        }
    }
}
