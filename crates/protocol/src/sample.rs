//! A small seeded random generator for sample messages (feature `sample`): the same seed
//! always gives the same message, so a failing property test or fuzz case can be replayed.

use crate::codec::RawTaggedField;
use bytes::Bytes;
use uuid::Uuid;

/// Tags at or above this are never defined by a schema; samples use them as unknown fields.
pub const UNKNOWN_TAG_BASE: u32 = 10_000;

/// A splitmix64 generator.
#[derive(Debug, Clone)]
pub struct SampleRng {
    state: u64,
}

impl SampleRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SampleRng {
        SampleRng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// True with probability 1/`n`.
    pub fn chance(&mut self, n: u64) -> bool {
        self.next_u64() % n.max(1) == 0
    }

    /// A random bool.
    pub fn bool(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// A random int8.
    pub fn i8(&mut self) -> i8 {
        self.next_u64() as i8
    }

    /// A random int16.
    pub fn i16(&mut self) -> i16 {
        self.next_u64() as i16
    }

    /// A random uint16.
    pub fn u16(&mut self) -> u16 {
        self.next_u64() as u16
    }

    /// A random int32, often small or an edge value.
    pub fn i32(&mut self) -> i32 {
        match self.next_u64() % 4 {
            0 => (self.next_u64() % 5) as i32 - 1,
            1 => [i32::MIN, i32::MAX, -1, 0][(self.next_u64() % 4) as usize],
            _ => self.next_u64() as i32,
        }
    }

    /// A random uint32.
    pub fn u32(&mut self) -> u32 {
        self.next_u64() as u32
    }

    /// A random int64, often small or an edge value.
    pub fn i64(&mut self) -> i64 {
        match self.next_u64() % 4 {
            0 => (self.next_u64() % 5) as i64 - 1,
            1 => [i64::MIN, i64::MAX, -1, 0][(self.next_u64() % 4) as usize],
            _ => self.next_u64() as i64,
        }
    }

    /// A random finite float64.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() % 1_000_000) as f64 / 7.0
    }

    /// A random UUID.
    pub fn uuid(&mut self) -> Uuid {
        Uuid::from_u64_pair(self.next_u64(), self.next_u64())
    }

    /// A small collection length.
    pub fn collection_len(&mut self) -> usize {
        (self.next_u64() % 3) as usize
    }

    /// A random short string (ASCII and some multi-byte UTF-8).
    pub fn string(&mut self) -> String {
        let n = self.next_u64() % 9;
        (0..n)
            .map(|_| match self.next_u64() % 10 {
                0 => 'ø',
                1 => '✓',
                _ => (b'a' + (self.next_u64() % 26) as u8) as char,
            })
            .collect()
    }

    /// Random short bytes.
    pub fn bytes(&mut self) -> Bytes {
        let n = self.next_u64() % 12;
        Bytes::from((0..n).map(|_| self.next_u64() as u8).collect::<Vec<u8>>())
    }

    /// Zero to two unknown tagged fields, in ascending tag order.
    pub fn unknown_tagged_fields(&mut self) -> Vec<RawTaggedField> {
        let n = self.next_u64() % 3;
        (0..n as u32)
            .map(|i| RawTaggedField {
                tag: UNKNOWN_TAG_BASE + i * 7,
                data: self.bytes(),
            })
            .collect()
    }
}
