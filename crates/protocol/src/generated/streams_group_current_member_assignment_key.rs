//! Generated from `StreamsGroupCurrentMemberAssignmentKey.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupCurrentMemberAssignmentKey` coordinator-key (type 22, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupCurrentMemberAssignmentKey {
    /// The group ID.
    ///
    /// Versions 0.
    pub group_id: String,
    /// The member ID.
    ///
    /// Versions 0.
    pub member_id: String,
}

impl Default for StreamsGroupCurrentMemberAssignmentKey {
    fn default() -> Self {
        StreamsGroupCurrentMemberAssignmentKey {
            group_id: String::new(),
            member_id: String::new(),
        }
    }
}

impl StreamsGroupCurrentMemberAssignmentKey {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupCurrentMemberAssignmentKey";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = None;

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupCurrentMemberAssignmentKey", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        write_string(w, (&self.group_id), flexible)?;
        write_string(w, (&self.member_id), flexible)?;
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.group_id), flexible);
        n += string_len((&self.member_id), flexible);
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupCurrentMemberAssignmentKey", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.member_id = read_string(buf, flexible, "MemberId")?;
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = g.string();
        v.member_id = g.string();
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
