//! PySolFC's two deal generators, bit for bit, its shuffle of one deck, and the range of deal
//! numbers: what the castle games', the free-cell games' and Spider's deals share.
//!
//! PySolFC shuffles deal N with its Microsoft-compatible linear congruential generator when
//! N < 32000 and with CPython's Mersenne Twister (`random.Random(N)`) from 32000 on. (The
//! `pysol_cards` package switches at N <= 32000; PySolFC itself is the reference here.)
//! FreeCell's deal N is Microsoft's for every N: the same generator, as `pysol_cards` runs it
//! for its `ms` deals, up to [`MS_MAX_NUMBER`].

use crate::cards::Card;

/// Deal numbers below this use the LCG; from here on, the Mersenne Twister.
pub const MT_FROM: u64 = 32000;

/// Deal numbers run from 1 to this (PySolFC's generators take any of them).
pub const MAX_NUMBER: u64 = i64::MAX as u64;

/// The largest Microsoft deal number: `LCRandom31` takes seeds of up to 33 bits.
pub const MS_MAX_NUMBER: u64 = (1 << 33) - 1;

/// The Microsoft C runtime `rand()` LCG, as `LCRandom31` (PySolFC's and `pysol_cards`') runs
/// it: seeds below 2^31 are Microsoft's own deals; from 2^31 each draw has its bit 15 set; from
/// 2^32 the generator starts from the seed less 2^32 and draws 16 bits, plus one.
pub struct MsRandom {
    state: u64,
    seed: u64,
}

impl MsRandom {
    pub fn new(seed: u64) -> MsRandom {
        let state = if seed < 1 << 32 {
            seed
        } else {
            seed - (1 << 32)
        };
        MsRandom { state, seed }
    }

    fn next(&mut self) -> u64 {
        // A 33-bit state, as in `LCRandom31`.
        self.state = (self.state.wrapping_mul(214013).wrapping_add(2531011)) & MS_MAX_NUMBER;
        let drawn = self.state >> 16;
        match self.seed {
            s if s < 1 << 31 => drawn & 0x7fff,
            s if s < 1 << 32 => (drawn & 0x7fff) | 0x8000,
            _ => (drawn & 0xffff) + 1,
        }
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

/// The 52 cards in dealing order (first dealt first), exactly as PySolFC shuffles deal
/// `number`: with the Microsoft generator below [`MT_FROM`], else with the Mersenne Twister.
pub fn pysolfc_shuffle(number: u64) -> Vec<Card> {
    shuffled(number, number < MT_FROM)
}

/// The 52 cards in dealing order as Microsoft's deal `number` (1 to [`MS_MAX_NUMBER`]) has them.
pub fn microsoft_shuffle(number: u64) -> Vec<Card> {
    shuffled(number, true)
}

fn shuffled(number: u64, microsoft: bool) -> Vec<Card> {
    // PySolFC builds the deck suit by suit in the order clubs, spades, hearts, diamonds.
    const PYSOL_SUITS: [u8; 4] = [0, 3, 2, 1];
    let mut deck: Vec<Card> = PYSOL_SUITS
        .iter()
        .flat_map(|&suit| (1..=13).map(move |rank| Card::new(rank, suit)))
        .collect();
    if microsoft {
        // The Microsoft generator deals from a deck reordered rank by rank: clubs, diamonds,
        // hearts, spades within each rank (pysol's `ms_rearrange`).
        deck = (0..13)
            .flat_map(|i| [0, 39, 26, 13].map(|j| deck[i + j]))
            .collect();
        let mut r = MsRandom::new(number);
        shuffle(&mut deck, |n| r.below_or_equal(n));
    } else {
        let mut r = MtRandom::new(number);
        shuffle(&mut deck, |n| r.below_or_equal(n));
    }
    deck.reverse();
    deck
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

    /// `pysol_cards`' `LCRandom31` past 2^31: bit 15 set; past 2^32, 16 bits plus one from the
    /// seed less 2^32 (its first draws, from Python).
    #[test]
    fn microsoft_lcg_past_two_to_the_31_is_pysol_cards() {
        let draws = |seed: u64| {
            let mut r = MsRandom::new(seed);
            (0..3).map(|_| r.next()).collect::<Vec<_>>()
        };
        assert_eq!(draws(1 << 31), vec![32_806, 40_487, 54_006]);
        assert_eq!(draws((1 << 32) + 1), vec![42, 51_236, 6_335]);
    }
}
