//! Generated from `DelegationTokenRecord.json` by fjord-codegen. Do not edit.

#[allow(unused_imports)]
use crate::codec::*;
#[allow(unused_imports)]
use crate::error::{DecodeError, EncodeError};
#[allow(unused_imports)]
use crate::payload::Records;
#[allow(unused_imports)]
use bytes::Bytes;
#[allow(unused_imports)]
use uuid::Uuid;

/// The `DelegationTokenRecord` metadata (type 10, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct DelegationTokenRecord {
    /// The delegation token owner.
    ///
    /// Versions 0+.
    pub owner: String,
    /// The delegation token requester.
    ///
    /// Versions 0+.
    pub requester: String,
    /// The principals which can renew this token.
    ///
    /// Versions 0+.
    pub renewers: Vec<String>,
    /// The time at which this timestamp was issued.
    ///
    /// Versions 0+.
    pub issue_timestamp: i64,
    /// The time at which this token cannot be renewed any more.
    ///
    /// Versions 0+.
    pub max_timestamp: i64,
    /// The next time at which this token must be renewed.
    ///
    /// Versions 0+.
    pub expiration_timestamp: i64,
    /// The token id.
    ///
    /// Versions 0+.
    pub token_id: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DelegationTokenRecord {
    fn default() -> Self {
        DelegationTokenRecord {
            owner: String::new(),
            requester: String::new(),
            renewers: Vec::<String>::new(),
            issue_timestamp: 0,
            max_timestamp: 0,
            expiration_timestamp: 0,
            token_id: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DelegationTokenRecord {
    /// The message name.
    pub const NAME: &'static str = "DelegationTokenRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DelegationTokenRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.owner), flexible)?;
        write_string(w, (&self.requester), flexible)?;
        write_len_prefix(w, (&self.renewers).len(), flexible)?; for e0 in (&self.renewers).iter() { write_string(w, e0, flexible)?; }
        w.put_i64(*(&self.issue_timestamp));
        w.put_i64(*(&self.max_timestamp));
        w.put_i64(*(&self.expiration_timestamp));
        write_string(w, (&self.token_id), flexible)?;
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.owner), flexible);
        n += string_len((&self.requester), flexible);
        n += len_prefix_len((&self.renewers).len(), flexible) + (&self.renewers).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += 8;
        n += 8;
        n += 8;
        n += string_len((&self.token_id), flexible);
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DelegationTokenRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.owner = read_string(buf, flexible, "Owner")?;
        v.requester = read_string(buf, flexible, "Requester")?;
        v.renewers = { let n = read_array_len_non_null(buf, flexible, "Renewers")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Renewers")?); } v };
        v.issue_timestamp = read_i64(buf)?;
        v.max_timestamp = read_i64(buf)?;
        v.expiration_timestamp = read_i64(buf)?;
        v.token_id = read_string(buf, flexible, "TokenId")?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    _ => v.unknown_tagged_fields.push(RawTaggedField { tag, data: field }),
                }
            }
        }
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.owner = g.string();
        v.requester = g.string();
        v.renewers = (0..g.collection_len()).map(|_| g.string()).collect();
        v.issue_timestamp = g.i64();
        v.max_timestamp = g.i64();
        v.expiration_timestamp = g.i64();
        v.token_id = g.string();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
    }
}
