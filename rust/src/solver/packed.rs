//! The complete pass's table (issue 18, idea 2): keys of `W` 32-bit words, the all-zero key
//! never a key, held in open addressing with no control byte and filled to 9/10.
//!
//! hashbrown's set (`table.rs`) spends a control byte a slot, is between 7/16 and 7/8 full, and
//! holds its old storage and its new one at once while it doubles: 60 to 107 bytes a position
//! with the 40-byte key (docs/proofs.md). Here the all-zero slot is the empty one, and the table
//! is 256 shards chosen by the hash's top byte, each grown on its own: a shard's growth holds
//! the old shard and the new one at once, a 256th of the table, so the whole table can come to
//! nearly all of the memory bound. A shard doubles while the bound would still hold the whole
//! table doubled; past that it grows by a quarter while it can, and the table is full when it
//! cannot.

use super::heap::Memory;
use super::table::Insert;

/// Shards: the hash's top byte picks one.
const SHARD_BITS: u32 = 8;
const SHARDS: usize = 1 << SHARD_BITS;
/// A shard's first size, in slots.
const FIRST_SLOTS: usize = 32;

/// One shard: `slots.len()` slots, `len` of them not empty, linear probing from the slot the
/// hash's lower bits point to, wrapping round.
#[derive(Default)]
struct Shard<const W: usize> {
    slots: Vec<[u32; W]>,
    len: usize,
}

/// The keys of every position expanded, each `W` words and never all zero.
pub struct PackedTable<const W: usize> {
    shards: Vec<Shard<W>>,
    len: usize,
    slots: usize,
    memory: Memory,
}

/// A key's hash: every bit of every word reaches every bit of the hash (wyhash's multiply and
/// fold), since the shard and the slot are both taken from its high bits.
#[inline]
fn hash<const W: usize>(key: &[u32; W]) -> u64 {
    #[inline]
    fn fold(a: u64, b: u64) -> u64 {
        let p = a as u128 * b as u128;
        (p as u64) ^ (p >> 64) as u64
    }
    const SEEDS: [u64; 3] = [
        0xa076_1d64_78bd_642f,
        0xe703_7ed1_a0b4_28db,
        0x8ebc_6af0_9c88_c6e3,
    ];
    let mut h = 0x5899_65cc_7537_4cc3_u64;
    let mut i = 0;
    while i < W {
        let lo = key[i] as u64;
        let hi = if i + 1 < W { key[i + 1] as u64 } else { 0 };
        h = fold(h ^ lo ^ (hi << 32) ^ SEEDS[(i / 2) % 2], SEEDS[2]);
        i += 2;
    }
    fold(h, SEEDS[0] ^ W as u64)
}

/// The slot `hash` starts at in a shard of `n` slots (its bits below the shard's byte, scaled).
#[inline]
fn home(hash: u64, n: usize) -> usize {
    (((hash << SHARD_BITS) as u128 * n as u128) >> 64) as usize
}

/// A hint to the processor to fetch `p`'s cache line (nothing where there is no such hint).
#[inline]
fn prefetch(p: *const u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(p.cast(), _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl<const W: usize> Shard<W> {
    /// Finds `key` or the empty slot where it belongs.
    #[inline]
    fn probe(&self, key: &[u32; W], hash: u64) -> (usize, bool) {
        let n = self.slots.len();
        let mut i = home(hash, n);
        loop {
            let slot = &self.slots[i];
            if slot == key {
                return (i, true);
            }
            if *slot == [0; W] {
                return (i, false);
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// The shard moved into `n` slots.
    fn rehash(&mut self, n: usize) {
        let old = std::mem::replace(&mut self.slots, vec![[0; W]; n]);
        for key in old.into_iter().filter(|k| *k != [0; W]) {
            let (i, _) = self.probe(&key, hash(&key));
            self.slots[i] = key;
        }
    }
}

impl<const W: usize> PackedTable<W> {
    /// Bytes one slot takes.
    const SLOT: usize = 4 * W;

    /// An empty table whose growth `memory` must allow (it counts the table with all else the
    /// search holds). It takes nothing until its first key.
    pub fn new(memory: Memory) -> PackedTable<W> {
        PackedTable {
            shards: Vec::new(),
            len: 0,
            slots: 0,
            memory,
        }
    }

    /// The keys it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes its slots take.
    pub fn bytes(&self) -> usize {
        self.slots * Self::SLOT
    }

    pub fn contains(&self, key: &[u32; W]) -> bool {
        let h = hash(key);
        let shard = &self.shards[(h >> (64 - SHARD_BITS)) as usize];
        !shard.slots.is_empty() && shard.probe(key, h).1
    }

    /// Starts bringing the slot where `key` belongs into the cache.
    #[inline]
    pub fn prefetch(&self, key: &[u32; W]) {
        let h = hash(key);
        if let Some(shard) = self.shards.get((h >> (64 - SHARD_BITS)) as usize) {
            if !shard.slots.is_empty() {
                let slot = &shard.slots[home(h, shard.slots.len())];
                prefetch(slot.as_ptr());
            }
        }
    }

    /// Enters `key` (never all zero).
    #[inline]
    pub fn insert(&mut self, key: &[u32; W]) -> Insert {
        debug_assert!(*key != [0; W], "the all-zero key marks an empty slot");
        if self.shards.is_empty() {
            self.shards.resize_with(SHARDS, Shard::default);
        }
        let h = hash(key);
        let table_bytes = self.bytes();
        let shard = &mut self.shards[(h >> (64 - SHARD_BITS)) as usize];
        let n = shard.slots.len();
        if (shard.len + 1) * 10 > n * 9 {
            if n > 0 && shard.probe(key, h).1 {
                return Insert::Seen;
            }
            // Doubling while the whole table doubled would fit; then by a quarter.
            let grown = if self.memory.allows(table_bytes) {
                (2 * n).max(FIRST_SLOTS)
            } else {
                n + n / 4
            };
            if grown <= n || !self.memory.allows(grown * Self::SLOT) {
                return Insert::Full;
            }
            shard.rehash(grown);
            self.slots += grown - n;
        }
        let (i, seen) = shard.probe(key, h);
        if seen {
            return Insert::Seen;
        }
        shard.slots[i] = *key;
        shard.len += 1;
        self.len += 1;
        Insert::New
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::heap::{peak_since, reset_peak};

    fn key(n: u64) -> [u32; 5] {
        [n as u32, (n >> 32) as u32, 0, 0, 1]
    }

    #[test]
    fn it_finds_what_it_holds_and_nothing_else() {
        let mut t: PackedTable<5> = PackedTable::new(Memory::from_now(1 << 30));
        assert!(t.is_empty());
        for n in 0..100_000 {
            assert_eq!(t.insert(&key(n)), Insert::New);
        }
        for n in 0..100_000 {
            assert_eq!(t.insert(&key(n)), Insert::Seen);
            assert!(t.contains(&key(n)));
            assert!(!t.contains(&key(n + 100_000)));
        }
        assert_eq!(t.len(), 100_000);
        // At most 9/10 full, and after the last doubling at least 9/20 full.
        let per_key = t.bytes() as f64 / t.len() as f64;
        assert!((20.0 / 0.9..=20.0 / 0.45).contains(&per_key), "{per_key}");
    }

    /// Under a bound the table comes close to it (shards grow by a quarter at the end), and
    /// what the search holds never passes it, growth included.
    #[test]
    fn it_fills_its_memory_bound_and_never_passes_it() {
        for max in [1 << 20, 8 << 20, 64 << 20] {
            let memory = Memory::from_now(max);
            reset_peak();
            let mut t: PackedTable<5> = PackedTable::new(memory);
            let mut n = 0;
            while t.insert(&key(n)) == Insert::New {
                n += 1;
            }
            let peak = peak_since(&memory);
            assert!(peak <= max, "peak {peak} over {max}");
            // Nearly all of the bound holds keys, at 20 bytes each: more than 2/3 of what
            // the bound could hold at 9/10 full.
            let ideal = max as f64 * 0.9 / 20.0;
            assert!(n as f64 > 0.66 * ideal, "{n} keys in {max} bytes");
            // Full is final: the key was not entered, and others are still found.
            assert!(!t.contains(&key(n)) && t.contains(&key(n / 2)));
        }
    }

    /// Keys that differ in a few 3-bit fields (as positions a move apart do) spread over the
    /// shards and the slots as random ones would.
    #[test]
    fn the_hash_spreads_near_keys() {
        for bits in [12u32, 16, 20] {
            let buckets = 1usize << bits;
            let mut counts = vec![0u32; buckets];
            for n in 0..4 * buckets as u64 {
                // n's 3-bit fields, each in its own place of the five words.
                let mut k = [0u32, 0, 0, 0, 1 << 31];
                for j in 0..8 {
                    k[j % 5] |= ((n >> (3 * j)) as u32 & 7) << (3 * j);
                }
                let h = hash(&k);
                let b = ((h >> (64 - SHARD_BITS)) as usize) << (bits - SHARD_BITS)
                    | home(h, 1 << (bits - SHARD_BITS));
                counts[b] += 1;
            }
            // Poisson with mean 4: the empty buckets near e^-4 (1.8%), none far above.
            let empty = counts.iter().filter(|&&c| c == 0).count() as f64 / buckets as f64;
            let most = *counts.iter().max().unwrap();
            assert!(
                empty < 0.025 && most < 20,
                "{bits}: {empty} empty, most {most}"
            );
        }
    }
}
