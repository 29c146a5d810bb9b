//! Spider move ordering: which move the search tries first. It decides how fast a win is
//! found, never whether one is: every generated move is still tried.

use super::estimate::estimate;
use super::moves::{apply, undo, SpiderMove};
use super::state::SpiderState;

/// Lower is tried first; ties keep generation order.
///
/// Classes, best first: 0 a run taken off; 1 a run whose move turns a face-down card up;
/// 2 a run onto a card of its own suit (it grows a run that can go off); 3 a run that empties
/// its column; 4 any other run onto a card; 5 a run into an empty column; 6 a run that leaves
/// a card of its own suit one rank higher (it breaks a run); 7 a deal. Within a class, longer
/// runs first.
pub fn priority(state: &SpiderState, m: SpiderMove) -> u32 {
    let (from, to, count) = match m {
        SpiderMove::Off { .. } => return 0,
        SpiderMove::Deal => return 7 << 8,
        SpiderMove::Run { from, to, count } => (from as usize, to as usize, count as usize),
    };
    let source = &state.cols[from];
    let bottom = source.cards[source.cards.len() - count];
    let under = source
        .cards
        .len()
        .checked_sub(count + 1)
        .map(|i| source.cards[i]);
    let target = state.cols[to].top();
    let class = if under.is_some() && source.cards.len() - count == source.down {
        1
    } else if under.is_some_and(|u| {
        source.cards.len() - count > source.down
            && u.suit() == bottom.suit()
            && u.rank() == bottom.rank() + 1
    }) {
        6
    } else {
        match target {
            Some(t) if t.suit() == bottom.suit() => 2,
            Some(_) if under.is_none() => 3,
            Some(_) => 4,
            None => 5,
        }
    };
    (class << 8) + (64 - count as u32)
}

/// Sorts `moves` into search order (stable): by how near a win the position after each move
/// looks (the beams' [`estimate`](super::estimate::estimate)), then by [`priority`]. Ordered by
/// class alone, the depth-first search wandered in nearly every deal; by the estimate it wins
/// most one-suit deals in a few thousand states.
pub fn order_moves(state: &mut SpiderState, moves: &mut [SpiderMove]) {
    // Each move made and taken back in place: no copy of the position per expansion.
    moves.sort_by_cached_key(|&m| {
        let class = priority(state, m);
        let applied = apply(state, m);
        let near = estimate(state);
        undo(state, m, applied);
        (near, class)
    });
}
