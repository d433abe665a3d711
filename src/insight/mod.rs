//! Whole-session analyses, each a plain result computed from the view model and tested natively:
//! what it cost ([`cost`]), the context and the tools ([`overview`]), when things happened
//! ([`timeline`]), the files it changed ([`changes`]), the charts drawn from them ([`chart`]), and
//! what cctv did not recognise ([`drift`]); and
//! [`figures`], all the Overview shows of a session at once, as the engine sends it to the page.

pub mod changes;
pub mod chart;
pub mod cost;
pub mod drift;
pub mod figures;
pub mod overview;
pub mod timeline;
