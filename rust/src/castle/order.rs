//! Move ordering: which move the search tries first. It decides how fast a win is found, never
//! whether one is: every generated move is still tried.

use super::moves::{fits_foundation, fits_on, Move, FOUNDATION};
use super::state::{State, MAX_COLUMNS};
use crate::cards::Card;

/// Most moves one position can have: per column, the foundation and the 7 other columns.
const MAX_MOVES: usize = MAX_COLUMNS * MAX_COLUMNS;

/// How many ranks `card` is from going up: 1 = it fits its foundation now.
#[inline]
fn need(state: &State, card: Card) -> u8 {
    card.rank() - state.foundations[card.suit() as usize]
}

/// [`need`] of each card, by id: worked out once per position, for the scans of every column
/// below.
fn needs(foundations: &[u8; 4]) -> [u8; 64] {
    const RANKS: [u8; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 0, 0];
    let mut needs = [0; 64];
    for suit in 0..4 {
        // Each suit's byte read alone: a wider load over bytes just stored stalls.
        let up = std::hint::black_box(foundations[suit]);
        // A suit's 13 at once (a card on its foundation wraps round; none is in the tableau).
        let suit_needs = RANKS.map(|rank| rank.wrapping_sub(up));
        needs[1 + 13 * suit..14 + 13 * suit].copy_from_slice(&suit_needs[..13]);
    }
    needs
}

/// What the ordering reads of each column: read once per position, or, for a position one
/// move from the last one read, only the move's two columns again ([`ColumnFacts::moved`]).
#[derive(Clone, PartialEq, Debug)]
pub struct ColumnFacts {
    /// The most needed card under the top card (need, cards between it and the top card);
    /// (0, 0) for a column of one card, which a move empties.
    under_top: [(u32, u32); MAX_COLUMNS],
    /// The need of the most needed card in the whole column (14 for an empty column).
    lowest_need: [u32; MAX_COLUMNS],
    /// Each column's top card (`Card::PLACEHOLDER` for an empty column).
    tops: [Card; MAX_COLUMNS],
    /// The columns by the rank of their top card, a bit each: the empty ones at 0.
    by_rank: [u16; 16],
    /// The ranks `by_rank` has a column at, a bit each (bit 0: some column is empty).
    ranks: u16,
    /// The columns of more than one card, and those whose top card fits its foundation.
    more: u16,
    up: u16,
    /// Each column's part of [`priority`] as the source of a move onto a card: the class by
    /// what its top card leaves, and its most needed card (into an empty column, class 1 stays
    /// 1 and the others are 3).
    onto_card: [u32; MAX_COLUMNS],
}

impl ColumnFacts {
    pub fn new(state: &State) -> ColumnFacts {
        let mut facts = ColumnFacts {
            under_top: [(0, 0); MAX_COLUMNS],
            lowest_need: [14; MAX_COLUMNS],
            tops: [Card::PLACEHOLDER; MAX_COLUMNS],
            by_rank: [0; 16],
            ranks: 0,
            more: 0,
            up: 0,
            onto_card: [0; MAX_COLUMNS],
        };
        let needs = needs(&state.foundations);
        let need = |card: Card| u32::from(needs[card.id() as usize]);
        for col in 0..state.ncols() {
            facts.read(state, col, need);
            facts.read_top(state, col);
        }
        facts
    }

    /// Column `col`'s top card, its bits and its part of the priority, read again (after its
    /// `under_top`; the foundations as they were when the other columns' were read).
    #[inline(always)]
    fn read_top(&mut self, state: &State, col: usize) {
        debug_assert!(col < MAX_COLUMNS);
        let col = col & (MAX_COLUMNS - 1);
        let bit = 1u16 << col;
        // (`Card::PLACEHOLDER`'s rank is 0: an empty column's.)
        let old = self.tops[col].rank() as usize & 15;
        self.by_rank[old] &= !bit;
        let column = state.column(col);
        let (top, below) = match column {
            [] => (Card::PLACEHOLDER, Card::PLACEHOLDER),
            [top] => (*top, Card::PLACEHOLDER),
            [.., below, top] => (*top, *below),
        };
        let new = top.rank() as usize & 15;
        self.by_rank[new] |= bit;
        let still = u16::from(self.by_rank[old] != 0);
        self.ranks = self.ranks & !(1 << old) | still << old | 1 << new;
        self.tops[col] = top;
        let more = column.len() > 1;
        self.more = self.more & !bit | u16::from(more) << col;
        // (No foundation takes the placeholder.)
        self.up = self.up & !bit | u16::from(fits_foundation(state, top)) << col;
        // `priority`'s class for a move onto a card (an empty column's says nothing).
        let class = if !more || fits_foundation(state, below) {
            1
        } else if fits_on(top, below) {
            4
        } else {
            2
        };
        let (source_need, source_depth) = self.under_top[col];
        self.onto_card[col] = class * 4096 + (source_need * 8 + source_depth) * 16;
    }

    /// The facts of `state` from those of the position `m` led to it from: a move onto a card
    /// or into an empty column, no automatic move after it (so the foundations, and every
    /// other column, are as they were). The two columns are not read again: each card keeps
    /// its need, and only its place relative to the top changes (one deeper in the column the
    /// card went onto, one less deep in the one it left). Only where the most needed card under
    /// the top was the card the move uncovered is that column read again.
    pub fn moved(&mut self, state: &State, m: Move) {
        debug_assert!(!m.to_foundation());
        let need = |card: Card| u32::from(need(state, card));
        let (from, to) = (m.from as usize, m.to as usize);
        match state.column(from).split_last() {
            None => {
                self.under_top[from] = (0, 0);
                self.lowest_need[from] = 14;
            }
            Some((&top, [])) => {
                self.under_top[from] = (0, 0);
                self.lowest_need[from] = need(top);
            }
            Some((&top, _)) => match self.under_top[from] {
                (best, depth) if depth > 0 => {
                    self.under_top[from] = (best, depth - 1);
                    self.lowest_need[from] = best.min(need(top));
                }
                _ => self.read(state, from, need),
            },
        }
        let column = state.column(to);
        let arrived = need(m.card);
        if let Some(onto) = column.len().checked_sub(2).map(|i| column[i]) {
            // The card it went onto at depth 0, the cards under that one deeper each: the order
            // among those, ties included, is as it was.
            let top = need(onto) << 8;
            let (best, depth) = self.under_top[to];
            let under = if column.len() == 2 {
                top
            } else {
                top.min(best << 8 | (depth + 1))
            };
            self.under_top[to] = (under >> 8, under & 0xff);
        }
        self.lowest_need[to] = self.lowest_need[to].min(arrived);
        self.read_top(state, from);
        self.read_top(state, to);
    }

    /// Column `col`'s facts, read again.
    #[inline]
    fn read(&mut self, state: &State, col: usize, need: impl Fn(Card) -> u32) {
        let (mut under_top, mut lowest) = ((0, 0), 14);
        if let Some((&top, under)) = state.column(col).split_last() {
            // One pass over the cards under the top; the whole column adds only the top.
            lowest = need(top);
            if let Some(last) = under.len().checked_sub(1) {
                // The most needed card, ties to the higher one (fewer cards on it): the least
                // of need and cards on it side by side, need first (no branch to mispredict).
                let best = under
                    .iter()
                    .enumerate()
                    .map(|(i, &card)| need(card) << 8 | (last - i) as u32)
                    .min()
                    .unwrap_or(0);
                under_top = (best >> 8, best & 0xff);
                lowest = lowest.min(best >> 8);
            }
        }
        self.under_top[col] = under_top;
        self.lowest_need[col] = lowest;
    }
}

/// Lower is tried first; ties keep generation order.
///
/// Classes, best first: 0 a foundation move; 1 a move that empties its column or uncovers a
/// card that can go up at once; 2 a move onto a card; 3 a move into an empty column (it spends
/// the one free place); 4 a card leaving a card one rank higher for another such card (it only
/// trades places). Within a class: first from the column whose most needed card is most needed
/// and nearest the top; then onto the column that buries the least needed cards; then onto a
/// card of the same suit (a run that can later go up whole).
pub fn priority(state: &State, facts: &ColumnFacts, m: Move) -> u32 {
    if m.to_foundation() {
        return 0;
    }
    let from = m.from as usize;
    let to = m.to as usize;
    let column = state.column(from);
    let below = column.len().checked_sub(2).map(|i| column[i]);
    let target = state.top(to);
    let class = match (below, target) {
        (None, _) => 1,
        (Some(b), _) if fits_foundation(state, b) => 1,
        (Some(b), Some(_)) if fits_on(m.card, b) => 4,
        (_, Some(_)) => 2,
        (_, None) => 3,
    };
    let (source_need, source_depth) = facts.under_top[from];
    let buried = 14 - facts.lowest_need[to];
    let other_suit = u32::from(target.is_none_or(|t| t.suit() != m.card.suit()));
    class * 4096 + (source_need * 8 + source_depth) * 16 + buried + other_suit
}

/// Sorts `moves` into search order by [`priority`] (a stable insertion sort: the lists are
/// short), with `state`'s facts read already: the rule as the reference's `order_moves` reads
/// it, which [`ordered_moves`] follows in one pass.
pub fn order_by(state: &State, facts: &ColumnFacts, moves: &mut [Move]) {
    debug_assert!(moves.len() <= MAX_MOVES);
    let mut keys = [0u32; MAX_MOVES];
    for i in 0..moves.len() {
        let (key, m) = (priority(state, facts, moves[i]), moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = m;
    }
}

/// [`generate`](super::moves::generate)'s moves but `except` (if given: a move onto a card or
/// into a column), in [`order_by`]'s order, appended to `out`: made and ordered in one pass,
/// from the position's facts alone (they hold its top cards and each column's part of the
/// priority as a source).
///
/// The moves are found from the top cards' ranks, not column by column: each rank `r` whose
/// cards and `r + 1`'s are both at tops gives the moves from the one to the other, so only the
/// columns with a move are looked at (most have none). Each move's key is its priority with
/// its place in generation order (its column, then 0 for its foundation or 1 + the column it
/// goes to) in its low bits, so the order they are found in does not matter: the sort on keys
/// alone gives [`order_by`]'s order (ties in generation order, as the stable sort keeps them),
/// and the move is read back from its place.
pub fn ordered_moves(facts: &ColumnFacts, except: Option<Move>, out: &mut Vec<Move>) {
    const PLACE: u32 = 7;
    // At most 4 moves to a foundation (one a suit), 16 onto cards (4 tops of a rank onto 4
    // of the next: the columns hold 8 tops in all) and, with a column empty (7 tops left,
    // 12 moves onto cards at most), 7 into it: 23.
    const MOST: usize = 32;
    let (tops, by_rank) = (&facts.tops, &facts.by_rank);
    let mut keys = [0u32; MOST];
    let mut count = 0;
    // Column bits read back as indices (below `MAX_COLUMNS`).
    let column = |bits: u16| bits.trailing_zeros() as usize & (MAX_COLUMNS - 1);
    // The move to leave out, as its key's place (none is 0xfff).
    let except = except.map_or(0xfff, |m| {
        debug_assert!((m.to as usize) < MAX_COLUMNS);
        (m.from as u32) << 4 | (1 + m.to as u32)
    });
    // Class 0, priority 0.
    let mut sources = facts.up;
    while sources != 0 {
        let from = column(sources);
        sources &= sources - 1;
        keys[count & (MOST - 1)] = (from as u32) << 4;
        count += 1;
    }
    // Onto a card: from each top of rank r to each of rank r + 1.
    let mut pairs = facts.ranks & facts.ranks >> 1 & !1;
    while pairs != 0 {
        let rank = pairs.trailing_zeros() as usize & 15;
        pairs &= pairs - 1;
        let (mut from_cols, to_cols) = (by_rank[rank], by_rank[(rank + 1) & 15]);
        while from_cols != 0 {
            let from = column(from_cols);
            from_cols &= from_cols - 1;
            let (suit, onto_card) = (tops[from].suit(), facts.onto_card[from]);
            let mut to_cols = to_cols;
            while to_cols != 0 {
                let to = column(to_cols);
                to_cols &= to_cols - 1;
                let place = (from as u32) << 4 | (1 + to as u32);
                if place == except {
                    continue;
                }
                let other_suit = u32::from(tops[to].suit() != suit);
                let buried = 14 - facts.lowest_need[to];
                let priority = onto_card + buried + other_suit;
                keys[count & (MOST - 1)] = priority << PLACE | place;
                count += 1;
            }
        }
    }
    // Into the first empty column, from a column of more than one card.
    if by_rank[0] != 0 {
        let to = column(by_rank[0]);
        let buried = 14 - facts.lowest_need[to];
        let mut from_cols = facts.more;
        while from_cols != 0 {
            let from = column(from_cols);
            from_cols &= from_cols - 1;
            let place = (from as u32) << 4 | (1 + to as u32);
            if place == except {
                continue;
            }
            // Class 3 for a move of class 2 or 4 onto a card.
            let onto_card = facts.onto_card[from];
            let into_empty = if onto_card >> 12 == 1 {
                onto_card
            } else {
                onto_card & 0xfff | 3 << 12
            };
            let priority = into_empty + buried + 1;
            keys[count & (MOST - 1)] = priority << PLACE | place;
            count += 1;
        }
    }
    debug_assert!(count <= 23);
    let keys = &mut keys[..count.min(MOST)];
    for i in 1..keys.len() {
        let key = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = key;
    }
    out.extend(keys.iter().map(|&key| {
        let from = (key >> 4 & 7) as u8;
        Move {
            card: tops[from as usize],
            from,
            to: match key & 15 {
                0 => FOUNDATION,
                to => to as u8 - 1,
            },
        }
    }));
}

/// The order a walk tries a position's moves in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// [`ordered_moves`]'s: by what each move does for the cards most needed.
    Castle,
    /// [`plain_moves`]'s: by the kind of move, then by column.
    Plain,
}

/// fc-solve's suit order (hearts, clubs, diamonds, spades) by castle's suit index
/// ([`SUITS`](crate::cards::SUITS): clubs, diamonds, hearts, spades).
const FCS_SUITS: [u8; 4] = [1, 2, 0, 3];

/// [`generate`](super::moves::generate)'s moves but `except` (if given), appended to `out` in
/// the plain order: every move to a foundation, then every move into an empty column, then
/// every move onto a card; within a kind by the column moved from, then by the column moved to,
/// the columns taken by their bottom cards (rank, then suit in fc-solve's order; an empty
/// column first). That is fc-solve's default search's order (`-to 0AB`: its kinds in that
/// order, its columns kept sorted by their bottom cards): a search that knows nothing of which
/// cards are needed, and so wins other deals than [`ordered_moves`]'s early (the solver's research notes).
/// The columns are ordered by their bottom cards, not by their places, as a position's key
/// does not tell its columns' places apart.
pub fn plain_moves(state: &State, except: Option<Move>, out: &mut Vec<Move>) {
    let n = state.ncols().min(MAX_COLUMNS);
    // The columns by their bottom cards (an insertion sort: eight at most), and their tops.
    let mut cols = [0u8; MAX_COLUMNS];
    let mut bottoms = [0u8; MAX_COLUMNS];
    let mut empty = None;
    for col in 0..n {
        let bottom = match state.column(col).first() {
            None => {
                empty = empty.or(Some(col as u8));
                0
            }
            Some(card) => 1 + (card.rank() << 2 | FCS_SUITS[card.suit() as usize & 3]),
        };
        let mut i = col;
        while i > 0 && bottoms[i - 1] > bottom {
            bottoms[i] = bottoms[i - 1];
            cols[i] = cols[i - 1];
            i -= 1;
        }
        bottoms[i] = bottom;
        cols[i] = col as u8;
    }
    let cols = &cols[..n];
    let mut push = |m: Move| {
        if Some(m) != except {
            out.push(m);
        }
    };
    for &from in cols {
        if let Some(card) = state
            .top(from as usize)
            .filter(|&c| fits_foundation(state, c))
        {
            push(Move {
                card,
                from,
                to: FOUNDATION,
            });
        }
    }
    // Into the first empty column (any other gives a position of the same key), from a
    // column of more than one card (one card moved so gives the same key).
    if let Some(to) = empty {
        for &from in cols {
            let column = state.column(from as usize);
            if let [_, .., card] = column {
                push(Move {
                    card: *card,
                    from,
                    to,
                });
            }
        }
    }
    for &from in cols {
        let Some(card) = state.top(from as usize) else {
            continue;
        };
        for &to in cols {
            if state.top(to as usize).is_some_and(|t| fits_on(card, t)) {
                push(Move { card, from, to });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::deal::Deal;
    use super::super::moves::{generate, play, play_automatic};
    use super::super::variant::Variant;
    use super::*;
    use crate::random::MtRandom;

    /// Plays at random from deals 1-10 of every variant, up to 300 moves each, calling `check`
    /// at each position with its moves generated (`check` may reorder them or take one out)
    /// and `rng`; the next move is drawn from what `check` leaves. Returns the positions seen.
    fn along_random_play(
        seed: u64,
        mut check: impl FnMut(&State, &mut Vec<Move>, &mut MtRandom, &str),
    ) -> usize {
        let mut rng = MtRandom::new(seed);
        let mut positions = 0;
        for variant in Variant::ALL {
            for number in 1..=10 {
                let deal = Deal::from_number(variant, number).unwrap();
                let mut state = State::from_deal(&deal);
                let (mut line, mut moves) = (Vec::new(), Vec::new());
                play_automatic(&mut state, &mut line);
                let label = format!("{variant:?} {number}");
                for _step in 0..300 {
                    moves.clear();
                    generate(&state, &mut moves);
                    check(&state, &mut moves, &mut rng, &label);
                    positions += 1;
                    let Some(last) = moves.len().checked_sub(1) else {
                        break;
                    };
                    let m = moves[rng.below_or_equal(last as u64) as usize];
                    line.clear();
                    play(&mut state, m, &mut line);
                }
            }
        }
        positions
    }

    /// Along random play from deals of every variant, the moves made and ordered in one pass
    /// are the moves generated, then sorted by priority.
    #[test]
    fn moves_ordered_as_made_are_the_moves_generated_then_sorted() {
        let mut ordered = Vec::new();
        let positions = along_random_play(29, |state, moves, rng, label| {
            let facts = ColumnFacts::new(state);
            order_by(state, &facts, moves);
            ordered.clear();
            ordered_moves(&facts, None, &mut ordered);
            assert_eq!(&ordered, moves, "{label}");
            // Less one move, the others in the same order.
            let except = moves.get(rng.below_or_equal(8) as usize);
            if let Some(&except) = except.filter(|m| !m.to_foundation()) {
                ordered.clear();
                ordered_moves(&facts, Some(except), &mut ordered);
                moves.retain(|&m| m != except);
                assert_eq!(&ordered, moves, "{label}");
            }
        });
        assert!(positions > 3000, "{positions}");
    }

    /// Along random play from deals of every variant, the plain order's moves (less one, at
    /// times) are the moves generated, sorted by kind (to a foundation, into an empty column,
    /// onto a card), then by the bottom cards of the columns moved from and to.
    #[test]
    fn plain_moves_are_the_moves_generated_sorted_by_kind_and_bottom_cards() {
        let mut plain = Vec::new();
        let positions = along_random_play(31, |state, moves, rng, label| {
            let bottom = |col: u8| {
                state.column(col as usize).first().map(|c| {
                    let suit = "HCDS".find(crate::cards::SUITS[c.suit() as usize]);
                    (c.rank(), suit.unwrap())
                })
            };
            let kind = |m: &Move| match m.to_foundation() {
                true => 0,
                false if state.top(m.to as usize).is_none() => 1,
                false => 2,
            };
            let mut sorted = moves.clone();
            sorted.sort_by_key(|m| {
                let to = (!m.to_foundation()).then(|| bottom(m.to));
                (kind(m), bottom(m.from), to)
            });
            let except = sorted.get(rng.below_or_equal(8) as usize).copied();
            plain.clear();
            plain_moves(state, except, &mut plain);
            sorted.retain(|&m| Some(m) != except);
            assert_eq!(plain, sorted, "{label}");
        });
        assert!(positions > 3000, "{positions}");
    }

    /// Along random play from deals of every variant, the facts of a position one quiet move
    /// from the last one read, updated in the move's two columns, are the facts read whole.
    #[test]
    fn facts_updated_after_a_quiet_move_are_the_facts_read_whole() {
        let mut rng = MtRandom::new(13);
        let mut updated = 0;
        for variant in Variant::ALL {
            for number in 1..=10 {
                let deal = Deal::from_number(variant, number).unwrap();
                let mut state = State::from_deal(&deal);
                let (mut line, mut moves) = (Vec::new(), Vec::new());
                play_automatic(&mut state, &mut line);
                let mut facts = ColumnFacts::new(&state);
                for _step in 0..300 {
                    moves.clear();
                    generate(&state, &mut moves);
                    let Some(last) = moves.len().checked_sub(1) else {
                        break;
                    };
                    let m = moves[rng.below_or_equal(last as u64) as usize];
                    line.clear();
                    play(&mut state, m, &mut line);
                    if let [m] = line[..] {
                        if !m.to_foundation() {
                            facts.moved(&state, m);
                            updated += 1;
                            assert_eq!(facts, ColumnFacts::new(&state), "{variant:?} {number}");
                            continue;
                        }
                    }
                    facts = ColumnFacts::new(&state);
                }
            }
        }
        assert!(updated > 3000, "{updated}");
    }
}
