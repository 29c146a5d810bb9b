//! Making a found win shorter after the search: a depth-first win wanders.

use std::collections::VecDeque;
use std::mem::size_of;

use rustc_hash::FxHashMap;

use super::deal::Deal;
use super::moves::{all_legal, apply, undo, Move};
use super::state::{Key, State, NOT_IN_TABLEAU};
use crate::cards::Card;
use crate::solver::heap::map_bytes;

/// A position with its columns in place: the key plus each column's bottom card (which says
/// which column is which). Moves name columns by place, so only these can be joined.
type PlacedKey = (Key, u64);

fn placed_key(state: &State) -> PlacedKey {
    let mut bottoms = 0u64;
    for col in 0..state.ncols() {
        let bottom = state.column(col).first().map_or(0, |c| c.id() as u64);
        bottoms |= bottom << (6 * col);
    }
    (state.key(), bottoms)
}

/// The position a placed key stands for (a line can be millions of moves: keys, not states,
/// are kept for each of its positions).
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

/// The shortest line through the positions of a winning line: a breadth-first search over
/// those positions, where any legal move from one of them to another is an edge. Loops (a
/// position reached twice) and detours (a position reached later that one move would have
/// reached) drop out. Every move of the result is legal where it is played, and the result
/// ends where `moves` ends, so it still wins.
pub fn shorten(deal: &Deal, moves: &[Move]) -> Vec<Move> {
    // The positions of the line, in place, and where each first occurs (sized up front, so
    // that `shorten_bytes` knows what they take).
    let n = moves.len() + 1;
    let mut state = State::from_deal(deal);
    let mut positions = Vec::with_capacity(n);
    positions.push(placed_key(&state));
    let mut index: FxHashMap<PlacedKey, usize> =
        FxHashMap::with_capacity_and_hasher(n, Default::default());
    index.insert(positions[0], 0);
    for &m in moves {
        apply(&mut state, m);
        let key = placed_key(&state);
        index.entry(key).or_insert(positions.len());
        positions.push(key);
    }
    let goal = index[&positions[moves.len()]];

    // Breadth-first from the deal, visiting positions in the order the queue meets them and
    // moves in `all_legal` order, so the result is the same in the Python reference.
    let mut came_from: Vec<Option<(usize, Move)>> = vec![None; n];
    let mut reached = vec![false; n];
    reached[0] = true;
    let mut queue = VecDeque::with_capacity(n);
    queue.push_back(0usize);
    let mut legal = Vec::new();
    while let Some(i) = queue.pop_front() {
        if i == goal {
            break;
        }
        let mut state = decode(deal, &positions[i]);
        legal.clear();
        all_legal(&state, &mut legal);
        for &m in &legal {
            apply(&mut state, m);
            if let Some(&j) = index.get(&placed_key(&state)) {
                if !reached[j] {
                    reached[j] = true;
                    came_from[j] = Some((i, m));
                    queue.push_back(j);
                }
            }
            undo(&mut state, m);
        }
    }
    let mut out = Vec::new();
    let mut at = goal;
    while let Some((before, m)) = came_from[at] {
        out.push(m);
        at = before;
    }
    out.reverse();
    out
}

/// At most the bytes [`shorten`] allocates for a line of `moves` moves: each position's key
/// in a list and in a map, where it was reached from, the queue; the line that comes out
/// (grown by doubling); a page for the rest.
pub fn shorten_bytes(moves: usize) -> usize {
    let n = moves + 1;
    let each = size_of::<PlacedKey>()
        + size_of::<Option<(usize, Move)>>()
        + size_of::<bool>()
        + size_of::<usize>()
        + 3 * size_of::<Move>();
    n * each + map_bytes::<(PlacedKey, usize)>(n) + 4096
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
        let limits = Limits {
            max_states: None,
            max_seconds: None,
            max_memory: 1 << 30,
        };
        let won = solve(&deal, &limits, false, &mut || false).moves;
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
}
