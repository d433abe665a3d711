//! Finding rows: a query and its options compiled once into a [`search::Matcher`] that finds the
//! rows of a session and the byte ranges to mark; the first look for a plain query in raw lines
//! ([`raw_find`]); each session's index of three-byte sequences ([`grams`]), which a search across
//! sessions asks before reading one, and what such a search found in a session ([`across`]).

pub mod across;
pub mod grams;
pub mod raw_find;
pub mod search;
