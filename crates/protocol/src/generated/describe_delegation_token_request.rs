//! Generated from `DescribeDelegationTokenRequest.json` by fjord-codegen. Do not edit.

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

/// The `DescribeDelegationTokenRequest` request (api key 41, versions 1-3).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeDelegationTokenRequest {
    /// Each owner that we want to describe delegation tokens for, or null to describe all tokens.
    ///
    /// Versions 0+; nullable 0+.
    pub owners: Option<Vec<DescribeDelegationTokenOwner>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeDelegationTokenRequest {
    fn default() -> Self {
        DescribeDelegationTokenRequest {
            owners: Some(Vec::<DescribeDelegationTokenOwner>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeDelegationTokenRequest {
    /// The message name.
    pub const NAME: &'static str = "DescribeDelegationTokenRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeDelegationTokenRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        match (&self.owners) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { write_null(w, flexible); } }
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
        n += match (&self.owners) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) };
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeDelegationTokenRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.owners = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeDelegationTokenOwner::decode(buf, version)?); } Some(v) } };
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
        v.owners = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| DescribeDelegationTokenOwner::sample(g, version)).collect()) };
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.owners { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if let Some(v) = &mut self.owners { for x in v { x.each_nullable_string(version, f); } }
    }
}

/// Each owner that we want to describe delegation tokens for, or null to describe all tokens.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeDelegationTokenOwner {
    /// The owner principal type.
    ///
    /// Versions 0+.
    pub principal_type: String,
    /// The owner principal name.
    ///
    /// Versions 0+.
    pub principal_name: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeDelegationTokenOwner {
    fn default() -> Self {
        DescribeDelegationTokenOwner {
            principal_type: String::new(),
            principal_name: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeDelegationTokenOwner {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        write_string(w, (&self.principal_type), flexible)?;
        write_string(w, (&self.principal_name), flexible)?;
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
        n += string_len((&self.principal_type), flexible);
        n += string_len((&self.principal_name), flexible);
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
        v.principal_type = read_string(buf, flexible, "PrincipalType")?;
        v.principal_name = read_string(buf, flexible, "PrincipalName")?;
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
        v.principal_type = g.string();
        v.principal_name = g.string();
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
