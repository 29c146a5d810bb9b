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
//! keys are appended, then sorted and deduplicated (less the levels before) whenever the
//! unsorted tail is as long as the sorted part. The order of expansion is the keys' order,
//! which the reference follows.
//!
//! A win found here is a position one move (and the automatic moves after it) from a win; the
//! line to it is rebuilt by a depth-first search towards it (`search.rs`).

use super::compact::{Compact, CompactKey};
use super::deal::Deal;
use super::moves::{apply, generate, play_automatic, undo, Move};
use super::state::State;
use crate::solver::budget::{Budget, Watch};
use crate::solver::heap::Memory;
use crate::solver::Stop;

/// More than any layer: 52 cards, each counted at most twice.
const LAYERS: usize = 105;
/// A run is sorted once its tail is this long, at least (and as long as its sorted part).
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

    /// Appends `key`, first sorting the run (less the keys of `except`) if its tail has grown
    /// as long as its sorted part. False if the memory bound forbids it.
    fn push(&mut self, key: CompactKey, except: &[&[CompactKey]], memory: &Memory) -> bool {
        if self.keys.len() == self.keys.capacity()
            && self.keys.len() - self.sorted >= self.sorted.max(LEAST_TAIL)
        {
            self.settle(except);
        }
        if !memory.reserve(&mut self.keys, 1) {
            return false;
        }
        self.keys.push(key);
        true
    }

    /// Sorts and deduplicates the run, less the keys of `except` (each sorted).
    fn settle(&mut self, except: &[&[CompactKey]]) {
        if self.sorted < self.keys.len() {
            self.keys.sort_unstable();
            self.keys.dedup();
            for sorted in except {
                remove_sorted(&mut self.keys, sorted);
            }
            self.sorted = self.keys.len();
        }
    }

    /// The keys, sorted and deduplicated, less those of `except`.
    fn into_sorted(mut self, except: &[&[CompactKey]]) -> Vec<CompactKey> {
        self.settle(except);
        self.keys.shrink_to_fit();
        self.keys
    }
}

/// Removes from `keys` (sorted) those in `gone` (sorted).
fn remove_sorted(keys: &mut Vec<CompactKey>, gone: &[CompactKey]) {
    let mut i = 0;
    keys.retain(|key| {
        while i < gone.len() && gone[i] < *key {
            i += 1;
        }
        i >= gone.len() || gone[i] != *key
    });
}

/// Searches every position reachable from `deal`, layer by layer, each once. `expanded`
/// counts expansions over all passes.
pub fn layered(deal: &Deal, budget: &Budget, expanded: &mut u64, watch: &mut Watch) -> Layered {
    let memory = &budget.memory;
    let compact = Compact::new(deal);
    let mut state = State::from_deal(deal);
    let mut line: Vec<Move> = Vec::new();
    play_automatic(&mut state, &mut line);
    if state.is_won() {
        return Layered::Won(compact.encode(&state));
    }
    let mut seeds: Vec<Run> = (0..LAYERS).map(|_| Run::new()).collect();
    let root = compact.encode(&state);
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
        let mut level = std::mem::replace(&mut seeds[p], Run::new()).into_sorted(&[]);
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
                    apply(&mut state, m);
                    line.push(m);
                    play_automatic(&mut state, &mut line);
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
                    for &moved in line.iter().rev() {
                        undo(&mut state, moved);
                    }
                }
            }
            let next = next.into_sorted(&[&level, &previous]);
            previous = std::mem::replace(&mut level, next);
        }
    }
    Layered::Exhausted
}
