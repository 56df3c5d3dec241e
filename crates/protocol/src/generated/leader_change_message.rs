//! Generated from `LeaderChangeMessage.json` by fjord-codegen. Do not edit.

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

/// The `LeaderChangeMessage` data (versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderChangeMessage {
    /// The version of the leader change message.
    ///
    /// Versions 0+.
    pub version: i16,
    /// The ID of the newly elected leader.
    ///
    /// Versions 0+.
    pub leader_id: i32,
    /// The set of voters in the quorum for this epoch.
    ///
    /// Versions 0+.
    pub voters: Vec<Voter>,
    /// The voters who voted for the leader at the time of election.
    ///
    /// Versions 0+.
    pub granting_voters: Vec<Voter>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for LeaderChangeMessage {
    fn default() -> Self {
        LeaderChangeMessage {
            version: 0,
            leader_id: 0,
            voters: Vec::<Voter>::new(),
            granting_voters: Vec::<Voter>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderChangeMessage {
    /// The message name.
    pub const NAME: &'static str = "LeaderChangeMessage";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "LeaderChangeMessage", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i16(*(&self.version));
        w.put_i32(*(&self.leader_id));
        write_len_prefix(w, (&self.voters).len(), flexible)?; for e0 in (&self.voters).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.granting_voters).len(), flexible)?; for e0 in (&self.granting_voters).iter() { e0.encode(w, version)?; }
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
        n += 2;
        n += 4;
        n += len_prefix_len((&self.voters).len(), flexible) + (&self.voters).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.granting_voters).len(), flexible) + (&self.granting_voters).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "LeaderChangeMessage", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.version = read_i16(buf)?;
        v.leader_id = read_i32(buf)?;
        v.voters = { let n = read_array_len_non_null(buf, flexible, "Voters")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Voter::decode(buf, version)?); } v };
        v.granting_voters = { let n = read_array_len_non_null(buf, flexible, "GrantingVoters")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Voter::decode(buf, version)?); } v };
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
        v.version = g.i16();
        v.leader_id = g.i32();
        v.voters = (0..g.collection_len()).map(|_| Voter::sample(g, version)).collect();
        v.granting_voters = (0..g.collection_len()).map(|_| Voter::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.voters { x.each_error_code(f); }
        for x in &self.granting_voters { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.voters { x.each_nullable_string(version, f); }
        for x in &mut self.granting_voters { x.each_nullable_string(version, f); }
    }
}

/// The common struct `Voter`.
#[derive(Debug, Clone, PartialEq)]
pub struct Voter {
    /// The ID of the voter.
    ///
    /// Versions 0+.
    pub voter_id: i32,
    /// The directory id of the voter.
    ///
    /// Versions 1+.
    pub voter_directory_id: Uuid,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Voter {
    fn default() -> Self {
        Voter {
            voter_id: 0,
            voter_directory_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Voter {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.voter_id));
        if version >= 1 { write_uuid(w, (&self.voter_directory_id)); }
        if !(version >= 1) { if self.voter_directory_id != Uuid::nil() { return Err(EncodeError::FieldNotInVersion { field: "VoterDirectoryId", version }); } }
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
        n += 4;
        if version >= 1 { n += 16; }
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
        v.voter_id = read_i32(buf)?;
        if version >= 1 { v.voter_directory_id = read_uuid(buf)?; }
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
        v.voter_id = g.i32();
        if version >= 1 { v.voter_directory_id = g.uuid(); }
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
