//! Measures a partial-order reduction of the complete pass (docs/proofs.md,
//! "Stubborn columns"): at a position with no empty column, expand only the moves from a set
//! of "frozen" columns closed under the rules of [`frozen`], and count what that saves.
//!
//! `cargo run --release --example porlab -- deal beleaguered-castle 981` runs a depth-first
//! complete pass (exact keys, the solver's moves, order and automatic moves) on the deal twice,
//! in full and reduced, and prints both verdicts, positions and times.
//!
//! `... porlab -- deals beleaguered-castle 1-200 [STATES]` does so for each deal (each pass cut
//! at STATES positions, default 2 million), and checks that the verdicts agree where both end.
//!
//! `... porlab -- endgames N` deals N random endgames (a fixed seed: 3 to 6 columns, the
//! foundations partly up) and checks that the reduced pass wins exactly those the full pass
//! wins.
//!
//! `... porlab -- sample beleaguered-castle 981` prints positions of the deal's two highest
//! layers of irreversibility, to see what makes them many.

use std::time::Instant;

use std::collections::BTreeMap;

use castle::cards::{Card, KING};
use castle::castle::board;
use castle::castle::compact::Compact;
use castle::castle::deal::{endgame, Deal};
use castle::castle::moves::{generate, play, play_automatic, unwind, Move};
use castle::castle::order::order_moves;
use castle::castle::state::{Key, State};
use castle::castle::variant::Variant;
use rustc_hash::FxHashSet;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args[1].as_str() {
        "deal" => {
            let variant = Variant::from_id(&args[2]).expect("variant");
            let number: u64 = args[3].parse().expect("deal");
            let deal = Deal::from_number(variant, number).expect("deal number");
            for reduce in [false, true] {
                let started = Instant::now();
                let r = complete(&deal, reduce, u64::MAX);
                println!(
                    "{number}\t{}\t{:?}\tstates {}\treduced at {} ({:.1}%)\tdead {}\t\
                     with an empty column {}\t{:.2} s",
                    if reduce { "reduced" } else { "full" },
                    r.won,
                    r.states,
                    r.reduced,
                    100.0 * r.reduced as f64 / r.states.max(1) as f64,
                    r.dead,
                    r.empty,
                    started.elapsed().as_secs_f64(),
                );
            }
        }
        "deals" => {
            let variant = Variant::from_id(&args[2]).expect("variant");
            let (lo, hi) = args[3].split_once('-').expect("a range A-B");
            let (lo, hi): (u64, u64) = (lo.parse().unwrap(), hi.parse().unwrap());
            let limit: u64 = args.get(4).map_or(2_000_000, |s| s.parse().unwrap());
            let (mut full_states, mut reduced_states, mut both_ended) = (0u64, 0u64, 0);
            for number in lo..=hi {
                let deal = Deal::from_number(variant, number).expect("deal number");
                let a = complete(&deal, false, limit);
                let b = complete(&deal, true, limit);
                if let (Some(x), Some(y)) = (a.won, b.won) {
                    assert_eq!(x, y, "deal {number}: full {x}, reduced {y}");
                    both_ended += 1;
                    if !x {
                        full_states += a.states;
                        reduced_states += b.states;
                    }
                }
                println!(
                    "{number}\tfull {:?} {}\treduced {:?} {} (reduced at {}, dead {})",
                    a.won, a.states, b.won, b.states, b.reduced, b.dead
                );
            }
            println!(
                "agree on all {both_ended} that both decided; unsolvable ones: full {full_states} \
                 states, reduced {reduced_states} ({:.3})",
                reduced_states as f64 / full_states.max(1) as f64
            );
        }
        "endgames" => endgames(args[2].parse().unwrap()),
        "sample" => {
            let variant = Variant::from_id(&args[2]).expect("variant");
            let number: u64 = args[3].parse().expect("deal");
            let deal = Deal::from_number(variant, number).expect("deal number");
            sample(&deal);
        }
        other => panic!("no mode {other}"),
    }
}

/// The columns whose moves make a stubborn set at `state`, starting from column `start`, as a
/// bit set (every non-empty column when the rules below leave nothing out); None at a position
/// with an empty column, where the rules would freeze every column that can move.
///
/// The claim (the argument is in docs/proofs.md): let M be the cards of the frozen columns and
/// T every move of a card of M. Then for any sequence `a` of moves of other cards, if `a` then a
/// move `t` of T is legal, `t` then `a` is legal and ends in the same position. So a winning
/// line's first move of T can be made first; every win moves some card of M; and a position
/// whose frozen columns have no legal move cannot be won. The rules, for the top card x of each
/// frozen column (rank r): every tableau card of rank r + 1 lies in a frozen column (a target
/// x could use is not uncovered, moved or covered by others); if one of them is a top card,
/// every other tableau card of rank r lies in a frozen column (none can take that target
/// first); if x's suit is below r - 1, its r - 1 lies in a frozen column (x's foundation cannot
/// come within reach); if x fits its foundation, every tableau card of rank r - 1 lies in a
/// frozen column (none can go onto x meanwhile); and there is no empty column, and no other
/// column can be emptied: its bottom card b can go onto no card (each of rank b + 1 is up, or
/// lies under others in a frozen column) and not to its foundation (b's suit is below b - 1
/// and its b - 1 lies in a frozen column).
fn frozen(state: &State, start: usize) -> Option<u16> {
    let n = state.ncols();
    let mut all = 0u16;
    // Where each card is: its column, and whether it is a top card.
    let mut column = [u8::MAX; 53];
    let mut top = [false; 53];
    for c in 0..n {
        let cards = state.column(c);
        if cards.is_empty() {
            return None;
        }
        all |= 1 << c;
        for &card in cards {
            column[card.id() as usize] = c as u8;
        }
        top[cards[cards.len() - 1].id() as usize] = true;
    }
    let at = |rank: u8, suit: u8| Card::new(rank, suit).id() as usize;
    let mut frozen = 1u16 << start;
    let mut work = vec![start];
    loop {
        while let Some(c) = work.pop() {
            let x = state.top(c).unwrap();
            let (r, s) = (x.rank(), x.suit());
            let freeze = |id: usize, frozen: &mut u16, work: &mut Vec<usize>| {
                let col = column[id];
                if col != u8::MAX && *frozen & (1 << col) == 0 {
                    *frozen |= 1 << col;
                    work.push(col as usize);
                }
            };
            let mut top_target = false;
            if r < KING {
                for suit in 0..4 {
                    let id = at(r + 1, suit);
                    top_target |= top[id];
                    freeze(id, &mut frozen, &mut work);
                }
            }
            if top_target {
                for suit in (0..4).filter(|&t| t != s) {
                    freeze(at(r, suit), &mut frozen, &mut work);
                }
            }
            let f = state.foundations[s as usize];
            if f + 1 < r {
                freeze(at(r - 1, s), &mut frozen, &mut work);
            } else if f + 1 == r && r > 1 {
                for suit in 0..4 {
                    freeze(at(r - 1, suit), &mut frozen, &mut work);
                }
            }
        }
        // A column that could be emptied by the others is frozen too.
        let was = frozen;
        let in_frozen = |id: usize| column[id] != u8::MAX && was & (1 << column[id]) != 0;
        let mut more = false;
        for c in 0..n {
            if was & (1 << c) != 0 {
                continue;
            }
            let b = state.column(c)[0];
            let (r, s) = (b.rank(), b.suit());
            let onto_none = r == KING
                || (0..4).all(|suit| {
                    let id = at(r + 1, suit);
                    column[id] == u8::MAX || (in_frozen(id) && !top[id])
                });
            let f = state.foundations[s as usize];
            let not_up = f + 1 < r && in_frozen(at(r - 1, s));
            if !(onto_none && not_up) {
                frozen |= 1 << c;
                work.push(c);
                more = true;
            }
        }
        if !more {
            return Some(frozen & all);
        }
    }
}

/// The moves to expand at `state`: those of the smallest set of frozen columns (fewest legal
/// moves; the first such), from `moves` (all the solver's moves, in its order). Also whether
/// it left any out; None at a position with an empty column.
fn reduce(state: &State, moves: &mut Vec<Move>) -> Option<bool> {
    let n = state.ncols();
    let mut best: Option<(usize, u16)> = None;
    for start in 0..n {
        let mask = frozen(state, start)?;
        let count = moves.iter().filter(|m| mask & (1 << m.from) != 0).count();
        if best.is_none_or(|(c, _)| count < c) {
            best = Some((count, mask));
        }
    }
    let (count, mask) = best?;
    if count == moves.len() {
        return Some(false);
    }
    moves.retain(|m| mask & (1 << m.from) != 0);
    Some(true)
}

struct Run {
    /// Some(won) if the pass ended.
    won: Option<bool>,
    states: u64,
    /// Positions whose moves the reduction cut, and those it found dead (no move left).
    reduced: u64,
    dead: u64,
    /// Positions with an empty column (never reduced).
    empty: u64,
}

/// A depth-first complete pass (the solver's moves, order and automatic moves; exact keys), the
/// moves cut by [`reduce`] if `reduced`, at most `limit` positions.
fn complete(deal: &Deal, reduced: bool, limit: u64) -> Run {
    let mut state = State::from_deal(deal);
    let mut seen: FxHashSet<Key> = FxHashSet::default();
    let mut path: Vec<Move> = Vec::new();
    let mut run = Run {
        won: None,
        states: 0,
        reduced: 0,
        dead: 0,
        empty: 0,
    };
    play_automatic(&mut state, &mut path);
    if state.is_won() {
        run.won = Some(true);
        return run;
    }
    seen.insert(state.key());
    // Each frame: its untried moves, and the path's length at its position.
    let mut frames: Vec<(Vec<Move>, usize)> = Vec::new();
    let mut fresh = Vec::new();
    loop {
        if run.states == limit {
            return run;
        }
        run.states += 1;
        fresh.clear();
        generate(&state, &mut fresh);
        if reduced {
            match reduce(&state, &mut fresh) {
                None => run.empty += 1,
                Some(true) => {
                    run.reduced += 1;
                    run.dead += u64::from(fresh.is_empty());
                }
                Some(false) => {}
            }
        }
        order_moves(&state, &mut fresh);
        fresh.reverse();
        frames.push((fresh.clone(), path.len()));
        loop {
            let Some((untried, len)) = frames.last_mut() else {
                run.won = Some(false);
                return run;
            };
            let len = *len;
            let Some(m) = untried.pop() else {
                frames.pop();
                if let Some(&(_, parent)) = frames.last() {
                    unwind(&mut state, &mut path, parent);
                }
                continue;
            };
            let mut line = Vec::new();
            play(&mut state, m, &mut line);
            path.extend_from_slice(&line);
            if state.is_won() {
                run.won = Some(true);
                return run;
            }
            if seen.insert(state.key()) {
                break;
            }
            unwind(&mut state, &mut path, len);
        }
    }
}

/// Random endgames, full and reduced passes compared.
fn endgames(count: usize) {
    let mut seed = 2026u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let (mut compared, mut won, mut cut, mut full_states, mut reduced_states) = (0, 0, 0, 0, 0);
    while compared < count {
        let lowest = 4 + next(6) as u8;
        let mut foundations = [0u8; 4];
        for f in foundations.iter_mut() {
            *f = (lowest + next(4) as u8).min(12);
        }
        foundations[next(4) as usize] = lowest;
        if 52 - foundations.iter().map(|&f| f as usize).sum::<usize>() > 24 {
            continue;
        }
        let ncols = 3 + next(4) as usize;
        let deal = endgame(Variant::BeleagueredCastle, foundations, ncols, &mut next);
        let a = complete(&deal, false, 3_000_000);
        let b = complete(&deal, true, 3_000_000);
        let (Some(x), Some(y)) = (a.won, b.won) else {
            continue;
        };
        assert_eq!(x, y, "{:?}", deal.columns);
        compared += 1;
        won += usize::from(x);
        cut += usize::from(b.reduced > 0);
        if !x {
            full_states += a.states;
            reduced_states += b.states;
        }
    }
    println!(
        "{compared} endgames agree ({won} won; the reduction cut moves in {cut}); unsolvable \
         ones: full {full_states} states, reduced {reduced_states}"
    );
}

/// The whole complete pass of `deal` (breadth of no importance: a stack, exact keys), counted
/// by layer of irreversibility; the two highest layers' 1st, 1,000th, 100,000th and
/// 1,000,000th positions printed, to see what their positions differ in.
fn sample(deal: &Deal) {
    let compact = Compact::new(deal);
    let mut by_layer: BTreeMap<u32, (u64, Vec<State>)> = BTreeMap::new();
    let mut state = State::from_deal(deal);
    let mut line = Vec::new();
    play_automatic(&mut state, &mut line);
    let mut seen: FxHashSet<Key> = FxHashSet::default();
    seen.insert(state.key());
    let (mut stack, mut fresh) = (vec![state], Vec::new());
    while let Some(position) = stack.pop() {
        let layer = compact.layer(&compact.encode(&position));
        let (count, kept) = by_layer.entry(layer).or_default();
        *count += 1;
        if [1, 1_000, 100_000, 1_000_000].contains(count) {
            kept.push(position.clone());
        }
        fresh.clear();
        generate(&position, &mut fresh);
        for &m in &fresh {
            let mut child = position.clone();
            line.clear();
            play(&mut child, m, &mut line);
            if seen.insert(child.key()) {
                stack.push(child);
            }
        }
    }
    for (layer, (count, kept)) in by_layer.iter().rev().take(2) {
        println!("layer {layer}: {count} positions");
        for position in kept {
            let shown = Deal {
                variant: deal.variant,
                number: None,
                columns: position.columns(),
                foundations: position.foundations,
            };
            println!("{}", board::format(&shown));
        }
    }
}
