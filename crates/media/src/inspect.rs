//! Reading an upload: its type from its first bytes, its size from its header before any pixel is
//! decoded, then its pixels, turned upright as the camera noted.

use std::fmt;
use std::io::Cursor;
use std::path::Path;

use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader};
use sha2::{Digest, Sha256};

/// How large an upload may be. The pixel limits are checked on the header, before decoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub max_bytes: usize,
    pub max_pixels: u64,
    pub max_side: u32,
}

impl Default for Limits {
    /// 10 MiB, 40 megapixels, 10,000 pixels a side: a phone's or a camera's photo passes.
    fn default() -> Self {
        Self {
            max_bytes: 10 << 20,
            max_pixels: 40_000_000,
            max_side: 10_000,
        }
    }
}

/// Why an upload is not taken, in words for the manager who sent it (its `Display`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("This file is not a photo: upload a JPEG, PNG or WebP image.")]
    NotAnImage,
    /// Another image type, named (GIF, TIFF, HEIC…).
    #[error("{0} images are not taken: save the photo as JPEG, PNG or WebP and upload it again.")]
    OtherType(String),
    #[error(
        "This file is {} MB, more than the {} MB a photo may be: save it smaller and upload it again.",
        one_decimal(*.size as f64 / MIB), one_decimal(*.limit as f64 / MIB)
    )]
    TooManyBytes { size: usize, limit: usize },
    #[error(
        "This photo is {width} x {height} pixels, more than the {} megapixels and {max_side} pixels \
         a side taken: make it smaller and upload it again.",
        one_decimal(*.max_pixels as f64 / 1e6)
    )]
    TooManyPixels {
        width: u32,
        height: u32,
        max_pixels: u64,
        max_side: u32,
    },
    /// The decoder's own words are kept for the logs, not shown.
    #[error(
        "This image is damaged or incomplete: upload the file again, or open it in a photo program \
         and save it anew."
    )]
    Damaged(String),
}

const MIB: f64 = 1024.0 * 1024.0;

/// `10` for 10.0, `12.3` for 12.34.
fn one_decimal(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_owned)
}

/// The types taken, read from the content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceFormat {
    Jpeg,
    Png,
    Webp,
}

impl SourceFormat {
    pub const ALL: [SourceFormat; 3] = [Self::Jpeg, Self::Png, Self::Webp];

    /// The kept original's file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Webp => "webp",
        }
    }

    fn image_format(self) -> ImageFormat {
        match self {
            Self::Jpeg => ImageFormat::Jpeg,
            Self::Png => ImageFormat::Png,
            Self::Webp => ImageFormat::WebP,
        }
    }
}

/// An upload that passed: its bytes as sent, their hash, and its pixels, upright, as 8-bit RGB, or
/// RGBA when some pixel is not fully opaque.
#[derive(Clone)]
pub struct Original {
    image: DynamicImage,
    format: SourceFormat,
    bytes: Vec<u8>,
    hash: String,
}

impl Original {
    pub fn image(&self) -> &DynamicImage {
        &self.image
    }
    pub fn format(&self) -> SourceFormat {
        self.format
    }
    /// Upright, after the camera's orientation.
    pub fn width(&self) -> u32 {
        self.image.width()
    }
    /// Upright, after the camera's orientation.
    pub fn height(&self) -> u32 {
        self.image.height()
    }
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// The content hash, [`HASH_LEN`] lowercase hex digits: the photo's name in the [`crate::Store`].
    pub fn hash(&self) -> &str {
        &self.hash
    }
}

/// Without the pixels and bytes, which would fill a log.
impl fmt::Debug for Original {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Original")
            .field("format", &self.format)
            .field("width", &self.width())
            .field("height", &self.height())
            .field("bytes", &self.bytes.len())
            .field("hash", &self.hash)
            .finish()
    }
}

/// The length of a photo's name: the first 128 bits of the bytes' SHA-256, in hex.
pub const HASH_LEN: usize = 32;

/// Checks an upload and decodes it, or says why it is not taken.
pub fn inspect(bytes: &[u8], limits: &Limits) -> Result<Original, Refused> {
    if bytes.len() > limits.max_bytes {
        return Err(Refused::TooManyBytes {
            size: bytes.len(),
            limit: limits.max_bytes,
        });
    }
    let format = sniff(bytes)?;
    let image = decode(bytes, format, limits)?;
    let digest = Sha256::digest(bytes);
    let hash = digest[..HASH_LEN / 2]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    Ok(Original {
        image,
        format,
        bytes: bytes.to_vec(),
        hash,
    })
}

/// The type, from the magic bytes; a name or a declared type is never asked.
fn sniff(bytes: &[u8]) -> Result<SourceFormat, Refused> {
    match image::guess_format(bytes) {
        Ok(ImageFormat::Jpeg) => Ok(SourceFormat::Jpeg),
        Ok(ImageFormat::Png) => Ok(SourceFormat::Png),
        Ok(ImageFormat::WebP) => Ok(SourceFormat::Webp),
        Ok(other) => Err(Refused::OtherType(format!("{other:?}").to_uppercase())),
        // iPhones' default; `image` does not know it.
        Err(_) if is_heic(bytes) => Err(Refused::OtherType("HEIC".to_owned())),
        Err(_) => Err(Refused::NotAnImage),
    }
}

fn is_heic(bytes: &[u8]) -> bool {
    bytes.get(4..8) == Some(b"ftyp")
        && matches!(
            bytes.get(8..12),
            Some(b"heic" | b"heix" | b"hevc" | b"heim" | b"mif1")
        )
}

/// Header first: the size is checked before the pixels' memory is asked for, and the decoder may
/// then take no more than those pixels need, so a damaged or lying file fails instead.
fn decode(bytes: &[u8], format: SourceFormat, limits: &Limits) -> Result<DynamicImage, Refused> {
    let mut budget = image::Limits::default();
    // 16-bit RGBA, the widest pixel of the three types, is 8 bytes; and room for the decoder's own.
    budget.max_alloc = Some(limits.max_pixels.saturating_mul(8).saturating_add(64 << 20));
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format.image_format());
    reader.limits(budget.clone());
    let mut decoder = reader.into_decoder().map_err(damaged)?;
    let (orientation, width, height) = upright_size(&mut decoder);
    let too_many = Refused::TooManyPixels {
        width,
        height,
        max_pixels: limits.max_pixels,
        max_side: limits.max_side,
    };
    let pixels = u64::from(width) * u64::from(height);
    if width.max(height) > limits.max_side || pixels > limits.max_pixels {
        return Err(too_many);
    }
    if format == SourceFormat::Jpeg && !jpeg::reaches_its_end(bytes) {
        return Err(Refused::Damaged("the JPEG stops before its end".to_owned()));
    }
    budget
        .reserve(decoder.total_bytes())
        .map_err(|_| too_many)?;
    decoder.set_limits(budget).map_err(damaged)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(damaged)?;
    image.apply_orientation(orientation);
    Ok(eight_bit(image))
}

fn damaged(error: ImageError) -> Refused {
    Refused::Damaged(error.to_string())
}

/// The orientation noted in the file (none if it cannot be read) and the size once applied.
fn upright_size(decoder: &mut impl ImageDecoder) -> (Orientation, u32, u32) {
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let (width, height) = decoder.dimensions();
    match orientation {
        Orientation::Rotate90
        | Orientation::Rotate270
        | Orientation::Rotate90FlipH
        | Orientation::Rotate270FlipH => (orientation, height, width),
        _ => (orientation, width, height),
    }
}

/// The upright width of a kept original, from its header alone.
pub(crate) fn upright_width(path: &Path) -> Result<u32, crate::Error> {
    let reader = ImageReader::open(path)?.with_guessed_format()?;
    let mut decoder = reader.into_decoder().map_err(damaged)?;
    Ok(upright_size(&mut decoder).1)
}

/// 8-bit RGB, or RGBA when the alpha channel is used: what the encoders take.
fn eight_bit(image: DynamicImage) -> DynamicImage {
    if !image.color().has_alpha() {
        return image.into_rgb8().into();
    }
    let rgba = image.into_rgba8();
    if rgba.pixels().all(|pixel| pixel[3] == u8::MAX) {
        DynamicImage::from(rgba).into_rgb8().into()
    } else {
        rgba.into()
    }
}

mod jpeg;

#[cfg(test)]
mod tests;
