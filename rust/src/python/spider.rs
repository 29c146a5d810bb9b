//! Spider across the boundary: `SpiderDeal` (a position), `solve_spider`, the decks.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::position::{self, position_class, Position};
use super::run::{answer, check_limits, detached, progress_every, Answer};
use crate::board_text::BoardError;
use crate::cards::Card;
use crate::spider::board;
use crate::spider::deal::{SpiderDeal, Suits, COLUMNS, RUN};
use crate::spider::fair::view::View;
use crate::spider::moves::{self, SpiderMove};
use crate::spider::search::{self, Step, MAX_BEAM_WIDTH};
use crate::spider::state::SpiderState;

fn suits_from(id: &str) -> PyResult<Suits> {
    let ids = Suits::ALL.iter().map(|v| v.id());
    position::variant_from("Spider variant", id, Suits::from_id, ids)
}

/// Card indexes (`13 * suit + rank - 1`).
fn indexes(cards: &[Card]) -> Vec<u8> {
    cards.iter().map(|c| c.index() as u8).collect()
}

impl Position for SpiderDeal {
    type Variant = Suits;
    type State = SpiderState;
    type Move = SpiderMove;
    type MoveTuple = MoveTuple;

    fn variant(id: &str) -> PyResult<Suits> {
        suits_from(id)
    }

    fn from_number(suits: Suits, number: u64) -> Option<SpiderDeal> {
        SpiderDeal::from_number(suits, number)
    }

    fn parse(text: &str, suits: Option<Suits>) -> Result<SpiderDeal, BoardError> {
        board::parse(text, suits)
    }

    fn format(&self) -> String {
        board::format(self)
    }

    fn variant_id(&self) -> &'static str {
        self.suits.id()
    }

    fn number(&self) -> Option<u64> {
        self.number
    }

    fn state(&self) -> SpiderState {
        SpiderState::from_deal(self)
    }

    fn legal(state: &SpiderState, out: &mut Vec<SpiderMove>) {
        moves::generate(state, false, out);
    }

    fn is_legal(state: &SpiderState, m: SpiderMove) -> bool {
        moves::is_legal(state, m)
    }

    fn after(&self, state: &SpiderState, m: SpiderMove) -> (SpiderDeal, SpiderState) {
        let mut state = state.clone();
        moves::apply(&mut state, m);
        // The state after the move is the new position's (its stock keeps the cards dealt
        // before `dealt`, which no rule reads).
        (state.to_deal(), state)
    }

    fn is_won(state: &SpiderState) -> bool {
        state.is_won()
    }

    fn move_tuple(m: SpiderMove) -> MoveTuple {
        move_tuple(m)
    }
}

position_class! {
    /// A Spider position: the columns (face-down and face-up cards), the stock, the runs off; with
    /// the core's state of it (built once, here, not on every call).
    PySpiderDeal ("SpiderDeal") holds SpiderDeal;
    move (kind: &str, from: i16, to: i16, count: u8) by core_move;
    /// Every legal move here (every empty column included), as (kind, from, to, count):
    /// ("run", from, to, cards), ("deal", -1, -1, 10), ("off", column, -1, 13).
    legal_moves;
    /// The position after a legal move (no deal number; a card left alone face down turns
    /// up); ValueError if the move is not legal here.
    play;
    {
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

        /// The position a player cannot tell from this one with `hidden` (card indexes) in the
        /// hidden places: the stock first, in dealing order, then each column's face-down
        /// cards, bottom first (the fair player's worlds are made so). ValueError unless
        /// `hidden` holds the hidden cards, in any order.
        fn with_hidden(&self, hidden: Vec<u8>) -> PyResult<PySpiderDeal> {
            let mut given = hidden.clone();
            let mut held = indexes(&self.deal.stock);
            for column in &self.deal.columns {
                held.extend(indexes(&column.down));
            }
            given.sort_unstable();
            held.sort_unstable();
            if given != held {
                return Err(PyValueError::new_err(
                    "hidden must be the position's face-down and stock cards, in any order",
                ));
            }
            let cards: Vec<Card> = hidden.iter().map(|&i| Card::from_index(i.into())).collect();
            let deal = View::of(&self.state).world(&cards).to_deal();
            let state = SpiderState::from_deal(&deal);
            Ok(PySpiderDeal { deal, state })
        }

        /// How many top cards of `column` may move as one (face up, one suit, descending).
        fn movable(&self, column: usize) -> usize {
            self.state.cols.get(column).map_or(0, |c| c.run_len())
        }
    }
}

impl PySpiderDeal {
    /// The core's state of the position.
    pub(super) fn state(&self) -> &SpiderState {
        &self.state
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
