//! Solves a range of deals and prints one line each:
//! `cargo run --release -p castle-lab --bin sweep -- beleaguered-castle 1 200 [max_seconds
//! [short]]` (or `spider-1 1 20 [max_seconds]`). A quick check of the core without Python.

use castle::castle::deal::Deal;
use castle::castle::search::solve;
use castle::castle::variant::Variant;
use castle::solver::Limits;
use castle::spider::deal::{SpiderDeal, Suits};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(suits) = Suits::from_id(&args[1]) {
        return spider_sweep(suits, &args);
    }
    let variant = Variant::from_id(&args[1]).expect("variant");
    let first: u64 = args[2].parse().expect("first deal");
    let last: u64 = args[3].parse().expect("last deal");
    let max_seconds = args.get(4).map(|s| s.parse::<f64>().expect("seconds"));
    let short = args.get(5).is_some_and(|s| s == "short");
    let limits = Limits {
        max_states: None,
        max_seconds,
        max_cpu_seconds: None,
        max_memory: 4 << 30,
    };
    let (mut states, mut seconds) = (0u64, 0f64);
    for n in first..=last {
        let deal = Deal::from_number(variant, n).unwrap();
        let o = solve(&deal, &limits, short, &Default::default(), &mut || false);
        println!(
            "{n}\t{}\t{}\t{:.4}\t{}",
            o.status.as_str(),
            o.states,
            o.seconds,
            o.moves.len()
        );
        states += o.states;
        seconds += o.seconds;
    }
    eprintln!(
        "total {states} states in {seconds:.2} s: {:.0} states/s",
        states as f64 / seconds
    );
}

/// The same for a Spider deck (`spider`, `spider-2`, `spider-1`).
fn spider_sweep(suits: Suits, args: &[String]) {
    let first: u64 = args[2].parse().expect("first deal");
    let last: u64 = args[3].parse().expect("last deal");
    let limits = Limits {
        max_states: None,
        max_seconds: args.get(4).map(|s| s.parse::<f64>().expect("seconds")),
        max_cpu_seconds: None,
        max_memory: 4 << 30,
    };
    let (mut states, mut seconds, mut solved) = (0u64, 0f64, 0);
    for n in first..=last {
        let deal = SpiderDeal::from_number(suits, n).unwrap();
        let o = castle::spider::search::solve(&deal, &limits, &mut || false);
        println!(
            "{n}\t{}\t{}\t{:.4}\t{}",
            o.status.as_str(),
            o.states,
            o.seconds,
            o.moves.len()
        );
        states += o.states;
        seconds += o.seconds;
        solved += usize::from(o.status.as_str() == "solved");
    }
    eprintln!(
        "{solved} solved; total {states} states in {seconds:.2} s: {:.0} states/s",
        states as f64 / seconds
    );
}
