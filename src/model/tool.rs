//! Which tool a call is: parsed once from the name the call gives, so every layer matches on a
//! [`Tool`] and no layer compares names as strings. A tool cctv does not know keeps its name
//! ([`Tool::Unknown`]); an MCP tool keeps its server and tool ([`Tool::Mcp`]).

use std::borrow::Cow;

/// A tool a call uses. Adding a tool is one variant here and its name in [`Tool::NAMES`]; the
/// compiler then asks `present::tools::family` which family draws it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    Bash,
    /// Reads what a background shell printed so far.
    BashOutput,
    /// Ends a background shell (`KillBash` before it was renamed).
    KillShell,
    /// Reads a background task (a shell or a sub-agent).
    TaskOutput,
    TaskStop,
    Read,
    Edit,
    MultiEdit,
    Write,
    NotebookEdit,
    Grep,
    Glob,
    LS,
    /// The client's `WebSearch`, or the API's own server tool `web_search`.
    WebSearch,
    WebFetch,
    TodoWrite,
    TodoRead,
    TaskCreate,
    TaskUpdate,
    TaskList,
    TaskGet,
    /// Spawns a sub-agent (`Task` before 2.1.x renamed it).
    Agent,
    AskUserQuestion,
    ExitPlanMode,
    EnterPlanMode,
    Skill,
    SendMessage,
    TeamCreate,
    TeamDelete,
    Monitor,
    ScheduleWakeup,
    CronCreate,
    CronList,
    CronDelete,
    LSP,
    ToolSearch,
    Batch,
    Workflow,
    /// `mcp__<server>__<tool>`: a tool an MCP server provides.
    Mcp {
        server: String,
        tool: String,
    },
    /// A tool cctv does not know, by the name the call gave.
    Unknown(String),
}

impl Tool {
    /// Every name of a built-in tool, the current one of each first (what [`Tool::name`] says);
    /// the only place a tool's name is spelled.
    const NAMES: &'static [(&'static str, Tool)] = &[
        ("Bash", Tool::Bash),
        ("BashOutput", Tool::BashOutput),
        ("KillShell", Tool::KillShell),
        ("KillBash", Tool::KillShell),
        ("TaskOutput", Tool::TaskOutput),
        ("TaskStop", Tool::TaskStop),
        ("Read", Tool::Read),
        ("Edit", Tool::Edit),
        ("MultiEdit", Tool::MultiEdit),
        ("Write", Tool::Write),
        ("NotebookEdit", Tool::NotebookEdit),
        ("Grep", Tool::Grep),
        ("Glob", Tool::Glob),
        ("LS", Tool::LS),
        ("WebSearch", Tool::WebSearch),
        ("web_search", Tool::WebSearch),
        ("WebFetch", Tool::WebFetch),
        ("TodoWrite", Tool::TodoWrite),
        ("TodoRead", Tool::TodoRead),
        ("TaskCreate", Tool::TaskCreate),
        ("TaskUpdate", Tool::TaskUpdate),
        ("TaskList", Tool::TaskList),
        ("TaskGet", Tool::TaskGet),
        ("Agent", Tool::Agent),
        ("Task", Tool::Agent),
        ("AskUserQuestion", Tool::AskUserQuestion),
        ("ExitPlanMode", Tool::ExitPlanMode),
        ("EnterPlanMode", Tool::EnterPlanMode),
        ("Skill", Tool::Skill),
        ("SendMessage", Tool::SendMessage),
        ("TeamCreate", Tool::TeamCreate),
        ("TeamDelete", Tool::TeamDelete),
        ("Monitor", Tool::Monitor),
        ("ScheduleWakeup", Tool::ScheduleWakeup),
        ("CronCreate", Tool::CronCreate),
        ("CronList", Tool::CronList),
        ("CronDelete", Tool::CronDelete),
        ("LSP", Tool::LSP),
        ("ToolSearch", Tool::ToolSearch),
        ("Batch", Tool::Batch),
        ("Workflow", Tool::Workflow),
    ];

    /// The tool a call of `name` uses.
    pub fn from_name(name: &str) -> Tool {
        if let Some((_, tool)) = Tool::NAMES.iter().find(|(known, _)| *known == name) {
            return tool.clone();
        }
        let mcp = name.strip_prefix("mcp__").and_then(|rest| rest.split_once("__"));
        match mcp {
            Some((server, tool)) => Tool::Mcp { server: server.to_owned(), tool: tool.to_owned() },
            None => Tool::Unknown(name.to_owned()),
        }
    }

    /// The tool's name: its current one for a built-in tool that had another.
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            Tool::Mcp { server, tool } => Cow::Owned(format!("mcp__{server}__{tool}")),
            Tool::Unknown(name) => Cow::Borrowed(name),
            known => {
                let (name, _) =
                    Tool::NAMES.iter().find(|(_, tool)| tool == known).expect("every built-in is named");
                Cow::Borrowed(name)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Tool;

    #[test]
    fn every_built_in_name_reads_back_as_its_tool() {
        for (name, tool) in Tool::NAMES {
            assert_eq!(&Tool::from_name(name), tool, "{name}");
            assert_eq!(Tool::from_name(&tool.name()), *tool, "{name}");
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
