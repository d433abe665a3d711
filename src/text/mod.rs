//! Text into safe markup, knowing nothing of sessions: Markdown ([`markdown`]), terminal output
//! with ANSI colours ([`ansi`]), code ([`highlight`]), line diffs ([`diff`]), all into
//! [`markup::Node`] trees with a closed list of tags; long text cut for a row ([`clip`]); numbers,
//! sizes, durations and plurals in words ([`format`]).
//!
//! Transcript text is hostile. Nothing here produces HTML: text stays text, element names come
//! from a fixed list, and the only attribute taken from input is a link target, kept only for
//! `http:`/`https:` ([`markup::safe_href`]).

pub mod ansi;
pub mod clip;
pub mod diff;
pub mod format;
pub mod highlight;
pub mod markdown;
pub mod markup;
