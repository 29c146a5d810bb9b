//! The transposition table: the keys of every position already expanded, with a memory bound.

use std::hash::Hash;

use rustc_hash::FxHashSet;

use crate::state::Key;

/// The table of positions' keys (`K`: the game's key, fixed-size so that the bound is exact).
pub struct Table<K = Key> {
    keys: FxHashSet<K>,
    max_bytes: usize,
}

/// What inserting a key found.
#[derive(PartialEq, Eq, Debug)]
pub enum Insert {
    New,
    Seen,
    /// The table would outgrow its memory bound.
    Full,
}

impl<K: Hash + Eq> Table<K> {
    /// Bytes one entry costs in the hash set: the key plus a control byte, at the set's worst
    /// load factor (7/8).
    const BYTES_PER_SLOT: usize = std::mem::size_of::<K>() + 1;

    pub fn new(max_bytes: usize) -> Table<K> {
        Table {
            keys: FxHashSet::default(),
            max_bytes,
        }
    }

    /// The bytes the set's storage takes now.
    pub fn bytes(&self) -> usize {
        slots(self.keys.capacity()) * Self::BYTES_PER_SLOT
    }

    pub fn contains(&self, key: &K) -> bool {
        self.keys.contains(key)
    }

    pub fn insert(&mut self, key: K) -> Insert {
        // The table grows here, not inside the set, so that growth is always checked against
        // the bound first (the set may grow a slot before it is full).
        if self.keys.len() + 2 > self.keys.capacity() {
            if self.keys.contains(&key) {
                return Insert::Seen;
            }
            let wanted = (self.keys.capacity() * 2).max(16);
            // Growing moves the entries into new storage while the old storage still lives.
            if self.bytes() + slots(wanted) * Self::BYTES_PER_SLOT > self.max_bytes {
                return Insert::Full;
            }
            self.keys.reserve(wanted - self.keys.len());
        }
        if self.keys.insert(key) {
            Insert::New
        } else {
            Insert::Seen
        }
    }
}

/// Buckets hashbrown allocates for a capacity (a power of two, at most 7/8 full).
fn slots(capacity: usize) -> usize {
    if capacity == 0 {
        0
    } else {
        (capacity * 8 / 7).next_power_of_two()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_bound_holds() {
        let mut t: Table = Table::new(1 << 20);
        let mut n = 0u64;
        while t.insert(Key([n, 0, 0, 0, 0])) == Insert::New {
            n += 1;
        }
        assert!(t.bytes() <= 1 << 20, "{} bytes for {n} keys", t.bytes());
        assert!(n > 5_000, "{n}");
    }
}
