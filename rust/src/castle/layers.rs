//! The layered pass (issue 18, idea 3): the complete pass goes on here when the depth-first
//! table reaches the memory bound.
//!
//! A position's layer (`Compact::layer`: cards on their foundations, and cards that have left a
//! card they were dealt on that is not one rank higher) never falls. Every move that keeps it
//! can be taken back by one move, with no automatic move after it: the card goes back where it
//! was (a card one rank higher, or an empty column), and the position it returns to had its
//! automatic moves played already. So within a layer the positions and moves form an undirected
//! graph, and a breadth-first search of it, from all the layer's seeds at once (the positions a
//! lower layer led to), finds each position at its distance from the seeds: the neighbours of a
//! position at distance k are at k - 1, k or k + 1. The next level is what the current one leads
//! to, less the current level and the one before: three levels are held, never the layer, and
//! never a lower layer. Positions of later layers wait, as seeds, for their layer's turn.
//!
//! Each level and each layer's seeds are sorted runs of compact keys (20 bytes each, no table):
//! keys are appended, and whenever the unsorted tail is half as long as the sorted part, the
//! tail is sorted, rid of repeats and of keys in the levels before, and merged in. The order of
//! expansion is the keys' order, which the reference follows.
//!
//! A win found here is a position one move (and the automatic moves after it) from a win; the
//! line to it is rebuilt by a depth-first search towards it (`search.rs`).

use super::compact::{Compact, CompactKey};
use super::deal::Deal;
use super::moves::{generate, play, play_automatic, unwind, Move};
use super::state::State;
use crate::solver::budget::{Budget, Watch};
use crate::solver::heap::Memory;
use crate::solver::Stop;

/// More than any layer: 52 cards, each counted at most twice.
const LAYERS: usize = 105;
/// A run's tail is merged in once it is this long, at least (and half its sorted part).
const LEAST_TAIL: usize = 1 << 12;

/// How the layered pass ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Layered {
    /// A position from which one move (and the automatic moves after it) wins.
    Won(CompactKey),
    /// Every position reachable from the deal was expanded: there is no win.
    Exhausted,
    Limit(Stop),
}

/// Keys: a sorted, deduplicated part, then keys appended since.
struct Run {
    keys: Vec<CompactKey>,
    sorted: usize,
}

impl Run {
    fn new() -> Run {
        Run {
            keys: Vec::new(),
            sorted: 0,
        }
    }

    /// Appends `key`, first sorting the run's tail into its sorted part (less the keys of
    /// `except`) if the tail has grown half as long, or if the memory bound leaves no room for
    /// it otherwise. False if the bound forbids it even so.
    fn push(&mut self, key: CompactKey, except: &[&[CompactKey]], memory: &Memory) -> bool {
        if self.keys.len() == self.keys.capacity()
            && self.keys.len() - self.sorted >= (self.sorted / 2).max(LEAST_TAIL)
        {
            self.settle(except, memory);
        }
        // At the bound, the tail's repeats are dropped before the run gives up.
        if !memory.reserve(&mut self.keys, 1)
            && (self.sorted == self.keys.len() || {
                self.settle(except, memory);
                !memory.reserve(&mut self.keys, 1)
            })
        {
            return false;
        }
        self.keys.push(key);
        true
    }

    /// Sorts the tail, keeps the keys of it that are new (not in the sorted part, not in
    /// `except`, each sorted, not twice), and merges them into the sorted part: the sorted
    /// part is never sorted again (sorting was most of the pass's time when it was).
    fn settle(&mut self, except: &[&[CompactKey]], memory: &Memory) {
        let (head, tail) = self.keys.split_at_mut(self.sorted);
        tail.sort_unstable();
        let mut cursors = vec![0; except.len() + 1];
        let mut new = 0;
        for i in 0..tail.len() {
            let key = tail[i];
            let seen = (new > 0 && tail[new - 1] == key)
                || std::iter::once(&*head)
                    .chain(except.iter().copied())
                    .zip(cursors.iter_mut())
                    .any(|(sorted, at)| {
                        while *at < sorted.len() && sorted[*at] < key {
                            *at += 1;
                        }
                        *at < sorted.len() && sorted[*at] == key
                    });
            if !seen {
                tail[new] = key;
                new += 1;
            }
        }
        // Merged from the back, the new keys set aside first.
        let mut fresh: Vec<CompactKey> = Vec::new();
        if !memory.reserve(&mut fresh, new) {
            // No room beside the run: sort it whole, in place.
            self.keys.truncate(self.sorted + new);
            self.keys.sort_unstable();
            self.sorted = self.keys.len();
            return;
        }
        fresh.extend_from_slice(&self.keys[self.sorted..self.sorted + new]);
        let (mut i, mut j) = (self.sorted, new);
        self.keys.truncate(self.sorted + new);
        for k in (0..self.keys.len()).rev() {
            if j == 0 {
                break;
            }
            if i > 0 && self.keys[i - 1] > fresh[j - 1] {
                self.keys[k] = self.keys[i - 1];
                i -= 1;
            } else {
                self.keys[k] = fresh[j - 1];
                j -= 1;
            }
        }
        self.sorted = self.keys.len();
    }

    /// The keys, sorted and deduplicated, less those of `except`.
    fn into_sorted(mut self, except: &[&[CompactKey]], memory: &Memory) -> Vec<CompactKey> {
        self.settle(except, memory);
        self.keys.shrink_to_fit();
        self.keys
    }
}

/// Searches every position reachable from `deal`, layer by layer, each once. `expanded`
/// counts expansions over all passes.
pub fn layered(deal: &Deal, budget: &Budget, expanded: &mut u64, watch: &mut Watch) -> Layered {
    let memory = &budget.memory;
    let compact = Compact::new(deal);
    let mut state = State::from_deal(deal);
    let mut line: Vec<Move> = Vec::new();
    play_automatic(&mut state, &mut line);
    let root = compact.encode(&state);
    if state.is_won() {
        return Layered::Won(root);
    }
    let mut seeds: Vec<Run> = (0..LAYERS).map(|_| Run::new()).collect();
    if !seeds[compact.layer(&root) as usize].push(root, &[], memory) {
        return Layered::Limit(Stop::Memory);
    }
    let mut fresh: Vec<Move> = Vec::new();
    if !(memory.reserve(&mut fresh, super::search::MOST_MOVES)
        && memory.reserve(&mut line, super::search::MOST_MOVES))
    {
        return Layered::Limit(Stop::Memory);
    }
    for p in 0..LAYERS {
        let mut previous: Vec<CompactKey> = Vec::new();
        let mut level = std::mem::replace(&mut seeds[p], Run::new()).into_sorted(&[], memory);
        while !level.is_empty() {
            let mut next = Run::new();
            for x in &level {
                if let Some(why) = budget.spend(expanded, watch) {
                    return Layered::Limit(why);
                }
                let mut state = compact.decode(x);
                fresh.clear();
                generate(&state, &mut fresh);
                for &m in &fresh {
                    line.clear();
                    play(&mut state, m, &mut line);
                    if state.is_won() {
                        return Layered::Won(*x);
                    }
                    let (child, up) = compact.child_key(x, &state, &line);
                    let q = (p as i32 + up) as usize;
                    debug_assert_eq!(q, compact.layer(&child) as usize);
                    debug_assert!(q >= p);
                    let room = if q == p {
                        next.push(child, &[&level, &previous], memory)
                    } else {
                        seeds[q].push(child, &[], memory)
                    };
                    if !room {
                        return Layered::Limit(Stop::Memory);
                    }
                    unwind(&mut state, &mut line, 0);
                }
            }
            let next = next.into_sorted(&[&level, &previous], memory);
            previous = std::mem::replace(&mut level, next);
        }
    }
    Layered::Exhausted
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A run given keys with many repeats, settled now and then, holds each key once, in
    /// order, less those of `except`: as a set difference would.
    #[test]
    fn a_run_keeps_each_new_key_once_in_order() {
        let memory = Memory::from_now(1 << 30);
        let mut seed = 12345u64;
        let mut random = |below: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % below
        };
        // Keys that differ in every word, the high one last (the order compares it first).
        let key = |n: u64| {
            let n = n as u32;
            CompactKey::from_words([n.rotate_left(7), n, !n, n >> 3, (n % 7) << 29 | 1 << 31])
        };
        for universe in [10, 5_000, 60_000] {
            let except_a: Vec<CompactKey> = {
                let mut v: Vec<_> = (0..universe / 3).map(|_| key(random(universe))).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let except_b: Vec<CompactKey> = (0..universe).step_by(5).map(key).collect();
            let mut except_b = except_b;
            except_b.sort_unstable();
            let mut run = Run::new();
            let mut expected = BTreeSet::new();
            for _ in 0..4 * universe + 20_000 {
                let k = key(random(universe));
                assert!(run.push(k, &[&except_a, &except_b], &memory));
                expected.insert(k);
            }
            let got = run.into_sorted(&[&except_a, &except_b], &memory);
            let expected: Vec<CompactKey> = expected
                .into_iter()
                .filter(|k| {
                    except_a.binary_search(k).is_err() && except_b.binary_search(k).is_err()
                })
                .collect();
            assert_eq!(got, expected, "{universe}");
        }
    }
}
