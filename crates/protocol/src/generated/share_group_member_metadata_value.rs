//! Generated from `ShareGroupMemberMetadataValue.json` by fjord-codegen. Do not edit.

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

/// The `ShareGroupMemberMetadataValue` coordinator-value (type 10, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareGroupMemberMetadataValue {
    /// The (optional) rack id.
    ///
    /// Versions 0+; nullable 0+.
    pub rack_id: Option<String>,
    /// The client id.
    ///
    /// Versions 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions 0+.
    pub client_host: String,
    /// The list of subscribed topic names.
    ///
    /// Versions 0+.
    pub subscribed_topic_names: Vec<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ShareGroupMemberMetadataValue {
    fn default() -> Self {
        ShareGroupMemberMetadataValue {
            rack_id: Some(String::new()),
            client_id: String::new(),
            client_host: String::new(),
            subscribed_topic_names: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareGroupMemberMetadataValue {
    /// The message name.
    pub const NAME: &'static str = "ShareGroupMemberMetadataValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ShareGroupMemberMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        match (&self.rack_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_string(w, (&self.client_id), flexible)?;
        write_string(w, (&self.client_host), flexible)?;
        write_len_prefix(w, (&self.subscribed_topic_names).len(), flexible)?; for e0 in (&self.subscribed_topic_names).iter() { write_string(w, e0, flexible)?; }
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
        n += match (&self.rack_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += string_len((&self.client_id), flexible);
        n += string_len((&self.client_host), flexible);
        n += len_prefix_len((&self.subscribed_topic_names).len(), flexible) + (&self.subscribed_topic_names).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ShareGroupMemberMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.rack_id = read_nullable_string(buf, flexible)?;
        v.client_id = read_string(buf, flexible, "ClientId")?;
        v.client_host = read_string(buf, flexible, "ClientHost")?;
        v.subscribed_topic_names = { let n = read_array_len_non_null(buf, flexible, "SubscribedTopicNames")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SubscribedTopicNames")?); } v };
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
        v.rack_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.client_id = g.string();
        v.client_host = g.string();
        v.subscribed_topic_names = (0..g.collection_len()).map(|_| g.string()).collect();
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
        f("RackId", &mut self.rack_id);
    }
}
