//! Every form of every back office page, pressed as a browser without JavaScript presses it, on
//! SQLite and PostgreSQL: a manager (who may see every page) walks the back office from its home
//! by its links, and on each page sends each form with what the page put in it (a required field
//! left empty gets a plausible value, the first box of a list is ticked). Each must land where it
//! says: a `303` to an address of the store with no `{name}` left in it, whose page answers 200
//! and, when the address carries `done=`, shows the form's message; or the page again with the
//! form's own message (422, 409). Never a 404, a 500, an expired form or the sign-in page.
//! File forms (a photo, the catalog file) have tests of their own (`staff_pages`, `photos`).
//! `FORMS_TELL=1` prints each form that came back, and why.

// The walk tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use std::collections::{BTreeSet, VecDeque};

use actix_web::http::StatusCode;
use support::staff::Staff;
use support::{form_body, location, Backend, Jar, SHOP};

use crate::support;

/// The most forms pressed on one page in one visit (a run of many stops has a form for each).
const MOST_FORMS_A_PAGE: usize = 60;

/// One `<form>` of a page as a browser would send it.
#[derive(Debug)]
struct Form {
    method: String,
    action: String,
    multipart: bool,
    fields: Vec<(String, String)>,
    /// What the form is, for the messages: its call or its action.
    name: String,
    /// What tells it from the page's other forms: its action and hidden fields (the CSRF token's
    /// aside), so a form is pressed once however the page changes around it.
    key: String,
}

/// The attributes of a tag's text (`<input name="a" value="b" required>`), entities decoded.
fn attrs(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag.trim_start_matches('<');
    // Past the element's name.
    rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    loop {
        rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with('>') || rest.starts_with("/>") {
            break;
        }
        let end = rest
            .find(|c: char| c == '=' || c.is_whitespace() || c == '>')
            .unwrap_or(rest.len());
        let name = rest[..end].to_ascii_lowercase();
        rest = &rest[end..];
        if let Some(after) = rest.strip_prefix("=\"") {
            let close = after.find('"').unwrap_or(after.len());
            out.push((name, decode(&after[..close])));
            rest = &after[(close + 1).min(after.len())..];
        } else {
            out.push((name, String::new()));
        }
    }
    out
}

fn attr<'a>(a: &'a [(String, String)], name: &str) -> Option<&'a str> {
    a.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

fn decode(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The tags named `name` in `html`, each as its text up to `>`, with what follows it.
fn tags<'a>(html: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    let open = format!("<{name}");
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = html[at..].find(&open) {
        let start = at + i;
        let next = html[start + open.len()..].chars().next();
        if !matches!(next, Some(' ' | '>' | '/')) {
            at = start + open.len();
            continue;
        }
        let end = html[start..]
            .find('>')
            .map_or(html.len(), |e| start + e + 1);
        out.push((&html[start..end], &html[end..]));
        at = end;
    }
    out
}

/// A value for a required field the page left empty, by its type and name.
fn plausible(kind: &str, name: &str) -> String {
    match kind {
        "date" => domain::calendar::iso_date(domain::calendar::manila_now().date()),
        "email" => "form-test@example.com".into(),
        "tel" => "09171234567".into(),
        "number" => "1".into(),
        _ if name.contains("empties") => "0".into(),
        _ if name.contains("cash") || name.contains("price") || name.contains("fee") => "1".into(),
        _ => "Pressed by the form test".into(),
    }
}

/// The inputs of a form (its own, and those elsewhere on the page that name it: `form="cities"`)
/// as sent: what the page put in them, a required empty one filled, the first box of a list with
/// none ticked ticked (the board's orders), a radio group's first choice when none is.
fn inputs(html: &str, body: &str, id: Option<&str>, fill_all: bool) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut ticked: BTreeSet<String> = BTreeSet::new();
    let mut boxes: Vec<(String, String)> = Vec::new();
    let elsewhere = tags(html, "input")
        .into_iter()
        .filter(|(t, _)| id.is_some() && attr(&attrs(t), "form") == id);
    for (input, _) in tags(body, "input").into_iter().chain(elsewhere) {
        let i = attrs(input);
        let (Some(name), kind) = (attr(&i, "name"), attr(&i, "type").unwrap_or("text")) else {
            continue;
        };
        let value = attr(&i, "value").unwrap_or("").to_string();
        match kind {
            "checkbox" | "radio" if attr(&i, "checked").is_some() => {
                ticked.insert(name.to_string());
                fields.push((name.into(), value_or_on(&value)));
            }
            "checkbox" | "radio" => boxes.push((name.into(), value_or_on(&value))),
            "file" | "submit" | "button" | "image" | "reset" => {}
            // Empty and required, or any empty field of a form that writes (a stop's cash, a
            // close's note): what a person would type.
            "text" | "email" | "tel" | "date" | "number" | "search"
                if value.is_empty() && (fill_all || attr(&i, "required").is_some()) =>
            {
                let numeric = matches!(attr(&i, "inputmode"), Some("numeric" | "decimal"));
                let kind = if numeric && !name.contains("empties") {
                    "number"
                } else {
                    kind
                };
                fields.push((name.into(), plausible(kind, name)));
            }
            _ => fields.push((name.into(), value)),
        }
    }
    for (name, value) in boxes {
        if ticked.insert(name.clone()) {
            fields.push((name, value));
        }
    }
    fields
}

/// The selects of a form: the chosen option, or the first real one when that is a placeholder
/// ("Choose the rider").
fn selects(body: &str) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    for (select, rest) in tags(body, "select") {
        let s = attrs(select);
        let Some(name) = attr(&s, "name") else {
            continue;
        };
        let options = &rest[..rest.find("</select>").unwrap_or(rest.len())];
        let all: Vec<Vec<(String, String)>> = tags(options, "option")
            .into_iter()
            .map(|(o, _)| attrs(o))
            .collect();
        let real = |o: &&Vec<(String, String)>| !attr(o, "value").unwrap_or("").is_empty();
        let chosen = all
            .iter()
            .find(|o| attr(o, "selected").is_some() && real(o))
            .or_else(|| all.iter().find(real))
            .or(all.first());
        let value = chosen.and_then(|o| attr(o, "value")).unwrap_or("");
        fields.push((name.into(), value.into()));
    }
    fields
}

/// The text areas of a form, an empty one filled when required or when the form writes.
fn text_areas(body: &str, fill_all: bool) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    for (area, rest) in tags(body, "textarea") {
        let t = attrs(area);
        let Some(name) = attr(&t, "name") else {
            continue;
        };
        let text = decode(&rest[..rest.find("</textarea>").unwrap_or(0)]);
        let text = if text.is_empty() && (fill_all || attr(&t, "required").is_some()) {
            plausible("textarea", name)
        } else {
            text
        };
        fields.push((name.into(), text));
    }
    fields
}

/// The forms of a page, each as pressed by its first submit button (with the button's name and
/// value when it has them: Mark Delivered).
fn forms(html: &str, page: &str) -> Vec<Form> {
    let mut out = Vec::new();
    for (tag, after) in tags(html, "form") {
        let a = attrs(tag);
        let body = &after[..after.find("</form>").unwrap_or(after.len())];
        let method = attr(&a, "method").unwrap_or("get").to_ascii_lowercase();
        let writes = method == "post";
        let mut fields = inputs(html, body, attr(&a, "id"), writes);
        fields.extend(selects(body));
        fields.extend(text_areas(body, writes));
        let hidden: Vec<String> = tags(body, "input")
            .into_iter()
            .map(|(t, _)| attrs(t))
            .filter(|i| attr(i, "type") == Some("hidden") && attr(i, "name") != Some("csrf"))
            .map(|i| {
                format!(
                    "{}={}",
                    attr(&i, "name").unwrap_or(""),
                    attr(&i, "value").unwrap_or("")
                )
            })
            .collect();
        if let Some(b) = tags(body, "button")
            .into_iter()
            .map(|(b, _)| attrs(b))
            .find(|b| matches!(attr(b, "type"), None | Some("submit")))
        {
            if let (Some(n), Some(v)) = (attr(&b, "name"), attr(&b, "value")) {
                fields.push((n.into(), v.into()));
            }
        }
        let action = attr(&a, "action").unwrap_or(page).to_string();
        let call = fields
            .iter()
            .find(|(n, _)| n == "_call")
            .map(|(_, v)| v.clone());
        out.push(Form {
            key: format!(
                "{method} {} {}",
                attr(&a, "action").unwrap_or(page),
                hidden.join("&")
            ),
            method,
            multipart: attr(&a, "enctype").is_some_and(|e| e.contains("multipart")),
            name: format!("{} on {page}", call.unwrap_or_else(|| action.clone())),
            action,
            fields,
        });
    }
    out
}

/// Whether an element or a JSON field opened by `opening` (a message's) says something somewhere in
/// the page (is followed by neither `<` nor `"`).
fn says(html: &str, opening: &str) -> bool {
    html.match_indices(opening)
        .any(|(i, _)| !html[i + opening.len()..].starts_with(['<', '"']))
}

fn value_or_on(v: &str) -> String {
    if v.is_empty() {
        "on".into()
    } else {
        v.into()
    }
}

/// The back office's own links on a page (`/staff...`, not the sign-in's), without query or
/// fragment.
fn links(html: &str) -> Vec<String> {
    tags(html, "a")
        .into_iter()
        .filter_map(|(a, _)| attr(&attrs(a), "href").map(str::to_string))
        .filter(|h| h.starts_with("/staff") && !h.starts_with("/staff/login"))
        .map(|h| h.split(['?', '#']).next().unwrap().to_string())
        .collect()
}

/// A page's kind: its path with each number as `{id}` (one page of each kind is walked).
fn kind(path: &str) -> String {
    path.split('/')
        .map(|s| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                "{id}"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

async fn every_staff_form_lands_where_it_says(b: Backend) {
    let db = support::database(b);
    let store = store!(db, support::store_config(&db.url, false));
    for (n, email) in ["ana@example.com", "cora@example.com", "dan@example.com"]
        .into_iter()
        .enumerate()
    {
        support::guest_order(&db, if n == 1 { 2 } else { 1 }, email).await;
    }
    let _rider = Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let jar = Jar(vec![(
        api::staff::COOKIE.into(),
        boss.cookie.clone().expect("a staff session"),
    )]);
    let get = |uri: &str| support::get(uri, &jar.header());

    // Twice: the first walk confirms orders, so the second finds runs to plan, send and end.
    // Pages to walk, each with the page that linked to it.
    let mut queue: VecDeque<(String, String)> =
        VecDeque::from([("/staff".to_string(), "/staff".to_string())]);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut walked: BTreeSet<String> = BTreeSet::new();
    let (mut landed, mut refused, mut pages, mut round) = (0, 0, 0, 1);
    let mut failures: Vec<String> = Vec::new();
    loop {
        let Some((page, from)) = queue.pop_front() else {
            if round == 2 {
                break;
            }
            round = 2;
            walked.append(&mut seen);
            queue.push_back(("/staff".into(), "/staff".into()));
            continue;
        };
        if !seen.insert(kind(&page)) {
            continue;
        }
        let first = send!(store, get(&page));
        // A link to something a form has since taken away (a run left empty) is no fault, as
        // long as the page that showed it shows it no more; the audit log's history may name
        // what is gone.
        if first.status == StatusCode::NOT_FOUND && from.starts_with("/staff/audit") {
            seen.remove(&kind(&page));
            continue;
        }
        if first.status == StatusCode::NOT_FOUND {
            let again = send!(store, get(from.split('?').next().unwrap())).text();
            if !links(&again).contains(&page) {
                seen.remove(&kind(&page));
                continue;
            }
        }
        assert_eq!(
            first.status,
            StatusCode::OK,
            "{page} (linked from {from}): {}",
            first.text()
        );
        pages += 1;
        queue.extend(links(&first.text()).into_iter().map(|l| (l, page.clone())));
        // Each form once, from the page as it stands after the one before, the last first: a
        // run's Send before its stops are taken off, then its stops' outcomes, then its close.
        let mut pressed: BTreeSet<String> = BTreeSet::new();
        for _ in 0..MOST_FORMS_A_PAGE {
            let html = send!(store, get(&page)).text();
            let Some(form) = forms(&html, &page).into_iter().rev().find(|f| {
                !pressed.contains(&f.key)
                    && !f.multipart
                    && !f
                        .fields
                        .iter()
                        .any(|(n, v)| n == "_call" && v == "staffLogout")
            }) else {
                break;
            };
            pressed.insert(form.key.clone());
            let pairs: Vec<(&str, &str)> = form
                .fields
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            let r = if form.method == "post" {
                send!(
                    store,
                    support::post_form(&form.action, &jar.header(), &form_body(&pairs))
                        .insert_header(("origin", SHOP))
                )
            } else {
                let uri = format!("{}?{}", form.action, form_body(&pairs));
                send!(store, get(&uri))
            };
            let what = &form.name;
            match r.status {
                StatusCode::SEE_OTHER | StatusCode::FOUND => {
                    let to = location(&r).to_string();
                    if to.contains('{') || to.contains("%7B") || to.starts_with("/staff/login") {
                        failures.push(format!("{what}: went to {to}"));
                        continue;
                    }
                    let path = to.split('#').next().unwrap();
                    let there = send!(store, get(path));
                    if there.status != StatusCode::OK {
                        failures.push(format!("{what}: {to} answered {}", there.status));
                        continue;
                    }
                    if to.contains("done=")
                        && !says(&there.text(), r#"class="form-message" role="status">"#)
                    {
                        failures.push(format!("{what}: {to} shows no message of what was done"));
                        continue;
                    }
                    // Where the form took the walk is walked next (a run just planned, before
                    // another page cancels its orders), then what it links to.
                    let here = path.split('?').next().unwrap().to_string();
                    queue.extend(links(&there.text()).into_iter().map(|l| (l, here.clone())));
                    queue.push_front((here, page.clone()));
                    landed += 1;
                }
                StatusCode::OK if form.method == "get" => landed += 1,
                StatusCode::UNPROCESSABLE_ENTITY | StatusCode::CONFLICT => {
                    // The form again, saying why.
                    // Said on the page, or at least in what the page was given to say (a page
                    // whose data came late under load renders its form with the script).
                    if says(&r.text(), r#"role="alert">"#) || says(&r.text(), r#""message":""#) {
                        refused += 1;
                        if std::env::var("FORMS_TELL").is_ok() {
                            let t = r.text();
                            let at = t
                                .match_indices(r#"role="alert">"#)
                                .map(|(i, _)| i)
                                .find(|i| !t[i + 13..].starts_with('<'))
                                .unwrap_or(0);
                            eprintln!("{what}: {} {}", r.status, &t[at..(at + 200).min(t.len())]);
                        }
                    } else {
                        let t = r.text();
                        let at = t.find("<main").unwrap_or(0);
                        failures.push(format!(
                            "{what}: {} with no message: {}",
                            r.status,
                            t[at..].chars().take(600).collect::<String>()
                        ));
                    }
                }
                other => failures.push(format!(
                    "{what}: answered {other}: {}",
                    r.text().chars().take(300).collect::<String>()
                )),
            }
        }
    }
    walked.append(&mut seen);
    eprintln!("{pages} pages, {landed} forms landed, {refused} came back: {walked:?}");
    assert!(
        failures.is_empty(),
        "forms that did not land:\n{}",
        failures.join("\n")
    );
    // Not a walk that pressed nothing: the manager's pages and most of their forms.
    assert!(pages >= 35, "{pages} pages walked: {walked:?}");
    assert!(
        walked.contains("/staff/runs/{id}"),
        "no run was walked: {walked:?}"
    );
    // The walk did a depot's work, not only its pages: orders moved, a run planned, sent out and
    // its stops ended.
    let done: BTreeSet<String> = {
        use diesel::prelude::*;
        db::schema::audit_log::table
            .select(db::schema::audit_log::action)
            .load::<String>(&mut db.pool.get().unwrap())
            .unwrap()
            .into_iter()
            .collect()
    };
    for action in [
        "order.status",
        "run.create",
        "run.send",
        "run.stop",
        "run.close",
    ] {
        assert!(done.contains(action), "no {action} in {done:?}");
    }
    assert!(
        landed >= 120 && landed > refused,
        "{landed} landed, {refused} came back"
    );
}

both!(every_staff_form_lands_where_it_says);
