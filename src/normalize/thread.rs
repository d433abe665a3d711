//! Lines in reading order to a [`Thread`]: blocks split into items, the lines of one API response
//! gathered into a [`Response`], every `tool_use` paired with its result, hooks and progress
//! folded into their call.
//!
//! Claude Code's UI groups a call as tool_use, PreToolUse hooks, result, PostToolUse hooks
//! (`reorderMessagesInUI`), whatever order they were written in; [`ToolCall`] holds that group.

use super::fxhash::{FxMap, FxSet};
use super::pace::Pace;

use super::accounting::{NotShown, Placement};
use super::view::*;
use crate::model::synthetic::{synthetic, Synthetic};
use crate::model::user_text::{user_text, UserText};
use crate::model::{
    Block, BlockKind, Content, Entry, EntryKind, JsonStr, Line, Message, ProgressKind, RecordEntry,
    RecordKind, Span, SystemSubtype, Transcript,
};

/// What a thread needs from its session.
pub struct Context<'a> {
    pub file: &'a Transcript,
    pub file_index: u32,
    /// Uuids withdrawn by tombstones in this file.
    pub tombstoned: &'a FxSet<&'a [u8]>,
}

/// What makes lines one response: its `message.id` and `requestId`.
type ResponseKey<'a> = (&'a [u8], &'a [u8]);

/// The API response whose lines are being read: its index in the thread's responses, and its
/// (message.id, requestId) when it has one (a line without an id can be joined by none).
#[derive(Clone, Copy)]
struct OpenResponse<'a> {
    key: Option<ResponseKey<'a>>,
    index: u32,
}

/// What the blocks of one assistant line became.
#[derive(Default)]
struct BlocksRead {
    /// At least one block became an item (or a result was folded into a call shown).
    rendered: bool,
    /// A text block was only white space.
    blank: bool,
    /// A server tool's result was folded into its call.
    merged_result: bool,
}

/// Something that belongs to a tool call but may be written before the call is seen.
enum Attachable {
    Result(ToolResultRef),
    PreHook(LineRef),
    PostHook(LineRef),
    Progress(LineRef),
    Loaded(LineRef),
}

struct Builder<'a> {
    ctx: &'a Context<'a>,
    placements: &'a mut [Placement],
    thread: Thread,
    /// tool_use id -> item index of its call.
    calls: FxMap<&'a [u8], usize>,
    /// Ids of every tool_use among the lines, so early arrivals can wait for their call.
    known_calls: FxSet<&'a [u8]>,
    waiting: FxMap<&'a [u8], Vec<Attachable>>,
    /// Uuids of the lines in this thread (a summary shows only if its leaf is here).
    uuids: FxSet<&'a [u8]>,
    /// Compaction boundaries by the uuid they logically follow, and summaries waiting for them.
    boundary_after: FxMap<&'a [u8], Option<usize>>,
    waiting_summaries: FxMap<&'a [u8], Vec<LineRef>>,
    last_boundary: Option<usize>,
    /// The worktree the session works in as last said (`worktree-state`), as written.
    worktree: Option<Vec<u8>>,
    /// The API response being read.
    open_response: Option<OpenResponse<'a>>,
    /// Every response read so far by (message.id, requestId): a response's lines can come apart
    /// when another response's lines are written between them (seed 000 searches back for the
    /// message id for this reason); they are still one response, counted once.
    response_of: FxMap<ResponseKey<'a>, u32>,
    /// An assistant message of several blocks has been split: Claude Code derives the uuids of
    /// every assistant message from here on (`isNewChain`).
    new_chain: bool,
    /// The command the person just ran (an item index), which its expanded prompt and its output
    /// fold into; until the model answers or the person types again.
    last_command: Option<usize>,
}

/// Builds the thread of `lines` (indices into the file, in reading order), recording each line's
/// placement.
/// Pauses where `pace` says: a GB session's main line is a million lines.
pub async fn build(
    ctx: &Context<'_>,
    lines: &[u32],
    placements: &mut [Placement],
    pace: &mut Pace<'_>,
) -> Thread {
    let src = &ctx.file.bytes[..];
    let mut known_calls = FxSet::default();
    let mut uuids = FxSet::default();
    let mut boundary_after = FxMap::default();
    let mut summaries = false;
    for &index in lines {
        pace.step().await;
        let Some(entry) = ctx.file.lines[index as usize].entry() else { continue };
        match &entry.kind {
            EntryKind::Assistant(a) => {
                for block in a.message.content.blocks() {
                    if let BlockKind::ToolUse(t) | BlockKind::ServerToolUse(t) = &block.kind {
                        if let Some(id) = t.id {
                            known_calls.insert(id.key(src));
                        }
                    }
                }
            }
            EntryKind::System(s) if s.subtype == SystemSubtype::CompactBoundary => {
                if let Some(after) = entry.envelope.logical_parent_uuid {
                    boundary_after.insert(after.key(src), None);
                }
            }
            EntryKind::Summary(_) => summaries = true,
            _ => {}
        }
    }
    // Only summaries ask whether a uuid is in this thread; most threads have none.
    if summaries {
        uuids.reserve(lines.len());
        for &index in lines {
            pace.step().await;
            if let Some(uuid) = ctx.file.lines[index as usize].entry().and_then(|e| e.envelope.uuid) {
                uuids.insert(uuid.key(src));
            }
        }
    }
    let mut builder = Builder {
        ctx,
        placements,
        // About an item per line; growing a vector of a hundred thousand items costs more.
        thread: Thread { items: Vec::with_capacity(lines.len()), responses: Vec::new() },
        calls: FxMap::with_capacity_and_hasher(known_calls.len(), Default::default()),
        known_calls,
        waiting: FxMap::default(),
        uuids,
        boundary_after,
        waiting_summaries: FxMap::default(),
        last_boundary: None,
        worktree: None,
        open_response: None,
        response_of: FxMap::default(),
        new_chain: false,
        last_command: None,
    };
    for &index in lines {
        pace.step().await;
        builder.line(index);
    }
    builder.finish()
}

impl<'a> Builder<'a> {
    fn src(&self) -> &'a [u8] {
        &self.ctx.file.bytes
    }

    fn at(&self, index: u32) -> LineRef {
        LineRef { file: self.ctx.file_index, line: index }
    }

    fn place(&mut self, index: u32, placement: Placement) {
        self.placements[index as usize] = placement;
    }

    fn push(&mut self, index: u32, block: Option<u32>, kind: ItemKind, entry: Option<&Entry>) -> usize {
        let (meta, synthetic) = entry.map(|e| flags(e, block, self.src())).unwrap_or_default();
        let response = match entry.map(|e| &e.kind) {
            Some(EntryKind::Assistant(_)) => self.open_response.map(|open| open.index),
            _ => None,
        };
        let derived_id = self.new_chain && matches!(entry.map(|e| &e.kind), Some(EntryKind::Assistant(_)));
        self.thread.items.push(Item {
            line: self.at(index),
            block,
            kind,
            response,
            meta,
            synthetic,
            derived_id,
        });
        self.thread.items.len() - 1
    }

    fn line(&mut self, index: u32) {
        let line: &'a Line = &self.ctx.file.lines[index as usize];
        let Some(entry) = line.entry() else {
            self.place(index, Placement::NotShown(NotShown::Invalid));
            return;
        };
        if entry.envelope.uuid.is_some_and(|u| self.ctx.tombstoned.contains(u.key(self.src()))) {
            self.place(index, Placement::NotShown(NotShown::Tombstoned));
            return;
        }
        let placement = match &entry.kind {
            EntryKind::User(_) => self.user(index, entry),
            EntryKind::Assistant(_) => self.assistant(index, entry),
            EntryKind::System(system) => self.system(index, entry, system.subtype),
            EntryKind::Summary(summary) => self.summary(index, summary.leaf_uuid),
            EntryKind::Progress(progress) => self.progress(index, entry, progress.kind),
            EntryKind::Attachment(_) => self.attachment(index, entry),
            EntryKind::FileHistorySnapshot(_) => Placement::NotShown(NotShown::FileHistorySnapshot),
            EntryKind::QueueOperation(_) => Placement::NotShown(NotShown::QueueOperation),
            EntryKind::Metadata(_) => Placement::NotShown(NotShown::Metadata),
            EntryKind::Record(record) => self.record(index, entry, record),
            EntryKind::Bookkeeping(kind) => Placement::NotShown(NotShown::Bookkeeping(*kind)),
            EntryKind::Tombstone(_) => Placement::NotShown(NotShown::TombstoneControl),
            // A fork's reference to the parent line it forked at: merged into the fork's link
            // where it made one (`sidechains`, then `super::merge_fork_references`), which its
            // label shows; anywhere else nothing shows it.
            EntryKind::ForkContextRef(_) => Placement::NotShown(NotShown::ForkReferenceUnlinked),
            EntryKind::PrLink(_) => self.item(index, ItemKind::Event, entry),
            EntryKind::Unknown => self.item(index, ItemKind::Unknown, entry),
            EntryKind::Malformed { .. } => self.item(index, ItemKind::Malformed, entry),
        };
        self.place(index, placement);
    }

    /// A published page, replaced outputs and memory modes are rows; a worktree only when it
    /// changes, since Claude Code writes the same state again with the other metadata.
    fn record(&mut self, index: u32, entry: &Entry, record: &RecordEntry) -> Placement {
        if record.kind == RecordKind::WorktreeState {
            let value = record.value.map(|v| v.bytes(self.src())).filter(|v| *v != b"null");
            let now = value.map(<[u8]>::to_vec);
            if now == self.worktree {
                return Placement::NotShown(NotShown::Metadata);
            }
            self.worktree = now;
        }
        self.item(index, ItemKind::Event, entry)
    }

    fn item(&mut self, index: u32, kind: ItemKind, entry: &Entry) -> Placement {
        self.push(index, None, kind, Some(entry));
        Placement::Rendered
    }

    fn user(&mut self, index: u32, entry: &'a Entry) -> Placement {
        let EntryKind::User(user) = &entry.kind else { unreachable!("called for user entries") };
        if super::dag::is_prompt(&self.ctx.file.lines[index as usize]) {
            self.open_response = None;
        }
        if entry.envelope.is_compact_summary {
            let at = self.at(index);
            if let Some(boundary) = self.last_boundary {
                if let ItemKind::CompactBoundary(b) = &mut self.thread.items[boundary].kind {
                    if b.summary.is_none() {
                        b.summary = Some(at);
                        return Placement::Merged;
                    }
                }
            }
        }
        let mut rendered = false;
        let mut merged = false;
        let mut not_shown = None;
        let mut take = |placement: Placement| match placement {
            Placement::Rendered => rendered = true,
            Placement::Merged => merged = true,
            Placement::NotShown(reason) => not_shown = Some(reason),
            Placement::Pending => {}
        };
        match &user.message.content {
            Content::Missing => return Placement::NotShown(NotShown::EmptyMessage),
            Content::Text(text) => take(self.user_text(index, None, *text, entry)),
            Content::Blocks(blocks) => {
                for block in blocks {
                    match &block.kind {
                        BlockKind::ToolResult(result) | BlockKind::ServerToolResult { result, .. } => {
                            let reference = ToolResultRef {
                                line: self.at(index),
                                block: block.index,
                                is_error: result.is_error,
                                synthetic: result
                                    .content
                                    .filter(|_| result.is_error)
                                    .and_then(|c| result_synthetic(self.src(), c)),
                            };
                            match result.tool_use_id.map(|id| id.key(self.src())) {
                                Some(id) if self.known_calls.contains(id) => {
                                    take(match self.attach(id, Attachable::Result(reference)) {
                                        true => Placement::Rendered,
                                        false => Placement::Merged,
                                    });
                                }
                                _ => {
                                    self.push(index, Some(block.index), ItemKind::OrphanResult, Some(entry));
                                    take(Placement::Rendered);
                                }
                            }
                        }
                        BlockKind::Unknown { .. } | BlockKind::Malformed { .. } => {
                            self.push(index, Some(block.index), ItemKind::UnknownBlock, Some(entry));
                            take(Placement::Rendered);
                        }
                        BlockKind::Text { text } => {
                            take(self.user_text(index, Some(block.index), *text, entry))
                        }
                        _ => {
                            self.push(index, Some(block.index), ItemKind::Prompt, Some(entry));
                            take(Placement::Rendered);
                        }
                    }
                }
            }
        }
        match (rendered, merged, not_shown) {
            (true, _, _) => Placement::Rendered,
            (false, true, _) => Placement::Merged,
            (false, false, Some(reason)) => Placement::NotShown(reason),
            (false, false, None) => Placement::NotShown(NotShown::EmptyMessage),
        }
    }

    /// A text of a user message: what the person typed, or what Claude Code wrote for them (a
    /// command and what it printed, a note for the model), folded where it belongs.
    fn user_text(&mut self, index: u32, block: Option<u32>, text: JsonStr, entry: &'a Entry) -> Placement {
        let command = self.last_command.filter(|&c| self.follows(entry, c));
        let at = self.at(index);
        // What a call loaded for the model (a skill's instructions) belongs to that call.
        let source = match &entry.kind {
            EntryKind::User(user) => user.source_tool_use_id,
            _ => None,
        };
        if let (true, Some(id)) = (entry.envelope.is_meta, source) {
            let id = id.key(self.src());
            if self.known_calls.contains(id) {
                self.attach(id, Attachable::Loaded(at));
                return Placement::Merged;
            }
        }
        let kind = match wrapped(text, self.src()) {
            None | Some(UserText::Typed { .. }) => {
                // A slash command's expanded prompt is the meta line written right after it.
                if let (true, Some(c)) = (entry.envelope.is_meta, command) {
                    if let ItemKind::Command(cmd) = &mut self.thread.items[c].kind {
                        if cmd.expansion.is_none() {
                            cmd.expansion = Some(at);
                            return Placement::Merged;
                        }
                    }
                }
                if !entry.envelope.is_meta {
                    self.last_command = None;
                }
                ItemKind::Prompt
            }
            Some(UserText::Command { .. }) => ItemKind::Command(UserCommand::default()),
            Some(UserText::Shell { .. }) => ItemKind::Shell(UserCommand::default()),
            Some(UserText::CommandOutput { .. } | UserText::ShellOutput { .. }) => {
                if let Some(c) = command {
                    if let ItemKind::Command(cmd) | ItemKind::Shell(cmd) = &mut self.thread.items[c].kind {
                        cmd.output.push(at);
                        return Placement::Merged;
                    }
                }
                ItemKind::Injected
            }
            Some(UserText::Caveat) => return Placement::NotShown(NotShown::CommandCaveat),
            Some(UserText::Injected(_)) => ItemKind::Injected,
        };
        let is_command = matches!(kind, ItemKind::Command(_) | ItemKind::Shell(_));
        let item = self.push(index, block, kind, Some(entry));
        if is_command {
            self.last_command = Some(item);
        }
        Placement::Rendered
    }

    /// Whether `entry` was written right after item `item`'s line (its parent is that line), as
    /// Claude Code writes a command's expansion and output.
    fn follows(&self, entry: &Entry, item: usize) -> bool {
        let src = self.src();
        let line = self.thread.items[item].line;
        let uuid = self.ctx.file.lines[line.line as usize].entry().and_then(|e| e.envelope.uuid);
        match (entry.envelope.parent_uuid, uuid) {
            (Some(parent), Some(uuid)) => parent.key(src) == uuid.key(src),
            // Without ids, what comes next in the file is what follows.
            _ => true,
        }
    }

    fn assistant(&mut self, index: u32, entry: &'a Entry) -> Placement {
        let EntryKind::Assistant(assistant) = &entry.kind else {
            unreachable!("called for assistant entries")
        };
        self.last_command = None;
        let src = self.src();
        let message = &assistant.message;
        self.new_chain |= message.content.blocks().len() > 1;
        let key =
            message.id.map(|id| (id.key(src), assistant.request_id.map(|r| r.key(src)).unwrap_or_default()));
        let response = self.response_for(key);
        let first_line_of_response = self.thread.responses[response as usize].lines.is_empty();
        self.add_to_response(response, index, message);
        let mut read = BlocksRead::default();
        for block in message.content.blocks() {
            self.assistant_block(index, entry, block, &mut read);
        }
        match message.content {
            Content::Text(text) if is_blank(text.key(src)) => read.blank = true,
            Content::Text(_) => {
                self.push(index, None, ItemKind::Text, Some(entry));
                read.rendered = true;
            }
            _ => {}
        }
        match (read, first_line_of_response) {
            (BlocksRead { rendered: true, .. }, _) => Placement::Rendered,
            (BlocksRead { merged_result: true, .. }, _) => Placement::Merged,
            (BlocksRead { blank: true, .. }, _) => Placement::NotShown(NotShown::BlankText),
            // A further line of a response that carried no block: its usage is in the response.
            (_, false) => Placement::Merged,
            (_, true) => Placement::NotShown(NotShown::EmptyMessage),
        }
    }

    /// The response a line of `key` belongs to: the open one, an earlier one of the same key
    /// (its lines came apart), or a new one.
    fn response_for(&mut self, key: Option<ResponseKey<'a>>) -> u32 {
        if let (Some(open), Some(key)) = (self.open_response, key) {
            if open.key == Some(key) {
                return open.index;
            }
        }
        let index = match key.and_then(|key| self.response_of.get(&key)) {
            Some(&index) => index,
            None => {
                self.thread.responses.push(Response::default());
                let index = self.thread.responses.len() as u32 - 1;
                if let Some(key) = key {
                    self.response_of.insert(key, index);
                }
                index
            }
        };
        self.open_response = Some(OpenResponse { key, index });
        index
    }

    /// Adds line `index` to `response`: its line, and the model, stop reason and usage it says.
    fn add_to_response(&mut self, response: u32, index: u32, message: &Message) {
        let at = self.at(index);
        let r = &mut self.thread.responses[response as usize];
        r.lines.push(at);
        r.model = message.model.or(r.model);
        r.stop_reason = message.stop_reason.or(r.stop_reason);
        if let Some(usage) = message.usage {
            r.usage = usage;
        }
    }

    /// One block of an assistant line: an item, or a server tool's result folded into its call.
    fn assistant_block(&mut self, index: u32, entry: &'a Entry, block: &Block, read: &mut BlocksRead) {
        let src = self.src();
        let kind = match &block.kind {
            // Claude Code writes white-space-only text blocks (a "\n\n" before a tool call);
            // it shows nothing for them, and neither does cctv.
            BlockKind::Text { text } if is_blank(text.key(src)) => {
                read.blank = true;
                return;
            }
            BlockKind::Text { .. } => ItemKind::Text,
            BlockKind::Thinking { .. } => ItemKind::Thinking,
            BlockKind::RedactedThinking => ItemKind::RedactedThinking,
            BlockKind::ToolUse(t) | BlockKind::ServerToolUse(t) => {
                ItemKind::ToolCall(ToolCall { tool_use_id: t.id, name: t.name, ..ToolCall::default() })
            }
            // A server tool's result sits in the same message as its call: it is the call's
            // result, as a user line's tool_result is for a client tool.
            BlockKind::ServerToolResult { result, .. }
                if result.tool_use_id.is_some_and(|id| self.known_calls.contains(id.key(src))) =>
            {
                let reference = ToolResultRef {
                    line: self.at(index),
                    block: block.index,
                    is_error: result.is_error,
                    synthetic: None,
                };
                let id = result.tool_use_id.expect("checked above").key(src);
                read.rendered |= self.attach(id, Attachable::Result(reference));
                read.merged_result = true;
                return;
            }
            _ => ItemKind::UnknownBlock,
        };
        let item = self.push(index, Some(block.index), kind, Some(entry));
        self.call_read(item);
        read.rendered = true;
    }

    /// Item `item`, when a call, is where results of its id go from now on; results that came
    /// before it are attached.
    fn call_read(&mut self, item: usize) {
        let src = self.src();
        let ItemKind::ToolCall(call) = &self.thread.items[item].kind else { return };
        let Some(id) = call.tool_use_id.map(|id| id.key(src)) else { return };
        // A conversation copied on resume repeats its calls with their ids; a result belongs to
        // the latest call of its id.
        self.calls.insert(id, item);
        // Results come after their calls, so this is almost always empty.
        if !self.waiting.is_empty() {
            for waiting in self.waiting.remove(id).unwrap_or_default() {
                self.attach(id, waiting);
            }
        }
    }

    fn system(&mut self, index: u32, entry: &'a Entry, subtype: SystemSubtype) -> Placement {
        if subtype == SystemSubtype::CompactBoundary {
            let item =
                self.push(index, None, ItemKind::CompactBoundary(CompactBoundary::default()), Some(entry));
            self.last_boundary = Some(item);
            if let Some(after) = entry.envelope.logical_parent_uuid.map(|u| u.key(self.src())) {
                let summaries = self.waiting_summaries.remove(after).unwrap_or_default();
                if let ItemKind::CompactBoundary(b) = &mut self.thread.items[item].kind {
                    b.summaries.extend(summaries);
                }
                self.boundary_after.insert(after, Some(item));
            }
            return Placement::Rendered;
        }
        // Before hooks were attachments, Claude Code wrote "Running PostToolUse:Edit..." as
        // system lines carrying the call's id.
        if let EntryKind::System(system) = &entry.kind {
            if let Some(id) = system.tool_use_id.map(|id| id.key(self.src())) {
                if self.known_calls.contains(id) {
                    let text = system.content.map(|c| c.text(self.src())).unwrap_or_default();
                    let hook = if text.contains("PreToolUse") {
                        Attachable::PreHook(self.at(index))
                    } else {
                        Attachable::PostHook(self.at(index))
                    };
                    self.attach(id, hook);
                    return Placement::Merged;
                }
            }
        }
        self.item(index, ItemKind::Event, entry)
    }

    fn summary(&mut self, index: u32, leaf: Option<JsonStr>) -> Placement {
        let Some(leaf) = leaf.map(|l| l.key(self.src())) else {
            return self.item_at(index, ItemKind::Event);
        };
        match self.boundary_after.get(leaf) {
            Some(Some(boundary)) => {
                let at = self.at(index);
                if let ItemKind::CompactBoundary(b) = &mut self.thread.items[*boundary].kind {
                    b.summaries.push(at);
                }
                Placement::Merged
            }
            Some(None) => {
                let at = self.at(index);
                self.waiting_summaries.entry(leaf).or_default().push(at);
                Placement::Merged
            }
            None if self.uuids.contains(leaf) => self.item_at(index, ItemKind::Event),
            None => Placement::NotShown(NotShown::SummaryElsewhere),
        }
    }

    fn item_at(&mut self, index: u32, kind: ItemKind) -> Placement {
        let entry = self.ctx.file.lines[index as usize].entry();
        self.push(index, None, kind, entry);
        Placement::Rendered
    }

    fn progress(&mut self, index: u32, entry: &'a Entry, kind: ProgressKind) -> Placement {
        let EntryKind::Progress(progress) = &entry.kind else { unreachable!("called for progress entries") };
        let src = self.src();
        let call = [progress.parent_tool_use_id, progress.tool_use_id]
            .into_iter()
            .flatten()
            .map(|id| id.key(src))
            .find(|id| self.known_calls.contains(id));
        match call {
            Some(id) => {
                let at = self.at(index);
                let hook_event = progress.hook_event.map(|e| e.key(src));
                let attachable = match (kind, hook_event) {
                    (ProgressKind::HookProgress, Some(b"PreToolUse")) => Attachable::PreHook(at),
                    (ProgressKind::HookProgress, Some(b"PostToolUse" | b"PostToolUseFailure")) => {
                        Attachable::PostHook(at)
                    }
                    _ => Attachable::Progress(at),
                };
                self.attach(id, attachable);
                Placement::Merged
            }
            // Hooks at session start or on a prompt have no call: they are events of their own.
            None if kind == ProgressKind::HookProgress => self.item(index, ItemKind::Event, entry),
            None => Placement::NotShown(NotShown::ProgressWithoutCall),
        }
    }

    fn attachment(&mut self, index: u32, entry: &'a Entry) -> Placement {
        let EntryKind::Attachment(attachment) = &entry.kind else { unreachable!("called for attachments") };
        let src = self.src();
        if attachment.is_hook(src) {
            if let Some(id) = attachment.hook.tool_use_id.map(|id| id.key(src)) {
                if self.known_calls.contains(id) {
                    let at = self.at(index);
                    let hook = match attachment.hook.hook_event.map(|e| e.key(src)) {
                        Some(b"PostToolUse" | b"PostToolUseFailure") => Attachable::PostHook(at),
                        _ => Attachable::PreHook(at),
                    };
                    self.attach(id, hook);
                    return Placement::Merged;
                }
            }
        }
        self.item(index, ItemKind::Event, entry)
    }

    /// Folds `attachable` into the call `id`, or keeps it until the call is read. Returns true
    /// when it had to become an item of its own instead (a second result for one call id).
    fn attach(&mut self, id: &'a [u8], attachable: Attachable) -> bool {
        let Some(&item) = self.calls.get(id) else {
            self.waiting.entry(id).or_default().push(attachable);
            return false;
        };
        let ItemKind::ToolCall(call) = &mut self.thread.items[item].kind else { return false };
        match attachable {
            Attachable::Result(result) if call.result.is_some() => {
                self.thread.items.push(orphan_result(result));
                self.placements[result.line.line as usize] = Placement::Rendered;
                return true;
            }
            Attachable::Result(result) => call.result = Some(result),
            Attachable::PreHook(line) => call.pre_hooks.push(line),
            Attachable::PostHook(line) => call.post_hooks.push(line),
            Attachable::Progress(line) => call.progress.push(line),
            // A line of several text blocks is met once per block; it is one thing loaded.
            Attachable::Loaded(line) if call.loaded.contains(&line) => {}
            Attachable::Loaded(line) => call.loaded.push(line),
        }
        false
    }

    fn finish(mut self) -> Thread {
        // Anything still waiting had a tool_use id among the lines that never produced a call
        // item (a duplicate id inside one message); show results on their own, count the rest.
        for (_, waiting) in std::mem::take(&mut self.waiting) {
            for attachable in waiting {
                match attachable {
                    Attachable::Result(result) => {
                        self.thread.items.push(orphan_result(result));
                        self.placements[result.line.line as usize] = Placement::Rendered;
                    }
                    Attachable::PreHook(line)
                    | Attachable::PostHook(line)
                    | Attachable::Progress(line)
                    | Attachable::Loaded(line) => {
                        self.placements[line.line as usize] =
                            Placement::NotShown(NotShown::ProgressWithoutCall);
                    }
                }
            }
        }
        for summaries in std::mem::take(&mut self.waiting_summaries).into_values() {
            for line in summaries {
                self.placements[line.line as usize] = Placement::NotShown(NotShown::SummaryElsewhere);
            }
        }
        self.thread
    }
}

/// Whether a JSON string's raw characters are only white space (spaces, `\n`, `\t`, `\r`).
fn is_blank(raw: &[u8]) -> bool {
    let mut at = raw;
    loop {
        at = match at {
            [] => return true,
            [b' ', rest @ ..] => rest,
            [b'\\', b'n' | b't' | b'r', rest @ ..] => rest,
            _ => return false,
        };
    }
}

/// What a user text is, when it may be Claude Code's markup: a text that neither starts with a
/// tag nor holds a reminder is the person's, and is not decoded to find out.
fn wrapped(text: JsonStr, src: &[u8]) -> Option<UserText> {
    let raw = text.key(src);
    let mut start = raw;
    loop {
        start = match start {
            [b' ', rest @ ..] => rest,
            [b'\\', b'n' | b't' | b'r', rest @ ..] => rest,
            _ => break,
        };
    }
    let may_be = start.first() == Some(&b'<') || memchr::memmem::find(raw, b"<system-reminder>").is_some();
    may_be.then(|| user_text(&text.decode(src)))
}

/// What an error result's text says when Claude Code wrote it (a rejection, an interrupt).
fn result_synthetic(src: &[u8], content: Span) -> Option<Synthetic> {
    // Claude Code's texts come first; a result of several blocks has them in its first text.
    let value = crate::model::body::tool_result_content(src, content);
    let text = value.texts().next().unwrap_or_default();
    synthetic(text)
}

fn orphan_result(result: ToolResultRef) -> Item {
    Item {
        line: result.line,
        block: Some(result.block),
        kind: ItemKind::OrphanResult,
        response: None,
        meta: false,
        synthetic: false,
        derived_id: false,
    }
}

/// (meta, synthetic) for an item of `entry`.
fn flags(entry: &Entry, block: Option<u32>, src: &[u8]) -> (bool, bool) {
    let meta = entry.envelope.is_meta || entry.envelope.is_visible_in_transcript_only;
    let is_synthetic = match &entry.kind {
        EntryKind::Assistant(a) => {
            a.is_api_error_message || a.message.model.is_some_and(|m| m.key(src) == b"<synthetic>")
        }
        EntryKind::User(u) => {
            let text = match (&u.message.content, block) {
                (Content::Text(text), _) => Some(*text),
                (Content::Blocks(blocks), Some(i)) => {
                    blocks.iter().find(|b| b.index == i).and_then(|b| match b.kind {
                        BlockKind::Text { text } => Some(text),
                        _ => None,
                    })
                }
                _ => None,
            };
            text.is_some_and(|t| synthetic(&t.decode(src)).is_some())
        }
        _ => false,
    };
    (meta, is_synthetic)
}
