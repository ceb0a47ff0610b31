//! Query keys: the API path plus its query string, made from a route's template by filling its
//! variables; query parameters whose variable is unset are left out, `{name|default}` stands for
//! the default when the variable is unset, and a key whose path still lacks a variable is
//! incomplete (nobody fetches it). The TypeScript twin is `ui/src/lib/keys.ts`; both are tested
//! against `ui/src/lib/keys.cases.json`.

use std::collections::BTreeMap;

pub type Vars = BTreeMap<String, String>;

pub use framework::form::encode_component;

fn encode(s: &str) -> String {
    encode_component(s)
}

/// The value of `name` or `name|default`.
fn lookup<'a>(vars: &'a Vars, spec: &'a str) -> Option<&'a str> {
    let (name, default) = match spec.split_once('|') {
        Some((n, d)) => (n, Some(d)),
        None => (spec, None),
    };
    vars.get(name)
        .map(String::as_str)
        .filter(|v| !v.is_empty())
        .or(default)
}

/// The `{...}` specs of a path, in order, with the text between them.
fn path_parts(path: &str) -> Vec<(&str, Option<&str>)> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        match rest[open..].find('}') {
            Some(close) => {
                out.push((&rest[..open], Some(&rest[open + 1..open + close])));
                rest = &rest[open + close + 1..];
            }
            None => break,
        }
    }
    out.push((rest, None));
    out
}

pub fn fill_template(template: &str, vars: &Vars) -> String {
    let (path_t, query_t) = match template.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (template, None),
    };
    let mut path = String::with_capacity(template.len());
    for (text, spec) in path_parts(path_t) {
        path.push_str(text);
        if let Some(spec) = spec {
            path.push_str(&encode(lookup(vars, spec).unwrap_or("")));
        }
    }
    let Some(query_t) = query_t else {
        return path;
    };
    let mut parts = Vec::new();
    for pair in query_t.split('&') {
        let (name, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let value = match raw.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            Some(spec) => lookup(vars, spec),
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

/// The names of a template's variables (`{name}` or `{name|default}`), path and query.
pub fn variables(template: &str) -> Vec<&str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}'))
        .map(|(spec, _)| spec.split_once('|').map_or(spec, |(name, _)| name))
        .collect()
}

/// Whether every variable of the template's path has a value (or a default).
pub fn is_complete(template: &str, vars: &Vars) -> bool {
    let path = template.split_once('?').map_or(template, |(p, _)| p);
    path_parts(path)
        .iter()
        .all(|(_, spec)| spec.is_none_or(|s| lookup(vars, s).is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Case {
        template: String,
        vars: Vars,
        key: String,
        complete: bool,
    }

    #[test]
    fn names_the_variables_of_a_template() {
        assert_eq!(
            variables("/api/v2/products/{slug}/barangay/{barangay|0}?testdate={testdate}&x=1"),
            ["slug", "barangay", "testdate"]
        );
        assert!(variables("/api/v1/banners").is_empty());
    }

    #[test]
    fn agrees_with_the_typescript_twin_on_the_shared_table() {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../../ui/src/lib/keys.cases.json")).unwrap();
        assert!(cases.len() >= 10);
        for c in cases {
            assert_eq!(fill_template(&c.template, &c.vars), c.key, "{}", c.template);
            assert_eq!(
                is_complete(&c.template, &c.vars),
                c.complete,
                "complete: {}",
                c.template
            );
        }
    }
}
