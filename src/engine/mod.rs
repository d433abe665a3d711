//! Jobs that compose every layer below and run off the page: one session read whole in pieces,
//! then counted or searched, for the list of every session ([`scan`]: what the list's workers
//! run); the files a page shows, asked for what takes long to work out ([`session`]: what the
//! page's engine worker runs).

pub mod scan;
pub mod session;
