//! A list whose rows are all one height, drawn only where in view: which rows a view shows is
//! found by dividing, and the list keeps the height of all of them by its own height and a
//! padding above the rows drawn. The side panel's contents and the folder's sessions are drawn so.

use std::ops::Range;

/// The rows of a list of `count` rows of `row` pixels, starting at `list_top`, that a view from
/// `view_top` to `view_bottom` shows (the same frame of reference for all three), with `margin`
/// rows more on either side.
pub(crate) fn in_view(
    list_top: f64,
    (view_top, view_bottom): (f64, f64),
    row: f64,
    margin: usize,
    count: usize,
) -> Range<usize> {
    let first = ((view_top - list_top) / row).floor().max(0.0) as usize;
    let last = ((view_bottom - list_top) / row).ceil().max(0.0) as usize;
    first.saturating_sub(margin).min(count)..(last + margin).min(count)
}

/// The list's style: as tall as all its rows, those drawn placed by the padding above them
/// (important against a host page's `ol` rules).
pub(crate) fn style(drawn: &Range<usize>, count: usize, row: f64) -> String {
    format!("height: {}px; padding-top: {}px !important", count as f64 * row, drawn.start as f64 * row)
}
