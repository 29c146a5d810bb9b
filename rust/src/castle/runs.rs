//! What the layered pass holds its keys in: sorted runs of compact keys, in memory and, past
//! the memory bound, in files.
//!
//! A [`Run`] gathers keys: a sorted, deduplicated part in memory, an unsorted tail appended
//! since, and sorted files written when memory ran out. [`Run::finish`] turns it into a
//! [`Sorted`] sequence, each key once, less the keys of sequences given (the levels before):
//! in memory when it fits, else merged from its parts into a file (delayed duplicate
//! detection, as fc-solve's `depth_dbm_fc_solver` does). A level is read in order either way,
//! so where its keys lie changes nothing the search does.

use std::rc::Rc;

use super::compact::CompactKey;
use crate::solver::budget::{Budget, Watch};
use crate::solver::disk::{Disk, Reader, Records, Writer};
use crate::solver::Stop;

/// A run's tail is merged in once it is this long, at least (and half its sorted part).
const LEAST_TAIL: usize = 1 << 12;
/// A key in a file.
const KEY: usize = CompactKey::BYTES;
/// A run merges its files into one when it has more.
const MOST_FILES: usize = 8;
/// A merge (or any pass over keys) reads the clock and the interrupt flag after this many
/// keys.
pub const MERGE_POLL: u64 = 1 << 20;
/// A sort reads them between pieces of at most this many keys (about a second): a
/// run's tail may be a third of the memory bound, hundreds of millions of keys.
const SORT_PIECE: usize = 1 << 24;

/// Keys sorted, each once: in memory, or in a file.
pub enum Sorted {
    Memory(Vec<CompactKey>),
    File(Records<KEY>),
}

impl Sorted {
    pub fn empty() -> Sorted {
        Sorted::Memory(Vec::new())
    }

    pub fn len(&self) -> u64 {
        match self {
            Sorted::Memory(keys) => keys.len() as u64,
            Sorted::File(records) => records.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The keys, if they are in memory.
    pub fn in_memory(&self) -> Option<&[CompactKey]> {
        match self {
            Sorted::Memory(keys) => Some(keys),
            Sorted::File(_) => None,
        }
    }

    /// Reads the keys in order.
    pub fn cursor(&self) -> Result<Cursor<'_>, Stop> {
        Cursor::new(match self {
            Sorted::Memory(keys) => Source::Memory(keys.iter()),
            Sorted::File(records) => Source::File(records.read()?),
        })
    }

    /// The bytes it holds in memory.
    pub fn memory_bytes(&self) -> usize {
        self.in_memory().map_or(0, std::mem::size_of_val)
    }

    /// Moves the keys to a file, if they are in memory (and there are any).
    pub fn spill(
        &mut self,
        disk: &Rc<Disk>,
        budget: &Budget,
        watch: &mut Watch,
    ) -> Result<(), Stop> {
        if let Sorted::Memory(keys) = self {
            if !keys.is_empty() {
                *self = Sorted::File(write(keys, disk, budget, watch)?);
            }
        }
        Ok(())
    }
}

/// The keys of `keys` in a new file.
fn write(
    keys: &[CompactKey],
    disk: &Rc<Disk>,
    budget: &Budget,
    watch: &mut Watch,
) -> Result<Records<KEY>, Stop> {
    let mut out = disk.create()?;
    append(&mut out, keys, budget, watch)?;
    out.finish()
}

/// Writes `keys` to `out`, looking at the clock and Ctrl+C every [`MERGE_POLL`] keys (a
/// third of the memory bound takes seconds to write).
fn append(
    out: &mut Writer<KEY>,
    keys: &[CompactKey],
    budget: &Budget,
    watch: &mut Watch,
) -> Result<(), Stop> {
    keys.chunks(MERGE_POLL as usize).try_for_each(|chunk| {
        chunk.iter().try_for_each(|key| out.push(&key.to_bytes()))?;
        polled(budget, watch)
    })
}

enum Source<'a> {
    Memory(std::slice::Iter<'a, CompactKey>),
    File(Reader<KEY>),
}

/// Reads a sorted sequence in order: `head` is the key at the cursor (None past the last).
pub struct Cursor<'a> {
    source: Source<'a>,
    head: Option<CompactKey>,
}

impl<'a> Cursor<'a> {
    fn new(source: Source<'a>) -> Result<Cursor<'a>, Stop> {
        let mut cursor = Cursor { source, head: None };
        cursor.advance()?;
        Ok(cursor)
    }

    #[inline]
    pub fn head(&self) -> Option<CompactKey> {
        self.head
    }

    #[inline]
    pub fn advance(&mut self) -> Result<(), Stop> {
        self.head = match &mut self.source {
            Source::Memory(keys) => keys.next().copied(),
            Source::File(reader) => reader.record()?.map(|b| CompactKey::from_bytes(&b)),
        };
        Ok(())
    }

    /// Whether `key` is among the keys from the cursor on, moving past those below it (keys
    /// asked for must come in order).
    #[inline]
    fn holds(&mut self, key: CompactKey) -> Result<bool, Stop> {
        while self.head.is_some_and(|h| h < key) {
            self.advance()?;
        }
        Ok(self.head == Some(key))
    }
}

/// Merges sorted `inputs` (a key may be in several) into `sink`: each key once, less the keys
/// of `except`.
fn merge(
    inputs: &mut [Cursor],
    except: &mut [Cursor],
    sink: &mut Sink,
    disk: Option<&Rc<Disk>>,
    budget: &Budget,
    watch: &mut Watch,
) -> Result<(), Stop> {
    let mut last: Option<CompactKey> = None;
    let mut merged = 0u64;
    while let Some(key) = inputs.iter().filter_map(Cursor::head).min() {
        for input in inputs.iter_mut() {
            if input.head() == Some(key) {
                input.advance()?;
            }
        }
        merged += 1;
        if merged.is_multiple_of(MERGE_POLL) {
            polled(budget, watch)?;
        }
        if last == Some(key) {
            continue;
        }
        last = Some(key);
        let mut seen = false;
        for e in except.iter_mut() {
            seen |= e.holds(key)?;
        }
        if !seen {
            sink.push(key, disk, budget, watch)?;
        }
    }
    Ok(())
}

/// Where a merge writes: memory while the bound allows, else (with a disk) a file.
enum Sink {
    Memory(Vec<CompactKey>),
    File(Writer<KEY>),
}

impl Sink {
    fn push(
        &mut self,
        key: CompactKey,
        disk: Option<&Rc<Disk>>,
        budget: &Budget,
        watch: &mut Watch,
    ) -> Result<(), Stop> {
        if let Sink::Memory(keys) = self {
            if budget.memory.reserve(keys, 1) {
                keys.push(key);
                return Ok(());
            }
            let mut out = disk.ok_or(Stop::Memory)?.create()?;
            append(&mut out, keys, budget, watch)?;
            *self = Sink::File(out);
        }
        match self {
            Sink::File(out) => out.push(&key.to_bytes()),
            Sink::Memory(_) => unreachable!("moved to a file above"),
        }
    }

    fn finish(self) -> Result<Sorted, Stop> {
        Ok(match self {
            Sink::Memory(mut keys) => {
                keys.shrink_to_fit();
                Sorted::Memory(keys)
            }
            Sink::File(out) => Sorted::File(out.finish()?),
        })
    }
}

/// The first place at or after `at` in `sorted` whose key is not below `key`: steps that
/// double, then a binary search. A run's tail is short beside the levels it is checked against
/// early in a level, and a scan key by key read each of those whole at every settle.
#[inline]
fn gallop(sorted: &[CompactKey], at: usize, key: CompactKey) -> usize {
    if at >= sorted.len() || sorted[at] >= key {
        return at.min(sorted.len());
    }
    // Below `key` at `low`; not below it at `low + step`, or past the end.
    let (mut low, mut step) = (at, 1);
    while low + step < sorted.len() && sorted[low + step] < key {
        low += step;
        step *= 2;
    }
    let high = (low + step).min(sorted.len());
    low + 1 + sorted[low + 1..high].partition_point(|k| *k < key)
}

/// Keys: a sorted, deduplicated part, then keys appended since, and sorted files (each
/// deduplicated, but a key may be in several).
#[derive(Default)]
pub struct Run {
    keys: Vec<CompactKey>,
    sorted: usize,
    files: Vec<Records<KEY>>,
}

impl Run {
    pub fn new() -> Run {
        Run::default()
    }

    /// The bytes its keys hold in memory.
    pub fn memory_bytes(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<CompactKey>()
    }

    /// Moves its keys in memory to a new file (settled first, less the keys of `except`).
    /// Past [`MOST_FILES`] files, they are merged into one: each is read through a buffer
    /// when the run is finished, and the buffers count against the memory bound.
    pub fn spill(
        &mut self,
        except: &[&[CompactKey]],
        disk: &Rc<Disk>,
        budget: &Budget,
        watch: &mut Watch,
    ) -> Result<(), Stop> {
        self.settle(except, budget, watch)?;
        if !self.keys.is_empty() {
            self.files.push(write(&self.keys, disk, budget, watch)?);
        }
        self.keys = Vec::new();
        self.sorted = 0;
        if self.files.len() > MOST_FILES {
            let mut inputs = Vec::with_capacity(self.files.len());
            for file in &self.files {
                inputs.push(Cursor::new(Source::File(file.read()?))?);
            }
            let mut sink = Sink::File(disk.create()?);
            merge(&mut inputs, &mut [], &mut sink, Some(disk), budget, watch)?;
            drop(inputs);
            let Sink::File(out) = sink else {
                unreachable!("a file sink stays a file")
            };
            self.files = vec![out.finish()?];
        }
        Ok(())
    }

    /// The keys, sorted, each once, less those of `except`: in memory if they are all there
    /// (as before there was disk), else merged; with a disk, in a file when they fill more
    /// than a quarter of the bound (a level is read in order, and the next needs the room).
    pub fn finish(
        mut self,
        except: &[&Sorted],
        disk: Option<&Rc<Disk>>,
        budget: &Budget,
        watch: &mut Watch,
    ) -> Result<Sorted, Stop> {
        let memory = &budget.memory;
        let in_memory: Vec<&[CompactKey]> = except.iter().filter_map(|s| s.in_memory()).collect();
        if self.files.is_empty() && in_memory.len() == except.len() {
            let mut sorted = Sorted::Memory(self.into_sorted(&in_memory, budget, watch)?);
            if let Some(disk) = disk.filter(|_| sorted.memory_bytes() > memory.max / 4) {
                sorted.spill(disk, budget, watch)?;
            }
            return Ok(sorted);
        }
        self.settle(&in_memory, budget, watch)?;
        drop(in_memory);
        let bound: u64 = self.keys.len() as u64 + self.files.iter().map(Records::len).sum::<u64>();
        let mut sink = match disk {
            Some(disk) if bound * KEY as u64 > (memory.max / 4) as u64 => {
                Sink::File(disk.create()?)
            }
            _ => Sink::Memory(Vec::new()),
        };
        let own = Sorted::Memory(std::mem::take(&mut self.keys));
        let mut inputs = vec![own.cursor()?];
        for file in &self.files {
            inputs.push(Cursor::new(Source::File(file.read()?))?);
        }
        let mut except: Vec<Cursor> = except
            .iter()
            .map(|s| s.cursor())
            .collect::<Result<_, _>>()?;
        merge(&mut inputs, &mut except, &mut sink, disk, budget, watch)?;
        drop(inputs);
        drop(own);
        sink.finish()
    }

    /// Appends `key`, first sorting the run's tail into its sorted part (less the keys of
    /// `except`) if the tail has grown half as long, or if the memory bound leaves no room for
    /// it otherwise. False if the bound forbids it even so; a limit that passed while it
    /// sorted stops it.
    pub fn push(
        &mut self,
        key: CompactKey,
        except: &[&[CompactKey]],
        budget: &Budget,
        watch: &mut Watch,
    ) -> Result<bool, Stop> {
        let memory = &budget.memory;
        if self.keys.len() == self.keys.capacity()
            && self.keys.len() - self.sorted >= (self.sorted / 2).max(LEAST_TAIL)
        {
            self.settle(except, budget, watch)?;
        }
        // At the bound, the tail's repeats are dropped before the run gives up, if the tail is
        // an eighth of the run: a settle costs the whole run, and one that freed a few places
        // would come again a few keys later (Streets and Alleys 3613 spent half an hour so,
        // settling a run of hundreds of millions of keys for every few keys it took).
        if !memory.reserve(&mut self.keys, 1) {
            if self.keys.len() - self.sorted < (self.sorted / 8).max(LEAST_TAIL) {
                return Ok(false);
            }
            self.settle(except, budget, watch)?;
            if !memory.reserve(&mut self.keys, 1) {
                return Ok(false);
            }
        }
        self.keys.push(key);
        Ok(true)
    }

    /// Sorts the tail, keeps the keys of it that are new (not in the sorted part, not in
    /// `except`, each sorted, not twice), and merges them into the sorted part: the sorted
    /// part is never sorted again (sorting was most of the pass's time when it was). Reads
    /// the clock and the interrupt flag as it goes: a limit passed leaves the run unfinished,
    /// and the pass ends.
    fn settle(
        &mut self,
        except: &[&[CompactKey]],
        budget: &Budget,
        watch: &mut Watch,
    ) -> Result<(), Stop> {
        let memory = &budget.memory;
        let (head, tail) = self.keys.split_at_mut(self.sorted);
        sort_polled(tail, budget, watch)?;
        let mut cursors = vec![0; except.len() + 1];
        let mut new = 0;
        for i in 0..tail.len() {
            if (i as u64 + 1).is_multiple_of(MERGE_POLL) {
                polled(budget, watch)?;
            }
            let key = tail[i];
            let seen = (new > 0 && tail[new - 1] == key)
                || std::iter::once(&*head)
                    .chain(except.iter().copied())
                    .zip(cursors.iter_mut())
                    .any(|(sorted, at)| {
                        *at = gallop(sorted, *at, key);
                        *at < sorted.len() && sorted[*at] == key
                    });
            if !seen {
                tail[new] = key;
                new += 1;
            }
        }
        // Merged from the back, the new keys set aside first.
        let mut fresh: Vec<CompactKey> = Vec::new();
        if !memory.reserve(&mut fresh, new) {
            // No room beside the run: sort it whole, in place.
            self.keys.truncate(self.sorted + new);
            sort_polled(&mut self.keys, budget, watch)?;
            self.sorted = self.keys.len();
            return Ok(());
        }
        fresh.extend_from_slice(&self.keys[self.sorted..self.sorted + new]);
        let (mut i, mut j) = (self.sorted, new);
        self.keys.truncate(self.sorted + new);
        for k in (0..self.keys.len()).rev() {
            if j == 0 {
                break;
            }
            if (k as u64).is_multiple_of(MERGE_POLL) {
                polled(budget, watch)?;
            }
            if i > 0 && self.keys[i - 1] > fresh[j - 1] {
                self.keys[k] = self.keys[i - 1];
                i -= 1;
            } else {
                self.keys[k] = fresh[j - 1];
                j -= 1;
            }
        }
        self.sorted = self.keys.len();
        Ok(())
    }

    /// The keys, sorted and deduplicated, less those of `except`. A settle checks only the
    /// tail: the sorted part must have been settled against `except` already (every push
    /// given them, as far as they were known then).
    pub fn into_sorted(
        mut self,
        except: &[&[CompactKey]],
        budget: &Budget,
        watch: &mut Watch,
    ) -> Result<Vec<CompactKey>, Stop> {
        self.settle(except, budget, watch)?;
        self.keys.shrink_to_fit();
        Ok(self.keys)
    }
}

/// Sorts `keys` as `sort_unstable` does, reading the clock and the interrupt flag between
/// pieces of at most [`SORT_PIECE`] keys: a larger slice is first split in place around a
/// pivot (the median of a sample), and the sides sorted apart.
fn sort_polled(keys: &mut [CompactKey], budget: &Budget, watch: &mut Watch) -> Result<(), Stop> {
    sort_in_pieces(keys, SORT_PIECE, budget, watch)
}

fn sort_in_pieces(
    keys: &mut [CompactKey],
    piece: usize,
    budget: &Budget,
    watch: &mut Watch,
) -> Result<(), Stop> {
    if keys.len() <= piece.max(SAMPLE) {
        keys.sort_unstable();
        return polled(budget, watch);
    }
    let n = keys.len();
    let mut sample: [CompactKey; SAMPLE] = std::array::from_fn(|i| keys[i * (n / SAMPLE)]);
    sample.sort_unstable();
    let pivot = sample[SAMPLE / 2];
    let below = partition(keys, |k| *k < pivot);
    polled(budget, watch)?;
    if below == 0 {
        // The pivot is the least key: the keys equal to it go first, and are sorted.
        let equal = partition(keys, |k| *k == pivot);
        return sort_in_pieces(&mut keys[equal..], piece, budget, watch);
    }
    // Both sides are shorter than the whole: the pivot is on the right, and the left is not
    // empty.
    let (low, high) = keys.split_at_mut(below);
    sort_in_pieces(low, piece, budget, watch)?;
    sort_in_pieces(high, piece, budget, watch)
}

/// Keys sampled for a pivot.
const SAMPLE: usize = 31;

/// Moves the keys that satisfy `first` before the others; returns how many there are.
/// Without branches on the comparison (Lomuto's scheme, each key written where the count
/// says): the keys' order is random to the branch predictor, and a mispredicted branch a key
/// made this twice as slow as the standard sort's own partitions.
fn partition(keys: &mut [CompactKey], first: impl Fn(&CompactKey) -> bool) -> usize {
    let mut count = 0;
    for i in 0..keys.len() {
        keys.swap(i, count);
        count += first(&keys[count]) as usize;
    }
    count
}

/// A limit passed, or the caller asked to stop.
pub fn polled(budget: &Budget, watch: &mut Watch) -> Result<(), Stop> {
    budget.poll(watch).map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::budget::Deadline;
    use crate::solver::disk::Spill;
    use crate::solver::heap::Memory;
    use std::collections::BTreeSet;

    /// No limit but a GiB of memory.
    fn unlimited() -> Budget {
        Budget {
            max_states: None,
            deadline: Deadline::NONE,
            memory: Memory::from_now(1 << 30),
        }
    }

    fn memory_part(sorted: &Sorted) -> &[CompactKey] {
        sorted.in_memory().unwrap_or(&[])
    }

    /// Sorting in pieces split at the median gives what `sort_unstable` gives, repeats and
    /// all; a limit passed or an interrupt stops it at the first look.
    #[test]
    fn a_sort_in_pieces_sorts_and_stops_when_asked() {
        let mut seed = 99u64;
        let keys: Vec<CompactKey> = (0..100_000)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let n = (seed >> 40) as u32 % 5_000;
                CompactKey::from_words([n.rotate_left(9), n, 0, 0, (n % 3) << 29 | 1 << 31])
            })
            .collect();
        let mut expected = keys.clone();
        expected.sort_unstable();
        let mut never = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut never);
        let mut budget = unlimited();
        let same = vec![keys[0]; 5_000];
        let mut reversed = expected.clone();
        reversed.reverse();
        for input in [&keys, &expected, &reversed, &same] {
            let mut sorted = input.clone();
            sorted.sort_unstable();
            for piece in [1, 7, 1000, 1 << 20] {
                let mut got = input.clone();
                sort_in_pieces(&mut got, piece, &budget, &mut watch).unwrap();
                assert!(got == sorted, "piece {piece}");
            }
        }
        budget.deadline.wall = Some(std::time::Instant::now());
        let ended = sort_in_pieces(&mut keys.clone(), 1000, &budget, &mut watch);
        assert_eq!(ended, Err(Stop::Seconds));
        budget.deadline.wall = None;
        let mut asked = 0;
        let mut stop = || {
            asked += 1;
            true
        };
        let long_ago = std::time::Instant::now() - std::time::Duration::from_secs(1);
        {
            let mut watch = Watch::new(long_ago, &mut stop);
            let ended = sort_in_pieces(&mut keys.clone(), 1000, &budget, &mut watch);
            assert_eq!(ended, Err(Stop::Interrupted));
        }
        assert_eq!(asked, 1);
    }

    /// Keys written to a file stop at a passed deadline (after the first million), and the
    /// directory goes with the disk.
    #[test]
    fn a_write_to_disk_stops_at_a_passed_deadline() {
        let dir = std::env::temp_dir().join(format!("castle-test-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spill = Spill {
            dir: dir.clone(),
            max_bytes: u64::MAX,
        };
        let disk = Disk::open(&spill, 4 << 10).unwrap();
        let keys: Vec<CompactKey> = (0..MERGE_POLL as u32 + 10)
            .map(|n| CompactKey::from_words([n, 0, 0, 0, 1 << 31]))
            .collect();
        let mut never = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut never);
        let mut budget = unlimited();
        let mut sorted = Sorted::Memory(keys.clone());
        sorted.spill(&disk, &budget, &mut watch).unwrap();
        assert_eq!(sorted.len(), keys.len() as u64);
        budget.deadline.wall = Some(std::time::Instant::now());
        let mut late = Sorted::Memory(keys);
        assert_eq!(
            late.spill(&disk, &budget, &mut watch).err(),
            Some(Stop::Seconds)
        );
        drop((sorted, late, disk));
        assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The galloping search finds what a binary search from the same place finds.
    #[test]
    fn gallop_finds_the_first_key_not_below() {
        let key = |n: u32| CompactKey::from_words([n, 0, 0, 0, 1 << 31]);
        let sorted: Vec<CompactKey> = (0..300).map(|n| key(2 * n)).collect();
        for at in [0, 1, 7, 150, 299, 300] {
            for n in 0..610 {
                let expected = at + sorted[at..].partition_point(|k| *k < key(n));
                assert_eq!(gallop(&sorted, at, key(n)), expected, "from {at} for {n}");
            }
        }
        assert_eq!(gallop(&[], 0, key(1)), 0);
    }

    /// A run given keys with many repeats, settled now and then (and spilled to files now and
    /// then), holds each key once, in order, less those of `except` (in memory or in a file):
    /// as a set difference would.
    #[test]
    fn a_run_keeps_each_new_key_once_in_order() {
        let dir = std::env::temp_dir().join(format!("castle-test-runs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let disk = Disk::open(
            &Spill {
                dir: dir.clone(),
                max_bytes: u64::MAX,
            },
            4 << 10,
        )
        .unwrap();
        let mut never = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut never);
        let budget = unlimited();
        let mut seed = 12345u64;
        let mut random = |below: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % below
        };
        // Keys that differ in every word, the high one last (the order compares it first).
        let key = |n: u64| {
            let n = n as u32;
            CompactKey::from_words([n.rotate_left(7), n, !n, n >> 3, (n % 7) << 29 | 1 << 31])
        };
        for universe in [10, 5_000, 60_000] {
            let except_a: Vec<CompactKey> = {
                let mut v: Vec<_> = (0..universe / 3).map(|_| key(random(universe))).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let mut except_b: Vec<CompactKey> = (0..universe).step_by(5).map(key).collect();
            except_b.sort_unstable();
            let expected = |keys: &BTreeSet<CompactKey>| -> Vec<CompactKey> {
                keys.iter()
                    .copied()
                    .filter(|k| {
                        except_a.binary_search(k).is_err() && except_b.binary_search(k).is_err()
                    })
                    .collect()
            };
            // In memory.
            let mut run = Run::new();
            let sequence: Vec<CompactKey> = (0..4 * universe + 20_000)
                .map(|_| key(random(universe)))
                .collect();
            let pushed: BTreeSet<CompactKey> = sequence.iter().copied().collect();
            for &k in &sequence {
                assert!(run
                    .push(k, &[&except_a, &except_b], &budget, &mut watch)
                    .unwrap());
            }
            let got = run
                .into_sorted(&[&except_a, &except_b], &budget, &mut watch)
                .unwrap();
            assert_eq!(got, expected(&pushed), "{universe}");
            // Spilled to files now and then, `except_b` in a file too; merged into memory,
            // and into a file.
            let mut in_file = Sorted::Memory(except_b.clone());
            in_file.spill(&disk, &budget, &mut watch).unwrap();
            let except_a = Sorted::Memory(except_a.clone());
            for merged_into in [1 << 30, 1 << 10] {
                let mut run = Run::new();
                for (i, &k) in sequence.iter().enumerate() {
                    assert!(run
                        .push(k, &[memory_part(&except_a)], &budget, &mut watch)
                        .unwrap());
                    if i % 2_001 == 2_000 {
                        let held = [memory_part(&except_a)];
                        run.spill(&held, &disk, &budget, &mut watch).unwrap();
                    }
                }
                let into = Budget {
                    memory: Memory::from_now(merged_into),
                    ..unlimited()
                };
                let got = run
                    .finish(&[&except_a, &in_file], Some(&disk), &into, &mut watch)
                    .unwrap();
                assert_eq!(matches!(got, Sorted::File(_)), merged_into < 1 << 20);
                let mut keys = Vec::new();
                let mut at = got.cursor().unwrap();
                while let Some(k) = at.head() {
                    keys.push(k);
                    at.advance().unwrap();
                }
                assert_eq!(keys, expected(&pushed), "{universe} {merged_into}");
            }
        }
        drop(disk);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
