//! Runs the solver's own passes on one deal, for measuring the walk (the solver's research notes):
//!
//! `cargo run --release -p castle-lab --bin walklab -- walk beleaguered-castle 981` runs the
//! complete pass depth-first alone (no layers, no orbit tries) and prints its states and
//! positions a second: under callgrind, its instructions.
//!
//! `... walklab -- solve beleaguered-castle 162 [GIB]` runs the whole solve in GIB GiB of
//! memory (default 8) and prints where each pass ended: the complete pass's states are the
//! last end less the one before.
//!
//! `... walklab -- plain beleaguered-castle 1563 [MAX]` runs the plain walk alone (the walk in
//! fc-solve's order, as the complete pass's tries make it), within MAX expansions (default
//! 20 million).
//!
//! `... walklab -- beam streets-and-alleys 1740 10000 [MAX]` runs one beam search of that width
//! from the deal (as the complete pass's tries do), within MAX expansions (default 20 million).
//!
//! `... walklab -- layered streets-and-alleys 3388 DIR [GIB]` runs the exact layered pass alone
//! from the deal (no depth-first pass, no orbits), in GIB GiB of memory (default 6), its keys
//! going on in files in DIR when memory is full: a second method for the orbit pass's proofs.

use std::time::Instant;

use castle::castle::beam::beam_search;
use castle::castle::deal::Deal;
use castle::castle::layers::{layered, Layered, Overflow};
use castle::castle::search::{complete_pass, plain_walk, solve};
use castle::castle::variant::Variant;
use castle::solver::budget::{Budget, Deadline, End, Watch};
use castle::solver::disk::Spill;
use castle::solver::heap::Memory;
use castle::solver::Limits;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let extra = match args.get(1).map(String::as_str) {
        Some("beam") => 5..=6,
        Some("layered") => 5..=6,
        Some("plain") => 4..=5,
        Some("solve") => 4..=5,
        _ => 4..=4,
    };
    if !extra.contains(&args.len()) {
        eprintln!(
            "usage: walklab walk VARIANT DEAL, walklab solve VARIANT DEAL [GIB], \
             walklab plain VARIANT DEAL [MAX], walklab beam VARIANT DEAL WIDTH [MAX], \
             or walklab layered VARIANT DEAL DIR [GIB]"
        );
        std::process::exit(2);
    }
    let variant = Variant::from_id(&args[2]).expect("variant");
    let number: u64 = args[3].parse().expect("deal");
    let deal = Deal::from_number(variant, number).expect("deal number");
    match args[1].as_str() {
        "solve" => {
            let limits = Limits {
                max_states: None,
                max_seconds: None,
                max_cpu_seconds: None,
                max_memory: args.get(4).map_or(8, |g| g.parse().expect("GiB")) << 30,
            };
            let o = solve(&deal, &limits, false, &Default::default(), &mut || false);
            // No complete pass when an earlier pass won.
            let complete = match o.ends[..] {
                [.., before, last] if o.ends.len() > 2 => last - before,
                _ => 0,
            };
            println!(
                "{number}\t{}\tstates {}\tpasses end at {:?}\tcomplete pass {complete}",
                o.status.as_str(),
                o.states,
                o.ends
            );
        }
        "walk" => {
            let overflow = Overflow {
                orbits_after: Some(u64::MAX),
                ..Default::default()
            };
            let start = Instant::now();
            let (end, states) = complete_pass(&deal, None, usize::MAX, &overflow, &mut || false);
            let seconds = start.elapsed().as_secs_f64();
            let outcome = match end {
                End::Won(_) => "won",
                End::Exhausted => "exhausted",
                End::Limit(_) => "limit",
            };
            println!(
                "{number}\t{outcome}\tstates {states}\t{seconds:.2} s\t{:.2} M/s",
                states as f64 / seconds / 1e6
            );
        }
        "plain" => {
            let max: u64 = args.get(4).map_or(20_000_000, |m| m.parse().expect("MAX"));
            let budget = lab_budget(max);
            let mut interrupted = || false;
            let mut watch = Watch::new(Instant::now(), &mut interrupted);
            let mut states = 0;
            let start = Instant::now();
            let outcome = described(plain_walk(&deal, &budget, &mut states, &mut watch));
            println!(
                "{}\t{number}\tplain\t{outcome}\tstates {states}\t{:.2} s",
                variant.id(),
                start.elapsed().as_secs_f64()
            );
        }
        "beam" => {
            let width: usize = args[4].parse().expect("width");
            let max: u64 = args.get(5).map_or(20_000_000, |m| m.parse().expect("MAX"));
            let budget = lab_budget(max);
            let mut interrupted = || false;
            let mut watch = Watch::new(Instant::now(), &mut interrupted);
            let mut states = 0;
            let start = Instant::now();
            let end = beam_search(&deal, width, usize::MAX, &budget, &mut states, &mut watch);
            let outcome = described(end);
            println!(
                "{number}\tbeam {width}\t{outcome}\tstates {states}\t{:.2} s",
                start.elapsed().as_secs_f64()
            );
        }
        "layered" => {
            let gib: usize = args.get(5).map_or(6, |g| g.parse().expect("GiB"));
            let spill = Spill {
                dir: args[4].clone().into(),
                max_bytes: u64::MAX,
            };
            let budget = Budget {
                max_states: None,
                deadline: Deadline::NONE,
                memory: Memory::from_now(gib << 30),
            };
            let mut interrupted = || false;
            let mut watch = Watch::new(Instant::now(), &mut interrupted);
            let mut states = 0;
            let start = Instant::now();
            let outcome = match layered(&deal, &budget, Some(&spill), &mut states, &mut watch) {
                Layered::Won(_) => "won".to_string(),
                Layered::Exhausted => "unsolvable".to_string(),
                Layered::Limit(why) => format!("limit ({why:?})"),
            };
            println!(
                "{}\t{number}\t{outcome}\tstates {states}\t{:.1} s",
                variant.id(),
                start.elapsed().as_secs_f64()
            );
        }
        other => {
            eprintln!("walklab: no mode {other} (walk, solve, plain, beam or layered)");
            std::process::exit(2);
        }
    }
}

/// A lab run's budget: `max_states` expansions and 8 GiB, no deadline.
fn lab_budget(max_states: u64) -> Budget {
    Budget {
        max_states: Some(max_states),
        deadline: Deadline::NONE,
        memory: Memory::from_now(8 << 30),
    }
}

/// How a search ended, in words.
fn described<M>(end: End<M>) -> String {
    match end {
        End::Won(moves) => format!("won in {} moves", moves.len()),
        End::Exhausted => "ran dry".to_string(),
        End::Limit(why) => format!("limit ({why:?})"),
    }
}
