//! Generated from `DescribeDelegationTokenResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeDelegationTokenResponse` response (api key 41, versions 1-3).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeDelegationTokenResponse {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The tokens.
    ///
    /// Versions 0+.
    pub tokens: Vec<DescribedDelegationToken>,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeDelegationTokenResponse {
    fn default() -> Self {
        DescribeDelegationTokenResponse {
            error_code: 0,
            tokens: Vec::<DescribedDelegationToken>::new(),
            throttle_time_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeDelegationTokenResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeDelegationTokenResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeDelegationTokenResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i16(*(&self.error_code));
        write_len_prefix(w, (&self.tokens).len(), flexible)?; for e0 in (&self.tokens).iter() { e0.encode(w, version)?; }
        w.put_i32(*(&self.throttle_time_ms));
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
        n += 2;
        n += len_prefix_len((&self.tokens).len(), flexible) + (&self.tokens).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 4;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeDelegationTokenResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.tokens = { let n = read_array_len_non_null(buf, flexible, "Tokens")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribedDelegationToken::decode(buf, version)?); } v };
        v.throttle_time_ms = read_i32(buf)?;
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
        v.error_code = g.i16();
        v.tokens = (0..g.collection_len()).map(|_| DescribedDelegationToken::sample(g, version)).collect();
        v.throttle_time_ms = g.i32();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.tokens { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.tokens { x.each_nullable_string(version, f); }
    }
}

/// The tokens.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedDelegationToken {
    /// The token principal type.
    ///
    /// Versions 0+.
    pub principal_type: String,
    /// The token principal name.
    ///
    /// Versions 0+.
    pub principal_name: String,
    /// The principal type of the requester of the token.
    ///
    /// Versions 3+.
    pub token_requester_principal_type: String,
    /// The principal type of the requester of the token.
    ///
    /// Versions 3+.
    pub token_requester_principal_name: String,
    /// The token issue timestamp in milliseconds.
    ///
    /// Versions 0+.
    pub issue_timestamp: i64,
    /// The token expiry timestamp in milliseconds.
    ///
    /// Versions 0+.
    pub expiry_timestamp: i64,
    /// The token maximum timestamp length in milliseconds.
    ///
    /// Versions 0+.
    pub max_timestamp: i64,
    /// The token ID.
    ///
    /// Versions 0+.
    pub token_id: String,
    /// The token HMAC.
    ///
    /// Versions 0+.
    pub hmac: Bytes,
    /// Those who are able to renew this token before it expires.
    ///
    /// Versions 0+.
    pub renewers: Vec<DescribedDelegationTokenRenewer>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribedDelegationToken {
    fn default() -> Self {
        DescribedDelegationToken {
            principal_type: String::new(),
            principal_name: String::new(),
            token_requester_principal_type: String::new(),
            token_requester_principal_name: String::new(),
            issue_timestamp: 0,
            expiry_timestamp: 0,
            max_timestamp: 0,
            token_id: String::new(),
            hmac: Bytes::new(),
            renewers: Vec::<DescribedDelegationTokenRenewer>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedDelegationToken {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        write_string(w, (&self.principal_type), flexible)?;
        write_string(w, (&self.principal_name), flexible)?;
        if version >= 3 { write_string(w, (&self.token_requester_principal_type), flexible)?; }
        if !(version >= 3) { if self.token_requester_principal_type != String::new() { return Err(EncodeError::FieldNotInVersion { field: "TokenRequesterPrincipalType", version }); } }
        if version >= 3 { write_string(w, (&self.token_requester_principal_name), flexible)?; }
        if !(version >= 3) { if self.token_requester_principal_name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "TokenRequesterPrincipalName", version }); } }
        w.put_i64(*(&self.issue_timestamp));
        w.put_i64(*(&self.expiry_timestamp));
        w.put_i64(*(&self.max_timestamp));
        write_string(w, (&self.token_id), flexible)?;
        write_bytes(w, (&self.hmac), flexible)?;
        write_len_prefix(w, (&self.renewers).len(), flexible)?; for e0 in (&self.renewers).iter() { e0.encode(w, version)?; }
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
        if version >= 3 { n += string_len((&self.token_requester_principal_type), flexible); }
        if version >= 3 { n += string_len((&self.token_requester_principal_name), flexible); }
        n += 8;
        n += 8;
        n += 8;
        n += string_len((&self.token_id), flexible);
        n += bytes_len((&self.hmac), flexible);
        n += len_prefix_len((&self.renewers).len(), flexible) + (&self.renewers).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        if version >= 3 { v.token_requester_principal_type = read_string(buf, flexible, "TokenRequesterPrincipalType")?; }
        if version >= 3 { v.token_requester_principal_name = read_string(buf, flexible, "TokenRequesterPrincipalName")?; }
        v.issue_timestamp = read_i64(buf)?;
        v.expiry_timestamp = read_i64(buf)?;
        v.max_timestamp = read_i64(buf)?;
        v.token_id = read_string(buf, flexible, "TokenId")?;
        v.hmac = read_bytes(buf, flexible, "Hmac")?;
        v.renewers = { let n = read_array_len_non_null(buf, flexible, "Renewers")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribedDelegationTokenRenewer::decode(buf, version)?); } v };
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
        if version >= 3 { v.token_requester_principal_type = g.string(); }
        if version >= 3 { v.token_requester_principal_name = g.string(); }
        v.issue_timestamp = g.i64();
        v.expiry_timestamp = g.i64();
        v.max_timestamp = g.i64();
        v.token_id = g.string();
        v.hmac = g.bytes();
        v.renewers = (0..g.collection_len()).map(|_| DescribedDelegationTokenRenewer::sample(g, version)).collect();
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
        for x in &mut self.renewers { x.each_nullable_string(version, f); }
    }
}

/// Those who are able to renew this token before it expires.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedDelegationTokenRenewer {
    /// The renewer principal type.
    ///
    /// Versions 0+.
    pub principal_type: String,
    /// The renewer principal name.
    ///
    /// Versions 0+.
    pub principal_name: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribedDelegationTokenRenewer {
    fn default() -> Self {
        DescribedDelegationTokenRenewer {
            principal_type: String::new(),
            principal_name: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedDelegationTokenRenewer {
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
