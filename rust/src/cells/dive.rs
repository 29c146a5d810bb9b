//! A depth-first search: from each position the steps in the order of the estimates of the
//! positions they lead to, the first followed until it ends (won, or every step from it
//! leading where the search has been), then the next. It holds one line and the steps not
//! yet taken beside it, and a table of the positions entered, which it may share with other
//! dives (`pack.rs`): one bad step early can keep a dive below that step for long, so the
//! solver runs several, each a turn at a time.

use super::deal::CellsDeal;
use super::moves::{auto_moves, undo, CellsMove, Fits};
use super::order::Weights;
use super::rank::{rank_steps, Room};
use super::state::{CellsKey, CellsState};
use super::steps::{
    generate, generate_digs, generate_runs, left_out_by_digs, line_of, make_step, undo_step, Step,
};
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::table::{Insert, Table};
use crate::solver::Stop;
use std::hash::Hash;

/// What a dive's table holds of a position: its key, or the key's digest. A dive that may
/// prove a deal lost needs the key itself: a digest shared by chance would pass a position by.
pub trait Keyed: Hash + Eq {
    /// Whether two positions are the same when this is.
    const EXACT: bool;
    fn of(state: &CellsState) -> Self;
}

impl Keyed for CellsKey {
    const EXACT: bool = true;
    #[inline]
    fn of(state: &CellsState) -> CellsKey {
        state.key()
    }
}

impl Keyed for u64 {
    const EXACT: bool = false;
    #[inline]
    fn of(state: &CellsState) -> u64 {
        state.digest()
    }
}

/// The steps a dive takes from a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Steps {
    /// Every single-card move, and runs moved as a unit: a dive that runs out of positions
    /// has been everywhere.
    All,
    /// As fc-solve's first scans do: a card goes into a cell, or alone into an empty column,
    /// only as a part of a dig ([`Step::Dig`]) that puts another card up or onto a column,
    /// and a card that lies on a card it fits is not moved alone onto another column. Lines
    /// are shorter, but a dive that runs out proves nothing.
    Digs,
}

/// A position on the line: the step that led to it, the safe moves made after that step
/// (their count, the last ones in `safe`), and where its steps not yet taken start in `ahead`.
struct Frame {
    step: Step,
    safe: usize,
    ahead: usize,
}

/// A depth-first search of one deal, steps ranked by its weights (and its noise, if it has
/// some), that can stop at a count of positions and go on later from where it stopped.
pub struct Dive<'a> {
    deal: &'a CellsDeal,
    weights: Weights,
    state: CellsState,
    /// The safe moves made after the line's steps.
    safe: Vec<CellsMove>,
    kids: Kids,
    /// The line's positions past the deal's, each with the steps from it not yet taken.
    line: Vec<Frame>,
    /// Whether the deal's position has been expanded.
    begun: bool,
    /// Whether memory stopped it: a position entered in the table (or refused by it) then is
    /// not on the line, so going on could skip a part of the tree and call the deal lost.
    spoiled: bool,
}

impl<'a> Dive<'a> {
    pub fn new(
        deal: &'a CellsDeal,
        weights: Weights,
        noise: Option<Noise>,
        steps: Steps,
    ) -> Dive<'a> {
        Dive {
            deal,
            weights,
            state: CellsState::from_deal(deal),
            safe: Vec::new(),
            kids: Kids {
                noise,
                steps,
                ranked: Vec::new(),
                moves: Vec::new(),
                steps_here: Vec::new(),
                room: Room::default(),
            },
            line: Vec::new(),
            begun: false,
            spoiled: false,
        }
    }

    /// The steps it takes.
    pub fn steps(&self) -> Steps {
        self.kids.steps
    }

    /// Goes on until it ends, or `budget` stops it (`End::Limit(Stop::States)` when its
    /// states are spent: it may go on after that; after `End::Limit(Stop::Memory)` it answers
    /// that again, never that the deal is lost).
    pub fn go<K: Keyed>(
        &mut self,
        table: &mut Table<K>,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> End<CellsMove> {
        assert!(
            K::EXACT || self.steps() == Steps::Digs,
            "a complete dive keeps the positions' keys"
        );
        if self.spoiled {
            return End::Limit(Stop::Memory);
        }
        let end = self.go_on(table, budget, expanded, watch);
        self.spoiled = matches!(end, End::Limit(Stop::Memory));
        end
    }

    fn go_on<K: Keyed>(
        &mut self,
        table: &mut Table<K>,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> End<CellsMove> {
        if !self.begun {
            self.begun = true;
            auto_moves(&mut self.state, &mut self.safe);
            if self.state.is_won() {
                return End::Won(std::mem::take(&mut self.safe));
            }
            self.safe.clear();
            // The deal's position is counted once, by the dive that enters it; the others
            // of a pack take its steps too.
            match table.insert(K::of(&self.state)) {
                Insert::Full => return End::Limit(Stop::Memory),
                Insert::Seen => {}
                Insert::New => {
                    if let Some(why) = budget.spend(expanded, watch) {
                        return End::Limit(why);
                    }
                }
            }
            if let Some(won) = self.kids.push(&mut self.state, &self.weights) {
                return End::Won(line_of(self.deal, &[won]));
            }
        }
        let state = &mut self.state;
        loop {
            if budget.max_states.is_some_and(|max| *expanded >= max) {
                return End::Limit(Stop::States);
            }
            let Some(step) = self.kids.next(self.line.last().map_or(0, |f| f.ahead)) else {
                // Every step from here taken: back to the position before.
                let Some(frame) = self.line.pop() else {
                    return End::Exhausted;
                };
                for _ in 0..frame.safe {
                    undo(state, self.safe.pop().expect("a safe move made"));
                }
                undo_step(state, frame.step);
                continue;
            };
            let count = make_step(state, step, &mut self.safe);
            let insert = table.insert(K::of(state));
            if insert != Insert::New {
                for _ in 0..count {
                    undo(state, self.safe.pop().expect("a safe move made"));
                }
                undo_step(state, step);
                if insert == Insert::Full {
                    return End::Limit(Stop::Memory);
                }
                continue;
            }
            if let Some(why) = budget.spend(expanded, watch) {
                return End::Limit(why);
            }
            self.line.push(Frame {
                step,
                safe: count,
                ahead: self.kids.end(),
            });
            if let Some(won) = self.kids.push(state, &self.weights) {
                let mut steps: Vec<Step> = self.line.iter().map(|f| f.step).collect();
                steps.push(won);
                return End::Won(line_of(self.deal, &steps));
            }
        }
    }
}

/// Whole numbers from 0 to `most - 1` added to a dive's estimates, so that dives part ways
/// where their weights alone would rank steps alike (xorshift64 from a fixed seed: the same
/// dive every time, as the reference's).
#[derive(Copy, Clone, Debug)]
pub struct Noise {
    most: u64,
    state: u64,
}

impl Noise {
    pub fn new(most: u64, seed: u64) -> Noise {
        Noise {
            most,
            state: seed | 1,
        }
    }

    fn next(&mut self) -> i32 {
        let s = &mut self.state;
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        // A power of two (the pack's) by a mask: the same number, without a division.
        let n = if self.most.is_power_of_two() {
            *s & (self.most - 1)
        } else {
            *s % self.most
        };
        n as i32
    }
}

/// The steps not yet taken from the line's positions, each position's in a block after those
/// of the position before it, best last (taken first).
struct Kids {
    noise: Option<Noise>,
    steps: Steps,
    ranked: Vec<(i32, Step)>,
    moves: Vec<CellsMove>,
    steps_here: Vec<Step>,
    room: Room,
}

impl Kids {
    /// The steps from `state`, ranked, as a new block; the step that wins, if one does.
    fn push(&mut self, state: &mut CellsState, weights: &Weights) -> Option<Step> {
        self.moves.clear();
        let fitting = Fits::of(state);
        generate(state, &fitting, &mut self.moves);
        let here = &mut self.steps_here;
        here.clear();
        match self.steps {
            Steps::All => here.extend(self.moves.iter().map(|&m| Step::One(m))),
            Steps::Digs => {
                here.extend(
                    self.moves
                        .iter()
                        .filter(|m| !left_out_by_digs(state, m))
                        .map(|&m| Step::One(m)),
                );
            }
        }
        generate_runs(state, &fitting, here);
        if self.steps == Steps::Digs {
            generate_digs(state, &fitting, here);
        }
        let start = self.ranked.len();
        let ranked = &mut self.ranked;
        let noise = &mut self.noise;
        let won = rank_steps(state, here, weights, &mut self.room, |near, step| {
            let bump = noise.as_mut().map_or(0, Noise::next);
            ranked.push((near + bump, step));
        });
        // Best last; of steps as near, the one met last.
        self.ranked[start..].sort_by_key(|&(near, _)| std::cmp::Reverse(near));
        won
    }

    /// Where the next block will start.
    fn end(&self) -> usize {
        self.ranked.len()
    }

    /// The next step of the block starting at `start` (the last block), taken off it.
    fn next(&mut self, start: usize) -> Option<Step> {
        if self.ranked.len() > start {
            self.ranked.pop().map(|(_, s)| s)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::moves::replays_to_win;
    use super::super::order::WEIGHTS;
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::budget::{Deadline, Start};
    use crate::solver::heap::Memory;
    use crate::solver::Limits;

    fn budget(states: Option<u64>) -> Budget {
        let limits = Limits::states(states);
        Budget {
            max_states: states,
            deadline: Deadline::after(&limits, &Start::now(), 1.0),
            memory: Memory::from_now(limits.max_memory),
        }
    }

    /// A dive stopped now and then and gone on with finds what one never stopped finds, in
    /// as many positions.
    #[test]
    fn a_dive_goes_on_where_it_stopped() {
        for n in [1, 2, 5, 617] {
            let deal = CellsDeal::from_number(Variant::FreeCell, n).unwrap();
            let mut watch_a = || false;
            let mut watch = Watch::new(Start::now().wall, &mut watch_a);
            let (mut straight, mut stopped) = (0u64, 0u64);
            let mut once = Dive::new(&deal, WEIGHTS, None, Steps::All);
            let mut table: Table<CellsKey> = Table::new(budget(None).memory);
            let End::Won(line) = once.go(&mut table, &budget(None), &mut straight, &mut watch)
            else {
                panic!("deal {n} is won");
            };
            assert!(replays_to_win(&deal, &line));
            let mut dive = Dive::new(&deal, WEIGHTS, None, Steps::All);
            let mut table: Table<CellsKey> = Table::new(budget(None).memory);
            let end = loop {
                let until = budget(Some(stopped + 7));
                match dive.go(&mut table, &until, &mut stopped, &mut watch) {
                    End::Limit(Stop::States) => assert_eq!(stopped, until.max_states.unwrap()),
                    end => break end,
                }
            };
            assert_eq!((end, stopped), (End::Won(line), straight), "deal {n}");
        }
    }

    /// A dive that memory stopped cannot go on soundly (the position it was entering is in
    /// the table, not on its line): on deal 11982, which no play wins, once the budget's
    /// memory stops it, it says so again when asked to go on, never that it ran out of
    /// positions, nor goes on at all.
    #[test]
    fn a_dive_memory_stopped_never_calls_the_deal_lost() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 11982).unwrap();
        let mut never = || false;
        let mut watch = Watch::new(Start::now().wall, &mut never);
        let mut expanded = 0;
        let mut dive = Dive::new(&deal, WEIGHTS, None, Steps::All);
        let mut table: Table<CellsKey> = Table::new(budget(None).memory);
        let some = budget(Some(50));
        assert_eq!(
            dive.go(&mut table, &some, &mut expanded, &mut watch),
            End::Limit(Stop::States)
        );
        // No byte more from now on: the next allocation stops it between two positions.
        let full = Budget {
            memory: Memory::from_now(0),
            ..budget(None)
        };
        assert_eq!(
            dive.go(&mut table, &full, &mut expanded, &mut watch),
            End::Limit(Stop::Memory)
        );
        let (stopped, roomy) = (expanded, budget(Some(expanded + 10_000)));
        assert_eq!(
            dive.go(&mut table, &roomy, &mut expanded, &mut watch),
            End::Limit(Stop::Memory)
        );
        assert_eq!(
            expanded, stopped,
            "it does not go on from where memory stopped it"
        );
    }

    /// A dive with no limit goes everywhere: on deal 11982, which no play wins, dives with
    /// and without noise, and with other weights, run out having expanded as many positions
    /// (every position reachable, whatever the order).
    #[test]
    fn a_dive_that_runs_out_has_been_everywhere() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 11982).unwrap();
        let mut never = || false;
        let mut watch = Watch::new(Start::now().wall, &mut never);
        let mut counts = Vec::new();
        for (weights, noise) in [
            (WEIGHTS, None),
            (WEIGHTS, Some(Noise::new(8, 5))),
            (
                super::super::order::DIVE_WEIGHTS[4],
                Some(Noise::new(100, 9)),
            ),
        ] {
            let mut expanded = 0;
            let mut dive = Dive::new(&deal, weights, noise, Steps::All);
            let mut table: Table<CellsKey> = Table::new(budget(None).memory);
            let end = dive.go(&mut table, &budget(None), &mut expanded, &mut watch);
            assert_eq!(end, End::Exhausted);
            assert_eq!(expanded as usize, table.len());
            counts.push(expanded);
        }
        assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
    }
}
