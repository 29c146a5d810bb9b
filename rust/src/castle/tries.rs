//! The complete pass's tries, and when they run: as the walk's table grows (at [`ORBITS_AFTER`]
//! positions, then at each fourfold growth) the walk pauses ([`walk_with_tries`]) and other
//! searches are tried from the deal: the orbit pass
//! (`orbits.rs`), whose "no" is a proof long before the walk could give one, then the plain
//! walk (`walk.rs`'s `plain_walk`), the walk in fc-solve's order, which wins early some deals the walk's own
//! order wins late, then a beam (`beam.rs`), whose order, guided by how near a win each
//! position looks, meets some wins hundreds of times sooner than the walk's depth-first order.
//! Each try may spend a share of what the table holds, so that a late proof pays little for
//! the others and a late win little for the orbits; the beams grow wider from try to try, as a
//! wider beam finds wins a narrower one runs dry before (the solver's research notes). On the hardest deals
//! (a table past [`PLAIN_LATE`]) the plain walk comes back as the walk's equal: a second order
//! of the same search, each finding wins the other passes by. The walk then goes on where it
//! stopped: the answer stays the complete pass's, a win or a proof, whichever comes first.
//! When the table is full, before the layers, the last tries are beams alone
//! ([`Tries::make_last`]).

use super::beam::beam_search;
use super::deal::Deal;
use super::keys::Exact;
use super::moves::Move;
use super::orbits::{orbit_pass, Orbital};
use super::walk::{plain_walk, Walk, Walked};
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::Stop;

#[cfg(any(doc, test))]
use super::orbits::ORBITS_AFTER;

/// The table grows this many times over from one tries to the next.
const GROWTH: u64 = 4;

/// The orbit pass may expand a position for every this many in the table: with its next try
/// at four times the table, all its tries take at most a twelfth of the table's count of
/// expansions. An orbit expansion costs about twenty depth-first ones: at a quarter (a third
/// in all), the tries were most of a late win's time (Streets and Alleys 9576: 9.6 s, its
/// walk alone 2.8 s; the solver's research notes).
const ORBIT_SHARE: u64 = 16;

/// The beams may expand a position for every this many in the table (a beam's expansion costs
/// about eight depth-first ones: all its children made, keyed and ranked).
const BEAM_SHARE: u64 = 8;

/// The first beam's width, at most. A beam that runs dry is followed by one twice as wide (a
/// wider beam wins some deals a narrower one runs dry before, and others not: the widths that
/// won the late wins measured were anywhere from 1,000 to 100,000).
const FIRST_WIDTH: usize = 1_000;

/// A beam runs dry or wins within about a hundred expansions a unit of its width (its depth).
/// The first is at most the second tries' share (four times the first) over this wide: the
/// first share may cut it off, and it is tried again there. Narrowed to fit the first share
/// instead, it would be a quarter as wide at the tries' first size (2^17), and the widths
/// that win the late wins would be passed over as the narrow beams run dry and double.
const DEPTHS: u64 = 64;

/// A beam still going after this many expansions a unit of its width wanders (the beams of
/// 256,000 measured on Beleaguered Castle's hardest deals won within 70 and ran dry within
/// 170): one twice as wide follows it, as one run dry.
const WANDERS: u64 = 256;

/// The plain walk may expand two positions for every one in the table: at the first tries
/// (2^17), as many as [`PLAIN_MOST`], so that a deal it wins within that is won there, at
/// about half a million expansions of the whole solve.
const PLAIN_SHARE: u64 = 2;

/// The plain walk's expansions, at most: fc-solve's default search stops at 200,000
/// positions, and the plain walk, which makes the same search, wins what that wins within
/// about as many (the solver's research notes). It starts again from the deal at each tries, with the
/// greater share, until once it has had this many.
const PLAIN_MOST: u64 = 1 << 18;

/// From a table this large on, the plain walk is made again at each tries, from the deal,
/// within as many expansions as the table holds. Past every deal of 1-10000 at 10 s (the
/// largest took 20.5 million states), so it costs them nothing; a harder deal pays the table's
/// size again at each tries (10-24 s of CPU on the late wins measured), and the plain walk wins
/// what the walk's order passes by: Streets and Alleys 48888, in 24 million expansions, which
/// the walk had not won in 4.4 billion (the solver's research notes).
const PLAIN_LATE: u64 = 1 << 25;

/// When the complete pass's tries are due, the width its next beam tries, and whether the
/// plain walk may be made again (it has not run dry or out of memory) and has had its most
/// before [`PLAIN_LATE`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Tries {
    at: u64,
    width: usize,
    plain: bool,
    plain_had_most: bool,
    made: bool,
}

impl Tries {
    /// Tries first due when the table holds `at` positions (never: `u64::MAX`).
    pub(super) fn from(at: u64) -> Tries {
        let affords =
            usize::try_from(at.saturating_mul(GROWTH) / BEAM_SHARE / DEPTHS).unwrap_or(usize::MAX);
        Tries {
            at,
            width: affords.clamp(1, FIRST_WIDTH),
            plain: true,
            plain_had_most: false,
            made: false,
        }
    }

    /// Whether the tries are due, the table holding `positions` (the next then at
    /// [`GROWTH`] times as many).
    #[inline]
    pub(super) fn due(&mut self, positions: u64) -> bool {
        if positions < self.at {
            return false;
        }
        self.at = self.at.saturating_mul(GROWTH);
        self.made = true;
        true
    }

    /// The plain walk's share at tries with `positions` in the table, if it is to be made:
    /// twice the table, up to [`PLAIN_MOST`] once; from [`PLAIN_LATE`] on, the table.
    fn plain_share(&self, positions: u64) -> Option<u64> {
        if !self.plain {
            None
        } else if positions >= PLAIN_LATE {
            Some(positions)
        } else if !self.plain_had_most {
            Some(positions.saturating_mul(PLAIN_SHARE).min(PLAIN_MOST))
        } else {
            None
        }
    }

    /// Makes the tries due with `positions` in the table: the end of the pass if one decided
    /// the deal (a proof, a win) or a limit of the whole solve stopped it, else None, and the
    /// walk goes on. The orbit pass; the plain walk, until it wins or its share is spent; then
    /// beams, each run dry followed by one twice as wide, until one wins or their share is
    /// spent. The plain walk and a beam cut off by the share are tried again, from the start,
    /// at the next tries (with four times the share; the plain walk not after its most until
    /// the table is past [`PLAIN_LATE`]); one that runs out of memory (its own tables, given
    /// back when it ends) gives way to the walk, and the plain walk is not made again then,
    /// nor after it runs out of moves.
    pub(super) fn make(
        &mut self,
        positions: u64,
        deal: &Deal,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> Option<End<Move>> {
        match orbit_pass(deal, budget, positions / ORBIT_SHARE, expanded, watch) {
            Orbital::Exhausted => return Some(End::Exhausted),
            Orbital::Limit(why) => return Some(End::Limit(why)),
            Orbital::Undecided => {}
        }
        if let Some(most) = self.plain_share(positions) {
            match plain_walk(deal, &share(budget, most, *expanded), expanded, watch) {
                End::Won(path) => return Some(End::Won(path)),
                End::Exhausted | End::Limit(Stop::Memory) => self.plain = false,
                End::Limit(Stop::States) if by_share(budget, *expanded) => {
                    self.plain_had_most |= most >= PLAIN_MOST;
                }
                End::Limit(why) => return Some(End::Limit(why)),
            }
        }
        self.beams(deal, positions / BEAM_SHARE, budget, expanded, watch)
    }

    /// The last tries, when the table is full at `positions` and its room given back, before
    /// the layers: the table will not grow to the next tries, so their beams are made now,
    /// within the share those would have had ([`GROWTH`] times this table's). Beams alone:
    /// the layers are the proof, and the beams win what they do within minutes where the
    /// layers take hours (Beleaguered Castle 100425: unknown after 28 minutes of the
    /// solve at 18 GiB, won by the last tries' third beam at 4 GiB in 258 s; the solver's
    /// research notes). Only after tries were made: a table full before its first tries is a
    /// small bound's (or the tests', the tries off).
    pub(super) fn make_last(
        &mut self,
        positions: u64,
        deal: &Deal,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> Option<End<Move>> {
        if !self.made {
            return None;
        }
        let most = positions.saturating_mul(GROWTH) / BEAM_SHARE;
        self.beams(deal, most, budget, expanded, watch)
    }

    /// Beams, each run dry (or wandering past [`WANDERS`] expansions a unit of its width)
    /// followed by one twice as wide, until one wins or `most` expansions are spent: the end
    /// of the pass if one won or a limit of the whole solve stopped them, else None (a beam
    /// cut off by the share is tried again, from the start, at the next tries; one out of
    /// memory gives way).
    fn beams(
        &mut self,
        deal: &Deal,
        most: u64,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> Option<End<Move>> {
        // All the beams' share, and each beam's within it.
        let beams = share(budget, most, *expanded);
        loop {
            let wander = (self.width as u64).saturating_mul(WANDERS);
            let beam = share(&beams, wander, *expanded);
            match beam_search(deal, self.width, usize::MAX, &beam, expanded, watch) {
                End::Won(path) => return Some(End::Won(path)),
                End::Exhausted => self.width = self.width.saturating_mul(2),
                End::Limit(Stop::States) if by_share(&beams, *expanded) => {
                    self.width = self.width.saturating_mul(2)
                }
                End::Limit(Stop::Memory) => return None,
                End::Limit(Stop::States) if by_share(budget, *expanded) => return None,
                End::Limit(why) => return Some(End::Limit(why)),
            }
        }
    }
}

/// A share of `most` of the whole solve's expansions from `expanded`: cut off at the solve's
/// own limit.
fn share(budget: &Budget, most: u64, expanded: u64) -> Budget {
    let until = expanded.saturating_add(most);
    Budget {
        max_states: Some(budget.max_states.map_or(until, |most| most.min(until))),
        deadline: budget.deadline,
        memory: budget.memory,
    }
}

/// Whether a try stopped at `expanded` was cut off by its share, not by the solve's limit.
fn by_share(budget: &Budget, expanded: u64) -> bool {
    budget.max_states.is_none_or(|most| expanded < most)
}

/// The complete pass's walk of `deal` with its tries: the walk goes on until its table holds
/// the positions at which the tries are next due, then the tries are made, and the walk goes
/// on where it paused unless they ended the pass. The end of the pass: the walk's, or the
/// tries' (a proof, a win, a limit of the whole solve).
pub(super) fn walk_with_tries(
    deal: &Deal,
    walk: &mut Walk<Exact>,
    tries: &mut Tries,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    loop {
        match walk.run(budget, expanded, watch, tries.at) {
            Walked::Ended(end) => return end,
            Walked::Paused => {
                let positions = walk.entered();
                debug_assert_eq!(positions, walk.keys.len() as u64);
                if tries.due(positions) {
                    if let Some(end) = tries.make(positions, deal, budget, expanded, watch) {
                        return end;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::layers::Overflow;
    use super::super::moves::replays_to_win;
    use super::super::search::complete_pass;
    use super::super::variant::Variant;
    use super::*;

    /// The complete pass of `deal` with its tries from `after` positions on: how it ended,
    /// and its expansions.
    fn complete(deal: &Deal, after: u64) -> (End<Move>, u64) {
        let overflow = Overflow {
            orbits_after: Some(after),
            ..Overflow::default()
        };
        complete_pass(deal, Some(1_000_000), 1 << 30, &overflow, &mut || false)
    }

    /// Beleaguered Castle 2823: the walk alone has not won within 200,000 positions (it wins
    /// after 4.9 million); the plain walk, with the tries from 1,000 positions on, wins at the
    /// second tries (its share 8,000, its win at 1,190), and its win replays.
    #[test]
    fn the_plain_walk_wins_what_the_walk_wins_late() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 2823).unwrap();
        let overflow = Overflow {
            orbits_after: Some(u64::MAX),
            ..Overflow::default()
        };
        let (alone, _) = complete_pass(&deal, Some(200_000), 1 << 30, &overflow, &mut || false);
        assert_eq!(alone, End::Limit(Stop::States));
        let (tried, states) = complete(&deal, 1_000);
        let End::Won(moves) = tried else {
            panic!("{tried:?}");
        };
        assert!(replays_to_win(&deal, &moves));
        assert!(states < 5_000, "{states}");
    }

    /// A budget for the tries alone, of the whole memory.
    fn free() -> Budget {
        Budget {
            max_states: None,
            deadline: crate::solver::budget::Deadline::NONE,
            memory: crate::solver::heap::Memory::from_now(1 << 30),
        }
    }

    /// Beleaguered Castle 405: the walk alone wins after 35,275 positions; a try's beams (the
    /// plain walk left out: it wins this deal sooner still) win within a share of 2,000, and
    /// the win replays: the tries at 16,000, and the last tries with the table full at 4,000
    /// (the share the next tries would have had), these only once tries were made.
    #[test]
    fn a_tries_beam_wins_what_the_walk_wins_late() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 405).unwrap();
        let mut interrupted = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
        for last in [false, true] {
            let mut tries = Tries {
                plain: false,
                ..Tries::from(1_000)
            };
            let mut expanded = 0;
            let tried = if last {
                let before = tries.make_last(4_000, &deal, &free(), &mut expanded, &mut watch);
                assert_eq!((before, expanded), (None, 0));
                assert!(tries.due(1_000));
                tries.make_last(4_000, &deal, &free(), &mut expanded, &mut watch)
            } else {
                tries.make(16_000, &deal, &free(), &mut expanded, &mut watch)
            };
            let Some(End::Won(moves)) = tried else {
                panic!("{tried:?}");
            };
            assert!(replays_to_win(&deal, &moves));
            assert!(expanded <= 16_000 / ORBIT_SHARE + 16_000 / BEAM_SHARE);
        }
    }

    /// A beam that goes on past [`WANDERS`] expansions a unit of its width gives way to one
    /// twice as wide: Beleaguered Castle 100425's beam of 1,000 neither wins nor runs dry
    /// within 256,000 (the tries' beams stayed that narrow up to a table of 2^25 before).
    #[test]
    fn a_wandering_beam_gives_way_to_a_wider_one() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 100425).unwrap();
        let mut interrupted = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
        let mut tries = Tries {
            plain: false,
            ..Tries::from(1 << 20)
        };
        assert_eq!(tries.width, FIRST_WIDTH);
        let wander = FIRST_WIDTH as u64 * WANDERS;
        let alone = Budget {
            max_states: Some(wander),
            ..free()
        };
        let mut expanded = 0;
        let beam = beam_search(
            &deal,
            FIRST_WIDTH,
            usize::MAX,
            &alone,
            &mut expanded,
            &mut watch,
        );
        assert_eq!((beam, expanded), (End::Limit(Stop::States), wander));
        let mut expanded = 0;
        let most = wander + 1_000;
        assert_eq!(
            tries.beams(&deal, most, &free(), &mut expanded, &mut watch),
            None
        );
        assert_eq!(tries.width, 2 * FIRST_WIDTH);
        assert_eq!(expanded, most);
    }

    /// The plain walk is made again at each tries, from the deal, within twice the table,
    /// until it has once had [`PLAIN_MOST`] expansions; after that the tries spend no more on
    /// it before [`PLAIN_LATE`]. (Beleaguered Castle 26984, which no try wins at these sizes:
    /// tries with the plain walk and without it differ by its share alone.)
    #[test]
    fn the_plain_walk_is_made_again_until_its_most() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 26984).unwrap();
        let mut interrupted = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
        let (mut with, mut without) = (Tries::from(0), Tries::from(0));
        without.plain = false;
        for (positions, plain, again) in [
            (1_000, 2_000, true),
            (PLAIN_MOST / 4, PLAIN_MOST / 2, true),
            (PLAIN_MOST, PLAIN_MOST, false),
            (PLAIN_MOST, 0, false),
        ] {
            let (mut a, mut b) = (0, 0);
            assert_eq!(
                with.make(positions, &deal, &free(), &mut a, &mut watch),
                None
            );
            assert_eq!(
                without.make(positions, &deal, &free(), &mut b, &mut watch),
                None
            );
            assert_eq!(
                (a - b, with.plain_share(positions * 4).is_some()),
                (plain, again),
                "{positions}"
            );
        }
    }

    /// From [`PLAIN_LATE`] on, the plain walk is made again at each tries within the table's
    /// size, after its early most or not; never once it has run dry or out of memory.
    #[test]
    fn the_plain_walk_comes_back_on_the_hard_deals() {
        let mut tries = Tries::from(0);
        assert_eq!(tries.plain_share(1_000), Some(2_000));
        tries.plain_had_most = true;
        assert_eq!(tries.plain_share(PLAIN_MOST), None);
        assert_eq!(tries.plain_share(PLAIN_LATE / 4), None);
        assert_eq!(tries.plain_share(PLAIN_LATE), Some(PLAIN_LATE));
        assert_eq!(tries.plain_share(4 * PLAIN_LATE), Some(4 * PLAIN_LATE));
        tries.plain = false;
        assert_eq!(tries.plain_share(PLAIN_LATE), None);
    }

    /// Streets and Alleys 48888, which the walk had not won in 4.4 billion positions: the
    /// plain walk wins it within the share the tries give it at [`PLAIN_LATE`] (in 23,972,927
    /// expansions), and its win replays.
    #[test]
    fn the_plain_walk_wins_a_deal_the_walk_passes_by() {
        let deal = Deal::from_number(Variant::StreetsAndAlleys, 48888).unwrap();
        let budget = Budget {
            max_states: Some(PLAIN_LATE),
            deadline: crate::solver::budget::Deadline::NONE,
            memory: crate::solver::heap::Memory::from_now(4 << 30),
        };
        let mut interrupted = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
        let mut expanded = 0;
        let End::Won(moves) = plain_walk(&deal, &budget, &mut expanded, &mut watch) else {
            panic!("no win within {expanded}");
        };
        assert!(replays_to_win(&deal, &moves));
        assert_eq!(expanded, 23_972_927);
    }

    /// Due at the first size, then at each fourfold growth.
    #[test]
    fn tries_are_due_at_each_fourfold_growth() {
        let mut tries = Tries::from(100);
        assert!(!tries.due(99));
        assert!(tries.due(100));
        assert!(!tries.due(399));
        assert!(tries.due(400));
        assert!(!tries.due(1_000));
    }

    /// The first beam as wide as the second tries' share affords, up to 1,000.
    #[test]
    fn the_first_beam_fits_the_second_share() {
        assert_eq!(Tries::from(ORBITS_AFTER).width, FIRST_WIDTH);
        assert_eq!(Tries::from(1 << 15).width, 256);
        assert_eq!(Tries::from(100).width, 1);
        assert_eq!(Tries::from(u64::MAX).width, FIRST_WIDTH);
    }

    /// A beam that runs dry is followed by one twice as wide, within the share; one cut off
    /// by the share is tried again at the next tries.
    #[test]
    fn a_beam_run_dry_gives_way_to_a_wider_one() {
        // Beleaguered Castle 26984: beams of 1,000 (43,190 expansions) and 2,000 run dry.
        let deal = Deal::from_number(Variant::BeleagueredCastle, 26984).unwrap();
        let budget = Budget {
            max_states: None,
            deadline: crate::solver::budget::Deadline::NONE,
            memory: crate::solver::heap::Memory::from_now(1 << 30),
        };
        let mut interrupted = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
        let mut tries = Tries {
            at: 0,
            width: FIRST_WIDTH,
            plain: false,
            plain_had_most: false,
            made: false,
        };
        let mut expanded = 0;
        // The orbit pass and the beams each get nothing: the beam of 1,000 is cut off.
        assert_eq!(
            tries.make(0, &deal, &budget, &mut expanded, &mut watch),
            None
        );
        assert_eq!(tries.width, FIRST_WIDTH);
        // A share of 100,000 (the orbit pass may spend 200,000 of 800,000 positions).
        let before = expanded;
        assert_eq!(
            tries.make(800_000, &deal, &budget, &mut expanded, &mut watch),
            None
        );
        assert!(tries.width >= 2 * FIRST_WIDTH, "{}", tries.width);
        assert!(expanded - before <= 300_000);
    }
}
