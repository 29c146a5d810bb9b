//! Beam searches: the search's beam pass, and the short mode. A beam search goes breadth-first,
//! one move at a time, and keeps only the `width` positions that look closest to a win at each
//! depth, so the first win it meets is short. It is not complete: a beam that runs dry proves
//! nothing. So the beam pass only looks for a win before the complete search, and the short
//! mode only improves a win the search already has.

use super::deal::Deal;
use super::moves::{generate, key_after, play, play_automatic, undo, Move, MOST_MOVES};
use super::shorten::{shorten, shorten_bytes};
use super::state::{Key, State};
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::heap::Memory;
use crate::solver::mix::mix;
use crate::solver::sort::sort_by_estimate;
use crate::solver::table::{Insert, Table};
use crate::solver::Stop;

/// The widths the short mode tries, in turn, while the budget lasts; each wider beam costs
/// about ten times the one before and rarely finds a longer win.
pub const BEAM_WIDTHS: [usize; 3] = [100, 1_000, 10_000];

/// The widths the beam pass tries, in turn, while its budget lasts.
pub const BEAM_PASS_WIDTHS: [usize; 2] = [1_000, 10_000];

/// How far `state` looks from a win (lower is closer), the beam's only guide: each card in
/// the tableau still has to go up, and a card lying above a lower card of its own suit in its
/// column has to move within the tableau first (it cannot go up before that card does, nor
/// can that card while it is covered), so it counts twice.
pub fn estimate(state: &State) -> u32 {
    let mut total = 0;
    for col in 0..state.ncols() {
        // The lowest rank of each suit met so far, going up from the bottom card.
        let mut lowest = [u8::MAX; 4];
        for card in state.column(col) {
            let suit = card.suit() as usize;
            total += if lowest[suit] < card.rank() { 2 } else { 1 };
            lowest[suit] = lowest[suit].min(card.rank());
        }
    }
    total
}

/// A position kept in the beam: the moves that reached it from its parent (the chosen move
/// and the automatic moves after it) are `moves[start..end]` of the search.
struct Node {
    parent: usize,
    start: usize,
    end: usize,
    /// Moves from the deal to it.
    len: usize,
}

/// A move out of a position in the beam, waiting to be ranked.
#[derive(Copy, Clone)]
struct Candidate {
    estimate: u32,
    /// The index of its position in the beam.
    from: usize,
    m: Move,
}

/// One beam search of `width` for a win of fewer than `bound` moves (positions that cannot
/// lead to one are dropped); `expanded` counts expansions, as in the depth-first search.
/// `End::Exhausted` means only that the beam ran dry.
pub fn beam_search(
    deal: &Deal,
    width: usize,
    bound: usize,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    let mut state = State::from_deal(deal);
    let mut played = Vec::new();
    play_automatic(&mut state, &mut played);
    if state.is_won() {
        return End::Won(played);
    }
    let memory = &budget.memory;
    let mut tree = Tree {
        nodes: vec![Node {
            parent: usize::MAX,
            start: 0,
            end: played.len(),
            len: played.len(),
        }],
        moves: played,
        kept: Table::new(*memory),
    };
    let key = state.key();
    if tree.kept.insert(fingerprint(&key)) == Insert::Full {
        return End::Limit(Stop::Memory);
    }
    let mut beam: Beam = vec![(state, key, 0)];
    let mut depth = Depth::new(memory);
    let mut next: Beam = Vec::new();
    while !beam.is_empty() {
        let ranked = depth
            .rank(&mut beam, &tree, bound, budget, expanded, watch)
            .or_else(|| depth.keep_the_best(width, memory))
            .or_else(|| tree.grow(&depth.candidates, &beam, &mut next, memory));
        if let Some(end) = ranked {
            return end;
        }
        std::mem::swap(&mut beam, &mut next);
        next.clear();
    }
    End::Exhausted
}

/// The beam: each position with its key and its node.
type Beam = Vec<(State, Key, usize)>;

/// What the beam's tables hold of a position: a 64-bit fingerprint of its 40-byte key, so that
/// a beam about twice as wide fits the same memory (a beam 256,000 wide on Streets and Alleys
/// 164093 keeps 55 million positions). Two positions with one fingerprint are taken for one:
/// over a beam of 50 million positions, about one chance in ten thousand that it happens at
/// all, and then a candidate is dropped; a beam proves nothing, and its win is replayed.
fn fingerprint(key: &Key) -> u64 {
    key.0
        .iter()
        .fold(0x243F_6A88_85A3_08D3, |hash, &word| mix(hash ^ mix(word)))
}

/// The lines of a beam search, a tree of the positions it kept (each [`Node`]'s moves in
/// `moves`), and the positions kept at some depth (their fingerprints): a later depth can only
/// reach them by a longer line.
struct Tree {
    nodes: Vec<Node>,
    moves: Vec<Move>,
    kept: Table<u64>,
}

impl Tree {
    /// The next depth: the positions the `candidates` reach from the `beam`, each kept and
    /// given its node, in `next`; the search's end if there is no room.
    fn grow(
        &mut self,
        candidates: &[Candidate],
        beam: &Beam,
        next: &mut Beam,
        memory: &Memory,
    ) -> Option<End<Move>> {
        // The next depth's positions, beside this one's until it is built.
        if !memory.reserve(next, candidates.len()) {
            return Some(End::Limit(Stop::Memory));
        }
        for c in candidates {
            if !(memory.reserve(&mut self.nodes, 1) && memory.reserve(&mut self.moves, MOST_MOVES))
            {
                return Some(End::Limit(Stop::Memory));
            }
            let (parent, parent_key, node) = &beam[c.from];
            let mut child = parent.clone();
            let start = self.moves.len();
            play(&mut child, c.m, &mut self.moves);
            let key = key_after(*parent_key, &child, &self.moves[start..]);
            if self.kept.insert(fingerprint(&key)) == Insert::Full {
                return Some(End::Limit(Stop::Memory));
            }
            self.nodes.push(Node {
                parent: *node,
                start,
                end: self.moves.len(),
                len: self.nodes[*node].len + self.moves.len() - start,
            });
            next.push((child, key, self.nodes.len() - 1));
        }
        None
    }
}

/// A depth's moves ranked: their storage kept from depth to depth, not allocated afresh.
struct Depth {
    legal: Vec<Move>,
    /// A move and the automatic moves after it, made and taken back in place.
    line: Vec<Move>,
    candidates: Vec<Candidate>,
    scratch: Vec<Candidate>,
    counts: Vec<usize>,
    /// The positions the depth's moves reach (their fingerprints), each ranked once.
    this_depth: Table<u64>,
}

impl Depth {
    fn new(memory: &Memory) -> Depth {
        Depth {
            legal: Vec::new(),
            line: Vec::new(),
            candidates: Vec::new(),
            scratch: Vec::new(),
            counts: Vec::new(),
            this_depth: Table::new(*memory),
        }
    }

    /// Each move from each position of the `beam` (taken back in place) that reaches a new
    /// position within `bound`, as a candidate; the search's end if one wins or a limit is
    /// reached.
    fn rank(
        &mut self,
        beam: &mut Beam,
        tree: &Tree,
        bound: usize,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> Option<End<Move>> {
        self.candidates.clear();
        self.this_depth.clear();
        for (from, (position, parent_key, node)) in beam.iter_mut().enumerate() {
            if let Some(why) = budget.spend(expanded, watch) {
                return Some(End::Limit(why));
            }
            if !budget.memory.reserve(&mut self.candidates, MOST_MOVES) {
                return Some(End::Limit(Stop::Memory));
            }
            self.legal.clear();
            generate(position, &mut self.legal);
            for &m in &self.legal {
                self.line.clear();
                play(position, m, &mut self.line);
                if position.is_won() {
                    let mut path = line_to(&tree.nodes, &tree.moves, *node);
                    path.extend(&self.line);
                    return Some(End::Won(path));
                }
                let key = key_after(*parent_key, position, &self.line);
                let len = tree.nodes[*node].len + self.line.len();
                let print = fingerprint(&key);
                if len + 1 < bound && !tree.kept.contains(&print) {
                    match self.this_depth.insert(print) {
                        Insert::New => self.candidates.push(Candidate {
                            estimate: estimate(position),
                            from,
                            m,
                        }),
                        Insert::Seen => {}
                        Insert::Full => return Some(End::Limit(Stop::Memory)),
                    }
                }
                for &back in self.line.iter().rev() {
                    undo(position, back);
                }
            }
        }
        None
    }

    /// The best `width` candidates, ties in the order they were met.
    fn keep_the_best(&mut self, width: usize, memory: &Memory) -> Option<End<Move>> {
        if !memory.reserve(&mut self.scratch, self.candidates.len()) {
            return Some(End::Limit(Stop::Memory));
        }
        sort_by_estimate(
            &mut self.candidates,
            &mut self.scratch,
            &mut self.counts,
            |c| i64::from(c.estimate),
        );
        self.candidates.truncate(width);
        None
    }
}

/// The shortest of `moves` and the wins of beam searches of growing width, each shortened like
/// the depth-first win; the first limit reached ends the hunt (the win in hand stands).
pub fn shortest_beam(
    deal: &Deal,
    mut moves: Vec<Move>,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> Vec<Move> {
    for width in BEAM_WIDTHS {
        match beam_search(deal, width, moves.len(), budget, expanded, watch) {
            End::Won(path) => {
                if !budget.memory.allows(shorten_bytes(path.len())) {
                    break;
                }
                let line = shorten(deal, &path);
                if line.len() < moves.len() {
                    moves = line;
                }
            }
            End::Exhausted => {}
            End::Limit(_) => break,
        }
    }
    moves
}

/// The beam pass of the search: beam searches of [`BEAM_PASS_WIDTHS`] with no length bound,
/// until one wins or the budget runs out. A beam's order is not depth-first: guided by
/// [`estimate`], it wins some deals in thousands of positions where a depth-first search
/// wanders for hundreds of millions. A beam running dry proves nothing (`End::Exhausted`).
pub fn beam_pass(deal: &Deal, budget: &Budget, expanded: &mut u64, watch: &mut Watch) -> End<Move> {
    for width in BEAM_PASS_WIDTHS {
        match beam_search(deal, width, usize::MAX, budget, expanded, watch) {
            End::Exhausted => {}
            end => return end,
        }
    }
    End::Exhausted
}

/// The moves from the deal to the position of `node`.
fn line_to(nodes: &[Node], moves: &[Move], mut node: usize) -> Vec<Move> {
    let mut pieces = Vec::new();
    while node != usize::MAX {
        pieces.push(&moves[nodes[node].start..nodes[node].end]);
        node = nodes[node].parent;
    }
    pieces.reverse();
    pieces.concat()
}

#[cfg(test)]
mod tests {
    use super::super::moves::replays_to_win;
    use super::super::search::solve;
    use super::super::variant::Variant;
    use super::*;
    use crate::cards::Card;
    use crate::solver::Limits;

    #[test]
    fn a_card_above_a_lower_card_of_its_suit_counts_twice() {
        // Two columns: 3H on 2H (3H must move first: 2 + 1), and 2S on 3S (1 + 1).
        let card = |t| Card::parse(t).unwrap();
        let deal = Deal {
            variant: Variant::BeleagueredCastle,
            number: None,
            columns: vec![vec![card("2H"), card("3H")], vec![card("3S"), card("2S")]],
            foundations: [13, 13, 1, 1],
        };
        assert_eq!(estimate(&State::from_deal(&deal)), 5);
    }

    #[test]
    fn the_short_mode_wins_in_fewer_moves() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 2).unwrap();
        let limits = Limits::states(None);
        let plain = solve(&deal, &limits, false, &Default::default(), &mut || false);
        let short = solve(&deal, &limits, true, &Default::default(), &mut || false);
        assert!(replays_to_win(&deal, &short.moves));
        assert!(short.moves.len() < plain.moves.len());
    }
}
