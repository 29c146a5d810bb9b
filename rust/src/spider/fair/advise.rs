//! The fair player's choice: which exit of the quiet search to take.
//!
//! Every exit is legal in every world that agrees with what the player sees (its moves read
//! only face-up cards). With one suit, sampled worlds vote: in each, a beam plays the whole
//! game, and its win votes for the exit it first takes. With two and four, the first few
//! exits are judged by the card each turns up ([`reveal`]). Once nothing is hidden there is
//! one world, the real one, and the advice is the solver's plan.

use super::super::beam::beam_from;
use super::super::deal::Suits;
use super::super::estimate::{Weights, WEIGHTS};
use super::super::moves::{apply, SpiderMove};
use super::super::search;
use super::super::state::SpiderState;
use super::quiet::{self, Exit, Quiet, Shows};
use super::reveal::{self, Reveal};
use super::view::View;
use crate::solver::budget::{Budget, Deadline, End, Watch};
use crate::solver::heap::Memory;
use crate::solver::{Limits, Status, Stop};
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// How hard the fair player thinks before one choice. Each deck has its own
/// ([`Effort::for_deck`]); the one-suit player votes in worlds, the others judge their first
/// exits by the card each turns up.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Effort {
    /// Worlds that vote (with `vote`); 0: none, the first of the ranked exits is taken.
    pub worlds: usize,
    /// The voting beam's width, and the positions it may expand in one world.
    pub width: usize,
    pub states: u64,
    /// Positions the quiet search may reach.
    pub quiet: usize,
    /// Positions the quiet search goes on from at each depth, the nearest-looking (0: all,
    /// breadth first).
    pub layer: usize,
    /// Positions the solver may expand once nothing is hidden.
    pub exact: u64,
    /// What the quiet searches and the beam rank positions by.
    pub weights: Weights,
    /// Threads that judge worlds, or cards, at once.
    pub threads: usize,
    /// The worlds vote: in each, a beam of `width` within `states` plays the whole game from
    /// here, and its win votes for the exit it first takes.
    pub vote: bool,
    /// The exits judged instead by the card each turns up ([`reveal`]), the first of
    /// [`quiet::Quiet::ranked`]; 0: none.
    pub reveal: usize,
    /// Positions of the quiet search after each card placed, and how many go on at each
    /// depth (0: all).
    pub reveal_quiet: usize,
    pub reveal_layer: usize,
    /// Taken off the worth of each card placed for each column it leaves to turn up.
    pub reveal_options: i32,
    /// Worlds the solver plays in when no quiet search finds a way on ([`rescue`]; 0: none,
    /// the player says that no move helps).
    pub rescue: usize,
}

impl Effort {
    /// The effort the fair player spends with `suits`' deck, by default: the settings that won
    /// most in the measures of docs/spider.md ("What was tried"), where the figures are.
    pub fn for_deck(suits: Suits) -> Effort {
        let base = Effort {
            worlds: 0,
            width: 50,
            states: 3_000,
            quiet: 5_000,
            layer: 0,
            exact: 2_000_000,
            weights: Weights {
                empty: 5,
                ..WEIGHTS
            },
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
            vote: false,
            reveal: 0,
            reveal_quiet: 2_000,
            reveal_layer: 10,
            reveal_options: 0,
            rescue: 4,
        };
        match suits {
            // The worlds vote, each with a beam of 100.
            Suits::One => Effort {
                worlds: 5,
                vote: true,
                width: 100,
                states: 30_000,
                weights: Weights {
                    empty: 12,
                    ..WEIGHTS
                },
                ..base
            },
            // A quiet search that goes on from the 300 positions nearest a win at each depth,
            // its first four exits judged by the card each turns up, each card by the ways on
            // it leaves too.
            Suits::Two => Effort {
                quiet: 20_000,
                layer: 300,
                weights: Weights {
                    empty: 5,
                    suit_break: 7,
                    ..WEIGHTS
                },
                reveal: 4,
                reveal_options: 16,
                ..base
            },
            // The same, from the 100 nearest, with the base weights.
            Suits::Four => Effort {
                quiet: 20_000,
                layer: 100,
                reveal: 4,
                reveal_options: 16,
                ..base
            },
        }
    }
}

/// What the fair player advises.
#[derive(Clone, Debug, PartialEq)]
pub enum Advice {
    /// Moves to make: quiet moves and the exit that ends them, or (`exact`) the solver's
    /// win once nothing is hidden. `won` of `worlds` worlds voted for it (or, the rescue's,
    /// were won by the solver by way of it).
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

/// The fair player's advice from what `view` shows, never leading back into a position of
/// `visited`. The worlds are drawn from `seed` and the view together: the same view and seed,
/// the same advice.
pub fn advise(view: &View, visited: &[u64], seed: u64, effort: &Effort) -> Advice {
    advise_unless(view, visited, seed, effort, &AtomicBool::new(false))
}

/// [`advise`], its solver searches (the exact one once nothing is hidden, the rescue's
/// worlds) stopped once `stop` is set: a client gone. The quiet searches and the judges are
/// bounded by their states and end on their own.
pub fn advise_unless(
    view: &View,
    visited: &[u64],
    seed: u64,
    effort: &Effort,
    stop: &AtomicBool,
) -> Advice {
    let seed = view.key().0.iter().fold(seed, |h, &w| {
        (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
    });
    if view.hidden() == 0 {
        let world = view.plain_world();
        match solve_open(&world, effort.exact, stop) {
            End::Won(moves) => {
                return Advice::Plan {
                    moves,
                    exact: true,
                    won: 1,
                    worlds: 1,
                }
            }
            End::Exhausted => return Advice::NoMove { proved: true },
            End::Limit(_) => {} // chosen as below, in the one world there is
        }
    }
    let visited_set: FxHashSet<u64> = visited.iter().copied().collect();
    let found = ways_on(view, &visited_set, effort);
    // With nothing hidden the exact solve above has had its say, with more positions.
    if found.stuck() && effort.rescue > 0 && view.hidden() > 0 {
        if let Some((moves, won)) = rescue(view, &visited_set, seed, effort, stop) {
            return Advice::Plan {
                moves,
                exact: false,
                won,
                worlds: effort.rescue,
            };
        }
    }
    if let Some(moves) = found.won {
        return Advice::Plan {
            moves,
            exact: true,
            won: 1,
            worlds: 1,
        };
    }
    if effort.vote && effort.worlds > 0 {
        let exits = found.ranked(usize::MAX);
        if exits.len() > 1 {
            let worlds = view.sample_worlds(seed, effort.worlds);
            return elect(&exits, &worlds, &visited_set, effort);
        }
        return match exits.first() {
            Some(exit) => Advice::Plan {
                moves: exit.moves.clone(),
                exact: false,
                won: 0,
                worlds: 0,
            },
            None => Advice::NoMove { proved: false },
        };
    }
    if effort.reveal > 0 {
        let exits = found.clone().ranked(effort.reveal);
        // Two exits or more: each turns a card up (the deal is left out of them).
        if exits.len() > 1 {
            let best = by_reveal(view, &exits, effort);
            return Advice::Plan {
                moves: exits[best].moves.clone(),
                exact: false,
                won: 0,
                worlds: 0,
            };
        }
    }
    // One exit, or none judged: the best-ranked one.
    match found.ranked(1).into_iter().next() {
        None => Advice::NoMove { proved: false },
        Some(exit) => Advice::Plan {
            moves: exit.moves,
            exact: false,
            won: 0,
            worlds: 0,
        },
    }
}

/// [`quiet::ways_on`] from `view` with `effort`'s quiet search.
fn ways_on(view: &View, visited: &FxHashSet<u64>, effort: &Effort) -> Quiet {
    quiet::ways_on(
        &view.plain_world(),
        visited,
        effort.quiet,
        effort.layer,
        &effort.weights,
    )
}

/// The exits the fair player chooses among from `view` (never leading into a position of
/// `visited`), best-looking first, at most `most`: each a plan of quiet moves ending in the
/// move that shows a card or deals. Empty when none is left, or when the quiet moves alone
/// win.
pub fn exits(view: &View, visited: &[u64], effort: &Effort, most: usize) -> Vec<Exit> {
    let visited: FxHashSet<u64> = visited.iter().copied().collect();
    let found = ways_on(view, &visited, effort);
    if found.won.is_some() {
        return Vec::new();
    }
    found.ranked(most)
}

/// The exit whose card, whichever it is, leaves the game nearest a win on average
/// ([`reveal`]); ties to the better-ranked.
fn by_reveal(view: &View, exits: &[Exit], effort: &Effort) -> usize {
    let kinds = reveal::kinds(view);
    let how = Reveal {
        quiet: effort.reveal_quiet,
        layer: effort.reveal_layer,
        options: effort.reveal_options,
    };
    let each = parallel(exits.len() * kinds.len(), effort.threads, |job| {
        let (card, copies) = kinds[job % kinds.len()];
        let seen = reveal::after(view, &exits[job / kinds.len()], card);
        let worth = reveal::worth_after(&seen, &how, &effort.weights);
        i64::from(copies) * i64::from(worth)
    });
    let mut worths = vec![0i64; exits.len()];
    for (job, worth) in each.into_iter().enumerate() {
        worths[job / kinds.len()] += worth;
    }
    (0..exits.len()).min_by_key(|&i| worths[i]).unwrap_or(0)
}

/// The exit most worlds' wins take first (ties to the better-ranked), played as the first
/// such win played it when that passes no visited position (its arrangement was chosen by a
/// search that saw the world), else as the quiet search found it.
fn elect(
    exits: &[Exit],
    worlds: &[SpiderState],
    visited: &FxHashSet<u64>,
    effort: &Effort,
) -> Advice {
    let ballots = parallel(worlds.len(), effort.threads, |w| {
        ballot(exits, &worlds[w], visited, effort)
    });
    let mut votes = vec![0usize; exits.len()];
    for (exit, _) in ballots.iter().flatten() {
        votes[*exit] += 1;
    }
    let best = (0..exits.len())
        .min_by_key(|&i| std::cmp::Reverse(votes[i]))
        .unwrap_or(0);
    let moves = ballots
        .iter()
        .flatten()
        .find(|(exit, _)| *exit == best)
        .map_or_else(|| exits[best].moves.clone(), |(_, line)| line.clone());
    Advice::Plan {
        moves,
        exact: false,
        won: votes[best],
        worlds: worlds.len(),
    }
}

/// One world's vote: the exit its beam's win takes first, and the win's moves up to it (the
/// line, if it passes no visited position); None if the beam found no win, or its first exit
/// is none of `exits` (the deal, while a card can be turned up).
fn ballot(
    exits: &[Exit],
    world: &SpiderState,
    visited: &FxHashSet<u64>,
    effort: &Effort,
) -> Option<(usize, Vec<SpiderMove>)> {
    let win = beam_win(world.clone(), effort)?;
    // A win by quiet moves alone (no exit) the quiet search would have found.
    let (what, clean, line) = to_first_exit(world, win, visited);
    let exit = exits.iter().position(|e| Some(e.shows) == what)?;
    Some(if clean {
        (exit, line)
    } else {
        (exit, exits[exit].moves.clone())
    })
}

/// A win's moves in `world` up to the first that shows something (all of them if none does):
/// what that move shows, whether the moves before it pass no position of `visited`, and the
/// moves. Those before the exit read no hidden card: the line is legal in every world.
fn to_first_exit(
    world: &SpiderState,
    win: Vec<SpiderMove>,
    visited: &FxHashSet<u64>,
) -> (Option<Shows>, bool, Vec<SpiderMove>) {
    let mut state = world.clone();
    let mut line = Vec::new();
    let mut clean = true;
    for m in win {
        line.push(m);
        let what = quiet::shows(&state, m);
        if what.is_some() {
            return (what, clean, line);
        }
        apply(&mut state, m);
        clean &= !visited.contains(&View::of(&state).hash64());
    }
    (None, clean, line)
}

/// Positions the solver may expand in each world of [`rescue`].
const RESCUE_STATES: u64 = 300_000;

/// A way on that the quiet searches missed (deeper than they look, or behind positions they
/// pass by): the solver plays each of `effort.rescue` sampled worlds, and a win's moves up to
/// the first that shows something are a plan legal in every world (the moves before it read
/// no hidden card). The first exit most wins take is played, by a line that passes no visited
/// position if one does; with it, the worlds won by way of that exit. None if the solver wins
/// in no world within its states.
fn rescue(
    view: &View,
    visited: &FxHashSet<u64>,
    seed: u64,
    effort: &Effort,
    stop: &AtomicBool,
) -> Option<(Vec<SpiderMove>, usize)> {
    let worlds = view.sample_worlds(seed, effort.rescue);
    let lines = parallel(worlds.len(), effort.threads, |w| {
        let world = &worlds[w];
        let outcome = search::solve(
            &world.to_deal(),
            &Limits::states(Some(RESCUE_STATES)),
            &mut || stop.load(Ordering::Relaxed),
        );
        (outcome.status == Status::Solved).then(|| to_first_exit(world, outcome.moves, visited))
    });
    let wins: Vec<_> = lines.into_iter().flatten().collect();
    let count = |what: Option<Shows>| wins.iter().filter(|w| w.0 == what).count();
    wins.iter()
        .max_by_key(|w| (count(w.0), w.1, std::cmp::Reverse(w.2.len())))
        .map(|w| (w.2.clone(), count(w.0)))
}

/// Runs `job(0..jobs)` on up to `threads` threads; the answers in order.
fn parallel<T: Send>(jobs: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<T>>> = Mutex::new((0..jobs).map(|_| None).collect());
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= jobs {
            break;
        }
        let answer = job(i);
        answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(answer);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.clamp(1, jobs.max(1)) {
            scope.spawn(work);
        }
        work();
    });
    let answers = answers.into_inner().unwrap_or_else(|e| e.into_inner());
    answers
        .into_iter()
        .map(|a| a.expect("every job ran"))
        .collect()
}

/// The solver on a position with nothing hidden: its answer is exact.
fn solve_open(world: &SpiderState, states: u64, stop: &AtomicBool) -> End<SpiderMove> {
    let limits = Limits::states(Some(states));
    let outcome = search::solve(&world.to_deal(), &limits, &mut || {
        stop.load(Ordering::Relaxed)
    });
    match outcome.status {
        Status::Solved => End::Won(outcome.moves),
        Status::Unsolvable => End::Exhausted,
        Status::Unknown => End::Limit(outcome.limit.unwrap_or(Stop::States)),
    }
}

/// The win a beam finds from `state`, if it finds one.
fn beam_win(state: SpiderState, effort: &Effort) -> Option<Vec<SpiderMove>> {
    match run_beam(state, effort, &mut 0) {
        End::Won(moves) => Some(moves),
        _ => None,
    }
}

/// A beam of `effort.width` from `state` within `effort.states`.
fn run_beam(state: SpiderState, effort: &Effort, reached: &mut i32) -> End<SpiderMove> {
    let budget = Budget {
        max_states: Some(effort.states),
        deadline: Deadline::NONE,
        memory: Memory::from_now(1 << 28),
    };
    let mut interrupted = || false;
    let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
    beam_from(
        state,
        effort.width,
        &effort.weights,
        &budget,
        &mut 0,
        &mut watch,
        reached,
    )
}

#[cfg(test)]
mod tests {
    use super::super::super::board;
    use super::super::super::deal::{SpiderDeal, Suits};
    use super::super::super::moves::is_legal;
    use super::*;

    /// The quiet search kept to a narrow beam: the plan is still legal in the real game and
    /// shows something only with its last move.
    #[test]
    fn a_narrow_quiet_search_advises_a_legal_plan() {
        for (suits, number) in [(Suits::Two, 3), (Suits::Four, 5)] {
            let state = SpiderState::from_deal(&SpiderDeal::from_number(suits, number).unwrap());
            let view = View::of(&state);
            let effort = Effort {
                quiet: 2_000,
                layer: 30,
                threads: 1,
                ..Effort::for_deck(suits)
            };
            let Advice::Plan { moves, .. } = advise(&view, &[view.hash64()], 3, &effort) else {
                panic!("a deal's first position has a way on");
            };
            let mut at = state.clone();
            let (last, quiet) = moves.split_last().unwrap();
            for &m in quiet {
                assert!(is_legal(&at, m) && quiet::shows(&at, m).is_none(), "{m:?}");
                apply(&mut at, m);
            }
            assert!(is_legal(&at, *last) && quiet::shows(&at, *last).is_some());
        }
    }

    /// A one-suit position from its board text, its view, and the deck's effort on one thread.
    fn one_suit(text: &str) -> (SpiderState, View, Effort) {
        let state = SpiderState::from_deal(&board::parse(text, Some(Suits::One)).unwrap());
        let view = View::of(&state);
        let effort = Effort {
            threads: 1,
            ..Effort::for_deck(Suits::One)
        };
        (state, view, effort)
    }

    /// One-suit deal 8 as the fair player left it, saying that no move helps: a way on lies
    /// twelve quiet moves deep, past both quiet searches. The solver in sampled worlds finds
    /// it: a plan legal in every world that shows a card with its last move only.
    #[test]
    fn a_way_on_past_the_quiet_searches_is_found_by_the_solver_in_worlds() {
        let text = "Stock: \nOff: S S S S\nKS QS JS TS 9S 8S 7S 6S 5S 4S 3S 8S\n\
                    9S 8S 7S 6S 5S 4S 3S 4S\n4S 2S\nAS 2S AS 9S\n5S KS AS 2S\nQS 8S\n3S 7S\n\
                    KS 9S\nTS TS | KS QS JS TS JS AS JS 6S 3S\n7S 6S 5S 2S QS\n";
        let (state, view, effort) = one_suit(text);
        let without = Effort {
            rescue: 0,
            ..effort
        };
        assert_eq!(
            advise(&view, &[view.hash64()], 8, &without),
            Advice::NoMove { proved: false }
        );
        let Advice::Plan {
            moves, won, worlds, ..
        } = advise(&view, &[view.hash64()], 8, &effort)
        else {
            panic!("the solver wins in some world");
        };
        assert!(worlds == effort.rescue && (1..=worlds).contains(&won));
        for world in view.sample_worlds(99, 5).into_iter().chain([state]) {
            let mut at = world;
            let (last, quiet) = moves.split_last().unwrap();
            for &m in quiet {
                assert!(is_legal(&at, m) && quiet::shows(&at, m).is_none(), "{m:?}");
                apply(&mut at, m);
            }
            assert!(is_legal(&at, *last) && quiet::shows(&at, *last).is_some());
        }
    }

    /// Five empty columns to fill before the last deal: more than the quiet search's first
    /// 5,000 positions, yet a way on, not "no move helps".
    #[test]
    fn a_deal_behind_five_empty_columns_is_found() {
        let text = "Stock: 3S 9S TS KS 4S 5S JS KS 6S 8S\nOff: S S S S S S\nAS\n:\n:\n\
                    QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\nQS\n7S\n2S\n:\n:\n:\n";
        let (state, view, effort) = one_suit(text);
        let Advice::Plan { moves, .. } = advise(&view, &[view.hash64()], 1, &effort) else {
            panic!("a deal is still to come");
        };
        let mut at = state.clone();
        for &m in &moves {
            assert!(is_legal(&at, m), "{m:?}");
            apply(&mut at, m);
        }
        assert!(at.stock_left().is_empty() || at.is_won());
    }
}
