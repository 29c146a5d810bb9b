//! The castle games across the boundary: `Deal` (a position), `solve`, the variants, cards.

use std::path::PathBuf;

use pyo3::prelude::*;

use super::position::{self, position_class, Position};
use super::run::{answer, check_limits, detached, progress_every, Answer};
use crate::board_text::BoardError;
use crate::cards::Card;
use crate::castle::board;
use crate::castle::deal::Deal;
use crate::castle::layers::Overflow;
use crate::castle::moves::{self, Move, FOUNDATION};
use crate::castle::search;
use crate::castle::state::{State, MAX_COLUMNS};
use crate::castle::variant::Variant;
use crate::solver::disk::Spill;

fn variant_from(id: &str) -> PyResult<Variant> {
    let ids = Variant::ALL.iter().map(|v| v.id());
    position::variant_from("variant", id, Variant::from_id, ids)
}

impl Position for Deal {
    type Variant = Variant;
    type State = State;
    type Move = Move;
    type MoveTuple = MoveTuple;

    fn variant(id: &str) -> PyResult<Variant> {
        variant_from(id)
    }

    fn from_number(variant: Variant, number: u64) -> Option<Deal> {
        Deal::from_number(variant, number)
    }

    fn parse(text: &str, variant: Option<Variant>) -> Result<Deal, BoardError> {
        board::parse(text, variant)
    }

    fn format(&self) -> String {
        board::format(self)
    }

    fn variant_id(&self) -> &'static str {
        self.variant.id()
    }

    fn number(&self) -> Option<u64> {
        self.number
    }

    fn state(&self) -> State {
        State::from_deal(self)
    }

    fn legal(state: &State, out: &mut Vec<Move>) {
        moves::all_legal(state, out);
    }

    fn is_legal(state: &State, m: Move) -> bool {
        moves::is_legal(state, m)
    }

    fn after(&self, state: &State, m: Move) -> (Deal, State) {
        let mut state = state.clone();
        moves::apply(&mut state, m);
        // The state after the move is the new position's, as it would be built from it.
        let deal = Deal {
            variant: self.variant,
            number: None,
            columns: state.columns(),
            foundations: state.foundations,
        };
        (deal, state)
    }

    fn is_won(state: &State) -> bool {
        state.is_won()
    }

    fn move_tuple(m: Move) -> MoveTuple {
        move_tuple(m)
    }
}

position_class! {
    /// A layout of one of the castle games, with the core's state of it (built once, here, not on
    /// every call).
    PyDeal ("Deal") holds Deal;
    move (card: u8, from: u8, to: i16) by core_move;
    /// Every legal single-card move here, every empty column included (docs/rules.md §1).
    legal_moves;
    /// The position after a legal move (a position has no deal number); ValueError if the
    /// move is not legal here.
    play;
    {
        /// Card indexes (0..52, `13 * suit + rank - 1`, suits C D H S), bottom card first.
        #[getter]
        fn columns(&self) -> Vec<Vec<u8>> {
            self.deal
                .columns
                .iter()
                .map(|c| c.iter().map(|card| card.index() as u8).collect())
                .collect()
        }

        /// Top rank on each foundation, suits C D H S (0 = empty).
        #[getter]
        fn foundations(&self) -> [u8; 4] {
            self.deal.foundations
        }

        /// Whether the top card `card` may go up now and can never be needed in the tableau
        /// (the solver's automatic-move rule).
        fn is_safe_to_foundation(&self, card: u8) -> bool {
            card.checked_add(1)
                .and_then(Card::from_id)
                .is_some_and(|card| moves::is_safe_to_send_up(&self.state, card))
        }

        /// The foundation moves that finish the game, if lifting cards alone wins from here.
        fn lift_to_win(&self) -> Option<Vec<MoveTuple>> {
            moves::lift_to_win(&self.state)
                .map(|lifted| lifted.into_iter().map(move_tuple).collect())
        }
    }
}

/// A move across the boundary: (card index, from column, to column or -1 for the foundation).
type MoveTuple = (u8, u8, i16);

fn move_tuple(m: Move) -> MoveTuple {
    let to = if m.to == FOUNDATION { -1 } else { m.to as i16 };
    (m.card.index() as u8, m.from, to)
}

/// The core move for a tuple, if its parts are in range (legality is checked apart).
fn core_move(card: u8, from: u8, to: i16) -> Option<Move> {
    let card = Card::from_id(card.checked_add(1)?)?;
    let to = match to {
        -1 => FOUNDATION,
        _ => u8::try_from(to)
            .ok()
            .filter(|&to| (to as usize) < MAX_COLUMNS)?,
    };
    Some(Move { card, from, to })
}

/// Parses one card token; `None` if it is not a card.
#[pyfunction]
pub fn parse_card(token: &str) -> Option<u8> {
    Card::parse(token).map(|c| c.index() as u8)
}

#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.id()).collect()
}

/// Solves a deal with the GIL released (with `short`, then hunts for a shorter win). Returns
/// (status, moves, states, seconds, limit), each move (card index, from column, to column or
/// -1 for the foundation). Ctrl+C raises KeyboardInterrupt within about 50 ms. The complete
/// pass goes on in layers once its table is full; with `spill_dir`, the layers put keys in
/// files there when memory is full, at most `max_disk` bytes of them. `progress`, if given, is
/// called every `progress_seconds` with (states, seconds, bytes held, bytes on disk).
#[pyfunction]
#[pyo3(signature = (
    deal, max_states, max_seconds, max_memory, short=false, spill_dir=None, max_disk=None,
    progress=None, progress_seconds=1.0, max_cpu_seconds=None
))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    deal: &PyDeal,
    max_states: Option<u64>,
    max_seconds: Option<f64>,
    max_memory: usize,
    short: bool,
    spill_dir: Option<PathBuf>,
    max_disk: Option<u64>,
    progress: Option<Py<PyAny>>,
    progress_seconds: f64,
    max_cpu_seconds: Option<f64>,
) -> PyResult<Answer<MoveTuple>> {
    let limits = check_limits(max_states, max_seconds, max_cpu_seconds, max_memory)?;
    let overflow = Overflow {
        spill: spill_dir.map(|dir| Spill {
            dir,
            max_bytes: max_disk.unwrap_or(u64::MAX),
        }),
        ..Overflow::default()
    };
    let progress = progress_every(progress, progress_seconds)?;
    let outcome = detached(py, progress, |interrupted| {
        search::solve(&deal.deal, &limits, short, &overflow, interrupted)
    })?;
    Ok(answer(outcome, |moves| {
        moves.into_iter().map(move_tuple).collect()
    }))
}
