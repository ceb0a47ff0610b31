//! The store's product and banner photos: what a manager uploads is checked, kept as it came, and
//! served resized to the widths the pages show, in WebP with a JPEG fallback.
//!
//! [`inspect`] takes an upload's bytes and either refuses them with a message written for the
//! manager ([`Refused`]) or decodes them into an [`Original`]: the type is read from the content,
//! the size from the header before any pixel is decoded (a small file may claim a huge picture),
//! and the photo is turned upright as its camera noted. [`encode`] makes one width in one format.
//! [`Store`] keeps originals under content-hashed names in a folder that several app servers may
//! share, and makes each size the first time it is asked for, once, written so that no reader ever
//! sees half a file.
//!
//! Everything here is plain blocking work (decoding a large photo takes a good part of a second):
//! callers run it off the request threads.

mod address;
mod encode;
mod inspect;
mod store;

pub use address::{address, fallback_width, parse, srcset, PREFIX};
pub use encode::{encode, widths_of, Format, WIDTHS};
pub use inspect::{inspect, Limits, Original, Refused, SourceFormat, HASH_LEN};
pub use store::{Saved, Store};

/// Pictures for tests (this crate's, and the store's with the `testing` feature).
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// Why a size could not be made or found.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The name asked for is not a content hash (it could otherwise point outside the folder).
    #[error("{0:?} is not a photo's name")]
    BadName(String),
    /// The width is not one made for this photo: not in [`WIDTHS`] nor the photo's own, or wider
    /// than the photo (photos are never enlarged).
    #[error("{0} px is not a width made for this photo")]
    BadWidth(u32),
    /// No original photo is kept under this name.
    #[error("no photo is kept under the name {0}")]
    Unknown(String),
    /// A kept original could not be read as a photo (it was taken under other limits, or the file
    /// was damaged on the disk).
    #[error("the kept photo cannot be read: {0}")]
    Refused(#[from] Refused),
    /// The encoder failed.
    #[error("the photo could not be encoded: {0}")]
    Encode(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
