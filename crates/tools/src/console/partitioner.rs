//! Kafka's default partitioner for keyed records: murmur2 of the key, made positive, modulo the
//! partition count, so a key lands where Kafka's clients put it.

pub use fjord_util::murmur2::murmur2;

/// The partition of a keyed record among `count` partitions.
pub fn partition_for_key(key: &[u8], count: usize) -> i32 {
    ((murmur2(key) & 0x7fff_ffff) as usize % count.max(1)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_kafkas_murmur2() {
        // Values from Kafka's UtilsTest.testMurmur2.
        assert_eq!(murmur2(b"21"), -973_932_308);
        assert_eq!(murmur2(b"foobar"), -790_332_482);
        assert_eq!(murmur2(b"a-little-bit-long-string"), -985_981_536);
        assert_eq!(murmur2(b"a-little-bit-longer-string"), -1_486_304_829);
        assert_eq!(
            murmur2(b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8"),
            -58_897_971
        );
        assert_eq!(murmur2(b"abc"), 479_470_107);
    }
}
