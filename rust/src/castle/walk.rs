//! The depth-first walk of the castle passes: each new position entered in the pass's table
//! (`keys.rs`) and expanded once, its moves in order (`order.rs`), its children keyed and their
//! places in the table fetched at once when the keys are eager. It walks until its table holds
//! a count of positions and hands back control there, to go on where it paused when asked (the
//! complete pass's tries run between: `tries.rs`); where it stopped when the table filled, for
//! the layers to go on from (`hand_off.rs`).

use super::deal::Deal;
use super::keys::{Exact, Keys};
use super::moves::{play, play_automatic, play_quiet, undo, unwind, Move, MOST_MOVES};
use super::order::{ordered_moves, plain_moves, ColumnFacts, Order};
use super::state::State;
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::heap::Memory;
use crate::solver::table::Insert;
use crate::solver::Stop;

/// A position on the search stack, in two bytes (a proof may be hundreds of millions deep):
/// `untried` of its moves are still to try, the last `untried` of the walk's `moves` (packed,
/// `Move::pack`) while it is the deepest frame (tried last first, popped as they are); `step`
/// moves (a move and the automatic moves after it, at most [`MOST_MOVES`]) led to it from its
/// parent.
pub(super) struct Frame {
    pub(super) untried: u8,
    pub(super) step: u8,
}

/// Where a depth-first walk stopped when its table was full: its stack (the path to the
/// deepest frame's position and on, each frame, each frame's untried moves), and the position
/// it had reached but not expanded (entered in the table or not).
pub(super) struct Stopped<K> {
    pub(super) path: Vec<Move>,
    pub(super) frames: Vec<Frame>,
    pub(super) moves: Vec<u16>,
    pub(super) pending: K,
}

/// What a move leads to (the move and the automatic moves after it): the position's key, and
/// whether it is won. 32 bytes with the compact key (the hash in halves, not a 64-bit word and
/// its padding): the walk writes and reads every child.
#[derive(Copy, Clone)]
struct Child<K> {
    key: K,
    /// The key's hash, from when its place in the table was fetched (`Keys::prefetch`).
    hash: [u32; 2],
    /// Whether its place was fetched: not if it was known to be in the table then.
    fetched: bool,
    won: bool,
    /// Keyed without making its move (`Keys::quiet_key`): no automatic move follows it.
    quiet: bool,
}

impl<K> Child<K> {
    /// The hash of a child whose place was fetched; None if it is known to be in the table.
    #[inline]
    fn hash(&self) -> Option<u64> {
        self.fetched
            .then(|| self.hash[0] as u64 | (self.hash[1] as u64) << 32)
    }
}

/// The walk holds the children and the keys of its deepest frames, up to twice this many of
/// each (a 64th of the memory bound at most), so that a position returned to need not key
/// itself or its untried moves' children again (the solver's research notes).
const HELD_CHILDREN: usize = 1 << 14;

/// The move that takes back `m` (none for a move to a foundation).
fn reverse(m: Move) -> Option<Move> {
    (!m.to_foundation()).then_some(Move {
        card: m.card,
        from: m.to,
        to: m.from,
    })
}

/// How far [`Walk::run`] went: to the count of positions it was asked to pause at, ready to go
/// on from there; or to its end.
#[derive(Debug, PartialEq)]
pub(super) enum Walked {
    Paused,
    Ended(End<Move>),
}

/// Where a walk is between two calls of [`Walk::run`].
#[derive(Copy, Clone, PartialEq, Eq)]
enum Progress {
    /// The deal's position is not entered yet.
    AtTheDeal,
    /// A new position is entered, counted as expanded, and not expanded yet: the walk paused
    /// there.
    Paused,
    /// Walking (or ended).
    Walking,
}

/// A depth-first walk of a castle pass, its positions told apart by `keys`. It keeps what a
/// walk keeps (its stack, its table, the key of the position it stands on, kept move by move:
/// `State` keeps none) and walks when asked, until its table holds a given count of positions
/// ([`Walk::run`]): what runs between (the complete pass's tries, `tries.rs`) is decided by
/// its caller.
///
/// When the keys are eager, a position's children are keyed when it is expanded, all at once,
/// and their places in the table fetched then: the lookups, most of them cache misses,
/// overlap, and a child already seen is passed over without its move being played again.
/// Only the deepest positions' children are held so, with their keys (`held`): a search may
/// be millions of positions deep (Beleaguered Castle 2072: 11.7 million of its first 15
/// million), and its stack must cost little more than the moves it holds. A position returned
/// to after a child's search fetches its untried moves' places again, all at once, keying
/// itself and their children again if they were forgotten (most lookups are made so: the rest
/// of a position's moves wait while the search goes on from its first new child).
pub(super) struct Walk<K: Keys> {
    pub(super) keys: K,
    /// The order it tries each position's moves in (the complete pass's, or the plain walk's).
    pub(super) order: Order,
    /// A position whose reaching ends the walk as a win does (a walk towards a position).
    pub(super) goal: Option<K::Key>,
    /// Whether children are keyed eagerly (`Keys::EAGER`; the tests try the walk without).
    pub(super) eager: bool,
    /// The children and frames' keys held, at most twice this many of each.
    pub(super) held: usize,
    state: State,
    /// The moves from the deal to `state`.
    path: Vec<Move>,
    /// The untried moves of every frame, two bytes each.
    moves: Vec<u16>,
    /// The position's moves, in the order they are tried.
    fresh: Vec<Move>,
    frames: Vec<Frame>,
    /// When they are keyed eagerly, the untried moves' children of the deepest frames, from
    /// frame `held_from` on, the next to be tried last (beside `moves`), and those frames'
    /// keys.
    children: Vec<Child<K::Key>>,
    held_keys: Vec<K::Key>,
    held_from: usize,
    /// The key of `state`.
    key: K::Key,
    /// The length of the path to the deepest frame's position.
    here: usize,
    /// What the ordering read of the position expanded last, and whether that is the parent
    /// of the next position expanded (no frame has been left since).
    facts: ColumnFacts,
    facts_of_parent: bool,
    /// The positions entered in the table (new ones, each once).
    entered: u64,
    progress: Progress,
    /// The table full, or the bound reached: the position reached but not expanded, where
    /// the layers go on from with the stack.
    pending: Option<K::Key>,
}

impl<K: Keys> Walk<K> {
    /// A walk from `deal` (its automatic moves made), in the complete pass's order, holding
    /// no more than a 64th of `memory`'s bound in children and keys.
    pub(super) fn new(deal: &Deal, keys: K, memory: &Memory) -> Walk<K> {
        let mut state = State::from_deal(deal);
        let mut path = Vec::new();
        play_automatic(&mut state, &mut path);
        let key = keys.key(None, &state, &path);
        let each = std::mem::size_of::<(Child<K::Key>, K::Key)>();
        Walk {
            keys,
            order: Order::Castle,
            goal: None,
            eager: K::EAGER,
            held: HELD_CHILDREN.min(memory.max / 128 / each),
            facts: ColumnFacts::new(&state),
            facts_of_parent: false,
            here: path.len(),
            state,
            path,
            moves: Vec::new(),
            fresh: Vec::new(),
            frames: Vec::new(),
            children: Vec::new(),
            held_keys: Vec::new(),
            held_from: 0,
            key,
            entered: 0,
            progress: Progress::AtTheDeal,
            pending: None,
        }
    }

    /// The positions entered in the table so far.
    pub(super) fn entered(&self) -> u64 {
        self.entered
    }

    /// Walks on until the walk ends (a win, out of moves, a limit), or pauses once its table
    /// holds `pause_at` positions, at the next position to expand (counted as expanded). Its
    /// expansions are counted in `expanded`, each within the budget; at the bound, the
    /// position reached is not counted as expanded, as the layers expand it
    /// ([`Walk::into_stopped`]).
    pub(super) fn run(
        &mut self,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
        pause_at: u64,
    ) -> Walked {
        let mut paused = match self.progress {
            Progress::AtTheDeal => {
                self.progress = Progress::Walking;
                if let Some(end) = self.enter_the_deal(budget) {
                    return Walked::Ended(end);
                }
                false
            }
            Progress::Paused => true,
            Progress::Walking => false,
        };
        loop {
            // `state` is a new position, just entered in the table (and not won): expand it.
            if !std::mem::take(&mut paused) {
                if !self.reserve_a_frame(budget) {
                    return Walked::Ended(self.full(self.key));
                }
                if let Some(why) = budget.spend(expanded, watch) {
                    return Walked::Ended(End::Limit(why));
                }
                if self.entered >= pause_at {
                    self.progress = Progress::Paused;
                    return Walked::Paused;
                }
            }
            self.progress = Progress::Walking;
            self.expand();
            if let Some(end) = self.next_new_position() {
                return Walked::Ended(end);
            }
        }
    }

    /// [`Walk::run`] to the walk's end, with no pause.
    pub(super) fn run_out(
        &mut self,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> End<Move> {
        match self.run(budget, expanded, watch, u64::MAX) {
            Walked::Ended(end) => end,
            Walked::Paused => unreachable!("a table of u64::MAX positions"),
        }
    }

    /// The keys, and where the walk stopped if its table filled (or the bound was reached
    /// before an expansion): its stack and the position it had reached. The rest of what it
    /// held is given back here.
    pub(super) fn into_stopped(self) -> (K, Option<Stopped<K::Key>>) {
        let Walk {
            keys,
            path,
            frames,
            moves,
            pending,
            ..
        } = self;
        let stopped = pending.map(|pending| Stopped {
            path,
            frames,
            moves,
            pending,
        });
        (keys, stopped)
    }

    /// The table full, or the bound reached, at `pending`: the stack, and that position, are
    /// where the layers go on from.
    fn full(&mut self, pending: K::Key) -> End<Move> {
        self.pending = Some(pending);
        End::Limit(Stop::Memory)
    }

    /// The deal's position entered in the table: the walk's end if it is won (or the goal) or
    /// there is no room for it.
    fn enter_the_deal(&mut self, budget: &Budget) -> Option<End<Move>> {
        if self.state.is_won() || self.goal == Some(self.key) {
            return Some(End::Won(std::mem::take(&mut self.path)));
        }
        let entered = self
            .keys
            .prefetch(&self.key)
            .map(|hash| self.keys.insert(&self.key, hash, &self.state));
        match entered {
            Some(Insert::Full) => return Some(self.full(self.key)),
            Some(Insert::New) => self.entered += 1,
            _ => {}
        }
        if !budget.memory.reserve(&mut self.fresh, MOST_MOVES) {
            return Some(self.full(self.key));
        }
        None
    }

    /// Room for the stack to grow by a frame, the position's moves, and the moves to the next
    /// one, within the bound.
    #[inline(always)]
    fn reserve_a_frame(&mut self, budget: &Budget) -> bool {
        let memory = &budget.memory;
        memory.reserve(&mut self.frames, 1)
            && memory.reserve(&mut self.moves, MOST_MOVES)
            && memory.reserve(&mut self.path, MOST_MOVES)
            && memory.reserve(&mut self.children, MOST_MOVES)
            && memory.reserve(&mut self.held_keys, 1)
    }

    /// Expands the position the walk stands on: its moves, in order, pushed as a new frame
    /// (their children keyed and fetched, and held, when eager).
    #[inline(always)]
    fn expand(&mut self) {
        self.fresh.clear();
        let path_len = self.path.len();
        // Reached by one move and no automatic ones: that move's reverse leads back to the
        // parent, which is in the table, so it is known to be seen without a lookup, and is
        // left out. The others in the order they are tried.
        let back = match &self.path[self.here..] {
            [m] if !self.frames.is_empty() => reverse(*m),
            _ => None,
        };
        if self.order == Order::Castle {
            // One move from the position expanded last, onto a card or into a column, with no
            // automatic move: the ordering reads the two columns it changed, not every column.
            match &self.path[self.here..] {
                [m] if self.facts_of_parent && !m.to_foundation() => {
                    self.facts.moved(&self.state, *m)
                }
                _ => self.facts = ColumnFacts::new(&self.state),
            }
            self.facts_of_parent = true;
            ordered_moves(&self.facts, back, &mut self.fresh);
        } else {
            plain_moves(&self.state, back, &mut self.fresh);
        }
        if self.eager {
            key_children(
                &self.keys,
                &self.key,
                self.goal.as_ref(),
                &mut self.state,
                &mut self.path,
                &mut self.fresh,
                &mut self.children,
            );
        }
        debug_assert!(self.fresh.len() <= MOST_MOVES && path_len - self.here <= MOST_MOVES);
        self.frames.push(Frame {
            untried: self.fresh.len() as u8,
            step: (path_len - self.here) as u8,
        });
        self.here = path_len;
        if self.eager {
            self.held_keys.push(self.key);
            self.forget_the_oldest();
        }
        let fresh = &self.fresh;
        self.moves.extend(fresh.iter().rev().map(|m| m.pack()));
    }

    /// The oldest frames' children and keys forgotten, a frame at a time, when too many are
    /// held: they are keyed again if the search comes back to them.
    #[inline(always)]
    fn forget_the_oldest(&mut self) {
        let held = self.held;
        if self.children.len() > 2 * held || self.held_keys.len() > 2 * held {
            let (mut drop, first) = (0, self.held_from);
            while (self.children.len() - drop > held || self.frames.len() - self.held_from > held)
                && self.held_from + 1 < self.frames.len()
            {
                drop += self.frames[self.held_from].untried as usize;
                self.held_from += 1;
            }
            self.children.drain(..drop);
            self.held_keys.drain(..self.held_from - first);
        }
    }

    /// Finds the next new position, entered in the table: tries the next move of the deepest
    /// frame, backtracking from frames whose moves are all tried. None when the walk stands on
    /// it, else the walk's end.
    #[inline(always)]
    fn next_new_position(&mut self) -> Option<End<Move>> {
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return Some(End::Exhausted);
            };
            if frame.untried == 0 {
                self.back_to_the_parent();
                continue;
            }
            frame.untried -= 1;
            let m = Move::unpack(self.moves.pop().unwrap());
            // Eager, the child was keyed and fetched when its parent was expanded or returned
            // to; else it is keyed now, its move made unless it is quiet (a quiet child is
            // looked up before its move is made, and the move made only if it is new).
            let child = if self.eager {
                self.children.pop().unwrap()
            } else {
                let goal = self.goal.as_ref();
                key_child(
                    &self.keys,
                    &self.key,
                    goal,
                    &mut self.state,
                    &mut self.path,
                    m,
                )
            };
            let made = !self.eager && !child.quiet;
            let new = child.won
                || match child
                    .hash()
                    .map(|h| self.keys.insert(&child.key, h, &self.state))
                {
                    Some(Insert::New) => {
                        self.entered += 1;
                        true
                    }
                    Some(Insert::Seen) | None => false,
                    Some(Insert::Full) => return Some(self.full(child.key)),
                };
            if !new {
                if made {
                    unwind(&mut self.state, &mut self.path, self.here);
                }
                continue;
            }
            if !made {
                if child.quiet {
                    play_quiet(&mut self.state, m, &mut self.path);
                } else {
                    play(&mut self.state, m, &mut self.path);
                }
            }
            if child.won {
                return Some(End::Won(std::mem::take(&mut self.path)));
            }
            self.key = child.key;
            return None;
        }
    }

    /// Leaves the deepest frame, whose moves are all tried, for its parent, its key with it:
    /// held, or worked out as each card taken back lies again on what the position says.
    #[inline(always)]
    fn back_to_the_parent(&mut self) {
        let step = self.frames.pop().unwrap().step as usize;
        self.held_keys.pop();
        self.facts_of_parent = false;
        if self.frames.is_empty() {
            return;
        }
        self.here -= step;
        let parent_held = self.eager && self.frames.len() > self.held_from;
        while self.path.len() > self.here {
            let m = self.path.pop().unwrap();
            undo(&mut self.state, m);
            if !parent_held {
                self.key = self.keys.key(Some(&self.key), &self.state, &[m]);
            }
        }
        if let Some(&held_key) = self.held_keys.last().filter(|_| parent_held) {
            self.key = held_key;
        }
        if self.eager {
            self.fetch_the_untried();
        }
    }

    /// The parent's other moves' places fetched again, all at once (each lookup one by one
    /// would wait for the memory in turn), their children keyed again if they were forgotten
    /// (and those known now to be in the table left out).
    #[inline(always)]
    fn fetch_the_untried(&mut self) {
        let depth = self.frames.len();
        let untried = self.frames[depth - 1].untried as usize;
        if depth > self.held_from {
            let at = self.children.len() - untried;
            refetch(&self.keys, &mut self.children[at..]);
            return;
        }
        debug_assert!(self.children.is_empty() && self.held_keys.is_empty());
        self.held_from = depth - 1;
        self.held_keys.push(self.key);
        let tried = self.moves.len() - untried;
        self.fresh.clear();
        let moves = &self.moves[tried..];
        self.fresh
            .extend(moves.iter().rev().map(|&c| Move::unpack(c)));
        key_children(
            &self.keys,
            &self.key,
            self.goal.as_ref(),
            &mut self.state,
            &mut self.path,
            &mut self.fresh,
            &mut self.children,
        );
        self.frames[depth - 1].untried = self.fresh.len() as u8;
        self.moves.truncate(tried);
        let fresh = &self.fresh;
        self.moves.extend(fresh.iter().rev().map(|m| m.pack()));
    }
}

/// The plain walk: the walk again, from the deal, with its own table, its moves tried in the
/// plain order ([`plain_moves`]: by kind of move, then by column) instead of the complete
/// pass's. It is fc-solve's default search (its order, each position once; the safe moves to
/// the foundations made as in every castle search), and so wins early the deals fc-solve wins
/// early, some of which the complete pass's order, guided by the cards most needed, wanders in
/// for a million positions (the solver's research notes). The complete pass makes it among its tries
/// (`tries.rs`) and takes only its win (checked like any other): were it to run out of moves,
/// that would prove the deal lost too, but the pass's proofs stay its own walk's and the orbit
/// pass's, the two methods the tests hold each other to. Its expansions are counted in
/// `expanded`; it ends in a win, out of moves (`Exhausted`), or at a limit (its table at the
/// memory bound: `Stop::Memory`).
pub fn plain_walk(
    deal: &Deal,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    let Some(exact) = Exact::new(deal, budget.memory) else {
        return End::Limit(Stop::Memory);
    };
    let mut walk = Walk::new(deal, exact, &budget.memory);
    walk.order = Order::Plain;
    walk.run_out(budget, expanded, watch)
}

/// The child `m` leads to from the position `state` (keyed `key`, at the end of `path`), its
/// place in the table fetched (`Keys::prefetch`), won if it is the `goal`: a quiet move's keyed
/// without making the move; any other move made, and left made for the caller to take back or
/// keep.
#[inline(always)]
fn key_child<K: Keys>(
    keys: &K,
    key: &K::Key,
    goal: Option<&K::Key>,
    state: &mut State,
    path: &mut Vec<Move>,
    m: Move,
) -> Child<K::Key> {
    let (key, won, quiet) = match keys.quiet_key(key, state, m) {
        Some(quiet) => (quiet, goal == Some(&quiet), true),
        None => {
            let at = path.len();
            play(state, m, path);
            let child_key = keys.key(Some(key), state, &path[at..]);
            (child_key, state.is_won() || goal == Some(&child_key), false)
        }
    };
    let hash = keys.prefetch(&key);
    let h = hash.unwrap_or(0);
    Child {
        key,
        hash: [h as u32, (h >> 32) as u32],
        fetched: hash.is_some(),
        won,
        quiet,
    }
}

/// The children of the position `state` (keyed `key`, at the end of `path`; won if they are
/// the `goal`) by `tried`, its
/// moves in the order they are tried, each keyed and its place in the table fetched, so that
/// the lookups overlap: `children` then holds them in reverse, the first to be tried last (the
/// first keyed is fetched first). A child known to be in the table already (`Keys::prefetch`
/// says so of most) is left out, and its move with it: trying it would find it seen, and
/// nothing else. `tried` keeps the other moves, in order.
fn key_children<K: Keys>(
    keys: &K,
    key: &K::Key,
    goal: Option<&K::Key>,
    state: &mut State,
    path: &mut Vec<Move>,
    tried: &mut Vec<Move>,
    children: &mut Vec<Child<K::Key>>,
) {
    let at = path.len();
    let first = children.len();
    let mut kept = 0;
    for i in 0..tried.len() {
        let m = tried[i];
        let child = key_child(keys, key, goal, state, path, m);
        if !child.quiet {
            unwind(state, path, at);
        }
        if child.fetched || child.won {
            children.push(child);
            tried[kept] = m;
            kept += 1;
        }
    }
    tried.truncate(kept);
    children[first..].reverse();
}

/// The places of `children`, keyed and fetched before (the next to be tried last), fetched
/// again, all at once: those of the children not yet known to be in the table.
fn refetch<K: Keys>(keys: &K, children: &mut [Child<K::Key>]) {
    for child in children.iter_mut().rev() {
        if let Some(hash) = child.hash() {
            if !keys.refetch(&child.key, hash) {
                child.fetched = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::budget::Deadline;
    use std::time::Instant;

    /// The deals these tests walk: each variant's, each walk past a thousand positions
    /// (Beleaguered Castle 67's ends in a win of 26,186 moves).
    const SOME_DEALS: [(Variant, u64); 4] = [
        (Variant::BeleagueredCastle, 67),
        (Variant::BeleagueredCastle, 162),
        (Variant::StreetsAndAlleys, 31),
        (Variant::Citadel, 65),
    ];

    /// The complete pass's walk of `deal`, its exact keys within `budget`'s memory.
    fn exact_walk(deal: &Deal, budget: &Budget) -> Walk<Exact> {
        let exact = Exact::new(deal, budget.memory).unwrap();
        Walk::new(deal, exact, &budget.memory)
    }

    fn budget(max_states: u64) -> Budget {
        Budget {
            max_states: Some(max_states),
            deadline: Deadline::NONE,
            memory: Memory::from_now(1 << 30),
        }
    }

    /// Eager or not, the complete pass expands the same positions in the same order: the same
    /// count, and the same win (deal 67: 26,186 moves) or proof. (Eager, a position returned
    /// to fetches its untried moves' places again, and keys them again where its children
    /// were forgotten: with 4 children held, nearly always.)
    #[test]
    fn keying_children_eagerly_changes_nothing_but_the_time() {
        for (variant, number) in SOME_DEALS {
            let deal = Deal::from_number(variant, number).unwrap();
            let ends: Vec<_> = [(true, None), (true, Some(4)), (false, None)]
                .into_iter()
                .map(|(eager, held)| {
                    let mut interrupted = || false;
                    let mut watch = Watch::new(Instant::now(), &mut interrupted);
                    let budget = budget(400_000);
                    let mut walk = exact_walk(&deal, &budget);
                    walk.eager = eager;
                    walk.held = held.unwrap_or(walk.held);
                    let mut expanded = 0;
                    let end = walk.run_out(&budget, &mut expanded, &mut watch);
                    (end, expanded, walk.keys.len())
                })
                .collect();
            for end in &ends[1..] {
                assert_eq!(*end, ends[0], "{variant:?} {number}");
            }
            assert!(ends[0].1 > 1000, "{variant:?} {number}: {}", ends[0].1);
        }
    }

    /// A walk paused and taken up again goes on as if it had not paused: paused at every
    /// hundredth position, or at each fourfold growth from 1 on, it expands the same
    /// positions, and ends as the walk that never paused (a win, a proof, the state limit);
    /// each pause comes at the count of positions asked for.
    #[test]
    fn a_walk_paused_goes_on_where_it_paused() {
        for (variant, number) in SOME_DEALS {
            let deal = Deal::from_number(variant, number).unwrap();
            let walk_with = |next: &dyn Fn(u64) -> u64| {
                let mut interrupted = || false;
                let mut watch = Watch::new(Instant::now(), &mut interrupted);
                let budget = budget(300_000);
                let mut walk = exact_walk(&deal, &budget);
                let (mut expanded, mut pauses, mut at) = (0, 0, next(0));
                loop {
                    match walk.run(&budget, &mut expanded, &mut watch, at) {
                        Walked::Paused => {
                            assert_eq!(walk.entered(), at);
                            assert_eq!(walk.keys.len() as u64, at);
                            pauses += 1;
                            at = next(at);
                        }
                        Walked::Ended(end) => return (end, expanded, walk.keys.len(), pauses),
                    }
                }
            };
            let (end, expanded, len, _) = walk_with(&|_| u64::MAX);
            for next in [&|at| at + 100, &|at: u64| (at * 4).max(1)] as [&dyn Fn(u64) -> u64; 2] {
                let (paused, steps, entered, pauses) = walk_with(next);
                assert_eq!((&paused, steps, entered), (&end, expanded, len));
                assert!(pauses >= 3, "{variant:?} {number}: {pauses}");
            }
        }
    }
}
