//! The folder of photos (`MEDIA_DIR`): `originals/{hash}.{jpg|png|webp}` as uploaded, and
//! `sized/{hash}-{width}.{webp|jpg}` made from them when first asked for.
//!
//! Several app servers may share the folder. Every file is written under a temporary name in its
//! own folder, flushed to the disk and renamed, so a reader sees the whole file or none; two
//! servers making the same size at once both write the same bytes. Within one process a size is
//! made once: who asks while it is being made waits for it.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use crate::encode::{encode, widths_of, Format};
use crate::inspect::{inspect, upright_width, Limits, Original, SourceFormat, HASH_LEN};
use crate::Error;

/// What [`Store::save`] kept: the name to record with the product or banner, and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub hash: String,
    pub width: u32,
    pub height: u32,
    pub format: SourceFormat,
}

/// The photos' folder.
#[derive(Debug)]
pub struct Store {
    originals: PathBuf,
    sized: PathBuf,
    limits: Limits,
    /// One lock per size being made, taken by its maker and awaited by the others; removed by the
    /// last one to let go.
    making: Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>,
    #[cfg(test)]
    pub(crate) encoded: std::sync::atomic::AtomicUsize,
}

impl Store {
    /// The store over `dir`, its `originals/` and `sized/` folders made if missing.
    pub fn open(dir: impl AsRef<Path>) -> io::Result<Store> {
        let (originals, sized) = (dir.as_ref().join("originals"), dir.as_ref().join("sized"));
        fs::create_dir_all(&originals)?;
        fs::create_dir_all(&sized)?;
        Ok(Store {
            originals,
            sized,
            limits: Limits::default(),
            making: Mutex::default(),
            #[cfg(test)]
            encoded: Default::default(),
        })
    }

    /// The limits kept originals are read back under: those uploads were checked with, if larger
    /// than the default.
    pub fn with_limits(self, limits: Limits) -> Store {
        Store { limits, ..self }
    }

    /// Keeps the original's bytes as uploaded; the same bytes kept again are left as they are.
    pub fn save(&self, original: &Original) -> io::Result<Saved> {
        let name = format!("{}.{}", original.hash(), original.format().extension());
        let path = self.originals.join(name);
        if !path.exists() {
            write_whole(&path, original.bytes())?;
        }
        Ok(Saved {
            hash: original.hash().to_owned(),
            width: original.width(),
            height: original.height(),
            format: original.format(),
        })
    }

    /// The path of the photo `hash` at `width` in `format`, made the first time it is asked for.
    /// The width is one of [`widths_of`] the original's.
    pub fn sized(&self, hash: &str, width: u32, format: Format) -> Result<PathBuf, Error> {
        if !is_hash(hash) {
            return Err(Error::BadName(hash.to_owned()));
        }
        let path = self
            .sized
            .join(format!("{hash}-{width}.{}", format.extension()));
        if path.exists() {
            return Ok(path);
        }
        let source = self.original_path(hash)?;
        if !widths_of(upright_width(&source)?).contains(&width) {
            return Err(Error::BadWidth(width));
        }
        let turn = self.turn(&path);
        let made = {
            let _mine = turn.lock().unwrap_or_else(PoisonError::into_inner);
            if path.exists() {
                Ok(())
            } else {
                self.make(&source, width, format, &path)
            }
        };
        self.let_go(&path, turn);
        made.map(|()| path)
    }

    fn original_path(&self, hash: &str) -> Result<PathBuf, Error> {
        SourceFormat::ALL
            .iter()
            .map(|format| {
                self.originals
                    .join(format!("{hash}.{}", format.extension()))
            })
            .find(|path| path.exists())
            .ok_or_else(|| Error::Unknown(hash.to_owned()))
    }

    fn make(&self, source: &Path, width: u32, format: Format, path: &Path) -> Result<(), Error> {
        let original = inspect(&fs::read(source)?, &self.limits)?;
        #[cfg(test)]
        self.encoded
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        write_whole(path, &encode(&original, width, format)?)?;
        Ok(())
    }

    /// The lock of the size at `path`, shared with whoever else is making or awaiting it.
    fn turn(&self, path: &Path) -> Arc<Mutex<()>> {
        let mut making = self.making.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(making.entry(path.to_owned()).or_default())
    }

    /// Drops the lock's entry when no one else holds it. Holders are only added under `making`'s
    /// lock, so the count read here cannot grow before the entry is gone.
    fn let_go(&self, path: &Path, turn: Arc<Mutex<()>>) {
        let mut making = self.making.lock().unwrap_or_else(PoisonError::into_inner);
        if Arc::strong_count(&turn) == 2 {
            making.remove(path);
        }
    }
}

/// A name as [`Original::hash`] makes them, which cannot lead out of the folder.
fn is_hash(name: &str) -> bool {
    name.len() == HASH_LEN
        && name
            .bytes()
            .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

/// Writes `bytes` as `path` whole or not at all: a temporary file beside it, flushed, renamed.
fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().expect("a path in the store's folders");
    let mut builder = tempfile::Builder::new();
    builder.prefix(".").suffix(".part");
    // Readable by the web server and the other app servers, as files made with `File::create`.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let mut file = builder.tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|error| error.error)?;
    // The rename itself reaches the disk.
    #[cfg(unix)]
    fs::File::open(dir)?.sync_all()?;
    Ok(())
}

#[cfg(test)]
mod tests;
