//! Experiments on the Spider portfolio: `cargo run --release -p castle-lab --bin spiderlab --
//! spider 1 20 10` solves four-suit deals 1-20 within 10 s each, one line a deal (its number,
//! status, states, seconds, moves, and the states at the end of each step that ran), with the
//! solver's portfolio or with `PLAN`'s steps, e.g. `PLAN=b1000:0.1,b3000e5:0.4,s:50000`: a beam of
//! width 1,000 up to 10% of the portfolio's states, one of 3,000 with an empty column worth 5 up to
//! 40%, a depth-first slice of 50,000 positions (then the complete search). A beam's letters set
//! its weights (e empty, d down, s suit break, r rank break, k stock); `WE`, `WD`, `WS`, `WR` and
//! `WK` set them for every beam.
use castle::solver::Limits;
use castle::spider::deal::{SpiderDeal, Suits};
use castle::spider::estimate::{Weights, WEIGHTS};
use castle::spider::search::{portfolio, solve_with, Step};

fn env(name: &str, default: i32) -> i32 {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let suits = Suits::from_id(&args[1]).unwrap();
    let first: u64 = args[2].parse().unwrap();
    let last: u64 = args[3].parse().unwrap();
    let seconds: f64 = args[4].parse().unwrap();
    let w = Weights {
        down: env("WD", WEIGHTS.down),
        rank_break: env("WR", WEIGHTS.rank_break),
        suit_break: env("WS", WEIGHTS.suit_break),
        empty: env("WE", WEIGHTS.empty),
        stock: env("WK", WEIGHTS.stock),
    };
    let plan: Vec<Step> = match std::env::var("PLAN") {
        Err(_) => portfolio(suits).to_vec(),
        Ok(p) => p
            .split(',')
            .map(|s| {
                let (kind, share) = s.split_once(':').unwrap();
                if kind == "s" {
                    Step::Slice {
                        states: share.parse().unwrap(),
                    }
                } else {
                    let share: f64 = share.parse().unwrap();
                    // b<width>[e<empty>][d<down>][s<suit break>][r<rank break>][k<stock>]
                    let mut weights = w;
                    let mut parts = kind[1..].split(|c: char| c.is_ascii_alphabetic());
                    let width = parts.next().unwrap().parse().unwrap();
                    let letters: Vec<char> = kind[1..]
                        .chars()
                        .filter(|c| c.is_ascii_alphabetic())
                        .collect();
                    for (letter, value) in letters.into_iter().zip(parts) {
                        let v: i32 = value.parse().unwrap();
                        match letter {
                            'e' => weights.empty = v,
                            'd' => weights.down = v,
                            's' => weights.suit_break = v,
                            'r' => weights.rank_break = v,
                            'k' => weights.stock = v,
                            _ => panic!("weight letter"),
                        }
                    }
                    Step::Beam {
                        width,
                        weights,
                        share,
                    }
                }
            })
            .collect(),
    };
    let limits = Limits {
        max_states: None,
        max_seconds: Some(seconds),
        max_cpu_seconds: None,
        max_memory: 4 << 30,
    };
    let (mut won, mut total) = (0, 0.0);
    for n in first..=last {
        let deal = SpiderDeal::from_number(suits, n).unwrap();
        let o = solve_with(&deal, &limits, &plan, &mut || false);
        won += usize::from(o.status.as_str() == "solved");
        total += o.seconds;
        println!(
            "{n}\t{}\t{}\t{:.2}\t{}\t{}",
            o.status.as_str(),
            o.states,
            o.seconds,
            o.moves.len(),
            o.ends
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    eprintln!("{won} won; {total:.1} s");
}
