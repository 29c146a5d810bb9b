//! The transposition table: the keys of every position already expanded, with a memory bound.

use rustc_hash::FxHashSet;

use crate::state::Key;

/// Bytes one entry costs in the hash set: the key plus a control byte, at the set's worst
/// load factor (7/8).
const BYTES_PER_SLOT: usize = std::mem::size_of::<Key>() + 1;

pub struct Table {
    keys: FxHashSet<Key>,
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

impl Table {
    pub fn new(max_bytes: usize) -> Table {
        Table {
            keys: FxHashSet::default(),
            max_bytes,
        }
    }

    /// The bytes the set's storage takes now.
    pub fn bytes(&self) -> usize {
        slots(self.keys.capacity()) * BYTES_PER_SLOT
    }

    pub fn insert(&mut self, key: Key) -> Insert {
        if self.keys.len() == self.keys.capacity() && !self.keys.contains(&key) {
            // Growing doubles the storage, and the old storage lives until the move is done.
            let grown = slots((self.keys.capacity() * 2).max(4)) * BYTES_PER_SLOT;
            if self.bytes() + grown > self.max_bytes {
                return Insert::Full;
            }
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
