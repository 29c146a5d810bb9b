//! How a castle pass tells positions apart: the `Keys` its walk asks (each position's key, the
//! table of those seen, what is fetched ahead), the quick pass's shapes and the complete
//! pass's exact compact keys.

use super::compact::{Compact, CompactKey};
use super::deal::Deal;
use super::moves::Move;
use super::order::Order;
use super::recent::{Recent, RECENT_SLOTS};
use super::state::{Key, State};
use super::tries::Tries;
use crate::solver::heap::Memory;
use crate::solver::packed::{self, PackedTable};
use crate::solver::table::{Insert, Table};

/// How a pass tells positions apart: each position's key, and the table of those seen.
pub(super) trait Keys {
    type Key: Copy;
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
    /// Whether a position's children are keyed, and their places in the table fetched, all at
    /// once (else each when its move is tried): the complete pass's, whose lookups miss the
    /// cache; not the quick pass's, whose key is read from the position as it is entered.
    fn eager(&self) -> bool {
        false
    }
    /// When eager, the walk holds the children and the keys of its deepest frames, at most
    /// twice this many of each.
    fn held(&self) -> usize {
        0
    }
    /// Starts bringing `key`'s place in the table into the cache (it is looked up soon): the
    /// key's hash, for [`Keys::insert_fetched`]; None where the key is known to be in the
    /// table, and is not fetched.
    fn prefetch(&self, _key: &Self::Key) -> Option<u64> {
        Some(0)
    }
    /// [`Keys::prefetch`] again for a key it gave `hash`: false where the key is known now to
    /// be in the table.
    fn refetch(&self, _key: &Self::Key, _hash: u64) -> bool {
        true
    }
    /// Enters the position keyed `key` in the pass's table. `state` is that position when
    /// it was not keyed eagerly.
    fn insert(&mut self, key: &Self::Key, state: &State) -> Insert;
    /// [`Keys::insert`] for a key fetched by [`Keys::prefetch`], which gave `hash`.
    #[inline]
    fn insert_fetched(&mut self, key: &Self::Key, _hash: u64, state: &State) -> Insert {
        self.insert(key, state)
    }
    /// Whether reaching `key` ends the pass as a win does (a pass towards a position).
    #[inline]
    fn goal(&self, _key: &Self::Key) -> bool {
        false
    }
    /// The positions in the table, and the pass's tries (`tries.rs`): the complete pass
    /// makes them as its table grows.
    #[inline]
    fn tries(&mut self) -> Option<(u64, &mut Tries)> {
        None
    }
    /// The order the walk tries each position's moves in.
    #[inline]
    fn order(&self) -> Order {
        Order::Castle
    }
}

/// The quick pass: positions of the same shape are one (`State::rank_key`), computed from
/// the position itself.
pub(super) struct Shapes(pub(super) Table<Key>);

impl Keys for Shapes {
    type Key = ();
    #[inline]
    fn key(&self, _parent: Option<&()>, _state: &State, _moves: &[Move]) {}
    #[inline]
    fn insert(&mut self, _key: &(), state: &State) -> Insert {
        self.0.insert(state.rank_key())
    }
}

/// The complete pass: the compact exact key (`compact.rs`, 20 bytes), kept move by move, in a
/// table that grows to the bound (`solver::packed`). Each position's children are keyed and
/// their places fetched at once (`eager`): faster than a hash set with its control bytes even
/// on proofs the cache nearly holds (Beleaguered Castle 162; docs/proofs.md). The
/// keys entered or found lately are held apart too (`recent`): most of the walk's lookups are
/// of positions its last few thousand found, and those are not fetched from memory.
pub(super) struct Exact {
    pub(super) compact: Compact,
    pub(super) table: PackedTable<5>,
    pub(super) recent: Recent,
    /// The table is full at this many positions (else at the memory bound only).
    pub(super) most: usize,
    /// A pass towards this position (its key and its facts) enters only the positions that
    /// can lead to it, and ends there (`rebuild`).
    pub(super) toward: Option<(CompactKey, u128)>,
    /// Whether children are keyed eagerly; the tests try the walk without.
    pub(super) eager: bool,
    /// The children and frames' keys the walk holds ([`HELD_CHILDREN`], a 64th of the bound
    /// at most; the tests try fewer).
    pub(super) held: usize,
    /// The tries (never due in a pass towards a position).
    pub(super) tries: Tries,
    /// The order the walk tries each position's moves in (the complete pass's, or the plain
    /// walk's: `plain.rs`).
    pub(super) order: Order,
}

/// The most slots the walk's [`Recent`] has (320 KiB of keys, a core's second-level cache):
/// of the 53.7 million lookups of a 10-million-position proof, it holds about 28 million with
/// 1,024 slots, 35 million with this many, 38 million with 65,536 (docs/proofs.md). It starts with [`RECENT_SLOTS`] and grows to this many at [`RECENT_GROWS_AT`]
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
            toward: None,
            eager: true,
            held: usize::MAX,
            tries: Tries::from(u64::MAX),
            order: Order::Castle,
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
    #[inline]
    fn eager(&self) -> bool {
        self.eager
    }
    fn held(&self) -> usize {
        self.held
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
    fn goal(&self, key: &CompactKey) -> bool {
        self.toward.is_some_and(|(goal, _)| goal == *key)
    }
    #[inline]
    fn tries(&mut self) -> Option<(u64, &mut Tries)> {
        Some((self.len() as u64, &mut self.tries))
    }
    #[inline]
    fn order(&self) -> Order {
        self.order
    }
    #[inline]
    fn insert(&mut self, key: &CompactKey, state: &State) -> Insert {
        self.insert_fetched(key, packed::hash(&key.words()), state)
    }
    #[inline]
    fn insert_fetched(&mut self, key: &CompactKey, hash: u64, _state: &State) -> Insert {
        if let Some((_, facts)) = self.toward {
            // Something done here that the goal has not: it cannot lead there.
            if self.compact.facts(key) & !facts != 0 {
                return Insert::Seen;
            }
        }
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
