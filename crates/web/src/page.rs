//! One page request: a finished page from the cache, or plan (route, gate, data) -> render
//! (QuickJS) -> respond (shell, status), kept for the next shopper who asks the same. The security
//! headers come from [`crate::security`] for every answer.

use std::sync::Arc;

use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::http::{header, Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use api::accounts::user::Viewer;
use framework::cache::Cached;

use crate::page_with_slots::Page;
use crate::shared_by_city::{PageCacheEntry, Place};
use api::gate::Choices;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::plan::{plan, try_plan, Plan, Request};
use crate::routes::{Guard, RouteDef};
use crate::shell::{escape_json_for_script, ShellPage};
use crate::WebState;

/// A redirect; where it goes may depend on the session (a guard), so caches keep none.
pub fn redirect(to: &str, status: StatusCode) -> HttpResponse {
    let mut res = HttpResponse::build(status)
        .insert_header((header::LOCATION, to))
        .finish();
    framework::request::mark_private(res.headers_mut());
    res
}

/// Pages answered with the client-render fallback since the start (a failed or refused render).
pub static FALLBACKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The longest path and query a page takes; a longer address is refused, not echoed.
pub const MAX_URL: usize = 2_000;

pub async fn page(req: HttpRequest, state: web::Data<WebState>) -> HttpResponse {
    serve(&req, &state, None).await
}

/// A form that comes back to its page: what was entered (never a password), each field's
/// messages, one message for the whole form, and the status to answer with.
pub struct Posted {
    pub status: StatusCode,
    pub form: Value,
}

/// How long a visit waits for the page another visit is rendering before it renders its own.
const MAKER_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Answers a page: from the cache when a guest's page is kept, else planned and rendered; a form
/// that needs correcting comes back through here with what was entered.
pub async fn serve(
    req: &HttpRequest,
    state: &web::Data<WebState>,
    posted: Option<Posted>,
) -> HttpResponse {
    let fixed = state.routes.fixed(req.path());
    if let Some(res) = refused(req, fixed, posted.is_some()) {
        return res;
    }
    let maintenance = state.api.closed_for(req.path());
    // A guest asking as one asked before: answered before anything is read of the request.
    let asked = (!maintenance && posted.is_none())
        .then(|| crate::pages_by_request::key(req, state.api.watch.data_version()))
        .flatten();
    if let Some(page) = asked.and_then(|k| state.pages_by_request.get(k, &state.api.cache)) {
        return page.respond(req);
    }
    let (forms, guard) = fixed.map_or((false, Guard::None), |r| (r.forms, r.guard.clone()));
    let viewer = match who(req, state, maintenance, forms, &guard).await {
        Ok(v) => v,
        Err(res) => return res,
    };
    // The guards are real redirects, before anything is rendered.
    let guarded = match (&guard, &viewer.member) {
        _ if maintenance => None,
        (Guard::Member, None) => Some(redirect("/login", StatusCode::FOUND)),
        (Guard::Guest, Some(_)) => Some(redirect("/", StatusCode::FOUND)),
        _ => None,
    };
    if let Some(res) = guarded {
        return with_session(res, &viewer, state);
    }
    let visit = Visit {
        posted,
        params: match fixed {
            Some(r) => &r.params,
            None => state.routes.params(req.path()),
        },
        maintenance,
        forms,
        viewer: &viewer,
        asked,
    };
    match visited(req, state, visit).await {
        Ok(res) => with_session(res, &viewer, state),
        Err(res) => res,
    }
}

/// What `serve` refuses or sends on before it looks at the visitor: a method other than GET and
/// HEAD (but a form that comes back), an address too long, a route that only sends on (the
/// product page without a slug goes home; a form that comes back, `/logout`'s with an expired
/// token, is answered, not sent on).
fn refused(req: &HttpRequest, fixed: Option<&RouteDef>, posted: bool) -> Option<HttpResponse> {
    if req.method() != Method::GET && req.method() != Method::HEAD && !posted {
        return Some(framework::request::method_not_allowed(req, "GET, HEAD"));
    }
    if req.path().len() + req.query_string().len() > MAX_URL {
        return Some(
            HttpResponse::UriTooLong()
                .content_type("text/plain; charset=utf-8")
                .body("This address is too long."),
        );
    }
    let to = fixed?.redirect.as_deref()?;
    (!posted).then(|| redirect(to, StatusCode::FOUND))
}

/// Who asks, for a page with forms or a guard. When that is not known (the database is busy) a
/// guarded page or a form is not shown to the wrong person, and a member is not sent to log in:
/// a 503; any other page is shown as a guest's.
async fn who(
    req: &HttpRequest,
    state: &WebState,
    maintenance: bool,
    forms: bool,
    guard: &Guard,
) -> Result<Viewer, HttpResponse> {
    if maintenance {
        return Ok(Viewer::default());
    }
    match viewer(req, state, forms, guard).await {
        Ok(v) => Ok(v),
        Err(e) if forms || *guard != Guard::None => {
            log::error!("session {}: {e}", req.path());
            Err(HttpResponse::ServiceUnavailable()
                .insert_header((header::RETRY_AFTER, "5"))
                .insert_header((header::CACHE_CONTROL, "no-store"))
                .content_type("text/plain; charset=utf-8")
                .body(e.to_string()))
        }
        Err(e) => {
            log::error!("session {}: {e}", req.path());
            Ok(Viewer::default())
        }
    }
}

/// The answer with the session's token, renewed or ended.
fn with_session(mut res: HttpResponse, viewer: &Viewer, state: &WebState) -> HttpResponse {
    if let Some(issued) = &viewer.issued {
        framework::request::send_token(&mut res, issued, state.api.config.secure_cookies);
    } else if viewer.stale {
        framework::request::end_token(&mut res);
    }
    res
}

/// What a page is asked with, once the visitor is known.
struct Visit<'a> {
    posted: Option<Posted>,
    /// The query parameters the page reads.
    params: &'a [String],
    maintenance: bool,
    forms: bool,
    viewer: &'a Viewer,
    /// The request's key in [`crate::pages_by_request`] (none: posted, or under maintenance).
    asked: Option<u128>,
}

/// The page for a visit: kept, or planned and rendered (and kept when it may be). `Err`: an
/// answer that carries no session (a failed render).
async fn visited(
    req: &HttpRequest,
    state: &web::Data<WebState>,
    visit: Visit<'_>,
) -> Result<HttpResponse, HttpResponse> {
    let viewer = visit.viewer;
    let mut choices = api::gate::cookies::choices(req);
    // A member who accepted the policy never sees its modal again, on any device.
    if viewer
        .member
        .as_ref()
        .is_some_and(|m| m.policy_agreement_accepted)
    {
        choices.consent = true;
    }
    let query = crate::plan::page_query(req.query_string(), visit.params);
    let member = viewer.member.as_ref();
    // The location notice flag shapes the product page (its notice is left out): pages are kept
    // for shoppers with and without it apart.
    let notice_seen = api::gate::cookies::location_notice_seen(req);
    // A shopper saving data is shown smaller photos: pages are kept for them apart.
    let save_data = saving_data(req);
    let key = (!visit.maintenance && !visit.forms && visit.posted.is_none()).then(|| {
        let policy = member.map(|m| m.policy_agreement_accepted);
        let flags = [notice_seen, save_data];
        page_key(req.path(), &query, &choices, state, policy, flags)
    });
    // A page nobody has yet is made by its first asker; the others asking for it meanwhile wait
    // for that render instead of rendering it again.
    let making = match key {
        Some(k) => {
            match crate::shared_by_city::kept_or_duty(&state.api.cache, k, MAKER_WAIT).await {
                Ok((page, place)) => {
                    let shared = Shared {
                        viewer,
                        choices: &choices,
                        kept: true,
                        asked: visit.asked,
                        place: place.as_ref(),
                    };
                    return Ok(answer_shared(req, state, &page, shared).await);
                }
                Err(making) => Some(making),
            }
        }
        None => None,
    };
    // A shared page is rendered with the visitor's parts left open (sentinels); a page rendered
    // for one visitor (forms, a posted form) has them filled in.
    let extra = match key {
        Some(_) => shared_extra(member, notice_seen, save_data),
        None => {
            let parts = crate::visitor::parts(req, state, member, &choices).await;
            json!({
                "member": viewer.member,
                "csrf": form_token(req, &state.routes, viewer).map(|t| framework::session::csrf_token(&t)),
                "form": visit.posted.as_ref().map(|p| &p.form),
                "visitor": crate::visitor::own_input(&parts),
                "locationNoticeSeen": notice_seen,
                "saveData": save_data,
            })
        }
    };
    let planned = plan_page(
        req,
        &query,
        state,
        choices,
        visit.maintenance,
        viewer.token.clone(),
        extra,
    )
    .await;
    if let Some(to) = &planned.redirect {
        if let Some(making) = making {
            making.give_up();
        }
        return Ok(redirect(to, StatusCode::FOUND));
    }
    let status = visit.posted.as_ref().map(|p| p.status);
    let page = rendered(req, state, planned, visit.forms, status, making).await?;
    let shared = Shared {
        viewer,
        choices: &choices,
        kept: page.kept,
        asked: visit.asked,
        place: page.place.as_ref(),
    };
    Ok(answer_shared(req, state, &page.page, shared).await)
}

/// The session token a page's forms are bound to: the staff session's on a page whose forms run
/// staff calls (when the request brings one), else the shopper's.
fn form_token(
    req: &HttpRequest,
    routes: &crate::routes::RouteTable,
    viewer: &Viewer,
) -> Option<String> {
    routes
        .fixed(req.path())
        .and_then(|r| r.session_cookie)
        .and_then(|cookie| req.cookie(cookie))
        .map(|c| c.value().to_string())
        .filter(|t| !t.is_empty())
        .or_else(|| viewer.token.clone())
}

/// The page input's visitor parts of a shared page: sentinels, filled in per answer.
fn shared_extra(
    member: Option<&api::accounts::user::MemberView>,
    notice_seen: bool,
    save_data: bool,
) -> Value {
    json!({
        "member": member.map(|m| json!({
            "firstname": crate::page_with_slots::sentinels().firstname,
            "policy_agreement_accepted": m.policy_agreement_accepted,
        })),
        "csrf": crate::page_with_slots::sentinels().csrf,
        "visitor": crate::visitor::shared_input(),
        "form": Value::Null,
        "locationNoticeSeen": notice_seen,
        "saveData": save_data,
    })
}

/// A rendered page: the page, the place it is to be filled with when the places of its city
/// share it ([`crate::shared_by_city`]), and whether it is kept.
struct Rendered {
    page: Arc<Page>,
    place: Option<Place>,
    kept: bool,
}

/// Renders a planned page and keeps it when it may be kept and was asked `making` (a shared page);
/// a shared page that names the shopper's barangay is rendered with the place abstracted, once
/// for the barangays of a city whose pages abstract alike. `Err`: the shell failed (a 500 in the
/// store's words).
async fn rendered(
    req: &HttpRequest,
    state: &web::Data<WebState>,
    mut planned: Plan,
    forms: bool,
    status: Option<StatusCode>,
    making: Option<framework::cache::DutyToMake<'_>>,
) -> Result<Rendered, HttpResponse> {
    // Only pages that exist are kept: a flood of made-up addresses must not evict them.
    let may_keep = planned.complete
        && planned.keepable
        && !planned.private
        && planned.status == StatusCode::OK;
    // A shared page not kept (a price range, a page past the last) is rendered from the abstract
    // input too: the renderer's memo then holds it once for the city.
    let placed = (making.is_some() && !planned.private && state.share_by_city)
        .then(|| abstracted(&planned))
        .flatten();
    if let (Some((_, place, key)), true) = (&placed, may_keep) {
        if let Some(page) = state.api.cache.get::<Page>(*key) {
            return Ok(placed_hit(page, place, *key, making));
        }
    }
    let input = match &placed {
        Some((input, ..)) => input.clone(),
        None => planned.input.to_string(),
    };
    // A staff page is its staff member's own, so it is not kept by its address; but its render
    // is a function of its input alone: the same input (a board reloaded while nothing changed)
    // is answered as rendered the last time. Only a page that exists: made-up addresses must not
    // fill the cache.
    let same = (making.is_none()
        && status.is_none()
        && planned.complete
        && planned.status == StatusCode::OK
        && planned.route.sign_in.is_some())
    .then(|| {
        framework::cache::key(&[
            b"rendered for one",
            planned.route.name.as_bytes(),
            input.as_bytes(),
            planned.canonical.as_deref().unwrap_or("").as_bytes(),
            &[u8::from(planned.private), u8::from(forms)],
        ])
    });
    if let Some(hit) = same.and_then(|k| state.api.cache.get::<Page>(k)) {
        return Ok(Rendered {
            page: hit,
            place: None,
            kept: false,
        });
    }
    let (output, placed) = render_placed(state, &planned, input, placed).await;
    if let Some((input, ..)) = &placed {
        // The page state names the place as the render was given it: its slots.
        planned.input = serde_json::from_str(input).unwrap_or(Value::Null);
    }
    if making.is_some() {
        // The page state carries the visitor's own part, filled in per answer.
        planned.input["visitor"] =
            Value::from(crate::page_with_slots::sentinels().visitor.as_str());
    }
    let rendered_empty = output.html.is_empty();
    let keep = may_keep && !rendered_empty;
    match respond(state, planned, output, forms, status) {
        Ok(page) => {
            let kept = keep && making.is_some();
            // A page answered once (a staff page, a member's own) is compressed for speed.
            let page = Arc::new(Page::new(if kept { page } else { page.answered_once() }));
            let place = placed.as_ref().map(|(_, place, _)| place.clone());
            match (making, placed) {
                (Some(making), Some((_, place, shared))) if kept => {
                    state.api.cache.insert(shared, page.clone());
                    making.keep(Arc::new(PageCacheEntry::CityShared { shared, place }));
                }
                (Some(making), None) if kept => {
                    making.keep(Arc::new(PageCacheEntry::Page(page.clone())))
                }
                (Some(making), _) => making.give_up(),
                (None, _) => {}
            }
            if let (Some(k), false) = (same, rendered_empty) {
                state.api.cache.insert(k, page.clone());
            }
            Ok(Rendered { page, place, kept })
        }
        Err(e) => {
            log::error!("shell {}: {e}", req.path());
            Err(HttpResponse::InternalServerError()
                .content_type("text/plain; charset=utf-8")
                .body("Something went wrong on our side. Please try again."))
        }
    }
}

/// Renders a page from its input, abstracted when `placed` (shared by a city's places); a page
/// whose head (title, description, picture, JSON-LD: written by the shell, escaped its own way)
/// would name the place is rendered again for its place alone.
async fn render_placed(
    state: &WebState,
    planned: &Plan,
    input: String,
    placed: Option<(String, Place, u128)>,
) -> (RenderOutput, Option<(String, Place, u128)>) {
    let output = render(state, planned, input).await;
    let s = crate::page_with_slots::sentinels();
    let head = &output.head;
    let names = |t: &str| t.contains(&s.place_name) || t.contains(&s.place_id);
    let in_head = [&head.title, &head.description, &head.image]
        .iter()
        .any(|t| t.as_deref().is_some_and(names))
        || head.json_ld.iter().any(|v| names(&v.to_string()));
    if placed.is_some() && in_head {
        return (
            render(state, planned, planned.input.to_string()).await,
            None,
        );
    }
    (output, placed)
}

/// A page the places of a city share, found made: kept under this place's key too.
fn placed_hit(
    page: Arc<Page>,
    place: &Place,
    shared: u128,
    making: Option<framework::cache::DutyToMake<'_>>,
) -> Rendered {
    if let Some(making) = making {
        let place = place.clone();
        making.keep(Arc::new(PageCacheEntry::CityShared { shared, place }));
    }
    Rendered {
        page,
        place: Some(place.clone()),
        kept: true,
    }
}

/// A shared page's input with its place abstracted ([`crate::shared_by_city`]), the place, and the
/// key of the page its city's places share.
fn abstracted(planned: &Plan) -> Option<(String, Place, u128)> {
    let (input, place) = crate::shared_by_city::abstracted(&planned.input)?;
    let key = crate::shared_by_city::shared_key(
        &planned.route.name,
        &input,
        planned.canonical.as_deref(),
        planned.status.as_u16(),
    );
    Some((input, place, key))
}

/// Who a shared page is answered to: the visitor, their gate choices, whether the page is kept
/// (shared by its key), and the request's key in [`crate::pages_by_request`].
struct Shared<'a> {
    viewer: &'a Viewer,
    choices: &'a Choices,
    kept: bool,
    asked: Option<u128>,
    /// The place to fill in, in a page the places of a city share.
    place: Option<&'a Place>,
}

/// Answers a page with this visitor's parts: a page without slots as it is; a guest with
/// nothing of their own (no session, no cart) gets the page filled once for everyone (kept,
/// compressed, answered 304 while the same); anyone else their own filling.
async fn answer_shared(
    req: &HttpRequest,
    state: &WebState,
    page: &Arc<Page>,
    shared: Shared<'_>,
) -> HttpResponse {
    let Shared {
        viewer,
        choices,
        kept,
        asked,
        place,
    } = shared;
    if !page.has_slots() {
        return page.respond(req);
    }
    let member = viewer.member.as_ref();
    let parts = crate::visitor::parts(req, state, member, choices).await;
    // The CSRF token is derived from the session token the browser holds (no lookup needed).
    let csrf = viewer
        .token
        .clone()
        .or_else(|| framework::request::cookie_token(req))
        .map(|t| framework::session::csrf_token(&t))
        .unwrap_or_default();
    let fill = crate::page_with_slots::Fill {
        place,
        ..crate::visitor::fill(&parts, &csrf, member)
    };
    if member.is_none() && csrf.is_empty() && parts.is_nobodys() && kept {
        let key = framework::cache::key(&[
            b"filled for everyone",
            page.tag().as_bytes(),
            &place.map_or(0, |p| p.id).to_le_bytes(),
            place.map_or("", |p| p.name.as_str()).as_bytes(),
        ]);
        let everyone = match state.api.cache.get::<Page>(key) {
            Some(c) => c,
            None => {
                let body = page.filled_uncompressed(&fill);
                // Filled for no session: the worker forgets what it kept for one
                // (`page_with_slots::SESSION_HEADER`).
                let mut headers = page.headers().to_vec();
                headers.push((
                    header::HeaderName::from_static(crate::page_with_slots::SESSION_HEADER),
                    HeaderValue::from_static(""),
                ));
                // Kept compressed only: a page for each place of each city at a third of the
                // weight (a client that takes no encoding is answered it inflated).
                let c = Cached::new(page.status(), headers, body);
                let c = Arc::new(Page::new(c.compressed_only()));
                state.api.cache.insert(key, c.clone());
                c
            }
        };
        if let Some(asked) = asked {
            state.pages_by_request.keep(asked, req, key);
        }
        return everyone.respond(req);
    }
    if member.is_none() && csrf.is_empty() && parts.is_nobodys() {
        // A page kept for nobody (a 404): filled and answered as it is.
        let body = page.filled_uncompressed(&fill);
        return Cached::new(page.status(), page.headers().to_vec(), body)
            .answered_once()
            .respond(req);
    }
    // A member's session ends by itself (an hour unused): their worker is told when, so that it
    // never shows their kept pages to whoever holds the phone after that.
    let ends_in = member
        .and(viewer.ends_at)
        .map(|at| (at - domain::calendar::unix_now()).max(0));
    page.respond_filled(req, &fill, ends_in)
}

/// Who asks. A guest without the member hint is answered without a session lookup (the shared
/// cache); pages with a guard or forms, and anyone with the hint, have their session checked.
async fn viewer(
    req: &HttpRequest,
    state: &WebState,
    forms: bool,
    guard: &Guard,
) -> Result<Viewer, framework::ApiError> {
    let token = framework::request::cookie_token(req);
    let hinted = req.cookie(framework::session::MEMBER_COOKIE).is_some();
    let look = forms || (token.is_some() && (hinted || *guard != Guard::None));
    if !look {
        return Ok(Viewer::default());
    }
    state
        .api
        .read(framework::Caller::of_page(req), move |ctx| {
            api::accounts::user::viewer(ctx, forms)
        })
        .await
}

/// Whether the browser asks to save data (`Save-Data: on`, the data saver of the browser or the
/// phone): its pages offer smaller photos (`Photo`).
fn saving_data(req: &HttpRequest) -> bool {
    req.headers()
        .get("save-data")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("on"))
}

/// Everything that shapes a page: its address, the shopper's gate choices, the data version, the
/// business day (dated notices and promos), whether the location notice was put away and whether
/// the browser saves data (`flags`).
fn page_key(
    path: &str,
    query: &str,
    c: &Choices,
    state: &WebState,
    member: Option<bool>,
    flags: [bool; 2],
) -> u128 {
    let data_version = state.api.watch.data_version();
    let id = |v: Option<i64>| v.unwrap_or(0).to_le_bytes();
    // Members share a page (their name and CSRF token are filled in per answer); whether they
    // accepted the policy shapes it.
    let (is_member, policy) = member.map_or((false, false), |p| (true, p));
    let today = domain::calendar::iso_date(domain::calendar::manila_now().date());
    framework::cache::key(&[
        b"page",
        path.as_bytes(),
        query.as_bytes(),
        &[u8::from(c.consent)],
        &id(c.packaging.map(|p| i64::from(p.get()))),
        &id(c.fulfillment.map(|f| i64::from(f.get()))),
        &id(c.barangay.map(|b| b.get())),
        &id(c.street.map(|s| i64::from(s.get()))),
        &data_version.to_le_bytes(),
        today.as_bytes(),
        &[
            u8::from(is_member),
            u8::from(policy),
            u8::from(flags[0]),
            u8::from(flags[1]),
        ],
    ])
}

/// Plans the page with one connection for all its data; without a connection it still plans,
/// and the client fetches the data.
async fn plan_page(
    req: &HttpRequest,
    query: &str,
    state: &web::Data<WebState>,
    choices: Choices,
    maintenance: bool,
    token: Option<String>,
    extra: Value,
) -> Plan {
    let (path, query) = (req.path().to_string(), query.to_string());
    let st = state.clone();
    let (p, q) = (path.clone(), query.clone());
    let extra2 = extra.clone();
    let planned = state
        .api
        .read(
            // The page's own data reads the guest's cart by its cookie (the cart and checkout
            // pages load the cart on the server).
            framework::Caller {
                token,
                cookies: framework::endpoint::cookies_of(req),
                ..framework::Caller::default()
            },
            move |ctx| {
                let request = Request {
                    path: &p,
                    query: &q,
                    choices,
                    maintenance,
                    extra: &extra2,
                };
                try_plan(ctx, &st.routes, &st.api.config.public_url, &request)
            },
        )
        .await;
    planned.unwrap_or_else(|e| {
        log::error!("page {path}: {e}");
        let request = Request {
            path: &path,
            query: &query,
            choices,
            maintenance: false,
            extra: &extra,
        };
        plan(None, &state.routes, &state.api.config.public_url, &request)
    })
}

/// What the bundle's `render` answers.
#[derive(Debug, Default, Deserialize)]
struct RenderOutput {
    html: String,
    #[serde(default)]
    head: Head,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Head {
    title: Option<String>,
    description: Option<String>,
    /// The page's picture for link previews (`og:image`), an absolute address.
    image: Option<String>,
    #[serde(default)]
    json_ld: Vec<Value>,
}

/// An address as the log may show it: without its query, where links carry one-time tokens
/// (`/registration?token=`, `/reset-password?suid=`, an order's `?key=`).
fn path_of(url: &str) -> &str {
    url.split('?').next().unwrap_or(url)
}

/// Renders on the SSR threads; a failed render is an empty body the client renders instead.
async fn render(state: &WebState, plan: &Plan, input: String) -> RenderOutput {
    match state.renderer.render(input).await {
        Ok(r) => serde_json::from_str(&r.output).unwrap_or_else(|e| {
            log::error!("ssr {}: unreadable output: {e}", path_of(&plan.url));
            RenderOutput::default()
        }),
        Err(e) => {
            FALLBACKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            log::warn!(
                "ssr {}: {e}; the client renders this page",
                path_of(&plan.url)
            );
            RenderOutput::default()
        }
    }
}

/// The shell around the rendered body, with the page's status and caching headers.
fn respond(
    state: &WebState,
    plan: Plan,
    output: RenderOutput,
    forms: bool,
    posted: Option<StatusCode>,
) -> Result<Cached, crate::WebError> {
    let Plan {
        route,
        status,
        canonical,
        mut input,
        private,
        ..
    } = plan;
    input["ssr"] = Value::Bool(!output.html.is_empty());
    let json_ld: Vec<String> = output
        .head
        .json_ld
        .iter()
        .map(|v| escape_json_for_script(&v.to_string()))
        .collect();
    let html = state.shell.render(&ShellPage {
        title: output.head.title.as_deref().unwrap_or(&route.title),
        description: output
            .head
            .description
            .as_deref()
            .unwrap_or(&route.description),
        canonical: canonical.as_deref().unwrap_or(""),
        image: output.head.image.as_deref().unwrap_or(""),
        // Pages with account forms are each visitor's own: not for an index.
        noindex: status != StatusCode::OK || forms || route.noindex,
        body: &output.html,
        json_ld: &json_ld,
        state_json: &input.to_string(),
        accounts: forms || route.account_styles || !input["member"].is_null(),
        route: &route.name,
    });
    let mut headers: Vec<(HeaderName, HeaderValue)> = vec![(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    )];
    // A page with forms carries its session's CSRF token, a page with data of one shopper (an
    // account page, a guest's order by its link's key) that shopper's name and address: caches
    // keep none of them, the browser's own included. Browsers keep other pages but ask again each
    // time (304 while the same); a shop page filled for a guest or a member is theirs alone
    // (`Vary: Cookie`) and names the session it was filled for and, a member's, when that session
    // ends (`page_with_slots::Page::respond_filled`): their browser's worker keeps it only while
    // that session lives.
    if forms || private {
        headers.extend(
            framework::request::PRIVATE
                .map(|(name, value)| (name, HeaderValue::from_static(value))),
        );
    } else {
        headers.push((
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        ));
        headers.push((header::VARY, HeaderValue::from_static("Cookie, Save-Data")));
    }
    if posted == Some(StatusCode::SERVICE_UNAVAILABLE) {
        // A form the failing database could not take: what was typed is on the page.
        headers.push((
            header::RETRY_AFTER,
            HeaderValue::from_static(framework::error::DATABASE_RETRY_AFTER),
        ));
    } else if status == StatusCode::SERVICE_UNAVAILABLE {
        headers.push((header::RETRY_AFTER, HeaderValue::from_static("300")));
    }
    Ok(Cached::new(posted.unwrap_or(status), headers, html?.into()))
}
