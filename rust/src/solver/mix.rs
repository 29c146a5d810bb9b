//! splitmix64's finalizer, the one mixer of the solvers' hashes (the castle beams'
//! fingerprints, the free-cell keys, Spider's column terms).

/// Spreads `x` over all 64 bits: nearby numbers to far-apart ones, every bit of `x` moving
/// every bit of the result.
#[inline]
pub const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
