//! The OpenAPI 3.1 document of every JSON call, built from the registry and the calls' types:
//! served at `/api/openapi.json` and kept as `crates/api/openapi.json` (a test holds the file in
//! step with the code).

use std::sync::OnceLock;

use utoipa::openapi::path::PathItem;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, InfoBuilder, OpenApi, OpenApiBuilder, PathsBuilder, RefOr, Schema,
};
use utoipa::{PartialSchema, ToSchema};

use crate::endpoint::Method;
use crate::error::{ErrorBody, ValidationErrorBody};
use crate::operation::{BEARER, COOKIE};
use crate::registry::endpoints;

/// The whole document.
pub fn document() -> OpenApi {
    fn named<T: ToSchema>() -> (String, RefOr<Schema>) {
        (T::name().into_owned(), T::schema())
    }
    // The ids: parameters refer to them by name.
    let mut components: Vec<(String, RefOr<Schema>)> = vec![
        named::<domain::BarangayId>(),
        named::<domain::CityId>(),
        named::<domain::ProvinceId>(),
        named::<domain::StreetId>(),
        named::<domain::ProductId>(),
        named::<domain::PackagingId>(),
        named::<domain::FulfillmentId>(),
        (ErrorBody::name().into_owned(), ErrorBody::schema()),
        (
            ValidationErrorBody::name().into_owned(),
            ValidationErrorBody::schema(),
        ),
    ];
    // What the error bodies refer to (a refusal's `data`: RefusalData, DisabledProduct).
    ErrorBody::schemas(&mut components);
    let mut paths = PathsBuilder::new();
    for e in endpoints() {
        let method = match e.method() {
            Method::Get => utoipa::openapi::HttpMethod::Get,
            Method::Post => utoipa::openapi::HttpMethod::Post,
            Method::Put => utoipa::openapi::HttpMethod::Put,
            Method::Delete => utoipa::openapi::HttpMethod::Delete,
        };
        paths = paths.path(
            e.path(),
            PathItem::new(method, e.operation(&mut components)),
        );
    }
    components.sort_by(|a, b| a.0.cmp(&b.0));
    components.dedup_by(|a, b| a.0 == b.0);
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Tala Brewing Co. store API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "The JSON calls of the online beer store. Money is in integer centavos.",
                ))
                .build(),
        )
        .paths(paths.build())
        .components(Some(
            ComponentsBuilder::new()
                .schemas_from_iter(components)
                .security_scheme(
                    BEARER,
                    SecurityScheme::Http(
                        HttpBuilder::new()
                            .scheme(HttpAuthScheme::Bearer)
                            .description(Some(
                                "The session token: the access-token header of POST /api/v1/guest-token or POST /api/v1/login.",
                            ))
                            .build(),
                    ),
                )
                .security_scheme(
                    COOKIE,
                    SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                        "session",
                        "The same token in the HttpOnly cookie a browser keeps.",
                    ))),
                )
                .build(),
        ))
        .build()
}

/// utoipa 5.5 writes a link's fields in snake case (`operation_id`, `request_body`); OpenAPI
/// names them `operationId`, `requestBody` and `operationRef`.
fn link_field_names(doc: &mut serde_json::Value) {
    let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) else {
        return;
    };
    for item in paths.values_mut().filter_map(|i| i.as_object_mut()) {
        for op in item.values_mut() {
            let Some(responses) = op.get_mut("responses").and_then(|r| r.as_object_mut()) else {
                continue;
            };
            for response in responses.values_mut() {
                let Some(links) = response.get_mut("links").and_then(|l| l.as_object_mut()) else {
                    continue;
                };
                for link in links.values_mut().filter_map(|l| l.as_object_mut()) {
                    for (from, to) in [
                        ("operation_id", "operationId"),
                        ("operation_ref", "operationRef"),
                        ("request_body", "requestBody"),
                    ] {
                        if let Some(v) = link.remove(from) {
                            link.insert(to.to_string(), v);
                        }
                    }
                }
            }
        }
    }
}

/// What a request body's field must be, as the store's checks take it ([`crate::rules`]): the
/// component, the property, its pattern and its greatest length.
pub const FIELD_RULES: &[(&str, &str, &str, Option<u64>)] = &[
    (
        "RegistrationForm",
        "first_name",
        crate::rules::NAME,
        Some(60),
    ),
    (
        "RegistrationForm",
        "last_name",
        crate::rules::NAME,
        Some(60),
    ),
    ("RegistrationForm", "email", crate::rules::EMAIL, Some(254)),
    ("RegistrationForm", "mobile", crate::rules::MOBILE, None),
    ("RegistrationForm", "birth_date", crate::rules::DATE, None),
    ("ProfileForm", "first_name", crate::rules::NAME, Some(60)),
    ("ProfileForm", "last_name", crate::rules::NAME, Some(60)),
    ("ProfileForm", "mobile", crate::rules::MOBILE, None),
    ("ProfileForm", "birth_date", crate::rules::DATE, None),
    ("SocialForm", "mobile", crate::rules::MOBILE, None),
    ("SocialForm", "birth_date", crate::rules::DATE, None),
    ("SubscribeBody", "email", crate::rules::EMAIL, Some(254)),
    ("ResetRequest", "email", crate::rules::EMAIL, Some(254)),
    (
        "AddressForm",
        "address",
        crate::rules::ADDRESS_LINE,
        Some(200),
    ),
];

/// A property of a component's schema, as an object to change.
fn schema_property<'a>(
    doc: &'a mut serde_json::Value,
    component: &str,
    property: &str,
) -> Option<&'a mut serde_json::Map<String, serde_json::Value>> {
    doc.pointer_mut(&format!(
        "/components/schemas/{component}/properties/{property}"
    ))
    .and_then(|f| f.as_object_mut())
}

/// States [`FIELD_RULES`] in the document's schemas.
fn field_rules(doc: &mut serde_json::Value) {
    for (component, property, pattern, max) in FIELD_RULES {
        let Some(field) = schema_property(doc, component, property) else {
            continue;
        };
        field.insert("pattern".into(), (*pattern).into());
        if let Some(max) = max {
            field.insert("maxLength".into(), (*max).into());
        }
    }
}

/// The fields a body cannot do without: the call answers 422 naming the field when one is
/// missing or null, so the document says required and not nullable.
pub const REQUIRED: &[(&str, &[&str])] = &[
    ("AddToCartBody", &["product_id", "quantity", "barangay"]),
    ("UpdateCartBody", &["product_id", "quantity"]),
    ("RemoveFromCartBody", &["product_id"]),
    ("KeepBody", &["keep"]),
    ("ReturnEmptyBody", &["deposit_id", "cases"]),
    ("Credentials", &["login", "password"]),
    ("SubscribeBody", &["email"]),
    ("ResetRequest", &["email"]),
    ("ConfirmBody", &["token"]),
    ("NewPassword", &["suid", "password"]),
    ("ResetLinkBody", &["suid"]),
    (
        "RegistrationForm",
        &[
            "first_name",
            "last_name",
            "email",
            "mobile",
            "birth_date",
            "accept_terms",
        ],
    ),
    (
        "ProfileForm",
        &["first_name", "last_name", "mobile", "birth_date"],
    ),
    ("AddressForm", &["address", "barangay_id"]),
    ("PasswordChange", &["current_password", "password"]),
    ("DeleteForm", &["current_password"]),
    ("OrderForm", &["barangay", "revision", "expected_total"]),
    ("RefillBody", &["revision"]),
    ("AgainBody", &["revision"]),
    ("VerifyBody", &["barangay"]),
    ("CreateBody", &["cart_items"]),
    ("UpdateBody", &["case_id"]),
    ("RemoveItemsBody", &["case_id", "items"]),
    ("PolicyForm", &["policy_agreement_accepted"]),
];

/// Fields that may be left out but are never `null` (`endpoint::not_null` refuses it).
const NOT_NULL: &[(&str, &[&str])] = &[("UpdateBody", &["name", "product_id", "quantity"])];

/// What a whole body must hold beyond its fields, merged into its schema: a Go-to Case change
/// names something to change, and a product and its quantity come together.
const BODY_FACTS: &[(&str, &str)] = &[(
    "UpdateBody",
    r#"{"anyOf": [{"required": ["name"]}, {"required": ["items"], "properties": {"items": {"minItems": 1}}}, {"required": ["product_id"]}],
        "dependentRequired": {"product_id": ["quantity"], "quantity": ["product_id"]}}"#,
)];

/// Marks [`REQUIRED`] fields required and drops `null` from what they may be.
fn required_fields(doc: &mut serde_json::Value) {
    for (component, fields) in REQUIRED {
        let Some(schema) = doc
            .pointer_mut(&format!("/components/schemas/{component}"))
            .and_then(|s| s.as_object_mut())
        else {
            continue;
        };
        let mut required: Vec<serde_json::Value> = schema
            .get("required")
            .and_then(|r| r.as_array().cloned())
            .unwrap_or_default();
        for field in *fields {
            if !required.iter().any(|r| r == field) {
                required.push((*field).into());
            }
            if let Some(f) = schema
                .get_mut("properties")
                .and_then(|p| p.get_mut(*field))
                .and_then(|f| f.as_object_mut())
            {
                not_null(f);
            }
        }
        schema.insert("required".into(), required.into());
    }
    for (component, fields) in NOT_NULL {
        for field in *fields {
            if let Some(f) = schema_property(doc, component, field) {
                not_null(f);
            }
        }
    }
    for (component, facts) in BODY_FACTS {
        if let (Some(schema), Ok(serde_json::Value::Object(facts))) = (
            doc.pointer_mut(&format!("/components/schemas/{component}"))
                .and_then(|s| s.as_object_mut()),
            serde_json::from_str::<serde_json::Value>(facts),
        ) {
            schema.extend(facts);
        }
    }
}

/// A property schema without its `null` choice (`type: [T, "null"]` or `oneOf: [null, T]`).
fn not_null(field: &mut serde_json::Map<String, serde_json::Value>) {
    if let Some(types) = field.get("type").and_then(|t| t.as_array()) {
        let kept: Vec<serde_json::Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        field.insert(
            "type".into(),
            if kept.len() == 1 {
                kept[0].clone()
            } else {
                kept.into()
            },
        );
    }
    if let Some(choices) = field.get("oneOf").and_then(|o| o.as_array()) {
        let kept: Vec<serde_json::Value> = choices
            .iter()
            .filter(|c| c.get("type").is_none_or(|t| t != "null"))
            .cloned()
            .collect();
        field.remove("oneOf");
        if let [serde_json::Value::Object(only)] = kept.as_slice() {
            for (k, v) in only {
                field.entry(k.clone()).or_insert(v.clone());
            }
        } else {
            field.insert("oneOf".into(), kept.into());
        }
    }
}

/// What else the checks hold a body's field to, as JSON Schema keywords merged into the field:
/// closed sets of values and how many items a list takes.
pub const FIELD_FACTS: &[(&str, &str, &str)] = &[
    ("KeepBody", "keep", r#"{"enum": ["guest", "member"]}"#),
    ("RegistrationForm", "accept_terms", r#"{"enum": [true]}"#),
    (
        "RemoveFromCartBody",
        "product_id",
        r##"{"anyOf": [
            {"type": "array", "items": {"$ref": "#/components/schemas/ProductId"}, "minItems": 1, "maxItems": 50},
            {"$ref": "#/components/schemas/ProductId"},
            {"type": "string", "pattern": "^[1-9][0-9]{0,8}(,[1-9][0-9]{0,8}){0,49}$"}
        ]}"##,
    ),
    (
        "CreateBody",
        "cart_items",
        r#"{"minItems": 1, "maxItems": 50}"#,
    ),
    (
        "RemoveItemsBody",
        "items",
        r#"{"minItems": 1, "maxItems": 50}"#,
    ),
    ("UpdateBody", "name", r#"{"minLength": 1}"#),
    (
        "Credentials",
        "login",
        r#"{"minLength": 1, "maxLength": 254}"#,
    ),
    ("Credentials", "password", r#"{"minLength": 1}"#),
    // A new password: 10 to 128 characters (`domain::account::validate_password`; how easy it
    // is to guess is the store's judgement, a 422).
    ("SocialForm", "password", NEW_PASSWORD),
    ("NewPassword", "password", NEW_PASSWORD),
    ("PasswordChange", "password", NEW_PASSWORD),
];

const NEW_PASSWORD: &str = r#"{"minLength": 10, "maxLength": 128}"#;

/// Merges [`FIELD_FACTS`] into the document's schemas.
fn field_facts(doc: &mut serde_json::Value) {
    for (component, property, facts) in FIELD_FACTS {
        let Some(field) = schema_property(doc, component, property) else {
            continue;
        };
        if let Ok(serde_json::Value::Object(facts)) = serde_json::from_str(facts) {
            if facts.contains_key("anyOf") {
                // The choices say it all: what the field was said to be goes.
                field.retain(|k, _| k == "description");
            }
            field.extend(facts);
        }
    }
}

/// Every `testdate`, in a query or a body, has the shape [`crate::rules::TESTDATE`]; no text
/// in a query is empty.
fn testdates(doc: &mut serde_json::Value) {
    if let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for op in paths
            .values_mut()
            .filter_map(|i| i.as_object_mut())
            .flat_map(|i| i.values_mut())
        {
            for p in op
                .get_mut("parameters")
                .and_then(|p| p.as_array_mut())
                .into_iter()
                .flatten()
            {
                let testdate = p["name"] == "testdate";
                let query = p["in"] == "query";
                let Some(schema) = p.get_mut("schema").and_then(|s| s.as_object_mut()) else {
                    continue;
                };
                if testdate {
                    schema.insert("pattern".into(), crate::rules::TESTDATE.into());
                }
                // A call refuses an empty query value (`endpoint::query_fault`).
                if query && schema.get("type").is_some_and(|t| t == "string") {
                    schema.entry("minLength").or_insert(1.into());
                }
            }
        }
    }
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(|s| s.as_object_mut())
    {
        for field in schemas
            .values_mut()
            .filter_map(|s| s.pointer_mut("/properties/testdate"))
            .filter_map(|f| f.as_object_mut())
        {
            field.insert("pattern".into(), crate::rules::TESTDATE.into());
        }
    }
}

/// Real values of the seeded store, as JSON Schema `examples` (what a client, and the fuzzer's
/// examples and coverage phases, start from): Makati (it sells everything and delivers; Jupiter
/// Street is one of its streets), Tala Pale Pilsen 320 ml, bottles, delivery. A test holds each
/// to the seed.
const EXAMPLES: &[(&str, &str)] = &[
    ("BarangayId", "[1380300002]"),
    ("CityId", "[1380300000]"),
    ("ProvinceId", "[51]"),
    ("StreetId", "[1]"),
    ("ProductId", "[1]"),
    ("PackagingId", "[1]"),
    ("FulfillmentId", "[1]"),
    (
        "AddressForm/properties/address",
        r#"["Unit 5B, 12 Jupiter St."]"#,
    ),
];

/// Writes [`EXAMPLES`] into the document's schemas.
fn examples(doc: &mut serde_json::Value) {
    for (path, values) in EXAMPLES {
        if let (Some(schema), Ok(values)) = (
            doc.pointer_mut(&format!("/components/schemas/{path}"))
                .and_then(|s| s.as_object_mut()),
            serde_json::from_str::<serde_json::Value>(values),
        ) {
            schema.insert("examples".into(), values);
        }
    }
}

/// The document as pretty JSON, made once.
pub fn json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let mut doc = serde_json::to_value(document()).unwrap_or_default();
        link_field_names(&mut doc);
        field_rules(&mut doc);
        required_fields(&mut doc);
        field_facts(&mut doc);
        testdates(&mut doc);
        examples(&mut doc);
        let mut text = serde_json::to_string_pretty(&doc)
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        text.push('\n');
        text
    })
}

#[cfg(test)]
mod link_tests {
    use super::*;

    #[test]
    fn a_new_password_is_bounded_as_the_domain_says() {
        let v: serde_json::Value = serde_json::from_str(NEW_PASSWORD).unwrap();
        assert_eq!(v["minLength"], domain::account::PASSWORD_MIN as u64);
        assert!(domain::account::validate_password(&"x".repeat(129), &[]).is_err());
    }
}
