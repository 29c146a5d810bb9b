//! The rules of the free-cell games (docs/rules.md §6) in one place: which single-card moves
//! are legal, making and taking them back, the moves the safe rule makes by itself, a run
//! moved as a unit (a supermove) as the single moves it stands for, and the replay check.

use super::deal::CellsDeal;
use super::state::{bits, CellsState};
use super::variant::{red, Build};
use crate::cards::{Card, KING};
/// Where a card is: a column, a cell, or its foundation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Column(u8),
    Cell(u8),
    Foundation,
}

/// One card moved from one place to another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellsMove {
    pub card: Card,
    pub from: Place,
    pub to: Place,
}

/// Whether `card` may go onto `target` in a column of `state`'s variant.
#[inline]
pub fn fits(state: &CellsState, card: Card, target: Card) -> bool {
    state.variant.build().fits(card, target)
}

const SUIT_IDS: [u8; 4] = [0, 1, 2, 3];

/// For each card, the columns whose top card it fits ([`fits`]), as a mask of columns: read
/// once for a position, so that the search looks up where a card may go instead of trying
/// each column.
pub struct Fits([u16; 64]);

impl Fits {
    pub fn of(state: &CellsState) -> Fits {
        let mut on = [0u16; 64];
        let build = state.variant.build();
        for (c, col) in state.cols.iter().enumerate() {
            let Some(&top) = col.last() else { continue };
            if top.rank() == 1 {
                continue;
            }
            // The card one rank lower of each suit that may go on it, by `fits`'s rule.
            let suits: &[u8] = match build {
                Build::Alternate if red(top) => &[0, 3],
                Build::Alternate => &[1, 2],
                Build::Suit => std::slice::from_ref(&SUIT_IDS[top.suit() as usize]),
                Build::Rank => &[0, 1, 2, 3],
            };
            for &suit in suits {
                let card = Card::new(top.rank() - 1, suit);
                debug_assert!(fits(state, card, top));
                on[card.id() as usize] |= 1 << c;
            }
        }
        Fits(on)
    }

    /// The columns whose top card `card` fits, as a mask.
    #[inline]
    pub fn mask(&self, card: Card) -> u16 {
        self.0[card.id() as usize]
    }

    /// The columns whose top card `card` fits, lowest first.
    #[inline]
    pub fn columns(&self, card: Card) -> impl Iterator<Item = usize> {
        bits(self.mask(card) as u64)
    }
}

/// Whether `card` may go onto column `to` (empty or not).
#[inline]
pub fn fits_column(state: &CellsState, card: Card, to: usize) -> bool {
    match state.cols[to].last() {
        Some(&top) => fits(state, card, top),
        None => !state.variant.kings_only() || card.rank() == KING,
    }
}

/// Whether `card` is next on its foundation.
#[inline]
pub fn goes_up(state: &CellsState, card: Card) -> bool {
    state.foundations[card.suit() as usize] + 1 == card.rank()
}

/// The card at `place`, if one may be taken from there (a column's top card, a cell's card).
pub fn card_at(state: &CellsState, place: Place) -> Option<Card> {
    match place {
        Place::Column(c) => state.cols.get(c as usize)?.last().copied(),
        Place::Cell(c) => *state.cells.get(c as usize)?,
        Place::Foundation => None,
    }
}

/// Whether `m` is legal in `state`: its card on top at `from`, and `to` taking it.
pub fn is_legal(state: &CellsState, m: CellsMove) -> bool {
    if m.from == m.to || card_at(state, m.from) != Some(m.card) {
        return false;
    }
    match m.to {
        Place::Foundation => goes_up(state, m.card),
        Place::Cell(c) => state.cells.get(c as usize) == Some(&None),
        Place::Column(c) => {
            (c as usize) < state.cols.len() && fits_column(state, m.card, c as usize)
        }
    }
}

/// Makes a legal move.
#[inline]
pub fn apply(state: &mut CellsState, m: CellsMove) {
    take(state, m.from);
    put(state, m.to, m.card);
}

/// Takes back `m`, the last move made.
#[inline]
pub fn undo(state: &mut CellsState, m: CellsMove) {
    take(state, m.to);
    put(state, m.from, m.card);
}

#[inline]
fn take(state: &mut CellsState, place: Place) {
    match place {
        Place::Column(c) => {
            state.cols[c as usize].pop();
        }
        Place::Cell(c) => state.cells[c as usize] = None,
        Place::Foundation => {}
    }
}

#[inline]
fn put(state: &mut CellsState, place: Place, card: Card) {
    match place {
        Place::Column(c) => state.cols[c as usize].push(card),
        Place::Cell(c) => state.cells[c as usize] = Some(card),
        // Taking a card back down from its foundation lowers it; putting one up raises it.
        Place::Foundation => {}
    }
    let top = &mut state.foundations[card.suit() as usize];
    if place == Place::Foundation {
        *top = card.rank();
    } else if *top >= card.rank() {
        *top = card.rank() - 1;
    }
}

/// Whether `card`, next on its foundation, can never be wanted in a column again: no card
/// that could go onto it is still out. Building down in alternating colours, the two of the
/// other colour one rank lower are up; by suit, always (only the card below it in its suit
/// could go onto it, and that one is up); by rank, the four one rank lower are up.
#[inline]
pub fn is_safe(state: &CellsState, card: Card) -> bool {
    let below = card.rank() - 1;
    let f = &state.foundations;
    match state.variant.build() {
        Build::Suit => true,
        Build::Rank => f.iter().all(|&top| top >= below),
        Build::Alternate => {
            let (a, b) = if red(card) { (0, 3) } else { (1, 2) };
            f[a] >= below && f[b] >= below
        }
    }
}

/// Plays every safe foundation move there is, again and again until none is left, each
/// pushed onto `out`: the moves the solver makes by itself. How many it made.
pub fn auto_moves(state: &mut CellsState, out: &mut Vec<CellsMove>) -> usize {
    let before = out.len();
    loop {
        let mut moved = false;
        for c in 0..state.cols.len() {
            while let Some(&card) = state.cols[c].last() {
                if !(goes_up(state, card) && is_safe(state, card)) {
                    break;
                }
                let m = CellsMove {
                    card,
                    from: Place::Column(c as u8),
                    to: Place::Foundation,
                };
                apply(state, m);
                out.push(m);
                moved = true;
            }
        }
        for c in 0..state.cells.len() {
            if let Some(card) = state.cells[c] {
                if goes_up(state, card) && is_safe(state, card) {
                    let m = CellsMove {
                        card,
                        from: Place::Cell(c as u8),
                        to: Place::Foundation,
                    };
                    apply(state, m);
                    out.push(m);
                    moved = true;
                }
            }
        }
        if !moved {
            return out.len() - before;
        }
    }
}

/// Every legal single-card move here, in a fixed order: from each column's top, then from
/// each cell; to the foundation, then to each column, then to each empty cell.
pub fn all_legal(state: &CellsState, out: &mut Vec<CellsMove>) {
    let froms = (0..state.cols.len())
        .map(|c| Place::Column(c as u8))
        .chain((0..state.cells.len()).map(|c| Place::Cell(c as u8)));
    let tos: Vec<Place> = std::iter::once(Place::Foundation)
        .chain((0..state.cols.len()).map(|c| Place::Column(c as u8)))
        .chain((0..state.cells.len()).map(|c| Place::Cell(c as u8)))
        .collect();
    for from in froms {
        let Some(card) = card_at(state, from) else {
            continue;
        };
        for &to in &tos {
            let m = CellsMove { card, from, to };
            if is_legal(state, m) {
                out.push(m);
            }
        }
    }
}

/// How many top cards of column `c` form a run (each on the card one rank higher that it
/// fits).
pub fn run_len(state: &CellsState, c: usize) -> usize {
    state.cols[c].run()
}

/// The top `count` cards of column `from` moved as a unit onto column `to` (a supermove), as
/// the single moves it stands for, through the empty cells and the empty columns: `None`
/// unless they are a run, fit `to`, and are no more than [`super::variant::Variant::max_run`]
/// allows.
pub fn run_moves(
    state: &CellsState,
    from: usize,
    count: usize,
    to: usize,
) -> Option<Vec<CellsMove>> {
    let (mut work, mut out) = (state.clone(), Vec::new());
    make_run(&mut work, from, count, to, &mut out).then_some(out)
}

/// [`run_moves`] made on `state`, each single move pushed onto `out`: `false` (and nothing
/// made) where `run_moves` says `None`.
pub fn make_run(
    state: &mut CellsState,
    from: usize,
    count: usize,
    to: usize,
    out: &mut Vec<CellsMove>,
) -> bool {
    let n = state.cols.len();
    if from >= n || to >= n || from == to || count == 0 || count > run_len(state, from) {
        return false;
    }
    let col = &state.cols[from];
    if !fits_column(state, col[col.len() - count], to) {
        return false;
    }
    let (mut empties, mut spaces) = ([0usize; 16], 0);
    for c in (0..n).filter(|&c| c != to && state.cols[c].is_empty()) {
        empties[spaces] = c;
        spaces += 1;
    }
    if count > state.variant.max_run(state.free_cells(), spaces) {
        return false;
    }
    if state.variant.kings_only() {
        spaces = 0;
    }
    let before = state.cols[to].len();
    move_run(state, from, count, to, &empties[..spaces], out);
    debug_assert_eq!(state.cols[to].len(), before + count);
    true
}

/// The single moves `m` stands for, if it is legal here: itself, if it is a single-card move;
/// if its card lies under others in a column and it goes to another column, the run from it
/// to the top moved as a unit ([`run_moves`]).
pub fn single_moves(state: &CellsState, m: CellsMove) -> Option<Vec<CellsMove>> {
    if is_legal(state, m) {
        return Some(vec![m]);
    }
    let (Place::Column(from), Place::Column(to)) = (m.from, m.to) else {
        return None;
    };
    let col = state.cols.get(from as usize)?;
    let at = col.iter().position(|&c| c == m.card)?;
    run_moves(state, from as usize, col.len() - at, to as usize)
}

/// Moves `count` top cards of `from` onto `to` through the empty cells and `empties`, each
/// single move made on `state` and pushed onto `out`: half the run to an empty column (through
/// the others), the rest to `to`, then the half onto it.
fn move_run(
    state: &mut CellsState,
    from: usize,
    count: usize,
    to: usize,
    empties: &[usize],
    out: &mut Vec<CellsMove>,
) {
    let mut play = |state: &mut CellsState, m: CellsMove| {
        debug_assert!(is_legal(state, m), "{m:?}");
        apply(state, m);
        out.push(m);
    };
    if count <= state.free_cells() + 1 {
        let mut parked = Vec::new();
        for _ in 1..count {
            let cell = state.cells.iter().position(Option::is_none).unwrap();
            let card = *state.cols[from].last().unwrap();
            play(
                state,
                CellsMove {
                    card,
                    from: Place::Column(from as u8),
                    to: Place::Cell(cell as u8),
                },
            );
            parked.push((cell, card));
        }
        let card = *state.cols[from].last().unwrap();
        play(
            state,
            CellsMove {
                card,
                from: Place::Column(from as u8),
                to: Place::Column(to as u8),
            },
        );
        for (cell, card) in parked.into_iter().rev() {
            play(
                state,
                CellsMove {
                    card,
                    from: Place::Cell(cell as u8),
                    to: Place::Column(to as u8),
                },
            );
        }
        return;
    }
    let (&spare, rest) = empties
        .split_first()
        .expect("a run no longer than the room");
    let half = (state.free_cells() + 1) << rest.len();
    let half = half.min(count - 1);
    let mut sub = Vec::new();
    move_run(state, from, half, spare, rest, &mut sub);
    move_run(state, from, count - half, to, rest, &mut sub);
    move_run(state, spare, half, to, rest, &mut sub);
    out.extend(sub);
}

/// Whether `moves` are legal one after another from `deal` and end with every card up.
pub fn replays_to_win(deal: &CellsDeal, moves: &[CellsMove]) -> bool {
    let mut state = CellsState::from_deal(deal);
    for &m in moves {
        if !is_legal(&state, m) {
            return false;
        }
        apply(&mut state, m);
    }
    state.is_won()
}

#[cfg(test)]
mod tests {
    use super::super::board;
    use super::super::steps::generate;
    use super::super::variant::Variant;
    use super::*;

    fn position(text: &str, variant: Variant) -> CellsState {
        CellsState::from_deal(&board::parse(text, Some(variant)).unwrap())
    }

    fn card(token: &str) -> Card {
        Card::parse(token).unwrap()
    }

    /// Every legal move, found by asking [`is_legal`] of every move there could be.
    fn every_legal_move(state: &CellsState) -> Vec<CellsMove> {
        let places: Vec<Place> = (0..state.cols.len() as u8)
            .map(Place::Column)
            .chain((0..state.cells.len() as u8).map(Place::Cell))
            .chain(std::iter::once(Place::Foundation))
            .collect();
        let mut all = Vec::new();
        for &from in &places {
            for &to in &places {
                if let Some(card) = card_at(state, from) {
                    all.push(CellsMove { card, from, to });
                }
            }
        }
        all.retain(|&m| is_legal(state, m));
        all
    }

    /// Along plays of every variant: `all_legal` is every legal move, `generate` reaches the
    /// positions they reach (the cell-to-cell moves aside, and those that change nothing but
    /// the order of the columns), and each move taken back restores the position.
    #[test]
    fn generated_moves_are_the_legal_ones() {
        for v in Variant::ALL {
            let deal = CellsDeal::from_number(v, 17).unwrap();
            let mut state = CellsState::from_deal(&deal);
            for step in 0..300 {
                let mut legal = Vec::new();
                all_legal(&state, &mut legal);
                let mut want = every_legal_move(&state);
                legal.sort();
                want.sort();
                assert_eq!(legal, want, "{v:?} step {step}");
                let mut searched = Vec::new();
                generate(&state, &Fits::of(&state), &mut searched);
                let keys = |ms: &[CellsMove]| {
                    let mut s = state.clone();
                    let mut keys: Vec<_> = ms
                        .iter()
                        .map(|&m| {
                            apply(&mut s, m);
                            let k = s.key();
                            undo(&mut s, m);
                            k
                        })
                        .collect();
                    // A move to a position of the same key as this one is none.
                    keys.retain(|k| *k != state.key());
                    keys.sort();
                    keys.dedup();
                    keys
                };
                assert!(searched.iter().all(|&m| is_legal(&state, m)));
                let no_cell_to_cell: Vec<CellsMove> = legal
                    .iter()
                    .copied()
                    .filter(|m| !matches!((m.from, m.to), (Place::Cell(_), Place::Cell(_))))
                    .collect();
                assert_eq!(
                    keys(&searched),
                    keys(&no_cell_to_cell),
                    "{v:?} step {step}: {searched:?} {no_cell_to_cell:?}\n{}",
                    super::super::board::format(&state.to_deal())
                );
                if legal.is_empty() {
                    break;
                }
                let m = legal[(step * 7) % legal.len()];
                let before = state.clone();
                apply(&mut state, m);
                let mut back = state.clone();
                undo(&mut back, m);
                assert_eq!(back, before);
            }
        }
    }

    #[test]
    fn columns_build_as_their_variant_says() {
        let text = "Foundations: H-0 C-0 D-0 S-0\n: 9S 8H\n: 9H 8C\n: 8S 7C\n:\n\
            : AH 2H 3H 4H 5H 6H 7H TH JH QH KH AS 2S 3S 4S 5S 6S 7S TS JS QS KS\n\
            : AC 2C 3C 4C 5C 6C 9C TC JC QC KC\n\
            : AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD\n:\n";
        let fc = position(text, Variant::FreeCell);
        let to = |from: u8, to: u8, c: &str| CellsMove {
            card: card(c),
            from: Place::Column(from),
            to: Place::Column(to),
        };
        assert!(is_legal(&fc, to(2, 0, "7C")) && !is_legal(&fc, to(2, 1, "7C")));
        let bakers = position(text, Variant::BakersGame);
        assert!(!is_legal(&bakers, to(2, 0, "7C")) && is_legal(&bakers, to(2, 1, "7C")));
        let stronghold_text = text.replacen("Foundations", "Freecells: -\nFoundations", 1);
        let sh = position(&stronghold_text, Variant::Stronghold);
        assert!(is_legal(&sh, to(2, 0, "7C")) && is_legal(&sh, to(2, 1, "7C")));
        // Any card to an empty column in FreeCell, a king only in Eight Off.
        assert!(is_legal(&fc, to(2, 3, "7C")));
        let eight = position(text, Variant::EightOff);
        assert!(!is_legal(&eight, to(2, 3, "7C")) && is_legal(&eight, to(4, 3, "KS")));
        assert_eq!(run_len(&fc, 0), 2);
        assert_eq!(run_len(&bakers, 0), 1);
    }

    #[test]
    fn the_safe_rule_puts_up_only_cards_nothing_could_go_on() {
        let text = "Foundations: H-2 C-A D-3 S-3\nFreecells: 3H - - -\n\
            : 2C 4D\n: 4S 3C\n: 5D\n: KS QS JS TS 9S 8S 7S 6S 5S\n\
            : KC QC JC TC 9C 8C 7C 6C 5C 4C 4H\n: KD QD JD TD 9D 8D 7D 6D\n\
            : KH QH JH TH 9H 8H 7H 6H 5H\n:\n";
        let mut fc = position(text, Variant::FreeCell);
        let mut made = Vec::new();
        auto_moves(&mut fc, &mut made);
        // 3H and 4D may go up, but black twos and threes are still out to go on them.
        assert!(made.is_empty(), "{made:?}");
        assert!(goes_up(&fc, card("3H")) && !is_safe(&fc, card("3H")));
        fc.foundations = [2, 3, 2, 2];
        assert!(is_safe(&fc, card("3H")) && !is_safe(&fc, card("4D")));
        // Building by suit, every card that may go up is safe: here all of them, in turn.
        let mut bakers = position(text, Variant::BakersGame);
        auto_moves(&mut bakers, &mut made);
        assert!(bakers.is_won());
        assert_eq!(made.len(), 52 - 9);
        let mut sh = position(&text.replacen("3H - - -", "3H", 1), Variant::Stronghold);
        made.clear();
        auto_moves(&mut sh, &mut made);
        // By rank: 3H waits for 2C.
        assert!(made.is_empty());
    }

    /// A supermove's single moves go through the cells and the empty columns, each legal, and
    /// leave the run on its target as a unit; one card too many is refused.
    #[test]
    fn a_run_moves_as_the_single_moves_it_stands_for() {
        let text = "Freecells: 2D - - AH\n: KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H\n: KC\n:\n:\n\
            : QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\n\
            : KD QD JD TD 9D 8D 7D 6D 5D 4D 3D AD\n\
            : KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S AS\n:\n";
        let state = position(text, Variant::FreeCell);
        // 2 free cells, 3 empty columns besides the target's: (2 + 1) * 2^3 = 24.
        let moves = run_moves(&state, 0, 11, 1).unwrap();
        let mut after = state.clone();
        for &m in &moves {
            assert!(is_legal(&after, m), "{m:?}");
            apply(&mut after, m);
        }
        assert_eq!(after.cols[1].len(), 12);
        assert_eq!(*after.cols[0], [card("KS")]);
        assert!(run_moves(&state, 0, 12, 1).is_none()); // KS does not go on KC
        let mut tight = state.clone();
        tight.cells[0] = None;
        tight.cols[2].push(card("2D"));
        let ace = tight.cols[6].pop().unwrap();
        tight.cols[3].push(ace);
        // 3 free cells, no empty column besides the target: at most 4.
        assert!(run_moves(&tight, 0, 5, 7).is_none());
        assert_eq!(run_moves(&tight, 0, 4, 7).map(|m| m.len()), Some(7));
        let cells = text.replacen("2D - - AH", "2D - - AH - - - -", 1);
        let eight = position(&cells, Variant::EightOff);
        assert!(run_moves(&eight, 0, 11, 1).is_none()); // not one suit
    }
}
