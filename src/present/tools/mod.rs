//! What a tool call's panel shows, decided per tool family. [`family`] places each
//! [`crate::model::Tool`] in one; the UI matches on [`ToolBody`] and draws each variant with its
//! own file under `ui/tools/`. A new family is one file here, one there, and one arm in each
//! `match`.

mod agent;
mod app;
mod artifact;
mod ask;
mod background;
mod bash;
mod batch;
mod cloud;
mod edit;
mod facts;
mod headline;
mod lsp;
mod mcp;
mod mcp_resources;
mod notify;
mod proposal;
mod read;
mod report;
mod schedule;
mod search;
mod skill;
mod tasks;
mod team;
mod todo;
mod tool_search;
mod web;
mod workflow;
mod worktree;

pub use agent::AgentBody;
pub use ask::{AskBody, Choice, PlanBody, Question};
pub use background::{BackgroundAction, BackgroundBody, BackgroundOutput};
pub use bash::{BashBody, BashOutput, Shell};
pub use batch::BatchBody;
pub use edit::{CellChange, CellEdit, Change, EditBody};
pub use facts::{Facts, Listed};
pub use lsp::LspBody;
pub use mcp::McpBody;
pub use read::{ReadBody, ReadContent};
pub use schedule::{Job, ScheduleBody};
pub use search::{SearchBody, SearchOutput};
pub use skill::SkillBody;
pub use tasks::{Task, TaskBoard, TasksBody};
pub use team::{MessageBody, TeamBody};
pub use todo::{todo_changes, written_todos, TodoBody, TodoStatus, TodoView};
pub use tool_search::ToolSearchBody;
pub use web::{Fetched, WebFetchBody, WebLink, WebResult, WebSearchBody};
pub use workflow::WorkflowBody;

use serde_json::Value;

use crate::model::body::ToolResultContent;
use crate::model::tool_result::Todo;
use crate::model::Tool;
use crate::present::calls::CallView;

/// The body of a tool call's panel, by tool family.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolBody {
    /// Bash and PowerShell.
    Bash(BashBody),
    /// BashOutput, KillShell, TaskOutput, TaskStop: a shell or task running in the background.
    Background(BackgroundBody),
    /// Edit, MultiEdit and Write.
    Edit(EditBody),
    Read(ReadBody),
    /// Grep, Glob and LS.
    Search(SearchBody),
    WebSearch(WebSearchBody),
    WebFetch(WebFetchBody),
    /// TodoWrite and TodoRead.
    Todo(TodoBody),
    /// TaskCreate, TaskUpdate, TaskList, TaskGet: the task board after the call.
    Tasks(TasksBody),
    /// Task and Agent: the prompt a sub-agent was given and its answer.
    Agent(AgentBody),
    Ask(AskBody),
    /// ExitPlanMode and EnterPlanMode.
    Plan(PlanBody),
    Skill(SkillBody),
    /// SendMessage: a message between teammates.
    Message(MessageBody),
    /// TeamCreate and TeamDelete.
    Team(TeamBody),
    /// Monitor, ScheduleWakeup, CronCreate/CronList/CronDelete.
    Schedule(ScheduleBody),
    Lsp(LspBody),
    ToolSearch(ToolSearchBody),
    Batch(BatchBody),
    /// A workflow run; its agents nest under the call.
    Workflow(WorkflowBody),
    Mcp(McpBody),
    /// EnterWorktree and ExitWorktree.
    Worktree(Facts),
    /// PushNotification, SendUserFile, ReadNotifications: to and from the person away.
    Notify(Facts),
    /// ProposeGoal and ProposeSkills.
    Proposal(Facts),
    /// ReportFindings and SendFeedback.
    Report(Facts),
    /// ListMcpResources, ReadMcpResource, ReadMcpResourceDir, RefreshMcpTools.
    McpResources(Facts),
    Artifact(Facts),
    /// Projects, ClaudeDesign, RemoteTrigger: claude.ai's services.
    Cloud(Facts),
    /// ListAgents, OfferChromeSetup, ShowOnboardingRolePicker: Claude Code's own state and dialogs.
    App(Facts),
    /// Any other tool: its input as JSON and what it returned.
    Generic {
        input: Value,
        output: Output,
    },
}

/// What a tool told the model, or that nothing came back.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    Result {
        content: ToolResultContent,
        is_error: bool,
    },
    /// No result in the files: the session ended or was cut before the call returned.
    Missing,
}

/// What a call returned: the structured result Claude Code kept for its UI where there is one
/// cctv draws specially, else the plain output.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer<T> {
    Structured(T),
    Plain(Output),
}

impl Output {
    pub fn of(call: &CallView) -> Output {
        match &call.result {
            // A rejection or an interrupt is flagged as an error for the model; to a reader it is
            // what the person decided, not a failure, and is shown as such.
            Some(r) => {
                Output::Result { content: r.content.clone(), is_error: r.is_error && r.synthetic.is_none() }
            }
            None => Output::Missing,
        }
    }
}

/// Picks a call's body by its tool and what its result holds. `previous_todos` is the list
/// the thread's last TodoWrite before this call wrote.
pub fn tool_body(call: &CallView, previous_todos: Option<&[Todo]>) -> ToolBody {
    let body = match family(&call.tool) {
        Some(Family::Bash) => Some(ToolBody::Bash(BashBody::of(call))),
        Some(Family::Background) => Some(ToolBody::Background(BackgroundBody::of(call))),
        Some(Family::Read) => ReadBody::of(call).map(ToolBody::Read),
        Some(Family::Edit) => Some(ToolBody::Edit(EditBody::of(call))),
        Some(Family::Search) => Some(ToolBody::Search(SearchBody::of(call))),
        Some(Family::WebSearch) => Some(ToolBody::WebSearch(WebSearchBody::of(call))),
        Some(Family::WebFetch) => Some(ToolBody::WebFetch(WebFetchBody::of(call))),
        Some(Family::Todo) => Some(ToolBody::Todo(TodoBody::of(call, previous_todos))),
        // Without the thread's earlier task calls, the board is what this call alone says.
        Some(Family::Tasks) => {
            let mut board = TaskBoard::default();
            let change = board.apply(call);
            Some(ToolBody::Tasks(TasksBody { change, board: board.tasks }))
        }
        Some(Family::Agent) => Some(ToolBody::Agent(AgentBody::of(call))),
        Some(Family::Ask) => Some(ToolBody::Ask(AskBody::of(call))),
        Some(Family::Plan) => Some(ToolBody::Plan(PlanBody::of(call))),
        Some(Family::Skill) => Some(ToolBody::Skill(SkillBody::of(call))),
        Some(Family::Message) => Some(ToolBody::Message(MessageBody::of(call))),
        Some(Family::Team) => Some(ToolBody::Team(TeamBody::of(call))),
        Some(Family::Schedule) => Some(ToolBody::Schedule(ScheduleBody::of(call))),
        Some(Family::Lsp) => Some(ToolBody::Lsp(LspBody::of(call))),
        Some(Family::ToolSearch) => Some(ToolBody::ToolSearch(ToolSearchBody::of(call))),
        Some(Family::Batch) => Some(ToolBody::Batch(BatchBody::of(call))),
        Some(Family::Workflow) => Some(ToolBody::Workflow(WorkflowBody::of(call))),
        Some(Family::Mcp) => McpBody::of(call).map(ToolBody::Mcp),
        Some(Family::Worktree) => Some(ToolBody::Worktree(worktree::worktree(call))),
        Some(Family::Notify) => Some(ToolBody::Notify(notify::notify(call))),
        Some(Family::Proposal) => Some(ToolBody::Proposal(proposal::proposal(call))),
        Some(Family::Report) => Some(ToolBody::Report(report::report(call))),
        Some(Family::McpResources) => Some(ToolBody::McpResources(mcp_resources::mcp_resources(call))),
        Some(Family::Artifact) => Some(ToolBody::Artifact(artifact::artifact(call))),
        Some(Family::Cloud) => Some(ToolBody::Cloud(cloud::cloud(call))),
        Some(Family::App) => Some(ToolBody::App(app::app(call))),
        None => None,
    };
    body.unwrap_or_else(|| ToolBody::Generic { input: call.input.clone(), output: Output::of(call) })
}

/// The tool families cctv draws specially.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Bash,
    Background,
    Read,
    Edit,
    Search,
    WebSearch,
    WebFetch,
    Todo,
    Tasks,
    Agent,
    Ask,
    Plan,
    Skill,
    Message,
    Team,
    Schedule,
    Lsp,
    ToolSearch,
    Batch,
    Workflow,
    Mcp,
    Worktree,
    Notify,
    Proposal,
    Report,
    McpResources,
    Artifact,
    Cloud,
    App,
}

/// The family a tool belongs to; `None` for tools shown as generic input and output (which the
/// drift report lists). Every tool is named, so a new [`Tool`] is placed here before it builds.
pub fn family(tool: &Tool) -> Option<Family> {
    Some(match tool {
        Tool::Bash | Tool::PowerShell => Family::Bash,
        Tool::Read => Family::Read,
        Tool::Edit | Tool::MultiEdit | Tool::Write | Tool::NotebookEdit => Family::Edit,
        Tool::BashOutput | Tool::KillShell | Tool::TaskOutput | Tool::TaskStop => Family::Background,
        Tool::Grep | Tool::Glob | Tool::LS => Family::Search,
        Tool::WebSearch => Family::WebSearch,
        Tool::WebFetch => Family::WebFetch,
        Tool::TodoWrite | Tool::TodoRead => Family::Todo,
        Tool::TaskCreate | Tool::TaskUpdate | Tool::TaskList | Tool::TaskGet => Family::Tasks,
        Tool::Agent => Family::Agent,
        Tool::AskUserQuestion => Family::Ask,
        Tool::ExitPlanMode | Tool::EnterPlanMode => Family::Plan,
        Tool::Skill => Family::Skill,
        Tool::SendMessage => Family::Message,
        Tool::TeamCreate | Tool::TeamDelete => Family::Team,
        Tool::Monitor | Tool::ScheduleWakeup | Tool::CronCreate | Tool::CronList | Tool::CronDelete => {
            Family::Schedule
        }
        Tool::LSP => Family::Lsp,
        Tool::ToolSearch => Family::ToolSearch,
        Tool::Batch => Family::Batch,
        Tool::Workflow => Family::Workflow,
        Tool::Mcp { .. } => Family::Mcp,
        Tool::EnterWorktree | Tool::ExitWorktree => Family::Worktree,
        Tool::PushNotification | Tool::SendUserFile | Tool::ReadNotifications => Family::Notify,
        Tool::ProposeGoal | Tool::ProposeSkills => Family::Proposal,
        Tool::ReportFindings | Tool::SendFeedback => Family::Report,
        Tool::ListMcpResources | Tool::ReadMcpResource | Tool::ReadMcpResourceDir | Tool::RefreshMcpTools => {
            Family::McpResources
        }
        Tool::Artifact => Family::Artifact,
        Tool::Projects | Tool::ClaudeDesign | Tool::RemoteTrigger => Family::Cloud,
        Tool::ListAgents | Tool::OfferChromeSetup | Tool::ShowOnboardingRolePicker => Family::App,
        Tool::Unknown(_) => return None,
    })
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Calls built from real fixture lines, for the per-family tests.

    use crate::normalize::{ItemKind, Workspace};
    use crate::present::calls::{call_view, CallView};

    /// A call as Claude Code documents it, for tools no public session holds: its input, what the
    /// model was told, and the structured result.
    pub fn documented(
        name: &str,
        input: serde_json::Value,
        told: &str,
        result: serde_json::Value,
    ) -> CallView {
        use crate::model::{body::ToolResultContent, tool_result, Tool};
        use crate::present::calls::ResultView;
        CallView {
            name: name.to_owned(),
            tool: Tool::from_name(name),
            input,
            result: Some(ResultView {
                content: ToolResultContent::Text(told.to_owned()),
                structured: Some(tool_result::from_value(result, Some(&Tool::from_name(name)))),
                is_error: false,
                synthetic: None,
                saved: None,
                run: None,
            }),
            loaded: Vec::new(),
        }
    }

    /// Every call of tool `name` in the workspace, decoded.
    pub fn calls(ws: &Workspace, name: &str) -> Vec<CallView> {
        let mut out = Vec::new();
        for session in &ws.sessions {
            for (_, thread) in session.threads() {
                for item in &thread.items {
                    if let ItemKind::ToolCall(call) = &item.kind {
                        let view = call_view(ws, item, call);
                        if view.name == name {
                            out.push(view);
                        }
                    }
                }
            }
        }
        out
    }
}
