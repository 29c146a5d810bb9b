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

/// A game's moves between positions, as the walk takes them.
pub trait Edges {
    /// A position with its columns in place (moves name columns by place).
    type Key: Copy + Eq + Hash;
    type Move: Copy;

    /// Calls `edge` with each legal move from the position `from` stands for, in the order the
    /// Python reference makes them, and the key of the position the move reaches.
    fn edges(&mut self, from: &Self::Key, edge: impl FnMut(Self::Move, &Self::Key));
}

/// The shortest line through `positions` (a line's positions in order, the deal first, at
/// least one): breadth-first from the deal, positions in the order the queue meets them and
/// moves in `edges` order, so that the result is the same in the Python reference.
pub fn shortest_through<E: Edges>(edges: &mut E, positions: &[E::Key]) -> Vec<E::Move> {
    // Where each position first occurs (sized up front, so that `bytes` knows what it takes).
    let n = positions.len();
    let mut index: FxHashMap<E::Key, usize> =
        FxHashMap::with_capacity_and_hasher(n, Default::default());
    for (i, &key) in positions.iter().enumerate() {
        index.entry(key).or_insert(i);
    }
    let goal = index[&positions[n - 1]];
    let mut came_from: Vec<Option<(usize, E::Move)>> = vec![None; n];
    let mut reached = vec![false; n];
    reached[0] = true;
    let mut queue = VecDeque::with_capacity(n);
    queue.push_back(0usize);
    while let Some(i) = queue.pop_front() {
        if i == goal {
            break;
        }
        edges.edges(&positions[i], |m, key| {
            if let Some(&j) = index.get(key) {
                if !reached[j] {
                    reached[j] = true;
                    came_from[j] = Some((i, m));
                    queue.push_back(j);
                }
            }
        });
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

/// At most the bytes a line of `moves` moves takes through [`shortest_through`], its list of
/// positions (the caller's, sized up front) included: each position's key in the list and in
/// the map, where it was reached from, the queue; the line that comes out (grown by doubling);
/// a page for the rest.
pub fn bytes<K, M>(moves: usize) -> usize {
    let n = moves + 1;
    let each = size_of::<K>()
        + size_of::<Option<(usize, M)>>()
        + size_of::<bool>()
        + size_of::<usize>()
        + 3 * size_of::<M>();
    n * each + map_bytes::<(K, usize)>(n) + 4096
}
