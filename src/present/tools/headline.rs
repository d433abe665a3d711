//! A call's headline: what it is about in a few words, and the counts its header shows. Here
//! rather than beside [`CallView`] because some families say it from their own body.

use serde_json::Value;

use super::{family, BackgroundBody, Family, LspBody};
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::{duration, plural};

impl CallView {
    /// What the call is about, in a few words: a path, a command, a pattern, a URL.
    pub fn target(&self) -> String {
        let first = |keys: &[&str]| keys.iter().find_map(|k| self.text(k)).map(str::to_owned);
        let target = match &self.tool {
            Tool::Read | Tool::Write | Tool::Edit | Tool::MultiEdit | Tool::NotebookEdit => {
                first(&["file_path", "notebook_path"])
            }
            Tool::Bash | Tool::PowerShell => first(&["command"]),
            Tool::Grep => first(&["pattern"]).map(|p| match self.text("path") {
                Some(path) => format!("{p} in {path}"),
                None => p,
            }),
            Tool::Glob => first(&["pattern"]),
            Tool::WebSearch => first(&["query"]),
            Tool::WebFetch => first(&["url"]),
            Tool::Agent => first(&["description", "subagent_type"]),
            Tool::TodoWrite => {
                self.input.get("todos").and_then(Value::as_array).map(|t| plural(t.len() as u64, "item"))
            }
            Tool::ExitPlanMode => Some("plan".to_owned()),
            Tool::EnterPlanMode => Some("plan mode".to_owned()),
            Tool::LS => first(&["path"]),
            Tool::Skill => first(&["skill"]).map(|s| match self.text("args").filter(|a| !a.is_empty()) {
                Some(args) => format!("{s} {args}"),
                None => s,
            }),
            Tool::SendMessage => first(&["to", "recipient"]).map(|to| match self.text("summary") {
                Some(summary) => format!("to {to}: {summary}"),
                None => format!("to {to}"),
            }),
            Tool::ToolSearch => first(&["query"]),
            Tool::Batch => first(&["description"]),
            Tool::TodoRead => Some("todo list".to_owned()),
            Tool::Workflow => first(&["name", "scriptPath"]),
            Tool::BashOutput | Tool::KillShell | Tool::TaskOutput | Tool::TaskStop => {
                Some(BackgroundBody::of(self).target())
            }
            Tool::LSP => Some(LspBody::of(self).target()),
            Tool::TeamCreate => first(&["team_name"]),
            Tool::TeamDelete => Some("the team".to_owned()),
            Tool::Monitor => first(&["description", "command"]),
            Tool::ScheduleWakeup => first(&["reason"]),
            Tool::CronCreate => first(&["cron"]),
            Tool::CronDelete => first(&["id"]),
            Tool::CronList => Some("scheduled jobs".to_owned()),
            Tool::TaskCreate => first(&["subject"]),
            Tool::TaskUpdate | Tool::TaskGet => self.input.get("taskId").map(|id| {
                let id = id.as_str().map_or_else(|| id.to_string(), str::to_owned);
                format!("#{id} {}", self.text("status").unwrap_or_default()).trim_end().to_owned()
            }),
            Tool::EnterWorktree => first(&["path", "name"]).or_else(|| Some("a new worktree".to_owned())),
            Tool::ExitWorktree => self.text("action").map(|action| match action {
                "remove" => "remove the worktree".to_owned(),
                "keep" => "keep the worktree".to_owned(),
                other => other.to_owned(),
            }),
            Tool::SendUserFile => first(&["file_path", "path", "file"]),
            Tool::ReadNotifications => Some("notifications".to_owned()),
            Tool::ProposeGoal => first(&["condition"]),
            Tool::ProposeSkills => {
                let names: Vec<&str> = self
                    .input
                    .get("proposals")
                    .and_then(Value::as_array)
                    .map(|p| p.iter().filter_map(|s| s.get("name").and_then(Value::as_str)).collect())
                    .unwrap_or_default();
                (!names.is_empty()).then(|| names.join(", "))
            }
            Tool::ReportFindings => self.input.get("findings").and_then(Value::as_array).map(|f| {
                if f.is_empty() {
                    "no findings".to_owned()
                } else {
                    plural(f.len() as u64, "finding")
                }
            }),
            Tool::SendFeedback => first(&["title"]),
            Tool::ListMcpResources | Tool::RefreshMcpTools => {
                Some(self.text("server").map_or_else(|| "every server".to_owned(), str::to_owned))
            }
            Tool::ReadMcpResource | Tool::ReadMcpResourceDir => first(&["uri"]),
            Tool::Artifact => {
                let action = self.text("action").unwrap_or("publish");
                let what = first(&["title", "file_path", "url"]);
                Some(match what {
                    Some(what) => format!("{} {what}", action.replace('_', " ")),
                    None => action.replace('_', " "),
                })
            }
            Tool::Projects => self.text("method").map(|m| {
                let method = m.strip_prefix("project_").unwrap_or(m).replace('_', " ");
                match first(&["path", "query"]) {
                    Some(what) => format!("{method} {what}"),
                    None => method,
                }
            }),
            Tool::ClaudeDesign => first(&["operation"]),
            Tool::RemoteTrigger => self.text("action").map(|a| {
                let action = a.replace('_', " ");
                match first(&["trigger_id", "session_id"]) {
                    Some(id) => format!("{action} {id}"),
                    None => action,
                }
            }),
            Tool::ListAgents => Some("running agents".to_owned()),
            Tool::OfferChromeSetup => Some("connect Chrome".to_owned()),
            Tool::ShowOnboardingRolePicker => Some("the person's role".to_owned()),
            _ => None,
        };
        target.unwrap_or_else(|| {
            // Unknown and MCP tools: the first short string argument says the most.
            self.input
                .as_object()
                .and_then(|o| o.values().find_map(|v| v.as_str().filter(|s| s.len() < 200)))
                .unwrap_or("")
                .to_owned()
        })
    }

    /// Counts for the header: `+3 −1` for edits, line counts for reads, matches for searches.
    pub fn detail(&self) -> Option<String> {
        if family(&self.tool) == Some(Family::Background) {
            return BackgroundBody::of(self).detail();
        }
        if self.tool == Tool::NotebookEdit {
            return match super::EditBody::of(self).change {
                super::Change::Cell(cell) => Some(cell.words()),
                _ => None,
            };
        }
        let structured = self.result.as_ref()?.structured.as_ref()?;
        Some(match structured {
            ToolUseResult::Edit(e) => diff_counts(&crate::text::diff::from_hunks(&e.structured_patch)),
            ToolUseResult::MultiEdit(e) => diff_counts(&crate::text::diff::from_hunks(&e.structured_patch)),
            ToolUseResult::Write(w) if w.kind == "create" => format!("+{}", w.content.lines().count()),
            ToolUseResult::Write(w) => diff_counts(&crate::text::diff::from_hunks(&w.structured_patch)),
            ToolUseResult::Read(r) if r.file.num_lines > 0 => plural(r.file.num_lines, "line"),
            ToolUseResult::Glob(g) => plural(g.num_files, "file"),
            ToolUseResult::Grep(g) => match g.num_lines {
                Some(n) if g.mode.as_deref() == Some("content") => plural(n, "line"),
                _ => plural(g.num_files, "file"),
            },
            ToolUseResult::WebFetch(f) => {
                f.code.map(|c| format!("{c} {}", f.code_text.clone().unwrap_or_default()))?
            }
            ToolUseResult::ExitWorktree(e) => match e.action.as_str() {
                "remove" => "removed".to_owned(),
                "keep" => "kept".to_owned(),
                _ => return None,
            },
            ToolUseResult::PushNotification(p) if p.push_sent == Some(true) || p.local_sent == Some(true) => {
                "sent".to_owned()
            }
            ToolUseResult::PushNotification(_) => "not sent".to_owned(),
            ToolUseResult::ReadNotifications(r) => plural(r.notifications.len() as u64, "notification"),
            ToolUseResult::Task(t) => {
                let mut parts = Vec::new();
                if let Some(ms) = t.total_duration_ms {
                    parts.push(duration(ms));
                }
                if let Some(tokens) = t.total_tokens {
                    parts.push(plural(tokens, "token"));
                }
                if let Some(tools) = t.total_tool_use_count {
                    parts.push(plural(tools, "tool call"));
                }
                parts.join(" · ")
            }
            _ => return None,
        })
    }
}

fn diff_counts(rows: &[crate::text::diff::Row]) -> String {
    let (added, removed) = crate::text::diff::counts(rows);
    format!("+{added} −{removed}")
}
