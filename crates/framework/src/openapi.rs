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
    let paths = paths(&mut components);
    components.sort_by(|a, b| a.0.cmp(&b.0));
    components.dedup_by(|a, b| a.0 == b.0);
    let schemes = own_cookies(ComponentsBuilder::new());
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
        .paths(paths)
        .components(Some(
            schemes
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

/// Every call's operation under its path; the schemas they refer to land in `components`.
fn paths(components: &mut Vec<(String, RefOr<Schema>)>) -> utoipa::openapi::Paths {
    let links: Vec<(&'static str, &'static crate::endpoint::Link)> = endpoints()
        .iter()
        .flat_map(|e| e.links().iter().map(move |l| (e.name(), l)))
        .collect();
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
            PathItem::new(method, e.operation(components, &links)),
        );
    }
    paths.build()
}

/// The security schemes of the features' own session cookies the calls name (the staff's), and
/// of the headers that sign a call instead (PayMongo's webhook).
fn own_cookies(mut schemes: ComponentsBuilder) -> ComponentsBuilder {
    let mut own: Vec<(&str, &str)> = endpoints().iter().filter_map(|e| e.credential()).collect();
    own.sort_unstable();
    own.dedup();
    for (name, said) in own {
        schemes = schemes.security_scheme(
            name,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(name, said))),
        );
    }
    // The headers that prove a call's sender instead of a session (a webhook's signature).
    let mut signed: Vec<(&str, &str)> = endpoints().iter().filter_map(|e| e.signature()).collect();
    signed.sort_unstable();
    signed.dedup();
    for (name, said) in signed {
        schemes = schemes.security_scheme(
            name,
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(name, said))),
        );
    }
    schemes
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

/// Merges what each call's whole body must hold ([`crate::Endpoint::BODY_RULES`]) into the
/// body's schema.
fn body_rules(doc: &mut serde_json::Value) {
    for (component, rules) in endpoints().iter().filter_map(|e| e.body_rules()) {
        if let (Some(schema), Ok(serde_json::Value::Object(rules))) = (
            doc.pointer_mut(&format!("/components/schemas/{component}"))
                .and_then(|s| s.as_object_mut()),
            serde_json::from_str::<serde_json::Value>(rules),
        ) {
            schema.extend(rules);
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

/// The document as pretty JSON, made once.
pub fn json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let mut doc = serde_json::to_value(document()).unwrap_or_default();
        link_field_names(&mut doc);
        body_rules(&mut doc);
        testdates(&mut doc);
        let mut text = serde_json::to_string_pretty(&doc)
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        text.push('\n');
        text
    })
}
