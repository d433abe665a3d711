//! The browser's I/O, apart from the components that draw: files read from drops, pickers and
//! kept handles (`read`, `folders`), loaded in pieces (`load`), followed as they grow (`follow`),
//! a folder's sessions read for its list (`library`) by the workers (`pool`, `worker`), the
//! grammars and the viewer's own files fetched (`grammars`, `viewer_files`), Share's scan warmed
//! in a worker ahead of the engine's (`warm_scan`), and the page's clock and turns (`timers`).
//! Nothing here knows the ui: where I/O reports to a viewer, the ui passes in what implements a
//! small trait (`load::LoadTarget`, `follow::FollowTarget`, `library::ListTarget`) or a closure.

pub(crate) mod engine;
mod engine_worker;
pub(crate) mod folders;
pub(crate) mod follow;
pub(crate) mod grammars;
pub(crate) mod js_error;
pub(crate) mod library;
pub(crate) mod load;
mod pool;
pub(crate) mod read;
mod share_scan;
mod slices;
pub(crate) mod timers;
pub(crate) mod viewer_files;
pub(crate) mod warm_scan;
mod worker;
