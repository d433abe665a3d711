//! One scan split into parts that can run apart (each in a worker of its own), whose findings
//! put together ([`merge`]) are what one scan of every file finds ([`Scanner::find_in`]): the
//! same texts, counts, places and names, in the same order.
//!
//! A part is a run of lines of one or more files. A file is cut only before a line that is JSON:
//! the lines that are not are looked at together with the ones around them (a secret cut by a
//! line break), so a cut there would lose what the two halves hold together.

use std::collections::HashMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::{strings_of, Finding, Kind, Scanner};

/// A piece of one file that a part looks through: bytes `range` of file `file` (named `name`),
/// whose first line is line `line` of the file (1: the file's start, where its name is looked
/// at too).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub file: usize,
    pub name: String,
    pub range: Range<usize>,
    pub line: u32,
}

/// Lines looked at past a part's size for one that is JSON to cut before, before the file is
/// left whole to that part.
const LOOK_AHEAD: usize = 64;

/// `files` cut into at most `count` parts of about the same size, each a list of pieces in
/// order. Fewer when the files cannot be cut that often.
pub fn split(files: &[(&str, &[u8])], count: usize) -> Vec<Vec<Piece>> {
    let total: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    let size = total.div_ceil(count.max(1)).max(1);
    let mut parts = vec![Vec::new()];
    let mut filled = 0;
    for (file, &(name, bytes)) in files.iter().enumerate() {
        // A part already full takes no line of the next file.
        if filled >= size && parts.len() < count {
            parts.push(Vec::new());
            filled = 0;
        }
        let (mut at, mut line) = (0, 1);
        loop {
            let room = size.saturating_sub(filled);
            let cut = match at + room < bytes.len() && parts.len() < count {
                true => cut_after(bytes, at + room),
                false => None,
            };
            let end = cut.unwrap_or(bytes.len());
            parts.last_mut().expect("a part").push(Piece {
                file,
                name: name.to_owned(),
                range: at..end,
                line,
            });
            filled += end - at;
            let Some(cut) = cut else { break };
            line += memchr::memchr_iter(b'\n', &bytes[at..cut]).count() as u32;
            // The piece ends before the line break; the next part begins after it.
            parts.last_mut().expect("a part").last_mut().expect("a piece").range.end = cut - 1;
            parts.push(Vec::new());
            (at, filled) = (cut, 0);
        }
    }
    parts
}

/// Where the first line that is JSON at or after `from` (the next line's start) begins, within
/// [`LOOK_AHEAD`] lines; `None` if there is none.
fn cut_after(bytes: &[u8], from: usize) -> Option<usize> {
    let mut start = memchr::memchr(b'\n', &bytes[from..])? + from + 1;
    for _ in 0..LOOK_AHEAD {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |e| start + e);
        if start < bytes.len() && strings_of(&bytes[start..end]).is_some() {
            return Some(start);
        }
        start = end + 1;
        if start >= bytes.len() {
            return None;
        }
    }
    None
}

impl Scanner {
    /// What one part finds in its pieces (`bytes` of each, in order), in the order it found
    /// them: [`merge`] puts the parts together.
    pub fn find_part<'a>(&self, pieces: impl Iterator<Item = (&'a Piece, &'a [u8])>) -> Vec<Finding> {
        self.find_part_telling(pieces, usize::MAX, &mut |_| {})
    }

    /// [`find_part`](Scanner::find_part), telling `told` how many bytes it looked through each
    /// time `every` more were.
    pub fn find_part_telling<'a>(
        &self,
        pieces: impl Iterator<Item = (&'a Piece, &'a [u8])>,
        every: usize,
        told: &mut dyn FnMut(usize),
    ) -> Vec<Finding> {
        let mut finder = self.finder();
        let (mut done, mut next) = (0, every);
        for (piece, bytes) in pieces {
            match piece.line {
                1 => finder.file(&piece.name),
                line => finder.file_from(&piece.name, line),
            }
            for line in bytes.split(|&b| b == b'\n') {
                finder.line(line);
                done += line.len() + 1;
                if done >= next {
                    told(done);
                    next = done.saturating_add(every);
                }
            }
        }
        finder.into_found()
    }
}

/// The findings of every part (each as [`Scanner::find_part`] gave them), in the parts' order,
/// as one scan of all of them gives them: a text found in several parts is one finding, first
/// where the earliest part found it, counted in all, named by the first rule sure of it.
pub fn merge(parts: impl IntoIterator<Item = Vec<Finding>>) -> Vec<Finding> {
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

    #[test]
    fn a_scan_in_parts_finds_what_one_scan_finds() {
        let scanner = Scanner::new(&["[Ss]ecret".into()]).unwrap();
        for inputs in corpora() {
            let files: Vec<(&str, &[u8])> = inputs.iter().map(|i| i.parts()).collect();
            let whole = scanner.find_in(files.iter().copied());
            for count in [1, 2, 3, 7] {
                let parts = split(&files, count);
                assert!(parts.len() <= count);
                // Each file's pieces, in order and joined by the line breaks cut at, are the file.
                for (n, (_, bytes)) in files.iter().enumerate() {
                    let pieces: Vec<&[u8]> = parts
                        .iter()
                        .flatten()
                        .filter(|p| p.file == n)
                        .map(|p| &bytes[p.range.clone()])
                        .collect();
                    assert_eq!(pieces.join(&b'\n'), *bytes);
                }
                let found = parts.iter().map(|pieces| {
                    scanner.find_part(pieces.iter().map(|p| (p, &files[p.file].1[p.range.clone()])))
                });
                assert_eq!(merge(found), whole, "{} in {count} parts", files[0].0);
            }
        }
    }

    #[test]
    fn a_part_tells_how_far_it_got_as_it_goes() {
        let scanner = Scanner::new(&[]).unwrap();
        let inputs = fixtures::every_fixture();
        let files: Vec<(&str, &[u8])> = inputs.iter().map(|i| i.parts()).collect();
        let size: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
        let pieces = &split(&files, 1)[0];
        let bytes = || pieces.iter().map(|p| (p, &files[p.file].1[p.range.clone()]));
        let mut told = Vec::new();
        let found = scanner.find_part_telling(bytes(), 1 << 20, &mut |done| told.push(done));
        assert_eq!(found, scanner.find_part(bytes()));
        // Each time a MB more was looked through (or once for a line of many MB), never past the
        // files (and a line break each file may lack).
        assert!(told.len() >= size / (2 << 20), "{} times for {size} bytes", told.len());
        assert!(told.windows(2).all(|w| w[1] >= w[0] + (1 << 20)));
        assert!(*told.last().unwrap() <= size + files.len());
    }

    #[test]
    fn a_file_is_cut_only_before_a_line_that_is_json() {
        let text = b"{\"a\":1}\nplain text\nmore\n{\"b\":\"x\"}\n{\"c\":2}\n";
        let files = [("f.jsonl", &text[..])];
        let parts = split(&files, 3);
        let starts: Vec<&[u8]> = parts.iter().flatten().map(|p| &text[p.range.clone()]).collect();
        assert_eq!(starts[0], b"{\"a\":1}\nplain text\nmore");
        assert!(starts[1].starts_with(b"{\"b\""));
        assert_eq!(parts[1][0].line, 4);
        // A file with no JSON line stays whole.
        let prose = [("notes.txt", &b"one\ntwo\nthree\nfour\n"[..])];
        assert_eq!(split(&prose, 4).len(), 1);
        assert_eq!(split(&[], 3), vec![Vec::<Piece>::new()]);
    }
}
