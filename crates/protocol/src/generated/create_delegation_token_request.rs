//! Generated from `CreateDelegationTokenRequest.json` by fjord-codegen. Do not edit.

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

/// The `CreateDelegationTokenRequest` request (api key 38, versions 1-3).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateDelegationTokenRequest {
    /// The principal type of the owner of the token. If it's null it defaults to the token request principal.
    ///
    /// Versions 3+; nullable 3+.
    pub owner_principal_type: Option<String>,
    /// The principal name of the owner of the token. If it's null it defaults to the token request principal.
    ///
    /// Versions 3+; nullable 3+.
    pub owner_principal_name: Option<String>,
    /// A list of those who are allowed to renew this token before it expires.
    ///
    /// Versions 0+.
    pub renewers: Vec<CreatableRenewers>,
    /// The maximum lifetime of the token in milliseconds, or -1 to use the server side default.
    ///
    /// Versions 0+.
    pub max_lifetime_ms: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for CreateDelegationTokenRequest {
    fn default() -> Self {
        CreateDelegationTokenRequest {
            owner_principal_type: Some(String::new()),
            owner_principal_name: Some(String::new()),
            renewers: Vec::<CreatableRenewers>::new(),
            max_lifetime_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreateDelegationTokenRequest {
    /// The message name.
    pub const NAME: &'static str = "CreateDelegationTokenRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "CreateDelegationTokenRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        if version >= 3 { match (&self.owner_principal_type) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 3) { return Err(EncodeError::NullNotAllowed { field: "OwnerPrincipalType", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 3) { if self.owner_principal_type != Some(String::new()) { return Err(EncodeError::FieldNotInVersion { field: "OwnerPrincipalType", version }); } }
        if version >= 3 { match (&self.owner_principal_name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 3) { return Err(EncodeError::NullNotAllowed { field: "OwnerPrincipalName", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 3) { if self.owner_principal_name != Some(String::new()) { return Err(EncodeError::FieldNotInVersion { field: "OwnerPrincipalName", version }); } }
        write_len_prefix(w, (&self.renewers).len(), flexible)?; for e0 in (&self.renewers).iter() { e0.encode(w, version)?; }
        w.put_i64(*(&self.max_lifetime_ms));
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
        if version >= 3 { n += match (&self.owner_principal_type) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 3 { n += match (&self.owner_principal_name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += len_prefix_len((&self.renewers).len(), flexible) + (&self.renewers).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 8;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "CreateDelegationTokenRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.owner_principal_type = if version >= 3 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "OwnerPrincipalType")?) }; }
        if version >= 3 { v.owner_principal_name = if version >= 3 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "OwnerPrincipalName")?) }; }
        v.renewers = { let n = read_array_len_non_null(buf, flexible, "Renewers")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(CreatableRenewers::decode(buf, version)?); } v };
        v.max_lifetime_ms = read_i64(buf)?;
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
        if version >= 3 { v.owner_principal_type = if (version >= 3) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 3 { v.owner_principal_name = if (version >= 3) && g.chance(4) { None } else { Some(g.string()) }; }
        v.renewers = (0..g.collection_len()).map(|_| CreatableRenewers::sample(g, version)).collect();
        v.max_lifetime_ms = g.i64();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.renewers { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 3 { f("OwnerPrincipalType", &mut self.owner_principal_type); }
        if version >= 3 { f("OwnerPrincipalName", &mut self.owner_principal_name); }
        for x in &mut self.renewers { x.each_nullable_string(version, f); }
    }
}

/// A list of those who are allowed to renew this token before it expires.
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableRenewers {
    /// The type of the Kafka principal.
    ///
    /// Versions 0+.
    pub principal_type: String,
    /// The name of the Kafka principal.
    ///
    /// Versions 0+.
    pub principal_name: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for CreatableRenewers {
    fn default() -> Self {
        CreatableRenewers {
            principal_type: String::new(),
            principal_name: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableRenewers {
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
