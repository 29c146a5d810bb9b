//! What the games' position classes (`Deal`, `SpiderDeal`, `CellsDeal`) share across the
//! boundary: made from a deal number or a board text, written as text, their variant and
//! number, their legal moves, a move's legality, the position after a move, whether it is won.
//! Each game says what is its own through [`Position`]; [`position_class!`] writes the class.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{out_of_range, BoardTextError};
use crate::board_text::BoardError;
use crate::random::MAX_NUMBER;

/// A game's position as its class across the boundary holds it: the deal (as board text
/// writes it) with the core's state of it.
pub(super) trait Position: Sized {
    type Variant: Copy;
    type State: Clone;
    type Move: Copy;
    /// A move across the boundary.
    type MoveTuple;

    /// The variant `id` names, or ValueError.
    fn variant(id: &str) -> PyResult<Self::Variant>;
    /// The largest deal number of `variant`.
    fn max_number(_variant: Self::Variant) -> u64 {
        MAX_NUMBER
    }
    fn from_number(variant: Self::Variant, number: u64) -> Option<Self>;
    fn parse(text: &str, variant: Option<Self::Variant>) -> Result<Self, BoardError>;
    fn format(&self) -> String;
    fn variant_id(&self) -> &'static str;
    fn number(&self) -> Option<u64>;
    fn state(&self) -> Self::State;
    fn legal(state: &Self::State, out: &mut Vec<Self::Move>);
    fn is_legal(state: &Self::State, m: Self::Move) -> bool;
    /// The position after the legal move `m` from `state` (this position's), with its state.
    fn after(&self, state: &Self::State, m: Self::Move) -> (Self, Self::State);
    fn is_won(state: &Self::State) -> bool;
    fn move_tuple(m: Self::Move) -> Self::MoveTuple;
}

/// The variant of id `id`, found by `from_id`, or ValueError naming the known ones (`ids`;
/// `what` they are: "variant", "Spider variant").
pub(super) fn variant_from<V>(
    what: &str,
    id: &str,
    from_id: impl Fn(&str) -> Option<V>,
    ids: impl Iterator<Item = &'static str>,
) -> PyResult<V> {
    from_id(id).ok_or_else(|| {
        let known: Vec<&str> = ids.collect();
        PyValueError::new_err(format!(
            "unknown {what} {id:?} (known: {})",
            known.join(", ")
        ))
    })
}

pub(super) fn from_number<P: Position>(variant: &str, number: u64) -> PyResult<P> {
    let variant = P::variant(variant)?;
    let max = P::max_number(variant);
    P::from_number(variant, number).ok_or_else(|| out_of_range(number, max))
}

pub(super) fn from_text<P: Position>(text: &str, variant: Option<&str>) -> PyResult<P> {
    let variant = variant.map(P::variant).transpose()?;
    P::parse(text, variant).map_err(|e| BoardTextError::new_err((e.message, e.line, e.token)))
}

pub(super) fn legal_moves<P: Position>(state: &P::State) -> Vec<P::MoveTuple> {
    let mut moves = Vec::new();
    P::legal(state, &mut moves);
    moves.into_iter().map(P::move_tuple).collect()
}

/// The position after `m` from `deal` (of state `state`), if it is a move (its parts in range)
/// and legal here; else ValueError.
pub(super) fn play<P: Position>(
    deal: &P,
    state: &P::State,
    m: Option<P::Move>,
) -> PyResult<(P, P::State)> {
    let m = m
        .filter(|&m| P::is_legal(state, m))
        .ok_or_else(|| PyValueError::new_err("not a legal move here"))?;
    Ok(deal.after(state, m))
}

/// The position class `$class` (Python's `$name`) holding a `$deal` (a [`Position`]) and its
/// state: the methods both games' classes have, and the class's own (`$own`, written as in a
/// `#[pymethods]` block). A move across the boundary is the arguments `$arg` of `is_legal` and
/// `play`, which `$core_move` turns into the core's move if its parts are in range; the doc
/// comments of `legal_moves` and `play` are the game's (`$legal_doc`, `$play_doc`).
macro_rules! position_class {
    (
        $(#[$doc:meta])*
        $class:ident ($name:literal) holds $deal:ty;
        move ($($arg:ident: $ty:ty),*) by $core_move:path;
        $(#[$legal_doc:meta])* legal_moves;
        $(#[$play_doc:meta])* play;
        { $($own:tt)* }
    ) => {
        $(#[$doc])*
        #[pyclass(module = "castle._core", name = $name, frozen)]
        pub struct $class {
            deal: $deal,
            state: <$deal as $crate::python::position::Position>::State,
        }

        impl $class {
            fn new(deal: $deal) -> $class {
                $class {
                    state: $crate::python::position::Position::state(&deal),
                    deal,
                }
            }
        }

        #[pymethods]
        impl $class {
            #[staticmethod]
            fn from_number(variant: &str, number: u64) -> PyResult<$class> {
                $crate::python::guard(|| {
                    $crate::python::position::from_number(variant, number).map($class::new)
                })
            }

            #[staticmethod]
            #[pyo3(signature = (text, variant=None))]
            fn from_text(text: &str, variant: Option<&str>) -> PyResult<$class> {
                $crate::python::guard(|| {
                    $crate::python::position::from_text(text, variant).map($class::new)
                })
            }

            fn to_text(&self) -> String {
                $crate::python::position::Position::format(&self.deal)
            }

            #[getter]
            fn variant(&self) -> &'static str {
                $crate::python::position::Position::variant_id(&self.deal)
            }

            #[getter]
            fn number(&self) -> Option<u64> {
                $crate::python::position::Position::number(&self.deal)
            }

            $(#[$legal_doc])*
            fn legal_moves(
                &self,
            ) -> Vec<<$deal as $crate::python::position::Position>::MoveTuple> {
                $crate::python::position::legal_moves::<$deal>(&self.state)
            }

            fn is_legal(&self, $($arg: $ty),*) -> bool {
                $core_move($($arg),*).is_some_and(|m| {
                    <$deal as $crate::python::position::Position>::is_legal(&self.state, m)
                })
            }

            $(#[$play_doc])*
            fn play(&self, $($arg: $ty),*) -> PyResult<$class> {
                $crate::python::guard(|| {
                    let m = $core_move($($arg),*);
                    let (deal, state) =
                        $crate::python::position::play(&self.deal, &self.state, m)?;
                    Ok($class { deal, state })
                })
            }

            fn is_won(&self) -> bool {
                <$deal as $crate::python::position::Position>::is_won(&self.state)
            }

            $($own)*
        }
    };
}

pub(super) use position_class;
