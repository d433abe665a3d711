//! WebSearch and WebFetch: the query or URL, and what came back.

use serde_json::Value;

use super::{Answer, Output};
use crate::model::body::{ResultItem, ToolResultContent};
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct WebSearchBody {
    pub query: String,
    pub results: Answer<Vec<WebResult>>,
}

/// One entry of a search's results: Claude Code writes the model's summary as text and the hits
/// as `{content: [{title, url}]}`.
#[derive(Clone, Debug, PartialEq)]
pub enum WebResult {
    Markdown(String),
    Links(Vec<WebLink>),
    Json(Value),
}

#[derive(Clone, Debug, PartialEq)]
pub struct WebLink {
    pub title: String,
    pub url: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WebFetchBody {
    pub url: String,
    /// What the model asked of the page.
    pub prompt: Option<String>,
    pub fetched: Answer<Fetched>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fetched {
    /// `200 OK · 5120 bytes`.
    pub status: String,
    /// The answer about the page, Markdown.
    pub answer: String,
}

impl WebSearchBody {
    pub fn of(call: &CallView) -> WebSearchBody {
        let results = match call.structured() {
            Some(ToolUseResult::WebSearch(s)) => {
                Answer::Structured(s.results.iter().map(web_result).collect())
            }
            _ => match call.result.as_ref().filter(|r| !r.is_error).map(|r| &r.content) {
                Some(ToolResultContent::Text(text)) => {
                    links_in_text(text).map_or_else(|| Answer::Plain(Output::of(call)), Answer::Structured)
                }
                // The API's own web search (`server_tool_use`): a list of `web_search_result`s.
                Some(ToolResultContent::Items(items)) => {
                    let links: Vec<WebLink> = items
                        .iter()
                        .filter_map(|i| match i {
                            ResultItem::Other(v) if v.get("url").is_some() => {
                                Some(WebLink { title: str_field(v, "title"), url: str_field(v, "url") })
                            }
                            _ => None,
                        })
                        .collect();
                    if links.is_empty() {
                        Answer::Plain(Output::of(call))
                    } else {
                        Answer::Structured(vec![WebResult::Links(links)])
                    }
                }
                _ => Answer::Plain(Output::of(call)),
            },
        };
        WebSearchBody { query: call.text("query").unwrap_or_default().to_owned(), results }
    }
}

/// Results as the model was told them (all that 2.1.x sub-agent files keep): a `Links: [{title,
/// url}, …]` line among the text.
fn links_in_text(text: &str) -> Option<Vec<WebResult>> {
    let at = text.find("Links: [")?;
    let json = &text[at + "Links: ".len()..];
    let mut stream = serde_json::Deserializer::from_str(json).into_iter::<Value>();
    let links = stream.next()?.ok()?;
    let end = at + "Links: ".len() + stream.byte_offset();
    let mut out = Vec::new();
    let before = text[..at].trim();
    // The first line only repeats the query.
    let before = before
        .strip_prefix("Web search results for query:")
        .map_or(before, |rest| rest.split_once('\n').map_or("", |(_, after)| after.trim()));
    if !before.is_empty() {
        out.push(WebResult::Markdown(before.to_owned()));
    }
    out.push(web_result(&serde_json::json!({ "content": links })));
    let after = text[end..].trim();
    if !after.is_empty() {
        out.push(WebResult::Markdown(after.to_owned()));
    }
    Some(out)
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

fn web_result(result: &Value) -> WebResult {
    match result {
        Value::String(text) => WebResult::Markdown(text.clone()),
        Value::Object(_) => {
            let links =
                result.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let text = |l: &Value, key: &str| l.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
            WebResult::Links(
                links.iter().map(|l| WebLink { title: text(l, "title"), url: text(l, "url") }).collect(),
            )
        }
        other => WebResult::Json(other.clone()),
    }
}

impl WebFetchBody {
    pub fn of(call: &CallView) -> WebFetchBody {
        let fetched = match call.structured() {
            Some(ToolUseResult::WebFetch(f)) => Answer::Structured(Fetched {
                status: format!(
                    "{} {} · {} bytes",
                    f.code.unwrap_or(0),
                    f.code_text.clone().unwrap_or_default(),
                    f.bytes.unwrap_or(0)
                ),
                answer: f.result.clone(),
            }),
            _ => Answer::Plain(Output::of(call)),
        };
        WebFetchBody {
            url: call.text("url").unwrap_or_default().to_owned(),
            prompt: call.text("prompt").map(str::to_owned),
            fetched,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, Answer, ToolBody};
    use super::WebResult;
    use crate::fixtures::workspace;

    const FIXTURE: &str =
        "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl";

    #[test]
    fn a_real_web_search_lists_its_links() {
        let ws = workspace(FIXTURE);
        let searches = calls(&ws, "WebSearch");
        assert!(!searches.is_empty());
        let ToolBody::WebSearch(body) = tool_body(&searches[0], None) else { panic!() };
        assert_eq!(body.query, searches[0].text("query").unwrap());
        let Answer::Structured(results) = body.results else { panic!("structured results") };
        let links: Vec<_> = results
            .iter()
            .flat_map(|r| match r {
                WebResult::Links(l) => l.clone(),
                _ => vec![],
            })
            .collect();
        assert!(links.iter().any(|l| l.url.starts_with("http")), "{results:#?}");
    }

    #[test]
    fn a_web_search_kept_only_as_text_still_lists_its_links() {
        // moredip agent-a9cad17 (CC 2.1.15): no toolUseResult, a `Links: [...]` line in the text.
        let ws = workspace("moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-a9cad17.jsonl");
        let searches = calls(&ws, "WebSearch");
        assert!(!searches.is_empty());
        let ToolBody::WebSearch(body) = tool_body(&searches[0], None) else { panic!() };
        let Answer::Structured(results) = body.results else { panic!("links found in the text") };
        let links: Vec<_> = results
            .iter()
            .flat_map(|r| match r {
                WebResult::Links(l) => l.clone(),
                _ => vec![],
            })
            .collect();
        assert!(links.len() >= 3, "{results:#?}");
        assert!(links.iter().all(|l| l.url.starts_with("https://") && !l.title.is_empty()));
        assert!(results.iter().all(|r| !matches!(r, WebResult::Markdown(t) if t.contains("Links: ["))));
    }

    #[test]
    fn a_real_web_fetch_shows_its_status_and_answer() {
        let ws = workspace(FIXTURE);
        let fetches = calls(&ws, "WebFetch");
        assert!(!fetches.is_empty());
        let ToolBody::WebFetch(body) = tool_body(&fetches[0], None) else { panic!() };
        assert!(body.url.starts_with("http"));
        let Answer::Structured(fetched) = body.fetched else { panic!("structured result") };
        assert!(fetched.status.contains("bytes"), "{}", fetched.status);
        assert!(!fetched.answer.is_empty());
    }
}
