//! Running the reader's search over the session shown, in steps: a session of GBs takes seconds
//! to search, and the page must keep painting and taking keys meanwhile. A new query (or other
//! files, or another session) stops the search that was running and starts its own.

use leptos::prelude::*;

use super::state::Viewer;
use crate::browser::timers::{next_frame, now};
use crate::normalize::ItemRef;
use crate::query::search::{Matcher, Search};

/// How long a search runs before the page may paint, and the text it reads between looks at
/// the clock.
const BUDGET_MS: f64 = 30.0;
const STEP_BYTES: usize = 256 * 1024;

/// What the running search found so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct SearchState {
    /// The search these are the hits of (the box may already hold a newer one).
    pub(crate) matcher: Option<Matcher>,
    pub(crate) hits: Vec<ItemRef>,
    /// How much of the session was searched, from 0 to 1.
    pub(crate) done: f64,
}

/// Starts searching whenever the query, the files or the session change; returns what is found,
/// growing as the search goes.
pub(crate) fn run(viewer: Viewer) -> RwSignal<SearchState> {
    let found = RwSignal::new(SearchState { matcher: None, hits: Vec::new(), done: 1.0 });
    // Each search has a number; a search whose number is no longer the latest stops.
    let latest = StoredValue::new(0u64);
    // A new query's search has yet to finish (one started for more of the files takes it over).
    let new_query_pending = StoredValue::new(false);
    Effect::new(move |previous: Option<Option<Matcher>>| {
        let matcher = viewer.matcher.get().ok().flatten();
        let workspace = viewer.workspace.get();
        let session = viewer.session.get();
        let number = latest.get_value() + 1;
        latest.set_value(number);
        // A new search that does not find the highlighted row takes its highlight away (a new
        // search only: following a link to another session, or more of the files arriving, must
        // keep the row it leads to).
        if previous.is_some_and(|p| p != matcher) {
            new_query_pending.set_value(matcher.is_some());
        }
        let (Some(m), Some(ws)) = (matcher.clone(), workspace) else {
            found.set(SearchState { matcher: None, hits: Vec::new(), done: 1.0 });
            return matcher;
        };
        // Until its first step, the count says the search has begun, not "no matches".
        found.set(SearchState { matcher: Some(m.clone()), hits: Vec::new(), done: 0.0 });
        leptos::task::spawn_local(async move {
            let Some(s) = ws.sessions.get(session) else {
                if latest.try_get_value() == Some(number) {
                    found.set(SearchState { matcher: Some(m), hits: Vec::new(), done: 1.0 });
                }
                return;
            };
            let mut search = Search::new(s);
            loop {
                let started = now();
                let mut finished = false;
                while !finished && now() - started < BUDGET_MS {
                    finished = search.step(&ws, s, &m, STEP_BYTES);
                }
                if latest.try_get_value() != Some(number) {
                    return;
                }
                let done = if finished { 1.0 } else { search.done() };
                found.set(SearchState { matcher: Some(m.clone()), hits: search.hits.clone(), done });
                if finished {
                    break;
                }
                next_frame().await;
            }
            if new_query_pending.try_get_value() == Some(true) {
                new_query_pending.set_value(false);
                if viewer.target.get_untracked().is_some_and(|t| !search.hits.contains(&t)) {
                    viewer.target.set(None);
                }
            }
        });
        matcher
    });
    found
}
