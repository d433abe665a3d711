//! Edit, MultiEdit, Write: the file, then its diff (or the whole file written).

use leptos::prelude::*;

use crate::present::diff::{Row, RowKind};
use crate::present::tools::{Change, EditBody};
use crate::ui::content::{field, numbered, result_content};

pub fn view(body: EditBody) -> AnyView {
    match body.change {
        Change::WholeFile { created, content } => view! {
            {field("file", body.path)}
            <span class="cctv-badge">{if created { "new file" } else { "whole file written" }}</span>
            {numbered(&content, 1)}
        }
        .into_any(),
        Change::Diff(rows) => view! {
            {field("file", body.path)}
            {body.badges.into_iter().map(|b| view! { <span class="cctv-badge">{b}</span> }).collect_view()}
            {diff_view(rows)}
            {body.failed.map(|f| result_content(&f, true))}
        }
        .into_any(),
    }
}

pub fn diff_view(rows: Vec<Row>) -> AnyView {
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
                        view! {
                            <tr class=class>
                                <td class="cctv-diff__no">{r.old_line}</td>
                                <td class="cctv-diff__no">{r.new_line}</td>
                                <td class="cctv-diff__sign">{sign}</td>
                                <td class="cctv-diff__text">{r.text}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}
