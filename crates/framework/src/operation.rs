//! One call's OpenAPI operation, from its declaration and types: parameters, body, answers
//! (with the links an answer gives the calls that follow it), failures and security.

use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::path::{Operation, OperationBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Schema};
use utoipa::{IntoParams, PartialSchema, ToSchema};

use crate::endpoint::{Body, Endpoint, Link};
use crate::error::{ErrorBody, ValidationErrorBody};

pub(crate) fn json_response(description: &str, schema: RefOr<Schema>) -> utoipa::openapi::Response {
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
        409 => "Where the thing named stands forbids the request now; the message says what.",
        401 => "Not logged in.",
        422 => "A field needs correcting.",
        403 => "Sent from another site's page: the Origin (or Sec-Fetch-Site) names another site.",
        413 => "The body is longer than 16,384 bytes.",
        414 => "The address (path and query) is longer than 2,000 bytes.",
        415 => "The body is not application/json.",
        429 => "Too many attempts; try again after Retry-After seconds.",
        502 => "A service the call needs (the social provider) did not answer; try again.",
        503 => "The store is busy or under maintenance; try again later.",
        _ => "Failure.",
    }
}

/// The session token sent as `Authorization: Bearer` (from `access-token` of guest-token or login).
pub(crate) const BEARER: &str = "bearer";
/// The same token in the HttpOnly `session` cookie a browser keeps.
pub(crate) const COOKIE: &str = "session";

/// Every call's links ([`Endpoint::LINKS`]), each with the name of the call it leads to.
pub type Links = [(&'static str, &'static Link)];

/// The links of the answer of the call named `from`: those of `links` that come from it.
fn add_links(answer: &mut utoipa::openapi::Response, from: &str, links: &Links) {
    for (to, link) in links.iter().filter(|(_, l)| l.from == from) {
        let mut built = LinkBuilder::new().operation_id(*to);
        for (param, expression) in link.params {
            built = built.parameter(*param, *expression);
        }
        if let Some(body) = link.body {
            built = built.request_body(Some(
                serde_json::from_str::<serde_json::Value>(body).unwrap_or_default(),
            ));
        }
        answer
            .links
            .insert(link.name.to_string(), RefOr::T(built.build()));
    }
}

/// The failure statuses of a call, sorted: every call may answer 400, 413 (a body over 16 KiB,
/// read before the call), 414 and 503; every write 403 (another site's page) and 415 too.
fn failures<E: Endpoint>() -> Vec<u16> {
    let writes: &[u16] = if E::METHOD == crate::Method::Get {
        &[]
    } else {
        &[403, 415]
    };
    let mut statuses: Vec<u16> = [400, 413, 414, 503]
        .iter()
        .chain(E::ERRORS)
        .chain(writes)
        .copied()
        .collect();
    statuses.sort_unstable();
    statuses.dedup();
    statuses
}

/// The feature a call belongs to, from the file that declares it: the folders under the crate's
/// `src/`, joined by spaces (`staff/orders/status.rs` is "staff orders", `cart/add.rs` "cart"), or
/// the file's own name at the top (`content.rs` is "content"). The OpenAPI document's tags, so a
/// reader or a generated client sees the calls by feature, as the code is laid out.
pub fn tag_of(file: &str) -> String {
    let file = file.replace('\\', "/");
    let inside = file
        .rsplit_once("/src/")
        .map(|(_, rest)| rest)
        .or_else(|| file.strip_prefix("src/"))
        .unwrap_or(&file);
    let mut parts: Vec<&str> = inside.split('/').collect();
    let name = parts.pop().unwrap_or_default();
    if parts.is_empty() {
        return name.trim_end_matches(".rs").replace('_', " ");
    }
    parts.join(" ").replace('_', " ")
}

/// One call's operation; the schemas it refers to land in `components`.
pub fn operation<E: Endpoint>(
    components: &mut Vec<(String, RefOr<Schema>)>,
    links: &Links,
) -> Operation {
    let mut params = E::Path::into_params(|| Some(ParameterIn::Path));
    params.extend(E::Query::into_params(|| Some(ParameterIn::Query)));
    params.extend(E::Headers::into_params(|| Some(ParameterIn::Header)));
    E::Answer::schemas(components);
    let mut answer = json_response("The answer.", E::Answer::schema());
    add_links(&mut answer, E::NAME, links);
    let mut op = OperationBuilder::new()
        .operation_id(Some(E::NAME))
        .summary(Some(E::SUMMARY))
        .tags((!E::FILE.is_empty()).then(|| vec![tag_of(E::FILE)]))
        .parameters(Some(params))
        .response(E::STATUS.to_string(), answer);
    for also in E::ALSO {
        op = op.response(
            also.to_string(),
            json_response("The answer.", E::Answer::schema()),
        );
    }
    let file = E::Body::file();
    if let Some((schema, required)) = E::Body::doc(components) {
        // A file call's body is its file, as a browser's form data sends it.
        let kind = if file.is_some() {
            "multipart/form-data"
        } else {
            "application/json"
        };
        op = op.request_body(Some(
            RequestBodyBuilder::new()
                .content(kind, ContentBuilder::new().schema(Some(schema)).build())
                .required(Some(if required {
                    utoipa::openapi::Required::True
                } else {
                    utoipa::openapi::Required::False
                }))
                .build(),
        ));
    }
    // Who may call: a call that can answer 401 needs a session (a member's, for most), sent as
    // the bearer token or the session cookie; other calls of the session take one if there is.
    if let Some((header, _)) = E::SIGNATURE {
        // Its sender is proved by the header alone: no session is asked for.
        op = op.securities(Some([SecurityRequirement::new(
            header,
            Vec::<String>::new(),
        )]));
    } else if E::ACCESS != crate::endpoint::Access::Public {
        let bearer = SecurityRequirement::new(BEARER, Vec::<String>::new());
        let cookie = SecurityRequirement::new(COOKIE, Vec::<String>::new());
        let mut ways = match E::CREDENTIAL {
            Some((own, _)) => vec![SecurityRequirement::new(own, Vec::<String>::new())],
            None => vec![bearer, cookie],
        };
        if !E::ERRORS.contains(&401) {
            ways.push(SecurityRequirement::default());
        }
        op = op.securities(Some(ways));
    }
    for status in &failures::<E>() {
        let schema = if *status == 422 {
            ValidationErrorBody::name()
        } else {
            ErrorBody::name()
        };
        let said = match (status, &file) {
            (413, Some(rules)) => rules.too_large,
            (415, Some(rules)) => rules.wrong_type,
            _ => error_description(*status),
        };
        op = op.response(
            status.to_string(),
            json_response(said, RefOr::Ref(Ref::from_schema_name(schema))),
        );
    }
    op.build()
}

#[cfg(test)]
mod tests {
    use super::tag_of;

    #[test]
    fn a_call_s_tag_is_its_feature_s_folder() {
        assert_eq!(
            tag_of("crates/api/src/staff/orders/status.rs"),
            "staff orders"
        );
        assert_eq!(tag_of("crates/api/src/cart/add.rs"), "cart");
        assert_eq!(tag_of("crates/api/src/goto_cases/mod.rs"), "goto cases");
        assert_eq!(tag_of("crates/api/src/staff/mod.rs"), "staff");
        assert_eq!(tag_of("crates/api/src/content.rs"), "content");
        assert_eq!(tag_of("crates\\api\\src\\gate\\mod.rs"), "gate");
        // As file!() names it when the crate is built from its own folder.
        assert_eq!(tag_of("src/cart/add.rs"), "cart");
    }
}
