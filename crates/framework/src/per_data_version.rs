//! What an app server holds in memory for one data version (the search index, the catalog's
//! lists, the sitemap): built when first asked for and again once the data version has moved, by
//! one call while the others asking for the same version wait for it. Never the value of another
//! version: a page rendered from it is cached under its version's key, and an older value there
//! would stay until the version moved again. Calls build on the database's blocking threads, never
//! on an actix worker; the server builds a new version in the background as soon as it sees it,
//! so shoppers rarely wait.

use std::sync::{Arc, Mutex, RwLock};

/// How many versions are held: the newest two, so a request that read the version just before it
/// moved does not make the store build the old one again.
const KEPT: usize = 2;

/// The values of the latest data versions, shared by the app server's calls (put in
/// [`crate::ApiConfig::settings`] as an `Arc<PerDataVersion<T>>`).
pub struct PerDataVersion<T> {
    held: RwLock<Vec<(i64, Arc<T>)>>,
    /// Taken by the call that builds.
    building: Mutex<()>,
}

impl<T> Default for PerDataVersion<T> {
    fn default() -> Self {
        Self {
            held: RwLock::new(Vec::new()),
            building: Mutex::new(()),
        }
    }
}

impl<T> PerDataVersion<T> {
    /// The value of the data version `version`, built now by `build` if it is not held; while
    /// another call builds, this one waits for it (one build a version).
    pub fn get<E>(&self, version: i64, build: impl FnOnce() -> Result<T, E>) -> Result<Arc<T>, E> {
        if let Some(value) = self.at(version) {
            return Ok(value);
        }
        // A build that failed by panicking left the turn poisoned: the next call builds.
        let _turn = self.building.lock().unwrap_or_else(|e| e.into_inner());
        // Built meanwhile by the call waited for.
        if let Some(value) = self.at(version) {
            return Ok(value);
        }
        let value = Arc::new(build()?);
        let mut held = self.held.write().unwrap_or_else(|e| e.into_inner());
        held.retain(|(v, _)| *v != version);
        held.push((version, value.clone()));
        // The newest versions are kept: a late build of an older one (a request that read the
        // version before it moved) never evicts a newer one.
        held.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
        held.truncate(KEPT);
        Ok(value)
    }

    /// The value held if it is of the data version `version`.
    pub fn at(&self, version: i64) -> Option<Arc<T>> {
        self.held
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(v, _)| *v == version)
            .map(|(_, value)| value.clone())
    }

    /// The newest data version held, if any.
    pub fn version(&self) -> Option<i64> {
        self.held
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .first()
            .map(|(v, _)| *v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_build_of_an_old_version_evicts_no_newer_one() {
        let built = PerDataVersion::<i64>::default();
        for v in [11, 12] {
            built.get(v, || Ok::<_, ()>(v * 10)).unwrap();
        }
        // Version 10, asked by a request that read it before it moved: built, answered, not kept.
        assert_eq!(*built.get(10, || Ok::<_, ()>(100)).unwrap(), 100);
        assert_eq!(built.at(12).as_deref(), Some(&120));
        assert_eq!(built.at(11).as_deref(), Some(&110));
        assert_eq!(built.at(10), None);
        assert_eq!(built.version(), Some(12));
    }

    #[test]
    fn a_version_is_built_once_and_the_last_two_are_kept() {
        let built = PerDataVersion::<String>::default();
        let mut builds = 0;
        for (version, want) in [
            (1, "v1"),
            (1, "v1"),
            (2, "v2"),
            (2, "v2"),
            (1, "v1"),
            (3, "v3"),
            (1, "v1"),
        ] {
            let got = built
                .get(version, || -> Result<_, ()> {
                    builds += 1;
                    Ok(format!("v{version}"))
                })
                .unwrap();
            assert_eq!(*got, want);
        }
        // 1, 2, 3, then 1 again: only the newest two (3 and 2) were kept when it was asked, and
        // are still (an older version's late build evicts neither).
        assert_eq!(builds, 4);
        assert_eq!(built.version(), Some(3));
        assert!(built.at(3).is_some() && built.at(2).is_some() && built.at(1).is_none());
    }

    #[test]
    fn a_failed_build_holds_nothing_and_the_next_call_builds() {
        let built = PerDataVersion::<u8>::default();
        assert_eq!(built.get(1, || Err("down")).unwrap_err(), "down");
        assert_eq!(built.version(), None);
        assert_eq!(*built.get(1, || Ok::<_, ()>(7)).unwrap(), 7);
    }

    #[test]
    fn a_panicked_build_does_not_stop_the_next() {
        let built = Arc::new(PerDataVersion::<u8>::default());
        let s = built.clone();
        let panicked = std::thread::spawn(move || {
            let _ = s.get(1, || -> Result<u8, ()> { panic!("the build failed") });
        })
        .join();
        assert!(panicked.is_err());
        assert_eq!(*built.get(1, || Ok::<_, ()>(9)).unwrap(), 9);
    }

    #[test]
    fn while_one_call_builds_the_others_wait_for_the_same_version() {
        let built = Arc::new(PerDataVersion::<u8>::default());
        built.get(1, || Ok::<_, ()>(1)).unwrap();
        let (started, go) = (
            Arc::new(std::sync::Barrier::new(2)),
            Arc::new(std::sync::Barrier::new(2)),
        );
        let builder = {
            let (built, started, go) = (built.clone(), started.clone(), go.clone());
            std::thread::spawn(move || {
                *built
                    .get(2, || {
                        started.wait();
                        go.wait();
                        Ok::<_, ()>(2)
                    })
                    .unwrap()
            })
        };
        started.wait();
        // Version 2 is being built: another call for it waits and gets 2, never the old 1, and
        // does not build it again; version 1 is still answered at once.
        let waiter = {
            let built = built.clone();
            std::thread::spawn(move || {
                *built
                    .get(2, || -> Result<u8, ()> { panic!("built twice") })
                    .unwrap()
            })
        };
        assert_eq!(*built.at(1).unwrap(), 1);
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!waiter.is_finished(), "the waiter waits for the build");
        go.wait();
        assert_eq!(builder.join().unwrap(), 2);
        assert_eq!(waiter.join().unwrap(), 2);
    }
}
