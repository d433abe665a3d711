//! Shared helpers for native tests: the real transcripts (`fixtures`, shared with the crate's own
//! tests) and secrets planted in them (`planted`).

#![allow(dead_code)]

pub mod fixtures;
pub mod planted;

pub use fixtures::*;

/// What `fixtures` calls `super::normalize`: the crate's, as the crate's own tests see it.
use cctv::normalize;
