//! The no-JS forms: each gate step and the newsletter are real `<form method=post>`s answered
//! with `303 See Other` (DESIGN: progressive enhancement). With JavaScript the client intercepts
//! the same forms and writes the same cookies itself.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use api::content::{self, Subscription};
use api::{ApiError, Params};
use db::{queries, AnyConnection};

use crate::gate::{self, cookie, removal, CONSENT_MAX_AGE, GATE_MAX_AGE};
use crate::page::redirect;
use crate::WebState;

/// Unsafe requests must come from our own pages: a cross-site `Origin` is refused.
fn same_origin(req: &HttpRequest) -> bool {
    let Some(origin) = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
    else {
        // Browsers send Origin on every cross-site POST; none means a same-site or non-browser
        // client.
        return true;
    };
    let host = req.connection_info().host().to_string();
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest.trim_end_matches('/') == host)
}

fn forbidden() -> HttpResponse {
    HttpResponse::Forbidden()
        .content_type("text/plain; charset=utf-8")
        .body("This form must be sent from the store's own pages.")
}

/// Where to go back to: a path of this site, without its query.
fn return_path(params: &Params) -> String {
    let raw = params.get("return_to").unwrap_or("/");
    let path = raw.split(['?', '#']).next().unwrap_or("/");
    if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') {
        path.to_string()
    } else {
        "/".to_string()
    }
}

fn see_other(to: &str) -> actix_web::HttpResponseBuilder {
    let mut b = HttpResponse::build(StatusCode::SEE_OTHER);
    b.insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"));
    b
}

/// What every form post starts with: the fields and where to go back to, or `None` for another
/// site's post (answer it with [`forbidden`]).
fn accept(req: &HttpRequest, body: &web::Bytes) -> Option<(Params, String)> {
    if !same_origin(req) {
        return None;
    }
    let params = Params::parse(std::str::from_utf8(body).unwrap_or("")).unwrap_or_default();
    let back = return_path(&params);
    Some((params, back))
}

/// `POST /gate/consent`: records consent and the age statement, then opens the category gate.
pub async fn consent(req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let Some((_, back)) = accept(&req, &body) else {
        return forbidden();
    };
    see_other(&format!("{back}?gate=category"))
        .cookie(cookie(gate::ACCEPTED, "1", CONSENT_MAX_AGE))
        .cookie(cookie(gate::PRIVACY, "1", CONSENT_MAX_AGE))
        .cookie(cookie(gate::AGE, "1", CONSENT_MAX_AGE))
        .finish()
}

/// `POST /gate/category`: stores the category, clears the location, opens the location gate.
pub async fn category(
    req: HttpRequest,
    body: web::Bytes,
    state: web::Data<WebState>,
) -> HttpResponse {
    let Some((params, back)) = accept(&req, &body) else {
        return forbidden();
    };
    let id = params
        .id("category_id")
        .ok()
        .flatten()
        .and_then(|id| i32::try_from(id).ok());
    let found = match id {
        Some(id) => api::with_conn(&state.pool, move |c| Ok(queries::packaging(c, id)?)).await,
        None => Ok(None),
    };
    match found {
        Ok(Some(p)) => {
            let mut res = see_other(&format!("{back}?gate=location"));
            res.cookie(cookie(gate::CATEGORY, &p.id.to_string(), GATE_MAX_AGE))
                .cookie(cookie(gate::CATEGORY_NAME, &p.name, GATE_MAX_AGE));
            for name in gate::LOCATION {
                res.cookie(removal(name));
            }
            res.finish()
        }
        // Unknown category: show the category gate again.
        Ok(None) => see_other(&format!("{back}?gate=category")).finish(),
        Err(e) => error_page(e),
    }
}

fn error_page(e: ApiError) -> HttpResponse {
    log::error!("form: {e}");
    HttpResponse::build(e.status())
        .content_type("text/plain; charset=utf-8")
        .body(e.to_string())
}

/// A location as far as the shopper has chosen it, each step checked against the one before.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Choice {
    pub fulfillment: i32,
    pub province: i32,
    pub city: Option<(i64, String)>,
    pub barangay: Option<(i64, String)>,
    pub street: Option<i64>,
    pub needs_street: bool,
}

impl Choice {
    pub fn complete(&self) -> bool {
        self.city.is_some()
            && self.barangay.is_some()
            && (!self.needs_street || self.street.is_some())
    }
}

/// Checks the posted steps: a step that does not belong to the one before is dropped, with the
/// steps after it.
pub fn check_location(
    conn: &mut AnyConnection,
    params: &Params,
    category: Option<i64>,
) -> Result<Choice, ApiError> {
    let id = |name: &str| params.id(name).ok().flatten();
    let fulfillment = id("fulfillment")
        .and_then(|f| i32::try_from(f).ok())
        .map(|f| queries::fulfillment_type(conn, f))
        .transpose()?
        .flatten()
        .map_or(1, |f| f.id);
    let province = id("province")
        .and_then(|p| i32::try_from(p).ok())
        .map(|p| queries::province(conn, p))
        .transpose()?
        .flatten()
        .map_or(db::seed::METRO_MANILA_PROVINCE_ID, |p| p.id);
    let mut choice = Choice {
        fulfillment,
        province,
        ..Choice::default()
    };
    let keg = match category.and_then(|c| i32::try_from(c).ok()) {
        Some(c) => queries::packaging(conn, c)?.is_some_and(|p| p.filter_type == "keg"),
        None => false,
    };
    let Some(city_id) = id("city") else {
        return Ok(choice);
    };
    let cities = if keg {
        queries::cities_selling_packaging(
            conn,
            category.unwrap_or_default() as i32,
            Some(province),
        )?
    } else {
        queries::served_cities(conn, Some(province), Some(fulfillment))?
    };
    let Some(city) = cities.into_iter().find(|c| c.id == city_id) else {
        return Ok(choice);
    };
    choice.city = Some((city.id, city.city_name));
    let Some(b) = id("barangay")
        .map(|b| queries::barangay(conn, b))
        .transpose()?
        .flatten()
    else {
        return Ok(choice);
    };
    if b.city_id != city.id {
        return Ok(choice);
    }
    let streets = queries::streets_of_barangay(conn, b.id)?;
    choice.needs_street = !streets.is_empty();
    choice.street = id("street").filter(|s| streets.iter().any(|x| i64::from(x.id) == *s));
    choice.barangay = Some((b.id, b.barangay_name));
    Ok(choice)
}

/// `POST /gate/location`: one step of the location gate. A complete location is stored and the
/// shopper lands on /buy-beer; otherwise the page comes back with the next list.
pub async fn location(
    req: HttpRequest,
    body: web::Bytes,
    state: web::Data<WebState>,
) -> HttpResponse {
    let Some((params, back)) = accept(&req, &body) else {
        return forbidden();
    };
    let category = req
        .cookie(gate::CATEGORY)
        .and_then(|c| domain::parse_id(c.value()));
    let p = params.clone();
    let choice = match api::with_conn(&state.pool, move |c| check_location(c, &p, category)).await {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    if let (true, Some((city, city_name)), Some((barangay, barangay_name))) =
        (choice.complete(), &choice.city, &choice.barangay)
    {
        let mut res = see_other("/buy-beer");
        res.cookie(cookie(
            gate::FULFILLMENT,
            &choice.fulfillment.to_string(),
            GATE_MAX_AGE,
        ))
        .cookie(cookie(gate::CITY, &city.to_string(), GATE_MAX_AGE))
        .cookie(cookie(gate::BARANGAY, &barangay.to_string(), GATE_MAX_AGE))
        .cookie(cookie(gate::CITY_NAME, city_name, GATE_MAX_AGE))
        .cookie(cookie(gate::BARANGAY_NAME, barangay_name, GATE_MAX_AGE));
        match choice.street {
            Some(s) => res.cookie(cookie(gate::STREET, &s.to_string(), GATE_MAX_AGE)),
            None => res.cookie(removal(gate::STREET)),
        };
        return res.finish();
    }
    let mut next = format!(
        "{back}?gate=location&fulfillment={}&province={}",
        choice.fulfillment, choice.province
    );
    if let Some((city, _)) = choice.city {
        next.push_str(&format!("&city={city}"));
    }
    if let Some((b, _)) = choice.barangay {
        next.push_str(&format!("&barangay={b}"));
    }
    see_other(&format!("{next}#location-title")).finish()
}

/// `POST /newsletter`: the footer form without JavaScript; the message comes back in the query.
pub async fn newsletter(
    req: HttpRequest,
    body: web::Bytes,
    state: web::Data<WebState>,
) -> HttpResponse {
    let Some((params, back)) = accept(&req, &body) else {
        return forbidden();
    };
    let email = params.get("email").unwrap_or("").to_string();
    let now = domain::calendar::manila_now();
    let code = match api::with_conn(&state.pool, move |c| content::subscribe(c, &email, now)).await
    {
        Ok(Subscription::Added(content::SUBSCRIBED)) => "added",
        Ok(Subscription::Added(_)) => "exists",
        Ok(Subscription::Invalid(domain::email::REQUIRED)) => "required",
        Ok(Subscription::Invalid(_)) => "invalid",
        Err(e) => {
            log::error!("newsletter: {e}");
            "failed"
        }
    };
    see_other(&format!("{back}?newsletter={code}#newsletter")).finish()
}

/// GET on a form address (a bookmarked or reloaded form result) goes home.
pub async fn form_get() -> HttpResponse {
    redirect("/", StatusCode::SEE_OTHER)
}
