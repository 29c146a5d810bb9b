//! The moves a player can plan without learning anything: those that turn no card up and deal
//! nothing. Their outcome does not depend on the hidden cards, so a search over them (breadth
//! first, or a beam that keeps the nearest-looking positions of each depth), from one world, is
//! the same search in every world. Each way out of that space (a move that turns a card up, or
//! the deal) is an [`Exit`]: the fair player chooses among them.

use super::super::deal::{COLUMNS, RUN};
use super::super::estimate::{position_hash, Parent, Weights};
use super::super::moves::{apply, generate, SpiderMove};
use super::super::state::SpiderState;
#[cfg(doc)]
use super::view::View;
use crate::solver::sort::sort_by_estimate;
use rustc_hash::FxHashSet;

/// What an exit shows the player: the card under column `c` (`Column(c)`), or a new row from
/// the stock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shows {
    Column(u8),
    Deal,
}

/// Quiet moves, then the move that shows something (the last of `moves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    pub moves: Vec<SpiderMove>,
    pub shows: Shows,
    /// How far the position the exit reaches looks from a win (lower is nearer): the estimate
    /// after the move that turns a card up (the card itself is not read: it lies alone, face
    /// up), or before the deal.
    pub near: i32,
}

/// What the quiet search found: a win made of quiet moves, or the best exit for each thing
/// that can be shown (by [`Exit::near`], then by fewer moves).
#[derive(Clone, Debug, Default)]
pub struct Quiet {
    pub won: Option<Vec<SpiderMove>>,
    pub exits: Vec<Exit>,
}

/// What a move out of `state` shows, if anything.
pub fn shows(state: &SpiderState, m: SpiderMove) -> Option<Shows> {
    let (column, count) = match m {
        SpiderMove::Deal => return Some(Shows::Deal),
        SpiderMove::Run { from, count, .. } => (from, count as usize),
        SpiderMove::Off { column } => (column, RUN),
    };
    let col = &state.cols[column as usize];
    (col.down > 0 && col.cards.len() - count == col.down).then_some(Shows::Column(column))
}

/// How far the quiet search looks, breadth first, when the first search finds no way on,
/// before the player says that no move helps.
pub const WIDER: usize = 100_000;

/// The most positions the quiet search makes room for at once (more, and its set grows).
const RESERVED: usize = 1 << 17;

/// A position the search goes on from: the node it came from and the move from there.
struct Node {
    parent: usize,
    mv: Option<SpiderMove>,
}

fn path(nodes: &[Node], mut at: usize) -> Vec<SpiderMove> {
    let mut moves = Vec::new();
    while let Some(m) = nodes[at].mv {
        moves.push(m);
        at = nodes[at].parent;
    }
    moves.reverse();
    moves
}

/// The quiet search from `start`, over at most `most` positions, never entering a position of
/// `visited` (where the game has been: going back there is a loop), positions told apart by
/// [`position_hash`] (a collision can only keep the search out of a position, never lead it
/// back into one). Breadth first, so each exit is reached by as few moves as any; with
/// `layer_width` above 0, only that many positions that look nearest a win go on from each
/// depth (a beam: deeper for the same positions). It reads no face-down card and nothing in
/// the stock: the fair player runs it on [`View::plain_world`].
pub fn search(
    start: SpiderState,
    visited: &FxHashSet<u64>,
    most: usize,
    layer_width: usize,
    weights: &Weights,
) -> Quiet {
    let mut found = Quiet::default();
    let mut best: [Option<Exit>; COLUMNS + 1] = std::array::from_fn(|_| None);
    // Room for every position it may reach: the set never grows by copying itself.
    let mut seen: FxHashSet<u64> =
        FxHashSet::with_capacity_and_hasher(most.min(RESERVED), Default::default());
    seen.insert(position_hash(&start));
    let mut nodes = vec![Node {
        parent: usize::MAX,
        mv: None,
    }];
    let mut layer = vec![(0usize, start)];
    let mut next = Vec::new();
    let mut moves = Vec::new();
    // A beam's children as they come: (estimate, index in the layer, move); ranked, and the
    // first `layer_width` made. Their storage is kept from layer to layer.
    let mut children: Vec<(i32, usize, SpiderMove)> = Vec::new();
    let (mut scratch, mut counts) = (Vec::new(), Vec::new());
    // The last layer's positions, copied over for the next one's: no allocation per position.
    let mut spare: Vec<SpiderState> = Vec::new();
    while !layer.is_empty() && found.won.is_none() {
        children.clear();
        // A child's estimate and key come from its parent's columns: a child is made (the
        // move made on a copy) only when it goes on.
        for (i, (node, state)) in layer.iter_mut().enumerate() {
            let node = *node;
            let parent = Parent::new(state, weights);
            moves.clear();
            generate(state, true, &mut moves);
            for &m in &moves {
                if let Some(what) = shows(state, m) {
                    // Only an exit is ranked as it is found. The deal is ranked before it is
                    // made: what it deals is not known.
                    let near = if m == SpiderMove::Deal {
                        parent.near(state, weights)
                    } else {
                        parent.child(state, m, weights).near
                    };
                    let slot = match what {
                        Shows::Column(c) => c as usize,
                        Shows::Deal => COLUMNS,
                    };
                    if best[slot].as_ref().is_none_or(|b| near < b.near) {
                        let mut moves = path(&nodes, node);
                        moves.push(m);
                        best[slot] = Some(Exit {
                            moves,
                            shows: what,
                            near,
                        });
                    }
                    continue;
                }
                let child = parent.child(state, m, weights);
                if child.won {
                    let mut moves = path(&nodes, node);
                    moves.push(m);
                    found.won = Some(moves);
                    break;
                }
                if seen.len() < most && !visited.contains(&child.key) && seen.insert(child.key) {
                    children.push((child.near, i, m));
                }
            }
            if found.won.is_some() {
                break;
            }
        }
        // Breadth first, every child goes on; a beam, the nearest-looking (ties in the order
        // they came).
        if layer_width > 0 && children.len() > layer_width {
            sort_by_estimate(&mut children, &mut scratch, &mut counts, |&(near, ..)| {
                i64::from(near)
            });
            children.truncate(layer_width);
        }
        for &(_, i, m) in &children {
            let (node, state) = &layer[i];
            let mut child = match spare.pop() {
                Some(mut old) => {
                    old.copy_from(state);
                    old
                }
                None => state.clone(),
            };
            apply(&mut child, m);
            nodes.push(Node {
                parent: *node,
                mv: Some(m),
            });
            next.push((nodes.len() - 1, child));
        }
        spare.extend(layer.drain(..).map(|(_, state)| state));
        std::mem::swap(&mut layer, &mut next);
    }
    found.exits = best.into_iter().flatten().collect();
    found
}

/// The quiet search from `world` (`most` positions, `layer` a depth), never into a position
/// of `visited`; when it finds no way on, again further ([`WIDER`]) and breadth first (a beam
/// may pass a way out by: five empty columns to fill before a deal took more than 5,000
/// positions), and then, when every way on passes a position played before, without
/// `visited`: going back is then the way forward.
pub fn ways_on(
    world: &SpiderState,
    visited: &FxHashSet<u64>,
    most: usize,
    layer: usize,
    weights: &Weights,
) -> Quiet {
    let look = |visited: &FxHashSet<u64>, most: usize, layer: usize| {
        search(world.clone(), visited, most, layer, weights)
    };
    let wider = most.max(WIDER);
    let mut found = look(visited, most, layer);
    if found.stuck() {
        found = look(visited, wider, 0);
    }
    if found.stuck() && visited.len() > 1 {
        found = look(&FxHashSet::default(), wider, 0);
    }
    found
}

impl Quiet {
    /// Whether the search found nothing: no quiet win and no exit.
    pub fn stuck(&self) -> bool {
        self.exits.is_empty() && self.won.is_none()
    }

    /// How many columns the exits found can turn a card up in (the deal aside).
    pub fn turn_ups(&self) -> usize {
        self.exits.iter().filter(|e| e.shows != Shows::Deal).count()
    }

    /// The exits worth judging, best-looking first, at most `most`: by [`Exit::near`], the
    /// deal only when no card can be turned up (ten cards on every column cover what could
    /// still be shown; a look-ahead that knows the stock does not see it: docs/spider.md).
    pub fn ranked(self, most: usize) -> Vec<Exit> {
        let turn_ups = self.turn_ups();
        let mut exits = self.exits;
        if turn_ups > 0 {
            exits.retain(|e| e.shows != Shows::Deal);
        }
        exits.sort_by_key(|e| e.near);
        exits.truncate(most.max(1));
        exits
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::deal::{SpiderDeal, Suits};
    use super::super::super::moves::is_legal;
    use super::super::view::View;
    use super::*;
    use crate::spider::estimate::WEIGHTS;

    /// Positions along some legal play of a few deals of each deck.
    fn positions() -> Vec<SpiderState> {
        let mut out = Vec::new();
        for (suits, number) in [(Suits::One, 5), (Suits::Two, 8), (Suits::Four, 11)] {
            let mut state =
                SpiderState::from_deal(&SpiderDeal::from_number(suits, number).unwrap());
            let mut moves = Vec::new();
            for step in 0..60 {
                out.push(state.clone());
                moves.clear();
                generate(&state, true, &mut moves);
                let Some(&m) = moves.get(step * 5 % moves.len().max(1)) else {
                    break;
                };
                apply(&mut state, m);
            }
        }
        out
    }

    /// Each exit is legal move by move in every world a player cannot tell from the real
    /// one; only its last move shows anything, and it shows what the exit says (breadth
    /// first, and with only the nearest-looking positions going on). Its estimate is the
    /// whole count of the position it reaches in the world searched (before a deal).
    #[test]
    fn an_exit_is_quiet_until_its_last_move_in_every_world() {
        for (state, layer_width) in positions()
            .into_iter()
            .flat_map(|s| [(s.clone(), 0), (s, 20)])
        {
            let view = View::of(&state);
            let found = search(
                view.plain_world(),
                &FxHashSet::default(),
                300,
                layer_width,
                &WEIGHTS,
            );
            for exit in &found.exits {
                let mut at = view.plain_world();
                for &m in exit.moves.iter().filter(|&&m| m != SpiderMove::Deal) {
                    apply(&mut at, m);
                }
                assert_eq!(exit.near, WEIGHTS.estimate(&at));
            }
            for world in view.sample_worlds(1, 3).into_iter().chain([state.clone()]) {
                for exit in &found.exits {
                    let mut at = world.clone();
                    let (last, quiet) = exit.moves.split_last().unwrap();
                    for &m in quiet {
                        assert!(is_legal(&at, m) && shows(&at, m).is_none(), "{m:?}");
                        apply(&mut at, m);
                    }
                    assert!(is_legal(&at, *last));
                    assert_eq!(shows(&at, *last), Some(exit.shows));
                }
            }
        }
    }

    /// The search never passes a position it is told the game has been in.
    #[test]
    fn the_search_enters_no_visited_position() {
        for state in positions().into_iter().step_by(7) {
            let start = View::of(&state).plain_world();
            let first = search(start.clone(), &FxHashSet::default(), 300, 0, &WEIGHTS);
            // Every position the first search's exits pass, forbidden.
            let mut visited = FxHashSet::default();
            for exit in &first.exits {
                let mut at = start.clone();
                for &m in &exit.moves[..exit.moves.len() - 1] {
                    apply(&mut at, m);
                    visited.insert(position_hash(&at));
                }
            }
            let again = search(start.clone(), &visited, 300, 0, &WEIGHTS);
            for exit in &again.exits {
                let mut at = start.clone();
                for &m in &exit.moves[..exit.moves.len() - 1] {
                    apply(&mut at, m);
                    assert!(!visited.contains(&position_hash(&at)));
                }
            }
        }
    }
}
