//! A folder opened through the File System Access API (`browser::folders`, which keeps its
//! handle so a later visit reopens it), opened in the viewer.

use leptos::prelude::*;

use super::load;
use super::state::Viewer;
use crate::browser::folders;

/// Asks for a folder and opens it (nothing when the reader cancels).
pub(crate) async fn pick(viewer: Viewer) {
    match folders::pick().await {
        Ok(None) => {}
        Ok(Some(files)) => load::open(viewer, files, true).await,
        Err(e) => said(viewer, "The folder", &e),
    }
}

/// Opens the folder kept from an earlier visit, once the reader allows it.
pub(crate) async fn reopen(viewer: Viewer, name: String) {
    match folders::reopen().await {
        Ok(files) => load::open(viewer, files, true).await,
        Err(e) => said(viewer, &name, &e),
    }
}

fn said(viewer: Viewer, what: &str, reason: &str) {
    viewer.problems.update(|p| p.push((what.to_owned(), format!("could not be opened: {reason}"))));
}
