//! The transposition table: the keys of every position already expanded, under the search's
//! memory bound.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::heap::Memory;

/// The table of positions' keys (`K`: the game's key, fixed-size so that its growth is known
/// before it happens), each with a value `V` (none in a plain table; the orbit pass keeps a
/// position beside its orbit's key).
pub struct Table<K, V = ()> {
    keys: FxHashMap<K, V>,
    memory: Memory,
}

/// What inserting a key found.
#[derive(PartialEq, Eq, Debug)]
pub enum Insert {
    New,
    Seen,
    /// Growing the table would take what the search holds past its memory bound.
    Full,
}

impl<K: Hash + Eq> Table<K> {
    /// The keys, the table's storage given back when they are all taken.
    pub fn into_keys(self) -> impl Iterator<Item = K> {
        self.keys.into_keys()
    }

    pub fn insert(&mut self, key: K) -> Insert {
        self.insert_value(key, ())
    }
}

impl<K: Hash + Eq, V> Table<K, V> {
    /// Bytes one entry costs in the hash set: the key and value plus a control byte, at the
    /// set's worst load factor (7/8).
    const BYTES_PER_SLOT: usize = std::mem::size_of::<(K, V)>() + 1;

    /// An empty table whose growth `memory` must allow (it counts the table itself with all
    /// else the search holds).
    pub fn new(memory: Memory) -> Table<K, V> {
        Table {
            keys: FxHashMap::default(),
            memory,
        }
    }

    /// The bytes the set's storage takes now (its slots, each a key and a control byte).
    pub fn bytes(&self) -> usize {
        slots(self.keys.capacity()) * Self::BYTES_PER_SLOT
    }

    /// The keys it holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Forgets every key, keeping the storage.
    pub fn clear(&mut self) {
        self.keys.clear();
    }

    pub fn contains(&self, key: &K) -> bool {
        self.keys.contains_key(key)
    }

    /// The value entered with `key`, if it was.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.keys.get(key)
    }

    /// The value entered with `key`, to change, if it was.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.keys.get_mut(key)
    }

    /// The entries, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.keys.iter()
    }

    /// Enters `key` with `value`, unless it is there already (its value is kept).
    pub fn insert_value(&mut self, key: K, value: V) -> Insert {
        // The table grows here, not inside the set, so that growth is always checked against
        // the bound first (the set may grow a slot before it is full).
        if self.keys.len() + 2 > self.keys.capacity() {
            if self.keys.contains_key(&key) {
                return Insert::Seen;
            }
            let wanted = (self.keys.capacity() * 2).max(16);
            // Growing moves the entries into new storage while the old storage still lives
            // (and is counted in what the search holds already).
            if !self.memory.allows(slots(wanted) * Self::BYTES_PER_SLOT) {
                return Insert::Full;
            }
            self.keys.reserve(wanted - self.keys.len());
        }
        match self.keys.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => Insert::Seen,
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(value);
                Insert::New
            }
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

    use crate::solver::heap::{peak_since, reset_peak};

    #[test]
    fn the_memory_bound_holds_through_the_last_doubling() {
        let memory = Memory::from_now(1 << 20);
        reset_peak();
        let mut t: Table<[u64; 5]> = Table::new(memory);
        let mut n = 0u64;
        while t.insert([n, 0, 0, 0, 0]) == Insert::New {
            n += 1;
        }
        // The last doubling held the old storage and the new at once, within the bound; the
        // next would not have fitted.
        assert!(3 * t.bytes() > 1 << 20, "{} bytes for {n} keys", t.bytes());
        assert!(
            peak_since(&memory) <= 1 << 20,
            "peak {}",
            peak_since(&memory)
        );
        assert!(n > 5_000, "{n}");
        // What else the search holds leaves the table less room.
        drop(t);
        let held = vec![0u8; 1 << 19];
        let mut t: Table<[u64; 5]> = Table::new(memory);
        let mut m = 0u64;
        while t.insert([m, 0, 0, 0, 0]) == Insert::New {
            m += 1;
        }
        assert!(
            memory.used() <= 1 << 20 && m < n,
            "{m} keys beside {}",
            held.len()
        );
    }
}
