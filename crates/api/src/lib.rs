//! The store's features, each a module over the API's framework (crate `framework`): its calls
//! (typed [`framework::Endpoint`]s, registered where they are declared), its views and its rules.
//! Features use the framework, `db` and `domain`; the framework knows none of them.
//!
//! - `gate`: the gates' choices (cookies) checked against the database, which gate opens, and the
//!   gate forms without JavaScript.
//! - `locations`: provinces, cities, barangays and streets, and where the store sells.
//! - `catalog`: packagings, products, banners, promos.
//! - `content`: the store's texts, the location notice.
//! - `newsletter`: signing up by a confirmation link, and the footer's form without JavaScript.
//! - `sessions`: a guest's session.
//! - `accounts`: registration (by a mailed link or a social provider), login, the member.
//! - `profile`: the member's own details, policy, password and its reset, deletion.
//! - `addresses`: a member's saved addresses.
//! - `cart`: the cart (read, add, change, empties, checkout's verification, the visitor's
//!   parts, the carts at login) and its pricing.
//! - `orders`: Submit Order and reading orders.
//! - `goto_cases`: a member's Go-to Cases, and refilling the cart from one or from an order.
//! - `search`: the catalog found by a shopper's words.

pub mod accounts;
pub mod addresses;
pub mod cart;
pub mod catalog;
pub mod content;
pub mod gate;
pub mod goto_cases;
pub mod locations;
pub mod newsletter;
pub mod orders;
pub mod payments;

pub mod profile;
pub mod search;

pub mod sessions;
pub mod staff;

/// What the framework makes of the features registered here: the generated contract, the
/// document's facts and links, the mail templates, the registry.
#[cfg(test)]
mod registered_tests {
    use std::path::PathBuf;

    #[test]
    fn names_and_routes_are_unique() {
        let all = framework::registry::endpoints();
        assert!(!all.is_empty(), "the features' calls are registered");
        let mut names: Vec<&str> = all.iter().map(|e| e.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "two calls share a name");
        let mut routes: Vec<(&str, &str)> = all
            .iter()
            .map(|e| (e.method().as_str(), e.path()))
            .collect();
        routes.sort();
        routes.dedup();
        assert_eq!(routes.len(), all.len(), "two calls share a route");
    }

    #[test]
    fn names_are_escaped_in_html_and_kept_in_text() {
        let mail = framework::mail::Mail::render(
            "password_reset",
            "juan@example.com",
            "Reset your password",
            &serde_json::json!({
                "first_name": "<script>x</script>",
                "link": "http://localhost:8080/reset-password?suid=abc",
                "minutes": 60,
            }),
        )
        .unwrap();
        assert!(
            mail.text.starts_with("Hi <script>x</script>,\n"),
            "{}",
            mail.text
        );
        assert!(mail
            .text
            .contains("\nhttp://localhost:8080/reset-password?suid=abc\n"));
        assert!(mail.text.contains("within 60 minutes"));
        assert!(!mail.html.contains("<script>"), "{}", mail.html);
        assert!(
            mail.html
                .contains("Hi &lt;script&gt;x&lt;&#x2F;script&gt;,"),
            "{}",
            mail.html
        );
        assert!(mail
            .html
            .contains("<a href=\"http://localhost:8080/reset-password?suid=abc\">"));
    }

    #[test]
    fn a_registration_mail_carries_nothing_a_stranger_typed() {
        let mail = framework::mail::Mail::render(
            "registration",
            "juan@example.com",
            "Finish creating your account",
            &serde_json::json!({
                "first_name": "Win a prize: evil.example",
                "link": "L",
                "hours": 24,
            }),
        )
        .unwrap();
        assert!(!mail.text.contains("prize") && !mail.html.contains("prize"));
        assert!(mail.text.starts_with("Hello,\n"), "{}", mail.text);
    }

    #[test]
    fn every_template_renders() {
        let values = serde_json::json!({
            "first_name": "Juan", "link": "L", "base": "B", "hours": 1, "minutes": 2, "days": 3,
        });
        for name in [
            "account_exists",
            "no_account",
            "registration",
            "password_reset",
            "newsletter_confirm",
        ] {
            let mail = framework::mail::Mail::render(name, "a@b.c", "s", &values).unwrap();
            assert!(
                !mail.text.contains("{{") && !mail.html.contains("{{"),
                "{name}"
            );
        }
    }

    /// A body's field the call cannot do without is required and never `null`: the call
    /// answers 422 naming it when it is missing or null.
    #[test]
    fn required_fields_are_never_null() {
        let doc: serde_json::Value = serde_json::from_str(framework::openapi::json()).unwrap();
        let mut required = 0;
        for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
            for field in schema["required"].as_array().into_iter().flatten() {
                let f = &schema["properties"][field.as_str().unwrap()];
                assert!(f.is_object(), "{name}.{field}");
                assert!(!f.to_string().contains(r#""null""#), "{name}.{field}: {f}");
                required += 1;
            }
        }
        assert!(required > 50, "{required}");
    }

    /// The document's bounds on quantities and lists are the cart's (the orders a staff move
    /// names, the staff's; a run's stops, dispatch's): an attribute takes a number written out, so the test holds each to
    /// the constant.
    #[test]
    fn quantities_and_lists_are_bounded_as_the_cart_is() {
        fn walk(v: &serde_json::Value, at: &str, found: &mut usize) {
            match v {
                serde_json::Value::Object(map) => {
                    if let Some(max) = map.get("maxItems") {
                        if at.contains("/RunForm/") || at.contains("/StopsForm/") {
                            assert_eq!(max, domain::dispatch::MAX_STOPS, "{at}");
                        } else if at.contains("/CitiesForm/") || at.contains("/ProductForm/") {
                            assert_eq!(max, crate::staff::catalog::cities::MOST, "{at}");
                        } else if at.ends_with("/order_ids") {
                            assert_eq!(max, crate::staff::orders::status::MAX_ORDERS, "{at}");
                        } else {
                            assert_eq!(max, domain::cases::MAX_PRODUCTS, "{at}");
                        }
                        *found += 1;
                    }
                    for (k, child) in map {
                        if k == "quantity" {
                            if let Some(max) = child.get("maximum") {
                                assert_eq!(max, domain::cases::MAX_QUANTITY, "{at}");
                                *found += 1;
                            }
                        }
                        walk(child, &format!("{at}/{k}"), found);
                    }
                }
                serde_json::Value::Array(items) => {
                    items.iter().for_each(|i| walk(i, at, found));
                }
                _ => {}
            }
        }
        let doc: serde_json::Value = serde_json::from_str(framework::openapi::json()).unwrap();
        let mut found = 0;
        walk(&doc, "", &mut found);
        assert!(found >= 8, "{found}");
    }

    #[test]
    fn every_link_joins_two_calls_by_parameters_the_second_has() {
        let doc: serde_json::Value = serde_json::from_str(framework::openapi::json()).unwrap();
        let op = |name: &str| {
            doc["paths"]
                .as_object()
                .unwrap()
                .values()
                .flat_map(|item| item.as_object().unwrap().values())
                .find(|op| op["operationId"] == name)
                .cloned()
                .unwrap_or_else(|| panic!("no operation {name}"))
        };
        let mut count = 0;
        for target in framework::registry::endpoints() {
            let to = target.name();
            for link in target.links() {
                count += 1;
                let (from, name) = (link.from, link.name);
                let source = op(from);
                let target = op(to);
                let names: Vec<&str> = target["parameters"]
                    .as_array()
                    .map(|p| p.iter().filter_map(|p| p["name"].as_str()).collect())
                    .unwrap_or_default();
                for (param, expression) in link.params {
                    assert!(
                        names.contains(param),
                        "{from} -> {to}: no parameter {param}"
                    );
                    assert!(
                        expression.starts_with("$response.body#/")
                            || expression.starts_with("$request.")
                    );
                }
                if let Some(body) = link.body {
                    assert!(
                        serde_json::from_str::<serde_json::Value>(body).is_ok(),
                        "{name}"
                    );
                    assert!(!target["requestBody"].is_null(), "{from} -> {to}: no body");
                    assert!(source["responses"]
                        .as_object()
                        .unwrap()
                        .values()
                        .any(|r| !r["links"][name]["requestBody"].is_null()));
                }
                let answered = source["responses"]
                    .as_object()
                    .unwrap()
                    .values()
                    .any(|r| r["links"][name]["operationId"] == to);
                assert!(answered, "{from}: no link {name} in its answer");
            }
        }
        assert!(count > 10, "{count} links");
    }

    /// The generated files in the repository match the code (`make contract` rewrites them:
    /// `UPDATE_CONTRACT=1 cargo test -p api contract`). The calls are this crate's, so the test
    /// is here, where they are registered.
    #[test]
    fn contract_files_are_current() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let files = [
            (
                "crates/api/openapi.json",
                framework::openapi::json().to_string(),
            ),
            (
                "ui/src/api/contract.gen.ts",
                framework::contract::typescript(),
            ),
        ];
        let update = std::env::var("UPDATE_CONTRACT").is_ok_and(|v| v == "1");
        for (path, text) in files {
            let file = root.join(path);
            if update {
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(&file, &text).unwrap();
                continue;
            }
            let kept = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(kept == text, "{path} is stale: run `make contract`");
        }
    }
}
