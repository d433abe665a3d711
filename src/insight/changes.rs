//! What a session changed in files, like a pull request: each file it touched, with one diff from
//! its first known content to its last.
//!
//! The calls are replayed in the order of the conversation, a sub-agent's right after the call
//! that spawned it (sub-agents that ran at once are replayed one after the other): a file's first content is what Claude Code kept of it before the first change
//! (`originalFile`), the last Read of the whole file before any change, or nothing for a file a
//! Write created; each Edit, MultiEdit and Write is then applied to it. Where the first content is not
//! known, or an edit's old text is not where it should be, the file's diff is *partial*: the
//! hunks of each change, as the calls stored them.

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

use regex::Regex;

use crate::model::tool_result::{EditResult, Hunk, MultiEditResult, ReadResult, ToolUseResult, WriteResult};
use crate::model::Tool;
use crate::normalize::{ItemKind, ItemRef, Session, ThreadRef, Workspace};
use crate::present::calls::{call_input, call_view_untold, CallView};
use crate::text::diff::{self, Row};
use crate::text::format::squeeze;

/// One file the session touched.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FileChange {
    pub path: String,
    /// Before the session changed it, when known (`""` for a file it created).
    pub first: Option<String>,
    /// After its last change, when every change could be applied to a known first content.
    pub last: Option<String>,
    /// The net diff, or for a partial file each change's own hunks.
    pub rows: Vec<Row>,
    pub added: usize,
    pub removed: usize,
    pub created: bool,
    /// The first content is unknown, or a change could not be applied: `rows` are the changes
    /// one by one, not the net diff.
    pub partial: bool,
    /// Written by a shell command (`>`, `tee`): cctv cannot say how.
    pub by_shell: bool,
    /// A Read found it other than the session's own changes had left it: something else changed
    /// it too (a command, the person), and the net diff holds that as well.
    pub outside: bool,
    /// The calls that changed it, in order.
    pub calls: Vec<ItemRef>,
}

/// A file being replayed.
#[derive(Default)]
struct Track {
    first: Option<String>,
    now: Option<String>,
    /// What the replay has learned of it besides its content.
    marks: Marks,
    /// Each change's own hunks, for when the net diff cannot be made.
    hunks: Vec<Row>,
    calls: Vec<ItemRef>,
}

/// One thing the replay learns of a file, kept until the replay says otherwise.
#[derive(Clone, Copy)]
enum Mark {
    /// A change was applied to it.
    Changed,
    /// The replay lost track of its content (an edit's old text was not there, a notebook was
    /// edited): its last content is not the net of its changes.
    Lost,
    /// Its first change was a Write that created it.
    Created,
    /// A shell command wrote it.
    ByShell,
    /// Something other than the session's own changes changed it.
    Outside,
}

/// The [`Mark`]s a file has, as one small set.
#[derive(Clone, Copy, Default)]
struct Marks(u8);

impl Marks {
    fn has(self, mark: Mark) -> bool {
        self.0 & (1 << mark as u8) != 0
    }

    fn set(&mut self, mark: Mark, on: bool) {
        match on {
            true => self.0 |= 1 << mark as u8,
            false => self.0 &= !(1 << mark as u8),
        }
    }
}

impl Track {
    /// What the file was before a change, from what the change's call kept (`originalFile`): the
    /// truth, whatever the replay had made of it.
    fn before(&mut self, original: Option<&str>) {
        let Some(text) = original else { return };
        if self.now.as_deref() == Some(text) {
            return;
        }
        if !self.marks.has(Mark::Changed) {
            self.first = Some(text.to_owned());
        } else if self.now.is_some() {
            // Not what the session's own changes had left: something else changed it.
            self.marks.set(Mark::Outside, true);
        }
        self.known(text.to_owned());
    }

    /// The file holds `text` from here on, whatever the replay had lost before.
    fn known(&mut self, text: String) {
        self.now = Some(text);
        self.marks.set(Mark::Lost, self.first.is_none());
    }

    /// The file's content is not known from here on.
    fn lose(&mut self) {
        self.now = None;
        self.marks.set(Mark::Lost, true);
    }

    /// Whether the file, as the replay has it, is what `hunks` (the patch Claude Code applied)
    /// changed: each hunk's old lines are where the hunk says. When not, something other than
    /// the session's changes changed the file.
    fn check(&mut self, hunks: &[Hunk]) {
        let Some(now) = &self.now else { return };
        // Only the lines up to the last a hunk names: a whole file split for each edit was a
        // tenth of the replay.
        let needed = hunks.iter().map(|h| h.old_start.saturating_add(h.old_lines)).max().unwrap_or(0);
        let lines: Vec<&str> = now.split('\n').take(usize::try_from(needed).unwrap_or(usize::MAX)).collect();
        let fits = hunks.iter().all(|h| {
            let old = h
                .lines
                .iter()
                .filter(|l| !l.starts_with('+') && !l.starts_with('\\'))
                .map(|l| l.get(1..).unwrap_or_default());
            let at = (h.old_start as usize).saturating_sub(1);
            lines
                .get(at..at.saturating_add(h.old_lines as usize))
                .is_some_and(|here| here.iter().copied().eq(old))
        });
        if !fits {
            self.marks.set(Mark::Outside, true);
        }
    }

    /// `old` replaced by `new` (every occurrence with `all`), as Claude Code's Edit does it: an
    /// empty `old` writes a new (or empty) file, and deleting a text takes the line break after
    /// it too. The file is lost track of if `old` is not in it.
    fn replace(&mut self, old: &str, new: &str, all: bool) {
        let empty = self.now.as_deref().unwrap_or_default().is_empty();
        if old.is_empty() && empty && (self.now.is_some() || !self.marks.has(Mark::Changed)) {
            self.now = Some(new.to_owned());
            return;
        }
        let Some(now) = &self.now else { return };
        if old.is_empty() || !now.contains(old) {
            self.lose();
            return;
        }
        let with_break = format!("{old}\n");
        let old = if new.is_empty() && !old.ends_with('\n') && now.contains(&with_break) {
            &with_break
        } else {
            old
        };
        self.now = Some(if all { now.replace(old, new) } else { now.replacen(old, new, 1) });
    }
}

/// Every file the session changed (the main conversation and its sub-agents), in the order they
/// were first changed; with `items`, only the changes made by those rows of the main
/// conversation (a turn), each diffed from the file as it was before them.
pub fn changes(ws: &Workspace, session: &Session, items: Option<Range<usize>>) -> Vec<FileChange> {
    let mut files: BTreeMap<String, Track> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let shell = shell_writes();
    let mut replay = Replay::new(ws, session, &mut files, &mut order, &shell);
    match items {
        None => replay.main(0..session.thread.items.len()),
        Some(range) => {
            // What came before the turn sets each file's content, without counting as its changes.
            replay.counted = false;
            replay.main(0..range.start);
            for track in replay.files.values_mut() {
                *track = Track { first: track.now.clone(), now: track.now.clone(), ..Track::default() };
            }
            replay.order.clear();
            replay.listed.clear();
            replay.counted = true;
            replay.main(range);
        }
    }
    order
        .into_iter()
        .filter_map(|path| {
            let track = files.remove(&path)?;
            (!track.calls.is_empty()).then(|| finish(path, track))
        })
        .collect()
}

/// A file as it was after the first `rows` rows of the main conversation (and what they ran),
/// if known.
pub fn file_after(ws: &Workspace, session: &Session, path: &str, rows: usize) -> Option<String> {
    let mut files: BTreeMap<String, Track> = BTreeMap::new();
    let mut order = Vec::new();
    let shell = shell_writes();
    let mut replay = Replay::new(ws, session, &mut files, &mut order, &shell);
    replay.main(0..rows.min(session.thread.items.len()));
    files.remove(path)?.now
}

/// A turn to see the changes of: its rows of the main conversation, and how it reads in a list
/// (`3. fix the tests`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TurnChoice {
    pub items: Range<usize>,
    pub label: String,
}

/// The session's turns (each from a prompt typed to the next), to choose one.
pub fn turn_choices(ws: &Workspace, session: &Session) -> Vec<TurnChoice> {
    let thread = &session.thread;
    let starts = session.thread.turn_starts();
    starts
        .iter()
        .enumerate()
        .map(|(n, &first)| {
            let end = starts.get(n + 1).map_or(thread.items.len(), |&next| next as usize);
            let prompt = thread.items[first as usize..end]
                .iter()
                .find(|it| it.is_typed_prompt())
                .map(|it| ws.shown_text(it))
                .map(|t| squeeze(&t, 60))
                .unwrap_or_else(|| "before the first prompt".into());
            TurnChoice { items: first as usize..end, label: format!("{}. {prompt}", n + 1) }
        })
        .collect()
}

fn finish(path: String, track: Track) -> FileChange {
    let marks = track.marks;
    let partial = track.first.is_none() || marks.has(Mark::Lost) || track.now.is_none();
    let rows = match (&track.first, &track.now, partial) {
        (Some(first), Some(last), false) => diff::between(first, last, 1),
        _ => track.hunks,
    };
    let (added, removed) = diff::counts(&rows);
    FileChange {
        path,
        last: if partial { None } else { track.now },
        first: track.first,
        rows,
        added,
        removed,
        created: marks.has(Mark::Created),
        partial: partial && !marks.has(Mark::ByShell),
        by_shell: marks.has(Mark::ByShell),
        outside: marks.has(Mark::Outside),
        calls: track.calls,
    }
}

struct Replay<'a> {
    ws: &'a Workspace,
    session: &'a Session,
    files: &'a mut BTreeMap<String, Track>,
    order: &'a mut Vec<String>,
    shell: &'a Regex,
    /// The changes count as the result's (else they only set the files' content).
    counted: bool,
    listed: HashSet<String>,
    /// The files the session changes, or may ([`Replay::changing_paths`]): worked out at the first
    /// Read, once for all the replay's passes.
    changing: Option<HashSet<String>>,
}

/// Whether calls of `tool` read or edit files (a shell command is read apart, from its input).
fn touches_files(tool: &Tool) -> bool {
    matches!(tool, Tool::Read | Tool::Edit | Tool::MultiEdit | Tool::Write | Tool::NotebookEdit)
}

impl<'a> Replay<'a> {
    fn new(
        ws: &'a Workspace,
        session: &'a Session,
        files: &'a mut BTreeMap<String, Track>,
        order: &'a mut Vec<String>,
        shell: &'a Regex,
    ) -> Replay<'a> {
        Replay { ws, session, files, order, shell, counted: true, listed: HashSet::new(), changing: None }
    }

    /// Replays the calls of `range` of the main conversation that touch files, with the calls
    /// of every sub-agent right after the call that spawned it (its calls ran while that did).
    fn main(&mut self, range: Range<usize>) {
        let session = self.session;
        session.walk(ThreadRef::Main, range, 0, &|_| true, &mut |at, item, _| {
            let ItemKind::ToolCall(call) = &item.kind else { return };
            // Decoding a call's result is the cost here: only the calls that touch files.
            let src = self.ws.src(item.line);
            let tool = call.tool(src);
            let cwd = || self.ws.entry(item.line).and_then(|e| e.envelope.cwd).map(|c| c.raw(src));
            if tool == Tool::Bash {
                // A command, failed or not, is read from its input alone: its output is not
                // decoded (that and Read's text, next, were 155 -> 96 ms of it at 200 MB).
                if call.result.is_some() {
                    let (_, input) = call_input(self.ws, item, call);
                    let command = input.get("command").and_then(|c| c.as_str()).unwrap_or_default();
                    self.shell(command, at, cwd());
                }
            } else if touches_files(&tool) {
                // A Read's text is decoded only for a file something changes: most files a
                // session reads it never changes, and their text was most of the replay.
                if tool == Tool::Read {
                    if self.changing.is_none() {
                        self.changing = Some(self.changing_paths());
                    }
                    let (_, input) = call_input(self.ws, item, call);
                    let path = input.get("file_path").and_then(|p| p.as_str()).unwrap_or_default();
                    // Only a path the result surely names the same (absolute, plain): the
                    // replay knows a Read by the path its result names.
                    let plain = path.starts_with('/') && !path.contains("/./") && !path.contains("/../");
                    if plain && !self.changing.as_ref().is_some_and(|c| c.contains(path)) {
                        return;
                    }
                }
                let view = call_view_untold(self.ws, item, call);
                self.call(&view, at);
            }
        });
    }

    /// The files the session's calls (the main conversation's and its sub-agents') change, or
    /// may: edited, written, or written by a shell command. Read from the calls' inputs alone.
    /// (The whole session's, though a pass may replay only some rows: a Read of a file changed
    /// before them only costs its decoding.)
    fn changing_paths(&self) -> HashSet<String> {
        let mut paths = HashSet::new();
        let rows = 0..self.session.thread.items.len();
        self.session.walk(ThreadRef::Main, rows, 0, &|_| true, &mut |_, item, _| {
            let ItemKind::ToolCall(call) = &item.kind else { return };
            let src = self.ws.src(item.line);
            let tool = call.tool(src);
            if !matches!(tool, Tool::Bash | Tool::Edit | Tool::MultiEdit | Tool::Write | Tool::NotebookEdit) {
                return;
            }
            let (_, input) = call_input(self.ws, item, call);
            let text = |key: &str| input.get(key).and_then(|v| v.as_str());
            if tool != Tool::Bash {
                // As `path_of` names it.
                paths.insert(text("file_path").or(text("notebook_path")).unwrap_or_default().to_owned());
                return;
            }
            let cwd = self.ws.entry(item.line).and_then(|e| e.envelope.cwd).map(|c| c.raw(src));
            let command = text("command").unwrap_or_default();
            paths.extend(shell_targets(self.shell, command).into_iter().map(|t| in_dir(t, cwd)));
        });
        paths
    }

    /// The file at `path`, listed in the order of first changes (a file only read is not).
    fn track(&mut self, path: &str) -> &mut Track {
        if self.counted && self.listed.insert(path.to_owned()) {
            self.order.push(path.to_owned());
        }
        self.files.entry(path.to_owned()).or_default()
    }

    /// One call that reads or edits a file (a shell command is [`shell`](Replay::shell)), at `at`.
    fn call(&mut self, call: &CallView, at: ItemRef) {
        let Some(result) = &call.result else { return };
        // A failed edit changed nothing (a command that failed still wrote what it redirected).
        if result.is_error {
            return;
        }
        match (&call.tool, result.structured.as_ref()) {
            (Tool::Read, Some(ToolUseResult::Read(read))) if read.kind == "text" => self.read(read),
            (Tool::Edit, Some(ToolUseResult::Edit(edit))) => self.edit(call, Some(edit), at),
            (Tool::Edit, _) => self.edit(call, None, at),
            (Tool::MultiEdit, Some(ToolUseResult::MultiEdit(edit))) => self.multi_edit(call, Some(edit), at),
            (Tool::MultiEdit, _) => self.multi_edit(call, None, at),
            (Tool::Write, Some(ToolUseResult::Write(write))) => self.write(call, Some(write), at),
            (Tool::Write, _) => self.write(call, None, at),
            (Tool::NotebookEdit, _) => {
                let counted = self.counted;
                let track = self.track(&path_of(call));
                track.lose();
                Self::changed(track, Vec::new(), at, counted);
            }
            _ => {}
        }
    }

    /// A Read of a text file: the whole file read before any change is its first content; read
    /// after, it is what the file holds now.
    fn read(&mut self, read: &ReadResult) {
        let whole = read.file.start_line <= 1 && read.file.num_lines >= read.file.total_lines;
        let content = &read.file.content;
        if let Some(track) = self.files.get_mut(&read.file.file_path).filter(|_| whole) {
            let same =
                |a: &str| a.strip_suffix('\n').unwrap_or(a) == content.strip_suffix('\n').unwrap_or(content);
            match (&track.now, track.marks.has(Mark::Changed)) {
                // Before the session changes it, the latest whole Read is its first content.
                (_, false) => {
                    track.first = Some(content.clone());
                    track.now = track.first.clone();
                }
                // What it holds now, whatever the replay made of it: something other
                // than the session's edits changed it, or the replay lost track.
                (now, true) if !now.as_deref().is_some_and(same) => {
                    if now.is_some() {
                        track.marks.set(Mark::Outside, true);
                    }
                    track.known(content.clone());
                }
                _ => {}
            }
        } else if whole && !read.file.file_path.is_empty() {
            // Known before any change: not a change itself.
            let content = Some(read.file.content.clone());
            self.files.insert(
                read.file.file_path.clone(),
                Track { first: content.clone(), now: content, ..Track::default() },
            );
        }
    }

    /// An Edit: `old_string` replaced by `new_string`, checked against the patch Claude Code kept.
    fn edit(&mut self, call: &CallView, edit: Option<&EditResult>, at: ItemRef) {
        let counted = self.counted;
        let (old, new) =
            (call.text("old_string").unwrap_or_default(), call.text("new_string").unwrap_or_default());
        let track = self.track(&path_of(call));
        track.before(edit.and_then(|e| e.original_file.as_deref()));
        track.check(edit.map_or(&[], |e| &e.structured_patch));
        let all = call.input.get("replace_all").and_then(|v| v.as_bool()).unwrap_or(false);
        track.replace(old, new, all);
        let rows = match edit {
            Some(e) if !e.structured_patch.is_empty() => diff::from_hunks(&e.structured_patch),
            _ => diff::between(old, new, 1),
        };
        Self::changed(track, rows, at, counted);
    }

    /// A MultiEdit: its edits applied one after the other.
    fn multi_edit(&mut self, call: &CallView, edit: Option<&MultiEditResult>, at: ItemRef) {
        let counted = self.counted;
        let track = self.track(&path_of(call));
        track.before(edit.and_then(|e| e.original_file_contents.as_deref()));
        track.check(edit.map_or(&[], |e| &e.structured_patch));
        let edits = call.input.get("edits").and_then(|v| v.as_array()).cloned().unwrap_or_default();
        for e in &edits {
            let text = |k: &str| e.get(k).and_then(|v| v.as_str()).unwrap_or_default();
            let all = e.get("replace_all").and_then(|v| v.as_bool()).unwrap_or(false);
            track.replace(text("old_string"), text("new_string"), all);
        }
        let rows = edit.map(|e| diff::from_hunks(&e.structured_patch)).unwrap_or_default();
        Self::changed(track, rows, at, counted);
    }

    /// A Write: a whole new content, which created the file when it was not there.
    fn write(&mut self, call: &CallView, write: Option<&WriteResult>, at: ItemRef) {
        let counted = self.counted;
        let content = call.text("content").unwrap_or_default().to_owned();
        let track = self.track(&path_of(call));
        let created = write.is_some_and(|w| w.kind == "create");
        if created && !track.marks.has(Mark::Changed) && track.now.is_none() {
            track.first = Some(String::new());
            track.marks.set(Mark::Created, true);
        }
        track.before(write.and_then(|w| w.original_file.as_deref()));
        track.check(write.map_or(&[], |w| &w.structured_patch));
        let rows = match write {
            Some(w) if !w.structured_patch.is_empty() => diff::from_hunks(&w.structured_patch),
            _ => diff::between(track.now.as_deref().unwrap_or_default(), &content, 1),
        };
        // A whole new content: known from here on, whatever was lost before.
        track.known(content);
        Self::changed(track, rows, at, counted);
    }

    /// A shell command: each file it clearly writes, named as an Edit would name it.
    fn shell(&mut self, command: &str, at: ItemRef, cwd: Option<&str>) {
        let counted = self.counted;
        for target in shell_targets(self.shell, command) {
            let track = self.track(&in_dir(target, cwd));
            track.now = None;
            track.marks.set(Mark::ByShell, true);
            Self::changed(track, Vec::new(), at, counted);
        }
    }

    fn changed(track: &mut Track, rows: Vec<Row>, at: ItemRef, counted: bool) {
        track.marks.set(Mark::Changed, true);
        if counted {
            track.hunks.extend(rows);
            track.calls.push(at);
        }
    }
}

/// The file a call edits.
fn path_of(call: &CallView) -> String {
    call.text("file_path").or(call.text("notebook_path")).unwrap_or_default().to_owned()
}

/// A shell command's `target`, from the directory the command ran in.
fn in_dir(target: String, cwd: Option<&str>) -> String {
    match cwd {
        Some(dir) if !target.starts_with(['/', '~']) => {
            format!("{}/{}", dir.trim_end_matches('/'), target.trim_start_matches("./"))
        }
        _ => target,
    }
}

/// The files a shell command clearly writes: the targets of `>`, `>>` and `tee` on its first
/// line (a heredoc's body and a script's text are not the shell's), outside quotes, that look
/// like paths (a letter, and a `.` or `/`), not devices.
fn shell_targets(re: &Regex, command: &str) -> Vec<String> {
    let line = command.lines().next().unwrap_or_default();
    // Quoted text is an argument, not a redirection.
    let mut bare = String::with_capacity(line.len());
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, c) => bare.push(c),
            _ => {}
        }
    }
    re.captures_iter(&bare)
        .filter_map(|c| c.get(1).or(c.get(2)))
        .map(|m| m.as_str().to_owned())
        .filter(|t| {
            t.chars().any(|c| c.is_ascii_alphabetic())
                && t.contains(['.', '/'])
                && !t.starts_with("/dev/")
                && t.chars().all(|c| c.is_alphanumeric() || "._-/~+@".contains(c))
        })
        .collect()
}

/// Redirections and `tee`: `> file`, `>> file` (not `2>&1`), `tee [-a] file`.
fn shell_writes() -> Regex {
    Regex::new(r#"(?:^|[^0-9&>])>>?\s*([^\s|;&<>()]+)|\btee\s+(?:-a\s+)?([^\s|;&<>()-][^\s|;&<>()]*)"#)
        .expect("a valid pattern")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_writes_are_redirections_and_tee_not_descriptors() {
        let re = shell_writes();
        let targets = |cmd: &str| shell_targets(&re, cmd);
        assert_eq!(targets("echo hi > out.txt"), ["out.txt"]);
        assert_eq!(targets("cat a >> log/b.log 2>&1"), ["log/b.log"]);
        assert_eq!(targets("make 2>&1 | tee -a build.log"), ["build.log"]);
        assert_eq!(targets("cat > /tmp/check.mjs << 'EOF'\nif (a > 1.0) x = 2;\nEOF"), ["/tmp/check.mjs"]);
        assert!(targets("cargo test 2>&1 | head").is_empty());
        assert!(targets("node -e \"if (x > 1.3) console.log('> out.txt')\"").is_empty());
        assert!(targets("echo x > /dev/null; echo y > EOF").is_empty());
    }
}
