//! The orbit pass against the quick pass, for choosing the share of the orbit pass that follows
//! a quick pass run dry (research/2026-12-03-tries-wins-found-early.md). For each deal number read from stdin: the
//! solve's status, states, pass ends and seconds, then the orbit pass alone from the deal
//! within TIMES times the quick pass's expansions (none if the quick pass won or used all its
//! expansions): how it ended, its expansions and seconds.
//!
//! `seq 1 2000 | cargo run --release -p castle-lab --bin prepasslab -- beleaguered-castle 8`
//!
//! `... prepasslab -- beleaguered-castle CAP orbit` runs the orbit pass alone, within CAP.

use std::io::BufRead;
use std::time::Instant;

use castle::castle::deal::Deal;
use castle::castle::orbits::orbit_pass;
use castle::castle::search::solve;
use castle::castle::variant::Variant;
use castle::solver::budget::{Budget, Deadline, Watch};
use castle::solver::heap::Memory;
use castle::solver::Limits;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::from_id(&args[1]).expect("variant");
    if args.len() < 3 {
        eprintln!("usage: prepasslab VARIANT TIMES, or prepasslab VARIANT CAP orbit");
        std::process::exit(2);
    }
    let times: u64 = args[2].parse().expect("a number");
    let only_orbit = args.get(3).is_some_and(|a| a == "orbit");
    for line in std::io::stdin().lock().lines() {
        let number: u64 = line.unwrap().trim().parse().expect("deal");
        let deal = Deal::from_number(variant, number).expect("deal number");
        let mut cap = times;
        if !only_orbit {
            let limits = Limits {
                max_states: Some(5_000_000),
                max_seconds: None,
                max_cpu_seconds: None,
                max_memory: 8 << 30,
            };
            let t = Instant::now();
            let o = solve(&deal, &limits, false, &Default::default(), &mut || false);
            print!(
                "{number}\t{}\t{}\t{:?}\t{:.4}",
                o.status.as_str(),
                o.states,
                o.ends,
                t.elapsed().as_secs_f64()
            );
            cap = match o.ends[..] {
                [quick, _, ..] if quick < 1_000_000 => times * quick,
                _ => 0,
            };
        } else {
            print!("{number}");
        }
        let budget = Budget {
            max_states: None,
            deadline: Deadline::NONE,
            memory: Memory::from_now(8 << 30),
        };
        let mut interrupted = || false;
        let mut watch = Watch::new(Instant::now(), &mut interrupted);
        let mut states = 0;
        let t = Instant::now();
        let end = orbit_pass(&deal, &budget, cap, &mut states, &mut watch);
        println!("\t{:?}\t{states}\t{:.4}", end, t.elapsed().as_secs_f64());
    }
}
