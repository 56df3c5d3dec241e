//! Generated from `ApiVersionsRequest.json` by fjord-codegen. Do not edit.

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

/// The `ApiVersionsRequest` request (api key 18, versions 0-5).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiVersionsRequest {
    /// The name of the client.
    ///
    /// Versions 3+.
    pub client_software_name: String,
    /// The version of the client.
    ///
    /// Versions 3+.
    pub client_software_version: String,
    /// The cluster ID the client intends to connect to. Provide both ClusterId and NodeId, if known.
    ///
    /// Versions 5+; nullable 5+.
    pub cluster_id: Option<String>,
    /// The node ID the client intends to connect to. Provide both ClusterId and NodeId, if known.
    ///
    /// Versions 5+.
    pub node_id: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ApiVersionsRequest {
    fn default() -> Self {
        ApiVersionsRequest {
            client_software_name: String::new(),
            client_software_version: String::new(),
            cluster_id: None,
            node_id: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ApiVersionsRequest {
    /// The message name.
    pub const NAME: &'static str = "ApiVersionsRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 5;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(3);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=5).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ApiVersionsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 3 { write_string(w, (&self.client_software_name), flexible)?; }
        if version >= 3 { write_string(w, (&self.client_software_version), flexible)?; }
        if version >= 5 { match (&self.cluster_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "ClusterId", version }); } write_nullable_string(w, None, flexible)?; } } }
        if version >= 5 { w.put_i32(*(&self.node_id)); }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 3 { n += string_len((&self.client_software_name), flexible); }
        if version >= 3 { n += string_len((&self.client_software_version), flexible); }
        if version >= 5 { n += match (&self.cluster_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 5 { n += 4; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=5).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ApiVersionsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.client_software_name = read_string(buf, flexible, "ClientSoftwareName")?; }
        if version >= 3 { v.client_software_version = read_string(buf, flexible, "ClientSoftwareVersion")?; }
        if version >= 5 { v.cluster_id = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ClusterId")?) }; }
        if version >= 5 { v.node_id = read_i32(buf)?; }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.client_software_name = g.string(); }
        if version >= 3 { v.client_software_version = g.string(); }
        if version >= 5 { v.cluster_id = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 5 { v.node_id = g.i32(); }
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
        if version >= 5 { f("ClusterId", &mut self.cluster_id); }
    }
}
