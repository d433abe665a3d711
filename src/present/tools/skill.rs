//! Skill: which skill the model invoked, with what arguments, and the instructions it loaded
//! (Claude Code writes them as a meta user line naming the call, folded into the call by
//! `normalize`).

use super::Output;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct SkillBody {
    pub skill: String,
    pub args: Option<String>,
    /// Where the skill's files are (the first line of what it loaded).
    pub base_dir: Option<String>,
    /// The skill's instructions, Markdown; none when it failed to load.
    pub loaded: Option<String>,
    /// "Launching skill: …", or the error.
    pub output: Output,
}

const BASE_DIR: &str = "Base directory for this skill: ";

impl SkillBody {
    pub fn of(call: &CallView) -> SkillBody {
        let loaded = (!call.loaded.is_empty()).then(|| call.loaded.join("\n\n"));
        let (base_dir, loaded) = match loaded.as_deref().and_then(|l| l.strip_prefix(BASE_DIR)) {
            Some(rest) => {
                let (dir, instructions) = rest.split_once('\n').unwrap_or((rest, ""));
                (Some(dir.trim().to_owned()), Some(instructions.trim_start().to_owned()))
            }
            None => (None, loaded),
        };
        SkillBody {
            skill: call.text("skill").unwrap_or_default().to_owned(),
            args: call.text("args").filter(|a| !a.is_empty()).map(str::to_owned),
            base_dir,
            loaded,
            output: Output::of(call),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, ToolBody};
    use super::*;
    use crate::fixtures::workspace;

    fn body(call: &CallView) -> SkillBody {
        match tool_body(call, None) {
            ToolBody::Skill(b) => b,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_skill_shows_its_name_arguments_and_the_instructions_it_loaded() {
        // entireio/cli's own session (CC 2.1.42) runs the github-pr-review skill on PR 323.
        let ws = workspace("entireio__cli/18/4069756ffc/0/full.jsonl");
        let skill = body(&calls(&ws, "Skill")[0]);
        assert_eq!(skill.skill, "github-pr-review");
        assert_eq!(skill.args.as_deref(), Some("323"));
        assert_eq!(skill.base_dir.as_deref(), Some("/Users/alex/.claude/skills/github-pr-review"));
        assert!(skill.loaded.as_deref().unwrap().starts_with("# GitHub PR Review"));
    }

    #[test]
    fn the_loaded_instructions_are_not_a_prompt_of_their_own() {
        let ws = workspace("entireio__cli/18/4069756ffc/0/full.jsonl");
        let prompts: Vec<_> = ws.sessions[0]
            .thread(crate::normalize::ThreadRef::Main)
            .items
            .iter()
            .filter(|i| matches!(i.kind, crate::normalize::ItemKind::Prompt))
            .filter_map(|i| ws.item_text(i))
            .collect();
        assert!(prompts.iter().all(|p| !p.starts_with(BASE_DIR)), "{prompts:?}");
    }

    #[test]
    fn a_skill_that_failed_shows_the_error_and_loads_nothing() {
        let ws = workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let skill = body(&calls(&ws, "Skill")[0]);
        assert_eq!(skill.skill, "commit");
        assert_eq!(skill.loaded, None);
        assert!(matches!(skill.output, Output::Result { is_error: true, .. }));
    }
}
