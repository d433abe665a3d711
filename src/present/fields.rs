//! Reading the JSON fields of an event or a progress line in words, whatever shape a version gave them: its text, the
//! path it is about, and every field as `key: value` for the opened row. Nothing here fails on
//! a missing or odd field: it gives less.

use serde_json::Value;

/// Fields every line carries (or Claude Code's own ids): not details of an event.
const ENVELOPE: &[&str] = &[
    "type",
    "subtype",
    "uuid",
    "parentUuid",
    "logicalParentUuid",
    "sessionId",
    "session_id",
    "timestamp",
    "cwd",
    "version",
    "gitBranch",
    "slug",
    "isSidechain",
    "isMeta",
    "isVisibleInTranscriptOnly",
    "userType",
    "entrypoint",
    "agentId",
    "promptId",
    "requestId",
];

/// Fields that hold what an event says, most telling first.
const TEXT_FIELDS: &[&str] = &[
    "content",
    "text",
    "message",
    "prompt",
    "summary",
    "description",
    "reason",
    "error",
    "status",
    "title",
    "value",
    // An attached file's text: `{"content": {"type": "text", "file": {"content": "…"}}}`.
    "file",
];

/// Fields that name the file an event is about.
const PATH_FIELDS: &[&str] =
    &["displayPath", "path", "filename", "filePath", "file_path", "planFilePath", "uri"];

/// A value past this many characters is cut in the details (the raw line keeps it whole).
const DETAIL_LIMIT: usize = 4000;

pub(crate) fn list<'v>(value: &'v Value, key: &str) -> &'v [Value] {
    value.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

pub(crate) fn str_field(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// The first of `keys` that is a non-empty string, or a number written out.
pub(crate) fn first_str(value: &Value, keys: &[&str]) -> String {
    keys.iter()
        .find_map(|k| match value.get(k)? {
            Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

pub(crate) fn to_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `: text` after a phrase, or nothing when there is no text.
pub(crate) fn colon(content: &str) -> String {
    match content.trim() {
        "" => String::new(),
        text => format!(": {text}"),
    }
}

/// The first line that says something, at most 300 characters.
pub(crate) fn first_line(text: &str) -> String {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or_default().trim().chars().take(300).collect()
}

/// What an event says: its first text field (`content`, `text`, `message`, …), read through
/// objects (`{"content": {"content": "…"}}`) and lists (strings, or objects with text).
pub(crate) fn text_of(value: &Value) -> String {
    fn inner(value: &Value, depth: u8) -> String {
        match value {
            Value::String(s) => s.clone(),
            Value::Array(items) if depth < 3 => items
                .iter()
                .map(|i| inner(i, depth + 1))
                .filter(|t| !t.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n"),
            Value::Object(_) if depth < 3 => TEXT_FIELDS
                .iter()
                .filter_map(|k| value.get(k))
                .map(|v| inner(v, depth + 1))
                .find(|t| !t.trim().is_empty())
                .unwrap_or_default(),
            _ => String::new(),
        }
    }
    match value {
        Value::Object(_) => inner(value, 0),
        _ => String::new(),
    }
}

/// The file an event is about, if it names one (also one level down: `content.path`).
pub(crate) fn path_of(value: &Value) -> String {
    let here = first_str(value, PATH_FIELDS);
    if !here.is_empty() {
        return here;
    }
    value.get("content").map(|c| first_str(c, PATH_FIELDS)).unwrap_or_default()
}

/// Every field but the envelope's and `skip`, as `key: value`: strings as written (cut when
/// long), numbers and booleans written out, lists of plain values joined, objects down to three
/// levels as `key.sub: value`.
pub(crate) fn fields_in_words(value: &Value, skip: &[&str]) -> Vec<String> {
    let Value::Object(map) = value else { return Vec::new() };
    let mut out = Vec::new();
    for (key, v) in map {
        if !ENVELOPE.contains(&key.as_str()) && !skip.contains(&key.as_str()) {
            walk(key, v, 1, &mut out);
        }
    }
    out
}

fn walk(path: &str, value: &Value, depth: u8, out: &mut Vec<String>) {
    match value {
        Value::Object(inner) if depth < 3 => {
            for (sub, v) in inner {
                walk(&format!("{path}.{sub}"), v, depth + 1, out);
            }
        }
        other => out.extend(plain(other).map(|words| format!("{path}: {words}"))),
    }
}

/// A value in words, if it is plain enough to be one line of details.
fn plain(value: &Value) -> Option<String> {
    let words = match value {
        Value::Null => return None,
        Value::String(s) if s.trim().is_empty() => return None,
        Value::String(s) => s.clone(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_owned(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) if items.is_empty() => return None,
        Value::Array(items) => {
            items.iter().map(|i| plain(i).unwrap_or_else(|| i.to_string())).collect::<Vec<_>>().join(", ")
        }
        Value::Object(map) => format!("{} fields", map.len()),
    };
    Some(cut(&words, DETAIL_LIMIT))
}

fn cut(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_is_found_through_objects_and_lists() {
        assert_eq!(text_of(&json!({"content": {"path": "/p", "content": "rules"}})), "rules");
        assert_eq!(text_of(&json!({"content": ["a", "b"]})), "a\nb");
        assert_eq!(text_of(&json!({"text": "", "message": "m"})), "m");
        assert_eq!(text_of(&json!({"count": 3})), "");
        assert_eq!(text_of(&json!("not an object")), "");
    }

    #[test]
    fn paths_are_found_where_versions_put_them() {
        assert_eq!(path_of(&json!({"displayPath": "a.rs", "filename": "/x/a.rs"})), "a.rs");
        assert_eq!(path_of(&json!({"content": {"path": "/p/CLAUDE.md"}})), "/p/CLAUDE.md");
        assert_eq!(path_of(&json!({})), "");
    }

    #[test]
    fn fields_read_as_key_value_lines_without_the_envelope() {
        let words = fields_in_words(
            &json!({"type": "x", "uuid": "u", "count": 3, "on": true, "names": ["a", "b"], "meta": {"k": "v"}, "none": null}),
            &[],
        );
        assert_eq!(words, vec!["count: 3", "meta.k: v", "names: a, b", "on: yes"]);
        // Nested objects read down to their values (as an api_error's `error.cause`).
        let nested =
            fields_in_words(&json!({"error": {"cause": {"code": "FailedToOpenSocket", "errno": 0}}}), &[]);
        assert_eq!(nested, vec!["error.cause.code: FailedToOpenSocket", "error.cause.errno: 0"]);
        let long = fields_in_words(&json!({"text": "x".repeat(5000)}), &[]);
        assert_eq!(long[0].chars().count(), "text: ".len() + DETAIL_LIMIT + 1);
    }
}
