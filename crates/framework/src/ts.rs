//! TypeScript declarations of Rust types (by ts-rs), each once, dependencies first: what the
//! contract is written from.

use std::collections::BTreeSet;

use ts_rs::{Config, TypeVisitor, TS};

/// Collects declarations of types and everything they use, each once, dependencies first.
pub struct TsTypes {
    cfg: Config,
    seen: BTreeSet<String>,
    /// By name: ts-rs visits dependencies in no fixed order, and TypeScript needs none.
    pub(crate) decls: std::collections::BTreeMap<String, String>,
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

impl Default for TsTypes {
    fn default() -> Self {
        Self::new()
    }
}

impl TsTypes {
    pub fn new() -> Self {
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
