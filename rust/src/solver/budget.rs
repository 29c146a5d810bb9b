//! What a solve may spend (the caller's limits, each pass's budget) and how a pass ended:
//! shared by both games' depth-first and beam searches.

use std::time::{Duration, Instant};

use super::heap::Memory;

/// What the caller lets a solve spend.
#[derive(Clone, Debug)]
pub struct Limits {
    /// At most this many positions expanded.
    pub max_states: Option<u64>,
    /// Seconds on the wall clock.
    pub max_seconds: Option<f64>,
    /// Seconds of CPU time of the solving thread: what a solve niced beside other work gets,
    /// which the wall clock does not tell.
    pub max_cpu_seconds: Option<f64>,
    /// Bound on the bytes the solve holds: its tables, stacks, move lists and beam layers
    /// (`heap.rs` counts them).
    pub max_memory: usize,
}

impl Limits {
    /// At most `max_states` expansions (None: no count), no clock, and a GiB of memory.
    pub fn states(max_states: Option<u64>) -> Limits {
        Limits {
            max_states,
            max_seconds: None,
            max_cpu_seconds: None,
            max_memory: 1 << 30,
        }
    }
}

/// Which limit ended a search before it decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `max_states` positions were expanded.
    States,
    /// `max_seconds` passed.
    Seconds,
    /// The solving thread used `max_cpu_seconds` of CPU time.
    CpuSeconds,
    /// Going on would hold more than `max_memory`.
    Memory,
    /// The caller asked it to stop (Ctrl+C).
    Interrupted,
    /// Going on would pass the disk bound, or fill the disk, or the spill directory failed.
    Disk,
}

impl Stop {
    /// The word the Python side, the CLI and the JSON answer give for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::States => "states",
            Stop::Seconds => "seconds",
            Stop::CpuSeconds => "cpu-seconds",
            Stop::Memory => "memory",
            Stop::Interrupted => "interrupted",
            Stop::Disk => "disk",
        }
    }
}

/// How a pass ended (`M`: the game's kind of move).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum End<M> {
    Won(Vec<M>),
    /// Every position was expanded.
    Exhausted,
    /// A limit stopped it.
    Limit(Stop),
}

/// What a pass may spend; `max_states`, `deadline` and `memory` count from the start of the
/// solve.
pub struct Budget {
    pub max_states: Option<u64>,
    pub deadline: Deadline,
    /// All that the solve may hold: its tables, stacks, move lists and beam layers.
    pub memory: Memory,
}

impl Budget {
    /// Counts one expansion, or says which limit forbids it.
    #[inline]
    pub fn spend(&self, expanded: &mut u64, watch: &mut Watch) -> Option<Stop> {
        if self.max_states.is_some_and(|max| *expanded >= max) {
            return Some(Stop::States);
        }
        // A structure that grew past the bound since the last expansion (the big ones check
        // before they grow: the tables, the stacks, the beams' layers and lists).
        if !self.memory.allows(0) {
            return Some(Stop::Memory);
        }
        *expanded += 1;
        if expanded.is_multiple_of(POLL_EVERY) {
            let _ = EXPANDED.try_with(|e| e.set(*expanded));
            return self.poll(watch);
        }
        None
    }

    /// Whether time is up, or the caller asked to stop: read every [`POLL_EVERY`]
    /// expansions, and now and then by work that expands nothing (the layers' merges).
    pub fn poll(&self, watch: &mut Watch) -> Option<Stop> {
        let now = Instant::now();
        if self.deadline.wall.is_some_and(|d| now >= d) {
            return Some(Stop::Seconds);
        }
        if self.deadline.cpu.is_some_and(|d| thread_cpu() >= d) {
            return Some(Stop::CpuSeconds);
        }
        if now - watch.last_poll >= INTERRUPT_POLL {
            watch.last_poll = now;
            if (watch.interrupted)() {
                return Some(Stop::Interrupted);
            }
        }
        None
    }
}

/// When a pass must stop: a time on the wall clock, a CPU time of the solving thread, or both.
#[derive(Clone, Copy, Default, Debug)]
pub struct Deadline {
    pub wall: Option<Instant>,
    pub cpu: Option<Duration>,
}

impl Deadline {
    pub const NONE: Deadline = Deadline {
        wall: None,
        cpu: None,
    };

    /// `fraction` of each of the limits' times, counted from a solve that began at `start`.
    /// A limit too far off to represent is no limit at all (never a panic).
    pub fn after(limits: &Limits, start: &Start, fraction: f64) -> Deadline {
        let part = |seconds: Option<f64>| Duration::try_from_secs_f64(seconds? * fraction).ok();
        Deadline {
            wall: part(limits.max_seconds).and_then(|d| start.wall.checked_add(d)),
            cpu: part(limits.max_cpu_seconds).and_then(|d| start.cpu.checked_add(d)),
        }
    }
}

/// When a solve began, by both clocks.
pub struct Start {
    pub wall: Instant,
    pub cpu: Duration,
}

impl Start {
    pub fn now() -> Start {
        Start {
            wall: Instant::now(),
            cpu: thread_cpu(),
        }
    }
}

/// The CPU time this thread has used (a solve runs on one thread: the caller's). Where no
/// such clock can be read, the wall clock since the first call stands in, so that a CPU limit
/// still ends the search.
pub fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to write.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static FIRST: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    FIRST.get_or_init(Instant::now).elapsed()
}

thread_local! {
    /// The expansions of the search on this thread, as of its last poll: what the question
    /// "give up now?" may report as progress (it is asked on the search's thread).
    static EXPANDED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The expansions of the search running on this thread, as of its last look at the clock
/// (within [`POLL_EVERY`] of the count).
pub fn expanded_so_far() -> u64 {
    EXPANDED.try_with(std::cell::Cell::get).unwrap_or(0)
}

/// Reads the clock and the interrupt flag now and then.
pub struct Watch<'a> {
    last_poll: Instant,
    interrupted: &'a mut dyn FnMut() -> bool,
}

impl<'a> Watch<'a> {
    pub fn new(started: Instant, interrupted: &'a mut dyn FnMut() -> bool) -> Watch<'a> {
        let _ = EXPANDED.try_with(|e| e.set(0));
        Watch {
            last_poll: started,
            interrupted,
        }
    }
}

/// How often (in expansions) the clock and the interrupt flag are read.
const POLL_EVERY: u64 = 1024;
const INTERRUPT_POLL: Duration = Duration::from_millis(50);
