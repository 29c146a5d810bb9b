//! Move ordering: which move the search tries first. It decides how fast a win is found, never
//! whether one is: every generated move is still tried.

use crate::moves::{fits_foundation, fits_on, Move};
use crate::state::State;

fn need(state: &State, c: crate::cards::Card) -> u32 {
    (c.rank() - state.foundations[c.suit() as usize]) as u32
}

/// (min need in column below index `upto`, cards above that card up to `upto`)
fn min_need(state: &State, col: usize, upto: usize) -> (u32, u32) {
    let column = &state.column(col)[..upto];
    let mut best = (99, 0);
    for (i, &c) in column.iter().enumerate() {
        let n = need(state, c);
        if n <= best.0 {
            best = (n, (upto - 1 - i) as u32);
        }
    }
    best
}

pub fn priority(state: &State, m: Move) -> u32 {
    static V: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let v: u32 = *V.get_or_init(|| {
        std::env::var("CASTLE_ORDER")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0)
    });
    if m.to_foundation() {
        return 0;
    }
    let column = state.column(m.from as usize);
    let below = column.len().checked_sub(2).map(|i| column[i]);
    let target = state.top(m.to as usize);
    let same_suit = target.is_some_and(|t| t.suit() == m.card.suit());
    let distance = match below {
        Some(b) => (b.rank() - state.foundations[b.suit() as usize]) as u32,
        None => 0,
    };
    let class = match (below, target) {
        (None, _) => 1,
        (Some(b), _) if fits_foundation(state, b) => 1,
        (Some(b), Some(_)) if fits_on(m.card, b) => 4,
        (_, Some(_)) => 2,
        (_, None) => 3,
    };
    match v {
        0 => class * 64 + distance * 2 + u32::from(!same_suit),
        1 => {
            // source: how near the most needed card is; destination: do not bury needed cards
            let (sn, sd) = if column.len() > 1 {
                min_need(state, m.from as usize, column.len() - 1)
            } else {
                (0, 0)
            };
            let dn = if target.is_some() {
                min_need(state, m.to as usize, state.len(m.to as usize)).0
            } else {
                14
            };
            let bury = 14u32.saturating_sub(dn);
            class * 4096 + (sn * 8 + sd) * 16 + bury + u32::from(!same_suit)
        }
        2 => {
            let (sn, sd) = if column.len() > 1 {
                min_need(state, m.from as usize, column.len() - 1)
            } else {
                (0, 0)
            };
            class * 4096 + (sn + sd) * 32 + u32::from(!same_suit)
        }
        3 => {
            let (sn, sd) = if column.len() > 1 {
                min_need(state, m.from as usize, column.len() - 1)
            } else {
                (0, 0)
            };
            let dn = if target.is_some() {
                min_need(state, m.to as usize, state.len(m.to as usize)).0
            } else {
                14
            };
            let bury = 14u32.saturating_sub(dn);
            class * 4096 + (sn + sd) * 32 + bury * 2 + u32::from(!same_suit)
        }
        _ => {
            let (sn, sd) = if column.len() > 1 {
                min_need(state, m.from as usize, column.len() - 1)
            } else {
                (0, 0)
            };
            let c2 = match class {
                1 => 1,
                4 => 4,
                _ => 2,
            };
            let empty_pen = if target.is_none() { 4 } else { 0 };
            c2 * 4096 + (sn + sd + empty_pen) * 32 + u32::from(!same_suit)
        }
    }
}

/// Sorts `moves` into search order.
pub fn order_moves(state: &State, moves: &mut [Move]) {
    moves.sort_by_cached_key(|&m| priority(state, m));
}
