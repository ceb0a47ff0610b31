use std::sync::atomic::Ordering;
use std::sync::Barrier;
use std::thread;

use image::ImageFormat;

use super::*;
use crate::testing::jpeg;

fn kept(dir: &Path, width: u32, height: u32) -> (Store, Saved) {
    let store = Store::open(dir).unwrap();
    let original = inspect(&jpeg(width, height), &Limits::default()).unwrap();
    let saved = store.save(&original).unwrap();
    (store, saved)
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn the_same_bytes_saved_twice_are_one_file() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let bytes = jpeg(200, 100);
    let original = inspect(&bytes, &Limits::default()).unwrap();
    let first = store.save(&original).unwrap();
    let path = dir
        .path()
        .join("originals")
        .join(format!("{}.jpg", original.hash()));
    let written = fs::metadata(&path).unwrap();
    let again = store
        .save(&inspect(&bytes, &Limits::default()).unwrap())
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(
        (first.width, first.height, first.format),
        (200, 100, SourceFormat::Jpeg)
    );
    assert_eq!(files_in(&dir.path().join("originals")).len(), 1);
    assert_eq!(fs::read(&path).unwrap(), bytes);
    // Not written again: a rename would have put another file (inode) in its place.
    assert_eq!(fs::metadata(&path).unwrap().ino(), written.ino());
    // Readable by the other app servers and the web server, not by this process's user alone.
    assert_eq!(written.permissions().mode() & 0o444, 0o444);
}

#[test]
fn a_crowd_asking_for_a_missing_size_has_it_made_once() {
    let dir = tempfile::tempdir().unwrap();
    let (store, saved) = kept(dir.path(), 900, 600);
    let start = Barrier::new(16);
    let paths: Vec<PathBuf> = thread::scope(|scope| {
        let askers: Vec<_> = (0..16)
            .map(|_| {
                scope.spawn(|| {
                    start.wait();
                    let path = store.sized(&saved.hash, 480, Format::Webp).unwrap();
                    // Whole when answered: it decodes to the full size.
                    let bytes = fs::read(&path).unwrap();
                    let picture =
                        image::load_from_memory_with_format(&bytes, ImageFormat::WebP).unwrap();
                    assert_eq!((picture.width(), picture.height()), (480, 320));
                    path
                })
            })
            .collect();
        askers
            .into_iter()
            .map(|asker| asker.join().unwrap())
            .collect()
    });
    assert_eq!(store.encoded.load(Ordering::SeqCst), 1);
    assert!(paths.iter().all(|path| path == &paths[0]));
    assert_eq!(
        paths[0],
        dir.path()
            .join("sized")
            .join(format!("{}-480.webp", saved.hash))
    );
    // No temporary file left, no lock kept; asked again, it is not made again.
    assert_eq!(
        files_in(&dir.path().join("sized")),
        [format!("{}-480.webp", saved.hash)]
    );
    assert!(store.making.lock().unwrap().is_empty());
    assert_eq!(
        store.sized(&saved.hash, 480, Format::Webp).unwrap(),
        paths[0]
    );
    assert_eq!(store.encoded.load(Ordering::SeqCst), 1);
}

#[test]
fn each_width_and_format_is_its_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let (store, saved) = kept(dir.path(), 700, 350);
    for width in widths_of(700) {
        for format in [Format::Webp, Format::Jpeg] {
            let path = store.sized(&saved.hash, width, format).unwrap();
            let picture = image::open(&path).unwrap();
            assert_eq!(
                (picture.width(), picture.height()),
                (width, width / 2),
                "{path:?}"
            );
        }
    }
    assert_eq!(
        store.encoded.load(Ordering::SeqCst),
        2 * widths_of(700).len()
    );
    assert_eq!(widths_of(700).last(), Some(&700));
}

#[test]
fn names_and_widths_not_made_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (store, saved) = kept(dir.path(), 700, 350);
    let upper = saved.hash.to_uppercase();
    let escaping = format!("../{}", &saved.hash[3..]);
    for name in [
        "../x",
        "..",
        "",
        "/etc/passwd",
        upper.as_str(),
        escaping.as_str(),
        &saved.hash[1..],
    ] {
        let refusal = store.sized(name, 320, Format::Jpeg);
        assert!(
            matches!(refusal, Err(Error::BadName(_))),
            "{name:?}: {refusal:?}"
        );
    }
    for width in [123, 0, 640 + 1, 960, 1280] {
        let refusal = store.sized(&saved.hash, width, Format::Jpeg);
        assert!(
            matches!(refusal, Err(Error::BadWidth(w)) if w == width),
            "{width}: {refusal:?}"
        );
    }
    let unknown = "0123456789abcdef0123456789abcdef";
    assert!(matches!(
        store.sized(unknown, 320, Format::Webp),
        Err(Error::Unknown(_))
    ));
    assert!(files_in(&dir.path().join("sized")).is_empty());
    assert_eq!(store.encoded.load(Ordering::SeqCst), 0);
}
