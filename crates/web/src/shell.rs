//! The HTML shell around a rendered page: head tags, inline critical CSS, the hashed client
//! bundle with the chunks of the page's route (preloaded: none waits for the one that imports it)
//! and the dehydrated state.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tera::{Context, Tera};

use crate::WebError;

/// `dist/manifest.json`: logical name -> hashed URL (the client entry, React's file, the
/// stylesheets), and under `chunks`, per route name, the chunks its page needs besides the entry,
/// React's file first (ui/build.mjs).
#[derive(Debug, Deserialize)]
struct Manifest {
    chunks: HashMap<String, Vec<String>>,
    #[serde(flatten)]
    assets: HashMap<String, String>,
}

pub struct Shell {
    tera: Tera,
    css: String,
    client_js: String,
    /// Per route name, the chunks its page loads besides the entry (`<link rel="modulepreload">`).
    chunks: HashMap<String, Vec<String>>,
    /// The account pages' stylesheet.
    accounts_css: String,
    csp: String,
}

#[derive(Debug, Serialize)]
pub struct ShellPage<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub canonical: &'a str,
    /// The page's picture for link previews (empty: none).
    pub image: &'a str,
    pub noindex: bool,
    pub body: &'a str,
    /// JSON-LD documents, already escaped for their script elements.
    pub json_ld: &'a [String],
    /// The JSON of the state, not yet escaped for the script element.
    pub state_json: &'a str,
    /// Links the account pages' stylesheet (pages with account forms, members' pages).
    pub accounts: bool,
    /// The route the page was rendered for: its chunks are preloaded.
    pub route: &'a str,
}

/// Makes JSON safe inside `<script type="application/json">`: no `<` can close the element.
pub fn escape_json_for_script(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// HTML (and XML) escaping for text and attribute values (Tera's default also escapes `/`, which
/// URLs do not need).
pub(crate) fn escape_html(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for c in input.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

impl Shell {
    pub fn load(dist: &Path) -> Result<Self, WebError> {
        let manifest_path = dist.join("manifest.json");
        let err = |p: &Path, e: String| WebError::Build(p.display().to_string(), e);
        let manifest: Manifest = serde_json::from_str(
            &std::fs::read_to_string(&manifest_path)
                .map_err(|e| err(&manifest_path, e.to_string()))?,
        )
        .map_err(|e| err(&manifest_path, e.to_string()))?;
        let asset = |name: &str| {
            manifest
                .assets
                .get(name)
                .cloned()
                .ok_or_else(|| err(&manifest_path, format!("no {name} in the manifest")))
        };
        let client_js = asset("client.js")?;
        let accounts_css = asset("accounts.css")?;
        let css_url = asset("styles.css")?;
        let css_path = dist.join(css_url.trim_start_matches('/'));
        let css = std::fs::read_to_string(&css_path).map_err(|e| err(&css_path, e.to_string()))?;
        let mut tera = Tera::default();
        tera.set_escape_fn(escape_html);
        tera.add_raw_template("shell.html", include_str!("../templates/shell.html"))
            .map_err(|e| WebError::Template(e.to_string()))?;
        let csp = crate::security::content_security_policy(&css);
        Ok(Self {
            tera,
            css,
            client_js,
            chunks: manifest.chunks,
            accounts_css,
            csp,
        })
    }

    /// The Content-Security-Policy that allows this shell's inline style.
    pub fn csp(&self) -> &str {
        &self.csp
    }

    pub fn render(&self, page: &ShellPage) -> Result<String, WebError> {
        let mut ctx = Context::new();
        ctx.insert("title", page.title);
        ctx.insert("description", page.description);
        ctx.insert("image", page.image);
        ctx.insert("canonical", page.canonical);
        ctx.insert("noindex", &page.noindex);
        ctx.insert("css", &self.css);
        ctx.insert("client_js", &self.client_js);
        let no_chunks = Vec::new();
        ctx.insert("chunks", self.chunks.get(page.route).unwrap_or(&no_chunks));
        ctx.insert("accounts", &page.accounts);
        ctx.insert("accounts_css", &self.accounts_css);
        ctx.insert("body", page.body);
        ctx.insert("json_ld", page.json_ld);
        ctx.insert("state", &escape_json_for_script(page.state_json));
        self.tera
            .render("shell.html", &ctx)
            .map_err(|e| WebError::Template(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_json_cannot_close_its_script_element() {
        let json = serde_json::json!({"name": "</script><script>alert(1)</script>"}).to_string();
        let safe = escape_json_for_script(&json);
        assert!(!safe.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["name"], "</script><script>alert(1)</script>");
    }
}
