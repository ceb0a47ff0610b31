//! What an app server holds in memory for one data version (the search index, the catalog's
//! lists): built when first asked for and again once the data version has moved, by one call
//! while the others go on with what was held before (a moment older, never blocked behind a
//! build). Calls build on the database's blocking threads, never on an actix worker.

use std::sync::{Arc, Mutex, RwLock, TryLockError};

/// The value of one data version, shared by the app server's calls (put in
/// [`crate::ApiConfig::settings`] as an `Arc<Shelf<T>>`).
pub struct Shelf<T> {
    held: RwLock<Option<(i64, Arc<T>)>>,
    /// Taken by the call that builds.
    building: Mutex<()>,
}

impl<T> Default for Shelf<T> {
    fn default() -> Self {
        Self {
            held: RwLock::new(None),
            building: Mutex::new(()),
        }
    }
}

impl<T> Shelf<T> {
    /// The value of the data version `version`, built now by `build` if none of it is held; while
    /// another call builds it, the value before (only the first build waits).
    pub fn get<E>(&self, version: i64, build: impl FnOnce() -> Result<T, E>) -> Result<Arc<T>, E> {
        if let Some((v, value)) = self.held() {
            if v == version {
                return Ok(value);
            }
        }
        let _turn = match self.building.try_lock() {
            Ok(turn) => turn,
            // A build that failed by panicking left the turn poisoned: the next call builds.
            Err(TryLockError::Poisoned(turn)) => turn.into_inner(),
            Err(TryLockError::WouldBlock) => {
                if let Some((_, value)) = self.held() {
                    return Ok(value);
                }
                self.building.lock().unwrap_or_else(|e| e.into_inner())
            }
        };
        // Built meanwhile by the call waited for (a version that moved back, a restored
        // database, is built again).
        if let Some((_, value)) = self.held().filter(|(v, _)| *v == version) {
            return Ok(value);
        }
        let value = Arc::new(build()?);
        *self.held.write().unwrap_or_else(|e| e.into_inner()) = Some((version, value.clone()));
        Ok(value)
    }

    /// The value held if it is of the data version `version`.
    pub fn at(&self, version: i64) -> Option<Arc<T>> {
        self.held()
            .filter(|(v, _)| *v == version)
            .map(|(_, value)| value)
    }

    /// The data version held, if any.
    pub fn version(&self) -> Option<i64> {
        self.held().map(|(v, _)| v)
    }

    fn held(&self) -> Option<(i64, Arc<T>)> {
        self.held.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_built_once_and_again_when_it_moves() {
        let shelf = Shelf::<String>::default();
        let mut builds = 0;
        for (version, want) in [(1, "v1"), (1, "v1"), (2, "v2"), (2, "v2"), (1, "v1")] {
            let got = shelf
                .get(version, || -> Result<_, ()> {
                    builds += 1;
                    Ok(format!("v{version}"))
                })
                .unwrap();
            assert_eq!(*got, want);
        }
        assert_eq!(builds, 3);
        assert_eq!(shelf.version(), Some(1));
    }

    #[test]
    fn a_failed_build_holds_nothing_and_the_next_call_builds() {
        let shelf = Shelf::<u8>::default();
        assert_eq!(shelf.get(1, || Err("down")).unwrap_err(), "down");
        assert_eq!(shelf.version(), None);
        assert_eq!(*shelf.get(1, || Ok::<_, ()>(7)).unwrap(), 7);
    }

    #[test]
    fn while_one_call_builds_the_others_get_the_value_before() {
        let shelf = Arc::new(Shelf::<u8>::default());
        shelf.get(1, || Ok::<_, ()>(1)).unwrap();
        let (started, go) = (
            Arc::new(std::sync::Barrier::new(2)),
            Arc::new(std::sync::Barrier::new(2)),
        );
        let builder = {
            let (shelf, started, go) = (shelf.clone(), started.clone(), go.clone());
            std::thread::spawn(move || {
                *shelf
                    .get(2, || {
                        started.wait();
                        go.wait();
                        Ok::<_, ()>(2)
                    })
                    .unwrap()
            })
        };
        started.wait();
        // Version 2 is being built: the value of version 1 at once, and no second build.
        assert_eq!(
            *shelf
                .get(2, || -> Result<u8, ()> { panic!("built twice") })
                .unwrap(),
            1
        );
        go.wait();
        assert_eq!(builder.join().unwrap(), 2);
        assert_eq!(
            *shelf
                .get(2, || -> Result<u8, ()> { panic!("built twice") })
                .unwrap(),
            2
        );
    }
}
