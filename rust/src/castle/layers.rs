//! The layered pass: the complete pass goes on here when the depth-first
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
//! tail is sorted, rid of repeats and of keys in the levels before, and merged in (`runs.rs`).
//! The order of expansion is the keys' order, which the reference follows.
//!
//! With a spill directory, memory full is not the end: the largest of what waits (the level
//! before, the next level, a layer's seeds) goes to a file, and a level too large for a quarter
//! of the bound is merged into a file and read from there (`runs.rs`). The levels and their
//! order are the same, so the search is too, position for position.
//!
//! A win found here is a position one move (and the automatic moves after it) from a win; the
//! line to it is rebuilt by a depth-first search towards it (`hand_off.rs`).

use std::rc::Rc;

use super::compact::{Compact, CompactKey};
use super::deal::Deal;
use super::moves::{generate, play, play_automatic, quiet_moves, unwind, Move, MOST_MOVES};
use super::recent::{Recent, RECENT_SLOTS};
use super::runs::{polled, Run, Sorted, MERGE_POLL};
use super::state::State;
use crate::solver::budget::{Budget, Watch};
use crate::solver::disk::{Disk, Spill};
use crate::solver::Stop;

/// More than any layer: 52 cards, each counted at most twice.
pub(super) const LAYERS: usize = 105;

/// How the layered pass ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Layered {
    /// A position from which one move (and the automatic moves after it) wins.
    Won(CompactKey),
    /// Every position reachable from the deal was expanded: there is no win.
    Exhausted,
    Limit(Stop),
}

/// How the complete pass goes on when its table is full.
#[derive(Clone, Debug, Default)]
pub struct Overflow {
    /// The table counts as full at this many positions (the tests'), else at the memory bound.
    pub layers_after: Option<u64>,
    /// Where the layers may put keys when memory is full (else they stop there).
    pub spill: Option<Spill>,
    /// The table size at which the complete pass first makes its tries (`tries.rs`: the orbit
    /// pass, then a beam; the tests'), else `orbits::ORBITS_AFTER`.
    pub orbits_after: Option<u64>,
}

/// Searches every position reachable from `deal`, layer by layer, each once. `expanded`
/// counts expansions over all passes.
pub fn layered(
    deal: &Deal,
    budget: &Budget,
    spill: Option<&Spill>,
    expanded: &mut u64,
    watch: &mut Watch,
) -> Layered {
    Layers::from_deal(deal, budget, spill, watch)
        .map_or_else(Layered::Limit, |ready| ready.search(expanded, watch))
}

/// The layered pass seeded, ready to search; or a win met while seeding it (a position one
/// move from a win, as the search's).
pub enum Ready<'a> {
    // (Boxed: the layers' holdings are large beside a key.)
    Search(Box<Layers<'a>>),
    Won(CompactKey),
}

impl Ready<'_> {
    /// The layered pass's end: the win met while seeding, or the search's.
    pub fn search(self, expanded: &mut u64, watch: &mut Watch) -> Layered {
        match self {
            Ready::Won(key) => Layered::Won(key),
            Ready::Search(layers) => layers
                .search(expanded, watch)
                .unwrap_or_else(Layered::Limit),
        }
    }
}

/// The layered pass's holdings: each later layer's seeds and, when it goes on from a
/// depth-first pass, the positions that pass expanded, by layer.
///
/// Going on from a depth-first pass whose table is full (`hand_off.rs`), the positions it
/// expanded (V) are not expanded again, and its untried moves' positions (F) are the seeds.
/// Every position the deal leads to is in V or is reached from F without passing through V:
/// on a line from the deal, the position after the last one in V is a child of a position in
/// V not expanded to the end, one on the depth-first stack, and so in F (a position in V off
/// the stack has every child in V). A layer's positions outside V, with the moves between
/// them, are still an undirected graph (a move between two of them has its reverse between
/// the same two), so the breadth-first search of it from its seeds holds: a level is what the
/// one before leads to, less the current level, the one before, and the layer's part of V.
pub struct Layers<'a> {
    compact: Compact,
    budget: &'a Budget,
    disk: Option<Rc<Disk>>,
    seeds: Vec<Run>,
    visited: Vec<Sorted>,
    /// Keys of the next level or the current one, lately (not pushed again): made first, while
    /// the bound has room.
    recent: Recent,
}

impl<'a> Layers<'a> {
    /// Nothing seeded yet, no positions expanded; the spill directory opened, if any.
    pub fn new(deal: &Deal, budget: &'a Budget, spill: Option<&Spill>) -> Result<Layers<'a>, Stop> {
        let memory = &budget.memory;
        // Buffers of a 64th of the bound, within reason: a run has at most 9 files to read at
        // once.
        let buffer = (memory.max / 64).clamp(4 << 10, 1 << 20);
        let disk = spill.map(|s| Disk::open(s, buffer)).transpose()?;
        Ok(Layers {
            compact: Compact::new(deal),
            budget,
            disk,
            seeds: (0..LAYERS).map(|_| Run::new()).collect(),
            visited: (0..LAYERS).map(|_| Sorted::empty()).collect(),
            recent: Recent::new(&budget.memory, RECENT_SLOTS).ok_or(Stop::Memory)?,
        })
    }

    /// The layers seeded with the deal alone.
    pub fn from_deal(
        deal: &Deal,
        budget: &'a Budget,
        spill: Option<&Spill>,
        watch: &mut Watch,
    ) -> Result<Ready<'a>, Stop> {
        let mut layers = Layers::new(deal, budget, spill)?;
        let mut state = State::from_deal(deal);
        let mut line: Vec<Move> = Vec::new();
        play_automatic(&mut state, &mut line);
        let root = layers.compact.encode(&state);
        if state.is_won() {
            return Ok(Ready::Won(root));
        }
        layers.seed(root, watch)?;
        Ok(Ready::Search(Box::new(layers)))
    }

    /// The positions a depth-first pass expanded, in any order, each once: none is expanded
    /// here. With a disk they go to a file as they come (the table they come from gives its
    /// room back as it goes), then into a sorted file a layer; else into memory.
    pub fn visited(
        &mut self,
        mut keys: impl Iterator<Item = CompactKey>,
        watch: &mut Watch,
    ) -> Result<(), Stop> {
        let budget = self.budget;
        let disk = self.disk.as_ref();
        let mut runs: Vec<Run> = (0..LAYERS).map(|_| Run::new()).collect();
        // Each key into its layer's run; memory full moves the largest run to disk, if any.
        let mut put = |key: CompactKey, watch: &mut Watch| {
            let q = self.compact.layer(&key) as usize;
            while !runs[q].push(key, &[], budget, watch)? {
                spill_largest(&mut runs, disk.ok_or(Stop::Memory)?, budget, watch)?;
            }
            Ok::<(), Stop>(())
        };
        match disk {
            Some(disk) => {
                let mut out = disk.create::<{ CompactKey::BYTES }>()?;
                for (i, key) in keys.enumerate() {
                    out.push(&key.to_bytes())?;
                    if (i as u64 + 1).is_multiple_of(MERGE_POLL) {
                        polled(budget, watch)?;
                    }
                }
                let all = out.finish()?;
                let mut reader = all.read()?;
                let mut i = 0u64;
                while let Some(bytes) = reader.record()? {
                    put(CompactKey::from_bytes(&bytes), watch)?;
                    i += 1;
                    if i.is_multiple_of(MERGE_POLL) {
                        polled(budget, watch)?;
                    }
                }
            }
            None => keys.try_for_each(|key| put(key, watch))?,
        }
        for (q, run) in runs.into_iter().enumerate() {
            let mut sorted = run.finish(&[], disk, budget, watch)?;
            if let Some(disk) = disk {
                sorted.spill(disk, budget, watch)?;
            }
            self.visited[q] = sorted;
        }
        Ok(())
    }

    /// A position to search from (in its layer, when that layer's turn comes).
    pub fn seed(&mut self, key: CompactKey, watch: &mut Watch) -> Result<(), Stop> {
        let q = self.compact.layer(&key) as usize;
        for tries in 0..2 {
            let seen = [memory_part(&self.visited[q])];
            if self.seeds[q].push(key, &seen, self.budget, watch)? {
                return Ok(());
            }
            match &self.disk {
                Some(disk) if tries == 0 => {
                    spill_largest(&mut self.seeds, disk, self.budget, watch)?
                }
                _ => break,
            }
        }
        Err(Stop::Memory)
    }

    /// Searches the layers in order from their seeds, each position once.
    pub fn search(self, expanded: &mut u64, watch: &mut Watch) -> Result<Layered, Stop> {
        // All in locals, as the loop's hot state.
        let Layers {
            compact,
            budget,
            disk,
            mut seeds,
            mut visited,
            mut recent,
        } = self;
        let disk = disk.as_ref();
        let (mut fresh, mut line): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
        let mut children: Vec<(CompactKey, i32)> = Vec::new();
        if !(budget.memory.reserve(&mut fresh, MOST_MOVES)
            && budget.memory.reserve(&mut line, MOST_MOVES)
            && budget.memory.reserve(&mut children, MOST_MOVES))
        {
            return Err(Stop::Memory);
        }
        for p in 0..LAYERS {
            let mut previous = Sorted::empty();
            let seen = std::mem::replace(&mut visited[p], Sorted::empty());
            let seeded = std::mem::replace(&mut seeds[p], Run::new());
            let mut level = seeded.finish(&[&seen], disk, budget, watch)?;
            while !level.is_empty() {
                let mut next = Run::new();
                recent.clear();
                let mut at = level.cursor()?;
                while let Some(x) = at.head() {
                    at.advance()?;
                    if let Some(why) = budget.spend(expanded, watch) {
                        return Err(why);
                    }
                    recent.note(x);
                    // Most moves are quiet: their children are keyed from the tops, with
                    // no move made and no column laid out. The others are made on the
                    // whole position.
                    children.clear();
                    let loud = quiet_moves(&compact.tops(&x), |card, onto| {
                        let mut child = x;
                        let up = compact.place(&mut child, card, onto);
                        children.push((child, up));
                    });
                    if loud {
                        let mut state = compact.decode(&x);
                        fresh.clear();
                        generate(&state, &mut fresh);
                        for &m in &fresh {
                            if compact.quiet_child(&x, &state, m).is_some() {
                                continue;
                            }
                            line.clear();
                            play(&mut state, m, &mut line);
                            if state.is_won() {
                                return Ok(Layered::Won(x));
                            }
                            children.push(compact.child_key(&x, &state, &line));
                            unwind(&mut state, &mut line, 0);
                        }
                    }
                    for &(child, up) in &children {
                        let q = (p as i32 + up) as usize;
                        debug_assert_eq!(q, compact.layer(&child) as usize);
                        debug_assert!(q >= p);
                        if q == p && recent.noted(child) {
                            continue;
                        }
                        // Twice at most: the second time after keys went to disk.
                        for tries in 0..2 {
                            let held = [
                                memory_part(&level),
                                memory_part(&previous),
                                memory_part(&seen),
                            ];
                            let room = if q == p {
                                next.push(child, &held, budget, watch)?
                            } else {
                                let seen = [memory_part(&visited[q])];
                                seeds[q].push(child, &seen, budget, watch)?
                            };
                            if room {
                                break;
                            }
                            match disk {
                                Some(disk) if tries == 0 => make_room(
                                    memory_part(&level),
                                    &mut previous,
                                    &mut next,
                                    &mut seeds,
                                    disk,
                                    budget,
                                    watch,
                                )?,
                                _ => return Err(Stop::Memory),
                            }
                        }
                    }
                }
                drop(at);
                let next = next.finish(&[&level, &previous, &seen], disk, budget, watch)?;
                previous = std::mem::replace(&mut level, next);
            }
        }
        Ok(Layered::Exhausted)
    }
}

/// Moves the largest of `runs` in memory to disk; memory full of small runs is the bound
/// reached.
fn spill_largest(
    runs: &mut [Run],
    disk: &Rc<Disk>,
    budget: &Budget,
    watch: &mut Watch,
) -> Result<(), Stop> {
    let (largest, at) = runs
        .iter()
        .enumerate()
        .map(|(q, run)| (run.memory_bytes(), q))
        .max()
        .unwrap_or((0, 0));
    if largest < budget.memory.max / 64 {
        return Err(Stop::Memory);
    }
    runs[at].spill(&[], disk, budget, watch)
}

/// The keys of `sorted` in memory (none if they are in a file).
fn memory_part(sorted: &Sorted) -> &[CompactKey] {
    sorted.in_memory().unwrap_or(&[])
}

/// Frees memory when it is full: the largest of what waits (the level before, the next level,
/// a later layer's seeds) moves to disk. The level being expanded stays where it is. Memory
/// full of small holdings is the bound reached.
fn make_room(
    level: &[CompactKey],
    previous: &mut Sorted,
    next: &mut Run,
    seeds: &mut [Run],
    disk: &Rc<Disk>,
    budget: &Budget,
    watch: &mut Watch,
) -> Result<(), Stop> {
    let largest = seeds.iter().map(Run::memory_bytes).max().unwrap_or(0);
    let least = budget.memory.max / 64;
    let held = [level, memory_part(previous)];
    if previous.memory_bytes() >= next.memory_bytes().max(largest).max(least) {
        previous.spill(disk, budget, watch)
    } else if next.memory_bytes() >= largest.max(least) {
        next.spill(&held, disk, budget, watch)
    } else {
        spill_largest(seeds, disk, budget, watch)
    }
}

#[cfg(test)]
mod tests {
    use super::super::search::complete_pass;
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::budget::End;
    use crate::solver::heap::{peak_since, reset_peak, Memory};
    use std::path::PathBuf;

    /// A fresh directory under the system's temporary one.
    fn spill_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("castle-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        dir
    }

    fn overflow(dir: Option<&PathBuf>, max_bytes: u64) -> Overflow {
        Overflow {
            layers_after: Some(1),
            spill: dir.map(|dir| Spill {
                dir: dir.clone(),
                max_bytes,
            }),
            ..Overflow::default()
        }
    }

    /// Under a bound that stops the layers in memory alone, the layers with disk expand the
    /// same positions as in memory unbounded (the order is the keys' wherever they lie), and
    /// leave no file behind.
    #[test]
    fn on_disk_the_layers_expand_the_same_positions() {
        let dir = spill_dir("same");
        let deals = [
            (Variant::BeleagueredCastle, 162),
            (Variant::StreetsAndAlleys, 68),
            (Variant::Citadel, 229),
        ];
        for (variant, number) in deals {
            let deal = Deal::from_number(variant, number).unwrap();
            let free = complete_pass(&deal, None, usize::MAX, &overflow(None, 0), &mut || false);
            assert_eq!(free.0, End::Exhausted, "{variant:?} {number}");
            // 1.5 MiB: Streets and Alleys 68's layers fit in 2 MiB, their runs grown in place.
            let small = 3 << 19;
            let (end, _) = complete_pass(&deal, None, small, &overflow(None, 0), &mut || false);
            assert_eq!(end, End::Limit(Stop::Memory), "{variant:?} {number}");
            let memory = Memory::from_now(small);
            reset_peak();
            let spilled = complete_pass(
                &deal,
                None,
                small,
                &overflow(Some(&dir), u64::MAX),
                &mut || false,
            );
            assert_eq!(spilled, free, "{variant:?} {number}");
            // The bound, and a little: a file's buffer may be counted just past it.
            let peak = peak_since(&memory);
            assert!(
                peak <= small + (small >> 2),
                "{variant:?} {number}: {peak} bytes"
            );
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Past the disk bound, or with no directory to spill in, the answer is the disk named:
    /// never a panic, and nothing left behind.
    #[test]
    fn the_disk_bound_stops_the_layers() {
        let dir = spill_dir("bound");
        let deal = Deal::from_number(Variant::BeleagueredCastle, 162).unwrap();
        let small = 6 << 20;
        let (end, _) = complete_pass(
            &deal,
            None,
            small,
            &overflow(Some(&dir), 1 << 20),
            &mut || false,
        );
        assert_eq!(end, End::Limit(Stop::Disk));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let gone = dir.join("missing");
        let (end, _) = complete_pass(
            &deal,
            None,
            small,
            &overflow(Some(&gone), u64::MAX),
            &mut || false,
        );
        assert_eq!(end, End::Limit(Stop::Disk));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
