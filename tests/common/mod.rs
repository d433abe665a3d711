//! Shared helpers for native tests: where the real transcripts are.

#![allow(dead_code)]

pub mod planted;

use std::path::{Path, PathBuf};

/// `../shared/fixtures`, beside the repository (CI clones it there too).
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures")
}

/// Every `.jsonl` file under the fixtures, sorted, as paths relative to the fixtures folder.
pub fn fixture_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
    }
    let root = fixtures_dir();
    let mut out = Vec::new();
    walk(&root, &mut out);
    out.into_iter().map(|p| p.strip_prefix(&root).unwrap().to_path_buf()).collect()
}

/// The bytes of one fixture, by a path relative to the fixtures folder.
pub fn fixture(relative: &str) -> Vec<u8> {
    let path = fixtures_dir().join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every file under a fixtures folder as a folder drop gives them: names relative to the folder.
pub fn folder(relative: &str) -> Vec<cctv::normalize::Input> {
    folder_at(&fixtures_dir().join(relative))
}

/// Every file under `root`, named relative to it, as a folder drop gives them.
pub fn folder_at(root: &Path) -> Vec<cctv::normalize::Input> {
    let mut files = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    walk(root, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| cctv::normalize::Input {
            name: path.strip_prefix(root).unwrap().to_string_lossy().into_owned(),
            bytes: std::fs::read(&path).unwrap(),
        })
        .collect()
}

/// One fixture file as an input named by its file name.
pub fn input(relative: &str) -> cctv::normalize::Input {
    let name = relative.rsplit('/').next().unwrap().to_owned();
    cctv::normalize::Input { name, bytes: fixture(relative) }
}
