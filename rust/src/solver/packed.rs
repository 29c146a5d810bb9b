//! The complete pass's table: keys of `W` 32-bit words, the all-zero key
//! never a key, held in open addressing with no control byte, filled to 9/10 near the memory
//! bound.
//!
//! hashbrown's set (`table.rs`) spends a control byte a slot, is between 7/16 and 7/8 full, and
//! holds its old storage and its new one at once while it doubles: 60 to 107 bytes a position
//! with the 40-byte key (the solver's research notes). Here the all-zero slot is the empty one. A table of
//! more than [`SPLIT_BYTES`] is 256 shards chosen by the hash's top byte, each grown on its
//! own: a shard's growth holds the old shard and the new one at once, a 256th of the table, so
//! the whole table can come to nearly all of the memory bound. A table starts as one shard
//! and splits into 16, then 256, as its shards pass [`SPLIT_BYTES`]: so every shard of a large
//! table is at least 8 MiB, mapped from the system apart and given back whole when it moves
//! (smaller blocks, freed into the C heap, stayed resident: 1.1 times the bound). A shard
//! doubles at 5/8 full (short probes) while the bound would still hold the whole table
//! doubled; past that it fills to 9/10 and grows by a quarter while it can, and the table is
//! full when it cannot.

use super::heap::Memory;
use super::table::Insert;

/// A large table's shards: its hash's top byte picks one.
const SHARD_BITS: u32 = 8;
/// A table's shards split into this many times as many at once (0 bits, 4, then 8).
const SPLIT_BITS: u32 = 4;
/// A shard of fewer than [`SHARD_BITS`] bits splits when it would pass this: so a table of
/// 10 million positions is 16 shards of 20 MB, large enough for huge pages (`heap.rs`), where
/// 256 of 1-2 MB would get none.
const SPLIT_BYTES: usize = 64 << 20;
/// A shard's first size, in slots.
const FIRST_SLOTS: usize = 32;

/// One shard: `slots.len()` slots, `len` of them not empty, linear probing from the slot the
/// hash's bits below the shard's point to, wrapping round.
#[derive(Default)]
struct Shard<const W: usize> {
    slots: Vec<[u32; W]>,
    len: usize,
}

/// The keys of every position expanded, each `W` words and never all zero.
pub struct PackedTable<const W: usize> {
    /// `1 << bits` of them.
    shards: Vec<Shard<W>>,
    /// The hash's top bits that pick a shard: 0, [`SPLIT_BITS`], ... up to [`SHARD_BITS`].
    bits: u32,
    len: usize,
    slots: usize,
    memory: Memory,
}

/// A key's hash: every bit of every word reaches every bit of the hash (wyhash's multiply and
/// fold), since the shard and the slot are both taken from its high bits.
#[inline]
pub fn hash<const W: usize>(key: &[u32; W]) -> u64 {
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
    // Four words at a time, two 64-bit halves multiplied together; the last words alone.
    let word = |i: usize| key.get(i).map_or(0, |&w| w as u64);
    let mut h = 0x5899_65cc_7537_4cc3_u64;
    let mut i = 0;
    while i + 2 < W {
        let a = word(i) | word(i + 1) << 32;
        let b = word(i + 2) | word(i + 3) << 32;
        h = fold(a ^ h ^ SEEDS[0], b ^ SEEDS[1]);
        i += 4;
    }
    let rest = word(i) | word(i + 1) << 32;
    fold(rest ^ h ^ SEEDS[2], SEEDS[1] ^ W as u64)
}

/// The shard `hash` falls in, of `1 << bits`.
#[inline]
fn shard_of(hash: u64, bits: u32) -> usize {
    hash.checked_shr(64 - bits).unwrap_or(0) as usize
}

/// The slot `hash` starts at in a shard of `n` slots (its bits below the shard's, scaled).
#[inline]
fn home(hash: u64, bits: u32, n: usize) -> usize {
    (((hash << bits) as u128 * n as u128) >> 64) as usize
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
    /// An empty shard of `n` slots.
    fn with_slots(n: usize) -> Shard<W> {
        Shard {
            slots: vec![[0; W]; n],
            len: 0,
        }
    }

    /// Finds `key` or the empty slot where it belongs (the shard has slots).
    #[inline]
    fn probe(&self, key: &[u32; W], hash: u64, bits: u32) -> (usize, bool) {
        let n = self.slots.len();
        let mut i = home(hash, bits, n);
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

    /// Enters `key`, known not to be here, making room if the shard is 9/10 full (a shard
    /// just split off may, very rarely, get more than its share): the slots it added.
    #[inline]
    fn put(&mut self, key: [u32; W], hash: u64, bits: u32) -> usize {
        let mut added = 0;
        if (self.len + 1) * 10 > self.slots.len() * 9 {
            let before = self.slots.len();
            let keys: Vec<_> = self.take().collect();
            self.slots = vec![[0; W]; 2 * keys.len() + FIRST_SLOTS];
            added = self.slots.len() - before;
            for k in keys {
                added += self.put(k, self::hash(&k), bits);
            }
        }
        let (i, _) = self.probe(&key, hash, bits);
        self.slots[i] = key;
        self.len += 1;
        added
    }

    /// Enters `key`, known not to be here, in a shard with room for it (one just grown): the
    /// first empty slot from its home, with no key compared and no check of how full it is.
    #[inline(always)]
    fn place(&mut self, key: [u32; W], hash: u64, bits: u32) {
        let n = self.slots.len();
        let mut i = home(hash, bits, n);
        while self.slots[i] != [0; W] {
            i += 1;
            if i == n {
                i = 0;
            }
        }
        self.slots[i] = key;
        self.len += 1;
    }

    /// The keys it holds, its storage given back.
    fn take(&mut self) -> impl Iterator<Item = [u32; W]> {
        self.len = 0;
        std::mem::take(&mut self.slots)
            .into_iter()
            .filter(|k| *k != [0; W])
    }
}

impl<const W: usize> PackedTable<W> {
    /// Bytes one slot takes.
    const SLOT: usize = 4 * W;

    /// An empty table whose growth `memory` must allow (it counts the table with all else the
    /// search holds). It takes nothing until its first key.
    pub fn new(memory: Memory) -> PackedTable<W> {
        PackedTable {
            shards: vec![Shard::default()],
            bits: 0,
            len: 0,
            slots: 0,
            memory,
        }
    }

    /// Its keys, in no order, each shard's storage given back as soon as its keys are read
    /// (so that what they are moved to can take the room).
    pub fn drain(self) -> impl Iterator<Item = [u32; W]> {
        self.shards.into_iter().flat_map(|mut shard| shard.take())
    }

    /// The keys it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bound it grows under.
    pub fn memory(&self) -> Memory {
        self.memory
    }

    /// The bytes its slots take.
    pub fn bytes(&self) -> usize {
        self.slots * Self::SLOT
    }

    /// Whether it holds `key`, whose [`hash`] is `h`.
    pub fn contains(&self, key: &[u32; W], h: u64) -> bool {
        let shard = &self.shards[shard_of(h, self.bits)];
        !shard.slots.is_empty() && shard.probe(key, h, self.bits).1
    }

    /// Starts bringing the slot where `key` belongs into the cache, and the two cache lines
    /// after it: a probe runs on past its first slot, often into the next lines (fetching them
    /// too made a 10-million-position search 0.87-0.90 of the time with one line more, and
    /// 0.92-0.97 of that with the second; the solver's research notes). `h` is its [`hash`].
    #[inline]
    pub fn prefetch(&self, key: &[u32; W], h: u64) {
        debug_assert_eq!(h, hash(key));
        let shard = &self.shards[shard_of(h, self.bits)];
        if !shard.slots.is_empty() {
            let slot = shard.slots[home(h, self.bits, shard.slots.len())].as_ptr();
            // (Past the shard's end only a hint is lost: a prefetch never faults.)
            for line in 0..3 {
                prefetch(slot.wrapping_add(16 * line));
            }
        }
    }

    /// Enters `key` (never all zero), whose [`hash`] is `h` (the caller's, so that a key
    /// fetched first is hashed once).
    #[inline]
    pub fn insert(&mut self, key: &[u32; W], h: u64) -> Insert {
        debug_assert!(*key != [0; W], "the all-zero key marks an empty slot");
        debug_assert_eq!(h, hash(key));
        let bits = self.bits;
        let s = shard_of(h, bits);
        let (n, len) = (self.shards[s].slots.len(), self.shards[s].len);
        // Past 5/8 full, a shard doubles while the whole table doubled would fit in the bound
        // (short probes: at 3/4, a search of 10 million positions took 1.04 times the CPU,
        // the solver's research notes); past that, it fills to 9/10, then grows by a quarter.
        if (len + 1) * 8 > n * 5 {
            let roomy = self.memory.allows(self.bytes());
            if roomy || (len + 1) * 10 > n * 9 {
                if n > 0 && self.shards[s].probe(key, h, bits).1 {
                    return Insert::Seen;
                }
                let grown = if roomy {
                    (2 * n).max(FIRST_SLOTS)
                } else {
                    n + n / 4
                };
                if grown <= n || !self.memory.allows(grown * Self::SLOT) {
                    return Insert::Full;
                }
                if roomy && bits < SHARD_BITS && grown * Self::SLOT > SPLIT_BYTES {
                    self.split();
                    return self.insert(key, h);
                }
                self.grow(s, grown);
            }
        }
        let shard = &mut self.shards[s];
        let (i, seen) = shard.probe(key, h, bits);
        if seen {
            return Insert::Seen;
        }
        shard.slots[i] = *key;
        shard.len += 1;
        self.len += 1;
        Insert::New
    }

    /// Shard `s` moved into `n` slots (more than its keys).
    fn grow(&mut self, s: usize, n: usize) {
        let bits = self.bits;
        let shard = &mut self.shards[s];
        debug_assert!(shard.len < n);
        self.slots += n - shard.slots.len();
        let mut old = std::mem::replace(shard, Shard::with_slots(n));
        for key in old.take() {
            shard.place(key, hash(&key), bits);
        }
    }

    /// Every shard split into `1 << SPLIT_BITS`, twice its slots in all, one at a time: the
    /// keys of a shard go to its own new shards (the hash's next bits pick one), and its
    /// storage is given back before the next moves (the bound allows the table doubled).
    fn split(&mut self) {
        let bits = self.bits + SPLIT_BITS;
        let old = std::mem::take(&mut self.shards);
        self.shards.reserve_exact(old.len() << SPLIT_BITS);
        for mut shard in old {
            let each = ((2 * shard.slots.len()) >> SPLIT_BITS).max(FIRST_SLOTS);
            for _ in 0..1 << SPLIT_BITS {
                self.shards.push(Shard::with_slots(each));
            }
            self.slots += (each << SPLIT_BITS) - shard.slots.len();
            for key in shard.take() {
                let h = hash(&key);
                let into = &mut self.shards[shard_of(h, bits)];
                if (into.len + 1) * 10 <= into.slots.len() * 9 {
                    into.place(key, h, bits);
                } else {
                    self.slots += into.put(key, h, bits);
                }
            }
        }
        self.bits = bits;
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
            assert_eq!(t.insert(&key(n), hash(&key(n))), Insert::New);
        }
        for n in 0..100_000 {
            assert_eq!(t.insert(&key(n), hash(&key(n))), Insert::Seen);
            assert!(t.contains(&key(n), hash(&key(n))));
            assert!(!t.contains(&key(n + 100_000), hash(&key(n + 100_000))));
        }
        assert_eq!(t.len(), 100_000);
        // Far from the bound: at most 5/8 full, and after the last doubling at least 5/16.
        let per_key = t.bytes() as f64 / t.len() as f64;
        assert!(
            (20.0 / 0.625..=20.0 / 0.3125).contains(&per_key),
            "{per_key}"
        );
    }

    /// Under a bound the table comes close to it (shards grow by a quarter at the end), and
    /// what the search holds never passes it, growth and splits included.
    #[test]
    fn it_fills_its_memory_bound_and_never_passes_it() {
        // Small tables are one shard, whose growth holds old and new storage at once; large
        // ones come to nearly all of the bound.
        for (max, share) in [
            (1 << 20, 0.3),
            (8 << 20, 0.3),
            (64 << 20, 0.6),
            (256 << 20, 0.66),
        ] {
            let memory = Memory::from_now(max);
            reset_peak();
            let mut t: PackedTable<5> = PackedTable::new(memory);
            let mut n = 0;
            while t.insert(&key(n), hash(&key(n))) == Insert::New {
                n += 1;
            }
            let peak = peak_since(&memory);
            assert!(peak <= max, "peak {peak} over {max}");
            // Keys, at 20 bytes each, against what the bound could hold at 9/10 full.
            let ideal = max as f64 * 0.9 / 20.0;
            assert!(n as f64 > share * ideal, "{n} keys in {max} bytes");
            // Full is final: the key was not entered, and others are still found.
            assert!(
                !t.contains(&key(n), hash(&key(n))) && t.contains(&key(n / 2), hash(&key(n / 2)))
            );
            for k in (0..n).step_by(997) {
                assert!(t.contains(&key(k), hash(&key(k))), "{k} of {n}");
            }
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
                let b = shard_of(h, SHARD_BITS) << (bits - SHARD_BITS)
                    | home(h, SHARD_BITS, 1 << (bits - SHARD_BITS));
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
