//! The one list of API calls. Each call registers itself in its own module with
//! [`register!`](crate::register), next to its `Endpoint`; its route, its in-process loader, its
//! OpenAPI operation and its entry in the UI's contract (`ui/src/api/contract.gen.ts`, rewritten
//! by `make contract`) all follow from that one line.

use std::sync::OnceLock;

use crate::endpoint::Registered;

/// One registered call.
pub struct Entry(pub &'static dyn Registered);

inventory::collect!(Entry);

/// Registers `Endpoint` types in the registry: `register!(Products, WhatsNew);`.
#[macro_export]
macro_rules! register {
    ($($endpoint:ty),+ $(,)?) => {
        $(
            inventory::submit! {
                $crate::registry::Entry(&$crate::endpoint::Api::<$endpoint>::ENTRY)
            }
        )+
    };
}

/// Every registered call, by path and method (a fixed order for the generated files).
pub fn endpoints() -> &'static [&'static dyn Registered] {
    static ALL: OnceLock<Vec<&'static dyn Registered>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all: Vec<&'static dyn Registered> =
            inventory::iter::<Entry>.into_iter().map(|e| e.0).collect();
        all.sort_by_key(|e| (e.path(), e.method().as_str()));
        all
    })
}

/// The call of that name.
pub fn by_name(name: &str) -> Option<&'static dyn Registered> {
    endpoints().iter().find(|e| e.name() == name).copied()
}
