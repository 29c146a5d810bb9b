//! `castle._core`: the Python binding. Thin wrappers only: no rule of the game lives here.
//! `python/castle/_core.pyi` documents this boundary.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::cards::Card;
use crate::castle::board;
use crate::castle::deal::Deal as CoreDeal;
use crate::castle::moves::{self, Move, FOUNDATION};
use crate::castle::search as castle_search;
use crate::castle::state::State;
use crate::castle::variant::Variant;
use crate::random::MAX_NUMBER;
use crate::solver::{Limits, Stop};
use crate::spider::beam as spider_beam;
use crate::spider::board as spider_board;
use crate::spider::deal::{SpiderDeal, Suits, COLUMNS as SPIDER_COLUMNS};
use crate::spider::moves::{self as spider_moves, SpiderMove};
use crate::spider::search as spider_search;
use crate::spider::state::SpiderState;

create_exception!(
    _core,
    BoardTextError,
    PyValueError,
    "Board text refused: args are (message, line, token)."
);
create_exception!(
    _core,
    InternalError,
    PyRuntimeError,
    "A bug in the castle core (a caught Rust panic)."
);

/// Runs core code, turning a panic into `InternalError` instead of letting it cross into Python.
fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        Err(InternalError::new_err(format!("castle core bug: {what}")))
    })
}

fn variant_from(id: &str) -> PyResult<Variant> {
    Variant::from_id(id).ok_or_else(|| {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
        PyValueError::new_err(format!(
            "unknown variant {id:?} (known: {})",
            known.join(", ")
        ))
    })
}

/// A layout of one of the castle games.
#[pyclass(module = "castle._core", name = "Deal", frozen)]
pub struct PyDeal {
    deal: CoreDeal,
}

#[pymethods]
impl PyDeal {
    #[staticmethod]
    fn from_number(variant: &str, number: u64) -> PyResult<PyDeal> {
        guard(|| {
            let variant = variant_from(variant)?;
            let deal = CoreDeal::from_number(variant, number).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "deal number {number} is out of range (1 to {MAX_NUMBER})"
                ))
            })?;
            Ok(PyDeal { deal })
        })
    }

    #[staticmethod]
    #[pyo3(signature = (text, variant=None))]
    fn from_text(text: &str, variant: Option<&str>) -> PyResult<PyDeal> {
        guard(|| {
            let variant = variant.map(variant_from).transpose()?;
            board::parse(text, variant)
                .map(|deal| PyDeal { deal })
                .map_err(|e| BoardTextError::new_err((e.message, e.line, e.token)))
        })
    }

    fn to_text(&self) -> String {
        board::format(&self.deal)
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.deal.variant.id()
    }

    #[getter]
    fn number(&self) -> Option<u64> {
        self.deal.number
    }

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

    /// Every legal single-card move here, every empty column included (docs/rules.md §1).
    fn legal_moves(&self) -> Vec<CoreMoveTuple> {
        let mut moves = Vec::new();
        moves::all_legal(&State::from_deal(&self.deal), &mut moves);
        moves.into_iter().map(move_tuple).collect()
    }

    fn is_legal(&self, card: u8, from: u8, to: i16) -> bool {
        let state = State::from_deal(&self.deal);
        core_move(card, from, to).is_some_and(|m| moves::is_legal(&state, m))
    }

    /// The position after a legal move (a position has no deal number); ValueError if the
    /// move is not legal here.
    fn play(&self, card: u8, from: u8, to: i16) -> PyResult<PyDeal> {
        guard(|| {
            let mut state = State::from_deal(&self.deal);
            let m = core_move(card, from, to)
                .filter(|&m| moves::is_legal(&state, m))
                .ok_or_else(|| PyValueError::new_err("not a legal move here"))?;
            moves::apply(&mut state, m);
            Ok(PyDeal {
                deal: CoreDeal {
                    variant: self.deal.variant,
                    number: None,
                    columns: state.columns(),
                    foundations: state.foundations,
                },
            })
        })
    }

    /// Whether the top card `card` may go up now and can never be needed in the tableau
    /// (the solver's automatic-move rule).
    fn is_safe_to_foundation(&self, card: u8) -> bool {
        let state = State::from_deal(&self.deal);
        let Some(card) = card.checked_add(1).and_then(Card::from_id) else {
            return false;
        };
        let on_top = (0..state.ncols()).any(|c| state.top(c) == Some(card));
        on_top && moves::is_safe_to_foundation(&state, card)
    }

    /// The foundation moves that finish the game, if lifting cards alone wins from here.
    fn lift_to_win(&self) -> Option<Vec<CoreMoveTuple>> {
        moves::lift_to_win(&State::from_deal(&self.deal))
            .map(|lifted| lifted.into_iter().map(move_tuple).collect())
    }

    fn is_won(&self) -> bool {
        self.deal.columns.iter().all(Vec::is_empty)
    }
}

/// A move across the boundary: (card index, from column, to column or -1 for the foundation).
type CoreMoveTuple = (u8, u8, i16);

fn move_tuple(m: Move) -> CoreMoveTuple {
    let to = if m.to == FOUNDATION { -1 } else { m.to as i16 };
    (m.card.index() as u8, m.from, to)
}

/// The core move for a tuple, if its parts are in range (legality is checked apart).
fn core_move(card: u8, from: u8, to: i16) -> Option<Move> {
    let card = Card::from_id(card.checked_add(1)?)?;
    let to = match to {
        -1 => FOUNDATION,
        0..=7 => to as u8,
        _ => return None,
    };
    Some(Move { card, from, to })
}

/// Parses one card token; `None` if it is not a card.
#[pyfunction]
fn parse_card(token: &str) -> Option<u8> {
    Card::parse(token).map(|c| c.index() as u8)
}

#[pyfunction]
fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.id()).collect()
}

#[pyfunction]
fn spider_variants() -> Vec<&'static str> {
    Suits::ALL.iter().map(|v| v.id()).collect()
}

/// The limits, or ValueError for ones that make no sense (Python checks them first too).
fn check_limits(
    max_states: Option<u64>,
    max_seconds: Option<f64>,
    max_memory: usize,
) -> PyResult<Limits> {
    if max_states == Some(0) {
        return Err(PyValueError::new_err("max_states must be at least 1"));
    }
    if max_seconds.is_some_and(|s| !(s > 0.0 && s.is_finite())) {
        return Err(PyValueError::new_err(
            "max_seconds must be a positive number",
        ));
    }
    Ok(Limits {
        max_states,
        max_seconds,
        max_memory,
    })
}

type SolveResult = (
    &'static str,
    Vec<CoreMoveTuple>,
    u64,
    f64,
    Option<&'static str>,
);

/// Solves a deal with the GIL released (with `short`, then hunts for a shorter win). Returns (status, moves, states, seconds, limit), each
/// move (card index, from column, to column or -1 for the foundation). Ctrl+C raises
/// KeyboardInterrupt within about 50 ms.
#[pyfunction]
#[pyo3(signature = (deal, max_states, max_seconds, max_memory, short=false))]
fn solve(
    py: Python<'_>,
    deal: &PyDeal,
    max_states: Option<u64>,
    max_seconds: Option<f64>,
    max_memory: usize,
    short: bool,
) -> PyResult<SolveResult> {
    let limits = check_limits(max_states, max_seconds, max_memory)?;
    let mut signal: Option<PyErr> = None;
    let outcome = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            castle_search::solve(&deal.deal, &limits, short, &mut || {
                Python::attach(|py| match py.check_signals() {
                    Ok(()) => false,
                    Err(e) => {
                        signal = Some(e);
                        true
                    }
                })
            })
        }))
    });
    if let Some(e) = signal {
        return Err(e);
    }
    let outcome =
        outcome.map_err(|_| InternalError::new_err("castle core bug: the solver panicked"))?;
    let moves = outcome.moves.iter().copied().map(move_tuple).collect();
    Ok((
        outcome.status.as_str(),
        moves,
        outcome.states,
        outcome.seconds,
        outcome.limit.map(Stop::as_str),
    ))
}

/// A Spider position: the columns (face-down and face-up cards), the stock, the runs off.
#[pyclass(module = "castle._core", name = "SpiderDeal", frozen)]
pub struct PySpiderDeal {
    deal: SpiderDeal,
}

fn suits_from(id: &str) -> PyResult<Suits> {
    Suits::from_id(id).ok_or_else(|| {
        let known: Vec<&str> = Suits::ALL.iter().map(|v| v.id()).collect();
        PyValueError::new_err(format!(
            "unknown Spider variant {id:?} (known: {})",
            known.join(", ")
        ))
    })
}

#[pymethods]
impl PySpiderDeal {
    #[staticmethod]
    fn from_number(variant: &str, number: u64) -> PyResult<PySpiderDeal> {
        guard(|| {
            let deal = SpiderDeal::from_number(suits_from(variant)?, number).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "deal number {number} is out of range (1 to {MAX_NUMBER})"
                ))
            })?;
            Ok(PySpiderDeal { deal })
        })
    }

    #[staticmethod]
    #[pyo3(signature = (text, variant=None))]
    fn from_text(text: &str, variant: Option<&str>) -> PyResult<PySpiderDeal> {
        guard(|| {
            let suits = variant.map(suits_from).transpose()?;
            spider_board::parse(text, suits)
                .map(|deal| PySpiderDeal { deal })
                .map_err(|e| BoardTextError::new_err((e.message, e.line, e.token)))
        })
    }

    fn to_text(&self) -> String {
        spider_board::format(&self.deal)
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
        let indexes = |cards: &[Card]| cards.iter().map(|c| c.index() as u8).collect();
        self.deal
            .columns
            .iter()
            .map(|c| (indexes(&c.down), indexes(&c.up)))
            .collect()
    }

    /// The stock in dealing order (card indexes).
    #[getter]
    fn stock(&self) -> Vec<u8> {
        self.deal.stock.iter().map(|c| c.index() as u8).collect()
    }

    /// The suits (0-3, C D H S) of the runs taken off.
    #[getter]
    fn off(&self) -> Vec<u8> {
        self.deal.off.clone()
    }

    /// Every legal move here (every empty column included), as (kind, from, to, count):
    /// ("run", from, to, cards), ("deal", -1, -1, 10), ("off", column, -1, 13).
    fn legal_moves(&self) -> Vec<(&'static str, i16, i16, u8)> {
        let mut moves = Vec::new();
        spider_moves::generate(&SpiderState::from_deal(&self.deal), false, &mut moves);
        moves.into_iter().map(spider_tuple).collect()
    }

    fn is_legal(&self, kind: &str, from: i16, to: i16, count: u8) -> bool {
        spider_move(kind, from, to, count)
            .is_some_and(|m| spider_moves::is_legal(&SpiderState::from_deal(&self.deal), m))
    }

    /// The position after a legal move (no deal number; a card left alone face down turns
    /// up); ValueError if the move is not legal here.
    fn play(&self, kind: &str, from: i16, to: i16, count: u8) -> PyResult<PySpiderDeal> {
        guard(|| {
            let mut state = SpiderState::from_deal(&self.deal);
            let m = spider_move(kind, from, to, count)
                .filter(|&m| spider_moves::is_legal(&state, m))
                .ok_or_else(|| PyValueError::new_err("not a legal move here"))?;
            spider_moves::apply(&mut state, m);
            Ok(PySpiderDeal {
                deal: state.to_deal(),
            })
        })
    }

    fn is_won(&self) -> bool {
        SpiderState::from_deal(&self.deal).is_won()
    }

    /// How many top cards of `column` may move as one (face up, one suit, descending).
    fn movable(&self, column: usize) -> usize {
        SpiderState::from_deal(&self.deal)
            .cols
            .get(column)
            .map_or(0, |c| c.run_len())
    }
}

fn spider_tuple(m: SpiderMove) -> (&'static str, i16, i16, u8) {
    match m {
        SpiderMove::Run { from, to, count } => ("run", from as i16, to as i16, count),
        SpiderMove::Deal => ("deal", -1, -1, 10),
        SpiderMove::Off { column } => ("off", column as i16, -1, 13),
    }
}

/// The core move for a tuple, if its parts are in range (legality is checked apart).
fn spider_move(kind: &str, from: i16, to: i16, count: u8) -> Option<SpiderMove> {
    let column = |c: i16| {
        u8::try_from(c)
            .ok()
            .filter(|&c| (c as usize) < SPIDER_COLUMNS)
    };
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

/// A Spider move across the boundary: (kind: "run", "deal" or "off", from column or -1, to
/// column or -1, the card indexes it moves).
type SpiderMoveTuple = (&'static str, i16, i16, Vec<u8>);

type SpiderSolveResult = (
    &'static str,
    Vec<SpiderMoveTuple>,
    u64,
    f64,
    Option<&'static str>,
);

/// The widest beam `solve_spider` accepts (a layer of a million positions is about 1 GB).
const MAX_BEAM_WIDTH: usize = 1_000_000;

/// Solves a Spider deal with the GIL released, like `solve`.
#[pyfunction]
#[pyo3(signature = (deal, max_states, max_seconds, max_memory, beam_width=None))]
fn solve_spider(
    py: Python<'_>,
    deal: &PySpiderDeal,
    max_states: Option<u64>,
    max_seconds: Option<f64>,
    max_memory: usize,
    beam_width: Option<usize>,
) -> PyResult<SpiderSolveResult> {
    let limits = check_limits(max_states, max_seconds, max_memory)?;
    // One beam of the caller's width (then the complete search), or the whole portfolio.
    let steps = match beam_width {
        None => spider_search::portfolio(deal.deal.suits).to_vec(),
        Some(width @ 1..=MAX_BEAM_WIDTH) => vec![spider_search::Step::Beam {
            width,
            weights: spider_beam::WEIGHTS,
            share: 1.0,
        }],
        Some(width) => {
            return Err(PyValueError::new_err(format!(
                "beam_width must be 1 to {MAX_BEAM_WIDTH}, not {width}"
            )))
        }
    };
    let mut signal: Option<PyErr> = None;
    let outcome = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            spider_search::solve_with(&deal.deal, &limits, &steps, &mut || {
                Python::attach(|py| match py.check_signals() {
                    Ok(()) => false,
                    Err(e) => {
                        signal = Some(e);
                        true
                    }
                })
            })
        }))
    });
    if let Some(e) = signal {
        return Err(e);
    }
    let outcome =
        outcome.map_err(|_| InternalError::new_err("castle core bug: the solver panicked"))?;
    // The cards each move carries, read off a replay.
    let mut state = SpiderState::from_deal(&deal.deal);
    let mut moves = Vec::new();
    for &m in &outcome.moves {
        let indexes = |cards: &[Card]| cards.iter().map(|c| c.index() as u8).collect();
        let tuple = match m {
            SpiderMove::Run { from, to, count } => {
                let cards = &state.cols[from as usize].cards;
                let run = indexes(&cards[cards.len() - count as usize..]);
                ("run", from as i16, to as i16, run)
            }
            SpiderMove::Deal => ("deal", -1, -1, indexes(&state.stock_left()[..10])),
            SpiderMove::Off { column } => {
                let cards = &state.cols[column as usize].cards;
                (
                    "off",
                    column as i16,
                    -1,
                    indexes(&cards[cards.len() - 13..]),
                )
            }
        };
        spider_moves::apply(&mut state, m);
        moves.push(tuple);
    }
    Ok((
        outcome.status.as_str(),
        moves,
        outcome.states,
        outcome.seconds,
        outcome.limit.map(Stop::as_str),
    ))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeal>()?;
    m.add_class::<PySpiderDeal>()?;
    m.add_function(wrap_pyfunction!(solve_spider, m)?)?;
    m.add_function(wrap_pyfunction!(spider_variants, m)?)?;
    m.add_function(wrap_pyfunction!(parse_card, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add("BoardTextError", m.py().get_type::<BoardTextError>())?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    m.add("MAX_DEAL_NUMBER", MAX_NUMBER)?;
    Ok(())
}
