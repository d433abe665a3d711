//! A fast hash for the maps normalize builds (uuids and tool ids, tens of thousands per session).
//!
//! std's SipHash resists hash flooding, which costs a lot per key in wasm32; these maps key on ids
//! from a file the reader chose to open, where the worst a crafted file can do is slow its own
//! loading. This is the Fx hash rustc and Firefox use: a rotate, a xor and a multiply per word.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("chunks of 8")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply carries each input bit only upwards, so the low bits, which hashbrown
        // picks buckets by, see little of the key: ids differing in one late character all
        // landed in the same buckets. The rotation brings the well-mixed high bits down (as
        // rustc-hash 2 does).
        self.0.rotate_left(26)
    }
}

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub(crate) type FxSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn ids_differing_in_their_last_characters_spread_over_low_bits() {
        let build = BuildHasherDefault::<FxHasher>::default();
        let low: HashSet<u64> = (0..1000)
            .map(|i| build.hash_one(format!("a047dbc6-0000-4000-8000-{i:012}").as_bytes()) & 0xffff)
            .collect();
        // Random 16-bit values for 1000 keys collide about 8 times.
        assert!(low.len() > 950, "{} distinct bucket bits of 1000", low.len());
    }
}
