//! Judging an exit by the card it turns up, exactly, one card deep.
//!
//! The card an exit turns up is one of the cards the player has not seen (the deck less every
//! card face up or off), each as likely as its copies are many: a player cannot tell more. For
//! each kind of unseen card, the exit's position with that card turned up is searched again
//! by a small quiet search, and the best it reaches (a quiet win, else its best-ranked exit's
//! estimate) is the exit's worth in that case; the exit's worth is the mean over the kinds,
//! each weighted by its copies. Everything read is what the player sees, or a card placed in
//! every way it could lie: no hidden card is read.
//!
//! A case's worth counts the ways on the card leaves too (`options` above 0): so much less
//! for each column the small search can turn up, as a card that leaves one way on is worse
//! than one that leaves five at the same estimate.
//!
//! Two cards deep (`deep` above 0), the case's worth looks one card further: the best exit
//! the small search finds there is judged by its own card in turn, for `deep` of the unseen
//! cards spread evenly over them (so weighted by their copies), and the case is worth the
//! mean of those: an expectation over what the player will see next, at a bounded cost.

use super::super::estimate::Weights;
use super::super::moves::apply;
use super::quiet::{self, Exit, Shows};
use super::view::View;
use crate::cards::Card;
use rustc_hash::FxHashSet;

/// How the reveal judges exits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// Positions each small quiet search may reach, after a card is placed.
    pub quiet: usize,
    /// Positions it goes on from at each depth (0: all, breadth first).
    pub layer: usize,
    /// What the search counts for each column that could take a suited card.
    pub mobility: i32,
    /// Cards placed under the best exit after the first card (0: one card deep).
    pub deep: usize,
    /// Taken off a case's worth for each column the search after the card can turn up: the
    /// ways on it leaves open.
    pub options: i32,
    /// Where among the unseen cards the spread of `deep` starts, as a fraction of 2^32 of
    /// its first step (from the view, the seed and the first card: [`Reveal::for_card`]).
    pub offset: u32,
}

impl Reveal {
    /// The judge for the case where `card` is the first card turned up: its spread starts
    /// elsewhere for each card (the same under every exit judged, so that they are judged
    /// alike), and the cases' spreads together cover the ranks more finely than one.
    pub fn for_card(&self, card: Card) -> Reveal {
        let mixed = (u64::from(self.offset) ^ u64::from(card.id()) << 40)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Reveal {
            offset: (mixed >> 32) as u32,
            ..*self
        }
    }
}

/// What a search after the card is turned up says of a quiet win: better than any estimate.
pub const WON: i32 = i32::MIN / 4;

/// What is added when nothing can be shown after the card: worse than any position still
/// open (an estimate is at most a few thousand).
pub const STUCK: i32 = 100_000;

/// The unseen cards of `view`, each kind once with its copies.
pub fn kinds(view: &View) -> Vec<(Card, u32)> {
    let mut out: Vec<(Card, u32)> = Vec::new();
    for card in view.unseen() {
        match out.last_mut() {
            Some((last, n)) if *last == card => *n += 1,
            _ => out.push((card, 1)),
        }
    }
    out
}

/// The view after `exit` is made, with `card` the one it turns up (the exit shows a column).
pub fn after(view: &View, exit: &Exit, card: Card) -> View {
    let Shows::Column(column) = exit.shows else {
        panic!("only an exit that turns a card up is judged by it");
    };
    let mut state = view.plain_world();
    for &m in &exit.moves {
        apply(&mut state, m);
    }
    let mut seen = View::of(&state);
    // The exit's last move left the column's first face-down card alone, face up.
    seen.columns[column as usize].up = vec![card];
    seen
}

/// `count` of the unseen cards of `view`, evenly spread over them ordered by rank, then suit,
/// from `offset`: each kind about as often as its copies are many, low and high ranks alike.
/// (Ordered by suit first, the few cards taken would be of one rank, a guess at a single
/// card rather than a spread over what may come.)
pub fn spread(view: &View, count: usize, offset: u32) -> Vec<Card> {
    let mut unseen = view.unseen();
    unseen.sort_by_key(|c| (c.rank(), c.suit()));
    let n = unseen.len() as u64;
    if n == 0 || count == 0 {
        return Vec::new();
    }
    let count = (count as u64).min(n);
    (0..count)
        .map(|i| unseen[((i << 32 | u64::from(offset)) * n / (count << 32)) as usize])
        .collect()
}

/// How near a win `seen` is after a small quiet search from it (lower is nearer); with
/// `reveal.deep`, its best exit judged by the card it turns up in turn.
pub fn worth_after(seen: &View, reveal: &Reveal, weights: &Weights) -> i32 {
    let world = seen.plain_world();
    let found = quiet::search(
        world.clone(),
        &FxHashSet::default(),
        reveal.quiet,
        reveal.layer,
        weights,
        reveal.mobility,
    );
    if found.won.is_some() {
        return WON;
    }
    let open = found.turn_ups() as i32;
    let Some(exit) = found.ranked(1).into_iter().next() else {
        return weights.estimate(&world).saturating_add(STUCK);
    };
    let near = exit.near - reveal.options * open;
    let cards = spread(seen, reveal.deep, reveal.offset);
    if cards.is_empty() || exit.shows == Shows::Deal {
        return near;
    }
    let shallow = Reveal { deep: 0, ..*reveal };
    let sum: i64 = cards
        .iter()
        .map(|&card| i64::from(worth_after(&after(seen, &exit, card), &shallow, weights)))
        .sum();
    (sum / cards.len() as i64) as i32
}

#[cfg(test)]
mod tests {
    use super::super::super::deal::{SpiderDeal, Suits};
    use super::super::super::moves::{generate, is_legal};
    use super::super::super::state::SpiderState;
    use super::super::advise::{advise, Advice, Effort};
    use super::*;
    use crate::spider::estimate::WEIGHTS;

    /// Positions along some legal play of a two- and a four-suit deal, each with a card face
    /// down still.
    fn positions() -> Vec<SpiderState> {
        let mut out = Vec::new();
        for (suits, number) in [(Suits::Two, 4), (Suits::Four, 9)] {
            let mut state =
                SpiderState::from_deal(&SpiderDeal::from_number(suits, number).unwrap());
            let mut moves = Vec::new();
            for step in 0..40 {
                if step % 8 == 0 {
                    out.push(state.clone());
                }
                moves.clear();
                generate(&state, true, &mut moves);
                let Some(&m) = moves.get(step * 3 % moves.len().max(1)) else {
                    break;
                };
                apply(&mut state, m);
            }
        }
        out
    }

    /// The quiet search of `view` as the tests run it: nothing visited, the base weights.
    fn search_of(view: &View, most: usize, layer: usize) -> quiet::Quiet {
        quiet::search(
            view.plain_world(),
            &FxHashSet::default(),
            most,
            layer,
            &WEIGHTS,
            0,
        )
    }

    fn effort(suits: Suits) -> Effort {
        Effort {
            reveal: 3,
            reveal_quiet: 300,
            reveal_layer: 10,
            quiet: 3_000,
            threads: 1,
            ..Effort::for_deck(suits)
        }
    }

    /// The card placed under an exit is one the player cannot rule out: in a world where
    /// that card lies there, the player sees just what the placed view shows; and the copies
    /// of the kinds are the unseen cards.
    #[test]
    fn a_placed_card_is_what_a_world_would_show() {
        for state in positions() {
            let view = View::of(&state);
            let kinds = kinds(&view);
            let copies: u32 = kinds.iter().map(|&(_, n)| n).sum();
            assert_eq!(copies as usize, view.unseen().len());
            let found = search_of(&view, 500, 20);
            for exit in found.exits.iter().filter(|e| e.shows != Shows::Deal) {
                for mut world in view.sample_worlds(5, 3).into_iter().chain([state.clone()]) {
                    for &m in &exit.moves {
                        apply(&mut world, m);
                    }
                    let Shows::Column(c) = exit.shows else {
                        unreachable!()
                    };
                    let card = *world.cols[c as usize].face_up().last().unwrap();
                    assert!(kinds.iter().any(|&(k, _)| k == card));
                    assert_eq!(after(&view, exit, card), View::of(&world));
                }
            }
        }
    }

    /// The cards placed two deep are unseen ones, as many as asked (all of them when asked
    /// for all), and a few of them are spread over the ranks, not one rank's suits.
    #[test]
    fn a_spread_is_of_unseen_cards_over_the_ranks() {
        for state in positions() {
            let view = View::of(&state);
            let mut unseen = view.unseen();
            for offset in [0, 1 << 31, u32::MAX] {
                let mut all = spread(&view, unseen.len(), offset);
                all.sort();
                unseen.sort();
                assert_eq!(all, unseen);
                let four = spread(&view, 4, offset);
                assert_eq!(four.len(), 4);
                assert!(four.iter().all(|c| unseen.contains(c)));
                // A quarter of the unseen cards holds three ranks or more.
                if unseen.len() >= 80 {
                    for pair in four.windows(2) {
                        assert!(pair[1].rank() >= pair[0].rank() + 2, "{four:?}");
                    }
                }
            }
            assert!(spread(&view, 0, 7).is_empty());
        }
    }

    /// Counting the ways on (`options`), a card's worth is less by so much for each column
    /// the search after it can turn up, and by nothing else.
    #[test]
    fn each_way_on_a_card_leaves_counts_for_it() {
        let mut counted = 0;
        for state in positions() {
            let view = View::of(&state);
            let how = Reveal {
                quiet: 300,
                layer: 10,
                mobility: 0,
                deep: 0,
                options: 0,
                offset: 0,
            };
            let found = search_of(&view, how.quiet, how.layer);
            for exit in found.exits.iter().filter(|e| e.shows != Shows::Deal) {
                for &(card, _) in kinds(&view).iter().step_by(7) {
                    let seen = after(&view, exit, card);
                    let plain = worth_after(&seen, &how, &WEIGHTS);
                    if plain == WON || plain >= STUCK / 2 {
                        continue;
                    }
                    let again = search_of(&seen, how.quiet, how.layer);
                    let open = again.turn_ups() as i32;
                    let with = worth_after(&seen, &Reveal { options: 5, ..how }, &WEIGHTS);
                    assert_eq!(with, plain - 5 * open);
                    counted += usize::from(open > 0);
                }
            }
        }
        assert!(counted > 0);
    }

    /// Judged by the card it turns up, one card deep or two, the advice is legal in every
    /// world the player cannot tell from the real one, shows something only with its last
    /// move, and is the same whatever lies face down and in the stock (the hidden cards dealt
    /// anew).
    #[test]
    fn the_reveal_advice_is_legal_in_every_world_and_reads_no_hidden_card() {
        let mut judged = 0;
        for (i, state) in positions().into_iter().enumerate() {
            let view = View::of(&state);
            let effort = Effort {
                reveal_deep: i % 2 * 3,
                reveal_options: i32::from(i % 3 == 2) * 8,
                ..effort(state.suits)
            };
            let found = quiet::search(
                view.plain_world(),
                &FxHashSet::default(),
                effort.quiet,
                effort.layer,
                &effort.weights,
                effort.mobility,
            );
            // More than one exit to choose from: the reveal judges them.
            judged += usize::from(found.won.is_none() && found.ranked(effort.reveal).len() > 1);
            let advice = advise(&view, &[view.hash64()], 7, &effort);
            let Advice::Plan { moves, .. } = &advice else {
                panic!("a position with a card face down has a way on");
            };
            let worlds = view.sample_worlds(11, 4);
            for world in worlds.iter().chain([&state]) {
                let mut at = world.clone();
                let (last, quiet) = moves.split_last().unwrap();
                for &m in quiet {
                    assert!(is_legal(&at, m) && quiet::shows(&at, m).is_none(), "{m:?}");
                    apply(&mut at, m);
                }
                assert!(is_legal(&at, *last) && quiet::shows(&at, *last).is_some());
                // The same position with its hidden cards permuted: the same advice.
                let seen = View::of(world);
                assert_eq!(advise(&seen, &[seen.hash64()], 7, &effort), advice);
            }
        }
        assert!(judged > 0);
    }
}
