//! Spider's decks and deal N (docs/rules.md §4).
//!
//! Deal N: the 104 cards in deck order (the deck's suits in the order S H D C, each A to K,
//! one full deck after the other: 8 runs of 13), shuffled by Fisher-Yates from the top with
//! PySolFC's Mersenne Twister seeded with N (the generator PySolFC uses for large deal
//! numbers), then dealt from the end of the shuffled list: four rows of ten face down, one more
//! face-down card on each of the first four columns (44 in all), one face-up card on every
//! column, and the 50 left form the stock in the order they will be dealt.

use crate::cards::Card;
use crate::random::{shuffle, MtRandom, MAX_NUMBER};

pub const COLUMNS: usize = 10;
pub const CARDS: usize = 104;
pub const STOCK: usize = 50;
/// A run taken off: K down to A of one suit.
pub const RUN: usize = 13;
pub const RUNS: usize = CARDS / RUN;

/// Suit indexes as [`crate::cards::SUITS`] (C D H S).
const SPADES: u8 = 3;
const HEARTS: u8 = 2;
const DIAMONDS: u8 = 1;
const CLUBS: u8 = 0;

/// The three decks: 4 suits (the classic game), 2 suits (spades and hearts, 4 of each card),
/// 1 suit (spades, 8 of each card).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Suits {
    Four,
    Two,
    One,
}

impl Suits {
    pub const ALL: [Suits; 3] = [Suits::Four, Suits::Two, Suits::One];

    pub fn id(self) -> &'static str {
        match self {
            Suits::Four => "spider",
            Suits::Two => "spider-2",
            Suits::One => "spider-1",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Suits::Four => "Spider",
            Suits::Two => "Spider (2 suits)",
            Suits::One => "Spider (1 suit)",
        }
    }

    pub fn from_id(id: &str) -> Option<Suits> {
        Suits::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The suits in the deck, in deck order.
    pub fn suits(self) -> &'static [u8] {
        match self {
            Suits::Four => &[SPADES, HEARTS, DIAMONDS, CLUBS],
            Suits::Two => &[SPADES, HEARTS],
            Suits::One => &[SPADES],
        }
    }

    /// The 104 cards in deck order: runs of A to K, the suits in turn.
    pub fn deck(self) -> Vec<Card> {
        let suits = self.suits();
        (0..RUNS)
            .flat_map(|i| (1..=13).map(move |rank| Card::new(rank, suits[i % suits.len()])))
            .collect()
    }

    /// How many copies of each card of its suits the deck holds.
    pub fn copies(self) -> usize {
        RUNS / self.suits().len()
    }
}

/// A column: the face-down cards (bottom first), then the face-up ones (the last moves).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Column {
    pub down: Vec<Card>,
    pub up: Vec<Card>,
}

/// A Spider position as dealt or written: the columns, the stock (dealing order: the first ten
/// cards are the next deal, to columns 1 to 10) and the suits of the runs already off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpiderDeal {
    pub suits: Suits,
    pub number: Option<u64>,
    pub columns: Vec<Column>,
    pub stock: Vec<Card>,
    pub off: Vec<u8>,
}

impl SpiderDeal {
    /// Deal `number` (1 or more) of the deck.
    pub fn from_number(suits: Suits, number: u64) -> Option<SpiderDeal> {
        if number == 0 || number > MAX_NUMBER {
            return None;
        }
        let mut cards = suits.deck();
        let mut random = MtRandom::new(number);
        shuffle(&mut cards, |n| random.below_or_equal(n));
        // Dealt from the end.
        let mut columns = vec![Column::default(); COLUMNS];
        for row in 0..5 {
            let count = if row < 4 { COLUMNS } else { 4 };
            for column in columns.iter_mut().take(count) {
                column.down.push(cards.pop().unwrap());
            }
        }
        for column in columns.iter_mut() {
            column.up.push(cards.pop().unwrap());
        }
        cards.reverse(); // the stock in dealing order
        Some(SpiderDeal {
            suits,
            number: Some(number),
            columns,
            stock: cards,
            off: Vec::new(),
        })
    }

    /// Why this is not a position of its deck, if it is not: every card of the deck exactly
    /// once (the runs off count as their 13 cards), ten columns, face-down cards only under a
    /// face-up one, and a stock of whole deals.
    pub fn check(&self) -> Result<(), String> {
        if self.columns.len() != COLUMNS {
            return Err(format!(
                "Spider has {COLUMNS} columns, not {}",
                self.columns.len()
            ));
        }
        if !self.stock.len().is_multiple_of(COLUMNS) || self.stock.len() > STOCK {
            return Err(format!(
                "the stock must hold 0, 10, 20, 30, 40 or 50 cards, not {}",
                self.stock.len()
            ));
        }
        if let Some(i) = self
            .columns
            .iter()
            .position(|c| !c.down.is_empty() && c.up.is_empty())
        {
            return Err(format!(
                "column {} has face-down cards and none face up (its top card would be turned)",
                i + 1
            ));
        }
        let mut counts = [0usize; 53];
        for card in self
            .columns
            .iter()
            .flat_map(|c| c.down.iter().chain(&c.up))
            .chain(&self.stock)
        {
            counts[card.id() as usize] += 1;
        }
        for &suit in &self.off {
            for rank in 1..=13 {
                counts[Card::new(rank, suit).id() as usize] += 1;
            }
        }
        for card in Card::deck() {
            let wanted = if self.suits.suits().contains(&card.suit()) {
                self.suits.copies()
            } else {
                0
            };
            let have = counts[card.id() as usize];
            if have != wanted {
                return Err(format!(
                    "{card}: {have} in the position, {wanted} in the {} deck",
                    self.suits.name()
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_have_the_seed_layout_and_every_card() {
        for suits in Suits::ALL {
            for n in [1, 2, 1000, 1 << 40] {
                let d = SpiderDeal::from_number(suits, n).unwrap();
                d.check().unwrap();
                let down: Vec<usize> = d.columns.iter().map(|c| c.down.len()).collect();
                assert_eq!(down, vec![5, 5, 5, 5, 4, 4, 4, 4, 4, 4]);
                assert!(d.columns.iter().all(|c| c.up.len() == 1));
                assert_eq!(d.stock.len(), STOCK);
            }
        }
        let a = SpiderDeal::from_number(Suits::Four, 7).unwrap();
        assert_eq!(a, SpiderDeal::from_number(Suits::Four, 7).unwrap());
        assert_ne!(a, SpiderDeal::from_number(Suits::Four, 8).unwrap());
        assert!(SpiderDeal::from_number(Suits::One, 0).is_none());
    }
}
