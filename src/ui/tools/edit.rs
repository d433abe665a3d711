//! Edit, MultiEdit, Write: the file, then its diff (or the whole file written). NotebookEdit:
//! the notebook, the cell changed and how, then its diff or its new source.

use leptos::prelude::*;

use crate::present::tools::{Change, EditBody};
use crate::text::diff::{Row, RowKind};
use crate::text::highlight::Highlighter;
use crate::text::markup::Node;
use crate::ui::content::{field, numbered, result_content};
use crate::ui::markup::nodes;

pub(crate) fn view(body: EditBody) -> AnyView {
    let language = body.language.as_deref();
    match body.change {
        Change::WholeFile { created, content } => view! {
            {field("file", body.path)}
            <span class="cctv-badge">{if created { "new file" } else { "whole file written" }}</span>
            {numbered(&content, 1, language)}
        }
        .into_any(),
        Change::Cell(cell) => view! {
            {field("notebook", body.path)}
            <span class="cctv-badge">{cell.words()}</span>
            {cell.kind.clone().map(|k| view! { <span class="cctv-badge">{k}</span> })}
            {match cell.diff {
                Some(rows) => diff_view(rows, language),
                None if cell.source.is_empty() => view! { <div class="cctv-muted">"(empty cell)"</div> }.into_any(),
                None => numbered(&cell.source, 1, language),
            }}
            {body.failed.map(|f| result_content(&f, true))}
        }
        .into_any(),
        Change::Diff(rows) => view! {
            {field("file", body.path)}
            {body.badges.into_iter().map(|b| view! { <span class="cctv-badge">{b}</span> }).collect_view()}
            {diff_view(rows, language)}
            {body.failed.map(|f| result_content(&f, true))}
        }
        .into_any(),
    }
}

/// A diff's rows, highlighted as the file's language: one grammar state runs through each hunk
/// (a comment opened on one line is still a comment on the next), started again at every hunk.
pub(crate) fn diff_view(rows: Vec<Row>, language: Option<&str>) -> AnyView {
    let mut highlighter = None;
    view! {
        <table class="cctv-diff">
            <tbody>
                {rows
                    .into_iter()
                    .map(|r| {
                        let (class, sign) = match r.kind {
                            RowKind::Hunk => ("cctv-diff__hunk", ""),
                            RowKind::Context => ("cctv-diff__context", " "),
                            RowKind::Added => ("cctv-diff__added", "+"),
                            RowKind::Removed => ("cctv-diff__removed", "-"),
                        };
                        if r.kind == RowKind::Hunk || highlighter.is_none() {
                            highlighter = language.and_then(Highlighter::new);
                        }
                        let text = match (&mut highlighter, r.kind) {
                            (Some(h), RowKind::Context | RowKind::Added | RowKind::Removed) => h.line(&r.text),
                            _ => vec![Node::Text(r.text)],
                        };
                        view! {
                            <tr class=class>
                                <td class="cctv-diff__no">{r.old_line}</td>
                                <td class="cctv-diff__no">{r.new_line}</td>
                                <td class="cctv-diff__sign">{sign}</td>
                                <td class="cctv-diff__text">{nodes(text)}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}
