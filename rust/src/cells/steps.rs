//! The search's steps (docs/rules.md §6 has the rules they keep to, `moves.rs` the rules
//! themselves): the single-card moves worth trying, a run moved as a unit, a card dug out from
//! under others, made and taken back at once; the safe moves after a step; and a line of
//! steps read back as the single moves it stands for.

use super::deal::CellsDeal;
use super::moves::{
    apply, auto_moves, card_at, fits, fits_column, goes_up, is_safe, make_run, run_len, undo,
    CellsMove, Fits, Place,
};
use super::state::{bits, CellsState};
use crate::cards::{Card, KING};

/// The single moves `step` stands for, made on `state` one after another and pushed onto
/// `out`.
pub fn make_step_moves(state: &mut CellsState, step: Step, out: &mut Vec<CellsMove>) {
    match step {
        Step::One(m) => {
            apply(state, m);
            out.push(m);
        }
        Step::Run { from, count, to } => {
            let (from, count, to) = (from as usize, count as usize, to as usize);
            assert!(
                make_run(state, from, count, to, out),
                "a run the search could move"
            );
        }
        Step::Dig { .. } => dig(state, step, |m| out.push(m)),
    }
}

/// Whether `step`, made from a position with no safe move to make, puts no card up and
/// leaves no safe move either: told before it is made, from the cards it brings to the top
/// (a card that was on top already is no safer to put up than it was).
#[inline]
pub fn is_quiet(state: &CellsState, step: Step) -> bool {
    let safe = |card: Card| goes_up(state, card) && is_safe(state, card);
    // The card under the top `count` cards of column `c`, if any, is brought to the top.
    let bares = |c: u8, count: usize| {
        let col = &state.cols[c as usize];
        col.len() > count && safe(col[col.len() - count - 1])
    };
    match step {
        Step::One(CellsMove {
            to: Place::Foundation,
            ..
        }) => false,
        Step::One(CellsMove {
            from: Place::Column(c),
            ..
        }) => !bares(c, 1),
        Step::One(_) => true,
        Step::Run { from, count, .. } => !bares(from, count as usize),
        Step::Dig {
            to: Place::Foundation,
            ..
        } => false,
        // The cards parked, the card dug out, and the card under it all come to the top.
        Step::Dig {
            from,
            cells,
            spaces,
            ..
        } => {
            let col = &state.cols[from as usize];
            let dug = col.len() - 1 - (cells.count_ones() + spaces.count_ones()) as usize;
            !col[dug.saturating_sub(1)..].iter().any(|&card| safe(card))
        }
    }
}

/// Makes `step` from a position that had no safe move to make, and then the safe moves after
/// it ([`auto_moves`], pushed onto `out`; none after a quiet step, [`is_quiet`]): how many.
#[inline]
pub fn make_step(state: &mut CellsState, step: Step, out: &mut Vec<CellsMove>) -> usize {
    let quiet = is_quiet(state, step);
    apply_step(state, step);
    if quiet {
        debug_assert_eq!(auto_moves(&mut state.clone(), &mut Vec::new()), 0);
        return 0;
    }
    auto_moves(state, out)
}

/// The moves the search tries here: every legal move but those that lead only to a position
/// of the same key (into any empty column but the first, into any empty cell but the first,
/// from a cell to a cell, a column's only card into an empty column) and the safe foundation
/// moves, which [`auto_moves`] has made already.
pub fn generate(state: &CellsState, fitting: &Fits, out: &mut Vec<CellsMove>) {
    let first_empty = state.cols.iter().position(|c| c.is_empty());
    let free_cell = state.cells.iter().position(Option::is_none);
    for c in 0..state.cols.len() + state.cells.len() {
        let (from, card) = if c < state.cols.len() {
            match state.cols[c].last() {
                Some(&card) => (Place::Column(c as u8), card),
                None => continue,
            }
        } else {
            let cell = c - state.cols.len();
            match state.cells[cell] {
                Some(card) => (Place::Cell(cell as u8), card),
                None => continue,
            }
        };
        if goes_up(state, card) {
            out.push(CellsMove {
                card,
                from,
                to: Place::Foundation,
            });
        }
        for to in fitting.columns(card).filter(|&to| to != c) {
            out.push(CellsMove {
                card,
                from,
                to: Place::Column(to as u8),
            });
        }
        let alone = c < state.cols.len() && state.cols[c].len() == 1;
        if let Some(to) = first_empty.filter(|_| !alone) {
            if fits_column(state, card, to) {
                out.push(CellsMove {
                    card,
                    from,
                    to: Place::Column(to as u8),
                });
            }
        }
        if let (Some(cell), Place::Column(_)) = (free_cell, from) {
            out.push(CellsMove {
                card,
                from,
                to: Place::Cell(cell as u8),
            });
        }
    }
}

/// A step of the search: one card, or a run of cards moved as a unit onto another column
/// (a supermove: the single moves it stands for are made when the line is read back).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    One(CellsMove),
    Run {
        from: u8,
        count: u8,
        to: u8,
    },
    /// A card dug out: the cards over `card` in column `from` parked one each, the top card
    /// first, in the cells of the mask `cells` (lowest first) and then the empty columns of
    /// the mask `spaces`, and `card` then put up or onto another column's top card (`to`).
    Dig {
        from: u8,
        cells: u8,
        spaces: u16,
        card: Card,
        to: Place,
    },
}

/// Where a dig parks the cards over its card, in order: its cells, then its empty columns.
#[inline]
fn parks(cells: u8, spaces: u16) -> impl DoubleEndedIterator<Item = Place> {
    let cells = (0..8u8)
        .filter(move |i| cells >> i & 1 == 1)
        .map(Place::Cell);
    let spaces = (0..16u8)
        .filter(move |i| spaces >> i & 1 == 1)
        .map(Place::Column);
    cells.chain(spaces)
}

/// Makes `step` (a run's cards go across at once: the single moves between do not matter
/// here).
#[inline]
pub fn apply_step(state: &mut CellsState, step: Step) {
    match step {
        Step::One(m) => apply(state, m),
        Step::Run { from, count, to } => shift(state, from as usize, to as usize, count as usize),
        Step::Dig { .. } => dig(state, step, |_| {}),
    }
}

/// Makes the dig `step`'s single moves (the cards over its card parked, the top one first,
/// then its card put where it goes), each told to `each`.
#[inline]
fn dig(state: &mut CellsState, step: Step, mut each: impl FnMut(CellsMove)) {
    let Step::Dig {
        from,
        cells,
        spaces,
        card,
        to,
    } = step
    else {
        unreachable!("a dig")
    };
    let from = Place::Column(from);
    for park in parks(cells, spaces) {
        let top = card_at(state, from).expect("a card over the one dug out");
        let m = CellsMove {
            card: top,
            from,
            to: park,
        };
        apply(state, m);
        each(m);
    }
    let m = CellsMove { card, from, to };
    apply(state, m);
    each(m);
}

/// Takes back `step`, the last step made.
#[inline]
pub fn undo_step(state: &mut CellsState, step: Step) {
    match step {
        Step::One(m) => undo(state, m),
        Step::Run { from, count, to } => shift(state, to as usize, from as usize, count as usize),
        Step::Dig {
            from,
            cells,
            spaces,
            card,
            to,
        } => {
            let from = Place::Column(from);
            undo(state, CellsMove { card, from, to });
            for park in parks(cells, spaces).rev() {
                let parked = card_at(state, park).expect("a card parked");
                undo(
                    state,
                    CellsMove {
                        card: parked,
                        from,
                        to: park,
                    },
                );
            }
        }
    }
}

/// The top `count` cards of column `from` put on column `to`, in order.
fn shift(state: &mut CellsState, from: usize, to: usize, count: usize) {
    let at = state.cols[from].len() - count;
    for i in at..at + count {
        let card = state.cols[from][i];
        state.cols[to].push(card);
    }
    state.cols[from].truncate(at);
}

/// The runs of two cards or more the search moves as a unit: onto each column whose top card
/// the run's bottom card fits, and the longest that may go into the first empty column (not a
/// whole column: that leads to a position of the same key), each if the cells and the empty
/// columns allow it ([`super::variant::Variant::max_run`]).
pub fn generate_runs(state: &CellsState, fitting: &Fits, out: &mut Vec<Step>) {
    let free = state.free_cells();
    let empty = state.empty_columns();
    let first_empty = state.cols.iter().position(|c| c.is_empty());
    let most = state.variant.max_run(free, empty);
    for from in 0..state.cols.len() {
        let run = run_len(state, from);
        if run < 2 {
            continue;
        }
        let col = &state.cols[from];
        // The columns some part of the run fits, each by one count (ranks rise down a run).
        let mut targets = 0u16;
        for count in 2..=run.min(most) {
            targets |= fitting.mask(col[col.len() - count]);
        }
        targets &= !(1 << from);
        let top = col[col.len() - 1].rank();
        for to in bits(targets as u64) {
            let t = state.cols[to]
                .last()
                .expect("a column a card fits has a top card");
            let count = (t.rank() - top) as usize;
            debug_assert!(fits(state, col[col.len() - count], *t));
            out.push(Step::Run {
                from: from as u8,
                count: count as u8,
                to: to as u8,
            });
        }
        if let Some(to) = first_empty {
            let mut count = run.min(state.variant.max_run(free, empty - 1));
            if count == col.len() {
                count -= 1;
            }
            if state.variant.kings_only() {
                // Only a run whose bottom card is a king.
                let king_at = (1..=count).find(|&k| col[col.len() - k].rank() == KING);
                count = king_at.unwrap_or(0);
            }
            if count >= 2 {
                out.push(Step::Run {
                    from: from as u8,
                    count: count as u8,
                    to: to as u8,
                });
            }
        }
    }
}

/// Whether a dig dive leaves out the single move `m`: a card from a column into a cell, or
/// alone into an empty column (its digs do those with a purpose), or off a card it fits onto
/// another column's (moved alone, it would only trade one card it fits for another, and break
/// a run: [`super::column::Column::on_a_card_it_fits`]).
pub fn left_out_by_digs(state: &CellsState, m: &CellsMove) -> bool {
    match (m.from, m.to) {
        (Place::Column(_), Place::Cell(_)) => true,
        (Place::Column(f), Place::Column(c)) => {
            let col = &state.cols[f as usize];
            state.cols[c as usize].is_empty() || col.on_a_card_it_fits(col.len() - 1)
        }
        _ => false,
    }
}

/// The digs ([`Step::Dig`]): each card under no more cards than the free cells and the empty
/// columns hold (one each; the empty columns only where any card may go into one), the cards
/// over it parked in the first free cells, then the first empty columns, and it put up, or
/// onto another column's top card that it fits unless it lies on one it fits already (that
/// would only break a run). What the dig dives search instead of a card into a cell
/// (`dive.rs`).
pub fn generate_digs(state: &CellsState, fitting: &Fits, out: &mut Vec<Step>) {
    let mut parks = [Place::Foundation; 18];
    let mut n = 0;
    for (c, cell) in state.cells.iter().enumerate() {
        if cell.is_none() {
            parks[n] = Place::Cell(c as u8);
            n += 1;
        }
    }
    if !state.variant.kings_only() {
        for (c, col) in state.cols.iter().enumerate() {
            if col.is_empty() {
                parks[n] = Place::Column(c as u8);
                n += 1;
            }
        }
    }
    let mask = |depth: usize| {
        let (mut cells, mut spaces) = (0u8, 0u16);
        for park in &parks[..depth] {
            match *park {
                Place::Cell(c) => cells |= 1 << c,
                Place::Column(c) => spaces |= 1 << c,
                Place::Foundation => unreachable!("parks are cells and columns"),
            }
        }
        (cells, spaces)
    };
    for from in 0..state.cols.len() {
        let col = &state.cols[from];
        let deepest = n.min(col.len().saturating_sub(1));
        // Cards up first, then onto columns (the order ties are broken in).
        for depth in 1..=deepest {
            let card = col[col.len() - 1 - depth];
            if goes_up(state, card) {
                let (cells, spaces) = mask(depth);
                out.push(Step::Dig {
                    from: from as u8,
                    cells,
                    spaces,
                    card,
                    to: Place::Foundation,
                });
            }
        }
        for depth in 1..=deepest {
            let at = col.len() - 1 - depth;
            let card = col[at];
            if col.on_a_card_it_fits(at) {
                continue;
            }
            let (cells, spaces) = mask(depth);
            for to in fitting.columns(card).filter(|&to| to != from) {
                out.push(Step::Dig {
                    from: from as u8,
                    cells,
                    spaces,
                    card,
                    to: Place::Column(to as u8),
                });
            }
        }
    }
}

/// The single moves of `steps` made from `deal`, each step's safe moves after it (and the
/// deal's before the first).
pub fn line_of(deal: &CellsDeal, steps: &[Step]) -> Vec<CellsMove> {
    let mut state = CellsState::from_deal(deal);
    let mut line = Vec::new();
    auto_moves(&mut state, &mut line);
    for &step in steps {
        make_step_moves(&mut state, step, &mut line);
        auto_moves(&mut state, &mut line);
    }
    line
}

/// Every step from `state` a dive may take: the single moves, the runs and the digs (for
/// the tests).
#[cfg(test)]
pub fn every_step(state: &CellsState) -> Vec<Step> {
    let fitting = Fits::of(state);
    let mut moves = Vec::new();
    generate(state, &fitting, &mut moves);
    let mut steps: Vec<Step> = moves.into_iter().map(Step::One).collect();
    generate_runs(state, &fitting, &mut steps);
    generate_digs(state, &fitting, &mut steps);
    steps
}

#[cfg(test)]
mod tests {
    use super::super::moves::is_legal;
    use super::super::variant::Variant;
    use super::*;

    /// Along plays of every variant, each dig, made and taken back, leaves the position as
    /// it was, and the single moves it stands for are legal one after another and lead where
    /// it leads.
    #[test]
    fn a_dig_is_the_single_moves_it_stands_for() {
        let mut digs = 0;
        for v in Variant::ALL {
            for n in 1..=40u64 {
                let deal = CellsDeal::from_number(v, n).unwrap();
                let mut state = CellsState::from_deal(&deal);
                for turn in 0..200usize {
                    let mut steps = Vec::new();
                    generate_digs(&state, &Fits::of(&state), &mut steps);
                    digs += steps.len();
                    for &step in &steps {
                        let before = state.clone();
                        apply_step(&mut state, step);
                        let after = state.clone();
                        undo_step(&mut state, step);
                        assert_eq!(state, before, "{v:?} {n} {step:?}");
                        let mut moves = Vec::new();
                        make_step_moves(&mut state.clone(), step, &mut moves);
                        let mut replay = state.clone();
                        for m in moves {
                            assert!(is_legal(&replay, m), "{v:?} {n} {step:?} {m:?}");
                            apply(&mut replay, m);
                        }
                        assert_eq!(replay, after, "{v:?} {n} {step:?}");
                    }
                    let mut moves = Vec::new();
                    generate(&state, &Fits::of(&state), &mut moves);
                    steps.extend(moves.into_iter().map(Step::One));
                    if steps.is_empty() {
                        break;
                    }
                    apply_step(&mut state, steps[(turn * 7 + n as usize) % steps.len()]);
                }
            }
        }
        assert!(digs > 5_000, "{digs} digs tried");
    }

    /// Along plays of every variant, the safe moves after each step (digs too) that
    /// `make_step` makes are those `auto_moves` makes (it only leaves out looking where none
    /// can be).
    #[test]
    fn the_safe_moves_after_a_step_are_all_the_safe_moves() {
        for v in Variant::ALL {
            let deal = CellsDeal::from_number(v, 29).unwrap();
            let mut state = CellsState::from_deal(&deal);
            auto_moves(&mut state, &mut Vec::new());
            for turn in 0..200 {
                let steps = every_step(&state);
                if steps.is_empty() {
                    break;
                }
                for &step in &steps {
                    let (mut after, mut all) = (state.clone(), state.clone());
                    apply_step(&mut all, step);
                    let (mut made, mut want) = (Vec::new(), Vec::new());
                    make_step(&mut after, step, &mut made);
                    auto_moves(&mut all, &mut want);
                    assert_eq!((made, &after), (want, &all), "{v:?} turn {turn} {step:?}");
                }
                apply_step(&mut state, steps[turn * 3 % steps.len()]);
                auto_moves(&mut state, &mut Vec::new());
                if state.is_won() {
                    break;
                }
            }
        }
    }
}
