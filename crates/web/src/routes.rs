//! The route table exported by the front-end build (`ui/dist/routes.json`, from
//! `ui/src/routes.ts`), and path matching.

use serde::Deserialize;

use crate::keys::Vars;

#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Guard {
    None,
    Member,
    Guest,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RouteDef {
    pub name: String,
    pub path: String,
    pub guard: Guard,
    /// Shop pages open the category and location gates until both are chosen.
    pub shop: bool,
    /// Whether the policy modal may show here.
    pub policy: bool,
    /// Listed in sitemap.xml.
    pub sitemap: bool,
    /// The page holds account forms: rendered for its visitor each time (with the session's CSRF
    /// token), never kept in the shared cache.
    #[serde(default)]
    pub forms: bool,
    pub title: String,
    pub description: String,
    pub data: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RouteTable {
    pub routes: Vec<RouteDef>,
    #[serde(rename = "notFound")]
    pub not_found: RouteDef,
    /// The location gate's key templates (`GATE_KEYS` of routes.ts).
    pub gate: GateKeys,
    /// The routes with a guard or forms, by their path's segments joined with `/`: what every
    /// page request asks before the cache, answered without matching every route.
    #[serde(skip)]
    access: std::collections::HashMap<String, (bool, Guard)>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GateKeys {
    pub policy: String,
    pub packagings: String,
    pub fulfillments: String,
    pub provinces: String,
    pub cities: String,
    pub keg_cities: String,
    pub barangays: String,
    pub streets: String,
}

/// A path as the route table matches it: its non-empty segments, joined with `/`.
fn normal(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(seg);
    }
    out
}

impl RouteTable {
    /// Indexes the guarded and form routes (after loading the table). A route with `{...}`
    /// segments must not be one of them: it would be missed here.
    pub fn index(&mut self) -> Result<(), String> {
        for r in &self.routes {
            if r.forms || r.guard != Guard::None {
                if r.path.contains('{') {
                    return Err(format!(
                        "route {} has a guard or forms and a parameter",
                        r.name
                    ));
                }
                self.access
                    .insert(normal(&r.path), (r.forms, r.guard.clone()));
            }
        }
        Ok(())
    }

    /// Whether the page at `path` holds forms, and its guard (the same answer as [`Self::find`]).
    pub fn access(&self, path: &str) -> (bool, Guard) {
        if self.access.is_empty() {
            return (false, Guard::None);
        }
        self.access
            .get(&normal(path))
            .cloned()
            .unwrap_or((false, Guard::None))
    }

    pub fn by_name(&self, name: &str) -> Option<&RouteDef> {
        self.routes.iter().find(|r| r.name == name)
    }

    /// The route of a path and the values of its `{name}` segments; the not-found route otherwise.
    pub fn find(&self, path: &str) -> (&RouteDef, Vars) {
        // Every page request asks (before the cache): no allocation but the path's segments.
        let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        'routes: for route in &self.routes {
            let pattern = route.path.split('/').filter(|s| !s.is_empty());
            if pattern.clone().count() != parts.len() {
                continue;
            }
            let mut params = Vars::new();
            for (seg, part) in pattern.zip(&parts) {
                match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                    Some(name) => {
                        let value = percent_encoding::percent_decode_str(part)
                            .decode_utf8_lossy()
                            .into_owned();
                        params.insert(name.to_string(), value);
                    }
                    None if seg == *part => {}
                    None => continue 'routes,
                }
            }
            return (route, params);
        }
        (&self.not_found, Vars::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> RouteTable {
        serde_json::from_value(serde_json::json!({
            "routes": [
                {"name": "home", "path": "/", "guard": "none", "shop": true, "policy": true, "sitemap": true, "title": "t", "description": "d", "data": []},
                {"name": "buy-beer", "path": "/buy-beer", "guard": "none", "shop": true, "policy": true, "sitemap": true, "title": "t", "description": "d", "data": []},
                {"name": "product", "path": "/single-product/{slug}", "guard": "none", "shop": true, "policy": true, "sitemap": false, "title": "t", "description": "d", "data": []}
            ],
            "notFound": {"name": "not-found", "path": "", "guard": "none", "shop": false, "policy": true, "sitemap": false, "title": "t", "description": "d", "data": []},
            "gate": {"policy": "a", "packagings": "b", "fulfillments": "c", "provinces": "d", "cities": "e", "kegCities": "f", "barangays": "g", "streets": "h"}
        }))
        .unwrap()
    }

    #[test]
    fn matches_exact_paths_and_parameters() {
        let t = table();
        assert_eq!(t.find("/buy-beer").0.name, "buy-beer");
        assert_eq!(t.find("/buy-beer/").0.name, "buy-beer");
        let (r, params) = t.find("/single-product/tala%20light");
        assert_eq!(r.name, "product");
        assert_eq!(params["slug"], "tala light");
        assert_eq!(t.find("/single-product").0.name, "not-found");
        assert_eq!(t.find("/nope").0.name, "not-found");
        assert_eq!(t.find("/").0.name, "home");
        assert_eq!(t.find("//").0.name, "home");
    }

    #[test]
    fn access_answers_as_find_does() {
        let mut t = table();
        t.routes.push(RouteDef {
            name: "account".into(),
            path: "/my-account/orders".into(),
            guard: Guard::Member,
            forms: true,
            ..t.routes[0].clone()
        });
        t.index().unwrap();
        for path in [
            "/my-account/orders",
            "/my-account/orders/",
            "//my-account//orders",
            "/my-account",
            "/buy-beer",
            "/",
        ] {
            let r = t.find(path).0;
            assert_eq!(t.access(path), (r.forms, r.guard.clone()), "{path}");
        }
        let mut bad = table();
        bad.routes[2].guard = Guard::Member;
        assert!(bad.index().is_err());
    }
}
