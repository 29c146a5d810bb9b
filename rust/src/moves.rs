//! The rules of play (RULES.md §1) in one place: which single-card moves are legal, making and
//! unmaking them, and which foundation moves are safe to make automatically.

use crate::cards::Card;
use crate::deal::Deal;
use crate::state::State;

/// `Move::to` for a move onto the card's foundation.
pub const FOUNDATION: u8 = u8::MAX;

/// One card from the top of column `from` to column `to` or to its foundation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub card: Card,
    pub from: u8,
    pub to: u8,
}

impl Move {
    #[inline]
    pub fn to_foundation(&self) -> bool {
        self.to == FOUNDATION
    }
}

/// Whether `card` may go onto its foundation now: it is the next rank of its suit.
#[inline]
pub fn fits_foundation(state: &State, card: Card) -> bool {
    state.foundations[card.suit() as usize] + 1 == card.rank()
}

/// Whether `card` may go onto `target`: exactly one rank lower, suit ignored (nothing on an ace).
#[inline]
pub fn fits_on(card: Card, target: Card) -> bool {
    card.rank() + 1 == target.rank()
}

/// Whether `m` is legal in `state`.
pub fn is_legal(state: &State, m: Move) -> bool {
    let from = m.from as usize;
    if from >= state.ncols() || state.top(from) != Some(m.card) {
        return false;
    }
    if m.to_foundation() {
        return fits_foundation(state, m.card);
    }
    let to = m.to as usize;
    to < state.ncols()
        && to != from
        && match state.top(to) {
            Some(target) => fits_on(m.card, target),
            None => true, // an empty column takes any card
        }
}

/// Makes a legal move.
#[inline]
pub fn apply(state: &mut State, m: Move) {
    let card = state.pop(m.from as usize);
    debug_assert_eq!(card, m.card);
    if m.to_foundation() {
        state.foundations[card.suit() as usize] = card.rank();
    } else {
        state.push(m.to as usize, card);
    }
}

/// Takes back `m`, the last move made.
#[inline]
pub fn undo(state: &mut State, m: Move) {
    if m.to_foundation() {
        state.foundations[m.card.suit() as usize] = m.card.rank() - 1;
    } else {
        state.pop(m.to as usize);
    }
    state.push(m.from as usize, m.card);
}

/// Every legal move worth searching, in the order the search and the reference agree on:
/// column by column, the top card to its foundation, then onto each other column in order.
/// Left out, because they can only lead to a position with the same key: a column's only card
/// into an empty column, and a card into any empty column but the first.
pub fn generate(state: &State, out: &mut Vec<Move>) {
    enumerate_moves(state, true, out);
}

/// Every legal move, in the same order as [`generate`], every empty column included.
pub fn all_legal(state: &State, out: &mut Vec<Move>) {
    enumerate_moves(state, false, out);
}

fn enumerate_moves(state: &State, prune: bool, out: &mut Vec<Move>) {
    let n = state.ncols();
    // Columns as bit sets: by the rank of their top card, and the empty ones. A card fits on a
    // top card one rank higher (`fits_on`), so its targets are `by_top_rank[rank + 1]`.
    let mut by_top_rank = [0u16; 15];
    let mut empty = 0u16;
    for col in 0..n {
        match state.top(col) {
            Some(top) => by_top_rank[top.rank() as usize] |= 1 << col,
            None => empty |= 1 << col,
        }
    }
    let first_empty = empty & empty.wrapping_neg();
    for from in 0..n {
        let Some(card) = state.top(from) else {
            continue;
        };
        if fits_foundation(state, card) {
            out.push(Move {
                card,
                from: from as u8,
                to: FOUNDATION,
            });
        }
        let into_empty = match (prune, state.len(from) > 1) {
            (false, _) => empty,
            (true, true) => first_empty,
            (true, false) => 0,
        };
        // Ascending column order, as the search and the reference agree.
        let mut targets = (by_top_rank[card.rank() as usize + 1] | into_empty) & !(1 << from);
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            debug_assert!(is_legal(
                state,
                Move {
                    card,
                    from: from as u8,
                    to
                }
            ));
            out.push(Move {
                card,
                from: from as u8,
                to,
            });
        }
    }
}

/// Whether sending `card` (which fits its foundation) there now can never lose a win: true when
/// every card one rank lower is already on the foundations.
///
/// Why: in the castle games a card is useful in the tableau only as a target for the cards one
/// rank lower (any suit) or as something that occupies a place. If all of those lower cards are
/// on the foundations, take any winning line from the position with `card` still in the tableau
/// and drop the moves of `card` from it. Each remaining move stays legal: no card ever went onto
/// `card`; every column is the same column less `card`, so tops the moves used are still tops, and
/// a column that was empty is still empty. Foundation moves of `card`'s suit wait for `card` in
/// the original line, so they come after it there and fit here too. The line still wins.
#[inline]
pub fn is_safe_to_foundation(state: &State, card: Card) -> bool {
    let lowest = *state.foundations.iter().min().unwrap();
    fits_foundation(state, card) && card.rank() <= lowest + 1
}

/// The next automatic move: the first column, left to right, whose top card is safe to send
/// to its foundation.
pub fn next_automatic(state: &State) -> Option<Move> {
    (0..state.ncols()).find_map(|from| {
        let card = state.top(from)?;
        is_safe_to_foundation(state, card).then_some(Move {
            card,
            from: from as u8,
            to: FOUNDATION,
        })
    })
}

/// Plays automatic moves until none is left, appending them to `played`.
pub fn play_automatic(state: &mut State, played: &mut Vec<Move>) {
    while let Some(m) = next_automatic(state) {
        apply(state, m);
        played.push(m);
    }
}

/// Whether `moves` are legal one after another from `deal` and end with every card up.
pub fn replays_to_win(deal: &Deal, moves: &[Move]) -> bool {
    let mut state = State::from_deal(deal);
    for &m in moves {
        if !is_legal(&state, m) {
            return false;
        }
        apply(&mut state, m);
    }
    state.is_won()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board;

    /// Seed 000's worked example: 7H onto 8C is legal, then 2D goes to the AD foundation.
    #[test]
    fn seven_of_hearts_onto_eight_of_clubs() {
        let text = "Foundations: H-A C-A D-A S-A\n\
            KS QS JS TS 9S 8S\n7S 6S 5S 4S 3S 2S\nKH QH JH TH 9H 8H\n2D 7H\n\
            KD QD JD TD 9D 8D\n7D 6D 5D 4D 3D\nKC QC JC TC 9C 8C\n7C 6C 5C 4C 3C 2C 6H 5H 4H 3H 2H\n";
        let deal = board::parse(text, None).unwrap();
        let mut s = State::from_deal(&deal);
        let m = Move {
            card: Card::parse("7H").unwrap(),
            from: 3,
            to: 6,
        };
        assert!(is_legal(&s, m));
        apply(&mut s, m);
        let two = Move {
            card: Card::parse("2D").unwrap(),
            from: 3,
            to: FOUNDATION,
        };
        assert!(is_legal(&s, two));
        assert!(!is_legal(
            &s,
            Move {
                card: Card::parse("7H").unwrap(),
                from: 6,
                to: 3
            }
        ));
        undo(&mut s, m);
        assert_eq!(s, State::from_deal(&deal));
    }
}
