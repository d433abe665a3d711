//! The text of an item, as search, the contents, exports and the outline read it.

use super::view::{Item, ItemKind, Workspace};
use crate::model::user_text::{user_text, UserText};
use crate::model::BlockKind;

impl Workspace {
    /// The text an item shows, for prompts, commands, assistant text and thinking: for what Claude
    /// Code wrapped in markup, the words without it (`/name args`, `! command`, a note's text).
    pub fn item_text(&self, item: &Item) -> Option<String> {
        let message = self.entry(item.line)?.message()?;
        if let Some(text) = message.text(self.src(item.line), item.block) {
            return Some(match item.kind {
                ItemKind::Command(_) | ItemKind::Shell(_) | ItemKind::Injected => match user_text(&text) {
                    UserText::Injected(note) => format!("{}: {}", note.tag, note.body),
                    UserText::CommandOutput { stdout, stderr } | UserText::ShellOutput { stdout, stderr } => {
                        format!("{stdout}{stderr}")
                    }
                    read => read.headline().unwrap_or_default(),
                },
                _ => text.into_owned(),
            });
        }
        match self.block(item).map(|b| &b.kind) {
            Some(BlockKind::Image { .. }) => Some("[image]".into()),
            Some(BlockKind::Document { .. }) => Some("[document]".into()),
            _ => None,
        }
    }

    /// [`Workspace::item_text`], or the item's raw line where it has none to show.
    pub fn shown_text(&self, item: &Item) -> String {
        self.item_text(item).unwrap_or_else(|| self.raw_text(item))
    }

    /// The item's line as written.
    pub fn raw_text(&self, item: &Item) -> String {
        self.line(item.line).raw(self.src(item.line)).into_owned()
    }
}
