//! What a session's files could hold, in a few bits per byte: the set of three-byte sequences in
//! them (letters in lower case), as a bitset with one bit per hashed sequence. A search across
//! sessions asks it first: a session that lacks any three bytes of the query cannot hold it, and
//! is not read at all. Made while a session is read whole (counting it), so a folder searched
//! after it has been counted reads only the sessions that may hold the query.
//!
//! One hash per sequence (not a Bloom filter's several): a query of `n` bytes asks `n - 2` bits,
//! and all must be set, so even at one bit in ten set a query of 8 bytes lets through one
//! session in a million that does not hold it.

/// The bitset, sized to the files: about one bit per byte, at least 8 kbit, at most 1 Mbit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grams {
    bits: Vec<u64>,
    /// log2 of the number of bits.
    order: u32,
    /// The files spell some text another way than the query would be written (`\u` escapes, the
    /// Kelvin sign and the long s, which a case-insensitive search folds with `k` and `s`): the
    /// bits cannot rule them out.
    unsure: bool,
}

const MIN_ORDER: u32 = 13;
const MAX_ORDER: u32 = 20;

impl Grams {
    /// The grams of whole files.
    pub fn of(files: &[&[u8]]) -> Grams {
        let mut builder = Grams::builder(files.iter().map(|f| f.len()).sum());
        for bytes in files {
            builder.next_file();
            builder.feed(bytes);
        }
        builder.finish()
    }

    /// Grams made as files are read, a slice at a time, for files of `size` bytes in all.
    pub fn builder(size: usize) -> GramsBuilder {
        let order = (size.max(1).next_power_of_two().trailing_zeros()).clamp(MIN_ORDER, MAX_ORDER);
        GramsBuilder {
            grams: Grams { bits: vec![0; 1 << (order - 6)], order, unsure: false },
            window: 0,
            filled: 0,
            seam: [0; 2],
        }
    }

    fn bit(&self, window: u32) -> usize {
        (window.wrapping_mul(0x9E37_79B1) >> (32 - self.order)) as usize
    }

    /// Whether the files may hold `needle` as written (letters in any case); always for a needle
    /// shorter than three bytes.
    pub fn may_hold(&self, needle: &[u8]) -> bool {
        if self.unsure || needle.len() < 3 {
            return true;
        }
        needle.windows(3).all(|w| {
            let window = (u32::from(fold(w[0])) << 16) | (u32::from(fold(w[1])) << 8) | u32::from(fold(w[2]));
            let bit = self.bit(window);
            self.bits[bit >> 6] & (1 << (bit & 63)) != 0
        })
    }

    /// The bytes it takes.
    pub fn size(&self) -> usize {
        self.bits.len() * 8
    }

    /// As bytes, for a worker to hand them to the page: its order, whether it is unsure, then
    /// the bits.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 + self.size());
        out.extend([self.order as u8, u8::from(self.unsure)]);
        out.extend(self.bits.iter().flat_map(|w| w.to_le_bytes()));
        out
    }

    /// Back from [`to_bytes`](Self::to_bytes); `None` for bytes it could not have written.
    pub fn from_bytes(bytes: &[u8]) -> Option<Grams> {
        let (&[order, unsure], bits) = bytes.split_first_chunk::<2>()?;
        let order = u32::from(order);
        if !(MIN_ORDER..=MAX_ORDER).contains(&order) || bits.len() != 1 << (order - 3) {
            return None;
        }
        let bits = bits.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))).collect();
        Some(Grams { bits, order, unsure: unsure != 0 })
    }
}

/// [`Grams`] being made: the last bytes fed are kept, so a sequence cut by a slice's end counts.
pub struct GramsBuilder {
    grams: Grams,
    /// The last three bytes of this file, folded.
    window: u32,
    /// How many bytes of this file are in `window` (up to 3).
    filled: u8,
    /// The last two bytes of this file as they were (for the sequences that make it unsure).
    seam: [u8; 2],
}

/// Sequences that spell text another way than the query would be written (see `unsure`): a
/// `\u` escape, and the Kelvin sign and the long s in UTF-8, which a case-insensitive search
/// folds with `k` and `s`.
const SPELLED_OTHERWISE: [&[u8]; 3] = [b"\\u", &[0xE2, 0x84, 0xAA], &[0xC5, 0xBF]];

impl GramsBuilder {
    /// Starts another file: no sequence runs from one file into the next.
    pub fn next_file(&mut self) {
        self.window = 0;
        self.filled = 0;
        self.seam = [0; 2];
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let grams = &mut self.grams;
        if !grams.unsure {
            // Looked for a slice at a time (memchr's speed, not a check per byte), and across
            // the cut from the bytes fed before.
            let kept = usize::from(self.filled.min(2));
            let mut across = [0; 4];
            across[..kept].copy_from_slice(&self.seam[2 - kept..]);
            let more = bytes.len().min(2);
            across[kept..kept + more].copy_from_slice(&bytes[..more]);
            grams.unsure = SPELLED_OTHERWISE.iter().any(|s| {
                memchr::memmem::find(&across[..kept + more], s).is_some()
                    || memchr::memmem::find(bytes, s).is_some()
            });
        }
        match bytes {
            [.., a, b] => self.seam = [*a, *b],
            [b] => self.seam = [self.seam[1], *b],
            [] => {}
        }
        let mut window = self.window;
        let mut rest = bytes;
        // The first two bytes of a file start its first sequence.
        while self.filled < 2 {
            let Some((&c, after)) = rest.split_first() else { break };
            window = (window << 8) | u32::from(fold(c));
            self.filled += 1;
            rest = after;
        }
        if !rest.is_empty() {
            self.filled = 3;
        }
        for &c in rest {
            window = ((window << 8) | u32::from(fold(c))) & 0xFF_FFFF;
            let bit = grams.bit(window);
            grams.bits[bit >> 6] |= 1 << (bit & 63);
        }
        self.window = window & 0xFF_FFFF;
    }

    pub fn finish(self) -> Grams {
        self.grams
    }
}

fn fold(b: u8) -> u8 {
    b.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grams_go_through_bytes_and_back_unchanged() {
        let grams = Grams::of(&[b"some text \\u00e9", &[b'x'; 100_000]]);
        assert_eq!(Grams::from_bytes(&grams.to_bytes()), Some(grams.clone()));
        let bytes = grams.to_bytes();
        assert_eq!(Grams::from_bytes(&bytes[..bytes.len() - 1]), None);
        assert_eq!(Grams::from_bytes(&[]), None);
        assert_eq!(Grams::from_bytes(&[40, 0]), None);
    }

    #[test]
    fn every_sequence_of_the_files_is_held_and_most_others_are_not() {
        let text = b"fn main() { println!(\"Hello, World\"); }\nsrc/zebra-quartz.rs\n";
        let grams = Grams::of(&[text, b"second file"]);
        for start in 0..text.len() {
            for end in start + 3..=text.len().min(start + 12) {
                assert!(grams.may_hold(&text[start..end]));
            }
        }
        assert!(grams.may_hold(b"HELLO, world"), "letters in any case");
        assert!(grams.may_hold(b"second"));
        assert!(grams.may_hold(b"ab"), "too short to tell");
        assert!(!grams.may_hold(b"zebra-quartz-4471"));
        assert!(!grams.may_hold(b"enumerate"));
        assert!(!grams.may_hold(b"file second"), "across files");
    }

    #[test]
    fn escapes_and_letters_that_fold_beyond_ascii_make_it_unsure() {
        assert!(Grams::of(&[br#"{"text":"caf\u00e9"}"#]).may_hold(b"anything at all"));
        assert!(Grams::of(&["5 \u{212A}".as_bytes()]).may_hold(b"kelvin"));
    }

    #[test]
    fn fed_in_pieces_it_is_the_same_as_fed_whole() {
        let texts: [&[u8]; 3] = [
            b"plain words, cut anywhere: zebra",
            br#"{"t":"caf\u00e9"}"#,
            "5 \u{212A} and \u{17F}".as_bytes(),
        ];
        for text in texts {
            let whole = Grams::of(&[text]);
            for cut in 0..=text.len() {
                let mut builder = Grams::builder(text.len());
                builder.next_file();
                builder.feed(&text[..cut]);
                builder.feed(&text[cut..]);
                assert_eq!(builder.finish(), whole, "cut at {cut}");
            }
            let mut builder = Grams::builder(text.len());
            builder.next_file();
            for byte in text.chunks(1) {
                builder.feed(byte);
            }
            assert_eq!(builder.finish(), whole, "a byte at a time");
        }
    }

    #[test]
    fn it_is_sized_to_the_files() {
        assert_eq!(Grams::of(&[b"tiny"]).size(), 1 << (MIN_ORDER - 3));
        assert_eq!(Grams::of(&[&vec![b'x'; 1 << 19]]).size(), 1 << (19 - 3));
        assert_eq!(Grams::of(&[&vec![b'x'; 1 << 24]]).size(), 1 << (MAX_ORDER - 3));
    }
}
