//! The route table exported by the front-end build (`ui/dist/routes.json`, from
//! `ui/src/routes.ts`), and path matching.

use api::gate::location_steps;
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
    /// Kept out of search indexes though it has no forms (the offline page).
    #[serde(default)]
    pub noindex: bool,
    /// Links the account pages' stylesheet though the page has no forms (an order's page).
    #[serde(default, rename = "accountStyles")]
    pub account_styles: bool,
    /// The page holds account forms: rendered for its visitor each time (with the session's CSRF
    /// token), never kept in the shared cache.
    #[serde(default)]
    pub forms: bool,
    pub title: String,
    pub description: String,
    pub data: Vec<String>,
    /// The query parameters the page reads: nothing else of a query reaches its render or its
    /// cache key.
    pub params: Vec<String>,
    /// Of those, the ones its canonical address keeps.
    pub canonical: Vec<String>,
    /// Where to send the browser when the page's own data does not exist (an unknown product).
    #[serde(default)]
    pub missing: Option<String>,
    /// The address is only ever sent on (302) to this one.
    #[serde(default)]
    pub redirect: Option<String>,
    /// Where a visitor goes (302) whom the page's own data does not know (it answers 401): the
    /// sign-in of the session it needs. Nothing of the page is rendered for them.
    #[serde(default, rename = "signIn")]
    pub sign_in: Option<String>,
    /// Who may see the page, by a field of its own data (a staff member's role): anyone else is
    /// sent on (302) before anything else of it is read.
    #[serde(default)]
    pub only: Option<Only>,
    /// The API calls the page's forms run when posted to its address.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// The session cookie of the feature whose calls the page's forms run (the staff's), when
    /// not the shopper's: the page's CSRF token is derived from it ([`RouteTable::index`] fills
    /// it from the actions' calls, and refuses a page whose forms ride two sessions).
    #[serde(skip)]
    pub session_cookie: Option<&'static str>,
}

/// A page's audience (routes.ts `only`): the answer of `data` (the page's first data template)
/// must hold one of `values` at `field` (a JSON pointer); anyone else is sent to `to`.
#[derive(Debug, Clone, Deserialize)]
pub struct Only {
    pub data: String,
    pub field: String,
    pub values: Vec<String>,
    pub to: String,
}

impl Only {
    /// Whether an answer of its data lets the visitor see the page.
    pub fn admits(&self, answer: &serde_json::Value) -> bool {
        answer
            .pointer(&self.field)
            .and_then(serde_json::Value::as_str)
            .is_some_and(|v| self.values.iter().any(|allowed| allowed == v))
    }
}

/// A destination an answer names ([`Action::answer_to`]).
#[derive(Debug, Clone, Deserialize)]
pub struct AnswerTo {
    /// A JSON pointer into the answer (`/data/cart_conflict`).
    pub field: String,
    pub to: String,
}

/// A page form that runs an API call (routes.ts `action`): posted to the page's address with the
/// call's name in `_call`, its fields parse into the call's path and body types.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Action {
    /// The call's name in the registry.
    pub call: String,
    /// Where the browser goes once the call succeeded.
    pub done: String,
    /// Where it goes instead, by the value of one field (`from=checkout` -> `/checkout`).
    #[serde(default)]
    pub done_by: Option<DoneBy>,
    /// What the form says of a failure other than field errors or a rate limit.
    #[serde(default)]
    pub fallback: Option<String>,
    /// Fields that must be sent, with what the form says when one is not (a confirmation box).
    #[serde(default)]
    pub required: std::collections::BTreeMap<String, String>,
    /// The field that carries the registration link's token (the API's `registration-token`).
    #[serde(default)]
    pub link_token: Option<String>,
    /// Where the browser goes instead when the answer says so: the first whose field (a JSON
    /// pointer into the answer) is `true` or text that is not empty (a login whose guest cart
    /// could not join the member's goes to the cart page, which asks which to keep).
    #[serde(default)]
    pub answer_to: Vec<AnswerTo>,
    /// Fields a form sends several times (the board's ticked orders), joined by commas into
    /// one value for the call (whose body reads `42,57` as a list); other repeated fields keep
    /// their last value.
    #[serde(default)]
    pub lists: Vec<String>,
    /// The answer is an address that becomes the shop's location (the gate's cookies).
    #[serde(default)]
    pub location: bool,
    /// The field of the answer that says where the browser goes (a placed order's `link`): a path
    /// of the store, else `done`.
    #[serde(default)]
    pub answer_link: Option<String>,
    /// The field of the answer naming another site's page the server itself asked for (an
    /// order's payment page, from the payment gateway): when it is set, the browser goes there,
    /// before `answer_link`. Only a field the server fills from a service it trusts, never from
    /// what a visitor sent, may be named here.
    #[serde(default)]
    pub answer_away: Option<String>,
    /// Without a live session the post starts a guest's (and needs no CSRF token when it brings no
    /// session cookie: there is no session to ride): the cart's forms on shared pages.
    #[serde(default)]
    pub starts_session: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct DoneBy {
    pub field: String,
    pub to: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RouteTable {
    pub routes: Vec<RouteDef>,
    #[serde(rename = "notFound")]
    pub not_found: RouteDef,
    /// What every page shows while the store is under maintenance.
    pub maintenance: RouteDef,
    /// The location gate's key templates (`GATE_KEYS` of routes.ts).
    pub gate: GateKeys,
    /// The routes without `{...}` segments, by their path's segments joined with `/`: what every
    /// page request asks before the cache (guard, forms, the parameters it reads), answered
    /// without matching every route.
    #[serde(skip)]
    fixed: std::collections::HashMap<String, usize>,
    /// The routes with `{...}` segments that have a guard, forms or actions (an order's page of
    /// the back office): matched after the fixed ones, before anything of the visitor is read.
    #[serde(skip)]
    guarded: Vec<usize>,
    /// Each route's path, kept for the life of the process: the metrics' label for its requests.
    #[serde(skip)]
    templates: Vec<&'static str>,
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
    /// A member's saved addresses (their location gate offers them).
    pub saved_addresses: String,
}

/// A path as the route table matches it: its non-empty segments, joined with `/`.
pub(crate) fn normal(path: &str) -> std::borrow::Cow<'_, str> {
    // The common case, `/buy-beer`, is already normal: no allocation on the hot path.
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    if !trimmed.contains("//") && !trimmed.ends_with('/') && !trimmed.starts_with('/') {
        return std::borrow::Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(path.len());
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(seg);
    }
    std::borrow::Cow::Owned(out)
}

/// Every variable of `templates` must be one the planner fills or one of the route's own.
fn check_variables(name: &str, templates: &[String], own: &[&str]) -> Result<(), String> {
    for template in templates {
        for var in crate::keys::variables(template) {
            if !VARS.contains(&var) && !own.contains(&var) {
                return Err(format!(
                    "{name}: {template} uses {{{var}}}, which no page fills"
                ));
            }
        }
    }
    Ok(())
}

impl GateKeys {
    fn all(&self) -> Vec<String> {
        [
            &self.policy,
            &self.packagings,
            &self.fulfillments,
            &self.provinces,
            &self.cities,
            &self.keg_cities,
            &self.barangays,
            &self.streets,
            &self.saved_addresses,
        ]
        .map(String::clone)
        .to_vec()
    }
}

impl RouteTable {
    /// Indexes the routes (after loading the table) and checks their declarations: every
    /// variable of a route's data must be one the planner fills ([`VARS`]) or one
    /// of its path, so a misspelt `{gateCity}` stops the store at start instead of silently
    /// never loading.
    pub fn index(&mut self) -> Result<(), String> {
        self.templates = self
            .routes
            .iter()
            .map(|r| framework::observe::intern(&r.path))
            .collect();
        for r in &mut self.routes {
            let mut cookies = r.actions.iter().filter_map(|a| {
                framework::registry::by_name(&a.call).map(|e| e.credential().map(|(c, _)| c))
            });
            let first = cookies.next().flatten();
            if cookies.any(|c| c != first) {
                return Err(format!("route {}: its forms ride two sessions", r.name));
            }
            r.session_cookie = first;
        }
        for (i, r) in self.routes.iter().enumerate() {
            let own: Vec<&str> = r
                .path
                .split('/')
                .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
                .collect();
            // A variable may also be one of the route's own query parameters.
            let named: Vec<&str> = own
                .iter()
                .copied()
                .chain(r.params.iter().map(String::as_str))
                .collect();
            check_variables(&r.name, &r.data, &named)?;
            if let Some(only) = &r.only {
                // Read first, so nothing else of the page is read for someone who may not see it.
                // Rendered for each visitor (a page with forms), never shared between them.
                if r.data.first() != Some(&only.data) || only.values.is_empty() || !r.forms {
                    return Err(format!(
                        "route {}: `only` must name the page's first data and some values, on a \
                         page with forms",
                        r.name
                    ));
                }
            }
            for a in &r.actions {
                match framework::registry::by_name(&a.call) {
                    Some(e) if e.access() == framework::Access::Write => {}
                    Some(_) => return Err(format!("route {}: {} is no write", r.name, a.call)),
                    None => return Err(format!("route {}: no API call {}", r.name, a.call)),
                }
            }
            if own.is_empty() {
                self.fixed.insert(normal(&r.path).into_owned(), i);
            } else if r.forms || r.guard != Guard::None || !r.actions.is_empty() {
                self.guarded.push(i);
            }
        }
        check_variables("the gates", &self.gate.all(), &[])
    }

    /// The route whose guard, forms and parameters a request meets before the cache: a path
    /// without `{...}` segments, looked up at once, or one of the few routes with segments and a
    /// guard, forms or actions; `None` for the others (a page any visitor shares).
    pub fn fixed(&self, path: &str) -> Option<&RouteDef> {
        self.fixed
            .get(normal(path).as_ref())
            .map(|&i| &self.routes[i])
            .or_else(|| {
                self.guarded
                    .iter()
                    .map(|&i| &self.routes[i])
                    .find(|r| framework::registry::match_path(&r.path, path).is_some())
            })
    }

    /// The query parameters the page at `path` reads.
    pub fn params(&self, path: &str) -> &[String] {
        match self.fixed(path) {
            Some(r) => &r.params,
            None => &self.find(path).0.params,
        }
    }

    /// The path template of the route that answers `path` (the metrics' and the access log's
    /// name for it, never the path's own ids or slugs); `None` for the not-found page. Allocates
    /// nothing for a normal path.
    pub fn template(&self, path: &str) -> Option<&'static str> {
        let i = match self.fixed.get(normal(path).as_ref()) {
            Some(&i) => i,
            None => {
                let segments = || path.split('/').filter(|s| !s.is_empty());
                self.routes.iter().position(|r| {
                    let template = r.path.split('/').filter(|s| !s.is_empty());
                    r.path.contains('{')
                        && template.clone().count() == segments().count()
                        && template
                            .zip(segments())
                            .all(|(t, s)| (t.starts_with('{') && t.ends_with('}')) || t == s)
                })?
            }
        };
        self.templates.get(i).copied()
    }

    /// The route of a path and the values of its `{name}` segments; the not-found route otherwise.
    pub fn find(&self, path: &str) -> (&RouteDef, Vars) {
        self.routes
            .iter()
            .find_map(|r| {
                framework::registry::match_path(&r.path, path).map(|p| (r, p.into_iter().collect()))
            })
            .unwrap_or_else(|| (&self.not_found, Vars::new()))
    }
}

/// The variables the planner fills for a page's data (besides its path's own `{name}`s): the
/// shopper's barangay and packaging (gate cookies, or the `filterByType` family), the test date,
/// an emailed link's `token`, a list's sort, filters and page, and the no-JS location gate's steps
/// ([`location_steps`]). A route's data may use only these ([`RouteTable::index`] refuses others).
pub const VARS: [&str; 18] = [
    "barangay",
    "q",
    "sort",
    "style",
    "brand",
    "size",
    "min",
    "max",
    "left",
    "token",
    "key",
    "page",
    "packaging",
    "testdate",
    location_steps::FULFILLMENT_VAR,
    location_steps::PROVINCE_VAR,
    location_steps::CITY_VAR,
    location_steps::BARANGAY_VAR,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> RouteTable {
        serde_json::from_value(serde_json::json!({
            "routes": [
                {"name": "home", "path": "/", "guard": "none", "shop": true, "policy": true, "sitemap": true, "title": "t", "description": "d", "data": [], "params": [], "canonical": []},
                {"name": "buy-beer", "path": "/buy-beer", "guard": "none", "shop": true, "policy": true, "sitemap": true, "title": "t", "description": "d", "data": ["/api/v1/products?barangay={barangay}"], "params": ["filterByType"], "canonical": []},
                {"name": "product", "path": "/single-product/{slug}", "guard": "none", "shop": true, "policy": true, "sitemap": false, "title": "t", "description": "d", "data": ["/api/v2/products/{slug}"], "params": [], "canonical": []}
            ],
            "notFound": {"name": "not-found", "path": "", "guard": "none", "shop": false, "policy": true, "sitemap": false, "title": "t", "description": "d", "data": [], "params": [], "canonical": []},
            "maintenance": {"name": "maintenance", "path": "/maintenance", "guard": "none", "shop": false, "policy": false, "sitemap": false, "title": "t", "description": "d", "data": [], "params": [], "canonical": []},
            "gate": {"policy": "a", "packagings": "b", "fulfillments": "c", "provinces": "d", "cities": "e", "kegCities": "f", "barangays": "g", "streets": "h", "savedAddresses": "i"}
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
        let mut t = t;
        t.index().unwrap();
        assert_eq!(t.template("/buy-beer/"), Some("/buy-beer"));
        assert_eq!(t.template("/"), Some("/"));
        assert_eq!(
            t.template("/single-product/tala-light"),
            Some("/single-product/{slug}")
        );
        assert_eq!(t.template("/single-product/a/b"), None);
        assert_eq!(t.template("/nope"), None);
        assert_eq!(t.find("/").0.name, "home");
        assert_eq!(t.find("//").0.name, "home");
    }

    #[test]
    fn the_fixed_index_answers_as_find_does() {
        let mut t = table();
        t.routes.push(RouteDef {
            name: "account".into(),
            path: "/my-account/orders".into(),
            guard: Guard::Member,
            forms: true,
            ..t.routes[0].clone()
        });
        t.index().unwrap();
        assert_eq!(t.params("/buy-beer/"), ["filterByType"]);
        assert!(t.params("/single-product/x").is_empty());
        for path in [
            "/my-account/orders",
            "/my-account/orders/",
            "//my-account//orders",
            "/my-account",
            "/buy-beer",
            "/",
        ] {
            let r = t.find(path).0;
            // Every page request asks the index before the cache: it must know each fixed route.
            let fixed = t
                .fixed(path)
                .map(|f| (f.name.as_str(), f.forms, f.guard.clone()));
            let found =
                (r.name != t.not_found.name).then(|| (r.name.as_str(), r.forms, r.guard.clone()));
            assert_eq!(fixed, found, "{path}");
        }
        // A route with a path parameter and a guard is met before the cache too.
        let mut guarded = table();
        guarded.routes[2].guard = Guard::Member;
        guarded.index().unwrap();
        let r = guarded
            .fixed("/single-product/tala")
            .expect("the guarded route");
        assert_eq!(
            (r.name.as_str(), r.guard.clone()),
            ("product", Guard::Member)
        );
        assert!(t.fixed("/single-product/tala").is_none());
    }

    #[test]
    fn a_misspelt_variable_stops_the_table() {
        let mut t = table();
        t.index().unwrap();
        let mut bad = table();
        bad.routes[1].data = vec!["/api/v1/products?barangay={barangayy}".into()];
        let e = bad.index().unwrap_err();
        assert!(e.contains("{barangayy}"), "{e}");
    }
}
