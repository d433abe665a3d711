//! Any bytes as the names of a folder's files (one a line) and a session's two ends: sorting
//! them onto a shelf, decoding project folder names and summing up a session never panic.
#![no_main]

use cctv::catalog::shelf::{FileInfo, Shelf};
use cctv::catalog::summary;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let files: Vec<FileInfo> =
        text.lines().take(64).enumerate().map(|(i, name)| FileInfo { name: name.to_owned(), size: i as u64 }).collect();
    let mut shelf = Shelf::new(files);
    shelf.link_continued();
    for project in shelf.projects() {
        assert!(project.sessions.iter().all(|&s| s < shelf.sessions.len()));
    }
    let half = bytes.len() / 2;
    let _ = summary::from_ends(&text, &bytes[..half], &bytes[half..], false);
});
