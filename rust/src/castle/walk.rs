//! The depth-first walk of the castle passes: each new position entered in the pass's table
//! (`keys.rs`) and expanded once, its moves in order (`order.rs`), its children keyed and their
//! places in the table fetched at once when the keys are eager; where it stopped when the table
//! filled, for the layers to go on from (`hand_off.rs`).

use super::deal::Deal;
use super::keys::{Exact, Keys};
use super::moves::{play, play_automatic, play_quiet, undo, unwind, Move, MOST_MOVES};
use super::order::{ordered_moves, plain_moves, ColumnFacts, Order};
use super::state::State;
use crate::solver::budget::{Budget, End, Watch};
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

/// [`search`]'s depth-first walk, its positions told apart by `keys`. The key of the position
/// is kept beside it (`key`), move by move (`State` keeps none).
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
pub(super) fn walk<K: Keys>(
    deal: &Deal,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
    keys: &mut K,
    stopped: &mut Option<Stopped<K::Key>>,
) -> End<Move> {
    let mut state = State::from_deal(deal);
    let mut path: Vec<Move> = Vec::new();
    // The untried moves of every frame, two bytes each; the position's moves, in the order they
    // are tried.
    let mut moves: Vec<u16> = Vec::new();
    let mut fresh: Vec<Move> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    // When they are keyed eagerly, the untried moves' children of the deepest frames, from
    // frame `held_from` on, the next to be tried last (beside `moves`), and those frames' keys.
    let eager = keys.eager();
    let order = keys.order();
    let mut children: Vec<Child<K::Key>> = Vec::new();
    let mut held_keys: Vec<K::Key> = Vec::new();
    let mut held_from = 0;
    // At most a 64th of the memory bound held so, children and keys alike.
    let held = keys
        .held()
        .min(HELD_CHILDREN)
        .min(budget.memory.max / 128 / std::mem::size_of::<(Child<K::Key>, K::Key)>());

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
        if let Some((positions, tries)) = keys.tries() {
            if tries.due(positions) {
                // (The plain walk given from here: `tries.rs` cannot name the walk that makes
                // its tries.)
                let plain = plain_walk;
                if let Some(end) = tries.make(positions, deal, budget, expanded, watch, plain) {
                    return end;
                }
            }
        }
        fresh.clear();
        let path_len = path.len();
        // Reached by one move and no automatic ones: that move's reverse leads back to the
        // parent, which is in the table, so it is known to be seen without a lookup, and is
        // left out. The others in the order they are tried.
        let back = match &path[here..] {
            [m] if !frames.is_empty() => reverse(*m),
            _ => None,
        };
        if order == Order::Castle {
            // One move from the position expanded last, onto a card or into a column, with no
            // automatic move: the ordering reads the two columns it changed, not every column.
            match &path[here..] {
                [m] if facts_of_parent && !m.to_foundation() => facts.moved(&state, *m),
                _ => facts = ColumnFacts::new(&state),
            }
            facts_of_parent = true;
            ordered_moves(&facts, back, &mut fresh);
        } else {
            plain_moves(&state, back, &mut fresh);
        }
        if eager {
            key_children(keys, &key, &mut state, &mut path, &mut fresh, &mut children);
        }
        debug_assert!(fresh.len() <= MOST_MOVES && path_len - here <= MOST_MOVES);
        frames.push(Frame {
            untried: fresh.len() as u8,
            step: (path_len - here) as u8,
        });
        here = path_len;
        if eager {
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
        moves.extend(fresh.iter().rev().map(|m| m.pack()));

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
                // forgotten (and those known now to be in the table left out).
                let depth = frames.len();
                if let Some(parent) = frames.last_mut().filter(|_| eager) {
                    let untried = parent.untried as usize;
                    if depth > held_from {
                        let at = children.len() - untried;
                        refetch(keys, &mut children[at..]);
                    } else {
                        debug_assert!(children.is_empty() && held_keys.is_empty());
                        held_from = depth - 1;
                        held_keys.push(key);
                        let tried = moves.len() - untried;
                        fresh.clear();
                        fresh.extend(moves[tried..].iter().rev().map(|&c| Move::unpack(c)));
                        key_children(keys, &key, &mut state, &mut path, &mut fresh, &mut children);
                        parent.untried = fresh.len() as u8;
                        moves.truncate(tried);
                        moves.extend(fresh.iter().rev().map(|m| m.pack()));
                    }
                }
                continue;
            }
            frame.untried -= 1;
            let m = Move::unpack(moves.pop().unwrap());
            // Eager, the child was keyed and fetched when its parent was expanded or returned
            // to; else it is keyed now, its move made unless it is quiet (a quiet child is
            // looked up before its move is made, and the move made only if it is new).
            let child = if eager {
                children.pop().unwrap()
            } else {
                key_child(keys, &key, &mut state, &mut path, m)
            };
            let made = !eager && !child.quiet;
            let new = child.won
                || match child
                    .hash()
                    .map(|h| keys.insert_fetched(&child.key, h, &state))
                {
                    Some(Insert::New) => true,
                    Some(Insert::Seen) | None => false,
                    Some(Insert::Full) => full!(child.key),
                };
            if !new {
                if made {
                    unwind(&mut state, &mut path, here);
                }
                continue;
            }
            if !made {
                if child.quiet {
                    play_quiet(&mut state, m, &mut path);
                } else {
                    play(&mut state, m, &mut path);
                }
            }
            if child.won {
                return End::Won(path);
            }
            key = child.key;
            break;
        }
    }
}

/// The plain walk: the walk again, from the deal, with its own table, its moves tried in the
/// plain order ([`plain_moves`]: by kind of move, then by column) instead of the complete
/// pass's. It is fc-solve's default search (its order, each position once; the safe moves to
/// the foundations made as in every castle search), and so wins early the deals fc-solve wins
/// early, some of which the complete pass's order, guided by the cards most needed, wanders in
/// for a million positions (docs/proofs.md). The complete pass makes it among its tries
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
    let Some(mut exact) = Exact::new(deal, budget.memory) else {
        return End::Limit(Stop::Memory);
    };
    exact.order = Order::Plain;
    walk(deal, budget, expanded, watch, &mut exact, &mut None)
}

/// The child `m` leads to from the position `state` (keyed `key`, at the end of `path`), its
/// place in the table fetched (`Keys::prefetch`): a quiet move's keyed without making the
/// move; any other move made, and left made for the caller to take back or keep.
#[inline(always)]
fn key_child<K: Keys>(
    keys: &K,
    key: &K::Key,
    state: &mut State,
    path: &mut Vec<Move>,
    m: Move,
) -> Child<K::Key> {
    let (key, won, quiet) = match keys.quiet_key(key, state, m) {
        Some(quiet) => (quiet, keys.goal(&quiet), true),
        None => {
            let at = path.len();
            play(state, m, path);
            let child_key = keys.key(Some(key), state, &path[at..]);
            (child_key, state.is_won() || keys.goal(&child_key), false)
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

/// The children of the position `state` (keyed `key`, at the end of `path`) by `tried`, its
/// moves in the order they are tried, each keyed and its place in the table fetched, so that
/// the lookups overlap: `children` then holds them in reverse, the first to be tried last (the
/// first keyed is fetched first). A child known to be in the table already (`Keys::prefetch`
/// says so of most) is left out, and its move with it: trying it would find it seen, and
/// nothing else. `tried` keeps the other moves, in order.
fn key_children<K: Keys>(
    keys: &K,
    key: &K::Key,
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
        let child = key_child(keys, key, state, path, m);
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
    use super::super::keys::Exact;
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::budget::Deadline;
    use crate::solver::heap::Memory;
    use std::time::Instant;

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
}
