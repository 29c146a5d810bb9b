//! A column of a free-cell position: its cards, and beside each card what the search reads of
//! the cards up to it, kept up as cards are put on and taken off, so that the search reads a
//! column's run and its part of the estimate at its top instead of walking its cards.

use super::variant::Build;
use crate::cards::Card;
use std::ops::Deref;

/// What the cards of a column up to a height hold, in the terms of the estimate
/// (`order.rs`) and of runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The lowest rank of each suit up to here, and of all (14: none).
    lowest: [u8; 4],
    lowest_rank: u8,
    /// The cards lying above a lower card of their suit, and of any suit.
    pub over_lower: u8,
    pub over_lower_rank: u8,
    /// The cards not on the card they would be built on.
    pub unordered: u8,
    /// The cards from this one down, each on a card it fits: the run this card tops.
    pub run: u8,
    /// The cards up to here, as a mask of their ids.
    pub held: u64,
    /// The cards up to here, bottom first, as a number (each id a digit of base
    /// [`DIGEST_BASE`], wrapping): two columns of other cards have other numbers but by chance.
    pub digits: u64,
}

/// An odd number far from a power of two, the base of [`Mark::digits`].
const DIGEST_BASE: u64 = 0x9e37_79b9_7f4a_7c15;

impl Mark {
    const NONE: Mark = Mark {
        lowest: [14; 4],
        lowest_rank: 14,
        over_lower: 0,
        over_lower_rank: 0,
        unordered: 0,
        run: 0,
        held: 0,
        digits: 0,
    };
}

/// The cards of a column, bottom first (read as a slice), and a [`Mark`] for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    build: Build,
    cards: Vec<Card>,
    marks: Vec<Mark>,
}

impl Column {
    pub fn new(build: Build, cards: &[Card]) -> Column {
        let mut col = Column {
            build,
            cards: Vec::with_capacity(20),
            marks: Vec::with_capacity(20),
        };
        for &card in cards {
            col.push(card);
        }
        col
    }

    #[inline]
    pub fn push(&mut self, card: Card) {
        let mark = self.mark_with(card, self.top_mark(), self.last().copied());
        self.cards.push(card);
        self.marks.push(mark);
    }

    /// The mark `card` would have put on a column whose top card is `on`, of mark `below`.
    #[inline]
    fn mark_with(&self, card: Card, below: Option<&Mark>, on: Option<Card>) -> Mark {
        let below = below.copied().unwrap_or(Mark::NONE);
        let (rank, suit) = (card.rank(), card.suit() as usize);
        let mut mark = below;
        if below.lowest_rank < rank {
            mark.over_lower_rank += 1;
        } else {
            mark.lowest_rank = rank;
        }
        if below.lowest[suit] < rank {
            mark.over_lower += 1;
        } else {
            mark.lowest[suit] = rank;
        }
        if on.is_some_and(|target| self.build.fits(card, target)) {
            mark.run += 1;
        } else {
            mark.run = 1;
            mark.unordered += u8::from(on.is_some());
        }
        mark.held |= 1 << card.id();
        mark.digits = below
            .digits
            .wrapping_mul(DIGEST_BASE)
            .wrapping_add(card.id() as u64);
        mark
    }

    /// The mark of the top card after `cards` were put on, the column left as it is (`None`
    /// when it is empty and `cards` are none).
    #[inline]
    pub fn top_mark_with(&self, cards: &[Card]) -> Option<Mark> {
        let (mut mark, mut on) = (self.top_mark().copied(), self.last().copied());
        for &card in cards {
            mark = Some(self.mark_with(card, mark.as_ref(), on));
            on = Some(card);
        }
        mark
    }

    /// The mark of the card at `at`.
    #[inline]
    pub fn mark(&self, at: usize) -> &Mark {
        &self.marks[at]
    }

    /// The height of `card` (0: the bottom), if the column holds it: the first mark that
    /// holds it, the marks holding more cards the higher they are.
    #[inline]
    pub fn height_of(&self, card: Card) -> Option<usize> {
        let bit = 1u64 << card.id();
        if self.top_mark()?.held & bit == 0 {
            return None;
        }
        Some(self.marks.partition_point(|m| m.held & bit == 0))
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        self.marks.pop();
        self.cards.pop()
    }

    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.cards.truncate(len);
        self.marks.truncate(len);
    }

    #[inline]
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// The mark of the top card, `None` when empty.
    #[inline]
    pub fn top_mark(&self) -> Option<&Mark> {
        self.marks.last()
    }

    /// The run the top card tops: 0 when empty.
    #[inline]
    pub fn run(&self) -> usize {
        self.top_mark().map_or(0, |m| m.run as usize)
    }

    /// Whether the card at `at` lies on a card it fits.
    #[inline]
    pub fn on_a_card_it_fits(&self, at: usize) -> bool {
        self.mark(at).run > 1
    }
}

impl Deref for Column {
    type Target = [Card];

    #[inline]
    fn deref(&self) -> &[Card] {
        &self.cards
    }
}

impl<'a> IntoIterator for &'a Column {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.cards.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each mark holds what the cards up to it hold, counted afresh, as cards are put on and
    /// taken off, and put back where they were taken from (their marks kept), or after others
    /// came and went below them.
    #[test]
    fn marks_hold_what_the_cards_below_hold() {
        for build in [Build::Alternate, Build::Suit, Build::Rank] {
            let mut col = Column::new(build, &[]);
            let (mut seed, mut taken) = (17u64, Vec::new());
            for _ in 0..4000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (seed >> 60) < 6 && !col.is_empty() {
                    taken.extend(col.pop());
                } else if (seed >> 60) < 11 && !taken.is_empty() {
                    col.push(taken.pop().unwrap());
                } else if col.len() < 30 {
                    col.push(Card::from_index((seed >> 33) as usize % 52));
                }
                for at in 0..col.len() {
                    let cards = &col[..=at];
                    let over = |same: &dyn Fn(Card, Card) -> bool| {
                        (0..cards.len())
                            .filter(|&i| {
                                cards[..i]
                                    .iter()
                                    .any(|&b| same(b, cards[i]) && b.rank() < cards[i].rank())
                            })
                            .count() as u8
                    };
                    let fits_below = |i: usize| build.fits(cards[i], cards[i - 1]);
                    let run = 1
                        + (1..cards.len())
                            .rev()
                            .take_while(|&i| fits_below(i))
                            .count();
                    let unordered = (1..cards.len()).filter(|&i| !fits_below(i)).count();
                    let mark = col.marks[at];
                    assert_eq!(mark.over_lower, over(&|a, b| a.suit() == b.suit()));
                    assert_eq!(mark.over_lower_rank, over(&|_, _| true));
                    assert_eq!(mark.unordered as usize, unordered);
                    assert_eq!(mark.run as usize, run);
                    let held = cards.iter().fold(0u64, |m, c| m | 1 << c.id());
                    assert_eq!(mark.held, held);
                    let digits = cards.iter().fold(0u64, |d, c| {
                        d.wrapping_mul(DIGEST_BASE).wrapping_add(c.id() as u64)
                    });
                    assert_eq!(mark.digits, digits);
                    let first = col.iter().position(|&c| c == col[at]);
                    assert_eq!(col.height_of(col[at]), first);
                    let (below, on) = (Column::new(build, &col[..at]), &col[at..]);
                    assert_eq!(below.top_mark_with(on), col.top_mark().copied());
                }
            }
        }
    }
}
