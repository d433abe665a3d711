//! Jobs that compose every layer below and run off the page: one session read whole in pieces,
//! then counted or searched, for the list of every session ([`scan`]: what the workers run).

pub mod scan;
