//! What the viewer shows and what the reader chose, as signals shared through context.
//!
//! The loaded transcripts are immutable; everything a reader changes (open panels, the branch
//! shown, the search) lives here, apart from them.

use std::collections::HashSet;
use std::sync::Arc;

use leptos::prelude::*;

use crate::browser::load::Progress;
use crate::normalize::{ItemRef, LineRef, Workspace};
pub(crate) use crate::present::filter::Filter;
use crate::present::link::Link;
use crate::present::rows::{Choices, Row, ThreadRef};
use crate::query::search::{Matcher, Query};

/// A panel: the item it belongs to, and which of its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PanelKey {
    pub(crate) at: ItemRef,
    pub(crate) part: Part,
}

impl PanelKey {
    pub(crate) fn new(row: Row, part: Part) -> PanelKey {
        PanelKey { at: row.at(), part }
    }
}

/// Parts of an item that open on their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Part {
    /// What the row holds: a call's panel, thinking, a folded prompt, a compaction's summary.
    Body,
    /// An event's raw JSON line, behind its own toggle in the opened row.
    Raw,
    /// The prompt a sub-agent was given.
    Prompt,
}

impl Part {
    /// What Expand all opens: the conversation's panels, not raw lines.
    pub(crate) const EXPANDED: [Part; 2] = [Part::Body, Part::Prompt];
}

/// Which part of the side panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SideTab {
    Contents,
    Session,
    Share,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Theme {
    /// Follow the system setting.
    System,
    Light,
    Dark,
}

#[derive(Clone, Copy)]
pub struct Viewer {
    pub(crate) workspace: RwSignal<Option<Arc<Workspace>>>,
    /// Bumped when other files are shown ([`show`](Viewer::show)), not when more of the same
    /// files arrives ([`show_more`](Viewer::show_more)): what the conversation is rebuilt on.
    pub(crate) loaded: RwSignal<u64>,
    pub(crate) session: RwSignal<usize>,
    pub(crate) choices: RwSignal<Choices>,
    pub(crate) open: RwSignal<HashSet<PanelKey>>,
    pub(crate) filter: RwSignal<Filter>,
    /// What the reader searches for, with its options.
    pub(crate) query: RwSignal<Query>,
    /// `query` compiled: `Ok(None)` while there is too little to search for, `Err` for a regular
    /// expression that does not compile.
    pub(crate) matcher: Memo<Result<Option<Matcher>, String>>,
    /// A search step asks for its row's first match to be scrolled into view inside its panel;
    /// cleared once done.
    pub(crate) reveal_match: RwSignal<bool>,
    pub(crate) theme: RwSignal<Theme>,
    /// On a narrow screen, the side panel (contents and stats) is open over the conversation.
    pub(crate) side_open: RwSignal<bool>,
    /// The overview (cost, context, tools) shows over the conversation.
    pub(crate) overview: RwSignal<bool>,
    /// The side panel's tab the reader chose (until they choose, it depends on the session).
    pub(crate) side_tab: RwSignal<Option<SideTab>>,
    /// What a shared copy of the files would hold (the Share tab).
    pub(crate) share: super::share::Share,
    pub(crate) progress: RwSignal<Option<Progress>>,
    /// The item to scroll to and highlight.
    pub(crate) target: RwSignal<Option<ItemRef>>,
    /// The line of the main conversation (or the branch shown) the reader is at: the title's
    /// badges say what the session was as of it.
    pub(crate) reading: RwSignal<Option<LineRef>>,
    /// The last item highlighted with `target`, in its thread: a link to a turn or to a
    /// sub-agent's conversation highlights all of it.
    pub(crate) span: RwSignal<u32>,
    /// A link whose place is in no loaded session (yet): the reader is told to open its files.
    pub(crate) wanted: RwSignal<Option<Link>>,
    /// Bumped to ask the list to scroll to `target` again.
    pub(crate) scroll_request: RwSignal<u64>,
    /// What went wrong loading files: (file, reason).
    pub(crate) problems: RwSignal<Vec<(String, String)>>,
    /// The demo session is showing (until the reader opens files of their own).
    pub(crate) demo: RwSignal<bool>,
    /// The number of the latest load: a load that is no longer the latest (the reader opened
    /// other files meanwhile) stops, and shows nothing.
    pub(crate) load_number: StoredValue<u64>,
    /// The syntax-highlighting grammars have arrived: code drawn before is drawn again.
    pub(crate) grammars: RwSignal<bool>,
    /// The most bytes of files opened at once: wasm32 memory ends at 4 GiB, and the bytes, the
    /// index and the page take about 1.2 times the files' size.
    pub(crate) max_bytes: RwSignal<f64>,
    /// A folder of many sessions, listed (`super::library`).
    pub(crate) library: super::library::Library,
    /// A session followed as it is written (`super::follow`).
    pub(crate) following: super::follow::Following,
    /// Works out what takes long (findings, the overview) off the page.
    pub(crate) engine: StoredValue<crate::browser::engine::Engine, LocalStorage>,
}

/// What `max_bytes` is unless a page says otherwise.
pub const MAX_BYTES: f64 = 2.5e9;

impl Viewer {
    pub(crate) fn new() -> Viewer {
        let query = RwSignal::new(Query::default());
        let side_tab = RwSignal::new(None);
        Viewer {
            workspace: RwSignal::new(None),
            loaded: RwSignal::new(0),
            session: RwSignal::new(0),
            choices: RwSignal::new(Choices::default()),
            open: RwSignal::new(HashSet::new()),
            filter: RwSignal::new(Filter::default()),
            query,
            matcher: Memo::new(move |_| query.with(Query::matcher)),
            reveal_match: RwSignal::new(false),
            theme: RwSignal::new(Theme::System),
            side_open: RwSignal::new(false),
            overview: RwSignal::new(false),
            side_tab,
            share: super::share::Share::new(side_tab),
            progress: RwSignal::new(None),
            target: RwSignal::new(None),
            reading: RwSignal::new(None),
            span: RwSignal::new(0),
            wanted: RwSignal::new(None),
            scroll_request: RwSignal::new(0),
            problems: RwSignal::new(Vec::new()),
            demo: RwSignal::new(false),
            load_number: StoredValue::new(0),
            grammars: RwSignal::new(false),
            max_bytes: RwSignal::new(MAX_BYTES),
            library: super::library::Library::new(),
            following: super::follow::Following::new(),
            engine: StoredValue::new_local(crate::browser::engine::Engine::default()),
        }
    }

    /// Shows a newly loaded workspace from its first session.
    pub(crate) fn show(&self, workspace: Workspace) {
        self.demo.set(false);
        self.share.reset();
        self.problems.set(workspace.rejected.clone());
        self.session.set(0);
        self.reset_view();
        self.workspace.set(Some(Arc::new(workspace)));
        self.loaded.update(|n| *n += 1);
    }

    /// Starts a load: any load still running stops. Returns its number for [`is_latest_load`].
    ///
    /// [`is_latest_load`]: Viewer::is_latest_load
    pub(crate) fn start_load(&self) -> u64 {
        let number = self.load_number.get_value() + 1;
        self.load_number.set_value(number);
        number
    }

    /// Whether load `number` is the latest and the viewer is still there (an embed can be
    /// destroyed while a load awaits the next slice).
    pub(crate) fn is_latest_load(&self, number: u64) -> bool {
        self.load_number.try_get_value() == Some(number)
    }

    /// Shows more of the files already shown (a large load shows its beginning first, a followed
    /// session grows), keeping the reader's place: the session, the scroll position, and the
    /// sub-agents, branch and panels they opened, where these are still the same things (the
    /// main line can turn out to be another branch once the whole file is read, and branches and
    /// sub-agents are numbered anew as more of them is known).
    pub(crate) fn show_more(&self, workspace: Workspace) {
        let session = self.session.get_untracked();
        let before = self.workspace.get_untracked();
        let (Some(old), Some(new)) =
            (before.as_ref().and_then(|b| b.sessions.get(session)), workspace.sessions.get(session))
        else {
            self.problems.set(workspace.rejected.clone());
            self.reset_view();
            self.workspace.set(Some(Arc::new(workspace)));
            return;
        };
        let same_thread = |thread: ThreadRef| same_thread(old, new, thread);
        let same_row = |thread: ThreadRef, item: u32| {
            same_thread(thread)
                && old.item(thread, item).map(|i| (i.line, i.block))
                    == new.item(thread, item).map(|i| (i.line, i.block))
        };
        // Said again only when it changed: a followed session grows every second, and what the
        // reader dismissed, or was told since, stays as it is.
        if before.as_ref().is_none_or(|b| b.rejected != workspace.rejected) {
            self.problems.set(workspace.rejected.clone());
        }
        let choices = self.choices.get_untracked();
        let kept = Choices {
            open_agents: choices
                .open_agents
                .iter()
                .copied()
                .filter(|&a| same_thread(ThreadRef::Agent(a)))
                .collect(),
            branch: choices.branch.filter(|&b| same_thread(ThreadRef::Branch(b))),
            show_copied: choices.show_copied,
        };
        if kept != choices {
            self.choices.set(kept);
        }
        if self.open.with_untracked(|open| open.iter().any(|key| !same_row(key.at.thread, key.at.item))) {
            self.open.update(|open| open.retain(|key| same_row(key.at.thread, key.at.item)));
        }
        if self.target.get_untracked().is_some_and(|at| !same_row(at.thread, at.item)) {
            self.target.set(None);
        }
        self.workspace.set(Some(Arc::new(workspace)));
    }

    pub(crate) fn reset_view(&self) {
        self.choices.set(Choices::default());
        self.open.set(HashSet::new());
        self.target.set(None);
    }

    pub(crate) fn is_open(&self, key: PanelKey) -> bool {
        self.open.with(|open| open.contains(&key))
    }

    pub(crate) fn toggle(&self, key: PanelKey) {
        self.open.update(|open| {
            if !open.remove(&key) {
                open.insert(key);
            }
        });
    }

    /// Whether item `item` of `thread` is highlighted (the target, or within its span).
    pub(crate) fn is_highlighted(&self, thread: ThreadRef, item: u32) -> bool {
        self.target
            .get()
            .is_some_and(|at| at.thread == thread && (at.item..=self.span.get().max(at.item)).contains(&item))
    }

    pub(crate) fn go_to(&self, target: ItemRef) {
        self.target.set(Some(target));
        self.span.set(target.item);
        self.scroll_request.update(|n| *n += 1);
    }
}

/// Whether `thread` names the same conversation in `old` and `new`, two readings of one session:
/// the same sub-agent, the same branch from the same fork, or the main line from the same start.
fn same_thread(old: &crate::normalize::Session, new: &crate::normalize::Session, thread: ThreadRef) -> bool {
    let start = |s: &crate::normalize::Session| s.thread(thread).items.first().map(|i| i.line);
    let exists = |s: &crate::normalize::Session| match thread {
        ThreadRef::Main => true,
        ThreadRef::Branch(b) => (b as usize) < s.branches.len(),
        ThreadRef::Agent(a) => (a as usize) < s.agents.len(),
    };
    if !exists(old) || !exists(new) || start(old) != start(new) {
        return false;
    }
    match thread {
        ThreadRef::Main => true,
        ThreadRef::Branch(b) => old.branches[b as usize].fork_point == new.branches[b as usize].fork_point,
        ThreadRef::Agent(a) => old.agents[a as usize].agent_id == new.agents[a as usize].agent_id,
    }
}

impl Default for Viewer {
    fn default() -> Self {
        Viewer::new()
    }
}

pub(crate) fn use_viewer() -> Viewer {
    expect_context::<Viewer>()
}
