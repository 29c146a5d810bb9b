//! Disk for a search whose memory bound is reached: files of fixed-size
//! records, written and read in order, in a directory of their own under the caller's spill
//! directory, counted against the caller's disk bound.
//!
//! A write that would pass the bound, or leave the file system less than [`MARGIN`] free, or
//! that fails (a full disk, a directory taken away) stops the search with `Stop::Disk`: never
//! a panic and never a full disk. The directory and its files are removed when the search
//! drops them (and on a panic, which unwinds); a killed process leaves them behind, under a
//! name that says whose they were.

use std::cell::Cell;
use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::budget::Stop;

/// Where a search may spill, and how much.
#[derive(Clone, Debug)]
pub struct Spill {
    pub dir: PathBuf,
    /// At most this many bytes of files at once.
    pub max_bytes: u64,
}

thread_local! {
    /// The bytes the spill files of the search on this thread hold (for progress).
    static SPILLED: Cell<u64> = const { Cell::new(0) };
}

/// The bytes the spill files of the search running on this thread hold now.
pub fn spilled_now() -> u64 {
    SPILLED.try_with(Cell::get).unwrap_or(0)
}

/// What the file system must keep free, whatever the bound: other programs need it too.
pub const MARGIN: u64 = 256 << 20;
/// A writer charges its bytes to the bound this many at a time, before it writes them.
const CHARGE: u64 = 16 << 20;

/// A search's spill directory: its files, and the bytes they hold.
pub struct Disk {
    dir: PathBuf,
    /// Each writer's and reader's buffer (they count against the memory bound).
    buffer: usize,
    max_bytes: u64,
    used: Cell<u64>,
    files: Cell<u64>,
}

impl Disk {
    /// Makes a directory of this search's own in `spill.dir` (which must exist), for files
    /// read and written through buffers of `buffer` bytes.
    pub fn open(spill: &Spill, buffer: usize) -> Result<Rc<Disk>, Stop> {
        static SEARCHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SEARCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let host = host_name();
        remove_left_behind(&spill.dir, &host);
        let pid = std::process::id();
        let dir = spill.dir.join(format!("{PREFIX}{host}-{pid}-{n}"));
        fs::create_dir(&dir).map_err(|_| Stop::Disk)?;
        Ok(Rc::new(Disk {
            dir,
            buffer,
            max_bytes: spill.max_bytes,
            used: Cell::new(0),
            files: Cell::new(0),
        }))
    }

    /// The bytes this search's files hold now.
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    /// Counts `bytes` more against the bound, if it and the file system allow them.
    fn charge(&self, bytes: u64) -> Result<(), Stop> {
        if !fits(
            self.used.get(),
            bytes,
            self.max_bytes,
            free_bytes(&self.dir),
        ) {
            return Err(Stop::Disk);
        }
        self.set_used(self.used.get() + bytes);
        Ok(())
    }

    fn release(&self, bytes: u64) {
        self.set_used(self.used.get().saturating_sub(bytes));
    }

    fn set_used(&self, bytes: u64) {
        self.used.set(bytes);
        let _ = SPILLED.try_with(|s| s.set(bytes));
    }

    /// A new file of records of `N` bytes, written in order.
    pub fn create<const N: usize>(self: &Rc<Disk>) -> Result<Writer<N>, Stop> {
        let n = self.files.get();
        self.files.set(n + 1);
        let path = self.dir.join(format!("{n}.keys"));
        let file = File::create(&path).map_err(|_| Stop::Disk)?;
        Ok(Writer {
            out: BufWriter::with_capacity(self.buffer, file),
            records: Records {
                path,
                count: 0,
                charged: 0,
                disk: Rc::clone(self),
            },
        })
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
        // Its files are gone: the next search on this thread must not report them.
        self.set_used(0);
    }
}

/// Whether `bytes` more may be written, with `used` written already, under the bound `max`
/// and with `free` bytes free on the file system (None: not known).
fn fits(used: u64, bytes: u64, max: u64, free: Option<u64>) -> bool {
    used.checked_add(bytes).is_some_and(|u| u <= max)
        && free.is_none_or(|f| f >= bytes.saturating_add(MARGIN))
}

/// The start of a search's directory's name; then the host, the process and the search.
const PREFIX: &str = "castle-spill-";

/// This machine's name, as a directory's name may hold it ("host" if it has none).
fn host_name() -> String {
    let mut name = [0u8; 256];
    #[cfg(unix)]
    // SAFETY: the buffer is as long as the length given; gethostname NUL-terminates or fails.
    let known = unsafe { libc::gethostname(name.as_mut_ptr().cast(), name.len() - 1) } == 0;
    #[cfg(not(unix))]
    let known = false;
    let end = name.iter().position(|&b| b == 0).unwrap_or(0);
    let host: String = String::from_utf8_lossy(&name[..end])
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if known && !host.is_empty() {
        host
    } else {
        "host".to_string()
    }
}

/// Removes the directories that searches of this host left in `dir` when they were killed
/// (their process is gone). Another host's, sharing the directory, are left alone: its
/// processes cannot be asked.
fn remove_left_behind(dir: &Path, host: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let ours = format!("{PREFIX}{host}-");
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&ours)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !process_alive(pid) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` exists on this machine (or cannot be asked: then it is taken to).
#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let sent = unsafe { libc::kill(pid, 0) } == 0;
    sent || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}

/// The bytes free to this user on the file system that holds `path` (None where it cannot
/// be asked: then only the caller's bound applies).
#[cfg(unix)]
fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a NUL-terminated path and `stat` a statvfs for the call to fill.
    if unsafe { libc::statvfs(c.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    Some((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

#[cfg(not(unix))]
fn free_bytes(_path: &Path) -> Option<u64> {
    None
}

/// A file of records on disk; removed, and its bytes given back to the bound, when dropped.
pub struct Records<const N: usize> {
    path: PathBuf,
    count: u64,
    /// Bytes counted against the bound (at least those written).
    charged: u64,
    disk: Rc<Disk>,
}

impl<const N: usize> Records<N> {
    /// Records in the file.
    pub fn len(&self) -> u64 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Reads the records back, in order.
    pub fn read(&self) -> Result<Reader<N>, Stop> {
        let file = File::open(&self.path).map_err(|_| Stop::Disk)?;
        Ok(Reader {
            input: BufReader::with_capacity(self.disk.buffer, file),
            left: self.count,
        })
    }
}

impl<const N: usize> Drop for Records<N> {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
        self.disk.release(self.charged);
    }
}

/// Writes records to a new file, in order.
pub struct Writer<const N: usize> {
    out: BufWriter<File>,
    records: Records<N>,
}

impl<const N: usize> Writer<N> {
    pub fn push(&mut self, record: &[u8; N]) -> Result<(), Stop> {
        let bytes = (self.records.count + 1) * N as u64;
        if bytes > self.records.charged {
            // A small bound is charged in smaller steps, so that it can be used.
            let step = CHARGE.min(self.records.disk.max_bytes / 16).max(N as u64);
            self.records.disk.charge(step)?;
            self.records.charged += step;
        }
        self.out.write_all(record).map_err(|_| Stop::Disk)?;
        self.records.count += 1;
        Ok(())
    }

    /// The file, written through (its unused charge given back).
    pub fn finish(mut self) -> Result<Records<N>, Stop> {
        self.out.flush().map_err(|_| Stop::Disk)?;
        let bytes = self.records.count * N as u64;
        self.records.disk.release(self.records.charged - bytes);
        self.records.charged = bytes;
        Ok(self.records)
    }
}

/// Reads a file's records in order.
pub struct Reader<const N: usize> {
    input: BufReader<File>,
    left: u64,
}

impl<const N: usize> Reader<N> {
    /// The next record (None after the last); a file cut short is `Stop::Disk`.
    pub fn record(&mut self) -> Result<Option<[u8; N]>, Stop> {
        if self.left == 0 {
            return Ok(None);
        }
        let mut record = [0u8; N];
        self.input.read_exact(&mut record).map_err(|_| Stop::Disk)?;
        self.left -= 1;
        Ok(Some(record))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write passes neither the bound nor the margin the disk keeps free.
    #[test]
    fn a_write_must_fit_the_bound_and_leave_the_margin() {
        assert!(fits(0, 100, 100, None));
        assert!(!fits(1, 100, 100, None));
        assert!(fits(0, 100, u64::MAX, Some(100 + MARGIN)));
        assert!(!fits(0, 100, u64::MAX, Some(99 + MARGIN)));
        assert!(!fits(u64::MAX, 1, u64::MAX, None));
        assert!(free_bytes(&std::env::temp_dir()).is_some_and(|f| f > 0));
    }

    /// Records come back as written; the files and the directory go when dropped; a
    /// directory a killed search of this host left is removed by the next search, and
    /// another host's, and a live process's, are not.
    #[test]
    fn files_come_back_in_order_and_go() {
        let dir = std::env::temp_dir().join(format!("castle-test-disk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        let host = host_name();
        let dead = dir.join(format!("{PREFIX}{host}-999999999-0"));
        let alive = dir.join(format!("{PREFIX}{host}-{}-77", std::process::id()));
        let other = dir.join(format!("{PREFIX}elsewhere.example-999999999-0"));
        for d in [&dead, &alive, &other] {
            fs::create_dir(d).unwrap();
            fs::write(d.join("0.keys"), b"x").unwrap();
        }
        let spill = Spill {
            dir: dir.clone(),
            max_bytes: 1 << 20,
        };
        let disk = Disk::open(&spill, 4096).unwrap();
        assert!(!dead.exists() && alive.exists() && other.exists());
        let mut out: Writer<3> = disk.create().unwrap();
        for i in 0..1000u16 {
            let [a, b] = i.to_le_bytes();
            out.push(&[a, b, 7]).unwrap();
        }
        let records = out.finish().unwrap();
        assert_eq!((records.len(), disk.used()), (1000, 3000));
        let mut reader = records.read().unwrap();
        for i in 0..1000u16 {
            let [a, b] = i.to_le_bytes();
            assert_eq!(reader.record().unwrap(), Some([a, b, 7]));
        }
        assert_eq!(reader.record().unwrap(), None);
        drop(reader);
        drop(records);
        assert_eq!(disk.used(), 0);
        // Past the bound: the disk, named.
        let mut big: Writer<3> = disk.create().unwrap();
        let ended = (0..1_000_000).try_for_each(|_| big.push(&[1, 2, 3]));
        assert_eq!(ended, Err(Stop::Disk));
        drop(big);
        drop(disk);
        // The files are gone: a later search on this thread reports none of them.
        assert_eq!(spilled_now(), 0);
        let left: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
