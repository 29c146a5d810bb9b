//! The shortest line through the positions of a winning line, for either game: a breadth-first
//! search over those positions, where any legal move from one of them to another is an edge.
//! Loops (a position reached twice) and detours (a position reached later that one move would
//! have reached) drop out. Every move of the result is legal where it is played, and the result
//! ends where the line ends, so it still wins.

use std::collections::VecDeque;
use std::hash::Hash;
use std::mem::size_of;

use rustc_hash::FxHashMap;

use super::heap::map_bytes;

/// A game as the walk reads a line of it, implemented by its deal: the positions, keyed with
/// their columns in place (moves name columns by place), and the legal moves between them.
pub trait Game {
    type State;
    /// A position with its columns in place: a line can be millions of moves, so keys, not
    /// states, are kept for each of its positions.
    type Key: Copy + Eq + Hash;
    type Move: Copy;

    /// The deal's position.
    fn start(&self) -> Self::State;
    /// The position a key stands for.
    fn decode(&self, key: &Self::Key) -> Self::State;
    fn key(state: &Self::State) -> Self::Key;
    /// Every legal move from `state`, in the order the Python reference makes them, added to
    /// `out`.
    fn legal(state: &Self::State, out: &mut Vec<Self::Move>);
    /// Makes the legal move `m`.
    fn play(state: &mut Self::State, m: Self::Move);
    /// The key of the position the legal move `m` leads to, `state` (whose key is `key`)
    /// left as it was.
    fn key_after(state: &mut Self::State, key: &Self::Key, m: Self::Move) -> Self::Key;
}

/// The shortest line through the positions of `moves`, a winning line from `deal`:
/// breadth-first from the deal, positions in the order the queue meets them and moves in
/// [`Game::legal`] order, so that the result is the same in the Python reference.
pub fn shortest_through<G: Game>(deal: &G, moves: &[G::Move]) -> Vec<G::Move> {
    // The line's positions, and where each first occurs (sized up front, so that `bytes`
    // knows what they take).
    let n = moves.len() + 1;
    let mut state = deal.start();
    let mut positions = Vec::with_capacity(n);
    positions.push(G::key(&state));
    for &m in moves {
        G::play(&mut state, m);
        positions.push(G::key(&state));
    }
    drop(state);
    let mut index: FxHashMap<G::Key, usize> =
        FxHashMap::with_capacity_and_hasher(n, Default::default());
    for (i, &key) in positions.iter().enumerate() {
        index.entry(key).or_insert(i);
    }
    let goal = index[&positions[n - 1]];
    let mut came_from: Vec<Option<(usize, G::Move)>> = vec![None; n];
    let mut reached = vec![false; n];
    reached[0] = true;
    let mut queue = VecDeque::with_capacity(n);
    queue.push_back(0usize);
    // Storage for each position's moves, kept from one to the next.
    let mut legal = Vec::new();
    while let Some(i) = queue.pop_front() {
        if i == goal {
            break;
        }
        let mut state = deal.decode(&positions[i]);
        legal.clear();
        G::legal(&state, &mut legal);
        for &m in &legal {
            if let Some(&j) = index.get(&G::key_after(&mut state, &positions[i], m)) {
                if !reached[j] {
                    reached[j] = true;
                    came_from[j] = Some((i, m));
                    queue.push_back(j);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut at = goal;
    while let Some((before, m)) = came_from[at] {
        out.push(m);
        at = before;
    }
    out.reverse();
    out
}

/// At most the bytes a line of `moves` moves takes through [`shortest_through`] (one position
/// at a time aside): each position's key in the list and in the map, where it was reached
/// from, the queue; the line that comes out (grown by doubling); a page for the rest.
pub fn bytes<K, M>(moves: usize) -> usize {
    let n = moves + 1;
    let each = size_of::<K>()
        + size_of::<Option<(usize, M)>>()
        + size_of::<bool>()
        + size_of::<usize>()
        + 3 * size_of::<M>();
    n * each + map_bytes::<(K, usize)>(n) + 4096
}
