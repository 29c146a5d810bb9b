//! The free-cell games across the boundary: `CellsDeal` (a position), `solve_cells`, the
//! variants and their rules, the replay check.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::position::{self, position_class, Position};
use super::run::{answer, check_limits, detached, progress_every, Answer};
use crate::board_text::BoardError;
use crate::cards::Card;
use crate::cells::board;
use crate::cells::deal::{max_number, CellsDeal};
use crate::cells::moves::{self, CellsMove, Place};
use crate::cells::search;
use crate::cells::state::CellsState;
use crate::cells::variant::{Build, Variant};

fn variant_from(id: &str) -> PyResult<Variant> {
    let ids = Variant::ALL.iter().map(|v| v.id());
    position::variant_from("free-cell variant", id, Variant::from_id, ids)
}

impl Position for CellsDeal {
    type Variant = Variant;
    type State = CellsState;
    type Move = CellsMove;
    type MoveTuple = MoveTuple;

    fn variant(id: &str) -> PyResult<Variant> {
        variant_from(id)
    }

    fn max_number(variant: Variant) -> u64 {
        max_number(variant)
    }

    fn from_number(variant: Variant, number: u64) -> Option<CellsDeal> {
        CellsDeal::from_number(variant, number)
    }

    fn parse(text: &str, variant: Option<Variant>) -> Result<CellsDeal, BoardError> {
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

    fn state(&self) -> CellsState {
        CellsState::from_deal(self)
    }

    fn legal(state: &CellsState, out: &mut Vec<CellsMove>) {
        moves::all_legal(state, out);
    }

    fn is_legal(state: &CellsState, m: CellsMove) -> bool {
        moves::single_moves(state, m).is_some()
    }

    fn after(&self, state: &CellsState, m: CellsMove) -> (CellsDeal, CellsState) {
        let mut state = state.clone();
        for single in moves::single_moves(&state.clone(), m).expect("a legal move") {
            moves::apply(&mut state, single);
        }
        (state.to_deal(), state)
    }

    fn is_won(state: &CellsState) -> bool {
        state.is_won()
    }

    fn move_tuple(m: CellsMove) -> MoveTuple {
        move_tuple(m)
    }
}

position_class! {
    /// A position of one of the free-cell games: the columns, the cells, the foundations; with
    /// the core's state of it (built once, here, not on every call).
    PyCellsDeal ("CellsDeal") holds CellsDeal;
    move (card: u8, src_kind: &str, src: i16, dst_kind: &str, dst: i16) by core_move;
    /// Every legal single-card move here (every empty column and cell included), as (card,
    /// from kind, from index, to kind, to index), kinds "column", "cell" or "foundation"
    /// (index -1).
    legal_moves;
    /// The position after a legal move (no deal number): a single card, or a run moved as a
    /// unit (the card named lies under others in a column and goes to another column: it
    /// and every card above it go, as the single moves of `single_moves`); ValueError if it
    /// is not legal here.
    play;
    {
        /// Card indexes (0..52, `13 * suit + rank - 1`, suits C D H S), bottom card first.
        #[getter]
        fn columns(&self) -> Vec<Vec<u8>> {
            self.deal.columns.iter().map(|c| indexes(c)).collect()
        }

        /// Each cell's card index, or None for an empty cell.
        #[getter]
        fn cells(&self) -> Vec<Option<u8>> {
            self.deal.cells.iter().map(|c| c.map(|c| c.index() as u8)).collect()
        }

        /// Top rank on each foundation, suits C D H S (0 = empty).
        #[getter]
        fn foundations(&self) -> [u8; 4] {
            self.deal.foundations
        }

        /// The single moves a legal move stands for (a run moved as a unit goes through the
        /// cells and the empty columns); ValueError if it is not legal here.
        fn single_moves(
            &self,
            card: u8,
            src_kind: &str,
            src: i16,
            dst_kind: &str,
            dst: i16,
        ) -> PyResult<Vec<MoveTuple>> {
            core_move(card, src_kind, src, dst_kind, dst)
                .and_then(|m| moves::single_moves(&self.state, m))
                .map(|singles| singles.into_iter().map(move_tuple).collect())
                .ok_or_else(|| PyValueError::new_err("not a legal move here"))
        }

        /// How many top cards of `column` form a run (each on the card it may go onto).
        fn movable(&self, column: usize) -> usize {
            if column < self.state.cols.len() {
                moves::run_len(&self.state, column)
            } else {
                0
            }
        }

        /// The most cards that may move as a unit onto column `column` now (the empty cells
        /// and the other empty columns allow it).
        fn max_run(&self, column: usize) -> usize {
            let empty = self.state.empty_columns();
            let other = empty - usize::from(self.state.cols.get(column).is_some_and(|c| c.is_empty()));
            self.state.variant.max_run(self.state.free_cells(), other)
        }

        /// The moves to the foundations the solver makes by itself from here (cards nothing
        /// could still go onto), in the order it makes them.
        fn safe_moves(&self) -> Vec<MoveTuple> {
            let mut state = self.state.clone();
            let mut made = Vec::new();
            moves::auto_moves(&mut state, &mut made);
            made.into_iter().map(move_tuple).collect()
        }
    }
}

/// Card indexes (`13 * suit + rank - 1`).
fn indexes(cards: &[Card]) -> Vec<u8> {
    cards.iter().map(|c| c.index() as u8).collect()
}

/// A move across the boundary: (card index, from kind, from index, to kind, to index), kinds
/// "column", "cell", "foundation" (index -1).
pub(super) type MoveTuple = (u8, &'static str, i16, &'static str, i16);

fn place_tuple(place: Place) -> (&'static str, i16) {
    match place {
        Place::Column(c) => ("column", c as i16),
        Place::Cell(c) => ("cell", c as i16),
        Place::Foundation => ("foundation", -1),
    }
}

pub(super) fn move_tuple(m: CellsMove) -> MoveTuple {
    let (from_kind, from) = place_tuple(m.from);
    let (to_kind, to) = place_tuple(m.to);
    (m.card.index() as u8, from_kind, from, to_kind, to)
}

/// The place a (kind, index) names, if its parts are in range (the variant's own ranges are
/// checked with the move's legality).
fn place(kind: &str, index: i16) -> Option<Place> {
    let index = u8::try_from(index).ok();
    match kind {
        "column" => index.filter(|&i| i < 10).map(Place::Column),
        "cell" => index.filter(|&i| i < 8).map(Place::Cell),
        "foundation" => Some(Place::Foundation),
        _ => None,
    }
}

/// The core move for a tuple, if its parts are in range (legality is checked apart).
fn core_move(card: u8, src_kind: &str, src: i16, dst_kind: &str, dst: i16) -> Option<CellsMove> {
    Some(CellsMove {
        card: Card::from_id(card.checked_add(1)?)?,
        from: place(src_kind, src)?,
        to: place(dst_kind, dst)?,
    })
}

#[pyfunction]
pub fn cells_variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.id()).collect()
}

/// A variant's rules: (name, columns, cells, how a column builds: "alternate-colours",
/// "suit" or "rank", whether an empty column takes only a king, the largest deal number).
#[pyfunction]
pub fn cells_rules(
    variant: &str,
) -> PyResult<(&'static str, usize, usize, &'static str, bool, u64)> {
    let v = variant_from(variant)?;
    let build = match v.build() {
        Build::Alternate => "alternate-colours",
        Build::Suit => "suit",
        Build::Rank => "rank",
    };
    Ok((
        v.name(),
        v.columns(),
        v.cells(),
        build,
        v.kings_only(),
        max_number(v),
    ))
}

/// Whether `moves` (single-card moves, as `solve_cells` gives them) are legal one after
/// another from `deal` and put every card up.
#[pyfunction]
pub fn cells_replays(deal: &PyCellsDeal, moves: Vec<(u8, String, i16, String, i16)>) -> bool {
    let mut line = Vec::with_capacity(moves.len());
    for (card, src_kind, src, dst_kind, dst) in &moves {
        match core_move(*card, src_kind, *src, dst_kind, *dst) {
            Some(m) => line.push(m),
            None => return false,
        }
    }
    moves::replays_to_win(&deal.deal, &line)
}

/// Solves a free-cell deal with the GIL released, like `solve`: (status, moves, states,
/// seconds, limit), the moves as one `bytes`, two a move in the machine's byte order, each a
/// single card's as a number ([`move_code`]), the safe moves to the foundations among them:
/// one object crosses, however long the win, and Python reads the moves when it needs them.
/// With `short`, the win is made shorter first. A win has been replayed by the rules' code
/// (`moves::replays_to_win`, in `Outcome::from_end`): one that does not win is a bug,
/// `InternalError`.
#[pyfunction]
#[pyo3(signature = (
    deal, max_states, max_seconds, max_memory, short=false, progress=None,
    progress_seconds=1.0, max_cpu_seconds=None
))]
#[allow(clippy::too_many_arguments)]
pub fn solve_cells(
    py: Python<'_>,
    deal: &PyCellsDeal,
    max_states: Option<u64>,
    max_seconds: Option<f64>,
    max_memory: usize,
    short: bool,
    progress: Option<Py<PyAny>>,
    progress_seconds: f64,
    max_cpu_seconds: Option<f64>,
) -> PyResult<Answer<u8>> {
    let limits = check_limits(max_states, max_seconds, max_cpu_seconds, max_memory)?;
    let progress = progress_every(progress, progress_seconds)?;
    let outcome = detached(py, progress, |interrupted| {
        search::solve(&deal.deal, &limits, short, interrupted)
    })?;
    Ok(answer(outcome, |moves| {
        moves
            .into_iter()
            .flat_map(|m| move_code(m).to_ne_bytes())
            .collect()
    }))
}

/// A single move as one number, as the solution's moves cross to Python: the card's index
/// (0..52) in bits 0-5, where it comes from in bits 6-10 and where it goes in bits 11-15,
/// each place a column's index (0..10), 16 + a cell's index, or 31 for the foundation.
fn move_code(m: CellsMove) -> u16 {
    let place = |p: Place| match p {
        Place::Column(c) => c as u16,
        Place::Cell(c) => 16 + c as u16,
        Place::Foundation => 31,
    };
    m.card.index() as u16 | place(m.from) << 6 | place(m.to) << 11
}
