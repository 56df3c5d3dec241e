//! Kafka's text form of a UUID: URL-safe base64 without padding (22 characters), as
//! `partition.metadata` and `meta.properties` store topic and directory ids.

use uuid::Uuid;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encodes a UUID as Kafka prints it.
pub fn encode(id: &Uuid) -> String {
    let bytes = id.as_bytes();
    let mut out = String::with_capacity(22);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 0x3f) as usize] as char);
        }
    }
    out
}

/// Decodes Kafka's text form of a UUID.
pub fn decode(s: &str) -> Option<Uuid> {
    let s = s.trim();
    if s.len() != 22 {
        return None;
    }
    let mut bytes = Vec::with_capacity(18);
    for chunk in s.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = ALPHABET.iter().position(|a| a == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            bytes.push((n >> (16 - 8 * i)) as u8);
        }
    }
    let arr: [u8; 16] = bytes.try_into().ok()?;
    Some(Uuid::from_bytes(arr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_kafkas_form_and_round_trips() {
        // Kafka prints the metadata topic id 0...01 as AAAAAAAAAAAAAAAAAAAAAQ.
        assert_eq!(encode(&Uuid::from_u128(1)), "AAAAAAAAAAAAAAAAAAAAAQ");
        for v in [
            0u128,
            1,
            u128::MAX,
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        ] {
            let id = Uuid::from_u128(v);
            assert_eq!(decode(&encode(&id)), Some(id));
        }
        assert_eq!(decode("short"), None);
        assert_eq!(decode("AAAAAAAAAAAAAAAAAAAAA*"), None);
    }
}
