//! The UI's contract, generated: the TypeScript types of every API answer (from the Rust structs,
//! by ts-rs) and the registry's calls with their method and key template, written to
//! `ui/src/api/contract.gen.ts`. A test fails when the file is stale; `make contract` rewrites it.

use std::collections::BTreeSet;

use ts_rs::{Config, TypeVisitor, TS};

use crate::registry::endpoints;

/// Collects declarations of types and everything they use, each once, dependencies first.
pub struct TsTypes {
    cfg: Config,
    seen: BTreeSet<String>,
    /// By name: ts-rs visits dependencies in no fixed order, and TypeScript needs none.
    decls: std::collections::BTreeMap<String, String>,
}

impl TypeVisitor for TsTypes {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if T::output_path().is_none() {
            return;
        }
        let ident = T::ident(&self.cfg);
        if !self.seen.insert(ident.clone()) {
            return;
        }
        T::visit_dependencies(self);
        T::visit_generics(self);
        let doc = T::docs()
            .map(|d| format!("{}\n", d.trim_end()))
            .unwrap_or_default();
        self.decls
            .insert(ident, format!("{doc}export {}", T::decl(&self.cfg)));
    }
}

impl TsTypes {
    fn new() -> Self {
        Self {
            cfg: Config::new().with_large_int("number"),
            seen: BTreeSet::new(),
            decls: Default::default(),
        }
    }

    /// Adds a type (and what it uses); answers its TypeScript name.
    pub fn add<T: TS + 'static>(&mut self) -> String {
        self.visit::<T>();
        T::visit_dependencies(self);
        T::visit_generics(self);
        T::name(&self.cfg)
    }
}

/// The text of `ui/src/api/contract.gen.ts`.
pub fn typescript() -> String {
    let mut types = TsTypes::new();
    types.add::<crate::error::ErrorBody>();
    types.add::<crate::error::ValidationErrorBody>();
    types.add::<crate::gate::Gate>();
    let mut calls = Vec::new();
    for e in endpoints() {
        let answer = e.answer_ts(&mut types);
        calls.push(format!(
            "  {}: {{ name: '{}', method: '{}', key: '{}', read: {} }} as Call<{}>,",
            e.name(),
            e.name(),
            e.method().as_str(),
            e.key_template(),
            e.access() != crate::endpoint::Access::Write,
            answer
        ));
    }
    let mut out = String::from(
        "// Generated from the Rust API by `make contract` (crates/api/src/contract.rs): do not edit.\n\
         // The answer types of every call, and the calls of the registry with their key templates.\n\n",
    );
    out.push_str(&format!(
        "/** SPEC 7's default province (Metro Manila) and the location gate's first fulfillment type. */\n\
         export const DEFAULT_PROVINCE = {};\nexport const DEFAULT_FULFILLMENT = {};\n\n\
         /** The password rule the server checks, as the forms state it. */\n\
         export const PASSWORD_RULE = {};\n\n",
        domain::DEFAULT_PROVINCE,
        domain::DEFAULT_FULFILLMENT,
        serde_json::to_string(domain::account::PASSWORD_RULE).unwrap_or_default()
    ));
    for d in types.decls.values() {
        out.push_str(d);
        out.push_str("\n\n");
    }
    out.push_str(
        "/** A call of the API: its method, its key template (path, then each query parameter) and\n \
         * whether it only reads. `A` is the answer's type. */\n\
         export interface Call<A> {\n  /** The call's name: what a page form names in its `_call` field. */\n  name: string;\n  method: 'GET' | 'POST' | 'PUT' | 'DELETE';\n  key: string;\n  read: boolean;\n  /** Never set: carries the answer type. */\n  answer?: A;\n}\n\n\
         export const calls = {\n",
    );
    for c in calls {
        out.push_str(&c);
        out.push('\n');
    }
    out.push_str("} as const;\n");
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// The generated files in the repository match the code (`make contract` rewrites them:
    /// `UPDATE_CONTRACT=1 cargo test -p api contract`).
    #[test]
    fn contract_files_are_current() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let files = [
            (
                "crates/api/openapi.json",
                crate::openapi::json().to_string(),
            ),
            ("ui/src/api/contract.gen.ts", super::typescript()),
        ];
        let update = std::env::var("UPDATE_CONTRACT").is_ok_and(|v| v == "1");
        for (path, text) in files {
            let file = root.join(path);
            if update {
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(&file, &text).unwrap();
                continue;
            }
            let kept = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(kept == text, "{path} is stale: run `make contract`");
        }
    }
}
