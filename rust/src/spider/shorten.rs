//! Making a found Spider win shorter after the search: depth-first wins wander for thousands
//! (even millions) of moves.

use rustc_hash::FxHashMap;

use super::beam::STATE_BYTES;
use super::deal::SpiderDeal;
use super::moves::{apply, generate, undo, SpiderMove};
use super::state::{SpiderKey, SpiderState};
use crate::solver::heap::{map_bytes, Memory};
use crate::solver::walk::{self, Game};

/// Lines longer than this, after their loops are cut, keep that form: the breadth-first pass
/// costs a move generation per position.
pub const BFS_LIMIT: usize = 50_000;

/// A shorter line to the same win: first every loop (a position reached again) is cut; then,
/// for lines of at most [`BFS_LIMIT`] moves, the shortest line through the positions left,
/// by a breadth-first search where any legal move from one of them to another is an edge.
pub fn shorten(deal: &SpiderDeal, moves: &[SpiderMove]) -> Vec<SpiderMove> {
    let line = cut_loops(deal, moves);
    if line.len() > BFS_LIMIT {
        return line;
    }
    walk::shortest_through(deal, &line)
}

/// [`shorten`] as far as `memory` allows: each stage runs only if what it allocates fits in
/// the bound beside what is held already; else the line as it stands is the result.
pub fn shorten_within(
    deal: &SpiderDeal,
    moves: Vec<SpiderMove>,
    memory: &Memory,
) -> Vec<SpiderMove> {
    if !memory.allows(cut_loops_bytes(moves.len())) {
        return moves;
    }
    let line = cut_loops(deal, &moves);
    drop(moves);
    if line.len() > BFS_LIMIT || !memory.allows(shortest_through_bytes(line.len())) {
        return line;
    }
    walk::shortest_through(deal, &line)
}

/// At most the bytes [`cut_loops`] allocates for a line of `moves` moves: each position's key
/// in a list and in a map, the line that comes out; a page for the rest, and one for each of
/// the three (a block the system maps takes whole pages).
pub fn cut_loops_bytes(moves: usize) -> usize {
    let n = moves + 1;
    n * (size_of::<SpiderKey>() + size_of::<SpiderMove>())
        + map_bytes::<(SpiderKey, usize)>(n)
        + 4 * 4096
}

/// At most the bytes `walk::shortest_through` allocates for a line of `moves` moves: the walk's, and
/// one position at a time.
pub fn shortest_through_bytes(moves: usize) -> usize {
    walk::bytes::<SpiderKey, SpiderMove>(moves) + STATE_BYTES
}

/// The line with its loops cut: walking it, a position met before takes the line back to
/// where it was first met.
pub fn cut_loops(deal: &SpiderDeal, moves: &[SpiderMove]) -> Vec<SpiderMove> {
    // Sized up front, so that `cut_loops_bytes` knows what they take.
    let n = moves.len() + 1;
    let mut state = SpiderState::from_deal(deal);
    let mut seen: FxHashMap<SpiderKey, usize> =
        FxHashMap::with_capacity_and_hasher(n, Default::default());
    let mut keys = Vec::with_capacity(n);
    keys.push(state.placed_key());
    seen.insert(keys[0], 0);
    let mut out: Vec<SpiderMove> = Vec::with_capacity(moves.len());
    for &m in moves {
        apply(&mut state, m);
        let key = state.placed_key();
        if let Some(&at) = seen.get(&key) {
            for dropped in keys.drain(at + 1..) {
                seen.remove(&dropped);
            }
            out.truncate(at);
        } else {
            out.push(m);
            seen.insert(key, keys.len());
            keys.push(key);
        }
    }
    out
}

/// The moves between a line's positions: every legal move, in `generate` order (unpruned).
impl Game for SpiderDeal {
    type State = SpiderState;
    type Key = SpiderKey;
    type Move = SpiderMove;

    fn start(&self) -> SpiderState {
        SpiderState::from_deal(self)
    }

    fn decode(&self, key: &SpiderKey) -> SpiderState {
        SpiderState::from_placed_key(self, key)
    }

    fn key(state: &SpiderState) -> SpiderKey {
        state.placed_key()
    }

    fn legal(state: &SpiderState, out: &mut Vec<SpiderMove>) {
        generate(state, false, out);
    }

    fn play(state: &mut SpiderState, m: SpiderMove) {
        apply(state, m);
    }

    fn key_after(state: &mut SpiderState, _: &SpiderKey, m: SpiderMove) -> SpiderKey {
        let applied = apply(state, m);
        let key = state.placed_key();
        undo(state, m, applied);
        key
    }
}

#[cfg(test)]
mod tests {
    use super::super::deal::Suits;
    use super::super::moves::replays_to_win;
    use super::*;
    use crate::solver::Limits;

    #[test]
    fn a_shortened_win_still_wins_and_a_placed_key_decodes() {
        let deal = SpiderDeal::from_number(Suits::One, 3).unwrap();
        let mut state = SpiderState::from_deal(&deal);
        let mut moves = Vec::new();
        generate(&state, true, &mut moves);
        apply(&mut state, moves[0]);
        apply(&mut state, SpiderMove::Deal);
        let back = SpiderState::from_placed_key(&deal, &state.placed_key());
        assert_eq!(back, state);
        let limits = Limits::states(Some(200_000));
        for n in [1, 4] {
            let deal = SpiderDeal::from_number(Suits::One, n).unwrap();
            let o = super::super::search::solve(&deal, &limits, &mut || false);
            assert!(replays_to_win(&deal, &o.moves), "deal {n}");
        }
    }
}
