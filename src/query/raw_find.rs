//! A plain query looked for in raw JSON lines, ASCII letters in either case: the first pass of a
//! search, which rules out the rows whose lines cannot hold it without decoding them.
//!
//! The regex crate finds a case-insensitive literal with SIMD (Teddy) on x86 and ARM, but in
//! wasm32 it falls back to Aho-Corasick at about 100 MB/s, which made searching a GB take 8 s.
//! This finder looks at two of the query's rarest bytes sixteen positions at a time (wasm SIMD, or
//! two `u64`s elsewhere), with each letter folded by setting its 0x20 bit, and checks the whole
//! query only where both fit. It answers the same question on every target.

use memchr::memmem;

/// Where a line cannot be told by its bytes alone: `(?i)` folds `k` with `K` (Kelvin, U+212A)
/// and `s` with `ſ` (U+017F), which are not ASCII, so a line holding either must be decoded.
const KELVIN: &[u8] = "\u{212A}".as_bytes();
const LONG_S: &[u8] = "\u{17F}".as_bytes();

const LOW_BYTES: u64 = 0x0101_0101_0101_0101;
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// A query of printable ASCII, found in bytes.
#[derive(Clone, Debug)]
pub struct RawFinder {
    /// The query, letters lower-cased when case is ignored.
    needle: Vec<u8>,
    /// Per byte of the needle: 0x20 where a letter's case is ignored (ORed into the haystack's
    /// byte before comparing), else 0.
    fold: Vec<u8>,
    /// The two positions in the needle looked at first, their bytes and folds broadcast.
    first: Probe,
    second: Probe,
    /// The query has a `k` or an `s` and case is ignored: see [`KELVIN`].
    folds_beyond_ascii: bool,
}

#[derive(Clone, Copy, Debug)]
struct Probe {
    at: usize,
    byte: u64,
    fold: u64,
}

impl RawFinder {
    /// What is looked for, letters whose case is ignored in lower case.
    pub fn needle(&self) -> &[u8] {
        &self.needle
    }

    /// `None` unless `needle` is at least two bytes of printable ASCII.
    pub fn new(needle: &str, case_sensitive: bool) -> Option<RawFinder> {
        let bytes = needle.as_bytes();
        if bytes.len() < 2 || !bytes.iter().all(|b| (b' '..=b'~').contains(b)) {
            return None;
        }
        let fold: Vec<u8> =
            bytes.iter().map(|b| if !case_sensitive && b.is_ascii_alphabetic() { 0x20 } else { 0 }).collect();
        let needle: Vec<u8> = bytes.iter().zip(&fold).map(|(b, f)| b | f).collect();
        let mut by_rarity: Vec<usize> = (0..needle.len()).collect();
        by_rarity.sort_by_key(|&i| commonness(needle[i]));
        let probe = |at: usize| Probe {
            at,
            byte: u64::from(needle[at]) * LOW_BYTES,
            fold: u64::from(fold[at]) * LOW_BYTES,
        };
        let (first, second) = (probe(by_rarity[0]), probe(by_rarity[1]));
        let folds_beyond_ascii = !case_sensitive && needle.iter().any(|b| matches!(b, b'k' | b's'));
        Some(RawFinder { needle, fold, first, second, folds_beyond_ascii })
    }

    /// Whether `haystack` may hold the query: it does, or it holds a character that `(?i)` folds
    /// to one of the query's letters.
    pub fn may_be_in(&self, haystack: &[u8]) -> bool {
        self.is_in(haystack)
            || (self.folds_beyond_ascii
                && (memmem::find(haystack, KELVIN).is_some() || memmem::find(haystack, LONG_S).is_some()))
    }

    /// Whether `haystack` holds the query, letters in either case where case is ignored.
    pub fn is_in(&self, haystack: &[u8]) -> bool {
        let len = self.needle.len();
        if haystack.len() < len {
            return false;
        }
        let mut start = 0;
        // Sixteen candidate starts at a time, while both probes can load sixteen bytes.
        while start + 16 + (len - 1) <= haystack.len() {
            let mut candidates = self.candidates(haystack, start);
            while candidates != 0 {
                if self.matches_at(haystack, start + candidates.trailing_zeros() as usize) {
                    return true;
                }
                candidates &= candidates - 1;
            }
            start += 16;
        }
        (start..=haystack.len() - len).any(|at| self.matches_at(haystack, at))
    }

    /// Bit `i` is set where both probes fit the query started at `start + i`, for `i` in 0..16.
    /// Both probes' sixteen bytes must be in `haystack`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn candidates(&self, haystack: &[u8], start: usize) -> u32 {
        use core::arch::wasm32::*;
        let fits = |probe: Probe| {
            let bytes = &haystack[start + probe.at..start + probe.at + 16];
            // SAFETY: `bytes` is 16 bytes long (the slice above is checked), and wasm loads need
            // no alignment.
            let v = unsafe { v128_load(bytes.as_ptr() as *const v128) };
            u8x16_eq(v128_or(v, u8x16_splat(probe.fold as u8)), u8x16_splat(probe.byte as u8))
        };
        u32::from(u8x16_bitmask(v128_and(fits(self.first), fits(self.second))))
    }

    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    fn candidates(&self, haystack: &[u8], start: usize) -> u32 {
        self.candidates_swar(haystack, start)
    }

    /// [`candidates`](Self::candidates) eight bytes at a time in `u64`s, where there is no SIMD:
    /// `x - 0x01… & !x & 0x80…` finds the zero bytes of `x`, with false hits only above a true
    /// one, which [`matches_at`](Self::matches_at) rules out.
    #[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
    fn candidates_swar(&self, haystack: &[u8], start: usize) -> u32 {
        let half = |start: usize| {
            let fits = |probe: Probe| {
                let at = start + probe.at;
                let word = u64::from_le_bytes(haystack[at..at + 8].try_into().unwrap_or_default());
                let x = (word | probe.fold) ^ probe.byte;
                x.wrapping_sub(LOW_BYTES) & !x & HIGH_BITS
            };
            // One bit per byte: the high bits gathered into the low eight.
            let bits = fits(self.first) & fits(self.second);
            ((bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
        };
        half(start) | half(start + 8) << 8
    }

    fn matches_at(&self, haystack: &[u8], at: usize) -> bool {
        haystack[at..at + self.needle.len()]
            .iter()
            .zip(self.needle.iter().zip(&self.fold))
            .all(|(h, (n, f))| h | f == *n)
    }
}

/// How often a byte appears in transcript JSON, roughly (higher is more common): the finder looks
/// at the query's two rarest bytes first.
fn commonness(byte: u8) -> u8 {
    const BY_FREQUENCY: &[u8] = b" e\"tao:in,srlhdcu.mp_/f-g0y1bw2v3k495x678jqz";
    match BY_FREQUENCY.iter().position(|&b| b == byte) {
        Some(rank) => (BY_FREQUENCY.len() - rank) as u8 + 1,
        // Capitals (case kept), and punctuation rarer than the above.
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The finder against the obvious answer, at every alignment.
    fn check(needle: &str, case_sensitive: bool, haystack: &[u8]) {
        let finder = RawFinder::new(needle, case_sensitive).unwrap();
        let expected = haystack.windows(needle.len()).any(|w| match case_sensitive {
            true => w == needle.as_bytes(),
            false => w.eq_ignore_ascii_case(needle.as_bytes()),
        });
        assert_eq!(finder.is_in(haystack), expected, "{needle:?} in {:?}", String::from_utf8_lossy(haystack));
    }

    #[test]
    fn finds_a_query_at_every_position_and_length() {
        for len in 0..40 {
            for at in 0..=len {
                for needle in ["enumerate", "ZqXj", "a b", "x:1,"] {
                    if at + needle.len() > len {
                        continue;
                    }
                    let mut haystack = vec![b'.'; len];
                    haystack[at..at + needle.len()].copy_from_slice(needle.to_ascii_uppercase().as_bytes());
                    check(needle, false, &haystack);
                    check(needle, true, &haystack);
                    haystack[at..at + needle.len()].copy_from_slice(needle.as_bytes());
                    check(needle, true, &haystack);
                }
            }
        }
    }

    #[test]
    fn agrees_with_the_obvious_answer_on_noise() {
        // Bytes from a small alphabet in both cases, so that near misses and matches are common.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            let len = (next() % 70) as usize;
            let haystack: Vec<u8> = (0..len).map(|_| b"abAB\x00\xff@`"[(next() % 8) as usize]).collect();
            for needle in ["ab", "ba", "aab", "bAa", "a`", "abab"] {
                check(needle, false, &haystack);
                check(needle, true, &haystack);
            }
        }
    }

    #[test]
    fn near_misses_and_folded_punctuation_are_not_matches() {
        // `@` | 0x20 is a backtick and `[` | 0x20 is `{`: only letters fold.
        check("`{", false, b"xx@[xx");
        check("enumerate", false, b"enumerat enumerat\nenumeratE".as_slice());
        check("enumerate", false, b"numerate enumerat");
        check("ab", false, b"\x00\x01ab");
        check("ab", false, b"\x00\x01aB\xff");
        // Zero bytes in the word next to a candidate (the SWAR trick's false hits above a true one).
        check("ab", true, b"\x00a\x00b\x01ab".as_slice());
    }

    #[test]
    fn a_line_with_a_kelvin_sign_or_long_s_may_hold_a_query_with_k_or_s() {
        let finder = RawFinder::new("task", false).unwrap();
        assert!(!finder.is_in("ta\u{17F}k".as_bytes()));
        assert!(finder.may_be_in("ta\u{17F}k".as_bytes()));
        assert!(finder.may_be_in("tas\u{212A}".as_bytes()));
        assert!(!RawFinder::new("task", true).unwrap().may_be_in("ta\u{17F}k".as_bytes()));
        assert!(!RawFinder::new("tab", false).unwrap().may_be_in("ta\u{17F}k".as_bytes()));
    }

    #[test]
    fn only_printable_ascii_of_two_bytes_or_more() {
        assert!(RawFinder::new("a", false).is_none());
        assert!(RawFinder::new("é!", false).is_none());
        assert!(RawFinder::new("a\tb", false).is_none());
    }
}
