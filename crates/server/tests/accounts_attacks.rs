//! The accounts' defences, on SQLite and PostgreSQL, each test one promise an attacker must not
//! break: a reset link stops working once a newer one is sent, a reset is made or the password
//! changes; unsafe calls come only from the store's own pages; neither the answers nor the mail
//! tell whether an account exists; a stranger cannot take over a pre-registration; a guesser is
//! stopped without locking the owner out, behind a proxy too; answers that depend on the session
//! are never kept by a cache; passwords follow the rules and sensitive changes need the current
//! one; and an overlong address is refused unechoed.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{
    access_token, an_address, assert_private, bearer, database, link_in, link_token,
    registration_form, request, Backend, Res, TestDb, Visitor, EVIL, OWN, SHOP,
};

/// What the origin rule answers.
const CROSS_SITE: &str = "This request must come from the store's own pages.";
/// Passwords the rules refuse, and what the refusal says: too short, or common.
const WEAK: [(&str, &str); 4] = [
    ("password1", "at least 10 characters"),
    ("beer2026", "at least 10 characters"),
    ("1234567890", "most common passwords"),
    ("qwertyuiop", "most common passwords"),
];

/// Asserts a 422 refuses the password `weak` for the reason `why`.
fn assert_weak(st: StatusCode, v: &Value, weak: &str, why: &str, at: &str) {
    assert_eq!(
        st,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{at}, {weak}: {}",
        brief(v)
    );
    let message = v["errors"]["password"][0].as_str().unwrap_or_default();
    assert!(message.contains(why), "{at}, {weak}: {}", brief(v));
}

/// What an answer says, short enough for an assertion's message.
fn brief(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

/// Juan Dela Cruz's pre-registration form ([`registration_form`] without the password) with
/// `email` and `mobile`.
fn link_form(email: &str, mobile: &str) -> Value {
    let mut form = registration_form(email, mobile, "");
    form.as_object_mut().unwrap().remove("password");
    form
}

/// The same request from the client at `ip`.
fn from(r: TestRequest, ip: &str) -> TestRequest {
    r.peer_addr(std::net::SocketAddr::new(ip.parse().unwrap(), 1234))
}

/// The API over one test database, the way an attacker and the members reach it: a visitor with
/// a mail outbox of their own, and the steps the tests take.
struct Shop<'a>(Visitor<'a>);

impl<'a> std::ops::Deref for Shop<'a> {
    type Target = Visitor<'a>;

    fn deref(&self) -> &Visitor<'a> {
        &self.0
    }
}

impl<'a> Shop<'a> {
    fn new(db: &'a TestDb) -> Self {
        Self(Visitor::new(db))
    }

    /// How many mails wait in the database's queue.
    fn queued(&self) -> i64 {
        db::schema::mail_outbox::table
            .count()
            .get_result(&mut self.db.pool.get().unwrap())
            .unwrap()
    }

    /// How many files the requests' mailer wrote.
    fn outbox_files(&self) -> usize {
        std::fs::read_dir(self.outbox()).unwrap().count()
    }

    /// A member registered through the link in her mail; answers her session token.
    async fn register(&self, email: &str, mobile: &str, password: &str) -> String {
        let r = support::register(
            self.db,
            &self.fresh_folder(),
            registration_form(email, mobile, password),
        )
        .await;
        access_token(&r)
    }

    /// Lea (lea@example.com, 09191234567), registered with the password "Pulutan2026"; answers
    /// her session token.
    async fn lea(&self) -> String {
        self.register("lea@example.com", "09191234567", "Pulutan2026")
            .await
    }

    /// Ben (ben@example.com, 09197654321), registered with the password "Pulutan2026"; answers
    /// his session token.
    async fn ben(&self) -> String {
        self.register("ben@example.com", "09197654321", "Pulutan2026")
            .await
    }

    /// The mail to `email` holding `needle` among the mails delivered now (`what` it is, when
    /// there is none).
    fn new_mail_to(&self, email: &str, needle: &str, what: &str) -> String {
        self.new_mails()
            .into_iter()
            .find(|m| m.contains(&format!("To: {email}")) && m.contains(needle))
            .expect(what)
    }

    /// The answer to asking for a reset link for `email`: its status and JSON.
    async fn get_link(&self, email: &str) -> (StatusCode, Value) {
        let (s, v, _) = self
            .ask(request(
                "POST",
                "/api/v1/reset/password/get-link",
                Some(json!({ "email": email })),
                &[],
            ))
            .await;
        (s, v)
    }

    /// Asks for a reset link for `email` and answers the link's token from the mail.
    async fn reset_link(&self, email: &str) -> String {
        let (s, v) = self.get_link(email).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let mail = self.new_mail_to(email, "suid=", "a reset mail");
        link_in(&mail, "reset-password?suid=")
    }

    /// The status of `verify-link` for a reset link.
    async fn verify(&self, suid: &str) -> StatusCode {
        self.ask(request(
            "POST",
            "/api/v1/reset/password/verify-link",
            Some(json!({ "suid": suid })),
            &[],
        ))
        .await
        .0
    }

    /// The answer to a reset through the link `suid` to `password`.
    async fn reset(&self, suid: &str, password: &str) -> (StatusCode, Value) {
        let (s, v, _) = self
            .ask(request(
                "POST",
                "/api/v1/reset/password",
                Some(json!({ "suid": suid, "password": password })),
                &[],
            ))
            .await;
        (s, v)
    }

    /// A login (from no known client address); the status and the new token.
    async fn login(&self, login: &str, password: &str) -> (StatusCode, Option<String>) {
        self.login_from(None, login, password).await
    }

    /// A login from the client at `ip` (or none); the status and the new token.
    async fn login_from(
        &self,
        ip: Option<&str>,
        login: &str,
        password: &str,
    ) -> (StatusCode, Option<String>) {
        let mut r = request(
            "POST",
            "/api/v1/login",
            Some(json!({ "login": login, "password": password })),
            &[],
        );
        if let Some(ip) = ip {
            r = from(r, ip);
        }
        let (s, _, r) = self.ask(r).await;
        let token = r
            .headers
            .get("access-token")
            .map(|v| v.to_str().unwrap().to_string());
        (s, token)
    }

    /// The answer to a GET of `uri` with the `Authorization` header `auth`.
    async fn get_as(&self, uri: &str, auth: &str) -> (StatusCode, Value, Res) {
        self.ask(request("GET", uri, None, &[("authorization", auth)]))
            .await
    }

    /// The status of `GET /api/v1/user` for a session token.
    async fn user(&self, token: &str) -> StatusCode {
        self.get_as("/api/v1/user", &bearer(token)).await.0
    }

    /// Pre-registers `body` (from the client at `ip` when given); answers the token of the link
    /// mailed to `email`.
    async fn pre_register(&self, ip: Option<&str>, body: Value) -> String {
        let email = body["email"].as_str().unwrap().to_string();
        let mut r = request("POST", "/api/v1/pre-register", Some(body), &[]);
        if let Some(ip) = ip {
            r = from(r, ip);
        }
        let (s, v, _) = self.ask(r).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        link_token(&self.new_mail_to(&email, "registration?token=", "a registration link mail"))
    }

    /// The status of `GET /api/v1/check-registration-token` for a link's token.
    async fn check_link(&self, token: &str) -> StatusCode {
        self.ask(request(
            "GET",
            "/api/v1/check-registration-token",
            None,
            &[("registration-token", token)],
        ))
        .await
        .0
    }

    /// The answer to opening a registration link with `body`.
    async fn open_link(&self, token: &str, body: Option<Value>) -> (StatusCode, Value, Res) {
        self.ask(request(
            "POST",
            "/api/v1/registration",
            body,
            &[("registration-token", token)],
        ))
        .await
    }
}

/// A reset link stops working once a newer one is sent, after a reset, and after a password
/// change: asking again voids the older link, a reset voids them all, and changing the password
/// voids every link sent before it. Before, a reset link kept working through all three.
async fn reset_links_are_void_after_a_newer_link_a_reset_or_a_password_change(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    s.lea().await;
    let older = s.reset_link("lea@example.com").await;
    let newer = s.reset_link("lea@example.com").await;
    assert_ne!(older, newer);
    assert_eq!(
        s.verify(&older).await,
        StatusCode::NOT_FOUND,
        "asking again voids the older link"
    );
    assert_eq!(s.verify(&newer).await, StatusCode::OK);
    assert_eq!(
        s.reset(&older, "Lechon-2028x").await.0,
        StatusCode::NOT_FOUND,
        "the older link resets nothing"
    );
    assert_eq!(
        s.login("lea@example.com", "Lechon-2028x").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(s.reset(&newer, "Lechon-2028x").await.0, StatusCode::OK);
    for link in [&older, &newer] {
        assert_eq!(
            s.verify(link).await,
            StatusCode::NOT_FOUND,
            "a reset voids every link"
        );
    }
    let (st, token) = s.login("lea@example.com", "Lechon-2028x").await;
    assert_eq!(st, StatusCode::OK);
    let token = token.unwrap();
    // A link sent before a password change is void after it.
    let before_change = s.reset_link("lea@example.com").await;
    assert_eq!(s.verify(&before_change).await, StatusCode::OK);
    let auth = bearer(&token);
    let (st, v, _) = s
        .ask(request(
            "POST",
            "/api/v1/user/change-password",
            Some(json!({"current_password": "Lechon-2028x", "password": "Sisig-2027x"})),
            &[("authorization", &auth)],
        ))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(s.verify(&before_change).await, StatusCode::NOT_FOUND);
    assert_eq!(
        s.reset(&before_change, "Smoky-Porter-4471").await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        s.login("lea@example.com", "Sisig-2027x").await.0,
        StatusCode::OK
    );
}
both!(reset_links_are_void_after_a_newer_link_a_reset_or_a_password_change);

/// `{...}` segments of a path template filled with `1`.
fn fill(template: &str) -> String {
    template
        .split('/')
        .map(|seg| if seg.starts_with('{') { "1" } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

/// Every unsafe API call from another site is refused (403) with or without cookies, so another
/// site can neither log a visitor in (login CSRF) nor send other writes; JSON calls take
/// `application/json` only (415), and page forms from another origin are 403. Before, the rule
/// held only for requests with cookies, and a form could post a JSON-looking `text/plain` body.
async fn unsafe_calls_from_another_site_are_refused_with_or_without_cookies(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    let member = s.lea().await;
    let guest = s.guest().await;
    let login = json!({"login": "lea@example.com", "password": "Pulutan2026"});
    let refused = json!({ "error": CROSS_SITE });
    let (guest_cookie, member_cookie) = (format!("session={guest}"), format!("session={member}"));
    let log_in =
        |headers: &[(&str, &str)]| request("POST", "/api/v1/login", Some(login.clone()), headers);
    for headers in [
        vec![("origin", EVIL)],
        vec![("sec-fetch-site", "cross-site")],
        vec![("referer", "https://evil.example/win")],
        vec![("origin", "null")],
        vec![("origin", EVIL), ("cookie", &guest_cookie)],
        vec![("origin", EVIL), ("cookie", &member_cookie)],
    ] {
        let (st, v, r) = s.ask(log_in(&headers)).await;
        assert_eq!((st, &v), (StatusCode::FORBIDDEN, &refused), "{headers:?}");
        assert!(r.headers.get("access-token").is_none(), "{headers:?}");
    }
    // Every unsafe call, without a cookie.
    let unsafe_calls: Vec<_> = framework::registry::endpoints()
        .iter()
        .filter(|e| e.method() != framework::Method::Get)
        .collect();
    assert!(unsafe_calls.len() >= 10);
    for e in unsafe_calls {
        let uri = fill(e.path());
        for headers in [[("origin", EVIL)], [("sec-fetch-site", "cross-site")]] {
            let (st, v, _) = s
                .ask(request(
                    e.method().as_str(),
                    &uri,
                    Some(json!({})),
                    &headers,
                ))
                .await;
            assert_eq!(
                (st, &v),
                (StatusCode::FORBIDDEN, &refused),
                "{} {uri} {headers:?}",
                e.name()
            );
        }
    }
    // What an HTML form can send is not JSON, whatever the body looks like.
    for kind in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let r = s
            .send(
                TestRequest::post()
                    .uri("/api/v1/login")
                    .insert_header(("content-type", kind))
                    .set_payload(login.to_string()),
            )
            .await;
        assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{kind}");
        assert_eq!(
            r.json(),
            json!({"error": "Send the body as application/json."})
        );
        assert!(r.headers.get("access-token").is_none());
    }
    // The same login as JSON, from no browser or from the store's own pages.
    for headers in [vec![], vec![("origin", OWN)]] {
        let (st, v, r) = s.ask(log_in(&headers)).await;
        assert_eq!(st, StatusCode::OK, "{headers:?}: {v}");
        assert!(r.headers.get("access-token").is_some());
    }
    // The whole store: its API and its page forms.
    let store = store!(db);
    let (st, v) = {
        let r = send!(store, log_in(&[("origin", EVIL)]));
        (r.status, r.json())
    };
    assert_eq!((st, v), (StatusCode::FORBIDDEN, refused));
    let r = send!(store, log_in(&[("origin", SHOP)]));
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let mut jar = support::Jar::default();
    let page = send!(store, support::get("/login", ""));
    jar.keep(&page);
    let csrf = support::csrf_of(&page.text());
    let fields = support::form_body(&[
        ("csrf", &csrf),
        ("login", "lea@example.com"),
        ("password", "Pulutan2026"),
    ]);
    for (headers, cookie) in [
        (vec![("origin", EVIL)], jar.header()),
        (vec![("origin", EVIL)], String::new()),
        (vec![("sec-fetch-site", "cross-site")], jar.header()),
    ] {
        let mut form = support::post_form("/login", &cookie, &fields);
        for h in &headers {
            form = form.insert_header(*h);
        }
        let r = send!(store, form);
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{headers:?}");
        assert_eq!(r.text(), framework::origin::REFUSED_FORM);
        assert!(
            support::set_cookies(&r).is_empty(),
            "no session from a refused form"
        );
    }
    let r = send!(
        store,
        support::post_form("/login", &jar.header(), &fields).insert_header(("origin", SHOP))
    );
    assert_eq!(
        r.status,
        StatusCode::SEE_OTHER,
        "the store's own form logs in"
    );
}
both!(unsafe_calls_from_another_site_are_refused_with_or_without_cookies);

/// Only a bearer token sent without the session cookie is exempt from the origin rule, and the
/// bearer scheme is read in any case. Before, any `Authorization` header (`Basic`, `Token`, a
/// lowercase `bearer`) exempted a request carrying the cookie, so another site's page could add
/// one and write with the member's cookie.
async fn only_a_bearer_token_without_the_cookie_escapes_the_origin_rule(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    let token = s.lea().await;
    let cookie = format!("session={token}");
    let address = an_address();
    let with_token = [bearer(&token), format!("bearer {token}")];
    let mut schemes = vec!["Basic YTpi", "Token abc", "bearer x", "Bearer x"];
    schemes.extend(with_token.iter().map(String::as_str));
    for auth in &schemes {
        let (st, v, _) = s
            .ask(request(
                "POST",
                "/api/v1/user/addresses",
                Some(address.clone()),
                &[
                    ("cookie", &cookie),
                    ("authorization", auth),
                    ("origin", EVIL),
                ],
            ))
            .await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{auth} with the cookie: {v}");
        assert_eq!(v["error"], CROSS_SITE);
    }
    for auth in ["Basic YTpi", "Token abc"] {
        let (st, _, _) = s
            .ask(request(
                "POST",
                "/api/v1/user/addresses",
                Some(address.clone()),
                &[("authorization", auth), ("origin", EVIL)],
            ))
            .await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{auth} without the cookie");
    }
    // A bearer token alone, in any case of the scheme, is no browser's doing: allowed.
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let auth = format!("{scheme} {token}");
        let (st, v, _) = s
            .ask(request(
                "POST",
                "/api/v1/user/addresses",
                Some(address.clone()),
                &[("authorization", &auth), ("origin", EVIL)],
            ))
            .await;
        assert_eq!(st, StatusCode::CREATED, "{scheme} without the cookie: {v}");
    }
    let auth = format!("bearer {token}");
    let (st, v, _) = s.get_as("/api/v1/user", &auth).await;
    assert_eq!(st, StatusCode::OK, "a lowercase bearer authenticates: {v}");
    assert_eq!(v["data"]["email"], "lea@example.com");
    let (st, v, _) = s.get_as("/api/v1/user/addresses/list", &auth).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        v["results"].as_array().unwrap().len(),
        3,
        "only the bearer-only calls wrote: {v}"
    );
}
both!(only_a_bearer_token_without_the_cookie_escapes_the_origin_rule);

/// Neither the answers nor the mail tell whether an address has an account: a pre-registration
/// and a reset request each queue exactly one mail whatever the address, the request itself
/// writes none, and the answers are the same; and a member changes the profile at most 10 times
/// an hour. Before, the answers and their timing told (the mail was sent during the request, and
/// only for some addresses), and the profile could be changed without limit (each taken mobile
/// number answers differently).
async fn answers_and_mail_tell_nothing_of_an_account_and_the_profile_is_limited(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    let lea = s.lea().await;
    let ben = s.ben().await;
    assert_eq!(s.queued(), 0);
    let mut answers = vec![];
    for (n, email) in ["lea@example.com", "nobody@example.com"]
        .into_iter()
        .enumerate()
    {
        let body = link_form(email, "09170000009");
        let (st, v, _) = s
            .ask(request("POST", "/api/v1/pre-register", Some(body), &[]))
            .await;
        assert_eq!(s.queued(), n as i64 + 1, "{email}: one mail queued");
        assert_eq!(
            s.outbox_files(),
            0,
            "{email}: no mail sent during the request"
        );
        answers.push((st, v.to_string().replace(email, "<address>")));
    }
    assert_eq!(answers[0].0, StatusCode::OK);
    assert_eq!(
        answers[0], answers[1],
        "a taken and a new address answer alike"
    );
    let mut answers = vec![];
    for (n, email) in ["lea@example.com", "stranger@example.com"]
        .into_iter()
        .enumerate()
    {
        let (st, v) = s.get_link(email).await;
        assert_eq!(s.queued(), n as i64 + 3, "{email}: one mail queued");
        assert_eq!(
            s.outbox_files(),
            0,
            "{email}: no mail sent during the request"
        );
        answers.push((st, v));
    }
    assert_eq!(answers[0].0, StatusCode::OK);
    assert_eq!(
        answers[0], answers[1],
        "a known and an unknown address answer alike"
    );
    // Delivered off the request, the four mails arrive.
    let mails = s.mails();
    assert_eq!(mails.len(), 4);
    assert_eq!(s.queued(), 0);
    let to = |who: &str, what: &str| {
        mails
            .iter()
            .any(|m| m.contains(&format!("To: {who}")) && m.contains(what))
    };
    assert!(to("lea@example.com", "You already have an account"));
    assert!(to("nobody@example.com", "registration?token="));
    assert!(to("lea@example.com", "reset-password?suid="));
    assert!(to("stranger@example.com", "no account uses it"));
    // The profile: 10 changes an hour a member.
    let profile = json!({"first_name": "Lea", "last_name": "Salonga", "mobile": "09191234567", "birth_date": "1971-02-22"});
    let put = |token: &str, body: Value| {
        let auth = bearer(token);
        s.ask(request(
            "PUT",
            "/api/v1/user",
            Some(body),
            &[("authorization", &auth)],
        ))
    };
    for n in 1..=10 {
        let (st, v, _) = put(&lea, profile.clone()).await;
        assert_eq!(st, StatusCode::OK, "change {n}: {}", brief(&v));
    }
    let (st, v, r) = put(&lea, profile).await;
    assert_eq!(
        st,
        StatusCode::TOO_MANY_REQUESTS,
        "the 11th change: {}",
        brief(&v)
    );
    assert!(r.headers.get("retry-after").is_some());
    let ben_profile = json!({"first_name": "Ben", "last_name": "Cruz", "mobile": "09197654321", "birth_date": "1980-01-01"});
    let (st, v, _) = put(&ben, ben_profile).await;
    assert_eq!(
        st,
        StatusCode::OK,
        "another member is not limited: {}",
        brief(&v)
    );
}
both!(answers_and_mail_tell_nothing_of_an_account_and_the_profile_is_limited);

/// A stranger cannot take over a pre-registration of someone else's address: the mail carries
/// nothing the stranger typed, no password is kept, the link's holder chooses the password, a new
/// pre-registration replaces the pending one, and past the address's limit the owner is told a
/// link was already sent while the latest link goes on working. Before, the stranger set a
/// password of his own and a first name that read as a message in the mail, and the victim's
/// click on the link made the account with the stranger's password.
async fn a_stranger_cannot_hijack_a_pre_registration(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    let stranger = json!({
        "first_name": "Win a prize: evil.example", "last_name": "Dela Cruz",
        "email": "victim@example.com", "mobile": "09171112222", "birth_date": "1990-05-12",
        "password": "Stranger-Pass-2026", "accept_terms": true
    });
    let (st, v, _) = s
        .ask(request("POST", "/api/v1/pre-register", Some(stranger), &[]))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let mails = s.new_mails();
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert!(mail.contains("To: victim@example.com"));
    for typed in ["Win a", "prize", "evil", "Stranger-Pass"] {
        assert!(!mail.contains(typed), "the mail carries {typed:?}: {mail}");
    }
    let kept: Vec<String> = {
        use db::schema::registrations::dsl::*;
        registrations
            .filter(email.eq("victim@example.com"))
            .select(password_hash)
            .load(&mut db.pool.get().unwrap())
            .unwrap()
    };
    assert_eq!(kept, vec![String::new()], "no password is kept");
    let link = link_token(mail);
    // Opening the link needs the holder's own, good password.
    for body in [
        None,
        Some(json!({})),
        Some(json!({"password": "password1"})),
    ] {
        let (st, v, r) = s.open_link(&link, body.clone()).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body:?}: {v}");
        assert!(v["errors"]["password"][0].is_string(), "{body:?}: {v}");
        assert!(r.headers.get("access-token").is_none());
        assert_eq!(
            s.check_link(&link).await,
            StatusCode::OK,
            "the link still works"
        );
    }
    let (st, v, _) = s
        .open_link(&link, Some(json!({"password": "Smoky-Porter-4471"})))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        s.login("victim@example.com", "Stranger-Pass-2026").await.0,
        StatusCode::UNPROCESSABLE_ENTITY,
        "the stranger's password opens nothing"
    );
    assert_eq!(
        s.login("victim@example.com", "Smoky-Porter-4471").await.0,
        StatusCode::OK
    );

    // A new pre-registration replaces the pending one; past 3 an hour the owner is told a link
    // was sent, and the latest one works.
    let owner = || link_form("owner@example.com", "09173334444");
    let first = s.pre_register(Some("10.0.1.1"), owner()).await;
    let second = s.pre_register(Some("10.0.1.2"), owner()).await;
    assert_eq!(
        s.check_link(&first).await,
        StatusCode::NOT_FOUND,
        "replaced"
    );
    assert_eq!(s.check_link(&second).await, StatusCode::OK);
    let third = s.pre_register(Some("10.0.1.3"), owner()).await;
    assert_eq!(
        s.check_link(&second).await,
        StatusCode::NOT_FOUND,
        "replaced"
    );
    assert_eq!(s.check_link(&third).await, StatusCode::OK);
    let (st, v, r) = s
        .ask(from(
            request("POST", "/api/v1/pre-register", Some(owner()), &[]),
            "10.0.1.4",
        ))
        .await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("We already sent a link to this address"),
        "{v}"
    );
    assert!(r.headers.get("retry-after").is_some());
    assert!(s.new_mails().is_empty(), "no fourth mail");
    assert_eq!(
        s.check_link(&third).await,
        StatusCode::OK,
        "the latest link still works"
    );
    let (st, v, _) = s
        .open_link(&third, Some(json!({"password": "Lechon-2028x"})))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
}
both!(a_stranger_cannot_hijack_a_pre_registration);

/// A client guessing a member's password is stopped while the owner, elsewhere, still gets in:
/// failures count per account and client, and the email and the mobile number are one account.
/// Before, five wrong passwords from anywhere locked the account for everyone (its owner too),
/// and the email and the mobile number counted apart (ten tries instead of five).
async fn a_guessing_client_is_stopped_and_the_owner_still_gets_in(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    s.lea().await;
    s.ben().await;
    let (a, elsewhere) = ("10.0.0.1", "10.0.0.2");
    for n in 1..=5 {
        let (st, _) = s
            .login_from(Some(a), "lea@example.com", "Guess-2026x")
            .await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "wrong try {n}");
    }
    let (st, token) = s
        .login_from(Some(a), "lea@example.com", "Pulutan2026")
        .await;
    assert_eq!(
        st,
        StatusCode::TOO_MANY_REQUESTS,
        "the guessing client is stopped"
    );
    assert!(token.is_none());
    assert_eq!(
        s.login_from(Some(a), "09191234567", "Pulutan2026").await.0,
        StatusCode::TOO_MANY_REQUESTS,
        "by mobile too"
    );
    let (st, token) = s
        .login_from(Some(elsewhere), "lea@example.com", "Pulutan2026")
        .await;
    assert_eq!(st, StatusCode::OK, "the owner elsewhere gets in");
    assert_eq!(s.user(&token.unwrap()).await, StatusCode::OK);
    // Email and mobile are one account: 3 wrong tries by email and 2 by mobile stop a client.
    let c = "10.0.0.3";
    for (n, login) in [
        "ben@example.com",
        "09197654321",
        "BEN@example.com",
        "0919 765 4321",
        "ben@example.com",
    ]
    .into_iter()
    .enumerate()
    {
        let (st, _) = s.login_from(Some(c), login, "Guess-2026x").await;
        assert_eq!(
            st,
            StatusCode::UNPROCESSABLE_ENTITY,
            "wrong try {} ({login})",
            n + 1
        );
    }
    for login in ["ben@example.com", "09197654321"] {
        assert_eq!(
            s.login_from(Some(c), login, "Pulutan2026").await.0,
            StatusCode::TOO_MANY_REQUESTS,
            "{login}"
        );
    }
    assert_eq!(
        s.login_from(Some("10.0.0.4"), "09197654321", "Pulutan2026")
            .await
            .0,
        StatusCode::OK
    );
}
both!(a_guessing_client_is_stopped_and_the_owner_still_gets_in);

/// A request and what it must answer: method, address, body, headers, status, and what it is.
type Case<'a> = (
    &'a str,
    &'a str,
    Option<Value>,
    Vec<(&'a str, &'a str)>,
    StatusCode,
    &'a str,
);

/// Every answer that depends on the session (the member, her addresses, her form errors) says
/// `Cache-Control: private, no-store` and `Vary: Cookie, Authorization`, so no shared cache keeps
/// one for another visitor; a public read does not. Before, they went out without cache headers.
async fn session_answers_are_private_and_public_ones_are_not(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    let member = s.lea().await;
    let guest = s.guest().await;
    let (member_auth, guest_auth) = (bearer(&member), bearer(&guest));
    let member_cookie = format!("session={member}");
    let profile_errors =
        json!({"first_name": "", "last_name": "S", "mobile": "123", "birth_date": "2020-01-01"});
    let cases: [Case; 6] = [
        (
            "GET",
            "/api/v1/user",
            None,
            vec![("authorization", &member_auth)],
            StatusCode::OK,
            "the member",
        ),
        (
            "GET",
            "/api/v1/user",
            None,
            vec![("cookie", &member_cookie)],
            StatusCode::OK,
            "the member by her cookie",
        ),
        (
            "GET",
            "/api/v1/user",
            None,
            vec![("authorization", &guest_auth)],
            StatusCode::UNAUTHORIZED,
            "a guest's 401",
        ),
        (
            "GET",
            "/api/v1/user",
            None,
            vec![],
            StatusCode::UNAUTHORIZED,
            "a visitor's 401 with a new guest token",
        ),
        (
            "GET",
            "/api/v1/user/addresses/list",
            None,
            vec![("authorization", &member_auth)],
            StatusCode::OK,
            "her addresses",
        ),
        (
            "PUT",
            "/api/v1/user",
            Some(profile_errors),
            vec![("authorization", &member_auth)],
            StatusCode::UNPROCESSABLE_ENTITY,
            "her form's errors",
        ),
    ];
    for (method, uri, body, headers, status, what) in cases {
        let (st, v, r) = s.ask(request(method, uri, body, &headers)).await;
        assert_eq!(st, status, "{what}: {v}");
        assert_private(&r, what);
    }
    // A public read is shared: it does not say no-store.
    let provinces = framework::registry::endpoints()
        .iter()
        .find(|e| e.name() == "provinces")
        .expect("the provinces call");
    assert_eq!(provinces.access(), framework::Access::Public);
    for headers in [vec![], vec![("authorization", member_auth.as_str())]] {
        let (st, _, r) = s
            .ask(request("GET", provinces.path(), None, &headers))
            .await;
        assert_eq!(st, StatusCode::OK);
        let cc = r
            .headers
            .get("cache-control")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        assert!(!cc.contains("no-store"), "a public read: {cc:?}");
    }
}
both!(session_answers_are_private_and_public_ones_are_not);

/// Passwords follow the rules (none short or common, a new one not the current one) at the
/// registration link, at a reset and at a password change, and deleting the account or a new
/// mobile number (a login name) needs the current password. Before, short and common passwords
/// were taken, a "new" password could be the current one, and a session alone deleted the
/// account or changed the mobile number.
async fn weak_passwords_are_refused_and_sensitive_changes_need_the_current_one(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    let link = s
        .pre_register(None, link_form("rosa@example.com", "09181234567"))
        .await;
    for (weak, why) in WEAK {
        let (st, v, _) = s.open_link(&link, Some(json!({ "password": weak }))).await;
        assert_weak(st, &v, weak, why, "registration");
    }
    let (st, v, r) = s
        .open_link(&link, Some(json!({"password": "Pulutan2026"})))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let token = access_token(&r);
    let auth = bearer(&token);
    let auth = [("authorization", auth.as_str())];
    // A reset.
    let suid = s.reset_link("rosa@example.com").await;
    for (weak, why) in WEAK {
        let (st, v) = s.reset(&suid, weak).await;
        assert_weak(st, &v, weak, why, "reset");
    }
    let (st, v) = s.reset(&suid, "Pulutan2026").await;
    assert_eq!(
        st,
        StatusCode::UNPROCESSABLE_ENTITY,
        "reset to the current password: {v}"
    );
    assert!(v["errors"]["password"][0].is_string(), "{v}");
    assert_eq!(
        s.verify(&suid).await,
        StatusCode::OK,
        "the link is not used up"
    );
    assert_eq!(s.user(&token).await, StatusCode::OK, "no reset happened");
    // A password change.
    let change = |password: &str| {
        request(
            "POST",
            "/api/v1/user/change-password",
            Some(json!({"current_password": "Pulutan2026", "password": password})),
            &auth,
        )
    };
    for (weak, why) in WEAK {
        let (st, v, _) = s.ask(change(weak)).await;
        assert_weak(st, &v, weak, why, "change");
    }
    let (st, v, _) = s.ask(change("Pulutan2026")).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(
        v["errors"]["password"][0],
        "The new password must differ from the current one."
    );
    assert_eq!(
        s.login("rosa@example.com", "Pulutan2026").await.0,
        StatusCode::OK,
        "the password is unchanged"
    );
    // A new mobile number needs the current password.
    let profile = |current: Option<&str>| {
        let mut p = json!({"first_name": "Rosa", "last_name": "Santos", "mobile": "09185550000", "birth_date": "1988-08-08"});
        if let Some(c) = current {
            p["current_password"] = json!(c);
        }
        request("PUT", "/api/v1/user", Some(p), &auth)
    };
    let (st, v, _) = s.ask(profile(None)).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{}", brief(&v));
    assert!(v["errors"]["current_password"][0].is_string(), "{v}");
    let (st, v, _) = s.ask(profile(Some("Pulutan2026"))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["mobile"], "09185550000");
    // Deleting the account needs the current password.
    let (st, v, _) = s.ask(request("DELETE", "/api/v1/user", None, &auth)).await;
    assert!(
        st == StatusCode::UNPROCESSABLE_ENTITY || st == StatusCode::BAD_REQUEST,
        "no body: {st} {v}"
    );
    assert_eq!(
        s.user(&token).await,
        StatusCode::OK,
        "the account is still there"
    );
    for (body, what) in [
        (json!({}), "a session alone"),
        (
            json!({"current_password": "Guess-2026x"}),
            "a wrong password",
        ),
    ] {
        let (st, v, _) = s
            .ask(request("DELETE", "/api/v1/user", Some(body), &auth))
            .await;
        assert_eq!(
            st,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{what}: {}",
            brief(&v)
        );
        assert!(
            v["errors"]["current_password"][0].is_string(),
            "{what}: {v}"
        );
        assert_eq!(s.user(&token).await, StatusCode::OK, "{what}: still there");
    }
    let (st, v, _) = s
        .ask(request(
            "DELETE",
            "/api/v1/user",
            Some(json!({"current_password": "Pulutan2026"})),
            &auth,
        ))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(s.user(&token).await, StatusCode::UNAUTHORIZED);
}
both!(weak_passwords_are_refused_and_sensitive_changes_need_the_current_one);

/// An API address over 2,000 bytes is refused (414) and echoes nothing; one under it is still a
/// plain 404. Before, an address of any length was answered and its 404 echoed the whole path
/// (amplified logs and answers).
async fn an_api_address_over_2000_bytes_is_refused_unechoed(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    let long = format!("/api/v1/{}", "a".repeat(2_100));
    let long_query = format!("/api/v1/provinces?x={}", "a".repeat(2_100));
    let near = format!("/api/v1/{}", "a".repeat(1_900 - "/api/v1/".len()));
    assert_eq!(near.len(), 1_900);
    let store = store!(db);
    for uri in [&long, &long_query] {
        for method in ["GET", "POST"] {
            let r = s.send(request(method, uri, None, &[])).await;
            assert_eq!(
                r.status,
                StatusCode::URI_TOO_LONG,
                "{method} {}",
                &uri[..30]
            );
            assert!(!r.text().contains("aaaa"), "{}", r.text());
            let r = send!(store, request(method, uri, None, &[]));
            assert_eq!(r.status, StatusCode::URI_TOO_LONG, "the store: {method}");
            assert!(!r.text().contains("aaaa"));
        }
    }
    let r = s.send(request("GET", &near, None, &[])).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    let r = send!(store, request("GET", &near, None, &[]));
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // The edge: a path and query of 2,000 bytes is read, of 2,001 refused.
    let at = |n: usize| format!("/api/v1/provinces?x={}", "a".repeat(n - 19));
    assert_eq!(at(2_000).len(), 2_000 + "?".len());
    assert_eq!(
        s.send(request("GET", &at(2_000), None, &[])).await.status,
        StatusCode::OK
    );
    assert_eq!(
        s.send(request("GET", &at(2_001), None, &[])).await.status,
        StatusCode::URI_TOO_LONG
    );
}
both!(an_api_address_over_2000_bytes_is_refused_unechoed);

/// Behind a proxy named in `TRUSTED_PROXIES` the limits count each shopper by the
/// `X-Forwarded-For` address the proxy added, so one guessing shopper does not lock the owner out
/// through the same proxy; a client that is not the proxy cannot choose its own address by
/// writing the header.
async fn behind_a_trusted_proxy_each_shopper_is_a_client(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    s.lea().await;
    let state = support::api_state(
        &db.pool,
        s.outbox(),
        framework::ApiConfig {
            trusted_proxies: std::sync::Arc::from(vec!["10.9.9.9".parse().unwrap()]),
            ..framework::ApiConfig::default()
        },
    );
    let app = actix_web::test::init_service(
        actix_web::App::new()
            .app_data(state)
            .configure(framework::configure),
    )
    .await;
    let login = |peer: &str, forwarded: &str, password: &str| {
        from(
            request(
                "POST",
                "/api/v1/login",
                Some(json!({"login": "lea@example.com", "password": password})),
                &[("x-forwarded-for", forwarded)],
            ),
            peer,
        )
        .to_request()
    };
    // A guesser behind the proxy is stopped after five wrong tries...
    for _ in 0..5 {
        let r = support::call(&app, login("10.9.9.9", "198.51.100.1", "Guess-2026x")).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let r = support::call(&app, login("10.9.9.9", "198.51.100.1", "Pulutan2026")).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    // ...the owner behind the same proxy gets in, and a forged hop before the proxy's is not
    // the guesser's way out.
    let r = support::call(&app, login("10.9.9.9", "198.51.100.2", "Pulutan2026")).await;
    assert_eq!(r.status, StatusCode::OK);
    let forged = "198.51.100.77, 198.51.100.1";
    let r = support::call(&app, login("10.9.9.9", forged, "Pulutan2026")).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    // A client that is not the proxy is counted by its own address, whatever it writes.
    for _ in 0..5 {
        let r = support::call(&app, login("203.0.113.5", "198.51.100.9", "Guess-2026x")).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let r = support::call(&app, login("203.0.113.5", "198.51.100.10", "Pulutan2026")).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
}
both!(behind_a_trusted_proxy_each_shopper_is_a_client);

/// An address is often many shoppers (a carrier-grade NAT, or the proxy when `TRUSTED_PROXIES` is
/// not set): fifty members logging in through one address all get in, while one account's guesser
/// there is still stopped after five tries; and from a peer that is not a trusted proxy, a forged
/// `X-Forwarded-For` neither splits one client into many nor makes it another.
async fn fifty_members_behind_one_address_log_in(b: Backend) {
    let db = database(b);
    support::members_who_log_in(&db, 1..=50).await;
    let s = Shop::new(&db);
    for n in 1..=50 {
        let (st, token) = s
            .login_from(
                Some("100.64.0.1"),
                &format!("member{n}@example.com"),
                "Tala beer 2026 ok",
            )
            .await;
        assert_eq!(st, StatusCode::OK, "member {n}");
        assert!(token.is_some());
    }
    for _ in 0..5 {
        let (st, _) = s
            .login_from(Some("100.64.0.1"), "member1@example.com", "Guess-2026x")
            .await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let (st, _) = s
        .login_from(
            Some("100.64.0.1"),
            "member1@example.com",
            "Tala beer 2026 ok",
        )
        .await;
    assert_eq!(
        st,
        StatusCode::TOO_MANY_REQUESTS,
        "the guesser's address is stopped on that account"
    );
    // A forged hop from an untrusted peer: still the peer, still stopped.
    let r = request(
        "POST",
        "/api/v1/login",
        Some(json!({"login": "member1@example.com", "password": "Tala beer 2026 ok"})),
        &[("x-forwarded-for", "198.51.100.200")],
    );
    let (st, _, _) = s.ask(from(r, "100.64.0.1")).await;
    assert_eq!(
        st,
        StatusCode::TOO_MANY_REQUESTS,
        "a forged X-Forwarded-For gains nothing"
    );
    // And the other members at that address are not locked out by it.
    let (st, _) = s
        .login_from(
            Some("100.64.0.1"),
            "member2@example.com",
            "Tala beer 2026 ok",
        )
        .await;
    assert_eq!(st, StatusCode::OK);
}
both!(fifty_members_behind_one_address_log_in);

/// Guessers at many addresses do not lock the owner out: ten clients guessing five times each
/// fill the account's wider limit (50 failures an hour), then a client that already failed is
/// refused at once, but the owner at an address that has not failed still gets in; and the
/// addresses of one IPv6 /64 are one client.
async fn many_guessing_clients_do_not_lock_the_owner_out(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    s.lea().await;
    for c in 1..=10 {
        let ip = format!("10.1.0.{c}");
        for n in 1..=5 {
            let (st, _) = s
                .login_from(Some(&ip), "lea@example.com", "Guess-2026x")
                .await;
            assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{ip}, try {n}");
        }
    }
    // The sixth client failed once; past the account's limit its second try is refused.
    let (st, _) = s
        .login_from(Some("10.1.0.11"), "lea@example.com", "Guess-2026x")
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, _) = s
        .login_from(Some("10.1.0.11"), "lea@example.com", "Pulutan2026")
        .await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "a client that failed");
    let (st, token) = s
        .login_from(Some("192.0.2.50"), "lea@example.com", "Pulutan2026")
        .await;
    assert_eq!(st, StatusCode::OK, "the owner elsewhere gets in");
    assert!(token.is_some());
    // Addresses of one IPv6 /64 are one client: five wrong tries from five of them stop the sixth
    // (on another account, below its wider limit).
    s.ben().await;
    for n in 1..=5 {
        let ip = format!("2001:db8:7:7::{n}");
        let (st, _) = s.login_from(Some(&ip), "09197654321", "Guess-2026x").await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{ip}");
    }
    let (st, _) = s
        .login_from(Some("2001:db8:7:7::99"), "09197654321", "Pulutan2026")
        .await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS);
}
both!(many_guessing_clients_do_not_lock_the_owner_out);

/// Requests for new links of one account (or one address) at the same moment leave exactly one
/// live link, not one per request: a reset link and a pre-registration's link stay one under a
/// crowd too.
async fn concurrent_link_requests_leave_one_live_link(b: Backend) {
    let db = database(b);
    let s = Shop::new(&db);
    s.lea().await;
    let lea: i64 = db::schema::users::table
        .select(db::schema::users::id)
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    let lea = domain::UserId::from_db(lea);
    let threads: Vec<_> = (0..4)
        .map(|n| {
            let pool = db.pool.clone();
            std::thread::spawn(move || {
                let mut conn = pool.get().unwrap();
                for k in 0..5 {
                    db::users::create_password_reset(
                        &mut conn,
                        &format!("reset {n} {k}"),
                        lea,
                        i64::MAX / 4,
                    )
                    .unwrap();
                    let row = db::users::RegistrationRow {
                        token_hash: format!("registration {n} {k}"),
                        email: "rosa@example.com".into(),
                        mobile: "09181234567".into(),
                        first_name: "Rosa".into(),
                        last_name: "Santos".into(),
                        birth_date: "1988-08-08".into(),
                        password_hash: String::new(),
                        expires_at: i64::MAX / 4,
                        used_at: None,
                    };
                    db::users::create_registration(&mut conn, &row).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let mut conn = db.pool.get().unwrap();
    let resets: i64 = db::schema::password_resets::table
        .count()
        .get_result(&mut conn)
        .unwrap();
    let pending: i64 = db::schema::registrations::table
        .filter(db::schema::registrations::used_at.is_null())
        .count()
        .get_result(&mut conn)
        .unwrap();
    assert_eq!((resets, pending), (1, 1));
}
both!(concurrent_link_requests_leave_one_live_link);
