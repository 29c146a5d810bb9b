//! Making a found win shorter after the search: a depth-first win wanders.

use super::deal::Deal;
use super::moves::{all_legal, apply, key_after, undo, Move};
use super::state::{Key, State, NOT_IN_TABLEAU};
use crate::cards::Card;
use crate::solver::walk::{self, shortest_through, Game};

/// A position with its columns in place: the key plus each column's bottom card (which says
/// which column is which). Moves name columns by place, so only these can be joined.
type PlacedKey = (Key, u64);

fn placed_key(state: &State) -> PlacedKey {
    (state.key(), bottoms(state))
}

/// Each column's bottom card, six bits a column.
fn bottoms(state: &State) -> u64 {
    let mut bottoms = 0u64;
    for col in 0..state.ncols() {
        let bottom = state.column(col).first().map_or(0, |c| c.id() as u64);
        bottoms |= bottom << (6 * col);
    }
    bottoms
}

/// The position a placed key stands for.
fn decode(deal: &Deal, (key, bottoms): &PlacedKey) -> State {
    // The key says what lies under each card; turn it round to what lies on each card.
    let mut on = [0u8; 53];
    let mut foundations = [0u8; 4];
    for card in Card::deck() {
        match key.under(card) {
            NOT_IN_TABLEAU => {
                let f = &mut foundations[card.suit() as usize];
                *f = (*f).max(card.rank());
            }
            0 => {}
            under => on[under as usize] = card.id(),
        }
    }
    let columns = (0..deal.columns.len())
        .map(|col| {
            let mut column = Vec::new();
            let mut id = ((bottoms >> (6 * col)) & 63) as u8;
            while let Some(card) = Card::from_id(id) {
                column.push(card);
                id = on[id as usize];
            }
            column
        })
        .collect();
    State::from_deal(&Deal {
        variant: deal.variant,
        number: None,
        columns,
        foundations,
    })
}

/// The shortest line through the positions of a winning line (`solver::walk`): loops and
/// detours drop out, and the result still wins.
pub fn shorten(deal: &Deal, moves: &[Move]) -> Vec<Move> {
    shortest_through(deal, moves)
}

/// The moves between a line's positions: every legal move, in `all_legal` order.
impl Game for Deal {
    type State = State;
    type Key = PlacedKey;
    type Move = Move;

    fn start(&self) -> State {
        State::from_deal(self)
    }

    fn decode(&self, key: &PlacedKey) -> State {
        decode(self, key)
    }

    fn key(state: &State) -> PlacedKey {
        placed_key(state)
    }

    fn legal(state: &State, out: &mut Vec<Move>) {
        all_legal(state, out);
    }

    fn play(state: &mut State, m: Move) {
        apply(state, m);
    }

    /// The parent's key with the moved card placed (a key made afresh reads every card).
    fn key_after(state: &mut State, key: &PlacedKey, m: Move) -> PlacedKey {
        apply(state, m);
        let child = (key_after(key.0, state, &[m]), bottoms(state));
        undo(state, m);
        child
    }
}

/// At most the bytes [`shorten`] allocates for a line of `moves` moves.
pub fn shorten_bytes(moves: usize) -> usize {
    walk::bytes::<PlacedKey, Move>(moves)
}

#[cfg(test)]
mod tests {
    use super::super::moves::{is_legal, replays_to_win};
    use super::super::search::solve;
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::Limits;

    #[test]
    fn a_loop_is_cut() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 2).unwrap();
        let limits = Limits::states(None);
        let won = solve(&deal, &limits, false, &Default::default(), &mut || false).moves;
        assert!(replays_to_win(&deal, &won));
        // Somewhere along the win, a move and its reverse: a loop.
        let mut state = State::from_deal(&deal);
        let mut longer = Vec::new();
        let mut looped = false;
        for &next in &won {
            if !looped {
                let mut legal = Vec::new();
                all_legal(&state, &mut legal);
                for m in legal.into_iter().filter(|m| !m.to_foundation()) {
                    let back = Move {
                        card: m.card,
                        from: m.to,
                        to: m.from,
                    };
                    let mut s = state.clone();
                    apply(&mut s, m);
                    if is_legal(&s, back) {
                        longer.extend([m, back]);
                        looped = true;
                        break;
                    }
                }
            }
            apply(&mut state, next);
            longer.push(next);
        }
        assert!(looped);
        assert!(replays_to_win(&deal, &longer));
        let short = shorten(&deal, &longer);
        assert!(replays_to_win(&deal, &short));
        assert!(short.len() <= won.len());
    }

    /// A child's key placed from its parent's is the key made afresh, for every legal move
    /// (into and out of empty columns, onto the foundations) along wins of each variant.
    #[test]
    fn a_key_after_a_move_is_the_childs_key() {
        let mut checked = 0;
        for variant in [
            Variant::BeleagueredCastle,
            Variant::StreetsAndAlleys,
            Variant::Citadel,
        ] {
            for number in 1..=8 {
                let deal = Deal::from_number(variant, number).unwrap();
                let limits = Limits::states(Some(200_000));
                let won = solve(&deal, &limits, false, &Default::default(), &mut || false).moves;
                let mut state = State::from_deal(&deal);
                for &next in &won {
                    let key = placed_key(&state);
                    let mut legal = Vec::new();
                    all_legal(&state, &mut legal);
                    for m in legal {
                        let placed = <Deal as Game>::key_after(&mut state, &key, m);
                        let mut child = state.clone();
                        apply(&mut child, m);
                        assert_eq!(placed, placed_key(&child), "{variant:?} {number} {m:?}");
                        checked += 1;
                    }
                    assert_eq!(placed_key(&state), key);
                    apply(&mut state, next);
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
    }
}
