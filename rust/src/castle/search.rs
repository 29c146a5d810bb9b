//! The depth-first search. Complete: every position reachable from the deal is expanded at most
//! once (the table remembers it), so a search that runs out of moves has proved there is no win.

use std::time::Instant;

use super::beam::{beam_pass, shortest_beam};
use super::compact::{Compact, CompactKey};
use super::deal::Deal;
use super::layers::{layered, Layered, Layers, Overflow};
use super::moves::{
    apply, generate, play, play_automatic, play_quiet, replays_to_win, undo, unwind, Move,
    MOST_MOVES,
};
use super::orbits::{orbit_pass, Orbital, ORBITS_AFTER};
use super::order::{order_by, ColumnFacts};
use super::recent::{Recent, RECENT_SLOTS};
use super::shorten::{shorten, shorten_bytes};
use super::state::{Key, State};
use crate::solver::budget::{Budget, Deadline, End, Limits, Start, Watch};
use crate::solver::disk::Spill;
use crate::solver::heap::Memory;
use crate::solver::packed::{self, PackedTable};
use crate::solver::table::{Insert, Table};
use crate::solver::{Outcome, Stop};

/// The search runs in three passes over the same deal; the first two look for a win only.
///
/// The quick pass gives up completeness for speed: its table treats positions that differ only
/// in suits as one, so it never looks at a second position of the same shape. Most deals that
/// a plain search wanders in for millions of positions it wins in thousands. A win it finds is
/// a real win (its moves are legal moves from the deal); running out of moves there proves
/// nothing. It may expand [`QUICK_STATES`] positions. The beam pass (`beam.rs`) may then
/// expand [`BEAM_STATES`] more: beam searches, guided by how near a win each position looks,
/// win some deals that depth-first order wanders in for good. The complete pass then searches
/// with exact keys, going on in layers (`layers.rs`) if its table fills the memory bound; its
/// "no" is a proof.
///
/// Each pass ends at a fixed count of expansions of the whole solve, or at the caller's
/// `max_states`, whichever comes first; so a solve under `max_states` is the unlimited solve
/// cut off after that many expansions, and any budget at least the states an unlimited solve
/// reports gives the same answer (the same states, the same moves).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Pass {
    Quick,
    Complete,
}

/// Expansions the quick pass may use (fewer if the caller's `max_states` ends the solve first).
pub const QUICK_STATES: u64 = 1_000_000;
/// Expansions the beam pass may use after the quick pass (the same proviso).
pub const BEAM_STATES: u64 = QUICK_STATES / 10;

/// A position on the search stack, in two bytes (a proof may be hundreds of millions deep):
/// `untried` of its moves are still to try, the last `untried` of the walk's `moves` (packed,
/// `Move::pack`) while it is the deepest frame (tried last first, popped as they are); `step`
/// moves (a move and the automatic moves after it, at most [`MOST_MOVES`]) led to it from its
/// parent.
struct Frame {
    untried: u8,
    step: u8,
}

/// Where a depth-first walk stopped when its table was full: its stack (the path to the
/// deepest frame's position and on, each frame, each frame's untried moves), and the position
/// it had reached but not expanded (entered in the table or not).
struct Stopped<K> {
    path: Vec<Move>,
    frames: Vec<Frame>,
    moves: Vec<u16>,
    pending: K,
}

/// What a move leads to (the move and the automatic moves after it): the position's key, and
/// whether it is won.
#[derive(Copy, Clone)]
struct Child<K> {
    key: K,
    won: bool,
    /// Keyed without making its move (`Keys::quiet_key`): no automatic move follows it.
    quiet: bool,
    /// The key's hash, from when its place in the table was fetched (`Keys::prefetch`); None
    /// if it was known to be in the table then.
    hash: Option<u64>,
}

/// The walk holds the children and the keys of its deepest frames, up to twice this many of
/// each (a 64th of the memory bound at most), so that a position returned to need not key
/// itself or its untried moves' children again (docs/proofs.md).
const HELD_CHILDREN: usize = 1 << 14;

/// The move that takes back `m` (none for a move to a foundation).
fn reverse(m: Move) -> Option<Move> {
    (!m.to_foundation()).then_some(Move {
        card: m.card,
        from: m.to,
        to: m.from,
    })
}

/// Decides `deal`: the quick pass, the beam pass, then (unless one won) the complete pass; with
/// `short`, then beam searches for a shorter win while the limits allow. `interrupted` is asked
/// now and then whether to give up.
pub fn solve(
    deal: &Deal,
    limits: &Limits,
    short: bool,
    overflow: &Overflow,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<Move> {
    let start = Start::now();
    let started = start.wall;
    let memory = Memory::from_now(limits.max_memory);
    let mut watch = Watch::new(started, interrupted);
    let deadline = |fraction: f64| Deadline::after(limits, &start, fraction);
    let mut expanded = 0;
    // A pass ends when the solve has expanded `states`, or at the caller's state limit: the
    // same rule whatever the limit, so a limit only ever cuts the unlimited solve short.
    let until = |states: u64| states.min(limits.max_states.unwrap_or(u64::MAX));
    let budget = Budget {
        max_states: Some(until(QUICK_STATES)),
        deadline: deadline(0.1),
        memory,
    };
    let no_overflow = Overflow::default();
    let mut end = search(
        deal,
        Pass::Quick,
        &budget,
        &no_overflow,
        &mut expanded,
        &mut watch,
    );
    let mut ends = vec![expanded];
    // The beam pass (and its time up to a fifth of the limit). Enough for the deals it wins;
    // on the deals it cannot win, small beside the proof (a quarter of the quick pass's
    // states doubled the 99th percentile of Beleaguered Castle 1-2000).
    if !matches!(end, End::Won(_) | End::Limit(Stop::Interrupted)) {
        let budget = Budget {
            max_states: Some(until(expanded + BEAM_STATES)),
            deadline: deadline(0.2),
            memory,
        };
        end = beam_pass(deal, &budget, &mut expanded, &mut watch);
        ends.push(expanded);
    }
    // The whole budget: the complete pass's, and the short mode's after it.
    let budget = Budget {
        max_states: limits.max_states,
        deadline: deadline(1.0),
        memory,
    };
    if !matches!(end, End::Won(_) | End::Limit(Stop::Interrupted)) {
        end = search(
            deal,
            Pass::Complete,
            &budget,
            overflow,
            &mut expanded,
            &mut watch,
        );
        ends.push(expanded);
    }
    if let End::Won(path) = end {
        // Shortened if that fits in the bound too, else the win as found.
        let mut moves = if memory.allows(shorten_bytes(path.len())) {
            shorten(deal, &path)
        } else {
            path
        };
        if short {
            moves = shortest_beam(deal, moves, &budget, &mut expanded, &mut watch);
        }
        end = End::Won(moves);
    }
    Outcome::from_end(
        end,
        |moves| replays_to_win(deal, moves),
        expanded,
        started,
        ends,
    )
}

/// The complete pass alone, from the deal, its table full at `overflow.layers_after` positions
/// or `max_memory` bytes (the tests compare it with the reference's, and with itself on disk):
/// how it ended, and its expansions.
pub fn complete_pass(
    deal: &Deal,
    max_states: Option<u64>,
    max_memory: usize,
    overflow: &Overflow,
    interrupted: &mut dyn FnMut() -> bool,
) -> (End<Move>, u64) {
    let mut watch = Watch::new(Instant::now(), interrupted);
    let budget = Budget {
        max_states,
        deadline: Deadline::NONE,
        memory: Memory::from_now(max_memory),
    };
    let mut expanded = 0;
    let end = search(
        deal,
        Pass::Complete,
        &budget,
        overflow,
        &mut expanded,
        &mut watch,
    );
    (end, expanded)
}

/// How a pass tells positions apart: each position's key, and the table of those seen.
trait Keys {
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
    /// The orbit pass's bound of expansions, when it is due now (`orbits.rs`): the complete
    /// pass tries it as its table grows.
    #[inline]
    fn orbits_due(&mut self) -> Option<u64> {
        None
    }
}

/// The quick pass: positions of the same shape are one (`State::rank_key`), computed from
/// the position itself.
struct Shapes(Table<Key>);

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
struct Exact {
    compact: Compact,
    table: PackedTable<5>,
    recent: Recent,
    /// The table is full at this many positions (else at the memory bound only).
    most: usize,
    /// A pass towards this position (its key and its facts) enters only the positions that
    /// can lead to it, and ends there (`rebuild`).
    toward: Option<(CompactKey, u128)>,
    /// Whether children are keyed eagerly; the tests try the walk without.
    eager: bool,
    /// The children and frames' keys the walk holds ([`HELD_CHILDREN`], a 64th of the bound
    /// at most; the tests try fewer).
    held: usize,
    /// The orbit pass is due when the table holds this many positions (never, in a pass
    /// towards a position).
    orbits_at: u64,
}

/// The orbit pass may expand a position for every this many in the complete pass's table:
/// with its next try at four times the table, all its tries take at most a third of the
/// table's count of expansions (an orbit expansion costs several depth-first ones, so a win
/// found late costs 1.4-1.6 times as much; docs/proofs.md).
const ORBIT_SHARE: u64 = 4;

/// The most slots the walk's [`Recent`] has (320 KiB of keys, a core's second-level cache):
/// of the 53.7 million lookups of a 10-million-position proof, it holds about 28 million with
/// 1,024 slots, 35 million with this many, 38 million with 65,536 (docs/proofs.md, session
/// 14). It starts with [`RECENT_SLOTS`] and grows to this many at [`RECENT_GROWS_AT`]
/// positions: clearing 320 KiB was a sixth of the median Citadel deal's time.
const WALK_RECENT_SLOTS: usize = 1 << 14;
const RECENT_GROWS_AT: usize = 1 << 16;

impl Exact {
    /// None if not even its cache of recent keys fits in the bound.
    fn new(deal: &Deal, memory: Memory) -> Option<Exact> {
        Some(Exact {
            compact: Compact::new(deal),
            table: PackedTable::new(memory),
            recent: Recent::new(&memory, RECENT_SLOTS)?,
            most: usize::MAX,
            toward: None,
            eager: true,
            held: HELD_CHILDREN
                .min(memory.max / 128 / std::mem::size_of::<(Child<CompactKey>, CompactKey)>()),
            orbits_at: u64::MAX,
        })
    }

    /// The positions entered.
    fn len(&self) -> usize {
        self.table.len()
    }

    /// The positions entered, in no order, the table's room given back as they are read.
    fn into_keys(self) -> impl Iterator<Item = CompactKey> {
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
    #[inline]
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
    #[inline]
    fn prefetch(&self, key: &CompactKey) -> Option<u64> {
        let hash = packed::hash(&key.words());
        self.refetch(key, hash).then_some(hash)
    }
    #[inline]
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
    fn orbits_due(&mut self) -> Option<u64> {
        let len = self.len() as u64;
        if len < self.orbits_at {
            return None;
        }
        self.orbits_at = self.orbits_at.saturating_mul(4);
        Some(len / ORBIT_SHARE)
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

/// One depth-first pass. Every new position reached is entered in the table and expanded
/// once; `expanded` counts expansions over all passes.
///
/// The complete pass goes on in layers (`layers.rs`) when its table is full: at the memory
/// bound, or at `overflow.layers_after` positions (the tests'). The layered pass goes on from
/// where the walk stopped ([`go_on_in_layers`]) when there is room to keep the table's
/// positions (a spill directory, or a quarter of the bound); else it starts again from the
/// deal, its table given back, and costs at most what the depth-first pass had spent. A win
/// it finds is a position next to a win; the line to it is [`rebuild`]'s.
fn search(
    deal: &Deal,
    pass: Pass,
    budget: &Budget,
    overflow: &Overflow,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    match pass {
        Pass::Quick => {
            let mut shapes = Shapes(Table::new(budget.memory));
            walk(deal, budget, expanded, watch, &mut shapes, &mut None)
        }
        Pass::Complete => {
            let Some(mut exact) = Exact::new(deal, budget.memory) else {
                return End::Limit(Stop::Memory);
            };
            exact.most = overflow.layers_after.map_or(usize::MAX, |n| n as usize);
            exact.orbits_at = overflow.orbits_after.unwrap_or(ORBITS_AFTER);
            let mut stopped = None;
            let end = walk(deal, budget, expanded, watch, &mut exact, &mut stopped);
            if end != End::Limit(Stop::Memory) {
                return end;
            }
            let spill = overflow.spill.as_ref();
            // Its positions are kept (as the layers' V) where there is room: on disk, or in a
            // quarter of the bound. Else the layers start again from the deal.
            let keep = spill.is_some() || exact.len() * CompactKey::BYTES <= budget.memory.max / 4;
            // (The stack not kept is given back here too: the layers need its room.)
            let found = match stopped.filter(|_| keep) {
                Some(stopped) => {
                    go_on_in_layers(deal, exact, stopped, budget, spill, expanded, watch)
                }
                None => {
                    drop(exact);
                    layered(deal, budget, spill, expanded, watch)
                }
            };
            match found {
                Layered::Won(next_to_win) => rebuild(deal, next_to_win, budget, expanded, watch),
                Layered::Exhausted => End::Exhausted,
                Layered::Limit(why) => End::Limit(why),
            }
        }
    }
}

/// The layered pass from where the depth-first walk stopped (`layers.rs`, [`Layers`]): the
/// positions of its table are expanded already, and the positions its untried moves lead to
/// (and the one it stopped at) are the seeds. The table's room is given back as its keys
/// move, first of all; then the stack is replayed from the deal to find the seeds, each
/// frame's untried moves in the order it would have tried them (one that wins ends it there,
/// as in the layers).
fn go_on_in_layers(
    deal: &Deal,
    exact: Exact,
    stopped: Stopped<CompactKey>,
    budget: &Budget,
    spill: Option<&Spill>,
    expanded: &mut u64,
    watch: &mut Watch,
) -> Layered {
    let go_on = |expanded: &mut u64, watch: &mut Watch| {
        let mut layers = Layers::new(deal, budget, spill)?;
        let pending = stopped.pending;
        layers.visited(exact.into_keys().filter(|k| *k != pending), watch)?;
        let compact = Compact::new(deal);
        let Stopped {
            path,
            frames,
            moves,
            ..
        } = stopped;
        let mut state = State::from_deal(deal);
        let mut line = Vec::new();
        play_automatic(&mut state, &mut line);
        let mut at = line.len();
        debug_assert_eq!(line[..], path[..at]);
        let mut key = compact.child_key(&compact.dealt(), &state, &line).0;
        let mut untried = moves.as_slice();
        for (i, frame) in frames.iter().enumerate() {
            if i > 0 {
                let step = &path[at..at + frame.step as usize];
                for &m in step {
                    apply(&mut state, m);
                }
                key = compact.child_key(&key, &state, step).0;
                at += step.len();
            }
            let (mine, rest) = untried.split_at(frame.untried as usize);
            untried = rest;
            for &code in mine.iter().rev() {
                line.clear();
                play(&mut state, Move::unpack(code), &mut line);
                if state.is_won() {
                    return Ok(Layered::Won(key));
                }
                layers.seed(compact.child_key(&key, &state, &line).0, watch)?;
                unwind(&mut state, &mut line, 0);
            }
        }
        layers.seed(pending, watch)?;
        drop((path, frames, moves));
        layers.search(expanded, watch)
    };
    go_on(expanded, watch).unwrap_or_else(Layered::Limit)
}

/// The line to a win through `next_to_win`, a position the layered pass found one move (and
/// the automatic moves after it) from a win: a depth-first pass towards it that enters only
/// the positions whose facts (`Compact::facts`) are among its own (every line to it passes only
/// through such), then the winning move; or a win that pass comes upon first. Its positions
/// count as expansions, under the same budget.
fn rebuild(
    deal: &Deal,
    next_to_win: CompactKey,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    let Some(mut exact) = Exact::new(deal, budget.memory) else {
        return End::Limit(Stop::Memory);
    };
    exact.toward = Some((next_to_win, exact.compact.facts(&next_to_win)));
    let mut path = match walk(deal, budget, expanded, watch, &mut exact, &mut None) {
        End::Won(path) => path,
        End::Exhausted => unreachable!("the layered pass reached a position the deal cannot"),
        limit => return limit,
    };
    let mut state = State::from_deal(deal);
    for &m in &path {
        apply(&mut state, m);
    }
    // On its way it may have found a win of its own.
    if state.is_won() {
        return End::Won(path);
    }
    let mut fresh = Vec::new();
    generate(&state, &mut fresh);
    for m in fresh {
        let mut line = Vec::new();
        play(&mut state, m, &mut line);
        if state.is_won() {
            path.extend(line);
            return End::Won(path);
        }
        unwind(&mut state, &mut line, 0);
    }
    unreachable!("the layered pass's position next to a win has no winning move")
}

/// [`search`]'s depth-first walk, its positions told apart by `keys`. The key of the position
/// is kept beside it (`key`), move by move, as `State` keeps its own.
///
/// When `keys` is eager, a position's children are keyed when it is expanded, all at once,
/// and their places in the table fetched then: the lookups, most of them cache misses,
/// overlap, and a child already seen is passed over without its move being played again.
/// Only the deepest positions' children are held so, with their keys (`Keys::held`): a search
/// may be millions of positions deep (Beleaguered Castle 2072: 11.7 million of its first 15
/// million), and its stack must cost little more than the moves it holds. A position returned
/// to after a child's search fetches its untried moves' places again, all at once, keying
/// itself and their children again if they were forgotten (most lookups are made so: the rest
/// of a position's moves wait while the search goes on from its first new child).
fn walk<K: Keys>(
    deal: &Deal,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
    keys: &mut K,
    stopped: &mut Option<Stopped<K::Key>>,
) -> End<Move> {
    let mut state = State::from_deal(deal);
    let mut path: Vec<Move> = Vec::new();
    // The untried moves of every frame, two bytes each; the position's moves as generated.
    let mut moves: Vec<u16> = Vec::new();
    let mut fresh: Vec<Move> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    // When they are keyed eagerly, the untried moves' children of the deepest frames, from
    // frame `held_from` on, the next to be tried last (beside `moves`), and those frames' keys.
    let eager = keys.eager();
    let mut children: Vec<Child<K::Key>> = Vec::new();
    let mut held_keys: Vec<K::Key> = Vec::new();
    let mut held_from = 0;
    let held = keys.held();

    play_automatic(&mut state, &mut path);
    // What the ordering read of the position expanded last, and whether that is the parent of
    // the next position expanded (no frame has been left since).
    let mut facts = ColumnFacts::new(&state);
    let mut facts_of_parent = false;
    let mut key = keys.key(None, &state, &path);
    if state.is_won() || keys.goal(&key) {
        return End::Won(path);
    }
    // The length of the path to the deepest frame's position.
    let mut here = path.len();
    // The table full, or the bound reached: the stack, and the position reached but not
    // expanded, are where the layers go on from.
    macro_rules! full {
        ($pending:expr) => {{
            *stopped = Some(Stopped {
                path,
                frames,
                moves,
                pending: $pending,
            });
            return End::Limit(Stop::Memory);
        }};
    }
    if keys.insert(&key, &state) == Insert::Full {
        full!(key);
    }
    if !budget.memory.reserve(&mut fresh, MOST_MOVES) {
        full!(key);
    }
    loop {
        // `state` is a new position, just entered in the table (and not won): expand it. The
        // stack grows by a frame, the position's moves, and the moves to the next one; at the
        // bound, the position is not counted as expanded, as the layers expand it.
        let memory = &budget.memory;
        if !(memory.reserve(&mut frames, 1)
            && memory.reserve(&mut moves, MOST_MOVES)
            && memory.reserve(&mut path, MOST_MOVES)
            && memory.reserve(&mut children, MOST_MOVES)
            && memory.reserve(&mut held_keys, 1))
        {
            full!(key);
        }
        if let Some(why) = budget.spend(expanded, watch) {
            return End::Limit(why);
        }
        if let Some(cap) = keys.orbits_due() {
            match orbit_pass(deal, budget, cap, expanded, watch) {
                Orbital::Exhausted => return End::Exhausted,
                Orbital::Limit(why) => return End::Limit(why),
                Orbital::Undecided => {}
            }
        }
        fresh.clear();
        generate(&state, &mut fresh);
        let path_len = path.len();
        // One move from the position expanded last, onto a card or into a column, with no
        // automatic move: the ordering reads the two columns it changed, not every column.
        match &path[here..] {
            [m] if facts_of_parent && !m.to_foundation() => facts.moved(&state, *m),
            _ => facts = ColumnFacts::new(&state),
        }
        facts_of_parent = true;
        order_by(&state, &facts, &mut fresh);
        fresh.reverse();
        // Reached by one move and no automatic ones: that move's reverse leads back to the
        // parent, which is in the table, so it is known to be seen without a lookup.
        if !frames.is_empty() && path_len == here + 1 {
            if let Some(back) = reverse(path[path_len - 1]) {
                fresh.retain(|&m| m != back);
            }
        }
        debug_assert!(fresh.len() <= MOST_MOVES && path_len - here <= MOST_MOVES);
        frames.push(Frame {
            untried: fresh.len() as u8,
            step: (path_len - here) as u8,
        });
        here = path_len;
        if eager {
            let tried = fresh.iter().rev().copied();
            key_children(keys, &key, &mut state, &mut path, tried, &mut children);
            held_keys.push(key);
            // The oldest frames' children and keys forgotten, a frame at a time, when too
            // many are held: they are keyed again if the search comes back to them.
            if children.len() > 2 * held || held_keys.len() > 2 * held {
                let (mut drop, first) = (0, held_from);
                while (children.len() - drop > held || frames.len() - held_from > held)
                    && held_from + 1 < frames.len()
                {
                    drop += frames[held_from].untried as usize;
                    held_from += 1;
                }
                children.drain(..drop);
                held_keys.drain(..held_from - first);
            }
        }
        moves.extend(fresh.iter().map(|m| m.pack()));

        // Find the next new position: try the next move of the deepest frame, backtracking
        // from frames whose moves are all tried.
        loop {
            let Some(frame) = frames.last_mut() else {
                return End::Exhausted;
            };
            if frame.untried == 0 {
                let step = frame.step as usize;
                frames.pop();
                held_keys.pop();
                facts_of_parent = false;
                if !frames.is_empty() {
                    // Back to the parent, its key with it: held, or worked out as each card
                    // taken back lies again on what the position says.
                    here -= step;
                    let parent_held = eager && frames.len() > held_from;
                    while path.len() > here {
                        let m = path.pop().unwrap();
                        undo(&mut state, m);
                        if !parent_held {
                            key = keys.key(Some(&key), &state, &[m]);
                        }
                    }
                    if let Some(&held_key) = held_keys.last().filter(|_| parent_held) {
                        key = held_key;
                    }
                }
                // Its other moves' places fetched again, all at once (each lookup one by one
                // would wait for the memory in turn), their children keyed again if they were
                // forgotten.
                if let Some(parent) = frames.last().filter(|_| eager) {
                    let untried = parent.untried as usize;
                    if frames.len() > held_from {
                        let at = children.len() - untried;
                        refetch(keys, &mut children[at..]);
                    } else {
                        debug_assert!(children.is_empty() && held_keys.is_empty());
                        held_from = frames.len() - 1;
                        held_keys.push(key);
                        let untried = &moves[moves.len() - untried..];
                        let untried = untried.iter().rev().map(|&code| Move::unpack(code));
                        key_children(keys, &key, &mut state, &mut path, untried, &mut children);
                    }
                }
                continue;
            }
            frame.untried -= 1;
            let m = Move::unpack(moves.pop().unwrap());
            if eager {
                let child = children.pop().unwrap();
                let new = child.won
                    || match child
                        .hash
                        .map(|h| keys.insert_fetched(&child.key, h, &state))
                    {
                        Some(Insert::New) => true,
                        Some(Insert::Seen) | None => false,
                        Some(Insert::Full) => full!(child.key),
                    };
                if new {
                    if child.quiet {
                        play_quiet(&mut state, m, &mut path);
                    } else {
                        play(&mut state, m, &mut path);
                    }
                    if child.won {
                        return End::Won(path);
                    }
                    key = child.key;
                    break;
                }
            } else {
                // A quiet move's child is looked up before the move is made, and made only if
                // it is new.
                if let Some(child) = keys.quiet_key(&key, &state, m) {
                    let goal = keys.goal(&child);
                    let new = goal || {
                        match keys.insert(&child, &state) {
                            Insert::New => true,
                            Insert::Seen => false,
                            Insert::Full => full!(child),
                        }
                    };
                    if new {
                        play_quiet(&mut state, m, &mut path);
                        if goal {
                            return End::Won(path);
                        }
                        key = child;
                        break;
                    }
                    continue;
                }
                play(&mut state, m, &mut path);
                if state.is_won() {
                    return End::Won(path);
                }
                let child = keys.key(Some(&key), &state, &path[here..]);
                if keys.goal(&child) {
                    return End::Won(path);
                }
                match keys.insert(&child, &state) {
                    Insert::New => {
                        key = child;
                        break;
                    }
                    Insert::Seen => unwind(&mut state, &mut path, here),
                    Insert::Full => full!(child),
                }
            }
        }
    }
}

/// The children of the position `state` (keyed `key`, at the end of `path`) by `tried`, its
/// moves in the order they are tried, each keyed and its place in the table fetched, so that
/// the lookups overlap: `children` then holds them in reverse, the first to be tried last (the
/// first keyed is fetched first).
fn key_children<K: Keys>(
    keys: &K,
    key: &K::Key,
    state: &mut State,
    path: &mut Vec<Move>,
    tried: impl Iterator<Item = Move>,
    children: &mut Vec<Child<K::Key>>,
) {
    let at = path.len();
    let first = children.len();
    for m in tried {
        let child = match keys.quiet_key(key, state, m) {
            Some(quiet) => Child {
                key: quiet,
                won: keys.goal(&quiet),
                quiet: true,
                hash: None,
            },
            None => {
                play(state, m, path);
                let child_key = keys.key(Some(key), state, &path[at..]);
                let won = state.is_won() || keys.goal(&child_key);
                unwind(state, path, at);
                Child {
                    key: child_key,
                    won,
                    quiet: false,
                    hash: None,
                }
            }
        };
        let hash = keys.prefetch(&child.key);
        children.push(Child { hash, ..child });
    }
    children[first..].reverse();
}

/// The places of `children`, keyed and fetched before (the next to be tried last), fetched
/// again, all at once: those of the children not yet known to be in the table.
fn refetch<K: Keys>(keys: &K, children: &mut [Child<K::Key>]) {
    for child in children.iter_mut().rev() {
        if let Some(hash) = child.hash {
            if !keys.refetch(&child.key, hash) {
                child.hash = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::heap::{peak_since, reset_peak};
    use crate::solver::Status;

    pub(super) fn limits(max_states: Option<u64>) -> Limits {
        Limits {
            max_states,
            max_seconds: None,
            max_cpu_seconds: None,
            max_memory: 1 << 30,
        }
    }

    /// Streets and Alleys 77 is undecided after 117M states: a small bound ends it, and the
    /// solve never holds more than the bound (tables, stacks, the beams' depths), the last
    /// doubling of a table included.
    #[test]
    fn a_solve_holds_no_more_than_its_memory_bound() {
        let deal = Deal::from_number(Variant::StreetsAndAlleys, 77).unwrap();
        for max_memory in [1 << 20, 4 << 20, 16 << 20] {
            let limits = Limits {
                max_memory,
                ..limits(None)
            };
            let memory = Memory::from_now(max_memory);
            reset_peak();
            let o = solve(&deal, &limits, false, &Overflow::default(), &mut || false);
            assert_eq!((o.status, o.limit), (Status::Unknown, Some(Stop::Memory)));
            let peak = peak_since(&memory);
            assert!(peak <= max_memory, "{peak} bytes held under {max_memory}");
            // Most of it is used: the table, not the stack, reached the bound.
            assert!(
                peak > max_memory / 2,
                "{peak} bytes held under {max_memory}"
            );
        }
    }

    /// A win's shortening is sized up front: `shorten_bytes` bounds it (deal 67's complete
    /// pass alone wins in 26,186 moves).
    #[test]
    fn a_shortening_allocates_no_more_than_its_estimate() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 67).unwrap();
        let mut interrupted = || false;
        let mut watch = Watch::new(Instant::now(), &mut interrupted);
        let budget = Budget {
            max_states: None,
            deadline: Deadline::NONE,
            memory: Memory::from_now(1 << 30),
        };
        let End::Won(path) = search(
            &deal,
            Pass::Complete,
            &budget,
            &Overflow::default(),
            &mut 0,
            &mut watch,
        ) else {
            panic!("deal 67 is won");
        };
        assert!(path.len() > 20_000, "{}", path.len());
        let memory = Memory::from_now(0);
        reset_peak();
        let line = shorten(&deal, &path);
        let (peak, estimate) = (peak_since(&memory), shorten_bytes(path.len()));
        assert!(
            peak <= estimate && estimate < 2 * peak,
            "{peak} > {estimate}"
        );
        assert!(replays_to_win(&deal, &line) && line.len() < 1000);
    }

    /// Eager or not, the complete pass expands the same positions in the same order: the same
    /// count, and the same win (deal 67: 26,186 moves) or proof. (Eager, a position returned
    /// to fetches its untried moves' places again, and keys them again where its children
    /// were forgotten: with 4 children held, nearly always.)
    #[test]
    fn keying_children_eagerly_changes_nothing_but_the_time() {
        let deals = [
            (Variant::BeleagueredCastle, 67),
            (Variant::BeleagueredCastle, 162),
            (Variant::StreetsAndAlleys, 31),
            (Variant::Citadel, 65),
        ];
        for (variant, number) in deals {
            let deal = Deal::from_number(variant, number).unwrap();
            let ends: Vec<_> = [(true, None), (true, Some(4)), (false, None)]
                .into_iter()
                .map(|(eager, held)| {
                    let mut interrupted = || false;
                    let mut watch = Watch::new(Instant::now(), &mut interrupted);
                    let budget = Budget {
                        max_states: Some(400_000),
                        deadline: Deadline::NONE,
                        memory: Memory::from_now(1 << 30),
                    };
                    let mut exact = Exact::new(&deal, budget.memory).unwrap();
                    exact.eager = eager;
                    exact.held = held.unwrap_or(exact.held);
                    let mut expanded = 0;
                    let end = walk(
                        &deal,
                        &budget,
                        &mut expanded,
                        &mut watch,
                        &mut exact,
                        &mut None,
                    );
                    (end, expanded, exact.len())
                })
                .collect();
            for end in &ends[1..] {
                assert_eq!(*end, ends[0], "{variant:?} {number}");
            }
            assert!(ends[0].1 > 1000, "{variant:?} {number}: {}", ends[0].1);
        }
    }

    #[test]
    fn a_state_limit_cuts_the_unlimited_solve_short() {
        // Deal 67 is won by the beam pass after the quick pass ran dry; any budget of at
        // least the states the unlimited solve reports gives the same win.
        let deal = Deal::from_number(Variant::BeleagueredCastle, 67).unwrap();
        let free = solve(
            &deal,
            &limits(None),
            false,
            &Overflow::default(),
            &mut || false,
        );
        assert_eq!(free.status, Status::Solved);
        // Two passes ran: the quick one, dry before its million states, then the beam pass.
        assert!(free.ends[0] < QUICK_STATES, "{:?}", free.ends);
        assert_eq!(free.ends, [free.ends[0], free.states]);
        for budget in [free.states, 100_000] {
            let cut = solve(
                &deal,
                &limits(Some(budget)),
                false,
                &Overflow::default(),
                &mut || false,
            );
            assert_eq!((cut.status, cut.states), (free.status, free.states));
            assert_eq!(cut.moves, free.moves);
        }
        let short = solve(
            &deal,
            &limits(Some(free.states - 1)),
            false,
            &Overflow::default(),
            &mut || false,
        );
        assert_eq!(
            (short.status, short.states, short.limit),
            (Status::Unknown, free.states - 1, Some(Stop::States))
        );
    }
}

#[cfg(test)]
mod layered_tests {
    use super::super::state::State;
    use super::super::variant::Variant;
    use super::tests::limits;
    use super::*;
    use crate::solver::disk::Spill;
    use crate::solver::heap::{peak_since, reset_peak};
    use crate::solver::Status;

    fn budget(max_states: Option<u64>, max_memory: usize) -> Budget {
        Budget {
            max_states,
            deadline: Deadline::NONE,
            memory: Memory::from_now(max_memory),
        }
    }

    /// The complete pass with its table full at `layers_after` positions, and the expansions.
    fn complete(deal: &Deal, max_states: u64, layers_after: Option<u64>) -> (End<Move>, u64) {
        let overflow = Overflow {
            layers_after,
            ..Overflow::default()
        };
        complete_pass(deal, Some(max_states), usize::MAX, &overflow, &mut || false)
    }

    /// On deals with no win, the depth-first pass and the layers after it expand exactly the
    /// positions the depth-first pass alone does: each reachable position once (a position
    /// expanded twice, or one missed, would change the count), whenever the layers take over:
    /// at a count of positions, or at the memory bound with the table's positions on disk.
    #[test]
    fn the_layered_pass_expands_each_position_once() {
        let deals = [
            (Variant::BeleagueredCastle, 162),
            (Variant::StreetsAndAlleys, 31),
            (Variant::Citadel, 65),
        ];
        let dir = std::env::temp_dir().join(format!("castle-test-once-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (variant, number) in deals {
            let deal = Deal::from_number(variant, number).unwrap();
            let (end, states) = complete(&deal, u64::MAX, None);
            assert_eq!(end, End::Exhausted, "{variant:?} {number}");
            for after in [1, 100, states / 2] {
                let (end, layered) = complete(&deal, u64::MAX, Some(after));
                assert_eq!(end, End::Exhausted, "{variant:?} {number}");
                assert_eq!(layered, states, "{variant:?} {number} after {after}");
            }
            let spill = Overflow {
                spill: Some(Spill {
                    dir: dir.clone(),
                    max_bytes: u64::MAX,
                }),
                ..Overflow::default()
            };
            for max_memory in [1 << 20, 4 << 20] {
                let memory = Memory::from_now(max_memory);
                reset_peak();
                let (end, on_disk) = complete_pass(&deal, None, max_memory, &spill, &mut || false);
                assert_eq!(end, End::Exhausted, "{variant:?} {number}");
                assert_eq!(
                    on_disk, states,
                    "{variant:?} {number} in {max_memory} bytes"
                );
                // The bound, and a little: a file's buffer may be counted just past it.
                let peak = peak_since(&memory);
                assert!(peak <= max_memory + (max_memory >> 2), "{peak} bytes");
            }
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every win the layered pass finds comes back as a line from the deal that wins, on disk
    /// too. A whole
    /// deal's positions below its winning layers are too many for a test, so the deals here are
    /// endgames: a won deal of each variant played along its win until `up` cards are on the
    /// foundations, then searched in layers from the start.
    #[test]
    fn a_win_found_in_layers_replays() {
        let dir = std::env::temp_dir().join(format!("castle-test-wins-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut wins = 0;
        let mut on_disk = 0;
        for variant in Variant::ALL {
            for number in 1..=12 {
                let deal = Deal::from_number(variant, number).unwrap();
                let o = solve(
                    &deal,
                    &limits(Some(2_000_000)),
                    false,
                    &Overflow::default(),
                    &mut || false,
                );
                if o.status != Status::Solved {
                    continue;
                }
                for up in [26, 34, 42] {
                    let mut state = State::from_deal(&deal);
                    for &m in &o.moves {
                        if state.foundations.iter().map(|&f| f as usize).sum::<usize>() >= up {
                            break;
                        }
                        apply(&mut state, m);
                    }
                    let endgame = Deal {
                        variant,
                        number: None,
                        columns: state.columns(),
                        foundations: state.foundations,
                    };
                    let (end, states) = complete(&endgame, 300_000, Some(1));
                    // Each win again on disk, in a small bound: the same win, the same
                    // expansions. (The endgames cut off by the states limit are left out: they
                    // are most of the test's time.)
                    if matches!(end, End::Won(_)) {
                        let small = 256 << 10;
                        let on = |spill: Option<Spill>| Overflow {
                            layers_after: Some(1),
                            spill,
                            ..Overflow::default()
                        };
                        let spill = Spill {
                            dir: dir.clone(),
                            max_bytes: u64::MAX,
                        };
                        let spilled = complete_pass(
                            &endgame,
                            Some(300_000),
                            small,
                            &on(Some(spill)),
                            &mut || false,
                        );
                        assert_eq!(spilled, (end.clone(), states), "{variant:?} {number}");
                        let alone =
                            complete_pass(&endgame, Some(300_000), small, &on(None), &mut || false);
                        if alone.0 == End::Limit(Stop::Memory) {
                            on_disk += 1;
                        }
                    }
                    match end {
                        End::Won(moves) => {
                            assert!(replays_to_win(&endgame, &moves), "{variant:?} {number}");
                            wins += 1;
                        }
                        end => assert_eq!(end, End::Limit(Stop::States), "{variant:?} {number}"),
                    }
                }
            }
        }
        assert!(wins >= 40, "{wins} wins");
        // 12 of the 56 wins need the disk in that bound.
        assert!(on_disk >= 10, "{on_disk} needed the disk");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Beleaguered Castle 162 (1.3 million positions) needs more than 24 MiB in the depth-first
    /// table; in layers it is decided in that bound, holding no more.
    #[test]
    fn layers_decide_a_deal_the_table_cannot_hold() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 162).unwrap();
        let max_memory = 24 << 20;
        let limits = Limits {
            max_states: None,
            max_seconds: None,
            max_cpu_seconds: None,
            max_memory,
        };
        let memory = Memory::from_now(max_memory);
        reset_peak();
        let o = solve(&deal, &limits, false, &Overflow::default(), &mut || false);
        assert_eq!(o.status, Status::Unsolvable);
        let peak = peak_since(&memory);
        assert!(peak <= max_memory, "{peak} bytes held under {max_memory}");
        // The depth-first pass ran out first.
        let mut interrupted = || false;
        let mut watch = Watch::new(Instant::now(), &mut interrupted);
        let budget = budget(None, max_memory);
        let mut exact = Exact::new(&deal, budget.memory).unwrap();
        let end = walk(&deal, &budget, &mut 0, &mut watch, &mut exact, &mut None);
        assert_eq!(end, End::Limit(Stop::Memory));
    }
}
