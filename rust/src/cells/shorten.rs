//! Making a found win shorter after the search: the depth-first line wanders (a card to a cell
//! and back later), and the walk through its positions (`solver::walk`) cuts every detour.

use super::deal::CellsDeal;
use super::moves::{all_legal, apply, undo, CellsMove};
use super::state::{CellsKey, CellsState};
use crate::solver::heap::Memory;
use crate::solver::walk::{self, Game};

/// Bytes of one position beside the walk's own (its columns and cells on the heap).
const STATE_BYTES: usize = 1024;

/// The shortest line through the positions of `moves` if the walk fits in `memory` beside
/// what is held already; else the line as found.
pub fn shorten_within(deal: &CellsDeal, moves: Vec<CellsMove>, memory: &Memory) -> Vec<CellsMove> {
    if !memory.allows(walk::bytes::<CellsKey, CellsMove>(moves.len()) + STATE_BYTES) {
        return moves;
    }
    walk::shortest_through(deal, &moves)
}

/// The moves between a line's positions: every legal single-card move, in `all_legal` order.
impl Game for CellsDeal {
    type State = CellsState;
    type Key = CellsKey;
    type Move = CellsMove;

    fn start(&self) -> CellsState {
        CellsState::from_deal(self)
    }

    fn decode(&self, key: &CellsKey) -> CellsState {
        CellsState::from_placed_key(self.variant, key)
    }

    fn key(state: &CellsState) -> CellsKey {
        state.placed_key()
    }

    fn legal(state: &CellsState, out: &mut Vec<CellsMove>) {
        all_legal(state, out);
    }

    fn play(state: &mut CellsState, m: CellsMove) {
        apply(state, m);
    }

    fn key_after(state: &mut CellsState, _: &CellsKey, m: CellsMove) -> CellsKey {
        apply(state, m);
        let key = state.placed_key();
        undo(state, m);
        key
    }
}
