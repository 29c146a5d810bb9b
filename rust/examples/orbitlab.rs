//! Runs the orbit pass alone (issue 18, idea 5; docs/proofs.md):
//!
//! `cargo run --release --example orbitlab -- streets-and-alleys 8050 [CAP]`
//! prints how it ended, its expansions and its time (no bound but CAP expansions, default none).
//!
//! `... orbitlab -- soak SEED N LOW HIGH` deals N endgames at random (LOW to HIGH cards left,
//! three to six columns) and checks the orbit pass against the plain complete pass on each: it
//! must never call a won one lost; it prints the counts.

use std::time::Instant;

use castle::castle::deal::{endgame, Deal};
use castle::castle::layers::Overflow;
use castle::castle::orbits::{orbit_pass, Orbital};
use castle::castle::search::complete_pass;
use castle::castle::variant::Variant;
use castle::solver::budget::End;
use castle::solver::budget::{Budget, Deadline, Watch};
use castle::solver::heap::Memory;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args[1] == "soak" {
        let arg = |i: usize| -> u64 { args[i].parse().expect("a number") };
        soak(arg(2), arg(3), arg(4) as usize, arg(5) as usize);
        return;
    }
    let variant = Variant::from_id(&args[1]).expect("variant");
    let number: u64 = args[2].parse().expect("deal");
    let cap: u64 = args.get(3).map_or(u64::MAX, |c| c.parse().expect("cap"));
    let deal = Deal::from_number(variant, number).expect("deal number");
    let budget = Budget {
        max_states: None,
        deadline: Deadline::NONE,
        memory: Memory::from_now(usize::MAX),
    };
    let mut interrupted = || false;
    let started = Instant::now();
    let mut watch = Watch::new(started, &mut interrupted);
    let mut expanded = 0;
    let end = orbit_pass(&deal, &budget, cap, &mut expanded, &mut watch);
    println!(
        "{} {number}: {end:?}, {expanded} expansions, {:.2} s",
        args[1],
        started.elapsed().as_secs_f64()
    );
}

fn alone(deal: &Deal, cap: u64) -> (Orbital, u64) {
    let budget = Budget {
        max_states: None,
        deadline: Deadline::NONE,
        memory: Memory::from_now(usize::MAX),
    };
    let mut interrupted = || false;
    let mut watch = Watch::new(Instant::now(), &mut interrupted);
    let mut expanded = 0;
    let end = orbit_pass(deal, &budget, cap, &mut expanded, &mut watch);
    (end, expanded)
}

fn soak(mut seed: u64, n: u64, low: usize, high: usize) {
    let mut next = |k: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % k
    };
    let overflow = Overflow {
        orbits_after: Some(u64::MAX),
        ..Overflow::default()
    };
    let (mut won, mut lost, mut proved, mut open) = (0, 0, 0, 0);
    let (mut plain_states, mut orbit_states) = (0, 0);
    let mut tried = 0;
    while tried < n {
        let mut foundations = [0u8; 4];
        for f in foundations.iter_mut() {
            *f = 2 + next(12) as u8;
        }
        let left = 52 - foundations.iter().map(|&f| f as usize).sum::<usize>();
        if !(low..=high).contains(&left) {
            continue;
        }
        tried += 1;
        let variant = [Variant::BeleagueredCastle, Variant::StreetsAndAlleys][tried as usize % 2];
        let ncols = 3 + next(4) as usize;
        let deal = endgame(variant, foundations, ncols, &mut next);
        let (exact, states) =
            complete_pass(&deal, Some(3_000_000), usize::MAX, &overflow, &mut || false);
        let (orbital, expanded) = alone(&deal, 3_000_000);
        match exact {
            End::Won(_) => {
                assert_ne!(
                    orbital,
                    Orbital::Exhausted,
                    "{}",
                    castle::castle::board::format(&deal)
                );
                won += 1;
            }
            End::Exhausted => {
                lost += 1;
                if orbital == Orbital::Exhausted {
                    proved += 1;
                    plain_states += states;
                    orbit_states += expanded;
                }
            }
            End::Limit(_) => open += 1,
        }
    }
    println!(
        "{n} endgames of {low}-{high} cards: {won} won, {lost} lost ({proved} proved by orbits, \
         {orbit_states} expansions against {plain_states}), {open} open to the plain pass"
    );
}
