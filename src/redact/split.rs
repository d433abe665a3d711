//! One scan split into shares that can run apart (each in a worker of its own, fed its bytes as
//! they are read), whose findings put together ([`merge_shares`]) are what one scan of
//! every file finds ([`Scanner::find_in`]): the same texts, counts, places and names, in the same
//! order.
//!
//! A share knows only where it begins and ends as a fraction of all the files' bytes, not what
//! the shares before it hold: so it finds its own cuts, by a rule its neighbour applies to the
//! same bytes ([`ShareScan`]), and counts its lines from where it began, which the merge turns into
//! lines of the file. A file is cut only before a line that is JSON: the lines that are not are
//! looked at together with the ones around them (a secret cut by a line break), so a cut there
//! would lose what the two halves hold together.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{strings_of, Finder, Finding, Kind, Scanner};

/// What one share found: its findings in the order it found them, lines counted from where it
/// began in a file it began inside, and the lines it fed of each file it looked through.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub found: Vec<Finding>,
    /// (file, lines looked at, whether the share began inside it), in the files' order.
    pub pieces: Vec<(usize, u32, bool)>,
}

/// The name a share gives the file it began inside, whose line numbers it does not know: no file
/// is named so. [`merge_shares`] names it again.
const INSIDE: &str = "\0";

/// A position in the files: a file, and a byte of it (`(files, 0)`: past the last).
type At = (usize, u64);

/// The names and sizes of `files` (held whole): what a [`ShareScan`] of them is made with.
pub fn names_and_sizes(files: &[(&str, &[u8])]) -> (Vec<String>, Vec<u64>) {
    files.iter().map(|(n, b)| (n.to_string(), b.len() as u64)).unzip()
}

/// Where share `share` of `count` of files of `sizes` bytes would begin, before the cut: as far
/// into all the bytes as its share says, in the file that holds that byte. It needs no byte
/// before.
pub fn share_begins(sizes: &[u64], share: usize, count: usize) -> At {
    let total: u64 = sizes.iter().sum();
    let target = (total as u128 * share as u128 / count.max(1) as u128) as u64;
    let mut start = 0;
    for (file, &size) in sizes.iter().enumerate() {
        if target < start + size {
            return (file, target - start);
        }
        start += size;
    }
    (sizes.len(), 0)
}

/// Where a share is in the files it is fed.
#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    /// Before its first line: the first line that is JSON after where it would begin.
    Before,
    Inside,
    /// Past its last line: the first line that is JSON after where the next share would begin.
    Ended,
}

/// Share `share` of `count` of the files, looked through as it is fed their bytes, in order, as
/// they are read: each file from its start (the file the share begins inside from anywhere up
/// to where it would begin), each file's end said ([`end_file`](ShareScan::end_file)), then
/// [`finish`](ShareScan::finish). A share ends before the line that the next one begins on
/// (it can say it needs no more bytes: [`wants_more`](ShareScan::wants_more)).
pub struct ShareScan<'s> {
    finder: Finder<'s>,
    names: Vec<String>,
    sizes: Vec<u64>,
    /// Where it begins and ends, or where it would (before the cuts).
    from: At,
    to: At,
    state: State,
    /// The file being fed (`None` before the first), and the next byte of it expected.
    file: Option<usize>,
    next: u64,
    /// The line begun and not yet ended, and where in the file it begins.
    held: Vec<u8>,
    held_at: u64,
    pieces: Vec<(usize, u32, bool)>,
    looked: u64,
    /// The last file whose end was said.
    ended: Option<usize>,
    /// Bytes fed out of order: the share cannot be whole.
    wrong: Option<String>,
}

impl<'s> ShareScan<'s> {
    pub fn new(
        scanner: &'s Scanner,
        names: &[String],
        sizes: &[u64],
        (share, count): (usize, usize),
    ) -> Self {
        let to = match share + 1 < count {
            true => share_begins(sizes, share + 1, count),
            false => (sizes.len(), 0),
        };
        ShareScan {
            finder: scanner.finder(),
            names: names.to_vec(),
            sizes: sizes.to_vec(),
            from: share_begins(sizes, share, count),
            to,
            state: State::Before,
            file: None,
            next: 0,
            held: Vec::new(),
            held_at: 0,
            pieces: Vec::new(),
            looked: 0,
            ended: None,
            wrong: None,
        }
    }

    /// Whether it needs more bytes: not once it found where it ends.
    pub fn wants_more(&self) -> bool {
        self.state != State::Ended && self.wrong.is_none()
    }

    /// Whether it has all it needs (or was fed out of order): what it found is whole.
    pub fn is_done(&self) -> bool {
        let last_ended =
            self.from.0 >= self.sizes.len() || self.ended.is_some_and(|f| f + 1 >= self.sizes.len());
        self.state == State::Ended || self.wrong.is_some() || (self.to.0 >= self.sizes.len() && last_ended)
    }

    /// How many bytes of its own it looked through so far.
    pub fn looked(&self) -> u64 {
        self.looked
    }

    /// The next bytes of file `file`, from byte `at`.
    pub fn feed(&mut self, file: usize, at: u64, bytes: &[u8]) {
        if !self.wants_more() || file < self.from.0 {
            return;
        }
        if self.file != Some(file) {
            // A file begins: from its start, or the one the share begins inside from before
            // where it would begin.
            let first_inside = file == self.from.0 && at <= self.from.1;
            if at != 0 && !first_inside {
                self.wrong = Some(format!("bytes of file {file} from {at}, not from its start"));
                return;
            }
            self.open_file(file, at);
        } else if at != self.next {
            self.wrong = Some(format!("bytes of file {file} from {at}, not {}", self.next));
            return;
        }
        self.next = at + bytes.len() as u64;
        let mut rest = bytes;
        let mut rest_at = at;
        if !self.held.is_empty() {
            let Some(end) = memchr::memchr(b'\n', rest) else {
                self.held.extend_from_slice(rest);
                return;
            };
            let mut line = std::mem::take(&mut self.held);
            line.extend_from_slice(&rest[..end]);
            self.line(self.held_at, &line);
            line.clear();
            self.held = line;
            rest = &rest[end + 1..];
            rest_at += end as u64 + 1;
        }
        while let Some(end) = memchr::memchr(b'\n', rest) {
            self.line(rest_at, &rest[..end]);
            rest = &rest[end + 1..];
            rest_at += end as u64 + 1;
        }
        self.held.extend_from_slice(rest);
        self.held_at = rest_at;
    }

    /// Every byte of file `file` was fed (none, for one it begins before).
    pub fn end_file(&mut self, file: usize) {
        if !self.wants_more() || file < self.from.0 {
            return;
        }
        if self.file != Some(file) {
            if self.sizes.get(file) != Some(&0) {
                self.wrong = Some(format!("file {file} ended before its bytes came"));
                return;
            }
            self.open_file(file, 0);
        } else if self.next != self.sizes[file] {
            self.wrong = Some(format!("file {file} ended at {} of {} bytes", self.next, self.sizes[file]));
            return;
        }
        // Its last line, after its last line break (empty if it ends with one).
        let last = std::mem::take(&mut self.held);
        self.line(self.held_at, &last);
        // No line to begin or end on after where it would: at the next file, then.
        if self.state == State::Before && file == self.from.0 {
            self.from = (file + 1, 0);
            // Where the next share begins too: this one is empty.
            if self.from >= self.to {
                self.state = State::Ended;
            }
        }
        if self.state == State::Inside && file == self.to.0 {
            self.state = State::Ended;
        }
        self.ended = Some(file);
    }

    /// What it found; an error if its bytes came out of order or not all came.
    pub fn finish(self) -> Result<Share, String> {
        if let Some(wrong) = self.wrong {
            return Err(wrong);
        }
        if !self.is_done() {
            return Err("the share was not fed to its end".into());
        }
        Ok(Share { found: self.finder.into_found(), pieces: self.pieces })
    }

    fn open_file(&mut self, file: usize, at: u64) {
        (self.file, self.next, self.held_at) = (Some(file), at, at);
        self.held.clear();
        if self.state == State::Before && self.from == (file, 0) {
            self.state = State::Inside;
        }
        if self.state == State::Inside && (file, 0) >= self.to {
            self.state = State::Ended;
        }
        if self.state == State::Inside {
            self.finder.file(&self.names[file]);
            self.pieces.push((file, 0, false));
        }
    }

    /// A line of the file being fed, beginning at byte `start`.
    fn line(&mut self, start: u64, line: &[u8]) {
        let Some(file) = self.file else { return };
        let size = self.sizes[file];
        // A line the share begins on, or the next one does: the first that is JSON and begins
        // after where it would.
        let cut_after = |(f, at): At| f == file && start > at && start < size && strings_of(line).is_some();
        if self.state == State::Before && cut_after(self.from) {
            self.state = State::Inside;
            self.finder.file_from(INSIDE, 1);
            self.pieces.push((file, 0, true));
        }
        if self.state == State::Inside && cut_after(self.to) {
            self.state = State::Ended;
        }
        if self.state == State::Inside {
            self.finder.line(line);
            self.looked += line.len() as u64 + 1;
            if let Some(piece) = self.pieces.last_mut() {
                piece.1 += 1;
            }
        }
    }
}

/// The findings of every share (each as [`ShareScan::finish`] gave them), in order, as one
/// scan of all the files (named `names`) gives them: a text found in several shares is one
/// finding, first where the earliest share found it, counted in all, named by the first rule
/// sure of it.
pub fn merge_shares(names: &[String], shares: Vec<Share>) -> Vec<Finding> {
    let mut lines_before = vec![0u32; names.len()];
    let mut parts = Vec::with_capacity(shares.len());
    for Share { mut found, pieces } in shares {
        if let Some(&(file, _, true)) = pieces.first() {
            for finding in found.iter_mut().filter(|f| f.file == INSIDE) {
                finding.file = names[file].clone();
                finding.line += lines_before[file];
            }
        }
        for (file, lines, _) in pieces {
            lines_before[file] += lines;
        }
        parts.push(found);
    }
    merge(parts)
}

/// The findings of every part, in the parts' order, as one scan of all of them gives them.
fn merge(parts: impl IntoIterator<Item = Vec<Finding>>) -> Vec<Finding> {
    let mut at: HashMap<(Kind, String), usize> = HashMap::new();
    let mut out: Vec<Finding> = Vec::new();
    for found in parts.into_iter().flatten() {
        let Some(&i) = at.get(&(found.kind, found.text.clone())) else {
            at.insert((found.kind, found.text.clone()), out.len());
            out.push(found);
            continue;
        };
        let entry = &mut out[i];
        if found.certain && !entry.certain {
            (entry.label, entry.rule, entry.certain, entry.mask) =
                (found.label, found.rule, true, found.mask);
        }
        for form in found.forms {
            if !entry.forms.contains(&form) {
                entry.forms.push(form);
            }
        }
        entry.count += found.count;
    }
    super::in_finding_order(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    /// Every fixture file, and a generated session of a few MB (one file with sub-agents).
    fn corpora() -> Vec<Vec<crate::normalize::Input>> {
        let mut out: Vec<_> = fixtures::every_fixture().into_iter().map(|f| vec![f]).collect();
        out.push(fixtures::every_fixture());
        #[cfg(feature = "generate")]
        out.push(crate::generate::session(3.0, 7));
        out
    }

    /// Share `share` of `count`, fed as the engine worker hands a share's worker the files: in
    /// slices of `slice` bytes, from the one that reaches where it would begin, until it wants
    /// no more; every file's end said.
    fn share_of<'s>(
        scanner: &'s Scanner,
        files: &[(&str, &[u8])],
        share: (usize, usize),
        slice: usize,
    ) -> ShareScan<'s> {
        let (names, sizes) = names_and_sizes(files);
        let mut scan = ShareScan::new(scanner, &names, &sizes, share);
        let from = share_begins(&sizes, share.0, share.1);
        for (file, (_, bytes)) in files.iter().enumerate() {
            let mut at = 0;
            while at < bytes.len() && scan.wants_more() {
                let end = (at + slice).min(bytes.len());
                if (file, end as u64) > from {
                    scan.feed(file, at as u64, &bytes[at..end]);
                }
                at = end;
            }
            scan.end_file(file);
        }
        // It says so once it has all it needs: its worker then answers.
        assert!(scan.is_done());
        scan
    }

    #[test]
    fn a_scan_in_shares_finds_what_one_scan_finds() {
        let scanner = Scanner::new(&["[Ss]ecret".into()]).unwrap();
        for inputs in corpora() {
            let files: Vec<(&str, &[u8])> = inputs.iter().map(|i| i.parts()).collect();
            let (names, _) = names_and_sizes(&files);
            let whole = scanner.find_in(files.iter().copied());
            for (count, slice) in [(1, 1 << 20), (2, 4096), (3, 1 << 20), (7, 333)] {
                let shares: Vec<Share> = (0..count)
                    .map(|s| share_of(&scanner, &files, (s, count), slice).finish().unwrap())
                    .collect();
                // Every line of every file is looked at once, by one share.
                for (n, (_, bytes)) in files.iter().enumerate() {
                    let lines: u32 =
                        shares.iter().flat_map(|s| &s.pieces).filter(|p| p.0 == n).map(|p| p.1).sum();
                    assert_eq!(lines as usize, bytes.split(|&b| b == b'\n').count(), "{}", files[n].0);
                }
                assert_eq!(merge_shares(&names, shares), whole, "{} in {count} shares", files[0].0);
            }
        }
    }

    #[test]
    fn the_shares_say_how_far_they_got() {
        let scanner = Scanner::new(&[]).unwrap();
        let inputs = fixtures::every_fixture();
        let files: Vec<(&str, &[u8])> = inputs.iter().map(|i| i.parts()).collect();
        let size: u64 = files.iter().map(|(_, b)| b.len() as u64).sum();
        let looked: Vec<u64> = (0..3).map(|s| share_of(&scanner, &files, (s, 3), 1 << 16).looked()).collect();
        // Each line once, and the line break after it (or one each file lacks at its end).
        assert_eq!(looked.iter().sum::<u64>(), size + files.len() as u64);
        assert!(looked.iter().all(|&l| l > size / 6), "{looked:?} of {size}");
    }

    #[test]
    fn a_file_is_cut_only_before_a_line_that_is_json() {
        let scanner = Scanner::new(&[]).unwrap();
        let text = b"{\"a\":1}\nplain text\nmore\n{\"b\":\"x\"}\n{\"c\":2}\n";
        let files = [("f.jsonl", &text[..])];
        // A third of the way in is inside "plain text": the second share begins before `{"b"`,
        // line 4; two thirds is inside that line, so the third begins on the next.
        let pieces: Vec<_> =
            (0..3).map(|s| share_of(&scanner, &files, (s, 3), 5).finish().unwrap().pieces).collect();
        assert_eq!(pieces, [vec![(0, 3, false)], vec![(0, 1, true)], vec![(0, 2, true)]]);
        // A file with no JSON line is not cut at all: the share that begins it has all of it.
        let prose = [("notes.txt", &b"one\ntwo\nthree\nfour\n"[..])];
        let pieces: Vec<_> =
            (0..2).map(|s| share_of(&scanner, &prose, (s, 2), 3).finish().unwrap().pieces).collect();
        assert_eq!(pieces, [vec![(0, 5, false)], vec![]]);
        // No files: one share of nothing.
        assert_eq!(share_of(&scanner, &[], (0, 1), 3).finish().unwrap().pieces, []);
    }

    #[test]
    fn a_share_fed_out_of_order_or_not_to_its_end_says_so() {
        let scanner = Scanner::new(&[]).unwrap();
        let (names, sizes) = (["a.jsonl".to_string(), "b.jsonl".to_string()], [6, 6]);
        let mut scan = ShareScan::new(&scanner, &names, &sizes, (0, 1));
        scan.feed(0, 2, b"}\n{}\n");
        assert!(scan.finish().unwrap_err().contains("not from its start"));
        let mut scan = ShareScan::new(&scanner, &names, &sizes, (0, 1));
        scan.feed(0, 0, b"{}\n");
        scan.end_file(0);
        assert!(scan.finish().unwrap_err().contains("ended at 3 of 6"));
        let mut scan = ShareScan::new(&scanner, &names, &sizes, (0, 1));
        scan.feed(0, 0, b"{}\n{}\n");
        scan.end_file(0);
        assert_eq!(scan.finish().unwrap_err(), "the share was not fed to its end");
    }
}
