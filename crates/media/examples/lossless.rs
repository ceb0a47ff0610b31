//! Writes PNG pictures again as lossless WebP: `cargo run -p media --example lossless -- IN.png
//! OUT.webp ...`. Used by `ui/scripts/gen-images.mjs` for the seed's product pictures (chromium's
//! canvas makes only lossy WebP, and the drawings' few flat colours keep smallest without loss).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || !args.len().is_multiple_of(2) {
        return Err("usage: lossless IN.png OUT.webp [IN.png OUT.webp ...]".into());
    }
    for pair in args.chunks(2) {
        let rgb = image::open(&pair[0])?.to_rgb8();
        let webp =
            webp::Encoder::from_rgb(rgb.as_raw(), rgb.width(), rgb.height()).encode_lossless();
        std::fs::write(&pair[1], &*webp)?;
    }
    Ok(())
}
