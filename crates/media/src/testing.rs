//! Pictures for the tests, drawn here rather than kept as files.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, Rgb, RgbImage};

/// Photo-like: a bottle with a printed label on a backdrop with a coarse grain, light gradients,
/// and sensor noise in every channel, so that detail is left at every size made. The same every
/// time.
pub fn photo(width: u32, height: u32) -> RgbImage {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 1000) as f32 / 1000.0 - 0.5
    };
    // The grain: one random value per 8 x 8 pixels' cell, a few pixels once resized.
    let cells = (width.div_ceil(8) * height.div_ceil(8)) as usize;
    let grain: Vec<f32> = (0..cells).map(|_| random() * 30.0).collect();
    RgbImage::from_fn(width, height, |x, y| {
        let (fx, fy) = (x as f32 / width as f32, y as f32 / height as f32);
        let (dx, dy) = ((fx - 0.5) / 0.18, (fy - 0.55) / 0.4);
        let cell = grain[((y / 8) * width.div_ceil(8) + x / 8) as usize];
        let base = if dx * dx + dy * dy >= 1.0 {
            [
                200.0 - 80.0 * fy + cell,
                180.0 + 40.0 * fx + cell,
                160.0 + 60.0 * (fx * 6.0).sin(),
            ]
        } else if (0.45..0.7).contains(&fy) {
            // The label: bands of colour and small print.
            let print = 70.0 * ((fx * 900.0).sin() * (fy * 700.0).sin()).max(0.0);
            [
                230.0 - print,
                200.0 * (fx * 40.0).sin().abs() - print,
                60.0 + print,
            ]
        } else {
            [90.0 + 60.0 * fy + cell / 2.0, 50.0 + 30.0 * fx, 20.0]
        };
        Rgb(base.map(|channel| (channel + random() * 24.0).clamp(0.0, 255.0) as u8))
    })
}

/// `image` encoded as `format` by the `image` crate.
pub fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), format)
        .expect("encodes");
    bytes
}

/// A photo-like JPEG.
pub fn jpeg(width: u32, height: u32) -> Vec<u8> {
    encoded(&photo(width, height).into(), ImageFormat::Jpeg)
}

/// `image` as lossy WebP, by libwebp.
pub fn lossy_webp(image: &DynamicImage) -> Vec<u8> {
    let rgb = image.to_rgb8();
    webp::Encoder::from_rgb(&rgb, rgb.width(), rgb.height())
        .encode(80.0)
        .to_vec()
}

/// A PNG's signature, its IHDR (8-bit RGB) and an IDAT that starts a zlib stream and stops: the
/// header is whole, the pixels would fail to decode.
pub fn png_header_only(width: u32, height: u32) -> Vec<u8> {
    let mut header = Vec::new();
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &header));
    png.extend(chunk(b"IDAT", &[0x78, 0x9c, 0xed, 0xc1, 0x01, 0x0d]));
    png.extend(chunk(b"IEND", &[]));
    png
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut chunk = u32::try_from(data.len()).unwrap().to_be_bytes().to_vec();
    chunk.extend(kind);
    chunk.extend(data);
    chunk.extend(crc32(&chunk[4..]).to_be_bytes());
    chunk
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
