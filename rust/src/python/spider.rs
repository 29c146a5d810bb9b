//! Spider across the boundary: `SpiderDeal` (a position), `solve_spider`, the decks.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::run::{answer, check_limits, detached, progress_every, Answer};
use super::{guard, out_of_range, BoardTextError};
use crate::cards::Card;
use crate::spider::board;
use crate::spider::deal::{SpiderDeal, Suits, COLUMNS, RUN};
use crate::spider::moves::{self, SpiderMove};
use crate::spider::search::{self, Step, MAX_BEAM_WIDTH};
use crate::spider::state::SpiderState;

fn suits_from(id: &str) -> PyResult<Suits> {
    Suits::from_id(id).ok_or_else(|| {
        let known: Vec<&str> = Suits::ALL.iter().map(|v| v.id()).collect();
        PyValueError::new_err(format!(
            "unknown Spider variant {id:?} (known: {})",
            known.join(", ")
        ))
    })
}

/// A Spider position: the columns (face-down and face-up cards), the stock, the runs off; with
/// the core's state of it (built once, here, not on every call).
#[pyclass(module = "castle._core", name = "SpiderDeal", frozen)]
pub struct PySpiderDeal {
    deal: SpiderDeal,
    state: SpiderState,
}

impl PySpiderDeal {
    /// The core's state of the position.
    pub(super) fn state(&self) -> &SpiderState {
        &self.state
    }

    fn new(deal: SpiderDeal) -> PySpiderDeal {
        PySpiderDeal {
            state: SpiderState::from_deal(&deal),
            deal,
        }
    }
}

/// Card indexes (`13 * suit + rank - 1`).
fn indexes(cards: &[Card]) -> Vec<u8> {
    cards.iter().map(|c| c.index() as u8).collect()
}

#[pymethods]
impl PySpiderDeal {
    #[staticmethod]
    fn from_number(variant: &str, number: u64) -> PyResult<PySpiderDeal> {
        guard(|| {
            let deal = SpiderDeal::from_number(suits_from(variant)?, number)
                .ok_or_else(|| out_of_range(number))?;
            Ok(PySpiderDeal::new(deal))
        })
    }

    #[staticmethod]
    #[pyo3(signature = (text, variant=None))]
    fn from_text(text: &str, variant: Option<&str>) -> PyResult<PySpiderDeal> {
        guard(|| {
            let suits = variant.map(suits_from).transpose()?;
            board::parse(text, suits)
                .map(PySpiderDeal::new)
                .map_err(|e| BoardTextError::new_err((e.message, e.line, e.token)))
        })
    }

    fn to_text(&self) -> String {
        board::format(&self.deal)
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.deal.suits.id()
    }

    #[getter]
    fn number(&self) -> Option<u64> {
        self.deal.number
    }

    /// Each column as (face-down card indexes, face-up card indexes), bottom first.
    #[getter]
    fn columns(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        self.deal
            .columns
            .iter()
            .map(|c| (indexes(&c.down), indexes(&c.up)))
            .collect()
    }

    /// The stock in dealing order (card indexes).
    #[getter]
    fn stock(&self) -> Vec<u8> {
        indexes(&self.deal.stock)
    }

    /// The suits (0-3, C D H S) of the runs taken off.
    #[getter]
    fn off(&self) -> Vec<u8> {
        self.deal.off.clone()
    }

    /// Every legal move here (every empty column included), as (kind, from, to, count):
    /// ("run", from, to, cards), ("deal", -1, -1, 10), ("off", column, -1, 13).
    fn legal_moves(&self) -> Vec<MoveTuple> {
        let mut moves = Vec::new();
        moves::generate(&self.state, false, &mut moves);
        moves.into_iter().map(move_tuple).collect()
    }

    fn is_legal(&self, kind: &str, from: i16, to: i16, count: u8) -> bool {
        core_move(kind, from, to, count).is_some_and(|m| moves::is_legal(&self.state, m))
    }

    /// The position after a legal move (no deal number; a card left alone face down turns
    /// up); ValueError if the move is not legal here.
    fn play(&self, kind: &str, from: i16, to: i16, count: u8) -> PyResult<PySpiderDeal> {
        guard(|| {
            let m = core_move(kind, from, to, count)
                .filter(|&m| moves::is_legal(&self.state, m))
                .ok_or_else(|| PyValueError::new_err("not a legal move here"))?;
            let mut state = self.state.clone();
            moves::apply(&mut state, m);
            // The state after the move is the new position's (its stock keeps the cards dealt
            // before `dealt`, which no rule reads).
            Ok(PySpiderDeal {
                deal: state.to_deal(),
                state,
            })
        })
    }

    fn is_won(&self) -> bool {
        self.state.is_won()
    }

    /// How many top cards of `column` may move as one (face up, one suit, descending).
    fn movable(&self, column: usize) -> usize {
        self.state.cols.get(column).map_or(0, |c| c.run_len())
    }
}

/// A move across the boundary: (kind: "run", "deal" or "off", from column or -1, to column or
/// -1, how many cards it moves).
pub(super) type MoveTuple = (&'static str, i16, i16, u8);

pub(super) fn move_tuple(m: SpiderMove) -> MoveTuple {
    match m {
        SpiderMove::Run { from, to, count } => ("run", from as i16, to as i16, count),
        SpiderMove::Deal => ("deal", -1, -1, COLUMNS as u8),
        SpiderMove::Off { column } => ("off", column as i16, -1, RUN as u8),
    }
}

/// The core move for a tuple, if its parts are in range (legality is checked apart).
fn core_move(kind: &str, from: i16, to: i16, count: u8) -> Option<SpiderMove> {
    let column = |c: i16| u8::try_from(c).ok().filter(|&c| (c as usize) < COLUMNS);
    match kind {
        "run" => Some(SpiderMove::Run {
            from: column(from)?,
            to: column(to)?,
            count,
        }),
        "deal" => Some(SpiderMove::Deal),
        "off" => Some(SpiderMove::Off {
            column: column(from)?,
        }),
        _ => None,
    }
}

#[pyfunction]
pub fn spider_variants() -> Vec<&'static str> {
    Suits::ALL.iter().map(|v| v.id()).collect()
}

/// A solved move across the boundary: (kind, from column or -1, to column or -1, the card
/// indexes it carries).
type CarriedTuple = (&'static str, i16, i16, Vec<u8>);

/// Solves a Spider deal with the GIL released, like `solve`: with its deck's portfolio, or
/// with one beam of `beam_width` (then the complete search).
#[pyfunction]
#[pyo3(signature = (
    deal, max_states, max_seconds, max_memory, beam_width=None, progress=None,
    progress_seconds=1.0, max_cpu_seconds=None
))]
#[allow(clippy::too_many_arguments)]
pub fn solve_spider(
    py: Python<'_>,
    deal: &PySpiderDeal,
    max_states: Option<u64>,
    max_seconds: Option<f64>,
    max_memory: usize,
    beam_width: Option<usize>,
    progress: Option<Py<PyAny>>,
    progress_seconds: f64,
    max_cpu_seconds: Option<f64>,
) -> PyResult<Answer<CarriedTuple>> {
    let limits = check_limits(max_states, max_seconds, max_cpu_seconds, max_memory)?;
    let progress = progress_every(progress, progress_seconds)?;
    let one_beam;
    let steps = match beam_width {
        None => search::portfolio(deal.deal.suits),
        Some(width) => {
            one_beam = [Step::one_beam(width).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "beam_width must be 1 to {MAX_BEAM_WIDTH}, not {width}"
                ))
            })?];
            &one_beam[..]
        }
    };
    let outcome = detached(py, progress, |interrupted| {
        search::solve_with(&deal.deal, &limits, steps, interrupted)
    })?;
    Ok(answer(outcome, |moves| {
        moves::with_cards(&deal.deal, &moves)
            .into_iter()
            .map(|(m, cards)| {
                let (kind, from, to, _) = move_tuple(m);
                (kind, from, to, indexes(&cards))
            })
            .collect()
    }))
}
