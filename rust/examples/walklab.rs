//! Runs the solver's own passes on one deal, for measuring the walk (docs/proofs.md):
//!
//! `cargo run --release --example walklab -- walk beleaguered-castle 981` runs the complete
//! pass depth-first alone (no layers, no orbit tries) and prints its states and positions a
//! second: under callgrind, its instructions.
//!
//! `... walklab -- solve beleaguered-castle 162` runs the whole solve and prints where each
//! pass ended: the complete pass's states are the last end less the one before.

use std::time::Instant;

use castle::castle::deal::Deal;
use castle::castle::layers::Overflow;
use castle::castle::search::{complete_pass, solve};
use castle::castle::variant::Variant;
use castle::solver::budget::End;
use castle::solver::Limits;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: walklab walk|solve VARIANT DEAL");
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
                max_memory: 8 << 30,
            };
            let o = solve(&deal, &limits, false, &Default::default(), &mut || false);
            let complete = o.ends[o.ends.len() - 1] - o.ends[o.ends.len() - 2];
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
        other => {
            eprintln!("walklab: no mode {other} (walk or solve)");
            std::process::exit(2);
        }
    }
}
