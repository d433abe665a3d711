//! Tool calls decoded for showing: the input, the result, and a one-line headline.

use serde_json::Value;

use crate::model::body::{self, ToolResultContent};
use crate::model::persisted::{persisted_output, PersistedOutput};
use crate::model::synthetic::Synthetic;
use crate::model::tool_result::{self, ToolUseResult};
use crate::model::{BlockKind, Content, EntryKind, Tool};
use crate::normalize::beside::{SavedOutput, WorkflowRun};
use crate::normalize::{Item, ToolCall, Workspace};

/// A call with its parts decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct CallView {
    /// The tool's name as the call gave it.
    pub name: String,
    pub tool: Tool,
    pub input: Value,
    pub result: Option<ResultView>,
    /// What the call put into the conversation for the model (a skill's instructions), as text.
    pub loaded: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResultView {
    /// What the model was told.
    pub content: ToolResultContent,
    /// What Claude Code kept for its UI, typed where cctv renders it specially.
    pub structured: Option<ToolUseResult>,
    pub is_error: bool,
    /// What the result says when Claude Code wrote it in the tool's place.
    pub synthetic: Option<Synthetic>,
    /// The output was too large for the conversation and Claude Code saved it to a file.
    pub saved: Option<Saved>,
    /// For a Workflow call, what the run's own files say (its snapshot and journal).
    pub run: Option<WorkflowRun>,
}

/// A result whose whole output Claude Code saved to a file, giving the model a preview.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub output: PersistedOutput,
    /// The saved file as loaded (its path in the dropped folder), when it was: `content` is then
    /// the whole output read from it rather than the preview.
    pub loaded_from: Option<String>,
}

/// How a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// The tool reported an error.
    Error,
    /// The person stopped it while it ran.
    Interrupted,
    /// The person declined it when asked (or a sub-agent's permission, or auto mode, denied it).
    Rejected,
    /// The person cancelled it.
    Cancelled,
    /// Claude Code paired it with a placeholder: its result was lost.
    Placeholder,
    /// No result in the files: the session ended or was cut before it came back.
    Missing,
}

impl Outcome {
    /// The badge a call's header shows; none when it went as planned.
    pub fn badge(self) -> Option<&'static str> {
        Some(match self {
            Outcome::Ok => return None,
            Outcome::Error => "error",
            Outcome::Interrupted => "interrupted",
            Outcome::Rejected => "rejected",
            Outcome::Cancelled => "cancelled",
            Outcome::Placeholder => "result lost",
            Outcome::Missing => "no result",
        })
    }
}

pub fn call_view(ws: &Workspace, item: &Item, call: &ToolCall) -> CallView {
    view_of(ws, call, call_text(ws, item, call))
}

/// A call as [`call_view`] reads it but for the text of its result, left empty: for a replay of
/// what files became, which reads the structured result (decoding every result's text too was
/// most of what made the files-changed replay 155 ms rather than 96 at 200 MB).
pub fn call_view_untold(ws: &Workspace, item: &Item, call: &ToolCall) -> CallView {
    let (name, input) = call_input(ws, item, call);
    let result = call.result.map(|_| (ToolResultContent::Text(String::new()), None));
    view_of(ws, call, CallText { name, input, result })
}

fn view_of(ws: &Workspace, call: &ToolCall, text: CallText) -> CallView {
    let CallText { name, input, result } = text;
    let tool = Tool::from_name(&name);
    let result = result.and_then(|(content, saved)| {
        let r = call.result?;
        let file = ws.file(r.line);
        let entry = ws.entry(r.line)?;
        let message = entry.message()?;
        // `toolUseResult` belongs to the line, so it says something about this call only when the
        // line carries this one result (Claude Code writes one result per line).
        let results =
            message.content.blocks().iter().filter(|b| matches!(b.kind, BlockKind::ToolResult(_))).count();
        let structured = match &entry.kind {
            EntryKind::User(user) => user.tool_use_result,
            _ => None,
        }
        .filter(|_| results == 1)
        .map(|span| tool_result::decode(&file.bytes, span, Some(&tool)));
        let run = match &structured {
            Some(ToolUseResult::Workflow(w)) => {
                ws.workflow_runs.iter().find(|run| Some(&run.run_id) == w.run_id.as_ref()).cloned()
            }
            _ => None,
        };
        Some(ResultView { content, structured, is_error: r.is_error, synthetic: r.synthetic, saved, run })
    });
    let loaded = call.loaded.iter().filter_map(|&line| {
        let src = &ws.file(line).bytes;
        let message = ws.entry(line)?.message()?;
        let texts: Vec<_> = match &message.content {
            Content::Blocks(blocks) => {
                blocks.iter().filter_map(|b| message.text(src, Some(b.index))).collect()
            }
            _ => message.text(src, None).into_iter().collect(),
        };
        Some(texts.join("\n\n"))
    });
    CallView { name, tool, input, result, loaded: loaded.collect() }
}

/// What a search reads of a call: its name, its input and what the model was told (from the
/// file beside when the output was saved), without the structured result, which repeats it.
pub(crate) struct CallText {
    pub name: String,
    pub input: Value,
    pub result: Option<(ToolResultContent, Option<Saved>)>,
}

/// A call's tool name and its input, without its result: what a call is, for a label.
pub fn call_input(ws: &Workspace, item: &Item, call: &ToolCall) -> (String, Value) {
    let src = &ws.file(item.line).bytes;
    let name = call.name.map(|n| n.decode(src).into_owned()).unwrap_or_default();
    let input = match input_span(ws, item).and_then(|span| body::value(src, span).ok()) {
        // Some writers store the input as a JSON string of the object (Claude Code parses it
        // back: seed 000, processContent).
        Some(Value::String(text)) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        Some(value) => value,
        None => Value::Object(Default::default()),
    };
    (name, input)
}

pub(crate) fn call_text(ws: &Workspace, item: &Item, call: &ToolCall) -> CallText {
    let src = &ws.file(item.line).bytes;
    let (name, input) = call_input(ws, item, call);
    let result = call.result.and_then(|r| {
        let file = ws.file(r.line);
        let result = match &ws.entry(r.line)?.message()?.content.block(r.block)?.kind {
            BlockKind::ToolResult(result) | BlockKind::ServerToolResult { result, .. } => result,
            _ => return None,
        };
        let mut content = match result.content {
            Some(span) => body::tool_result_content(&file.bytes, span),
            None => ToolResultContent::Text(String::new()),
        };
        let found = content.texts().find_map(persisted_output);
        let saved = found.map(|output| {
            let file = saved_file(ws, call, src, &output);
            let loaded_from = file.map(|f| {
                content = saved_content(f);
                f.name.clone()
            });
            Saved { output, loaded_from }
        });
        Some((content, saved))
    });
    CallText { name, input, result }
}

/// The file of `tool-results/` holding the whole output of `call`, if it was loaded: named by
/// the call's id, or by the file name the preview gives.
fn saved_file<'w>(
    ws: &'w Workspace,
    call: &ToolCall,
    src: &[u8],
    output: &PersistedOutput,
) -> Option<&'w SavedOutput> {
    let id = call.tool_use_id.map(|id| id.decode(src));
    let stem = output.file_name().rsplit_once('.').map_or(output.file_name(), |(stem, _)| stem);
    ws.saved_outputs.iter().find(|s| Some(s.tool_use_id.as_str()) == id.as_deref() || s.tool_use_id == stem)
}

/// A saved output: text (`.txt`), or the result's content blocks as JSON (`.json`).
fn saved_content(saved: &SavedOutput) -> ToolResultContent {
    if saved.name.ends_with(".json") {
        if let content @ ToolResultContent::Items(_) =
            body::tool_result_content(&saved.bytes, crate::model::Span::new(0, saved.bytes.len()))
        {
            return content;
        }
    }
    ToolResultContent::Text(String::from_utf8_lossy(&saved.bytes).into_owned())
}

fn input_span(ws: &Workspace, item: &Item) -> Option<crate::model::Span> {
    match &ws.block(item)?.kind {
        BlockKind::ToolUse(t) | BlockKind::ServerToolUse(t) => t.input,
        _ => None,
    }
}

impl CallView {
    /// A string argument of the call.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.input.get(key).and_then(Value::as_str)
    }

    /// The structured result Claude Code kept for its UI, when there is one.
    pub fn structured(&self) -> Option<&ToolUseResult> {
        self.result.as_ref()?.structured.as_ref()
    }

    /// The structured result as plain JSON, for tools whose result cctv reads field by field
    /// (those with no typed shape).
    pub fn structured_fields(&self) -> Option<&Value> {
        match self.structured()? {
            ToolUseResult::Other { value, .. } => Some(value),
            _ => None,
        }
    }

    pub fn outcome(&self) -> Outcome {
        match &self.result {
            None => Outcome::Missing,
            Some(r) if matches!(&r.structured, Some(ToolUseResult::Bash(b)) if b.interrupted) => {
                Outcome::Interrupted
            }
            Some(r) if r.is_error => match r.synthetic {
                Some(Synthetic::Interrupted) => Outcome::Interrupted,
                Some(Synthetic::Rejected) => Outcome::Rejected,
                Some(Synthetic::Cancelled) => Outcome::Cancelled,
                Some(Synthetic::MissingResult) => Outcome::Placeholder,
                Some(Synthetic::NoResponseRequested) | None => Outcome::Error,
            },
            Some(_) => Outcome::Ok,
        }
    }
}
