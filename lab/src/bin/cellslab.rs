//! The free-cell solver over a range of deals: `cargo run --release -p castle-lab --bin
//! cellslab -- freecell 1-32000 10` solves FreeCell deals 1 to 32000 (or a list, `11982,146692`)
//! within 10 CPU seconds each and prints how many were won, proved unsolvable and left
//! unknown, the total CPU, the median and 99th percentile CPU of a deal, the states, and the
//! wins' lengths; every win is replayed from its deal first (a win that does not replay stops
//! the run). `EACH=1` prints a line a deal; `SHORT=1` shortens each win; `DIVES=o4,l8r0:...`
//! runs dives of those weights instead of the solver's (each as letters and numbers, see
//! `weights_of`).
use castle::cells::deal::CellsDeal;
use castle::cells::moves::replays_to_win;
use castle::cells::order::{Weights, DIVE_WEIGHTS, WEIGHTS};
use castle::cells::search::solve_with;
use castle::cells::variant::Variant;
use castle::solver::budget::thread_cpu;
use castle::solver::{Limits, Status};

/// Weights written as letters and numbers, `o4a2l6` (out, above next, unordered, free cell,
/// empty column, over a lower card of its suit, of any suit: `o a u f e l r`), the others from
/// `base`.
fn weights_of(text: &str, base: Weights) -> Weights {
    let mut w = base;
    let mut parts = text.split(|c: char| c.is_ascii_alphabetic()).skip(1);
    for letter in text.chars().filter(char::is_ascii_alphabetic) {
        let v: i32 = parts.next().unwrap().parse().unwrap();
        match letter {
            'o' => w.out = v,
            'a' => w.above_next = v,
            'u' => w.unordered = v,
            'f' => w.free_cell = v,
            'e' => w.empty_column = v,
            'l' => w.over_lower = v,
            'r' => w.over_lower_rank = v,
            _ => panic!("no weight {letter}"),
        }
    }
    w
}

/// `a-b` (a range) or `a,b,c` (a list).
fn deals(arg: &str) -> Vec<u64> {
    match arg.split_once('-') {
        Some((a, b)) => (a.parse().unwrap()..=b.parse().unwrap()).collect(),
        None => arg.split(',').map(|n| n.parse().unwrap()).collect(),
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::from_id(&args[1]).expect("a free-cell variant id");
    let numbers = deals(&args[2]);
    let seconds: f64 = args.get(3).map_or(10.0, |s| s.parse().unwrap());
    let short = std::env::var("SHORT").is_ok();
    let each = std::env::var("EACH").is_ok();
    let dives: Vec<Weights> = match std::env::var("DIVES") {
        Err(_) => DIVE_WEIGHTS.to_vec(),
        Ok(list) => list.split(',').map(|w| weights_of(w, WEIGHTS)).collect(),
    };
    let limits = Limits {
        max_cpu_seconds: Some(seconds),
        ..Limits::states(None)
    };
    let (mut won, mut lost, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    let (mut cpu, mut lengths, mut states) = (Vec::new(), Vec::new(), 0u64);
    let begun = thread_cpu();
    for &n in &numbers {
        let deal = CellsDeal::from_number(variant, n).expect("a deal number in range");
        let before = thread_cpu();
        let o = solve_with(&deal, &limits, &dives, short, &mut || false);
        let spent = (thread_cpu() - before).as_secs_f64();
        cpu.push(spent);
        states += o.states;
        match o.status {
            Status::Solved => {
                assert!(
                    replays_to_win(&deal, &o.moves),
                    "deal {n}: the win does not replay"
                );
                lengths.push(o.moves.len());
                won.push(n);
            }
            Status::Unsolvable => lost.push(n),
            Status::Unknown => unknown.push(n),
        }
        if each {
            let status = o.status.as_str();
            let moves = o.moves.len();
            println!(
                "{n} {status} states {} cpu {spent:.4} moves {moves}",
                o.states
            );
        }
    }
    let total = (thread_cpu() - begun).as_secs_f64();
    cpu.sort_by(f64::total_cmp);
    lengths.sort_unstable();
    println!(
        "{} deals {}: won {}, unsolvable {} {:?}, unknown {} {:?}",
        variant.id(),
        args[2],
        won.len(),
        lost.len(),
        lost,
        unknown.len(),
        unknown
    );
    println!(
        "cpu {total:.3} s in all, median {:.3} ms, p99 {:.3} ms, max {:.3} ms a deal; states {states}",
        1e3 * percentile(&cpu, 0.5),
        1e3 * percentile(&cpu, 0.99),
        1e3 * cpu.last().unwrap()
    );
    if !lengths.is_empty() {
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
        println!(
            "wins replayed: {}; moves median {}, mean {mean:.1}, max {}",
            lengths.len(),
            lengths[lengths.len() / 2],
            lengths.last().unwrap()
        );
    }
}
