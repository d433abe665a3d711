//! What the page says, as plain data: a row ([`item::ItemView`]), a tool panel
//! ([`tools::ToolBody`], one file per tool family), events and hooks, the contents, the side
//! panel, filters, links, times, and the lists of projects and sessions. The UI only maps these to
//! elements, so everything that decides what a row says is plain Rust, tested natively.

pub mod accounting;
pub mod agents;
pub mod calls;
pub mod commands;
pub mod contents;
pub mod event;
pub(crate) mod fields;
pub mod filter;
pub mod hooks;
pub mod item;
pub mod library;
pub mod link;
pub mod outline;
pub mod problems;
pub mod rows;
pub mod session;
pub mod tools;
pub mod when;
