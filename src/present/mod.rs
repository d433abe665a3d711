//! Presentation without a DOM: transcript text turned into safe markup trees (Markdown, ANSI
//! terminal output) and diff rows. The UI only maps these to elements, so everything that decides
//! what transcript text becomes is plain Rust, tested natively.
//!
//! Transcript text is hostile. Nothing here produces HTML: text stays text, element names come
//! from a fixed list, and the only attribute taken from input is a link target, kept only for
//! `http:`/`https:`.

pub mod ansi;
pub mod calls;
pub mod changes;
pub mod chart;
pub mod clip;
pub mod commands;
pub mod contents;
pub mod cost;
pub mod diff;
pub mod drift;
pub mod event;
pub mod export;
pub mod filter;
pub mod format;
pub mod highlight;
pub mod hooks;
pub mod item;
pub mod library;
pub mod link;
pub mod markdown;
pub mod markup;
pub mod overview;
pub mod raw_find;
pub mod rows;
pub mod search;
pub mod session;
pub mod share;
pub mod timeline;
pub mod to_html;
pub mod to_markdown;
pub mod tools;
pub mod when;
