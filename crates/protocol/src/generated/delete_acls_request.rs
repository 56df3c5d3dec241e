//! Generated from `DeleteAclsRequest.json` by fjord-codegen. Do not edit.

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

/// The `DeleteAclsRequest` request (api key 31, versions 1-3).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteAclsRequest {
    /// The filters to use when deleting ACLs.
    ///
    /// Versions 0+.
    pub filters: Vec<DeleteAclsFilter>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DeleteAclsRequest {
    fn default() -> Self {
        DeleteAclsRequest {
            filters: Vec::<DeleteAclsFilter>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteAclsRequest {
    /// The message name.
    pub const NAME: &'static str = "DeleteAclsRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DeleteAclsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        write_len_prefix(w, (&self.filters).len(), flexible)?; for e0 in (&self.filters).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += len_prefix_len((&self.filters).len(), flexible) + (&self.filters).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DeleteAclsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.filters = { let n = read_array_len_non_null(buf, flexible, "Filters")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DeleteAclsFilter::decode(buf, version)?); } v };
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.filters = (0..g.collection_len()).map(|_| DeleteAclsFilter::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.filters { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.filters { x.each_nullable_string(version, f); }
    }
}

/// The filters to use when deleting ACLs.
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteAclsFilter {
    /// The resource type.
    ///
    /// Versions 0+.
    pub resource_type_filter: i8,
    /// The resource name, or null to match any resource name.
    ///
    /// Versions 0+; nullable 0+.
    pub resource_name_filter: Option<String>,
    /// The pattern type.
    ///
    /// Versions 1+.
    pub pattern_type_filter: i8,
    /// The principal filter, or null to accept all principals.
    ///
    /// Versions 0+; nullable 0+.
    pub principal_filter: Option<String>,
    /// The host filter, or null to accept all hosts.
    ///
    /// Versions 0+; nullable 0+.
    pub host_filter: Option<String>,
    /// The ACL operation.
    ///
    /// Versions 0+.
    pub operation: i8,
    /// The permission type.
    ///
    /// Versions 0+.
    pub permission_type: i8,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DeleteAclsFilter {
    fn default() -> Self {
        DeleteAclsFilter {
            resource_type_filter: 0,
            resource_name_filter: Some(String::new()),
            pattern_type_filter: 3,
            principal_filter: Some(String::new()),
            host_filter: Some(String::new()),
            operation: 0,
            permission_type: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteAclsFilter {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i8(*(&self.resource_type_filter));
        match (&self.resource_name_filter) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i8(*(&self.pattern_type_filter));
        match (&self.principal_filter) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        match (&self.host_filter) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i8(*(&self.operation));
        w.put_i8(*(&self.permission_type));
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 1;
        n += match (&self.resource_name_filter) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 1;
        n += match (&self.principal_filter) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += match (&self.host_filter) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 1;
        n += 1;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resource_type_filter = read_i8(buf)?;
        v.resource_name_filter = read_nullable_string(buf, flexible)?;
        v.pattern_type_filter = read_i8(buf)?;
        v.principal_filter = read_nullable_string(buf, flexible)?;
        v.host_filter = read_nullable_string(buf, flexible)?;
        v.operation = read_i8(buf)?;
        v.permission_type = read_i8(buf)?;
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resource_type_filter = g.i8();
        v.resource_name_filter = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.pattern_type_filter = g.i8();
        v.principal_filter = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.host_filter = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.operation = g.i8();
        v.permission_type = g.i8();
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
        f("ResourceNameFilter", &mut self.resource_name_filter);
        f("PrincipalFilter", &mut self.principal_filter);
        f("HostFilter", &mut self.host_filter);
    }
}
