//! One size of a photo in one format: resized with Lanczos3 (alpha-aware), then lossy WebP
//! (libwebp), or JPEG on white for browsers without WebP.

use std::borrow::Cow;

use fast_image_resize::{FilterType, ResizeAlg, ResizeOptions, Resizer};
use image::{DynamicImage, RgbImage};
use jpeg_encoder::{ChromaSubsamplingMethod, ColorType, EncodingError, SamplingFactor};

use crate::{Error, Original};

/// The widths made, narrowest first: those the pages show, at 1x and 2x.
pub const WIDTHS: [u32; 6] = [160, 320, 480, 640, 960, 1280];

const JPEG_QUALITY: u8 = 80;
const WEBP_QUALITY: f32 = 75.0;

/// The formats served: WebP, and JPEG as the fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Webp,
    Jpeg,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Self::Webp => "webp",
            Self::Jpeg => "jpg",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Webp => "image/webp",
            Self::Jpeg => "image/jpeg",
        }
    }
}

/// The widths made for a photo `width` pixels wide: those of [`WIDTHS`] narrower than it, then its
/// own width if it is narrower than the widest. Photos are never enlarged.
pub fn widths_of(width: u32) -> Vec<u32> {
    let mut widths: Vec<u32> = WIDTHS.into_iter().filter(|&made| made < width).collect();
    if width > 0 && widths.len() < WIDTHS.len() {
        widths.push(width);
    }
    widths
}

/// The photo `width` pixels wide, its aspect kept, encoded in `format`. Any width from 1 to the
/// photo's own is made; wider is [`Error::BadWidth`].
pub fn encode(original: &Original, width: u32, format: Format) -> Result<Vec<u8>, Error> {
    let image = original.image();
    if width == 0 || width > image.width() {
        return Err(Error::BadWidth(width));
    }
    let (from_width, from_height) = (u64::from(image.width()), u64::from(image.height()));
    let height = (from_height * u64::from(width) + from_width / 2) / from_width;
    let height = u32::try_from(height.max(1)).expect("not taller than the original");
    let resized = resize(image, width, height)?;
    match format {
        Format::Webp => webp(&resized),
        Format::Jpeg => jpeg(&resized),
    }
}

fn resize(image: &DynamicImage, width: u32, height: u32) -> Result<Cow<'_, DynamicImage>, Error> {
    if width == image.width() {
        return Ok(Cow::Borrowed(image));
    }
    let mut resized = DynamicImage::new(width, height, image.color());
    // Colours are weighed by their alpha, so transparent pixels lend no colour to their edges.
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    Resizer::new()
        .resize(image, &mut resized, &options)
        .map_err(|error| Error::Encode(error.to_string()))?;
    Ok(Cow::Owned(resized))
}

fn webp(image: &DynamicImage) -> Result<Vec<u8>, Error> {
    let (width, height) = (image.width(), image.height());
    let encoded = match image {
        DynamicImage::ImageRgba8(rgba) => {
            webp::Encoder::from_rgba(rgba, width, height).encode_simple(false, WEBP_QUALITY)
        }
        other => {
            let rgb = other.to_rgb8();
            webp::Encoder::from_rgb(&rgb, width, height).encode_simple(false, WEBP_QUALITY)
        }
    };
    let encoded = encoded.map_err(|error| Error::Encode(format!("WebP: {error:?}")))?;
    Ok(encoded.to_vec())
}

/// Baseline, interleaved, with the standard Huffman tables, as most JPEGs are, and chroma at half
/// resolution both ways (4:2:0, averaged): a fifth smaller than `image`'s own encoder (4:2:2) at
/// the same quality. This encoder's fitted Huffman tables write one scan per channel, which
/// `image`'s decoder misreads (libjpeg-turbo does not), and its progressive files came out larger.
fn jpeg(image: &DynamicImage) -> Result<Vec<u8>, Error> {
    let rgb = on_white(image);
    let failed = |error: EncodingError| Error::Encode(format!("JPEG: {error}"));
    let side =
        |side: u32| u16::try_from(side).map_err(|_| Error::Encode(format!("JPEG: {side} px")));
    let mut encoded = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut encoded, JPEG_QUALITY);
    encoder.set_sampling_factor(SamplingFactor::F_2_2);
    encoder.set_chroma_subsampling_method(ChromaSubsamplingMethod::Average);
    encoder
        .encode(
            &rgb,
            side(rgb.width())?,
            side(rgb.height())?,
            ColorType::Rgb,
        )
        .map_err(failed)?;
    Ok(encoded)
}

/// JPEG has no transparency: what is see-through is shown on white, as on the pages.
fn on_white(image: &DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [red, green, blue, alpha] = rgba.get_pixel(x, y).0;
        let blend = |channel: u8| {
            let value = u32::from(channel) * u32::from(alpha) + 255 * u32::from(255 - alpha);
            u8::try_from((value + 127) / 255).expect("a blend of two bytes is a byte")
        };
        image::Rgb([blend(red), blend(green), blend(blue)])
    })
}

#[cfg(test)]
mod tests;
