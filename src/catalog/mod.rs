//! Many sessions at once: a whole `~/.claude/projects` folder, listed by project and session
//! without reading every byte of it. [`shelf`] sorts the files into sessions and projects by
//! their names, [`summary`] says what each session is from the two ends of its file (and, once
//! the whole of it has been read, its counts), [`project`] turns folder names back into paths.
//!
//! Below `ui` like `normalize`: plain data, tested natively; the page reads the files.

pub mod project;
pub mod shelf;
pub mod summary;

/// How much of the start of a session file is read to list it: its first lines, which say
/// where and when it started and what was asked first (a first prompt with a pasted file can
/// take tens of kB).
pub const HEAD_BYTES: u64 = 128 * 1024;
/// How much of its end: when it ended, and the titles Claude Code re-appends.
pub const TAIL_BYTES: u64 = 64 * 1024;

/// How many bytes to read instead of `end.len()` when `end` (the start or the end of a file of
/// `size` bytes) holds no whole line, so says nothing (a first prompt with a pasted image can be
/// a line of MBs): four times as many, up to the whole file. `None` when it holds one.
pub fn wider(end: &[u8], size: u64) -> Option<u64> {
    let read = end.len() as u64;
    let inner = &end[..end.len().saturating_sub(1)];
    (read < size && memchr::memchr(b'\n', inner).is_none()).then(|| (read * 4).max(1).min(size))
}
