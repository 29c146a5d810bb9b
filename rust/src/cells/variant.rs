//! The free-cell games as data (docs/rules.md §6): what differs between them is the layout
//! (columns, cells, which cards start where), how a column builds, and what an empty column
//! takes. The moves themselves are the same in every one (`moves.rs`).

use crate::cards::Card;

/// How a card goes onto a column's top card: one rank lower and ...
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Build {
    /// ... of the other colour (FreeCell).
    Alternate,
    /// ... of the same suit (Baker's Game and its kin).
    Suit,
    /// ... of any suit (the castle games with cells).
    Rank,
}

impl Build {
    /// Whether `card` may go onto `target` in a column.
    #[inline]
    pub fn fits(self, card: Card, target: Card) -> bool {
        target.rank() == card.rank() + 1
            && match self {
                Build::Alternate => red(card) != red(target),
                Build::Suit => card.suit() == target.suit(),
                Build::Rank => true,
            }
    }
}

/// Whether red (diamonds, hearts).
#[inline]
pub fn red(card: Card) -> bool {
    matches!(card.suit(), 1 | 2)
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    FreeCell,
    BakersGame,
    EightOff,
    SeahavenTowers,
    Siegecraft,
    Stronghold,
    PrivateLane,
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::FreeCell,
        Variant::BakersGame,
        Variant::EightOff,
        Variant::SeahavenTowers,
        Variant::Siegecraft,
        Variant::Stronghold,
        Variant::PrivateLane,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Variant::FreeCell => "freecell",
            Variant::BakersGame => "bakers-game",
            Variant::EightOff => "eight-off",
            Variant::SeahavenTowers => "seahaven-towers",
            Variant::Siegecraft => "siegecraft",
            Variant::Stronghold => "stronghold",
            Variant::PrivateLane => "private-lane",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Variant::FreeCell => "FreeCell",
            Variant::BakersGame => "Baker's Game",
            Variant::EightOff => "Eight Off",
            Variant::SeahavenTowers => "Seahaven Towers",
            Variant::Siegecraft => "Siegecraft",
            Variant::Stronghold => "Stronghold",
            Variant::PrivateLane => "Private Lane",
        }
    }

    /// The variant of `id`; `fastness` is Private Lane's other name (PySolFC's too).
    pub fn from_id(id: &str) -> Option<Variant> {
        if id == "fastness" {
            return Some(Variant::PrivateLane);
        }
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }

    pub fn columns(self) -> usize {
        match self {
            Variant::SeahavenTowers => 10,
            _ => 8,
        }
    }

    pub fn cells(self) -> usize {
        match self {
            Variant::EightOff => 8,
            Variant::Siegecraft | Variant::Stronghold => 1,
            Variant::PrivateLane => 2,
            _ => 4,
        }
    }

    pub fn build(self) -> Build {
        match self {
            Variant::FreeCell => Build::Alternate,
            Variant::BakersGame | Variant::EightOff | Variant::SeahavenTowers => Build::Suit,
            Variant::Siegecraft | Variant::Stronghold | Variant::PrivateLane => Build::Rank,
        }
    }

    /// Whether an empty column takes only a king (else any card).
    pub fn kings_only(self) -> bool {
        matches!(self, Variant::EightOff | Variant::SeahavenTowers)
    }

    /// Whether the aces start on the foundations (Siegecraft, as Beleaguered Castle).
    pub fn aces_start_on_foundations(self) -> bool {
        matches!(self, Variant::Siegecraft)
    }

    /// The cells the cards left after the columns are dealt go to, in order (PySolFC's
    /// layouts: Eight Off fills every other cell, Seahaven Towers the middle two).
    pub fn dealt_cells(self) -> &'static [usize] {
        match self {
            Variant::EightOff => &[0, 2, 4, 6],
            Variant::SeahavenTowers => &[1, 2],
            _ => &[],
        }
    }

    /// Whether deal N is Microsoft's deal N for every N (FreeCell), rather than PySolFC's.
    pub fn microsoft_deals(self) -> bool {
        matches!(self, Variant::FreeCell)
    }

    /// PySolFC's game number for this variant (its deal N is ours, FreeCell's above 31999
    /// aside: Microsoft's).
    pub fn pysolfc_game(self) -> u32 {
        match self {
            Variant::FreeCell => 8,
            Variant::BakersGame => 45,
            Variant::EightOff => 258,
            Variant::SeahavenTowers => 9,
            Variant::Siegecraft => 831,
            Variant::Stronghold => 300,
            Variant::PrivateLane => 301,
        }
    }

    /// The most cards a run may move as a unit with `free_cells` empty cells and
    /// `empty_columns` empty columns besides its destination: (cells + 1), doubled for each
    /// empty column, as PySolFC's supermove allows; where an empty column takes only a king,
    /// the empty columns do not count (PySolFC's rule for those games).
    pub fn max_run(self, free_cells: usize, empty_columns: usize) -> usize {
        let through_cells = free_cells + 1;
        if self.kings_only() {
            through_cells
        } else {
            through_cells << empty_columns.min(16)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_their_variants_and_the_shapes_hold_every_card() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_id(v.id()), Some(v));
            assert!(v.dealt_cells().iter().all(|&c| c < v.cells()));
        }
        assert_eq!(Variant::from_id("fastness"), Some(Variant::PrivateLane));
        assert_eq!(Variant::from_id("FreeCell"), None);
        assert_eq!(Variant::FreeCell.max_run(4, 0), 5);
        assert_eq!(Variant::FreeCell.max_run(2, 2), 12);
        assert_eq!(Variant::EightOff.max_run(4, 2), 5);
    }
}
