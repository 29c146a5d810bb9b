//! Measures the transposition table and the compact key (docs/proofs.md):
//!
//! `cargo run --release --example keylab -- search beleaguered-castle 162 exact|compact|kept`
//! runs the complete pass alone (a copy of `search.rs`'s depth-first loop, its table keyed by
//! today's [`Key`], by the compact key computed afresh at each lookup, or by the compact key
//! kept move by move beside the position) and prints its states, lookups, time, and the table's
//! bytes as allocated, with the process's peak (VmHWM) over its start. One key kind a process:
//! the peak is the process's.
//!
//! `... keylab -- layers beleaguered-castle 162` counts the complete pass's positions by layer
//! of irreversibility, and the most a search expanding the layers in order
//! would hold at once.
//!
//! `... keylab -- solve beleaguered-castle 162` runs the solver itself, to check that the copy's
//! states are its complete pass's.
//!
//! `... keylab -- walk beleaguered-castle 981` runs the solver's own complete pass depth-first
//! alone (no layers, no orbit tries) and prints its states and positions a second: under
//! callgrind, its instructions.
//!
//! `cargo run --release --example keylab -- time beleaguered-castle 162` times computing each
//! key on positions of random play from the deal, in ns a key.

use std::hash::{BuildHasher, Hash};
use std::hint::black_box;
use std::time::Instant;

use castle::castle::compact::{Compact, CompactKey};
use castle::castle::deal::Deal;
use castle::castle::moves::{all_legal, apply, generate, play_automatic, undo, Move};
use castle::castle::order::order_moves;
use castle::castle::state::{Key, State, NOT_IN_TABLEAU};
use castle::castle::variant::Variant;
use castle::solver::heap::Memory;
use castle::solver::table::{Insert, Table};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::from_id(&args[2]).expect("variant");
    let number: u64 = args[3].parse().expect("deal");
    let deal = Deal::from_number(variant, number).expect("deal number");
    match args[1].as_str() {
        "search" => match args[4].as_str() {
            "exact" => report(&deal, Exact),
            "compact" => report(&deal, Fresh(Compact::new(&deal))),
            "kept" => {
                let compact = Compact::new(&deal);
                let key = compact.encode(&State::from_deal(&deal));
                report(&deal, Kept(compact, key))
            }
            other => panic!("no key kind {other}"),
        },
        "time" => time(&deal),
        "layers" => layers(&deal),
        // The solver itself: its complete pass's states are the last end less the one before.
        "solve" => {
            let limits = castle::solver::Limits {
                max_states: None,
                max_seconds: None,
                max_cpu_seconds: None,
                max_memory: 8 << 30,
            };
            let o = castle::castle::search::solve(
                &deal,
                &limits,
                false,
                &Default::default(),
                &mut || false,
            );
            let complete = o.ends[o.ends.len() - 1] - o.ends[o.ends.len() - 2];
            println!(
                "{number}\t{}\tstates {}\tpasses end at {:?}\tcomplete pass {complete}",
                o.status.as_str(),
                o.states,
                o.ends
            );
        }
        "walk" => {
            let overflow = castle::castle::layers::Overflow {
                orbits_after: Some(u64::MAX),
                ..Default::default()
            };
            let start = Instant::now();
            let (end, states) = castle::castle::search::complete_pass(
                &deal,
                None,
                usize::MAX,
                &overflow,
                &mut || false,
            );
            let seconds = start.elapsed().as_secs_f64();
            let outcome = match end {
                castle::solver::budget::End::Won(_) => "won",
                castle::solver::budget::End::Exhausted => "exhausted",
                castle::solver::budget::End::Limit(_) => "limit",
            };
            println!(
                "{number}\t{outcome}\tstates {states}\t{seconds:.2} s\t{:.2} M/s",
                states as f64 / seconds / 1e6
            );
        }
        other => panic!("no mode {other}"),
    }
}

/// How the table's key of a position is had.
trait Keying {
    type K: Copy + Eq + Hash;
    /// `m` was just made (or taken back, `undone`) in `state`.
    fn moved(&mut self, _state: &State, _m: Move, _undone: bool) {}
    fn key(&self, state: &State) -> Self::K;
    /// Whether [`Keying::edge`] wants to hear of every lookup.
    const EDGES: bool = false;
    /// A move (and the automatic moves after it) led from `parent` to `child`.
    fn edge(&mut self, _parent: Self::K, _child: Self::K) {}
}

/// Today's key, kept by the position itself.
struct Exact;

impl Keying for Exact {
    type K = Key;
    #[inline]
    fn key(&self, state: &State) -> Key {
        state.key()
    }
}

/// The compact key computed from the position's columns at each lookup.
struct Fresh(Compact);

impl Keying for Fresh {
    type K = CompactKey;
    #[inline]
    fn key(&self, state: &State) -> CompactKey {
        self.0.encode(state)
    }
}

/// The compact key kept beside the position, one card's field at each move.
struct Kept(Compact, CompactKey);

impl Keying for Kept {
    type K = CompactKey;
    #[inline]
    fn moved(&mut self, state: &State, m: Move, undone: bool) {
        self.0
            .place(&mut self.1, m.card, under_after(state, m, undone));
    }
    #[inline]
    fn key(&self, _state: &State) -> CompactKey {
        self.1
    }
}

/// What lies under the card of `m` once it is made (or taken back), as a [`Key`] field.
#[inline]
fn under_after(state: &State, m: Move, undone: bool) -> u8 {
    if !undone && m.to_foundation() {
        NOT_IN_TABLEAU as u8
    } else {
        let column = state.column((if undone { m.from } else { m.to }) as usize);
        column.len().checked_sub(2).map_or(0, |i| column[i].id())
    }
}

/// The kept compact key, and for every position the lowest layer of a position that leads to it
/// by one move (and the automatic moves after it).
struct Layers(Kept, rustc_hash::FxHashMap<CompactKey, u8>);

impl Keying for Layers {
    type K = CompactKey;
    const EDGES: bool = true;
    #[inline]
    fn moved(&mut self, state: &State, m: Move, undone: bool) {
        self.0.moved(state, m, undone);
    }
    #[inline]
    fn key(&self, state: &State) -> CompactKey {
        self.0.key(state)
    }
    fn edge(&mut self, parent: CompactKey, child: CompactKey) {
        let layer = self.0 .0.layer(&parent) as u8;
        let entry = self.1.entry(child).or_insert(layer);
        *entry = (*entry).min(layer);
    }
}

/// The positions of the complete pass by layer, and the most a search that expands the layers
/// in order would hold at once: while it expands layer p, layer p and every position of a later
/// layer that a position of layer p or lower leads to.
fn layers(deal: &Deal) {
    let compact = Compact::new(deal);
    let key = compact.encode(&State::from_deal(deal));
    let mut keying = Layers(Kept(compact.clone(), key), Default::default());
    let r = complete(deal, &mut keying);
    assert!(!r.won);
    let entries = keying.1;
    // Every position but the first one entered is some position's child.
    assert_eq!(entries.len() as u64 + 1, r.table_len);
    let top = entries.keys().map(|k| compact.layer(k)).max().unwrap_or(0) as usize;
    let (mut count, mut live) = (vec![0u64; top + 2], vec![0i64; top + 2]);
    for (child, &entry) in &entries {
        let layer = compact.layer(child) as usize;
        count[layer] += 1;
        live[entry as usize] += 1;
        live[layer + 1] -= 1;
    }
    // The first position: in its own layer, the lowest there is.
    let lowest = count.iter().position(|&c| c > 0).unwrap_or(0);
    count[lowest] += 1;
    live[lowest] += 1;
    live[lowest + 1] -= 1;
    let mut held = 0i64;
    let (mut most, mut at) = (0i64, 0);
    for (p, d) in live.iter().enumerate() {
        held += d;
        if held > most {
            (most, at) = (held, p);
        }
    }
    let n = r.table_len as f64;
    let (largest, largest_at) = count
        .iter()
        .enumerate()
        .map(|(p, &c)| (c, p))
        .max()
        .unwrap_or((0, 0));
    println!(
        "{}\t{} positions\t{} layers not empty\tlargest layer {largest_at}: {largest} ({:.1}%)\t\
         most held at once, expanding layer {at}: {most} ({:.1}%)",
        deal.number.unwrap_or(0),
        r.table_len,
        count.iter().filter(|&&c| c > 0).count(),
        100.0 * largest as f64 / n,
        100.0 * most as f64 / n,
    );
    let by_layer: Vec<String> = count
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(p, c)| format!("{p}:{c}"))
        .collect();
    println!("by layer: {}", by_layer.join(" "));
}

struct Run {
    states: u64,
    lookups: u64,
    seconds: f64,
    won: bool,
    table_len: u64,
    table_bytes: usize,
    table_counted: usize,
}

/// The complete pass of `search.rs` (the same moves in the same order; no limits), keyed by
/// `keying`.
fn complete<G: Keying>(deal: &Deal, keying: &mut G) -> Run {
    let started = Instant::now();
    let memory = Memory::from_now(usize::MAX);
    let mut state = State::from_deal(deal);
    let mut table: Table<G::K> = Table::new(memory);
    let mut path: Vec<Move> = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    // (start, path_len, back)
    let mut frames: Vec<(usize, usize, Option<Move>)> = Vec::new();
    let (mut states, mut lookups) = (0u64, 1u64);
    let run = |table: &Table<G::K>, states, lookups, won| Run {
        states,
        lookups,
        seconds: started.elapsed().as_secs_f64(),
        won,
        table_len: table.len() as u64,
        table_bytes: table.bytes(),
        table_counted: 0,
    };

    play(&mut state, &mut path, keying);
    assert!(!state.is_won());
    table.insert(keying.key(&state));
    loop {
        states += 1;
        let start = moves.len();
        moves.reserve(64);
        generate(&state, &mut moves);
        order_moves(&state, &mut moves[start..]);
        moves[start..].reverse();
        let by_one_move = frames.last().is_some_and(|p| p.1 + 1 == path.len());
        let back = if by_one_move {
            let m = path[path.len() - 1];
            (!m.to_foundation()).then_some(Move {
                card: m.card,
                from: m.to,
                to: m.from,
            })
        } else {
            None
        };
        frames.push((start, path.len(), back));
        loop {
            let Some(&(start, path_len, back)) = frames.last() else {
                let mut r = run(&table, states, lookups, false);
                r.table_counted = memory.used();
                return r;
            };
            if moves.len() == start {
                frames.pop();
                if let Some(parent) = frames.last() {
                    unwind(&mut state, &mut path, parent.1, keying);
                }
                continue;
            }
            let m = moves.pop().unwrap();
            if back == Some(m) {
                continue;
            }
            let parent = keying.key(&state);
            apply(&mut state, m);
            keying.moved(&state, m, false);
            path.push(m);
            play(&mut state, &mut path, keying);
            if state.is_won() {
                return run(&table, states, lookups, true);
            }
            lookups += 1;
            if G::EDGES {
                keying.edge(parent, keying.key(&state));
            }
            match table.insert(keying.key(&state)) {
                Insert::New => break,
                Insert::Seen => unwind(&mut state, &mut path, path_len, keying),
                Insert::Full => unreachable!(),
            }
        }
    }
}

fn play<G: Keying>(state: &mut State, path: &mut Vec<Move>, keying: &mut G) {
    let from = path.len();
    play_automatic(state, path);
    for &m in &path[from..] {
        keying.moved(state, m, false);
    }
}

fn unwind<G: Keying>(state: &mut State, path: &mut Vec<Move>, len: usize, keying: &mut G) {
    while path.len() > len {
        let m = path.pop().unwrap();
        undo(state, m);
        keying.moved(state, m, true);
    }
}

/// The process's peak resident set (VmHWM), in bytes.
fn peak() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn report<G: Keying>(deal: &Deal, mut keying: G) {
    let before = peak();
    let r = complete(deal, &mut keying);
    let over = peak() - before;
    let n = r.table_len as f64;
    println!(
        "{}\t{}\tkey {} B\tstates {}\tlookups {} ({:.2}/state)\t{:.2} s\t{:.2} M states/s\t\
         table {} keys, {} B ({:.1} B/position; counted {:.1})\tpeak over start {:.1} MiB \
         ({:.1} B/position)",
        deal.number.unwrap_or(0),
        if r.won { "won" } else { "exhausted" },
        std::mem::size_of::<G::K>(),
        r.states,
        r.lookups,
        r.lookups as f64 / r.states as f64,
        r.seconds,
        r.states as f64 / r.seconds / 1e6,
        r.table_len,
        r.table_bytes,
        r.table_bytes as f64 / n,
        r.table_counted as f64 / n,
        over as f64 / (1 << 20) as f64,
        over as f64 / n,
    );
}

/// Positions of random play from `deal` (a fixed seed), and the time to key each.
fn time(deal: &Deal) {
    let mut seed = 18u64;
    let mut below = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % n as u64) as usize
    };
    let compact = Compact::new(deal);
    let mut positions = Vec::new();
    let mut legal = Vec::new();
    while positions.len() < 20_000 {
        let mut state = State::from_deal(deal);
        for _ in 0..200 {
            legal.clear();
            all_legal(&state, &mut legal);
            if legal.is_empty() {
                break;
            }
            apply(&mut state, legal[below(legal.len())]);
            positions.push(state.clone());
        }
    }
    // Each position's moves, to time making a move and taking it back.
    let moved: Vec<(State, Move, CompactKey)> = positions
        .iter()
        .filter_map(|s| {
            legal.clear();
            all_legal(s, &mut legal);
            (!legal.is_empty()).then(|| (s.clone(), legal[below(legal.len())], compact.encode(s)))
        })
        .collect();
    let hasher = rustc_hash::FxBuildHasher;
    const ROUNDS: usize = 50;
    let ns = |f: &mut dyn FnMut() -> u64, n: usize| {
        let start = Instant::now();
        let mut sum = 0u64;
        for _ in 0..ROUNDS {
            sum = sum.wrapping_add(f());
        }
        black_box(sum);
        start.elapsed().as_nanos() as f64 / (ROUNDS * n) as f64
    };
    let n = positions.len();
    let rows: [(&str, f64); 6] = [
        (
            "Key: read (kept by State), and hash",
            ns(
                &mut || {
                    positions
                        .iter()
                        .map(|s| hasher.hash_one(black_box(s).key()))
                        .sum()
                },
                n,
            ),
        ),
        (
            "CompactKey: encode from the columns, and hash",
            ns(
                &mut || {
                    positions
                        .iter()
                        .map(|s| hasher.hash_one(compact.encode(black_box(s))))
                        .sum()
                },
                n,
            ),
        ),
        (
            "CompactKey: encode from the Key, and hash",
            ns(
                &mut || {
                    positions
                        .iter()
                        .map(|s| hasher.hash_one(compact.encode_key(&black_box(s).key())))
                        .sum()
                },
                n,
            ),
        ),
        (
            "CompactKey: decode to a State",
            ns(
                &mut || {
                    positions
                        .iter()
                        .map(|s| compact.decode(&compact.encode(s)).len(0) as u64)
                        .sum()
                },
                n,
            ),
        ),
        (
            "a move made and taken back (State keeps its Key)",
            ns(
                &mut || {
                    let mut sum = 0;
                    for (s, m, _) in &moved {
                        let mut s = s.clone();
                        apply(&mut s, *m);
                        undo(&mut s, *m);
                        sum += s.len(0) as u64 + s.key().0[0] % 2;
                    }
                    sum
                },
                moved.len(),
            ),
        ),
        (
            "the same, and the CompactKey kept beside it (place, twice)",
            ns(
                &mut || {
                    let mut sum = 0;
                    for (s, m, key) in &moved {
                        let (mut s, mut key) = (s.clone(), *key);
                        apply(&mut s, *m);
                        compact.place(&mut key, m.card, under_after(&s, *m, false));
                        undo(&mut s, *m);
                        compact.place(&mut key, m.card, under_after(&s, *m, true));
                        sum += s.len(0) as u64 + key.code(m.card) as u64;
                    }
                    sum
                },
                moved.len(),
            ),
        ),
    ];
    println!(
        "{} positions of random play from deal {}",
        n,
        deal.number.unwrap_or(0)
    );
    for (what, ns) in rows {
        println!("{ns:8.1} ns\t{what}");
    }
}
