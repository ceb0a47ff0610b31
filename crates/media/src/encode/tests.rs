use image::{ImageFormat, Rgba, RgbaImage};

use super::*;
use crate::testing::{encoded, photo};
use crate::{inspect, Limits};

fn original(image: DynamicImage, format: ImageFormat) -> Original {
    inspect(&encoded(&image, format), &Limits::default()).expect("taken")
}

fn decoded(bytes: &[u8], format: Format) -> DynamicImage {
    let format = match format {
        Format::Webp => ImageFormat::WebP,
        Format::Jpeg => ImageFormat::Jpeg,
    };
    image::load_from_memory_with_format(bytes, format).expect("decodes")
}

#[test]
fn widths_stop_at_the_photos_own() {
    assert_eq!(widths_of(3000), WIDTHS);
    assert_eq!(widths_of(1280), WIDTHS);
    assert_eq!(widths_of(1000), [160, 320, 480, 640, 960, 1000]);
    assert_eq!(widths_of(960), [160, 320, 480, 640, 960]);
    assert_eq!(widths_of(100), [100]);
    assert_eq!(widths_of(0), [0u32; 0]);
}

#[test]
fn a_product_photo_fits_the_budget_in_both_formats() {
    let original = original(photo(2000, 1500).into(), ImageFormat::Jpeg);
    for (width, height) in [(320, 240), (400, 300), (480, 360)] {
        for format in [Format::Webp, Format::Jpeg] {
            let bytes = encode(&original, width, format).unwrap();
            eprintln!("{width} px {format:?}: {} bytes", bytes.len());
            assert!(
                bytes.len() < 40 * 1024,
                "{width} px {format:?}: {} bytes",
                bytes.len()
            );
            // A grey picture would be small too: the bottle is still there, dark on light.
            let picture = decoded(&bytes, format).to_rgb8();
            assert_eq!(picture.dimensions(), (width, height), "{format:?}");
            let (bottle, backdrop) = (
                picture.get_pixel(width / 2, height * 4 / 5),
                picture.get_pixel(4, 4),
            );
            assert!(
                bottle[1] < 120 && backdrop[1] > 150,
                "{format:?}: {bottle:?} {backdrop:?}"
            );
        }
    }
    assert!(widths_of(original.width())
        .iter()
        .all(|&width| width <= 2000));
    assert!(matches!(
        encode(&original, 2001, Format::Webp),
        Err(Error::BadWidth(2001))
    ));
    assert!(matches!(
        encode(&original, 0, Format::Jpeg),
        Err(Error::BadWidth(0))
    ));
}

/// Left half see-through, right half opaque red.
fn half_clear(width: u32, height: u32) -> DynamicImage {
    RgbaImage::from_fn(width, height, |x, _| {
        if x < width / 2 {
            Rgba([0, 0, 0, 0])
        } else {
            Rgba([200, 20, 20, 255])
        }
    })
    .into()
}

#[test]
fn a_see_through_png_becomes_a_jpeg_on_white_and_keeps_its_alpha_in_webp() {
    let original = original(half_clear(400, 200), ImageFormat::Png);
    for width in [400, 160] {
        let jpeg = decoded(
            &encode(&original, width, Format::Jpeg).unwrap(),
            Format::Jpeg,
        )
        .to_rgb8();
        let (clear, red) = (
            jpeg.get_pixel(width / 8, 20),
            jpeg.get_pixel(width * 7 / 8, 20),
        );
        assert!(
            clear.0.iter().all(|&channel| channel > 245),
            "{width}: {clear:?}"
        );
        assert!(red[0] > 170 && red[1] < 60, "{width}: {red:?}");
        let webp = decoded(
            &encode(&original, width, Format::Webp).unwrap(),
            Format::Webp,
        )
        .to_rgba8();
        let (clear, red) = (
            webp.get_pixel(width / 8, 20),
            webp.get_pixel(width * 7 / 8, 20),
        );
        assert!(clear[3] < 10 && red[3] > 245, "{width}: {clear:?} {red:?}");
        // The edge takes no black from the clear pixels beside it.
        let edge = webp.get_pixel(width / 2 + 1, 20);
        assert!(edge[0] > 150, "{width}: {edge:?}");
    }
}

#[test]
fn the_aspect_is_kept_and_a_height_is_never_zero() {
    let strip = original(photo(1000, 3).into(), ImageFormat::Png);
    let bytes = encode(&strip, 160, Format::Webp).unwrap();
    assert_eq!(decoded(&bytes, Format::Webp).height(), 1);
    let tall = original(photo(300, 1000).into(), ImageFormat::Png);
    let bytes = encode(&tall, 160, Format::Jpeg).unwrap();
    assert_eq!(decoded(&bytes, Format::Jpeg).height(), 533);
}
