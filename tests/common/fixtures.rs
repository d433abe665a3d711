//! The real transcripts in `../shared/fixtures` (beside the repository; CI clones them there
//! too), read the one way every test reads them: as bytes, as a normalized `Workspace`, or as the
//! `Input`s a drop in the viewer gives, named as the viewer names them.
//!
//! One file for both kinds of test: the crate's own tests include it as `crate::fixtures`
//! (`#[cfg(test)]` in `src/lib.rs`), the integration tests as `common::fixtures`. It lives under
//! `tests/` so that nothing built for a page or the package holds it. `super::normalize` is the
//! crate's `normalize` seen from either place: the crate's root module, or `tests/common`, which
//! names `cctv::normalize` for it.
//!
//! Beside them, the one test helper both kinds of test share: [`EveryTime`], a pace that pauses
//! at every chance, for tests of paced work.

// Each test crate that includes this file uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use super::normalize::{normalize, Input, Workspace};

/// The repository: where cargo runs the test from (it says so at run time). A test binary built
/// in one clone and found fresh by cargo in another (they share a target directory) would
/// otherwise read the first clone's path.
pub fn repository() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// `../shared/fixtures`, beside the repository.
pub fn fixtures_dir() -> PathBuf {
    repository().join("../shared/fixtures")
}

/// The bytes of one fixture, by its path relative to the fixtures folder.
pub fn fixture(relative: &str) -> Vec<u8> {
    let path = fixtures_dir().join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One fixture as dropping that one file gives it: named by its file name.
pub fn input(relative: &str) -> Input {
    let name = relative.rsplit('/').next().unwrap().to_owned();
    Input { name, bytes: fixture(relative) }
}

/// One fixture, normalized on its own.
pub fn workspace(relative: &str) -> Workspace {
    normalize(vec![input(relative)])
}

/// A session's file and everything beside it in its `<session>/` folder (sub-agents, their
/// `.meta.json`, `tool-results/`), named relative to the session's folder, as dropping that
/// folder names them.
pub fn session(relative: &str) -> Vec<Input> {
    let path = fixtures_dir().join(relative);
    let folder = path.parent().unwrap();
    let mut inputs = vec![input(relative)];
    let beside = path.with_extension("");
    if beside.is_dir() {
        inputs.extend(files_under(&beside).into_iter().map(|file| read_named(&file, folder)));
    }
    inputs
}

/// Every file under a fixtures folder, named relative to it, as a folder drop gives them.
pub fn folder(relative: &str) -> Vec<Input> {
    folder_at(&fixtures_dir().join(relative))
}

/// Every file under `root` (fixtures or not), named relative to it, as a folder drop gives them.
pub fn folder_at(root: &Path) -> Vec<Input> {
    files_under(root).into_iter().map(|file| read_named(&file, root)).collect()
}

/// Some files of a fixtures folder, named by their paths relative to it, as a drop of that folder
/// names them (for tests that take part of a folder).
pub fn from_folder(relative: &str, names: &[&str]) -> Vec<Input> {
    names
        .iter()
        .map(|name| Input { name: (*name).to_owned(), bytes: fixture(&format!("{relative}/{name}")) })
        .collect()
}

/// Every `.jsonl` fixture, named by its path relative to the fixtures folder, as dropping that
/// whole folder names them.
pub fn every_fixture() -> Vec<Input> {
    fixture_files()
        .into_iter()
        .map(|path| {
            let name = path.to_string_lossy().into_owned();
            Input { bytes: fixture(&name), name }
        })
        .collect()
}

/// Every `.jsonl` file under the fixtures, sorted, as paths relative to the fixtures folder.
pub fn fixture_files() -> Vec<PathBuf> {
    let root = fixtures_dir();
    files_under(&root)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "jsonl"))
        .map(|path| path.strip_prefix(&root).unwrap().to_path_buf())
        .collect()
}

/// Every file under `dir`, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    files
}

fn read_named(file: &Path, root: &Path) -> Input {
    let name = file.strip_prefix(root).unwrap().to_string_lossy().into_owned();
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    Input { name, bytes }
}

/// A pause that is always due and never waits, counting the times it was taken: paced work run
/// with it pauses at every chance it has.
pub struct EveryTime(pub u32);

impl super::normalize::pace::Pause for EveryTime {
    fn due(&mut self) -> bool {
        true
    }

    fn pause(&mut self) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> {
        self.0 += 1;
        Box::pin(async {})
    }
}
