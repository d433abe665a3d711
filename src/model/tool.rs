//! Which tool a call is: parsed once from the name the call gives, so every layer matches on a
//! [`Tool`] and no layer compares names as strings. A tool cctv does not know keeps its name
//! ([`Tool::Unknown`]); an MCP tool keeps its server and tool ([`Tool::Mcp`]).

use std::borrow::Cow;

/// Declares [`Tool`] from one line per built-in tool, `Variant = "Name"` (`or "OldName"` for a
/// name it had before), so a tool's variant, its names and [`Tool::name`] cannot disagree.
macro_rules! tools {
    ($($(#[$doc:meta])* $tool:ident = $name:literal $(or $old:literal)*,)*) => {
        /// A tool a call uses. Adding a tool is one line in the `tools!` list below; the compiler
        /// then asks `present::tools::family` which family draws it.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Tool {
            $($(#[$doc])* $tool,)*
            /// `mcp__<server>__<tool>`: a tool an MCP server provides.
            Mcp { server: String, tool: String },
            /// A tool cctv does not know, by the name the call gave.
            Unknown(String),
        }

        impl Tool {
            /// Every built-in tool.
            #[cfg(test)]
            const BUILT_IN: &'static [Tool] = &[$(Tool::$tool,)*];

            /// The tool a call of `name` uses.
            pub fn from_name(name: &str) -> Tool {
                match name {
                    $($name $(| $old)* => Tool::$tool,)*
                    _ => Tool::not_built_in(name),
                }
            }

            /// The tool's name: its current one for a built-in tool that had another.
            pub fn name(&self) -> Cow<'_, str> {
                match self {
                    $(Tool::$tool => Cow::Borrowed($name),)*
                    Tool::Mcp { server, tool } => Cow::Owned(format!("mcp__{server}__{tool}")),
                    Tool::Unknown(name) => Cow::Borrowed(name),
                }
            }
        }
    };
}

tools! {
    Bash = "Bash",
    /// The Windows shell, in place of Bash on Windows.
    PowerShell = "PowerShell",
    /// Reads what a background shell printed so far.
    BashOutput = "BashOutput",
    /// Ends a background shell.
    KillShell = "KillShell" or "KillBash",
    /// Reads a background task (a shell or a sub-agent).
    TaskOutput = "TaskOutput",
    TaskStop = "TaskStop",
    Read = "Read",
    Edit = "Edit",
    MultiEdit = "MultiEdit",
    Write = "Write",
    NotebookEdit = "NotebookEdit",
    Grep = "Grep",
    Glob = "Glob",
    LS = "LS",
    /// The client's search, or the API's own server tool `web_search`, run within the response.
    WebSearch = "WebSearch" or "web_search",
    WebFetch = "WebFetch",
    TodoWrite = "TodoWrite",
    TodoRead = "TodoRead",
    TaskCreate = "TaskCreate",
    TaskUpdate = "TaskUpdate",
    TaskList = "TaskList",
    TaskGet = "TaskGet",
    /// Spawns a sub-agent (`Task` until 2.1.x renamed it).
    Agent = "Agent" or "Task",
    AskUserQuestion = "AskUserQuestion",
    ExitPlanMode = "ExitPlanMode",
    EnterPlanMode = "EnterPlanMode",
    Skill = "Skill",
    SendMessage = "SendMessage",
    TeamCreate = "TeamCreate",
    TeamDelete = "TeamDelete",
    Monitor = "Monitor",
    ScheduleWakeup = "ScheduleWakeup",
    CronCreate = "CronCreate",
    CronList = "CronList",
    CronDelete = "CronDelete",
    LSP = "LSP",
    ToolSearch = "ToolSearch",
    Batch = "Batch",
    Workflow = "Workflow",
    /// Moves the session into a git worktree (a new one, or one that exists).
    EnterWorktree = "EnterWorktree",
    /// Moves the session back out of its worktree, keeping or removing it.
    ExitWorktree = "ExitWorktree",
    /// A notification to the person's phone or desktop.
    PushNotification = "PushNotification",
    /// A file handed to the person.
    SendUserFile = "SendUserFile",
    /// Reads the notifications queued for the session (webhooks, triggers, messages).
    ReadNotifications = "ReadNotifications",
    /// A completion condition the model proposes for the session's goal.
    ProposeGoal = "ProposeGoal",
    /// Skills the model proposes to write or improve.
    ProposeSkills = "ProposeSkills",
    /// A code review's findings.
    ReportFindings = "ReportFindings",
    /// Feedback about Claude Code sent to Anthropic.
    SendFeedback = "SendFeedback",
    ListMcpResources = "ListMcpResources",
    ReadMcpResource = "ReadMcpResource",
    ReadMcpResourceDir = "ReadMcpResourceDir",
    /// Asks MCP servers for their tools again.
    RefreshMcpTools = "RefreshMcpTools",
    /// A page published on claude.ai (or listed, read, watched, given assets, pinned).
    Artifact = "Artifact",
    /// A claude.ai project's documents and memory.
    Projects = "Projects",
    ClaudeDesign = "ClaudeDesign",
    /// Triggers that start remote sessions (a schedule or a webhook).
    RemoteTrigger = "RemoteTrigger",
    /// The agents running beside the session.
    ListAgents = "ListAgents",
    /// Offers to connect the person's own Chrome.
    OfferChromeSetup = "OfferChromeSetup",
    /// Asks the person their role, when they first use Claude Code.
    ShowOnboardingRolePicker = "ShowOnboardingRolePicker",
}

impl Tool {
    /// An MCP tool by its server and tool, or a tool cctv does not know.
    fn not_built_in(name: &str) -> Tool {
        match name.strip_prefix("mcp__").and_then(|rest| rest.split_once("__")) {
            Some((server, tool)) => Tool::Mcp { server: server.to_owned(), tool: tool.to_owned() },
            None => Tool::Unknown(name.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Tool;

    #[test]
    fn every_built_in_tool_reads_back_from_its_name() {
        for tool in Tool::BUILT_IN {
            assert_eq!(Tool::from_name(&tool.name()), *tool);
        }
    }

    #[test]
    fn a_renamed_tool_is_the_same_tool_under_its_current_name() {
        assert_eq!(Tool::from_name("Task"), Tool::Agent);
        assert_eq!(Tool::from_name("KillBash").name(), "KillShell");
        assert_eq!(Tool::from_name("web_search"), Tool::WebSearch);
    }

    #[test]
    fn an_mcp_tool_keeps_its_server_and_tool_and_an_unknown_one_its_name() {
        let mcp = Tool::from_name("mcp__github__create_issue");
        assert_eq!(mcp, Tool::Mcp { server: "github".into(), tool: "create_issue".into() });
        assert_eq!(mcp.name(), "mcp__github__create_issue");
        assert_eq!(Tool::from_name("Teleport"), Tool::Unknown("Teleport".into()));
        assert_eq!(Tool::from_name("mcp__lonely"), Tool::Unknown("mcp__lonely".into()));
        assert_eq!(Tool::from_name("bash"), Tool::Unknown("bash".into()));
    }
}
