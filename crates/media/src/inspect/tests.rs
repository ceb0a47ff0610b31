use image::{ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};

use super::*;
use crate::testing::{encoded, jpeg, png_header_only};

fn refused(bytes: &[u8]) -> Refused {
    inspect(bytes, &Limits::default()).expect_err("refused")
}

#[test]
fn a_text_file_named_jpg_is_not_an_image() {
    let refusal = refused(b"Price list: Pale Ale 120, Stout 140\n");
    assert_eq!(refusal, Refused::NotAnImage);
    assert_eq!(
        refusal.to_string(),
        "This file is not a photo: upload a JPEG, PNG or WebP image."
    );
    assert_eq!(refused(b""), Refused::NotAnImage);
}

#[test]
fn other_image_types_are_named() {
    let gif = refused(b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04");
    assert_eq!(gif, Refused::OtherType("GIF".into()));
    assert!(
        gif.to_string().starts_with("GIF images are not taken: "),
        "{gif}"
    );
    let heic = refused(b"\0\0\0\x18ftypheic\0\0\0\0mif1heic");
    assert!(
        heic.to_string().starts_with("HEIC images are not taken: "),
        "{heic}"
    );
}

#[test]
fn too_many_bytes_are_refused_before_decoding() {
    // A valid JPEG one byte over the limit: refused for its size, not read.
    let photo = jpeg(64, 48);
    let limits = Limits {
        max_bytes: photo.len() - 1,
        ..Limits::default()
    };
    let refusal = inspect(&photo, &limits).expect_err("too large");
    assert_eq!(
        refusal,
        Refused::TooManyBytes {
            size: photo.len(),
            limit: photo.len() - 1
        }
    );
    // Not a photo at all, but too large first; the message says megabytes.
    let refusal = refused(&vec![b'x'; 11 << 20]);
    assert_eq!(
        refusal.to_string(),
        "This file is 11 MB, more than the 10 MB a photo may be: save it smaller and upload it again."
    );
}

#[test]
fn a_decompression_bomb_is_refused_from_its_header() {
    let bomb = png_header_only(20_000, 20_000);
    assert!(bomb.len() < 100);
    // Had it been decoded, its missing pixels would have made it "damaged" (as the small one).
    let refusal = refused(&bomb);
    assert!(matches!(
        refusal,
        Refused::TooManyPixels {
            width: 20_000,
            height: 20_000,
            ..
        }
    ));
    let message = refusal.to_string();
    assert!(
        message.contains("20000 x 20000") && message.contains("40 megapixels"),
        "{message}"
    );
    assert!(matches!(
        refused(&png_header_only(100, 100)),
        Refused::Damaged(_)
    ));
    // Too wide alone is too large.
    let refusal = refused(&png_header_only(12_000, 10));
    assert!(
        matches!(refusal, Refused::TooManyPixels { width: 12_000, .. }),
        "{refusal:?}"
    );
}

#[test]
fn a_truncated_jpeg_is_damaged() {
    let photo = jpeg(320, 240);
    assert!(inspect(&photo, &Limits::default()).is_ok());
    let refusal = refused(&photo[..photo.len() / 2]);
    assert!(matches!(refusal, Refused::Damaged(_)), "{refusal:?}");
    assert!(refusal
        .to_string()
        .starts_with("This image is damaged or incomplete: "));
    // All but its end-of-image marker.
    assert!(matches!(
        refused(&photo[..photo.len() - 2]),
        Refused::Damaged(_)
    ));
}

/// A JPEG 40 x 20, red on the left and blue on the right, with an EXIF APP1 segment noting
/// `orientation` (big-endian TIFF, one IFD entry: tag 0x0112, SHORT, count 1).
fn jpeg_with_orientation(orientation: u8) -> Vec<u8> {
    let picture = RgbImage::from_fn(40, 20, |x, _| {
        if x < 20 {
            Rgb([220, 0, 0])
        } else {
            Rgb([0, 0, 220])
        }
    });
    let mut exif = b"Exif\0\0MM\0\x2a\0\0\0\x08\0\x01".to_vec();
    exif.extend([0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0, orientation, 0, 0]);
    exif.extend([0, 0, 0, 0]);
    with_app1(&encoded(&picture.into(), ImageFormat::Jpeg), &exif)
}

/// `jpeg` with an APP1 segment holding `data` right after its start-of-image marker.
fn with_app1(jpeg: &[u8], data: &[u8]) -> Vec<u8> {
    let mut with_app1 = jpeg[..2].to_vec();
    with_app1.extend([0xff, 0xe1]);
    with_app1.extend(u16::try_from(data.len() + 2).unwrap().to_be_bytes());
    with_app1.extend(data);
    with_app1.extend(&jpeg[2..]);
    with_app1
}

#[test]
fn the_cameras_orientation_is_applied() {
    let plain = inspect(&jpeg_with_orientation(1), &Limits::default()).unwrap();
    assert_eq!((plain.width(), plain.height()), (40, 20));
    // 6: the camera was turned; shown turned 90 degrees clockwise, the left side on top.
    let turned = inspect(&jpeg_with_orientation(6), &Limits::default()).unwrap();
    assert_eq!((turned.width(), turned.height()), (20, 40));
    let rgb = turned.image().to_rgb8();
    let (top, bottom) = (rgb.get_pixel(10, 5), rgb.get_pixel(10, 35));
    assert!(top[0] > 150 && top[2] < 80, "top {top:?}");
    assert!(bottom[2] > 150 && bottom[0] < 80, "bottom {bottom:?}");
}

#[test]
fn pixels_are_kept_as_rgb_or_rgba_when_alpha_is_used() {
    let opaque = RgbaImage::from_pixel(8, 8, Rgba([10, 20, 30, 255]));
    let original = inspect(
        &encoded(&opaque.into(), ImageFormat::Png),
        &Limits::default(),
    )
    .unwrap();
    assert!(matches!(original.image(), DynamicImage::ImageRgb8(_)));
    assert_eq!(original.format(), SourceFormat::Png);
    let mut clear = RgbaImage::from_pixel(8, 8, Rgba([10, 20, 30, 255]));
    clear.put_pixel(0, 0, Rgba([0, 0, 0, 0]));
    let original = inspect(
        &encoded(&clear.into(), ImageFormat::Png),
        &Limits::default(),
    )
    .unwrap();
    assert!(matches!(original.image(), DynamicImage::ImageRgba8(_)));
}

#[test]
fn the_hash_names_the_bytes() {
    let (one, other) = (jpeg(32, 32), jpeg(33, 32));
    let hash = inspect(&one, &Limits::default()).unwrap().hash().to_owned();
    assert_eq!(hash.len(), HASH_LEN);
    assert!(hash
        .bytes()
        .all(|byte| byte.is_ascii_hexdigit() && !byte.is_ascii_uppercase()));
    assert_eq!(inspect(&one, &Limits::default()).unwrap().hash(), hash);
    assert_ne!(inspect(&other, &Limits::default()).unwrap().hash(), hash);
    assert_eq!(inspect(&one, &Limits::default()).unwrap().bytes(), one);
}

#[test]
fn every_type_cut_short_is_damaged() {
    let photo: DynamicImage = crate::testing::photo(96, 64).into();
    let webp = crate::testing::lossy_webp(&photo);
    for whole in [
        encoded(&photo, ImageFormat::Jpeg),
        encoded(&photo, ImageFormat::Png),
        webp,
    ] {
        assert!(inspect(&whole, &Limits::default()).is_ok());
        for cut in [whole.len() / 3, whole.len() * 2 / 3, whole.len() - 20] {
            let refusal = refused(&whole[..cut]);
            assert!(
                matches!(refusal, Refused::Damaged(_)),
                "{cut} of {}: {refusal:?}",
                whole.len()
            );
        }
    }
}

#[test]
fn what_follows_a_jpegs_end_is_left_alone() {
    // Motion photos carry their video after the picture.
    let mut photo = jpeg(96, 64);
    photo.extend(b"\0\0\0\x18ftypmp42 and then a video");
    assert!(inspect(&photo, &Limits::default()).is_ok());
}

#[test]
fn progressive_jpegs_and_restart_markers_reach_their_end() {
    let picture = crate::testing::photo(96, 64);
    for (progressive, restart_interval) in [(true, 0), (false, 2), (true, 3)] {
        let mut bytes = Vec::new();
        let mut encoder = jpeg_encoder::Encoder::new(&mut bytes, 80);
        encoder.set_progressive(progressive);
        if restart_interval > 0 {
            encoder.set_restart_interval(restart_interval);
        }
        encoder
            .encode(&picture, 96, 64, jpeg_encoder::ColorType::Rgb)
            .unwrap();
        assert!(
            inspect(&bytes, &Limits::default()).is_ok(),
            "{progressive} {restart_interval}"
        );
        let refusal = refused(&bytes[..bytes.len() * 2 / 3]);
        assert!(
            matches!(refusal, Refused::Damaged(_)),
            "{progressive} {restart_interval}"
        );
    }
}

#[test]
fn an_end_marker_inside_a_segment_is_not_the_end() {
    // EXIF thumbnails are whole JPEGs, with their own end marker, inside an APP1 segment.
    let photo = with_app1(&jpeg(96, 64), b"Exif\0\0\xff\xd8\xff\xd9");
    assert!(inspect(&photo, &Limits::default()).is_ok());
    let refusal = refused(&photo[..photo.len() / 2]);
    assert!(matches!(refusal, Refused::Damaged(_)), "{refusal:?}");
}
