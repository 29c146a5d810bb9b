//! PySolFC's two deal generators, bit for bit, its shuffle, and the range of deal numbers:
//! what the castle games' deals and Spider's share.
//!
//! PySolFC shuffles deal N with its Microsoft-compatible linear congruential generator when
//! N < 32000 and with CPython's Mersenne Twister (`random.Random(N)`) from 32000 on. (The
//! `pysol_cards` package switches at N <= 32000; PySolFC itself is the reference here.)

/// Deal numbers below this use the LCG; from here on, the Mersenne Twister.
pub const MT_FROM: u64 = 32000;

/// Deal numbers run from 1 to this (PySolFC's generators take any of them).
pub const MAX_NUMBER: u64 = i64::MAX as u64;

/// The Microsoft C runtime `rand()` LCG, as PySolFC's `LCRandom31` uses it for small seeds.
pub struct MsRandom {
    state: u64,
}

impl MsRandom {
    pub fn new(seed: u64) -> MsRandom {
        MsRandom { state: seed }
    }

    fn next(&mut self) -> u64 {
        // 33-bit state as in PySolFC (seeds here are < 32000, so the high bit never matters).
        self.state = (self.state.wrapping_mul(214013).wrapping_add(2531011)) & ((1 << 33) - 1);
        (self.state >> 16) & 0x7fff
    }

    /// An integer in `0..=n`, as `LCRandom31.randint(0, n)`.
    pub fn below_or_equal(&mut self, n: u64) -> u64 {
        self.next() % (n + 1)
    }
}

/// MT19937 seeded like CPython's `random.Random(int)`, drawing like `random.random()`.
pub struct MtRandom {
    mt: [u32; 624],
    index: usize,
}

impl MtRandom {
    pub fn new(seed: u64) -> MtRandom {
        // CPython seeds from the absolute value's 32-bit words, least significant first,
        // through init_by_array (a zero seed is the one-word key [0]).
        let key: Vec<u32> = if seed >> 32 == 0 {
            vec![seed as u32]
        } else {
            vec![seed as u32, (seed >> 32) as u32]
        };
        let mut r = MtRandom {
            mt: [0; 624],
            index: 624,
        };
        r.init_genrand(19650218);
        let n = 624;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..n.max(key.len()) {
            let prev = r.mt[i - 1] ^ (r.mt[i - 1] >> 30);
            r.mt[i] = (r.mt[i] ^ prev.wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                r.mt[0] = r.mt[n - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..n - 1 {
            let prev = r.mt[i - 1] ^ (r.mt[i - 1] >> 30);
            r.mt[i] = (r.mt[i] ^ prev.wrapping_mul(1566083941)).wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                r.mt[0] = r.mt[n - 1];
                i = 1;
            }
        }
        r.mt[0] = 0x8000_0000;
        r
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..624 {
            let prev = self.mt[i - 1] ^ (self.mt[i - 1] >> 30);
            self.mt[i] = 1812433253u32.wrapping_mul(prev).wrapping_add(i as u32);
        }
        self.index = 624;
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for k in 0..624 {
                let y = (self.mt[k] & 0x8000_0000) | (self.mt[(k + 1) % 624] & 0x7fff_ffff);
                let mut v = self.mt[(k + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.mt[k] = v;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.random()`: a 53-bit float in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) / 9007199254740992.0
    }

    /// An integer in `0..=n`, as PySolFC's `randint(0, n)`: `int(random() * (n + 1))`.
    pub fn below_or_equal(&mut self, n: u64) -> u64 {
        (self.random() * (n + 1) as f64) as u64
    }
}

/// Fisher-Yates from the top, as PySolFC's `shuffle`.
pub fn shuffle<T>(deck: &mut [T], mut below_or_equal: impl FnMut(u64) -> u64) {
    for n in (1..deck.len()).rev() {
        let j = below_or_equal(n as u64) as usize;
        deck.swap(n, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mersenne_twister_matches_cpython() {
        // python3 -c "import random; r = random.Random(5489); print(r.random())"
        let mut r = MtRandom::new(5489);
        assert_eq!(r.random(), 0.7876110167997803);
        // random.Random(32000).random()
        let mut r = MtRandom::new(32000);
        assert_eq!(r.random(), 0.3721723162993418);
    }

    #[test]
    fn microsoft_lcg_matches_msvcrt() {
        // srand(1); rand() x3 in the MS C runtime.
        let mut r = MsRandom::new(1);
        let v: Vec<u64> = (0..3).map(|_| r.next()).collect();
        assert_eq!(v, vec![41, 18467, 6334]);
    }
}
