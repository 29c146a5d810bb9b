//! What a search holds: every byte the crate allocates, counted per thread, so that
//! `max_memory` bounds all that a solve holds (its tables, its stacks and move lists, its beam
//! layers), not the table alone.
//!
//! The crate's global allocator is the system's with a count beside it: each thread adds what
//! it allocates and takes off what it frees. A solve runs on one thread from start to end, so
//! the count on that thread less the count when it started is what the solve holds.
//!
//! So that the process holds no more than the count says, blocks of 256 KiB or more (tables,
//! stacks, beam layers, the layers' runs) are mapped from the system one by one on Linux and
//! given back when freed: left to glibc's malloc, a large block freed stays resident in its
//! heap, and the next pass's table came on top. Smaller blocks stay in glibc's heap, which
//! reuses them without a page fault. A Spider step's beam leaves many small blocks (its
//! positions) in the heap: [`release`] hands them back after each step. docs/memory.md has the
//! measures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting each thread's bytes.
pub struct Counting;

thread_local! {
    /// Bytes this thread allocated less the bytes it freed (negative if it freed what another
    /// thread allocated).
    static HELD: Cell<isize> = const { Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// The most this thread held since [`reset_peak`] (kept for the tests only).
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Adds `delta` bytes to this thread's count (nothing while the thread is being torn down).
#[inline]
fn count(delta: isize) {
    let _ = HELD.try_with(|held| {
        let now = held.get() + delta;
        held.set(now);
        #[cfg(test)]
        if delta > 0 {
            let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
        }
    });
}

/// What a block of `size` bytes takes from the system: a mapped block, whole pages; a block
/// of the heap, its size with glibc malloc's 8-byte header, rounded to 16 bytes, 32 at the
/// least (elsewhere a near enough guess).
#[inline]
fn footprint(size: usize) -> isize {
    if pages::mapped(size) {
        pages::round(size) as isize
    } else {
        ((size + 8 + 15) & !15).max(32) as isize
    }
}

// SAFETY: a block is mapped apart exactly when its layout says so (`pages::fits`), at its
// allocation, its reallocation and its release alike; every other block goes to `System`
// unchanged. The count is bookkeeping beside it and allocates nothing (a constant-initialised
// thread-local without a destructor).
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if pages::fits(layout) {
            pages::map(layout.size())
        } else {
            System.alloc(layout)
        };
        if !p.is_null() {
            count(footprint(layout.size()));
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // Fresh pages are zero.
        let p = if pages::fits(layout) {
            pages::map(layout.size())
        } else {
            System.alloc_zeroed(layout)
        };
        if !p.is_null() {
            count(footprint(layout.size()));
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if pages::fits(layout) {
            pages::unmap(ptr, layout.size());
        } else {
            System.dealloc(ptr, layout);
        }
        count(-footprint(layout.size()));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        if pages::in_place(layout.size(), new_size, layout.align()) {
            // Its pages move, none is copied: the block only grows or shrinks.
            let p = pages::remap(ptr, layout.size(), new_size);
            if !p.is_null() {
                count(footprint(new_size) - footprint(layout.size()));
            }
            return p;
        }
        // The old block may live on beside the new one while it is copied: count the new one
        // first, so that the peak sees both.
        count(footprint(new_size));
        // Between the heap and a mapped block (mapped to mapped was remapped above).
        let p = if pages::fits(new) {
            let p = pages::map(new_size);
            if !p.is_null() {
                std::ptr::copy_nonoverlapping(ptr, p, layout.size());
                System.dealloc(ptr, layout);
            }
            p
        } else if pages::fits(layout) {
            let p = System.alloc(new);
            if !p.is_null() {
                std::ptr::copy_nonoverlapping(ptr, p, new_size);
                pages::unmap(ptr, layout.size());
            }
            p
        } else {
            System.realloc(ptr, layout, new_size)
        };
        if p.is_null() {
            count(-footprint(new_size));
        } else {
            count(-footprint(layout.size()));
        }
        p
    }
}

/// Large blocks mapped from the system one by one (Linux on x86-64 and AArch64).
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod pages {
    use std::alloc::Layout;
    use std::ffi::{c_int, c_long, c_void};

    extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            offset: c_long,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> c_int;
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
        fn mremap(
            old: *mut c_void,
            old_len: usize,
            new_len: usize,
            flags: c_int,
            ...
        ) -> *mut c_void;
    }

    const PROT_READ: c_int = 1;
    const PROT_WRITE: c_int = 2;
    const MAP_PRIVATE: c_int = 2;
    const MAP_ANONYMOUS: c_int = 0x20;
    const MREMAP_MAYMOVE: c_int = 1;
    const MADV_HUGEPAGE: c_int = 14;
    /// A huge page (x86-64 and AArch64 with 4 KiB pages): smaller blocks can hold none.
    const HUGE_PAGE: usize = 2 << 20;
    const MAP_FAILED: *mut c_void = !0 as *mut c_void;
    /// Mapped blocks start on a page: at least this aligned.
    const PAGE: usize = 4096;

    /// Blocks of this size or more are mapped apart.
    pub const THRESHOLD: usize = 1 << 18;

    /// Whether a block of `size` bytes is mapped apart (if its alignment allows).
    #[inline]
    pub fn mapped(size: usize) -> bool {
        size >= THRESHOLD
    }

    #[inline]
    pub fn fits(layout: Layout) -> bool {
        mapped(layout.size()) && layout.align() <= PAGE
    }

    /// Whether a block of `old` bytes grows to `new` by [`remap`], its contents not copied.
    #[inline]
    pub fn in_place(old: usize, new: usize, align: usize) -> bool {
        mapped(old) && mapped(new) && align <= PAGE
    }

    #[inline]
    pub fn round(size: usize) -> usize {
        size.div_ceil(PAGE) * PAGE
    }

    fn or_null(p: *mut c_void) -> *mut u8 {
        if p == MAP_FAILED {
            std::ptr::null_mut()
        } else {
            p.cast()
        }
    }

    pub unsafe fn map(size: usize) -> *mut u8 {
        let flags = MAP_PRIVATE | MAP_ANONYMOUS;
        let prot = PROT_READ | PROT_WRITE;
        let p = mmap(std::ptr::null_mut(), size, prot, flags, -1, 0);
        if p != MAP_FAILED && size >= HUGE_PAGE {
            // Huge pages where the system gives them on request: a table's random lookups
            // then miss the address cache far less (the solver's research notes). Only advice:
            // a system without them maps the block as before.
            madvise(p, size, MADV_HUGEPAGE);
        }
        or_null(p)
    }

    pub unsafe fn unmap(p: *mut u8, size: usize) {
        munmap(p.cast(), size);
    }

    /// The block moved to `new_size` bytes: its pages keep their contents, nothing is copied.
    pub unsafe fn remap(p: *mut u8, size: usize, new_size: usize) -> *mut u8 {
        or_null(mremap(p.cast(), size, new_size, MREMAP_MAYMOVE))
    }
}

/// Elsewhere every block comes from the system allocator.
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod pages {
    use std::alloc::Layout;

    pub fn mapped(_size: usize) -> bool {
        false
    }
    pub fn fits(_layout: Layout) -> bool {
        false
    }
    pub fn in_place(_old: usize, _new: usize, _align: usize) -> bool {
        false
    }
    pub fn round(size: usize) -> usize {
        size
    }
    pub unsafe fn map(_size: usize) -> *mut u8 {
        unreachable!()
    }
    pub unsafe fn unmap(_p: *mut u8, _size: usize) {
        unreachable!()
    }
    pub unsafe fn remap(_p: *mut u8, _size: usize, _new_size: usize) -> *mut u8 {
        unreachable!()
    }
}

/// Gives the heap's free memory back to the system (glibc keeps it resident otherwise).
pub fn release() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: malloc_trim only returns free memory to the system; any thread may call it.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// This thread's count now.
fn held() -> isize {
    HELD.try_with(Cell::get).unwrap_or(0)
}

/// The bytes this thread holds now, counted as `max_memory` counts them (for progress).
pub fn held_now() -> usize {
    held().max(0) as usize
}

/// The bytes a search may hold, and what this thread held when it started.
#[derive(Copy, Clone, Debug)]
pub struct Memory {
    pub max: usize,
    mark: isize,
}

impl Memory {
    /// A bound of `max` bytes on what this thread allocates from now on.
    pub fn from_now(max: usize) -> Memory {
        Memory { max, mark: held() }
    }

    /// The bytes this thread holds now beyond what it held at the start.
    #[inline]
    pub fn used(&self) -> usize {
        (held() - self.mark).max(0) as usize
    }

    /// Whether `more` bytes may be allocated now without passing the bound.
    #[inline]
    pub fn allows(&self, more: usize) -> bool {
        self.used().saturating_add(more) <= self.max
    }

    /// Makes room in `v` for `extra` more items if the bound allows it (false if not). It
    /// grows by a quarter, or what is needed, not by doubling: a search's stack may be
    /// millions of frames, and its spare capacity counts against the bound. Near the bound it
    /// grows by a sixteenth, or what is needed. A block the system maps grows in place, so
    /// only what it adds is new; a smaller block is copied, and its old storage counted
    /// meanwhile. (Counting the whole grown block beside the old one let a run of keys fill
    /// only 44% of the bound.)
    #[inline]
    pub fn reserve<T>(&self, v: &mut Vec<T>, extra: usize) -> bool {
        let needed = v.len() + extra;
        let capacity = v.capacity();
        if needed <= capacity {
            return true;
        }
        let size = std::mem::size_of::<T>();
        let align = std::mem::align_of::<T>();
        // What the count will add: whole pages for a mapped block.
        let fits = |items: usize| {
            let (old, new) = (capacity * size, items * size);
            self.allows(if pages::in_place(old, new, align) {
                (footprint(new) - footprint(old)) as usize
            } else {
                footprint(new) as usize
            })
        };
        let Some(grown) = [capacity + capacity / 4, capacity + capacity / 16]
            .into_iter()
            .map(|items| items.max(needed).max(16))
            .find(|&items| fits(items))
        else {
            return false;
        };
        v.reserve_exact(grown - v.len());
        true
    }
}

/// At most the bytes of a hash map of `T` entries made for `n` of them (hashbrown: a power of
/// two of slots, at most 7/8 full, and a control byte each, 16 more).
pub fn map_bytes<T>(n: usize) -> usize {
    let slots = (n.max(8) * 8 / 7).next_power_of_two();
    slots * (size_of::<T>() + 1) + 16
}

#[cfg(test)]
/// Starts this thread's peak over: the most it held from now on is [`peak_since`]'s.
pub fn reset_peak() {
    let now = held();
    let _ = PEAK.try_with(|peak| peak.set(now));
}

#[cfg(test)]
/// The most this thread held since [`reset_peak`], beyond what `memory` started from.
pub fn peak_since(memory: &Memory) -> usize {
    (PEAK.try_with(Cell::get).unwrap_or(0) - memory.mark).max(0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_follows_allocations_and_frees() {
        let memory = Memory::from_now(1 << 20);
        reset_peak();
        let v: Vec<u64> = Vec::with_capacity(1000);
        assert_eq!(memory.used() as isize, footprint(8000));
        let mut w: Vec<u8> = Vec::with_capacity(100);
        w.extend([0; 100]);
        w.push(1); // grows to 200 while the old 100 still lives
        assert_eq!(memory.used() as isize, footprint(8000) + footprint(200));
        let both = footprint(8000) + footprint(100) + footprint(200);
        assert!(peak_since(&memory) as isize >= both);
        drop((v, w));
        assert_eq!(memory.used(), 0);
        assert!(memory.allows(1 << 20) && !memory.allows((1 << 20) + 1));
        let mut v: Vec<u64> = Vec::with_capacity(16);
        v.extend([0; 16]);
        assert!(memory.reserve(&mut v, 0) && v.capacity() == 16);
        // Growing by a quarter, to 20 items (160 bytes) beside the old 128: fits in 1 MiB, not
        // in 200 bytes.
        assert!(!Memory { max: 200, ..memory }.reserve(&mut v, 1));
        assert_eq!(v.capacity(), 16);
        assert!(memory.reserve(&mut v, 1) && v.capacity() == 20);
        assert!(memory.reserve(&mut v, 100) && v.capacity() == 116);
    }

    #[test]
    fn large_blocks_are_counted_in_pages_and_given_back() {
        const BIG: usize = 3_000_000;
        let memory = Memory::from_now(1 << 30);
        // From the heap to a mapped block, grown, then back to the heap.
        assert!(!pages::mapped(BIG / 20));
        let mut v: Vec<u8> = Vec::with_capacity(BIG / 20);
        v.resize(BIG / 20, 7);
        v.reserve_exact(BIG - v.len());
        assert_eq!(memory.used() as isize, footprint(BIG));
        if pages::mapped(BIG) {
            assert_eq!(footprint(BIG), 733 * 4096);
        }
        v.resize(BIG, 8);
        v.push(9); // moved by the system when mapped, not copied
        assert_eq!(memory.used() as isize, footprint(2 * BIG));
        assert_eq!((v[BIG / 20 - 1], v[BIG - 1], v[BIG]), (7, 8, 9));
        v.truncate(10);
        v.shrink_to_fit();
        assert_eq!((memory.used() as isize, v[9]), (footprint(10), 7));
        let zeroed = vec![0u64; BIG];
        assert!(zeroed.iter().all(|&x| x == 0));
        drop((v, zeroed));
        assert_eq!(memory.used(), 0);
    }

    /// A vector of keys grown item by item fills most of the bound: a mapped block grows in
    /// place, so the bound holds the grown block, not the old one beside it; the peak the
    /// count saw stays within the bound.
    #[test]
    fn a_vector_grows_to_near_the_bound() {
        let memory = Memory::from_now(64 << 20);
        reset_peak();
        let mut v: Vec<[u32; 5]> = Vec::new();
        while memory.reserve(&mut v, 1) {
            v.push([v.len() as u32; 5]);
        }
        let bytes = v.len() * 20;
        assert!(bytes * 10 > (64 << 20) * 9, "{bytes} bytes of {}", 64 << 20);
        assert!(
            peak_since(&memory) <= 64 << 20,
            "peak {}",
            peak_since(&memory)
        );
        assert!(v.iter().enumerate().all(|(i, k)| k[0] == i as u32));
    }

    #[test]
    fn another_thread_counts_its_own() {
        let memory = Memory::from_now(1 << 20);
        let other = std::thread::spawn(|| {
            let m = Memory::from_now(1 << 20);
            let v = vec![0u8; 5000];
            (m.used(), v.len())
        })
        .join()
        .unwrap();
        assert_eq!(other, (footprint(5000) as usize, 5000));
        // Here only the thread's handle was allocated, not the other thread's block.
        assert!(memory.used() < 1000, "{}", memory.used());
    }
}
