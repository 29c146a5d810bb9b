//! What a Spider player sees, and the worlds that agree with it.
//!
//! A [`View`] holds the face-up cards, how many cards lie face down in each column, how many
//! are left in the stock, and the runs off: nothing a player cannot see. The fair player reads
//! positions only through it, so its advice cannot depend on a hidden card: two positions that
//! look the same give the same view, and so the same advice.

use super::super::deal::Suits;
use super::super::estimate::position_hash;
use super::super::state::{Col, SpiderKey, SpiderState};
use crate::cards::Card;
use crate::random::{shuffle, MtRandom};

/// One column as a player sees it: how many cards lie face down, and the face-up ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenColumn {
    pub down: usize,
    pub up: Vec<Card>,
}

/// A position as a player sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub suits: Suits,
    pub columns: Vec<SeenColumn>,
    /// Cards still in the stock.
    pub stock: usize,
    /// Suits of the runs taken off.
    pub off: Vec<u8>,
}

impl View {
    /// What a player sees of `state`.
    pub fn of(state: &SpiderState) -> View {
        View {
            suits: state.suits,
            columns: state
                .cols
                .iter()
                .map(|c| SeenColumn {
                    down: c.down,
                    up: c.face_up().to_vec(),
                })
                .collect(),
            stock: state.stock_left().len(),
            off: state.off.clone(),
        }
    }

    /// Cards face down or in the stock.
    pub fn hidden(&self) -> usize {
        self.stock + self.columns.iter().map(|c| c.down).sum::<usize>()
    }

    /// The cards a player has not seen, sorted: the deck less the face-up cards and the runs
    /// off. (Every one of them may lie in any hidden place: in Spider no rule tells where.)
    pub fn unseen(&self) -> Vec<Card> {
        let mut left = [0u8; 53];
        for card in self.suits.deck() {
            left[card.id() as usize] += 1;
        }
        for card in self.columns.iter().flat_map(|c| &c.up) {
            left[card.id() as usize] -= 1;
        }
        for &suit in &self.off {
            for rank in 1..=13 {
                left[Card::new(rank, suit).id() as usize] -= 1;
            }
        }
        (1..=52u8)
            .filter_map(Card::from_id)
            .flat_map(|card| std::iter::repeat_n(card, left[card.id() as usize] as usize))
            .collect()
    }

    /// The position with `hidden` in the hidden places: the stock first (in dealing order),
    /// then each column's face-down cards, bottom first. `hidden` holds [`View::hidden`] cards.
    pub fn world(&self, hidden: &[Card]) -> SpiderState {
        debug_assert_eq!(hidden.len(), self.hidden());
        let (stock, mut rest) = hidden.split_at(self.stock);
        let cols = self
            .columns
            .iter()
            .map(|c| {
                let (down, after) = rest.split_at(c.down);
                rest = after;
                Col {
                    cards: down.iter().chain(&c.up).copied().collect(),
                    down: c.down,
                }
            })
            .collect();
        SpiderState {
            suits: self.suits,
            cols,
            stock: stock.to_vec(),
            dealt: 0,
            off: self.off.clone(),
        }
    }

    /// One world, the unseen cards in the order they sort in: a position to search the moves
    /// that turn nothing up, whose face-down cards are never read.
    pub fn plain_world(&self) -> SpiderState {
        self.world(&self.unseen())
    }

    /// `count` worlds the player cannot tell from the real one: the unseen cards shuffled by
    /// a generator seeded with `seed`, a new shuffle each.
    pub fn sample_worlds(&self, seed: u64, count: usize) -> Vec<SpiderState> {
        let mut random = MtRandom::new(seed);
        let mut cards = self.unseen();
        (0..count)
            .map(|_| {
                shuffle(&mut cards, |n| random.below_or_equal(n));
                self.world(&cards)
            })
            .collect()
    }

    /// The position's key as a player tells positions apart: the same for two positions that
    /// look alike, whatever lies face down.
    pub fn key(&self) -> SpiderKey {
        self.plain_world().key()
    }

    /// [`View::key`] as the fair player's searches hold it: the 64-bit [`position_hash`] of
    /// the plain world (the quiet search reaches a position that looks like this one as
    /// exactly that world).
    pub fn hash64(&self) -> u64 {
        position_hash(&self.plain_world())
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::deal::SpiderDeal;
    use super::*;

    #[test]
    fn a_world_keeps_what_is_seen_and_deals_the_unseen_cards() {
        let deal = SpiderDeal::from_number(Suits::Four, 7).unwrap();
        let state = SpiderState::from_deal(&deal);
        let view = View::of(&state);
        assert_eq!(view.hidden(), 94);
        assert_eq!(view.unseen().len(), 94);
        for world in view.sample_worlds(3, 4) {
            assert_eq!(View::of(&world), view);
            let mut all: Vec<Card> = world.cols.iter().flat_map(|c| c.cards.clone()).collect();
            all.extend(world.stock_left());
            all.sort();
            let mut deck = Suits::Four.deck();
            deck.sort();
            assert_eq!(all, deck);
        }
        assert_eq!(view.key(), View::of(&view.plain_world()).key());
    }

    /// A position reached by quiet moves from the plain world hashes as the view of the same
    /// moves made in any world: the quiet search and the game's visited positions agree.
    #[test]
    fn the_quiet_searchs_hash_is_the_views_in_every_world() {
        use super::super::super::moves::{apply, generate};
        use super::super::quiet::shows;
        let deal = SpiderDeal::from_number(Suits::Two, 5).unwrap();
        let mut state = SpiderState::from_deal(&deal);
        let mut moves = Vec::new();
        // Into the game first: at the deal every move turns a card up.
        for step in 0..60 {
            moves.clear();
            generate(&state, true, &mut moves);
            apply(&mut state, moves[step * 5 % moves.len()]);
        }
        let view = View::of(&state);
        let mut worlds: Vec<SpiderState> = view.sample_worlds(9, 3);
        worlds.push(state);
        let mut plain = view.plain_world();
        let mut made = 0;
        for step in 0..40 {
            moves.clear();
            generate(&plain, true, &mut moves);
            let Some(&m) = moves
                .iter()
                .cycle()
                .skip(step)
                .take(moves.len())
                .find(|&&m| shows(&plain, m).is_none())
            else {
                break;
            };
            apply(&mut plain, m);
            for world in &mut worlds {
                apply(world, m);
                assert_eq!(View::of(world).hash64(), position_hash(&plain));
            }
            made += 1;
        }
        assert!(made > 5, "{made} quiet moves");
    }
}
