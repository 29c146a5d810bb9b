//! Cards of one 52-card deck and their text notation (docs/rules.md §2): both games' board
//! texts are written in these cards.

use std::fmt;

/// Suits in the order the core numbers them (clubs, diamonds, hearts, spades).
pub const SUITS: [char; 4] = ['C', 'D', 'H', 'S'];
pub const RANKS: [char; 13] = [
    'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
];
pub const KING: u8 = 13;

/// Each id's rank and suit, looked up: the search asks them of every card it looks at, and a
/// load is cheaper than dividing by 13 (nothing for 0 and past 52, never cards).
const RANK_OF: [u8; 64] = BY_ID[0];
const SUIT_OF: [u8; 64] = BY_ID[1];
const BY_ID: [[u8; 64]; 2] = {
    let mut tables = [[0; 64]; 2];
    let mut index = 0;
    while index < 52 {
        // As `Card::new` lays ids out: 1 + 13 * suit + (rank - 1).
        tables[0][index + 1] = (index % 13) as u8 + 1;
        tables[1][index + 1] = (index / 13) as u8;
        index += 1;
    }
    tables
};

/// One card, stored as `1 + 13 * suit + (rank - 1)`, so 1..=52. 0 is never a card; the
/// transposition-table key uses it as the column separator.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(u8);

impl Card {
    /// Fills unused slots of fixed-size columns; never read as a card.
    pub(crate) const PLACEHOLDER: Card = Card(0);

    /// `rank` is 1 (ace) ..= 13 (king); `suit` indexes [`SUITS`].
    pub fn new(rank: u8, suit: u8) -> Card {
        debug_assert!((1..=13).contains(&rank) && suit < 4);
        Card(1 + 13 * suit + (rank - 1))
    }

    pub fn from_id(id: u8) -> Option<Card> {
        (1..=52).contains(&id).then_some(Card(id))
    }

    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }

    #[inline]
    pub fn rank(self) -> u8 {
        RANK_OF[self.0 as usize & 63]
    }

    #[inline]
    pub fn suit(self) -> u8 {
        SUIT_OF[self.0 as usize & 63]
    }

    /// Index 0..52, for tables indexed by card.
    #[inline]
    pub fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// The card of index `i` (0..52), as [`Card::index`] numbers them.
    #[inline]
    pub fn from_index(i: usize) -> Card {
        debug_assert!(i < 52);
        Card(i as u8 + 1)
    }

    /// Every card of the deck, in id order.
    pub fn deck() -> impl Iterator<Item = Card> {
        (1..=52).map(Card)
    }

    /// Parses `7H`, `TD`, `10d`, `as`: rank `A 2-9 T J Q K` (or `10`) then suit `H C D S`,
    /// either case.
    pub fn parse(token: &str) -> Option<Card> {
        let t = token.trim();
        let suit_char = t.chars().last()?;
        let rank_text = &t[..t.len() - suit_char.len_utf8()];
        let suit = suit_from_char(suit_char)?;
        let rank = rank_from_text(rank_text)?;
        Some(Card::new(rank, suit))
    }
}

pub fn suit_from_char(c: char) -> Option<u8> {
    SUITS
        .iter()
        .position(|&s| s == c.to_ascii_uppercase())
        .map(|i| i as u8)
}

/// `A 2-9 T 10 J Q K` (either case) to 1..=13; `0` is not a card rank (see the foundations line).
pub fn rank_from_text(text: &str) -> Option<u8> {
    if text == "10" {
        return Some(10);
    }
    let mut chars = text.chars();
    let c = chars.next()?.to_ascii_uppercase();
    if chars.next().is_some() {
        return None;
    }
    RANKS.iter().position(|&r| r == c).map(|i| i as u8 + 1)
}

pub fn rank_char(rank: u8) -> char {
    RANKS[(rank - 1) as usize]
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            rank_char(self.rank()),
            SUITS[self.suit() as usize]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_text() {
        for card in Card::deck() {
            assert_eq!(Card::parse(&card.to_string()), Some(card));
        }
        assert_eq!(Card::parse("10d"), Card::parse("TD"));
        assert_eq!(
            Card::parse("as").map(|c| (c.rank(), c.suit())),
            Some((1, 3))
        );
    }

    /// The looked-up rank and suit are the id's arithmetic ones.
    #[test]
    fn every_card_has_the_rank_and_suit_of_its_id() {
        for rank in 1..=13 {
            for suit in 0..4 {
                let card = Card::new(rank, suit);
                assert_eq!((card.rank(), card.suit()), (rank, suit));
                assert_eq!(card.id(), 1 + 13 * suit + rank - 1);
            }
        }
    }

    #[test]
    fn bad_tokens_are_refused() {
        for bad in ["", "H", "1H", "11H", "KX", "TT", "AHH", "0H", "é"] {
            assert_eq!(Card::parse(bad), None, "{bad}");
        }
    }
}
