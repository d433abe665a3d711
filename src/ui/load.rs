//! Files handed over by the reader, opened in the viewer: a folder of many sessions on their
//! list, anything else loaded (`browser::load` reads them; this says where they go).

use leptos::prelude::*;
use web_sys::File;

use super::state::Viewer;
use crate::browser::library::holds_many_sessions;
use crate::browser::load::{LoadTarget, Progress};
use crate::browser::read::Named;
use crate::normalize::{Generation, Workspace};

/// Opens what the reader handed over: a folder of many sessions on their list, anything else in
/// the viewer, where the Share tab then looks ahead ([`Share::look_ahead`]).
///
/// [`Share::look_ahead`]: super::share::Share::look_ahead
pub(crate) async fn open(viewer: Viewer, files: Vec<Named>, in_folder: bool) {
    if in_folder && holds_many_sessions(&files) {
        super::library::open(viewer, files).await;
    } else {
        if !files.is_empty() {
            viewer.library.close();
        }
        if load(viewer, files).await {
            viewer.share.look_ahead(viewer);
        }
    }
}

/// Loads `files` into the viewer, the load before it stopped. Returns whether it showed them
/// (not when there were none, they were too large, or other files were opened meanwhile).
pub(crate) async fn load(viewer: Viewer, files: Vec<Named>) -> bool {
    if files.is_empty() {
        return false;
    }
    let number = viewer.start_load();
    crate::browser::load::load(Loading { viewer, number }, files).await
}

/// The viewer, as load `number` reports to it.
struct Loading {
    viewer: Viewer,
    number: u64,
}

impl LoadTarget for Loading {
    fn is_latest(&self) -> bool {
        self.viewer.is_latest_load(self.number)
    }

    fn max_bytes(&self) -> f64 {
        self.viewer.max_bytes.get_untracked()
    }

    fn progress(&self, progress: Option<Progress>) {
        self.viewer.progress.set(progress);
    }

    fn refuse(&self, problem: (String, String)) {
        self.viewer.problems.set(vec![problem]);
    }

    fn read_from(&self, generation: Generation, files: Vec<File>) {
        self.viewer.engine.with_value(|engine| engine.read_from(generation, files));
    }

    fn show(&self, workspace: Workspace, more: bool) {
        if more {
            self.viewer.show_more(workspace);
        } else {
            self.viewer.show(workspace);
        }
    }
}
