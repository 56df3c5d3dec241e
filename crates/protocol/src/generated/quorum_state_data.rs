//! Generated from `QuorumStateData.json` by fjord-codegen. Do not edit.

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

/// The `QuorumStateData` data (versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct QuorumStateData {
    /// The cluster id.
    ///
    /// Versions 0.
    pub cluster_id: String,
    /// The leader id.
    ///
    /// Versions 0+.
    pub leader_id: i32,
    /// The leader epoch.
    ///
    /// Versions 0+.
    pub leader_epoch: i32,
    /// The voted id.
    ///
    /// Versions 0+.
    pub voted_id: i32,
    /// The voted directory id.
    ///
    /// Versions 1+.
    pub voted_directory_id: Uuid,
    /// The applied offset.
    ///
    /// Versions 0.
    pub applied_offset: i64,
    /// The current voters.
    ///
    /// Versions 0; nullable 0.
    pub current_voters: Option<Vec<Voter>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for QuorumStateData {
    fn default() -> Self {
        QuorumStateData {
            cluster_id: String::new(),
            leader_id: -1,
            leader_epoch: -1,
            voted_id: -1,
            voted_directory_id: Uuid::nil(),
            applied_offset: 0,
            current_voters: Some(Vec::<Voter>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl QuorumStateData {
    /// The message name.
    pub const NAME: &'static str = "QuorumStateData";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "QuorumStateData", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        if version <= 0 { write_string(w, (&self.cluster_id), flexible)?; }
        if !(version <= 0) { if self.cluster_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "ClusterId", version }); } }
        w.put_i32(*(&self.leader_id));
        w.put_i32(*(&self.leader_epoch));
        w.put_i32(*(&self.voted_id));
        if version >= 1 { write_uuid(w, (&self.voted_directory_id)); }
        if !(version >= 1) { if self.voted_directory_id != Uuid::nil() { return Err(EncodeError::FieldNotInVersion { field: "VotedDirectoryId", version }); } }
        if version <= 0 { w.put_i64(*(&self.applied_offset)); }
        if !(version <= 0) { if self.applied_offset != 0 { return Err(EncodeError::FieldNotInVersion { field: "AppliedOffset", version }); } }
        if version <= 0 { match (&self.current_voters) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { if !(version <= 0) { return Err(EncodeError::NullNotAllowed { field: "CurrentVoters", version }); } write_null(w, flexible); } } }
        if !(version <= 0) { if self.current_voters != Some(Vec::<Voter>::new()) { return Err(EncodeError::FieldNotInVersion { field: "CurrentVoters", version }); } }
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
        if version <= 0 { n += string_len((&self.cluster_id), flexible); }
        n += 4;
        n += 4;
        n += 4;
        if version >= 1 { n += 16; }
        if version <= 0 { n += 8; }
        if version <= 0 { n += match (&self.current_voters) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) }; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "QuorumStateData", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 0 { v.cluster_id = read_string(buf, flexible, "ClusterId")?; }
        v.leader_id = read_i32(buf)?;
        v.leader_epoch = read_i32(buf)?;
        v.voted_id = read_i32(buf)?;
        if version >= 1 { v.voted_directory_id = read_uuid(buf)?; }
        if version <= 0 { v.applied_offset = read_i64(buf)?; }
        if version <= 0 { v.current_voters = if version <= 0 { match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Voter::decode(buf, version)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, flexible, "CurrentVoters")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Voter::decode(buf, version)?); } v }) }; }
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
        if version <= 0 { v.cluster_id = g.string(); }
        v.leader_id = g.i32();
        v.leader_epoch = g.i32();
        v.voted_id = g.i32();
        if version >= 1 { v.voted_directory_id = g.uuid(); }
        if version <= 0 { v.applied_offset = g.i64(); }
        if version <= 0 { v.current_voters = if (version <= 0) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| Voter::sample(g, version)).collect()) }; }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.current_voters { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version <= 0 { if let Some(v) = &mut self.current_voters { for x in v { x.each_nullable_string(version, f); } } }
    }
}

/// The current voters.
#[derive(Debug, Clone, PartialEq)]
pub struct Voter {
    /// The voter id.
    ///
    /// Versions 0.
    pub voter_id: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Voter {
    fn default() -> Self {
        Voter {
            voter_id: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Voter {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        if version <= 0 { w.put_i32(*(&self.voter_id)); }
        if !(version <= 0) { if self.voter_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "VoterId", version }); } }
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
        if version <= 0 { n += 4; }
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 0 { v.voter_id = read_i32(buf)?; }
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
        if version <= 0 { v.voter_id = g.i32(); }
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
