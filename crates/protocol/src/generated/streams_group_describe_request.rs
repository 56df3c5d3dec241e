//! Generated from `StreamsGroupDescribeRequest.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupDescribeRequest` request (api key 89, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupDescribeRequest {
    /// The ids of the groups to describe
    ///
    /// Versions 0+.
    pub group_ids: Vec<String>,
    /// Whether to include authorized operations.
    ///
    /// Versions 0+.
    pub include_authorized_operations: bool,
    /// Whether to include the full topology description from the topology description plugin in the response.
    ///
    /// Versions 1+.
    pub include_topology_description: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StreamsGroupDescribeRequest {
    fn default() -> Self {
        StreamsGroupDescribeRequest {
            group_ids: Vec::<String>::new(),
            include_authorized_operations: false,
            include_topology_description: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupDescribeRequest {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupDescribeRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupDescribeRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.group_ids).len(), flexible)?; for e0 in (&self.group_ids).iter() { write_string(w, e0, flexible)?; }
        write_bool(w, *(&self.include_authorized_operations));
        if version >= 1 { write_bool(w, *(&self.include_topology_description)); }
        if !(version >= 1) { if self.include_topology_description != false { return Err(EncodeError::FieldNotInVersion { field: "IncludeTopologyDescription", version }); } }
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
        n += len_prefix_len((&self.group_ids).len(), flexible) + (&self.group_ids).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += 1;
        if version >= 1 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupDescribeRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_ids = { let n = read_array_len_non_null(buf, flexible, "GroupIds")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "GroupIds")?); } v };
        v.include_authorized_operations = read_bool(buf)?;
        if version >= 1 { v.include_topology_description = read_bool(buf)?; }
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
        v.group_ids = (0..g.collection_len()).map(|_| g.string()).collect();
        v.include_authorized_operations = g.bool();
        if version >= 1 { v.include_topology_description = g.bool(); }
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
