//! Whole-session analyses, each a plain result computed from the view model and tested natively:
//! what it cost ([`cost`]), the overview's figures ([`overview`]), when things happened
//! ([`timeline`]), the files it changed ([`changes`]), the charts drawn from them ([`chart`]), and
//! what cctv did not recognise ([`drift`]).

pub mod changes;
pub mod chart;
pub mod cost;
pub mod drift;
pub mod overview;
pub mod timeline;
