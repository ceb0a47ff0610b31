//! The addresses photos are served at, `/media/{hash}-{width}.{webp|jpg}`: made here for the
//! pages and read back here by the route, so the two cannot differ.

use crate::encode::{widths_of, Format};
use crate::inspect::HASH_LEN;

/// Where the store serves its photos.
pub const PREFIX: &str = "/media/";

/// The address of the photo `hash` at `width` in `format`.
pub fn address(hash: &str, width: u32, format: Format) -> String {
    format!("{PREFIX}{hash}-{width}.{}", format.extension())
}

/// A `srcset` of every width made for a photo `width` pixels wide, in `format`.
pub fn srcset(hash: &str, width: u32, format: Format) -> String {
    widths_of(width)
        .into_iter()
        .map(|w| format!("{} {w}w", address(hash, w, format)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The width a browser without `srcset` is given: the widest made up to `up_to`, else the
/// narrowest.
pub fn fallback_width(width: u32, up_to: u32) -> u32 {
    let widths = widths_of(width);
    widths
        .iter()
        .copied()
        .filter(|&w| w <= up_to)
        .max()
        .or_else(|| widths.first().copied())
        .unwrap_or(width)
}

/// The photo's hash, width and format named by a file name of [`address`] (the part after
/// [`PREFIX`]); `None` for any other name. Whether the width is one made for the photo is the
/// store's to say.
pub fn parse(name: &str) -> Option<(&str, u32, Format)> {
    let (stem, extension) = name.rsplit_once('.')?;
    let format = match extension {
        "webp" => Format::Webp,
        "jpg" => Format::Jpeg,
        _ => return None,
    };
    let (hash, width) = stem.split_once('-')?;
    let hex = |b: u8| matches!(b, b'0'..=b'9' | b'a'..=b'f');
    if hash.len() != HASH_LEN || !hash.bytes().all(hex) {
        return None;
    }
    // Digits only, no sign, no leading zero: one name for one file.
    if width.is_empty() || width.starts_with('0') || !width.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((hash, width.parse().ok()?, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn an_address_is_read_back_as_it_was_made() {
        let made = address(HASH, 480, Format::Webp);
        assert_eq!(made, format!("/media/{HASH}-480.webp"));
        let name = made.strip_prefix(PREFIX).unwrap();
        assert_eq!(parse(name), Some((HASH, 480, Format::Webp)));
        assert_eq!(
            parse(&format!("{HASH}-160.jpg")),
            Some((HASH, 160, Format::Jpeg))
        );
    }

    #[test]
    fn other_names_are_none() {
        for name in [
            format!("{HASH}-480.png"),
            format!("{HASH}-480"),
            format!("{HASH}-0480.webp"),
            format!("{HASH}--480.webp"),
            format!("{HASH}-+480.webp"),
            format!("{HASH}-.webp"),
            format!("{HASH}-99999999999.webp"),
            format!("{}-480.webp", HASH.to_uppercase()),
            format!("{}-480.webp", &HASH[1..]),
            "../../etc/passwd".to_string(),
            format!("{HASH}-480.webp/x"),
            format!("{HASH}-4%380.webp"),
        ] {
            assert_eq!(parse(&name), None, "{name}");
        }
    }

    #[test]
    fn srcsets_name_every_width_made() {
        assert_eq!(
            srcset(HASH, 400, Format::Jpeg),
            format!("/media/{HASH}-160.jpg 160w, /media/{HASH}-320.jpg 320w, /media/{HASH}-400.jpg 400w")
        );
        assert_eq!(fallback_width(2000, 480), 480);
        assert_eq!(fallback_width(400, 480), 400);
        assert_eq!(fallback_width(100, 480), 100);
    }
}
