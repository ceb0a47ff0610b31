//! The UI's contract, generated: the TypeScript types of every API answer (from the Rust structs,
//! by ts-rs) and the registry's calls with their method and key template, written to
//! `ui/src/api/contract.gen.ts`. A test fails when the file is stale; `make contract` rewrites it.

use crate::registry::endpoints;
use crate::ts::TsTypes;

/// What a feature adds to the UI's contract besides its calls' answers, so that the UI never
/// writes it again: a type (with what it uses), or a constant (a rule, a message, an id, a
/// limit) with its doc comment. Registered with [`export_type!`](crate::export_type) and
/// [`export_const!`](crate::export_const).
pub enum Export {
    Type(fn(&mut TsTypes)),
    Const {
        name: &'static str,
        doc: &'static str,
        value: fn() -> serde_json::Value,
    },
}

inventory::collect!(Export);

/// Puts a type in the UI's contract: `export_type!(Gate);`.
#[macro_export]
macro_rules! export_type {
    ($($ty:ty),+ $(,)?) => {
        $(
            inventory::submit! {
                $crate::contract::Export::Type(|types| {
                    types.add::<$ty>();
                })
            }
        )+
    };
}

/// Puts a constant in the UI's contract, as JSON (a number, a text, a list, an object):
/// `export_const!(/// Its doc. MAX_QUANTITY = domain::cases::MAX_QUANTITY);`.
#[macro_export]
macro_rules! export_const {
    ($(#[doc = $doc:literal])* $name:ident = $value:expr) => {
        inventory::submit! {
            $crate::contract::Export::Const {
                name: stringify!($name),
                doc: concat!($($doc, "\n"),*),
                value: || ::serde_json::json!($value),
            }
        }
    };
}

/// The registered constants as TypeScript, by name.
fn constants() -> String {
    let mut list: Vec<(&str, &str, serde_json::Value)> = inventory::iter::<Export>
        .into_iter()
        .filter_map(|e| match e {
            Export::Const { name, doc, value } => Some((*name, *doc, value())),
            Export::Type(_) => None,
        })
        .collect();
    list.sort_by_key(|(name, _, _)| *name);
    let mut out = String::new();
    for (name, doc, value) in list {
        let doc: Vec<&str> = doc
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if !doc.is_empty() {
            out.push_str(&format!("/** {} */\n", doc.join(" ")));
        }
        out.push_str(&format!("export const {name} = {value};\n\n"));
    }
    out
}

/// The text of `ui/src/api/contract.gen.ts`.
pub fn typescript() -> String {
    let mut types = TsTypes::new();
    types.add::<crate::error::ErrorBody>();
    types.add::<crate::error::ValidationErrorBody>();
    for e in inventory::iter::<Export> {
        if let Export::Type(add) = e {
            add(&mut types);
        }
    }
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
        "// Generated from the Rust API by `make contract` (crates/framework/src/contract.rs): do not edit.\n\
         // The answer types of every call, and the calls of the registry with their key templates.\n\n",
    );
    out.push_str(&constants());
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
