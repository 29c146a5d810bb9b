//! The keys a search noted lately: a small cache of compact keys, direct-mapped by hash, that
//! both castle passes consult before their larger stores (the depth-first walk's table, the
//! layers' runs).

use super::compact::CompactKey;
use crate::solver::heap::Memory;
use crate::solver::packed::hash;

/// The keys noted lately, one a slot by hash (a direct-mapped cache small enough for a core's
/// first- or second-level cache). What it says is never wrong, only forgetful: a key it holds
/// was noted since it was last cleared.
///
/// In the layers, a key pushed into a run again soon after is not appended again: the run
/// would sort it away. A third to a half of the pushes into a level are such repeats (a child
/// shared by positions expanded one after another, or the position just expanded), and
/// sorting was half of their time. In the depth-first walk, a child it holds is in the table
/// already, and is not fetched from memory: two thirds of the walk's lookups are such.
pub struct Recent {
    slots: Vec<CompactKey>,
    /// The hash's top bits pick the slot.
    shift: u32,
}

/// The most slots the layers' [`Recent`] has (20 KiB of keys): with 16 times as many it found
/// a few more repeats but missed the cache itself (the solver's research notes).
pub const RECENT_SLOTS: usize = 1 << 10;

impl Recent {
    /// As many slots as fit a 64th of the memory bound, at most `most`; None if even one does
    /// not.
    pub fn new(memory: &Memory, most: usize) -> Option<Recent> {
        let room = memory.max / 64 / std::mem::size_of::<CompactKey>();
        let n = 1 << most.min(room).max(1).ilog2();
        let mut slots = Vec::new();
        if !memory.reserve(&mut slots, n) {
            return None;
        }
        slots.resize(n, CompactKey::NONE);
        Some(Recent {
            slots,
            shift: 64 - n.trailing_zeros(),
        })
    }

    /// Forgets every key.
    pub fn clear(&mut self) {
        self.slots.fill(CompactKey::NONE);
    }

    /// The slot of a key whose hash is `hash`.
    #[inline]
    fn slot_of(&self, hash: u64) -> usize {
        hash.checked_shr(self.shift).unwrap_or(0) as usize
    }

    #[inline]
    fn slot(&self, key: &CompactKey) -> usize {
        self.slot_of(hash(&key.words()))
    }

    /// Notes `key`.
    #[inline]
    pub fn note(&mut self, key: CompactKey) {
        let i = self.slot(&key);
        self.slots[i] = key;
    }

    /// Notes `key`, whose hash is `hash`.
    #[inline]
    pub fn note_hashed(&mut self, key: CompactKey, hash: u64) {
        let i = self.slot_of(hash);
        self.slots[i] = key;
    }

    /// Whether `key`, whose hash is `hash`, was noted since the last clear (and is still held).
    #[inline]
    pub fn holds(&self, key: &CompactKey, hash: u64) -> bool {
        self.slots[self.slot_of(hash)] == *key
    }

    /// Whether `key` was noted since the last clear (and is still held); notes it if not.
    #[inline]
    pub fn noted(&mut self, key: CompactKey) -> bool {
        let i = self.slot(&key);
        if self.slots[i] == key {
            return true;
        }
        self.slots[i] = key;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A key is called noted only if it was noted since the last clear, and the key just noted
    /// always is; its slots take at most a 64th of the bound, and a bound too small for one is
    /// none.
    #[test]
    fn recent_keys_are_forgotten_never_invented() {
        let mut seed = 7u64;
        let mut random = |below: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32 % below
        };
        let key = |n: u32| CompactKey::from_words([n, n.rotate_left(7), 0, 0, 1 << 31]);
        let mut recent = Recent::new(&Memory::from_now(1 << 30), RECENT_SLOTS).unwrap();
        assert_eq!(recent.slots.len(), RECENT_SLOTS);
        let mut noted = BTreeSet::new();
        let mut hits = 0;
        for i in 0..200_000 {
            if i % 50_000 == 0 {
                recent.clear();
                noted.clear();
            }
            let k = key(random(3_000));
            let said = recent.noted(k);
            assert!(!said || noted.contains(&k), "{k:?} was never noted");
            hits += said as u32;
            noted.insert(k);
            let other = key(random(3_000));
            let held = recent.holds(&other, hash(&other.words()));
            assert!(!held || noted.contains(&other), "{other:?} was never noted");
            assert!(recent.noted(k));
            assert!(recent.holds(&k, hash(&k.words())));
            if i % 2 == 0 {
                let fresh = key(3_000 + random(3_000));
                recent.note_hashed(fresh, hash(&fresh.words()));
                assert!(recent.holds(&fresh, hash(&fresh.words())));
                noted.insert(fresh);
            }
        }
        assert!(hits > 0);
        for bound in [64 << 10, 1 << 20] {
            let recent = Recent::new(&Memory::from_now(bound), RECENT_SLOTS).unwrap();
            assert!(
                recent.slots.len() * CompactKey::BYTES <= bound / 64,
                "{bound}"
            );
        }
        assert!(Recent::new(&Memory::from_now(10), RECENT_SLOTS).is_none());
    }
}
