//! The OpenAPI 3.1 document of every JSON call, built from the registry and the calls' types:
//! served at `/api/openapi.json` and kept as `crates/api/openapi.json` (a test holds the file in
//! step with the code).

use std::sync::OnceLock;

use utoipa::openapi::path::{Operation, OperationBuilder, ParameterIn, PathItem};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, PathsBuilder, Ref,
    RefOr, Schema,
};
use utoipa::{IntoParams, PartialSchema, ToSchema};

use crate::endpoint::{Body, Endpoint, Method};
use crate::error::{ErrorBody, ValidationErrorBody};
use crate::registry::endpoints;

fn json_response(description: &str, schema: RefOr<Schema>) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(schema)).build(),
        )
        .build()
}

fn error_description(status: u16) -> &'static str {
    match status {
        400 => "Malformed input: the message names the parameter.",
        404 => "Something named in the request does not exist.",
        401 => "Not logged in.",
        422 => "A field needs correcting.",
        403 => "Sent from another site's page: the Origin (or Sec-Fetch-Site) names another site.",
        414 => "The address (path and query) is longer than 2,000 bytes.",
        415 => "The body is not application/json.",
        429 => "Too many attempts; try again after Retry-After seconds.",
        502 => "A service the call needs (the social provider) did not answer; try again.",
        503 => "The store is busy or under maintenance; try again later.",
        _ => "Failure.",
    }
}

/// The session token sent as `Authorization: Bearer` (from `access-token` of guest-token or login).
const BEARER: &str = "bearer";
/// The same token in the HttpOnly `session` cookie a browser keeps.
const COOKIE: &str = "session";

/// One call's operation; the schemas it refers to land in `components`.
pub fn operation<E: Endpoint>(components: &mut Vec<(String, RefOr<Schema>)>) -> Operation {
    let mut params = E::Path::into_params(|| Some(ParameterIn::Path));
    params.extend(E::Query::into_params(|| Some(ParameterIn::Query)));
    params.extend(E::Headers::into_params(|| Some(ParameterIn::Header)));
    E::Answer::schemas(components);
    let mut op = OperationBuilder::new()
        .operation_id(Some(E::NAME))
        .summary(Some(E::SUMMARY))
        .parameters(Some(params))
        .response(
            E::STATUS.to_string(),
            json_response("The answer.", E::Answer::schema()),
        );
    for also in E::ALSO {
        op = op.response(
            also.to_string(),
            json_response("The answer.", E::Answer::schema()),
        );
    }
    if let Some((schema, required)) = E::Body::doc(components) {
        op = op.request_body(Some(
            RequestBodyBuilder::new()
                .content(
                    "application/json",
                    ContentBuilder::new().schema(Some(schema)).build(),
                )
                .required(Some(if required {
                    utoipa::openapi::Required::True
                } else {
                    utoipa::openapi::Required::False
                }))
                .build(),
        ));
    }
    // Every call may answer 400, 414 and 503; every write 403 (another site's page) and 415 too.
    let writes: &[u16] = if E::METHOD == crate::Method::Get {
        &[]
    } else {
        &[403, 415]
    };
    let mut statuses: Vec<u16> = [400, 414, 503]
        .iter()
        .chain(E::ERRORS)
        .chain(writes)
        .copied()
        .collect();
    statuses.sort_unstable();
    statuses.dedup();
    // Who may call: a call that can answer 401 needs a session (a member's, for most), sent as
    // the bearer token or the session cookie; other calls of the session take one if there is.
    if E::ACCESS != crate::endpoint::Access::Public {
        let bearer = SecurityRequirement::new(BEARER, Vec::<String>::new());
        let cookie = SecurityRequirement::new(COOKIE, Vec::<String>::new());
        let mut ways = vec![bearer, cookie];
        if !E::ERRORS.contains(&401) {
            ways.push(SecurityRequirement::default());
        }
        op = op.securities(Some(ways));
    }
    for status in &statuses {
        let schema = if *status == 422 {
            ValidationErrorBody::name()
        } else {
            ErrorBody::name()
        };
        op = op.response(
            status.to_string(),
            json_response(
                error_description(*status),
                RefOr::Ref(Ref::from_schema_name(schema)),
            ),
        );
    }
    op.build()
}

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

/// The document as pretty JSON, made once.
pub fn json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let mut text = document()
            .to_pretty_json()
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        text.push('\n');
        text
    })
}
