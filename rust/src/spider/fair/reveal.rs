//! Judging an exit by the card it turns up, exactly.
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
    /// Taken off a case's worth for each column the search after the card can turn up: the
    /// ways on it leaves open.
    pub options: i32,
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

/// How near a win `seen` is after a small quiet search from it (lower is nearer).
pub fn worth_after(seen: &View, reveal: &Reveal, weights: &Weights) -> i32 {
    let world = seen.plain_world();
    let found = quiet::search(
        world.clone(),
        &FxHashSet::default(),
        reveal.quiet,
        reveal.layer,
        weights,
    );
    if found.won.is_some() {
        return WON;
    }
    let open = found.turn_ups() as i32;
    let Some(exit) = found.ranked(1).into_iter().next() else {
        return weights.estimate(&world).saturating_add(STUCK);
    };
    exit.near - reveal.options * open
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
                options: 0,
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

    /// Judged by the card it turns up, the ways on counted or not, the advice is legal in
    /// every world the player cannot tell from the real one, shows something only with its
    /// last move, and is the same whatever lies face down and in the stock (the hidden cards
    /// dealt anew).
    #[test]
    fn the_reveal_advice_is_legal_in_every_world_and_reads_no_hidden_card() {
        let mut judged = 0;
        for (i, state) in positions().into_iter().enumerate() {
            let view = View::of(&state);
            let effort = Effort {
                reveal_options: i32::from(i % 2 == 1) * 8,
                ..effort(state.suits)
            };
            let found = quiet::search(
                view.plain_world(),
                &FxHashSet::default(),
                effort.quiet,
                effort.layer,
                &effort.weights,
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
