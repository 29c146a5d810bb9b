//! The rules of Spider (docs/rules.md §4) in one place: which moves are legal, making and unmaking
//! them. A move is a run onto another column, a deal from the stock, or a run taken off.

use super::deal::{SpiderDeal, COLUMNS, RUN};
use super::state::{Col, SpiderState};
use crate::cards::{Card, KING};

/// More than a position has moves: from each of the 10 columns, onto each other column at most
/// one run (the one whose bottom card fits), into the first empty column each of at most 13
/// runs; a deal; 10 runs off.
pub(crate) const MOST_MOVES: usize = 256;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpiderMove {
    /// The top `count` cards of column `from` onto column `to`.
    Run { from: u8, to: u8, count: u8 },
    /// Ten cards from the stock, one face up on each column.
    Deal,
    /// The complete K-A run on top of `column` taken off to the foundation.
    Off { column: u8 },
}

/// Whether `m` is legal in `state`.
pub fn is_legal(state: &SpiderState, m: SpiderMove) -> bool {
    match m {
        SpiderMove::Run { from, to, count } => {
            let (from, to, count) = (from as usize, to as usize, count as usize);
            if from >= state.cols.len() || to >= state.cols.len() || from == to || count == 0 {
                return false;
            }
            let source = &state.cols[from];
            if count > source.run_len() {
                return false; // not face up, or not one descending suit
            }
            let bottom = source.cards[source.cards.len() - count];
            match state.cols[to].top() {
                None => true, // an empty column takes any card or run
                Some(target) => target.rank() == bottom.rank() + 1, // so a king: never
            }
        }
        SpiderMove::Deal => can_deal(state),
        SpiderMove::Off { column } => {
            let Some(col) = state.cols.get(column as usize) else {
                return false;
            };
            tops_a_complete_run(col, col.run_len())
        }
    }
}

/// Whether the stock may be dealt: cards are left in it, and no column is empty.
fn can_deal(state: &SpiderState) -> bool {
    !state.stock_left().is_empty() && state.cols.iter().all(|c| !c.cards.is_empty())
}

/// Whether `col`, whose top run is `run_len` cards long, shows a complete K-A run on top: a
/// run that may go off.
fn tops_a_complete_run(col: &Col, run_len: usize) -> bool {
    run_len >= RUN && col.cards[col.cards.len() - RUN].rank() == KING
}

/// What a move changed beyond itself, for [`undo`]: whether a face-down card turned up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub turned: bool,
}

/// A column left with no face-up card turns its top face-down card up.
fn turn_up(state: &mut SpiderState, col: usize) -> bool {
    let c = &mut state.cols[col];
    if c.down > 0 && c.down == c.cards.len() {
        c.down -= 1;
        true
    } else {
        false
    }
}

/// The top `count` cards of `from` onto `to`, in order.
fn move_cards(state: &mut SpiderState, from: usize, to: usize, count: usize) {
    let at = state.cols[from].cards.len() - count;
    for i in at..at + count {
        let card = state.cols[from].cards[i];
        state.cols[to].cards.push(card);
    }
    state.cols[from].cards.truncate(at);
}

/// Makes a legal move.
pub fn apply(state: &mut SpiderState, m: SpiderMove) -> Applied {
    match m {
        SpiderMove::Run { from, to, count } => {
            let (from, to) = (from as usize, to as usize);
            move_cards(state, from, to, count as usize);
            Applied {
                turned: turn_up(state, from),
            }
        }
        SpiderMove::Deal => {
            for i in 0..COLUMNS {
                let card = state.stock[state.dealt + i];
                state.cols[i].cards.push(card);
            }
            state.dealt += COLUMNS;
            Applied { turned: false }
        }
        SpiderMove::Off { column } => {
            let col = column as usize;
            let at = state.cols[col].cards.len() - RUN;
            let suit = state.cols[col].cards[at].suit();
            state.cols[col].cards.truncate(at);
            state.off.push(suit);
            Applied {
                turned: turn_up(state, col),
            }
        }
    }
}

/// Takes back `m`, the last move made, with what [`apply`] said of it.
pub fn undo(state: &mut SpiderState, m: SpiderMove, applied: Applied) {
    match m {
        SpiderMove::Run { from, to, count } => {
            let (from, to) = (from as usize, to as usize);
            if applied.turned {
                state.cols[from].down += 1;
            }
            move_cards(state, to, from, count as usize);
        }
        SpiderMove::Deal => {
            state.dealt -= COLUMNS;
            for col in state.cols.iter_mut() {
                col.cards.pop();
            }
        }
        SpiderMove::Off { column } => {
            let col = column as usize;
            if applied.turned {
                state.cols[col].down += 1;
            }
            let suit = state.off.pop().unwrap();
            state.cols[col]
                .cards
                .extend((1..=13).rev().map(|rank| Card::new(rank, suit)));
        }
    }
}

/// Every legal move here, in a fixed order: runs column by column (shorter runs first, then
/// each target column in order), then runs off, then the deal. With `prune`, moves that can
/// only lead to a position with the same key are left out: into any empty column but the
/// first, and a whole column (no face-down card under it) into an empty one.
pub fn generate(state: &SpiderState, prune: bool, out: &mut Vec<SpiderMove>) {
    let n = state.cols.len();
    // Columns as bit sets: by the rank of their top card, and the empty ones.
    let mut by_top_rank = [0u16; 15];
    let mut empty = 0u16;
    for (i, col) in state.cols.iter().enumerate() {
        match col.top() {
            Some(top) => by_top_rank[top.rank() as usize] |= 1 << i,
            None => empty |= 1 << i,
        }
    }
    let first_empty = empty & empty.wrapping_neg();
    // The columns topped by a complete K-A run, found on the way.
    let mut offs = 0u16;
    for from in 0..n {
        let source = &state.cols[from];
        let run = source.run_len();
        let len = source.cards.len();
        if tops_a_complete_run(source, run) {
            offs |= 1 << from;
        }
        for count in 1..=run {
            let bottom = source.cards[len - count];
            let whole_column = source.down == 0 && count == len;
            let into_empty = match (prune, whole_column) {
                (false, _) => empty,
                (true, false) => first_empty,
                (true, true) => 0,
            };
            // Ascending column order, as the reference generates them.
            let mut targets = (by_top_rank[bottom.rank() as usize + 1] | into_empty) & !(1 << from);
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push(SpiderMove::Run {
                    from: from as u8,
                    to,
                    count: count as u8,
                });
            }
        }
    }
    while offs != 0 {
        let column = offs.trailing_zeros() as u8;
        offs &= offs - 1;
        out.push(SpiderMove::Off { column });
    }
    if can_deal(state) {
        out.push(SpiderMove::Deal);
    }
}

/// Whether `moves` are legal one after another from `deal` and end with all runs off.
pub fn replays_to_win(deal: &SpiderDeal, moves: &[SpiderMove]) -> bool {
    let mut state = SpiderState::from_deal(deal);
    for &m in moves {
        if !is_legal(&state, m) {
            return false;
        }
        apply(&mut state, m);
    }
    state.is_won()
}

/// Each of `moves`, played one after another from `deal`, with the cards it carries: the run
/// it moves or takes off (bottom card first), or the cards a deal puts on the columns (first
/// column first).
pub fn with_cards(deal: &SpiderDeal, moves: &[SpiderMove]) -> Vec<(SpiderMove, Vec<Card>)> {
    let mut state = SpiderState::from_deal(deal);
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let top = |column: u8, count: usize| {
            let cards = &state.cols[column as usize].cards;
            cards[cards.len() - count..].to_vec()
        };
        let cards = match m {
            SpiderMove::Run { from, count, .. } => top(from, count as usize),
            SpiderMove::Deal => state.stock_left()[..COLUMNS].to_vec(),
            SpiderMove::Off { column } => top(column, RUN),
        };
        apply(&mut state, m);
        out.push((m, cards));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::board;
    use super::super::deal::Suits;
    use super::*;

    fn position(text: &str) -> SpiderState {
        SpiderState::from_deal(&board::parse(text, Some(Suits::One)).unwrap())
    }

    /// One suit, nothing in the stock: columns given, the other cards as whole runs off.
    const ENDGAME: &str = "Stock:\nOff: S S S S S S\n\
        KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S | AS\n\
        KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n:\n:\n:\n:\n:\n:\n:\n";

    #[test]
    fn a_run_moves_only_of_one_suit_and_a_king_only_to_an_empty_column() {
        let s = position(ENDGAME);
        // The 2S..KS of column 2 is a run: all of it, or any top part, may move.
        assert_eq!(s.cols[1].run_len(), 12);
        assert!(is_legal(
            &s,
            SpiderMove::Run {
                from: 1,
                to: 3,
                count: 12
            }
        ));
        assert!(!is_legal(
            &s,
            SpiderMove::Run {
                from: 1,
                to: 2,
                count: 1
            }
        )); // 2S on AS
            // Column 1 shows only AS (the rest face down): one card.
        assert!(!is_legal(
            &s,
            SpiderMove::Run {
                from: 0,
                to: 3,
                count: 2
            }
        ));
        // AS onto 2S: then the run of column 2 is complete and may go off.
        let mut t = s.clone();
        let onto = SpiderMove::Run {
            from: 0,
            to: 1,
            count: 1,
        };
        let applied = apply(&mut t, onto);
        assert!(applied.turned); // the 2S under it turns up
        assert!(is_legal(&t, SpiderMove::Off { column: 1 }));
        undo(&mut t, onto, applied);
        assert_eq!(t, s);
        let mixed = position(
            "Stock:\nOff: S S S S S S\nKS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n\
             KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n:\n:\n:\n:\n:\n:\n:\n:\n",
        );
        assert!(is_legal(&mixed, SpiderMove::Off { column: 0 }));
        // No card fits on an ace, and no deal from an empty stock.
        assert!(!is_legal(
            &mixed,
            SpiderMove::Run {
                from: 0,
                to: 1,
                count: 1
            }
        ));
        assert!(!is_legal(&mixed, SpiderMove::Deal));
    }

    #[test]
    fn mixed_suits_do_not_move_as_a_unit_and_deals_need_every_column_filled() {
        let deal = SpiderDeal::from_number(Suits::Four, 3).unwrap();
        let mut s = SpiderState::from_deal(&deal);
        assert!(is_legal(&s, SpiderMove::Deal));
        let applied = apply(&mut s, SpiderMove::Deal);
        assert!(s.cols.iter().all(|c| c.cards.len() >= 6));
        // A run of two of different suits (the dealt card on any other) is no unit.
        for (i, c) in s.cols.iter().enumerate() {
            let up = c.face_up();
            let (a, b) = (up[up.len() - 2], up[up.len() - 1]);
            let unit = a.suit() == b.suit() && a.rank() == b.rank() + 1;
            assert_eq!(c.run_len() >= 2, unit, "column {i}");
        }
        undo(&mut s, SpiderMove::Deal, applied);
        assert_eq!(s, SpiderState::from_deal(&deal));
        let mut gap = s.clone();
        gap.cols[4].cards.clear();
        gap.cols[4].down = 0;
        assert!(!is_legal(&gap, SpiderMove::Deal));
    }

    /// Every legal move, found by asking [`is_legal`] of every move there could be, in the
    /// order [`generate`] promises.
    fn every_legal_move(state: &SpiderState) -> Vec<SpiderMove> {
        let n = state.cols.len() as u8;
        let mut all = Vec::new();
        for from in 0..n {
            for count in 1..=state.cols[from as usize].cards.len() as u8 {
                for to in 0..n {
                    all.push(SpiderMove::Run { from, to, count });
                }
            }
        }
        all.extend((0..n).map(|column| SpiderMove::Off { column }));
        all.push(SpiderMove::Deal);
        all.retain(|&m| is_legal(state, m));
        all
    }

    #[test]
    fn generate_finds_exactly_the_legal_moves() {
        // The positions along wins, where runs go off and columns empty before a deal.
        let mut positions = vec![position(ENDGAME)];
        for (suits, number) in [(Suits::One, 1), (Suits::Four, 3)] {
            let deal = SpiderDeal::from_number(suits, number).unwrap();
            let limits = crate::solver::Limits::states(Some(3_000_000));
            let won = super::super::search::solve(&deal, &limits, &mut || false);
            assert!(!won.moves.is_empty());
            let mut state = SpiderState::from_deal(&deal);
            for m in won.moves {
                positions.push(state.clone());
                apply(&mut state, m);
            }
        }
        for state in &positions {
            let mut moves = Vec::new();
            generate(state, false, &mut moves);
            assert_eq!(moves, every_legal_move(state));
        }
        let gap_before_a_deal = |s: &&SpiderState| {
            !s.stock_left().is_empty() && s.cols.iter().any(|c| c.cards.is_empty())
        };
        let an_off =
            |s: &&SpiderState| (0..10).any(|column| is_legal(s, SpiderMove::Off { column }));
        assert!(positions.iter().any(|s| gap_before_a_deal(&s)));
        assert!(positions.iter().any(|s| an_off(&s)));
    }

    /// Along a win: a run carries its cards as they lie, a run off K to A, a deal the cards
    /// that then top the columns.
    #[test]
    fn each_move_carries_the_cards_it_moves() {
        let deal = SpiderDeal::from_number(Suits::One, 1).unwrap();
        let limits = crate::solver::Limits::states(Some(3_000_000));
        let won = super::super::search::solve(&deal, &limits, &mut || false).moves;
        let mut state = SpiderState::from_deal(&deal);
        let mut kinds = [0; 3];
        for (m, cards) in with_cards(&deal, &won) {
            let ranks: Vec<u8> = cards.iter().map(|c| c.rank()).collect();
            apply(&mut state, m);
            match m {
                SpiderMove::Run { to, count, .. } => {
                    let column = &state.cols[to as usize].cards;
                    assert_eq!(cards, column[column.len() - count as usize..]);
                    kinds[0] += 1;
                }
                SpiderMove::Off { .. } => {
                    assert_eq!(ranks, (1..=13).rev().collect::<Vec<u8>>());
                    kinds[1] += 1;
                }
                SpiderMove::Deal => {
                    let tops: Vec<Card> = state.cols.iter().filter_map(Col::top).collect();
                    assert_eq!(cards, tops);
                    kinds[2] += 1;
                }
            }
        }
        assert!(state.is_won() && kinds.iter().all(|&k| k > 0), "{kinds:?}");
    }
}
