//! Runs the orbit pass alone (the solver's research notes):
//!
//! `cargo run --release -p castle-lab --bin orbitlab -- streets-and-alleys 8050 [CAP [GIB]]`
//! prints how it ended, its expansions and its time (no bound but CAP expansions and GIB GiB of
//! memory, default none: at the memory bound the pass ends undecided).
//!
//! The soak against the plain pass on random endgames is a test run by hand: `ORBIT_SOAK="SEED
//! TRIES" cargo test --release -- --ignored soak`.

use std::time::Instant;

use castle::castle::deal::Deal;
use castle::castle::orbits::orbit_pass;
use castle::castle::variant::Variant;
use castle::solver::budget::{Budget, Deadline, Watch};
use castle::solver::heap::Memory;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::from_id(&args[1]).expect("variant");
    let number: u64 = args[2].parse().expect("deal");
    let cap: u64 = args.get(3).map_or(u64::MAX, |c| c.parse().expect("cap"));
    let memory: usize = args
        .get(4)
        .map_or(usize::MAX, |g| g.parse::<usize>().expect("GiB") << 30);
    let deal = Deal::from_number(variant, number).expect("deal number");
    let budget = Budget {
        max_states: None,
        deadline: Deadline::NONE,
        memory: Memory::from_now(memory),
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
