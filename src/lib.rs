//! cctv: a viewer for Claude Code session transcripts.
//!
//! Data flows one way: bytes -> [`model`] (typed lines) -> [`normalize`] (view model) -> `ui` (Leptos).
//! [`api`] exposes parse, normalize and mount to JavaScript. `model` and `normalize` never touch the
//! DOM, so they build and test natively with `cargo test --no-default-features`.

pub mod generate;
pub mod model;
pub mod normalize;
pub mod present;

pub mod api;

#[cfg(feature = "ui")]
pub mod ui;
