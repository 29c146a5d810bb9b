//! How a castle pass tells positions apart: the `Keys` its walk asks (each position's key, the
//! table of those seen, what is fetched ahead), the quick pass's shapes and the complete
//! pass's exact compact keys. What the walk does with them (its order, how many children it
//! holds, a goal, when it hands back control) is the walk's (`walk.rs`).

use super::compact::{Compact, CompactKey};
use super::deal::Deal;
use super::moves::Move;
use super::recent::{Recent, RECENT_SLOTS};
use super::state::{Key, State};
use crate::solver::heap::Memory;
use crate::solver::packed::{self, PackedTable};
use crate::solver::table::{Insert, Table};

/// How a pass tells positions apart: each position's key, and the table of those seen. What
/// differs between the quick pass's shapes, read from the position as it is entered, and the
/// complete pass's compact keys, kept move by move and looked up ahead of time.
pub(super) trait Keys {
    type Key: Copy + PartialEq;
    /// Whether a position's children may be keyed, and their places in the table fetched, all
    /// at once (else each when its move is tried): keys whose `insert` does not read the
    /// position (the complete pass's, whose lookups miss the cache); not the quick pass's,
    /// whose key is read from the position as it is entered.
    const EAGER: bool;
    /// The key of `state`, where only the cards of `moves` lie otherwise than in the position
    /// keyed `parent` (a move and the automatic moves after it, or moves taken back), or the
    /// deal's after `moves` when there is no parent.
    fn key(&self, parent: Option<&Self::Key>, state: &State, moves: &[Move]) -> Self::Key;
    /// The key of the position `m` leads to from `state` (keyed `parent`) without making the
    /// move, where it can be had so (a move no automatic move follows, `Compact::quiet_child`):
    /// only for keys whose `insert` does not read the position.
    #[inline]
    fn quiet_key(&self, _parent: &Self::Key, _state: &State, _m: Move) -> Option<Self::Key> {
        None
    }
    /// Starts bringing `key`'s place in the table into the cache (it is looked up soon): the
    /// key's hash, for [`Keys::insert`]; None where the key is known to be in the table, and
    /// is not fetched.
    fn prefetch(&self, _key: &Self::Key) -> Option<u64> {
        Some(0)
    }
    /// [`Keys::prefetch`] again for a key it gave `hash`: false where the key is known now to
    /// be in the table.
    fn refetch(&self, _key: &Self::Key, _hash: u64) -> bool {
        true
    }
    /// Enters the position keyed `key` (its hash from [`Keys::prefetch`]) in the pass's table.
    /// `state` is that position when it was not keyed eagerly.
    fn insert(&mut self, key: &Self::Key, hash: u64, state: &State) -> Insert;
}

/// The quick pass: positions of the same shape are one (`State::rank_key`), computed from
/// the position itself.
pub(super) struct Shapes(pub(super) Table<Key>);

impl Keys for Shapes {
    type Key = ();
    const EAGER: bool = false;
    #[inline]
    fn key(&self, _parent: Option<&()>, _state: &State, _moves: &[Move]) {}
    #[inline]
    fn insert(&mut self, _key: &(), _hash: u64, state: &State) -> Insert {
        self.0.insert(state.rank_key())
    }
}

/// The complete pass: the compact exact key (`compact.rs`, 20 bytes), kept move by move, in a
/// table that grows to the bound (`solver::packed`). Each position's children are keyed and
/// their places fetched at once (`Keys::EAGER`): faster than a hash set with its control bytes even
/// on proofs the cache nearly holds (Beleaguered Castle 162; the solver's research notes). The
/// keys entered or found lately are held apart too (`recent`): most of the walk's lookups are
/// of positions its last few thousand found, and those are not fetched from memory.
pub(super) struct Exact {
    pub(super) compact: Compact,
    pub(super) table: PackedTable<5>,
    pub(super) recent: Recent,
    /// The table is full at this many positions (else at the memory bound only).
    pub(super) most: usize,
}

/// The most slots the walk's [`Recent`] has (320 KiB of keys, a core's second-level cache):
/// of the 53.7 million lookups of a 10-million-position proof, it holds about 28 million with
/// 1,024 slots, 35 million with this many, 38 million with 65,536 (the solver's research notes). It starts with [`RECENT_SLOTS`] and grows to this many at [`RECENT_GROWS_AT`]
/// positions: clearing 320 KiB was a sixth of the median Citadel deal's time.
const WALK_RECENT_SLOTS: usize = 1 << 14;
const RECENT_GROWS_AT: usize = 1 << 16;

impl Exact {
    /// None if not even its cache of recent keys fits in the bound.
    pub(super) fn new(deal: &Deal, memory: Memory) -> Option<Exact> {
        Some(Exact {
            compact: Compact::new(deal),
            table: PackedTable::new(memory),
            recent: Recent::new(&memory, RECENT_SLOTS)?,
            most: usize::MAX,
        })
    }

    /// The positions entered.
    pub(super) fn len(&self) -> usize {
        self.table.len()
    }

    /// The positions entered, in no order, the table's room given back as they are read.
    pub(super) fn into_keys(self) -> impl Iterator<Item = CompactKey> {
        self.table.drain().map(CompactKey::from_words)
    }
}

impl Keys for Exact {
    type Key = CompactKey;
    const EAGER: bool = true;
    #[inline]
    fn key(&self, parent: Option<&CompactKey>, state: &State, moves: &[Move]) -> CompactKey {
        let parent = parent.copied().unwrap_or_else(|| self.compact.dealt());
        self.compact.child_key(&parent, state, moves).0
    }
    #[inline(always)]
    fn quiet_key(&self, parent: &CompactKey, state: &State, m: Move) -> Option<CompactKey> {
        self.compact
            .quiet_child(parent, state, m)
            .map(|(key, _)| key)
    }
    #[inline(always)]
    fn prefetch(&self, key: &CompactKey) -> Option<u64> {
        let hash = packed::hash(&key.words());
        self.refetch(key, hash).then_some(hash)
    }
    #[inline(always)]
    fn refetch(&self, key: &CompactKey, hash: u64) -> bool {
        if self.recent.holds(key, hash) {
            return false;
        }
        self.table.prefetch(&key.words(), hash);
        true
    }
    #[inline]
    fn insert(&mut self, key: &CompactKey, hash: u64, _state: &State) -> Insert {
        if self.table.len() >= self.most {
            return if self.table.contains(&key.words(), hash) {
                Insert::Seen
            } else {
                Insert::Full
            };
        }
        let entered = self.table.insert(&key.words(), hash);
        if entered != Insert::Full {
            self.recent.note_hashed(*key, hash);
        }
        if entered == Insert::New && self.table.len() == RECENT_GROWS_AT {
            // (A cache that forgets everything says nothing wrong.)
            if let Some(larger) = Recent::new(&self.table.memory(), WALK_RECENT_SLOTS) {
                self.recent = larger;
            }
        }
        entered
    }
}
