//! The files a load, a folder or a follow could not use, as the page's error box lists them: all
//! of them when they are few; otherwise the first and the last, and how many lie between, so a
//! folder of thousands of files that are no transcript neither floods the page nor hides what was
//! said last (a follow that stopped, a file given after the folder).

use crate::text::format::thousands;

/// Up to this many problems are listed one by one.
const LISTED: usize = 20;
/// Of more, the last this many are listed after the count of those left out.
const LAST: usize = 5;

/// What the box lists: `first`, then `between` in words when some are left out, then `last`.
#[derive(Debug, PartialEq, Eq)]
pub struct Listed<'a, T> {
    pub first: &'a [T],
    pub between: Option<String>,
    pub last: &'a [T],
}

pub fn listed<T>(problems: &[T]) -> Listed<'_, T> {
    if problems.len() <= LISTED {
        return Listed { first: problems, between: None, last: &[] };
    }
    let (first, last) = (&problems[..LISTED - LAST], &problems[problems.len() - LAST..]);
    let hidden = problems.len() - LISTED;
    Listed { first, between: Some(format!("and {} more", thousands(hidden as u64))), last }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_are_listed_whole() {
        let problems: Vec<u32> = (0..20).collect();
        assert_eq!(listed(&problems), Listed { first: &problems[..], between: None, last: &[] });
        assert_eq!(listed::<u32>(&[]), Listed { first: &[], between: None, last: &[] });
    }

    #[test]
    fn many_keep_the_first_and_the_last() {
        let problems: Vec<u32> = (0..5_000).collect();
        let shown = listed(&problems);
        assert_eq!(shown.first, &problems[..15]);
        assert_eq!(shown.between.as_deref(), Some("and 4,980 more"));
        assert_eq!(shown.last, &[4_995, 4_996, 4_997, 4_998, 4_999]);
        // One more than fit: it is counted, and the newest is still said.
        let problems: Vec<u32> = (0..21).collect();
        let shown = listed(&problems);
        assert_eq!(
            (shown.first.len(), shown.between.as_deref(), shown.last.last()),
            (15, Some("and 1 more"), Some(&20))
        );
    }
}
