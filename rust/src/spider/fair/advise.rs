//! The fair player's choice: which exit of the quiet search to take, judged in many worlds.
//!
//! Every exit is legal in every world that agrees with what the player sees (its moves read
//! only face-up cards). In each of `worlds` sampled worlds, each exit is made, the card it
//! shows read from that world, and a short beam looks ahead from there; an exit's worth is
//! how many of its worlds the beam wins, then how near a win it comes on average. The same
//! worlds judge every exit, so that luck does not decide between them. Once nothing is
//! hidden there is one world, the real one, and the advice is the solver's plan.

use super::super::beam::{beam_from, Weights, WEIGHTS};
use super::super::deal::Suits;
use super::super::moves::{apply, is_legal, SpiderMove};
use super::super::search;
use super::super::state::{SpiderKey, SpiderState};
use super::quiet::{self, Exit};
use super::view::View;
use crate::solver::budget::{Budget, Deadline, End, Watch};
use crate::solver::heap::Memory;
use crate::solver::{Limits, Status, Stop};
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How hard the fair player thinks before one choice.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Effort {
    /// Worlds each exit is judged in; 0: none, the first of the ranked exits is taken.
    pub worlds: usize,
    /// The look-ahead beam's width, and the positions it may expand in one world.
    pub width: usize,
    pub states: u64,
    /// Positions the quiet search may reach.
    pub quiet: usize,
    /// Positions the solver may expand once nothing is hidden.
    pub exact: u64,
    /// What the look-ahead ranks positions by.
    pub weights: Weights,
    /// Threads that judge worlds at once.
    pub threads: usize,
    /// Positions of each quiet search in a roll-out; 0: the look-ahead is the beam.
    pub rollout: usize,
    /// The exits judged in the worlds: the first of [`quiet::Quiet::ranked`].
    pub candidates: usize,
}

impl Effort {
    /// The effort the fair player spends with `suits`' deck, by default: the settings that won
    /// most in the measures of docs/spider.md ("What was tried").
    pub fn for_deck(suits: Suits) -> Effort {
        let base = Effort {
            worlds: 0,
            width: 50,
            states: 3_000,
            quiet: 5_000,
            exact: 2_000_000,
            weights: Weights {
                empty: 5,
                ..WEIGHTS
            },
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
            rollout: 40,
            candidates: 4,
        };
        match suits {
            // Play-outs in 4 worlds: 18 of deals 1-20 against the greedy player's 16.
            Suits::One => Effort {
                worlds: 4,
                weights: Weights {
                    empty: 12,
                    ..WEIGHTS
                },
                ..base
            },
            // The greedy player: play-outs lost more two-suit games than they won.
            Suits::Two => Effort {
                weights: Weights {
                    empty: 5,
                    suit_break: 7,
                    ..WEIGHTS
                },
                ..base
            },
            Suits::Four => base,
        }
    }
}

/// What the fair player advises.
#[derive(Clone, Debug, PartialEq)]
pub enum Advice {
    /// Moves to make: quiet moves and the exit that ends them, or (`exact`) the solver's
    /// win once nothing is hidden. `won` of `worlds` worlds were won by the look-ahead.
    Plan {
        moves: Vec<SpiderMove>,
        exact: bool,
        won: usize,
        worlds: usize,
    },
    /// No move helps: nothing can be shown any more and no win is left (`proved`: the
    /// solver proved it, with nothing hidden), or only positions already played lead on.
    NoMove { proved: bool },
}

/// How one exit fared across the worlds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Worth {
    won: usize,
    /// The look-ahead's estimates reached, summed over the worlds (lower is better).
    near: i64,
}

/// The fair player's advice from what `view` shows, never leading back into a position of
/// `visited`. The worlds are drawn from `seed` and the view together: the same view and seed,
/// the same advice.
pub fn advise(view: &View, visited: &[SpiderKey], seed: u64, effort: &Effort) -> Advice {
    let seed = view.key().0.iter().fold(seed, |h, &w| {
        (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
    });
    if view.hidden() == 0 {
        let world = view.plain_world();
        match solve_open(&world, effort.exact) {
            End::Won(moves) => {
                return Advice::Plan {
                    moves,
                    exact: true,
                    won: 1,
                    worlds: 1,
                }
            }
            End::Exhausted => return Advice::NoMove { proved: true },
            End::Limit(_) => {} // judged as below, in the one world there is
        }
    }
    let mut found = quiet::search(
        view.plain_world(),
        &visited.iter().copied().collect(),
        effort.quiet,
        &effort.weights,
    );
    if found.exits.is_empty() && found.won.is_none() && visited.len() > 1 {
        // Every way on passes a position played before: going back is then the way forward.
        found = quiet::search(
            view.plain_world(),
            &FxHashSet::default(),
            effort.quiet,
            &effort.weights,
        );
    }
    if let Some(moves) = found.won {
        return Advice::Plan {
            moves,
            exact: true,
            won: 1,
            worlds: 1,
        };
    }
    let exits = found.ranked(effort.candidates);
    match exits.len() {
        0 => Advice::NoMove { proved: false },
        // One exit, or none to judge it in: the best-ranked one.
        1 => Advice::Plan {
            moves: exits[0].moves.clone(),
            exact: false,
            won: 0,
            worlds: 0,
        },
        _ if effort.worlds == 0 => Advice::Plan {
            moves: exits[0].moves.clone(),
            exact: false,
            won: 0,
            worlds: 0,
        },
        _ => {
            let count = if view.hidden() == 0 { 1 } else { effort.worlds };
            let worlds = view.sample_worlds(seed, count);
            let worths = judge(&exits, &worlds, effort);
            // The most worlds won, then the nearest on average; ties to the greedy order.
            let best = (0..exits.len())
                .min_by_key(|&i| (std::cmp::Reverse(worths[i].won), worths[i].near))
                .unwrap_or(0);
            Advice::Plan {
                moves: exits[best].moves.clone(),
                exact: false,
                won: worths[best].won,
                worlds: worlds.len(),
            }
        }
    }
}

/// The solver on a position with nothing hidden: its answer is exact.
fn solve_open(world: &SpiderState, states: u64) -> End<SpiderMove> {
    let limits = Limits {
        max_states: Some(states),
        max_seconds: None,
        max_cpu_seconds: None,
        max_memory: 1 << 30,
    };
    let outcome = search::solve(&world.to_deal(), &limits, &mut || false);
    match outcome.status {
        Status::Solved => End::Won(outcome.moves),
        Status::Unsolvable => End::Exhausted,
        Status::Unknown => End::Limit(outcome.limit.unwrap_or(Stop::States)),
    }
}

/// Each exit's worth over `worlds`, the (exit, world) pairs shared among `effort.threads`.
fn judge(exits: &[Exit], worlds: &[SpiderState], effort: &Effort) -> Vec<Worth> {
    let jobs = exits.len() * worlds.len();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![Worth::default(); exits.len()]);
    let work = || loop {
        let job = next.fetch_add(1, Ordering::Relaxed);
        if job >= jobs {
            break;
        }
        let (exit, world) = (job / worlds.len(), job % worlds.len());
        let (won, near) = look_ahead(&exits[exit], &worlds[world], effort);
        let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
        all[exit].won += usize::from(won);
        all[exit].near += i64::from(near);
    };
    let threads = effort.threads.clamp(1, jobs.max(1));
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// What a look-ahead says of a world it won: nearer than any estimate.
const WON: i32 = i32::MIN / 2;

/// `exit` made in `world`, then the look-ahead (a play-out, or a beam): whether it won, and
/// the nearest estimate it reached.
fn look_ahead(exit: &Exit, world: &SpiderState, effort: &Effort) -> (bool, i32) {
    let mut state = world.clone();
    for &m in &exit.moves {
        debug_assert!(is_legal(&state, m), "an exit is legal in every world");
        apply(&mut state, m);
    }
    if effort.rollout > 0 {
        roll_out(state, effort)
    } else {
        beam(state, effort)
    }
}

/// The rest of the game played from `state` by a player who takes the first of
/// [`quiet::Quiet::ranked`] each time (fair: it reads no hidden card but those its moves turn
/// up), then, once nothing is hidden, a beam: whether it won, and the estimate of where it
/// stopped.
fn roll_out(mut state: SpiderState, effort: &Effort) -> (bool, i32) {
    let none = FxHashSet::default();
    loop {
        if state.is_won() {
            return (true, WON);
        }
        if state.stock_left().is_empty() && state.cols.iter().all(|c| c.down == 0) {
            return beam(state, effort);
        }
        let found = quiet::search(state.clone(), &none, effort.rollout, &effort.weights);
        if found.won.is_some() {
            return (true, WON);
        }
        let Some(exit) = found.ranked(1).into_iter().next() else {
            return (false, effort.weights.estimate(&state));
        };
        for &m in &exit.moves {
            apply(&mut state, m);
        }
    }
}

/// A beam of `effort.width` from `state` within `effort.states`: whether it won, and the
/// nearest estimate it reached.
fn beam(state: SpiderState, effort: &Effort) -> (bool, i32) {
    if state.is_won() {
        return (true, WON);
    }
    let budget = Budget {
        max_states: Some(effort.states),
        deadline: Deadline::NONE,
        memory: Memory::from_now(1 << 28),
    };
    let mut interrupted = || false;
    let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
    let mut reached = i32::MAX;
    let end = beam_from(
        state,
        effort.width,
        &effort.weights,
        &budget,
        &mut 0,
        &mut watch,
        &mut reached,
    );
    match end {
        End::Won(_) => (true, WON),
        _ => (false, reached),
    }
}
