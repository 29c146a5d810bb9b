//! The complete pass past its table: when the depth-first walk fills the memory bound, the
//! layered pass (`layers.rs`) goes on from where it stopped, and the line to the win the layers
//! find is rebuilt by a walk towards it.

use super::compact::{Compact, CompactKey};
use super::deal::Deal;
use super::keys::{Exact, Keys};
use super::layers::{Layers, Ready};
use super::moves::{apply, generate, play, play_automatic, unwind, Move};
use super::state::State;
use super::walk::{Stopped, Walk};
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::disk::Spill;
use crate::solver::table::Insert;
use crate::solver::Stop;

/// The layered pass seeded from where the depth-first walk stopped (`layers.rs`, [`Layers`]):
/// the positions of its table are expanded already, and the positions its untried moves lead
/// to (and the one it stopped at) are the seeds. The table's room is given back as its keys
/// move, first of all; then the stack is replayed from the deal to find the seeds, each
/// frame's untried moves in the order it would have tried them (one that wins ends it there,
/// as in the layers).
pub(super) fn hand_off<'a>(
    deal: &Deal,
    exact: Exact,
    stopped: Stopped<CompactKey>,
    budget: &'a Budget,
    spill: Option<&Spill>,
    watch: &mut Watch,
) -> Result<Ready<'a>, Stop> {
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
                return Ok(Ready::Won(key));
            }
            layers.seed(compact.child_key(&key, &state, &line).0, watch)?;
            unwind(&mut state, &mut line, 0);
        }
    }
    layers.seed(pending, watch)?;
    Ok(Ready::Search(Box::new(layers)))
}

/// The line to a win through `next_to_win`, a position the layered pass found one move (and
/// the automatic moves after it) from a win: a depth-first pass towards it that enters only
/// the positions whose facts (`Compact::facts`) are among its own (every line to it passes only
/// through such), then the winning move; or a win that pass comes upon first. Its positions
/// count as expansions, under the same budget.
///
/// It walks again from the deal: what the first walk kept cannot give the line. Its table
/// went to the layers as their first level, and its stack was replayed to their seeds and
/// given back, for the room the layers needed; and neither the table nor the layers keep how
/// each position was reached (a parent for each would cost more than its key, where the
/// memory bound is already reached).
pub(super) fn rebuild(
    deal: &Deal,
    next_to_win: CompactKey,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    let Some(exact) = Exact::new(deal, budget.memory) else {
        return End::Limit(Stop::Memory);
    };
    let facts = exact.compact.facts(&next_to_win);
    let mut walk = Walk::new(deal, Toward { exact, facts }, &budget.memory);
    walk.goal = Some(next_to_win);
    let mut path = match walk.run_out(budget, expanded, watch) {
        End::Won(path) => path,
        End::Exhausted => unreachable!("the layered pass reached a position the deal cannot"),
        limit => return limit,
    };
    drop(walk);
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

/// The keys of a walk towards a position whose facts are `facts`: the complete pass's, but
/// only the positions that can lead there are entered (something done in a position that the
/// goal has not cannot be undone on the way to it).
struct Toward {
    exact: Exact,
    facts: u128,
}

impl Keys for Toward {
    type Key = CompactKey;
    const EAGER: bool = Exact::EAGER;
    #[inline]
    fn key(&self, parent: Option<&CompactKey>, state: &State, moves: &[Move]) -> CompactKey {
        self.exact.key(parent, state, moves)
    }
    #[inline(always)]
    fn quiet_key(&self, parent: &CompactKey, state: &State, m: Move) -> Option<CompactKey> {
        self.exact.quiet_key(parent, state, m)
    }
    #[inline(always)]
    fn prefetch(&self, key: &CompactKey) -> Option<u64> {
        self.exact.prefetch(key)
    }
    #[inline(always)]
    fn refetch(&self, key: &CompactKey, hash: u64) -> bool {
        self.exact.refetch(key, hash)
    }
    #[inline]
    fn insert(&mut self, key: &CompactKey, hash: u64, state: &State) -> Insert {
        if self.exact.compact.facts(key) & !self.facts != 0 {
            return Insert::Seen;
        }
        self.exact.insert(key, hash, state)
    }
}

#[cfg(test)]
mod layered_tests {
    use super::super::layers::Overflow;
    use super::super::moves::replays_to_win;
    use super::super::search::tests::limits;
    use super::super::search::{complete_pass, solve};
    use super::super::state::State;
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::budget::Deadline;
    use crate::solver::disk::Spill;
    use crate::solver::heap::Memory;
    use crate::solver::heap::{peak_since, reset_peak};
    use crate::solver::Status;
    use std::time::Instant;

    fn budget(max_states: Option<u64>, max_memory: usize) -> Budget {
        Budget {
            max_states,
            deadline: Deadline::NONE,
            memory: Memory::from_now(max_memory),
        }
    }

    /// The complete pass with its table full at `layers_after` positions, and the expansions;
    /// its tries never due, so that the walk and the layers decide.
    fn complete(deal: &Deal, max_states: u64, layers_after: Option<u64>) -> (End<Move>, u64) {
        let overflow = Overflow {
            layers_after,
            orbits_after: Some(u64::MAX),
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
                orbits_after: Some(u64::MAX),
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
    /// table; in layers the complete pass decides it in that bound, holding no more (its tries
    /// off: the orbit pass would prove it first).
    #[test]
    fn layers_decide_a_deal_the_table_cannot_hold() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 162).unwrap();
        let max_memory = 24 << 20;
        let memory = Memory::from_now(max_memory);
        let tries_off = Overflow {
            orbits_after: Some(u64::MAX),
            ..Overflow::default()
        };
        reset_peak();
        let (end, _) = complete_pass(&deal, None, max_memory, &tries_off, &mut || false);
        assert_eq!(end, End::Exhausted);
        let peak = peak_since(&memory);
        assert!(peak <= max_memory, "{peak} bytes held under {max_memory}");
        // The depth-first pass ran out first.
        let mut interrupted = || false;
        let mut watch = Watch::new(Instant::now(), &mut interrupted);
        let budget = budget(None, max_memory);
        let exact = Exact::new(&deal, budget.memory).unwrap();
        let end = Walk::new(&deal, exact, &budget.memory).run_out(&budget, &mut 0, &mut watch);
        assert_eq!(end, End::Limit(Stop::Memory));
    }
}
