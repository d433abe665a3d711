//! Artifact: pages published on claude.ai. One tool does many things (publish, list, read,
//! watch, add or remove assets, pin), and its result is a different shape for each; the panel
//! says what the call did from whichever shape came back, with the page's link (http(s) only).

use serde_json::Value;

use super::facts::{self, Facts, Listed};
use crate::present::calls::CallView;
use crate::text::format::{plural, size};

pub fn artifact(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    let input = Some(&call.input);
    let action = facts::text(input, "action").unwrap_or_else(|| "publish".to_owned());
    let Some(result) = facts::result_object(call) else {
        // Failed or not run: what was asked.
        facts.field("action", Some(facts::words(&action)));
        facts.field("file", facts::text(input, "file_path"));
        facts.field("title", facts::text(input, "title"));
        if let Some(url) = call.text("url") {
            facts.items.push(Listed::new(url).link(Some(url)));
        }
        return facts;
    };
    let r = Some(result);
    let part = |key: &str| result.get(key).filter(|v| v.is_object());
    if let Some(read) = part("read") {
        facts.field("read", facts::text(Some(read), "title"));
        let status =
            [facts::number(Some(read), "code").map(|c| c.to_string()), facts::text(Some(read), "codeText")];
        facts.field("status", Some(status.into_iter().flatten().collect::<Vec<_>>().join(" ")));
        facts.field("size", facts::number(Some(read), "bytes").map(|b| size(b as usize)));
        facts.items.push(page(facts::text(Some(read), "url"), None));
        // What was read is what the model was told: it stays below.
        return facts;
    }
    if let Some(watch) = part("watch") {
        facts.field("watching", facts::flag(Some(watch), "watching").map(yes_no));
        facts.field("outcome", facts::text(Some(watch), "outcome").map(|o| facts::words(&o)));
        facts.field("why", facts::text(Some(watch), "reason"));
        facts.items.push(page(facts::text(Some(watch), "url"), None));
    } else if let Some(unwatch) = part("unwatch") {
        facts.field(
            "stopped watching",
            facts::flag(Some(unwatch), "was_watching").map(|w| {
                if w {
                    "yes".to_owned()
                } else {
                    "it was not watched".to_owned()
                }
            }),
        );
        facts.items.push(page(facts::text(Some(unwatch), "url"), None));
    } else if result.get("watches").is_some() {
        let watches = facts::list(r, "watches");
        facts.field("watches", Some(plural(watches.len() as u64, "page")));
        facts.items = watches
            .iter()
            .map(|w| {
                page(facts::text(Some(w), "url"), facts::text(Some(w), "rail").map(|r| facts::words(&r)))
            })
            .collect();
    } else if let Some(pin) = part("pin") {
        let pinned = facts::flag(Some(pin), "pinned");
        facts.field("sidebar", pinned.map(|p| if p { "pinned" } else { "unpinned" }.to_owned()));
        facts.items.push(page(facts::text(Some(pin), "url"), facts::text(Some(pin), "title")));
    } else if let Some(upload) = part("asset_upload") {
        facts.field("uploaded", facts::text(Some(upload), "file_name"));
        facts.items.push(asset(upload));
    } else if let Some(uploads) = part("asset_uploads") {
        let results = facts::list(Some(uploads), "results");
        facts.field("uploads", Some(plural(results.len() as u64, "file")));
        facts.items = results.iter().map(upload).collect();
    } else if let Some(assets) = part("asset_list") {
        let listed = facts::list(Some(assets), "assets");
        facts.field("assets", Some(plural(listed.len() as u64, "file")));
        facts.items = listed.iter().map(asset).collect();
    } else if let Some(read) = part("asset_read") {
        facts.field("asset", facts::text(Some(read), "id"));
        facts.field("saved to", facts::text(Some(read), "path"));
        facts.field("size", facts::number(Some(read), "size_bytes").map(|b| size(b as usize)));
    } else if let Some(deleted) = part("asset_delete") {
        facts.field("asset", facts::text(Some(deleted), "id"));
        facts.field("deleted", facts::flag(Some(deleted), "deleted").map(yes_no));
    } else if result.get("artifacts").is_some() {
        let listed = facts::list(r, "artifacts");
        let total = facts::number(r, "total").unwrap_or(listed.len() as u64);
        let more = facts::flag(r, "truncated") == Some(true) || facts::text(r, "next_page_token").is_some();
        facts.field(
            "listed",
            Some(format!("{}{}", plural(total, "artifact"), if more { ", more after" } else { "" })),
        );
        facts.items = listed
            .iter()
            .map(|a| {
                let note = [facts::text(Some(a), "rel"), facts::text(Some(a), "role")];
                page(facts::text(Some(a), "url"), facts::text(Some(a), "title"))
                    .note(Some(note.into_iter().flatten().collect::<Vec<_>>().join(" · ")))
            })
            .collect();
    } else if result.get("url").is_some() {
        // A publish: the page, new or a new version of one, and anything it warned about.
        let how = if facts::flag(r, "unchanged") == Some(true) {
            "nothing changed"
        } else if facts::flag(r, "updated") == Some(true) {
            "a new version of the page"
        } else {
            "a new page"
        };
        facts.field("published", Some(how.to_owned()));
        facts.field("from", facts::text(r, "path").or(facts::text(input, "file_path")));
        facts.field("version", facts::text(r, "version"));
        facts.field("pinned", (facts::flag(r, "pinned") == Some(true)).then(|| "to the sidebar".to_owned()));
        let title = facts::text(r, "title").or(facts::text(input, "title"));
        facts.items.push(page(facts::text(r, "url"), title));
        let warnings: Vec<&str> = facts::list(r, "warnings").iter().filter_map(Value::as_str).collect();
        facts.text("warnings", Some(warnings.join("\n\n")));
    } else {
        return facts;
    }
    facts.said();
    facts
}

/// A page by its title (or its URL), linked when its URL is http(s).
fn page(url: Option<String>, title: Option<String>) -> Listed {
    let shown = title.or_else(|| url.clone()).unwrap_or_default();
    Listed::new(shown).link(url.as_deref())
}

/// An asset stored with a page: its file name or id, type and size, linked.
fn asset(a: &Value) -> Listed {
    let a = Some(a);
    let name = facts::text(a, "file_name").or(facts::text(a, "id")).unwrap_or_default();
    let note = [facts::text(a, "content_type"), facts::number(a, "size_bytes").map(|b| size(b as usize))];
    Listed::new(name)
        .link(facts::text(a, "url").as_deref())
        .note(Some(note.into_iter().flatten().collect::<Vec<_>>().join(" · ")))
}

/// One file of a several-file upload: uploaded (with its link), or why not.
fn upload(u: &Value) -> Listed {
    match facts::text(Some(u), "status").as_deref() {
        Some("uploaded") => asset(u).note(Some("uploaded".to_owned())),
        status => Listed::new(facts::text(Some(u), "file_path").unwrap_or_default())
            .note(status.map(facts::words))
            .with_text(facts::text(Some(u), "message").or(facts::text(Some(u), "reason"))),
    }
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_owned()
}

#[cfg(test)]
mod tests {
    use super::super::facts::Facts;
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::Artifact(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_publish_says_which_page_with_its_link() {
        let published = body(documented(
            "Artifact",
            json!({"file_path": "/repo/report.html", "icon": "chart"}),
            "Published",
            json!({"url": "https://claude.ai/code/artifact/0f3c", "path": "/repo/report.html", "title": "Q3 report",
                   "version": "3", "updated": true, "warnings": ["No <title> tag"]}),
        ));
        assert_eq!(
            published.fields,
            [
                ("published", "a new version of the page".to_owned()),
                ("from", "/repo/report.html".to_owned()),
                ("version", "3".to_owned())
            ]
        );
        assert_eq!(published.items[0].title, "Q3 report");
        assert_eq!(published.items[0].href.as_deref(), Some("https://claude.ai/code/artifact/0f3c"));
        assert_eq!(published.text, Some(("warnings", "No <title> tag".to_owned())));
        assert_eq!(published.told, None);
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_listing_links_only_http_pages() {
        let listed = body(documented(
            "Artifact",
            json!({"action": "list", "scope": "all"}),
            "2 artifacts",
            json!({"artifacts": [
                {"title": "Roadmap", "url": "https://claude.ai/artifact/1", "rel": "mine"},
                {"title": "Trap", "url": "javascript:alert(1)", "rel": "shared", "role": "viewer"}
            ], "truncated": true}),
        ));
        assert_eq!(listed.fields, [("listed", "2 artifacts, more after".to_owned())]);
        assert_eq!(listed.items[0].href.as_deref(), Some("https://claude.ai/artifact/1"));
        assert_eq!(listed.items[1].href, None, "a javascript: URL is never a link");
        assert_eq!(listed.items[1].note.as_deref(), Some("shared · viewer"));
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn an_upload_of_several_files_says_which_went_and_why_not() {
        let uploads = body(documented(
            "Artifact",
            json!({"action": "upload_asset", "url": "https://claude.ai/artifact/1", "file_paths": ["a.png", "b.mov"]}),
            "1 of 2 uploaded",
            json!({"asset_uploads": {"url": "https://claude.ai/artifact/1", "results": [
                {"file_path": "a.png", "status": "uploaded", "id": "ab12", "url": "https://cdn.example/ab12",
                 "size_bytes": 2048, "content_type": "image/png", "file_name": "a.png"},
                {"file_path": "b.mov", "status": "failed", "reason": "too_large", "message": "over 50 MB"}
            ]}}),
        ));
        assert_eq!(uploads.fields, [("uploads", "2 files".to_owned())]);
        assert_eq!(uploads.items[0].href.as_deref(), Some("https://cdn.example/ab12"));
        assert_eq!(uploads.items[0].note.as_deref(), Some("uploaded"));
        assert_eq!(uploads.items[1].note.as_deref(), Some("failed"));
        assert_eq!(uploads.items[1].text.as_deref(), Some("over 50 MB"));
    }
}
