//! One call's OpenAPI operation, from its declaration and types: parameters, body, answers
//! (with the links an answer gives the calls that follow it), failures and security.

use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::path::{Operation, OperationBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Schema};
use utoipa::{IntoParams, PartialSchema, ToSchema};

use crate::endpoint::{Body, Endpoint};
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

/// A link of the document: the call whose answer it follows, its name, the call it leads to, that
/// call's parameters and body (JSON, with runtime expressions) from the answer.
pub type LinkDef = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    Option<&'static str>,
);

/// What an answer gives the calls that follow it (OpenAPI links): the ids a client, and the
/// contract test's stateful phase, take from one answer to the next call.
pub const LINKS: &[LinkDef] = &[
    (
        "createAddress",
        "UpdateAddress",
        "updateAddress",
        &[("addressId", "$response.body#/id")],
        None,
    ),
    (
        "createAddress",
        "DeleteAddress",
        "deleteAddress",
        &[("addressId", "$response.body#/id")],
        None,
    ),
    (
        "addToCart",
        "GetCart",
        "cart",
        &[("barangayId", "$response.body#/barangay_id")],
        None,
    ),
    (
        "addToCart",
        "UpdateCart",
        "updateCart",
        &[],
        Some(r#"{"product_id": "$request.body#/product_id", "quantity": 24}"#),
    ),
    (
        "addToCart",
        "RemoveFromCart",
        "removeFromCart",
        &[],
        Some(r#"{"product_id": "$request.body#/product_id"}"#),
    ),
    (
        "addToCart",
        "ReturnEmpty",
        "returnEmpty",
        &[],
        Some(r#"{"deposit_id": "$response.body#/empties/0/deposit_id", "cases": 1}"#),
    ),
    (
        "addToCart",
        "CheckoutVerify",
        "checkoutVerify",
        &[],
        Some(
            r#"{"barangay": "$response.body#/barangay_id", "revision": "$response.body#/revision"}"#,
        ),
    ),
    (
        "placeOrder",
        "GetOrder",
        "order",
        &[("orderId", "$response.body#/order/id")],
        None,
    ),
    (
        "placeOrder",
        "OrderAgain",
        "orderAgain",
        &[("orderId", "$response.body#/order/id")],
        None,
    ),
    (
        "myOrders",
        "GetOrder",
        "order",
        &[("orderId", "$response.body#/orders/0/id")],
        None,
    ),
    (
        "myOrders",
        "OrderAgain",
        "orderAgain",
        &[("orderId", "$response.body#/orders/0/id")],
        None,
    ),
    (
        "createGotoCase",
        "GetGotoCase",
        "gotoCase",
        &[("id", "$response.body#/goto_case/id")],
        None,
    ),
    (
        "createGotoCase",
        "DeleteGotoCase",
        "deleteGotoCase",
        &[("id", "$response.body#/goto_case/id")],
        None,
    ),
    (
        "createGotoCase",
        "GotoCaseToCart",
        "gotoCaseToCart",
        &[("caseId", "$response.body#/goto_case/id")],
        None,
    ),
    (
        "createGotoCase",
        "UpdateGotoCase",
        "updateGotoCase",
        &[],
        Some(r#"{"case_id": "$response.body#/goto_case/id", "name": "Weekend"}"#),
    ),
    (
        "createGotoCase",
        "RemoveGotoCaseItems",
        "removeGotoCaseItems",
        &[],
        Some(
            r#"{"case_id": "$response.body#/goto_case/id", "items": "$request.body#/cart_items"}"#,
        ),
    ),
    (
        "gotoCases",
        "GetGotoCase",
        "gotoCase",
        &[("id", "$response.body#/data/0/id")],
        None,
    ),
];

/// The links of the answer of the call named `from` ([`LINKS`]).
fn add_links(answer: &mut utoipa::openapi::Response, from: &str) {
    for (source, name, to, params, body) in LINKS {
        if *source != from {
            continue;
        }
        let mut link = LinkBuilder::new().operation_id(*to);
        for (param, expression) in *params {
            link = link.parameter(*param, *expression);
        }
        if let Some(body) = body {
            link = link.request_body(Some(
                serde_json::from_str::<serde_json::Value>(body).unwrap_or_default(),
            ));
        }
        answer
            .links
            .insert((*name).to_string(), RefOr::T(link.build()));
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

/// One call's operation; the schemas it refers to land in `components`.
pub fn operation<E: Endpoint>(components: &mut Vec<(String, RefOr<Schema>)>) -> Operation {
    let mut params = E::Path::into_params(|| Some(ParameterIn::Path));
    params.extend(E::Query::into_params(|| Some(ParameterIn::Query)));
    params.extend(E::Headers::into_params(|| Some(ParameterIn::Header)));
    E::Answer::schemas(components);
    let mut answer = json_response("The answer.", E::Answer::schema());
    add_links(&mut answer, E::NAME);
    let mut op = OperationBuilder::new()
        .operation_id(Some(E::NAME))
        .summary(Some(E::SUMMARY))
        .parameters(Some(params))
        .response(E::STATUS.to_string(), answer);
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
    for status in &failures::<E>() {
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
