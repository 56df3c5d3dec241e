//! Generated from `StreamsGroupDescribeResponse.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupDescribeResponse` response (api key 89, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupDescribeResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// Each described group.
    ///
    /// Versions 0+.
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StreamsGroupDescribeResponse {
    fn default() -> Self {
        StreamsGroupDescribeResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribedGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupDescribeResponse {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupDescribeResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupDescribeResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.throttle_time_ms));
        write_len_prefix(w, (&self.groups).len(), flexible)?; for e0 in (&self.groups).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.groups).len(), flexible) + (&self.groups).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupDescribeResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.groups = { let n = read_array_len_non_null(buf, flexible, "Groups")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribedGroup::decode(buf, version)?); } v };
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
        v.throttle_time_ms = g.i32();
        v.groups = (0..g.collection_len()).map(|_| DescribedGroup::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.groups { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.groups { x.each_nullable_string(version, f); }
    }
}

/// Each described group.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedGroup {
    /// The describe error, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// The group ID string.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The group state string, or the empty string.
    ///
    /// Versions 0+.
    pub group_state: String,
    /// The group epoch.
    ///
    /// Versions 0+.
    pub group_epoch: i32,
    /// The assignment epoch.
    ///
    /// Versions 0+.
    pub assignment_epoch: i32,
    /// The topology metadata currently initialized for the streams application. Can be null in case of a describe error.
    ///
    /// Versions 0+; nullable 0+.
    pub topology: Option<Topology>,
    /// The members.
    ///
    /// Versions 0+.
    pub members: Vec<Member>,
    /// 32-bit bitfield to represent authorized operations for this group.
    ///
    /// Versions 0+.
    pub authorized_operations: i32,
    /// The full topology description for this group. Non-null if and only if TopologyDescriptionStatus is AVAILABLE (3); null otherwise.
    ///
    /// Versions 1+; nullable 1+.
    pub topology_description: Option<TopologyDescription>,
    /// The status of the topology description for this group, paired with TopologyDescription: 0=NOT_REQUESTED (client did not set IncludeTopologyDescription; TopologyDescription is null); 1=NOT_STORED (no description recorded for this group; TopologyDescription is null); 2=ERROR (broker failed to fetch the description, see broker logs; TopologyDescription is null); 3=AVAILABLE (TopologyDescription is non-null and carries the description).
    ///
    /// Versions 1+.
    pub topology_description_status: i8,
    /// The task assignor that the group coordinator will use for the next assignment computation. This may differ from the assignor that computed the current assignment, because changing the assignor configuration does not trigger a rebalance. Null in case of a describe error.
    ///
    /// Versions 1+; nullable 1+.
    pub assignor_name: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribedGroup {
    fn default() -> Self {
        DescribedGroup {
            error_code: 0,
            error_message: None,
            group_id: String::new(),
            group_state: String::new(),
            group_epoch: 0,
            assignment_epoch: 0,
            topology: None,
            members: Vec::<Member>::new(),
            authorized_operations: -2147483648,
            topology_description: None,
            topology_description_status: 0,
            assignor_name: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_string(w, (&self.group_id), flexible)?;
        write_string(w, (&self.group_state), flexible)?;
        w.put_i32(*(&self.group_epoch));
        w.put_i32(*(&self.assignment_epoch));
        match (&self.topology) { Some(x) => { if true { w.put_i8(1); } x.encode(w, version)?; } None => { w.put_i8(-1); } }
        write_len_prefix(w, (&self.members).len(), flexible)?; for e0 in (&self.members).iter() { e0.encode(w, version)?; }
        w.put_i32(*(&self.authorized_operations));
        if version >= 1 { match (&self.topology_description) { Some(x) => { if version >= 1 { w.put_i8(1); } x.encode(w, version)?; } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "TopologyDescription", version }); } w.put_i8(-1); } } }
        if !(version >= 1) { if self.topology_description != None { return Err(EncodeError::FieldNotInVersion { field: "TopologyDescription", version }); } }
        if version >= 1 { w.put_i8(*(&self.topology_description_status)); }
        if !(version >= 1) { if self.topology_description_status != 0 { return Err(EncodeError::FieldNotInVersion { field: "TopologyDescriptionStatus", version }); } }
        if version >= 1 { match (&self.assignor_name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "AssignorName", version }); } write_nullable_string(w, None, flexible)?; } } }
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
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += string_len((&self.group_id), flexible);
        n += string_len((&self.group_state), flexible);
        n += 4;
        n += 4;
        n += match (&self.topology) { Some(x) => usize::from(true) + x.encoded_len(version), None => 1 };
        n += len_prefix_len((&self.members).len(), flexible) + (&self.members).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 4;
        if version >= 1 { n += match (&self.topology_description) { Some(x) => usize::from(version >= 1) + x.encoded_len(version), None => 1 }; }
        if version >= 1 { n += 1; }
        if version >= 1 { n += match (&self.assignor_name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.group_state = read_string(buf, flexible, "GroupState")?;
        v.group_epoch = read_i32(buf)?;
        v.assignment_epoch = read_i32(buf)?;
        v.topology = if read_i8(buf)? < 0 { None } else { Some(Topology::decode(buf, version)?) };
        v.members = { let n = read_array_len_non_null(buf, flexible, "Members")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Member::decode(buf, version)?); } v };
        v.authorized_operations = read_i32(buf)?;
        if version >= 1 { v.topology_description = if version >= 1 { if read_i8(buf)? < 0 { None } else { Some(TopologyDescription::decode(buf, version)?) } } else { Some(TopologyDescription::decode(buf, version)?) }; }
        if version >= 1 { v.topology_description_status = read_i8(buf)?; }
        if version >= 1 { v.assignor_name = if version >= 1 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "AssignorName")?) }; }
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
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.group_id = g.string();
        v.group_state = g.string();
        v.group_epoch = g.i32();
        v.assignment_epoch = g.i32();
        v.topology = if (true) && g.chance(4) { None } else { Some(Topology::sample(g, version)) };
        v.members = (0..g.collection_len()).map(|_| Member::sample(g, version)).collect();
        v.authorized_operations = g.i32();
        if version >= 1 { v.topology_description = if (version >= 1) && g.chance(4) { None } else { Some(TopologyDescription::sample(g, version)) }; }
        if version >= 1 { v.topology_description_status = g.i8(); }
        if version >= 1 { v.assignor_name = if (version >= 1) && g.chance(4) { None } else { Some(g.string()) }; }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        if let Some(x) = &self.topology { x.each_error_code(f); }
        for x in &self.members { x.each_error_code(f); }
        if let Some(x) = &self.topology_description { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
        if let Some(x) = &mut self.topology { x.each_nullable_string(version, f); }
        for x in &mut self.members { x.each_nullable_string(version, f); }
        if version >= 1 { if let Some(x) = &mut self.topology_description { x.each_nullable_string(version, f); } }
        if version >= 1 { f("AssignorName", &mut self.assignor_name); }
    }
}

/// The topology metadata currently initialized for the streams application. Can be null in case of a describe error.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    /// The epoch of the currently initialized topology for this group.
    ///
    /// Versions 0+.
    pub epoch: i32,
    /// The subtopologies of the streams application. This contains the configured subtopologies, where the number of partitions are set and any regular expressions are resolved to actual topics. Null if the group is uninitialized, source topics are missing or incorrectly partitioned.
    ///
    /// Versions 0+; nullable 0+.
    pub subtopologies: Option<Vec<Subtopology>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Topology {
    fn default() -> Self {
        Topology {
            epoch: 0,
            subtopologies: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Topology {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.epoch));
        match (&self.subtopologies) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { write_null(w, flexible); } }
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
        n += match (&self.subtopologies) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) };
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
        v.epoch = read_i32(buf)?;
        v.subtopologies = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Subtopology::decode(buf, version)?); } Some(v) } };
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
        v.epoch = g.i32();
        v.subtopologies = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| Subtopology::sample(g, version)).collect()) };
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.subtopologies { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if let Some(v) = &mut self.subtopologies { for x in v { x.each_nullable_string(version, f); } }
    }
}

/// The subtopologies of the streams application. This contains the configured subtopologies, where the number of partitions are set and any regular expressions are resolved to actual topics. Null if the group is uninitialized, source topics are missing or incorrectly partitioned.
#[derive(Debug, Clone, PartialEq)]
pub struct Subtopology {
    /// String to uniquely identify the subtopology.
    ///
    /// Versions 0+.
    pub subtopology_id: String,
    /// The topics the subtopology reads from.
    ///
    /// Versions 0+.
    pub source_topics: Vec<String>,
    /// The repartition topics the subtopology writes to.
    ///
    /// Versions 0+.
    pub repartition_sink_topics: Vec<String>,
    /// The set of state changelog topics associated with this subtopology. Created automatically.
    ///
    /// Versions 0+.
    pub state_changelog_topics: Vec<TopicInfo>,
    /// The set of source topics that are internally created repartition topics. Created automatically.
    ///
    /// Versions 0+.
    pub repartition_source_topics: Vec<TopicInfo>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Subtopology {
    fn default() -> Self {
        Subtopology {
            subtopology_id: String::new(),
            source_topics: Vec::<String>::new(),
            repartition_sink_topics: Vec::<String>::new(),
            state_changelog_topics: Vec::<TopicInfo>::new(),
            repartition_source_topics: Vec::<TopicInfo>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Subtopology {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.subtopology_id), flexible)?;
        write_len_prefix(w, (&self.source_topics).len(), flexible)?; for e0 in (&self.source_topics).iter() { write_string(w, e0, flexible)?; }
        write_len_prefix(w, (&self.repartition_sink_topics).len(), flexible)?; for e0 in (&self.repartition_sink_topics).iter() { write_string(w, e0, flexible)?; }
        write_len_prefix(w, (&self.state_changelog_topics).len(), flexible)?; for e0 in (&self.state_changelog_topics).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.repartition_source_topics).len(), flexible)?; for e0 in (&self.repartition_source_topics).iter() { e0.encode(w, version)?; }
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
        n += string_len((&self.subtopology_id), flexible);
        n += len_prefix_len((&self.source_topics).len(), flexible) + (&self.source_topics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += len_prefix_len((&self.repartition_sink_topics).len(), flexible) + (&self.repartition_sink_topics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += len_prefix_len((&self.state_changelog_topics).len(), flexible) + (&self.state_changelog_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.repartition_source_topics).len(), flexible) + (&self.repartition_source_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.subtopology_id = read_string(buf, flexible, "SubtopologyId")?;
        v.source_topics = { let n = read_array_len_non_null(buf, flexible, "SourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SourceTopics")?); } v };
        v.repartition_sink_topics = { let n = read_array_len_non_null(buf, flexible, "RepartitionSinkTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "RepartitionSinkTopics")?); } v };
        v.state_changelog_topics = { let n = read_array_len_non_null(buf, flexible, "StateChangelogTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicInfo::decode(buf, version)?); } v };
        v.repartition_source_topics = { let n = read_array_len_non_null(buf, flexible, "RepartitionSourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicInfo::decode(buf, version)?); } v };
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
        v.subtopology_id = g.string();
        v.source_topics = (0..g.collection_len()).map(|_| g.string()).collect();
        v.repartition_sink_topics = (0..g.collection_len()).map(|_| g.string()).collect();
        v.state_changelog_topics = (0..g.collection_len()).map(|_| TopicInfo::sample(g, version)).collect();
        v.repartition_source_topics = (0..g.collection_len()).map(|_| TopicInfo::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.state_changelog_topics { x.each_error_code(f); }
        for x in &self.repartition_source_topics { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.state_changelog_topics { x.each_nullable_string(version, f); }
        for x in &mut self.repartition_source_topics { x.each_nullable_string(version, f); }
    }
}

/// The members.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The member ID.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The member epoch.
    ///
    /// Versions 0+.
    pub member_epoch: i32,
    /// The member instance ID for static membership.
    ///
    /// Versions 0+; nullable 0+.
    pub instance_id: Option<String>,
    /// The rack ID.
    ///
    /// Versions 0+; nullable 0+.
    pub rack_id: Option<String>,
    /// The client ID.
    ///
    /// Versions 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions 0+.
    pub client_host: String,
    /// The epoch of the topology on the client.
    ///
    /// Versions 0+.
    pub topology_epoch: i32,
    /// Identity of the streams instance that may have multiple clients. 
    ///
    /// Versions 0+.
    pub process_id: String,
    /// User-defined endpoint for Interactive Queries. Null if not defined for this client.
    ///
    /// Versions 0+; nullable 0+.
    pub user_endpoint: Option<Endpoint>,
    /// Used for rack-aware assignment algorithm.
    ///
    /// Versions 0+.
    pub client_tags: Vec<KeyValue>,
    /// Cumulative changelog offsets for tasks.
    ///
    /// Versions 0+.
    pub task_offsets: Vec<TaskOffset>,
    /// Cumulative changelog end offsets for tasks.
    ///
    /// Versions 0+.
    pub task_end_offsets: Vec<TaskOffset>,
    /// The current assignment.
    ///
    /// Versions 0+.
    pub assignment: Assignment,
    /// The target assignment.
    ///
    /// Versions 0+.
    pub target_assignment: Assignment,
    /// True for classic members that have not been upgraded yet.
    ///
    /// Versions 0+.
    pub is_classic: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Member {
    fn default() -> Self {
        Member {
            member_id: String::new(),
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            client_id: String::new(),
            client_host: String::new(),
            topology_epoch: 0,
            process_id: String::new(),
            user_endpoint: None,
            client_tags: Vec::<KeyValue>::new(),
            task_offsets: Vec::<TaskOffset>::new(),
            task_end_offsets: Vec::<TaskOffset>::new(),
            assignment: Assignment::default(),
            target_assignment: Assignment::default(),
            is_classic: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Member {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.member_id), flexible)?;
        w.put_i32(*(&self.member_epoch));
        match (&self.instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        match (&self.rack_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_string(w, (&self.client_id), flexible)?;
        write_string(w, (&self.client_host), flexible)?;
        w.put_i32(*(&self.topology_epoch));
        write_string(w, (&self.process_id), flexible)?;
        match (&self.user_endpoint) { Some(x) => { if true { w.put_i8(1); } x.encode(w, version)?; } None => { w.put_i8(-1); } }
        write_len_prefix(w, (&self.client_tags).len(), flexible)?; for e0 in (&self.client_tags).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.task_offsets).len(), flexible)?; for e0 in (&self.task_offsets).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.task_end_offsets).len(), flexible)?; for e0 in (&self.task_end_offsets).iter() { e0.encode(w, version)?; }
        (&self.assignment).encode(w, version)?;
        (&self.target_assignment).encode(w, version)?;
        write_bool(w, *(&self.is_classic));
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
        n += string_len((&self.member_id), flexible);
        n += 4;
        n += match (&self.instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += match (&self.rack_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += string_len((&self.client_id), flexible);
        n += string_len((&self.client_host), flexible);
        n += 4;
        n += string_len((&self.process_id), flexible);
        n += match (&self.user_endpoint) { Some(x) => usize::from(true) + x.encoded_len(version), None => 1 };
        n += len_prefix_len((&self.client_tags).len(), flexible) + (&self.client_tags).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.task_offsets).len(), flexible) + (&self.task_offsets).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.task_end_offsets).len(), flexible) + (&self.task_end_offsets).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += (&self.assignment).encoded_len(version);
        n += (&self.target_assignment).encoded_len(version);
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.member_id = read_string(buf, flexible, "MemberId")?;
        v.member_epoch = read_i32(buf)?;
        v.instance_id = read_nullable_string(buf, flexible)?;
        v.rack_id = read_nullable_string(buf, flexible)?;
        v.client_id = read_string(buf, flexible, "ClientId")?;
        v.client_host = read_string(buf, flexible, "ClientHost")?;
        v.topology_epoch = read_i32(buf)?;
        v.process_id = read_string(buf, flexible, "ProcessId")?;
        v.user_endpoint = if read_i8(buf)? < 0 { None } else { Some(Endpoint::decode(buf, version)?) };
        v.client_tags = { let n = read_array_len_non_null(buf, flexible, "ClientTags")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(KeyValue::decode(buf, version)?); } v };
        v.task_offsets = { let n = read_array_len_non_null(buf, flexible, "TaskOffsets")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskOffset::decode(buf, version)?); } v };
        v.task_end_offsets = { let n = read_array_len_non_null(buf, flexible, "TaskEndOffsets")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskOffset::decode(buf, version)?); } v };
        v.assignment = Assignment::decode(buf, version)?;
        v.target_assignment = Assignment::decode(buf, version)?;
        v.is_classic = read_bool(buf)?;
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
        v.member_id = g.string();
        v.member_epoch = g.i32();
        v.instance_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.rack_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.client_id = g.string();
        v.client_host = g.string();
        v.topology_epoch = g.i32();
        v.process_id = g.string();
        v.user_endpoint = if (true) && g.chance(4) { None } else { Some(Endpoint::sample(g, version)) };
        v.client_tags = (0..g.collection_len()).map(|_| KeyValue::sample(g, version)).collect();
        v.task_offsets = (0..g.collection_len()).map(|_| TaskOffset::sample(g, version)).collect();
        v.task_end_offsets = (0..g.collection_len()).map(|_| TaskOffset::sample(g, version)).collect();
        v.assignment = Assignment::sample(g, version);
        v.target_assignment = Assignment::sample(g, version);
        v.is_classic = g.bool();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(x) = &self.user_endpoint { x.each_error_code(f); }
        for x in &self.client_tags { x.each_error_code(f); }
        for x in &self.task_offsets { x.each_error_code(f); }
        for x in &self.task_end_offsets { x.each_error_code(f); }
        self.assignment.each_error_code(f);
        self.target_assignment.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("InstanceId", &mut self.instance_id);
        f("RackId", &mut self.rack_id);
        if let Some(x) = &mut self.user_endpoint { x.each_nullable_string(version, f); }
        for x in &mut self.client_tags { x.each_nullable_string(version, f); }
        for x in &mut self.task_offsets { x.each_nullable_string(version, f); }
        for x in &mut self.task_end_offsets { x.each_nullable_string(version, f); }
        self.assignment.each_nullable_string(version, f);
        self.target_assignment.each_nullable_string(version, f);
    }
}

/// The common struct `Endpoint`.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// host of the endpoint
    ///
    /// Versions 0+.
    pub host: String,
    /// port of the endpoint
    ///
    /// Versions 0+.
    pub port: u16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Endpoint {
    fn default() -> Self {
        Endpoint {
            host: String::new(),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Endpoint {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.host), flexible)?;
        w.put_u16(*(&self.port));
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
        n += string_len((&self.host), flexible);
        n += 2;
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
        v.host = read_string(buf, flexible, "Host")?;
        v.port = read_u16(buf)?;
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
        v.host = g.string();
        v.port = g.u16();
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

/// The common struct `TaskOffset`.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskOffset {
    /// The subtopology identifier.
    ///
    /// Versions 0+.
    pub subtopology_id: String,
    /// The partition.
    ///
    /// Versions 0+.
    pub partition: i32,
    /// The offset.
    ///
    /// Versions 0+.
    pub offset: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TaskOffset {
    fn default() -> Self {
        TaskOffset {
            subtopology_id: String::new(),
            partition: 0,
            offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TaskOffset {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.subtopology_id), flexible)?;
        w.put_i32(*(&self.partition));
        w.put_i64(*(&self.offset));
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
        n += string_len((&self.subtopology_id), flexible);
        n += 4;
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
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.subtopology_id = read_string(buf, flexible, "SubtopologyId")?;
        v.partition = read_i32(buf)?;
        v.offset = read_i64(buf)?;
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
        v.subtopology_id = g.string();
        v.partition = g.i32();
        v.offset = g.i64();
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

/// The common struct `Assignment`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// Active tasks for this client.
    ///
    /// Versions 0+.
    pub active_tasks: Vec<TaskIds>,
    /// Standby tasks for this client.
    ///
    /// Versions 0+.
    pub standby_tasks: Vec<TaskIds>,
    /// Warm-up tasks for this client. 
    ///
    /// Versions 0+.
    pub warmup_tasks: Vec<TaskIds>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Assignment {
    fn default() -> Self {
        Assignment {
            active_tasks: Vec::<TaskIds>::new(),
            standby_tasks: Vec::<TaskIds>::new(),
            warmup_tasks: Vec::<TaskIds>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Assignment {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.active_tasks).len(), flexible)?; for e0 in (&self.active_tasks).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.standby_tasks).len(), flexible)?; for e0 in (&self.standby_tasks).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.warmup_tasks).len(), flexible)?; for e0 in (&self.warmup_tasks).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.active_tasks).len(), flexible) + (&self.active_tasks).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.standby_tasks).len(), flexible) + (&self.standby_tasks).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.warmup_tasks).len(), flexible) + (&self.warmup_tasks).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.active_tasks = { let n = read_array_len_non_null(buf, flexible, "ActiveTasks")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
        v.standby_tasks = { let n = read_array_len_non_null(buf, flexible, "StandbyTasks")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
        v.warmup_tasks = { let n = read_array_len_non_null(buf, flexible, "WarmupTasks")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
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
        v.active_tasks = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        v.standby_tasks = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        v.warmup_tasks = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.active_tasks { x.each_error_code(f); }
        for x in &self.standby_tasks { x.each_error_code(f); }
        for x in &self.warmup_tasks { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.active_tasks { x.each_nullable_string(version, f); }
        for x in &mut self.standby_tasks { x.each_nullable_string(version, f); }
        for x in &mut self.warmup_tasks { x.each_nullable_string(version, f); }
    }
}

/// The common struct `TaskIds`.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskIds {
    /// The subtopology identifier.
    ///
    /// Versions 0+.
    pub subtopology_id: String,
    /// The partitions of the input topics processed by this member.
    ///
    /// Versions 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TaskIds {
    fn default() -> Self {
        TaskIds {
            subtopology_id: String::new(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TaskIds {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.subtopology_id), flexible)?;
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { w.put_i32(*e0); }
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
        n += string_len((&self.subtopology_id), flexible);
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).len() * 4;
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
        v.subtopology_id = read_string(buf, flexible, "SubtopologyId")?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
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
        v.subtopology_id = g.string();
        v.partitions = (0..g.collection_len()).map(|_| g.i32()).collect();
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

/// The common struct `KeyValue`.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValue {
    /// key of the config
    ///
    /// Versions 0+.
    pub key: String,
    /// value of the config
    ///
    /// Versions 0+.
    pub value: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for KeyValue {
    fn default() -> Self {
        KeyValue {
            key: String::new(),
            value: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl KeyValue {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.key), flexible)?;
        write_string(w, (&self.value), flexible)?;
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
        n += string_len((&self.key), flexible);
        n += string_len((&self.value), flexible);
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
        v.key = read_string(buf, flexible, "Key")?;
        v.value = read_string(buf, flexible, "Value")?;
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
        v.key = g.string();
        v.value = g.string();
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

/// The common struct `TopicInfo`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicInfo {
    /// The name of the topic.
    ///
    /// Versions 0+.
    pub name: String,
    /// The number of partitions in the topic. Can be 0 if no specific number of partitions is enforced. Always 0 for changelog topics.
    ///
    /// Versions 0+.
    pub partitions: i32,
    /// The replication factor of the topic. Can be 0 if the default replication factor should be used.
    ///
    /// Versions 0+.
    pub replication_factor: i16,
    /// Topic-level configurations as key-value pairs.
    ///
    /// Versions 0+.
    pub topic_configs: Vec<KeyValue>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicInfo {
    fn default() -> Self {
        TopicInfo {
            name: String::new(),
            partitions: 0,
            replication_factor: 0,
            topic_configs: Vec::<KeyValue>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicInfo {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        w.put_i32(*(&self.partitions));
        w.put_i16(*(&self.replication_factor));
        write_len_prefix(w, (&self.topic_configs).len(), flexible)?; for e0 in (&self.topic_configs).iter() { e0.encode(w, version)?; }
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
        n += string_len((&self.name), flexible);
        n += 4;
        n += 2;
        n += len_prefix_len((&self.topic_configs).len(), flexible) + (&self.topic_configs).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.name = read_string(buf, flexible, "Name")?;
        v.partitions = read_i32(buf)?;
        v.replication_factor = read_i16(buf)?;
        v.topic_configs = { let n = read_array_len_non_null(buf, flexible, "TopicConfigs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(KeyValue::decode(buf, version)?); } v };
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
        v.name = g.string();
        v.partitions = g.i32();
        v.replication_factor = g.i16();
        v.topic_configs = (0..g.collection_len()).map(|_| KeyValue::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topic_configs { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.topic_configs { x.each_nullable_string(version, f); }
    }
}

/// The common struct `TopologyDescription`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescription {
    /// The subtopologies that make up this topology.
    ///
    /// Versions 1+.
    pub subtopologies: Vec<TopologyDescriptionSubtopology>,
    /// Global state stores used by this topology.
    ///
    /// Versions 1+.
    pub global_stores: Vec<TopologyDescriptionGlobalStore>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescription {
    fn default() -> Self {
        TopologyDescription {
            subtopologies: Vec::<TopologyDescriptionSubtopology>::new(),
            global_stores: Vec::<TopologyDescriptionGlobalStore>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescription {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        if version >= 1 { write_len_prefix(w, (&self.subtopologies).len(), flexible)?; for e0 in (&self.subtopologies).iter() { e0.encode(w, version)?; } }
        if !(version >= 1) { if self.subtopologies != Vec::<TopologyDescriptionSubtopology>::new() { return Err(EncodeError::FieldNotInVersion { field: "Subtopologies", version }); } }
        if version >= 1 { write_len_prefix(w, (&self.global_stores).len(), flexible)?; for e0 in (&self.global_stores).iter() { e0.encode(w, version)?; } }
        if !(version >= 1) { if self.global_stores != Vec::<TopologyDescriptionGlobalStore>::new() { return Err(EncodeError::FieldNotInVersion { field: "GlobalStores", version }); } }
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
        if version >= 1 { n += len_prefix_len((&self.subtopologies).len(), flexible) + (&self.subtopologies).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version >= 1 { n += len_prefix_len((&self.global_stores).len(), flexible) + (&self.global_stores).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
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
        if version >= 1 { v.subtopologies = { let n = read_array_len_non_null(buf, flexible, "Subtopologies")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopologyDescriptionSubtopology::decode(buf, version)?); } v }; }
        if version >= 1 { v.global_stores = { let n = read_array_len_non_null(buf, flexible, "GlobalStores")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopologyDescriptionGlobalStore::decode(buf, version)?); } v }; }
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
        if version >= 1 { v.subtopologies = (0..g.collection_len()).map(|_| TopologyDescriptionSubtopology::sample(g, version)).collect(); }
        if version >= 1 { v.global_stores = (0..g.collection_len()).map(|_| TopologyDescriptionGlobalStore::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.subtopologies { x.each_error_code(f); }
        for x in &self.global_stores { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 1 { for x in &mut self.subtopologies { x.each_nullable_string(version, f); } }
        if version >= 1 { for x in &mut self.global_stores { x.each_nullable_string(version, f); } }
    }
}

/// The common struct `TopologyDescriptionSubtopology`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescriptionSubtopology {
    /// The subtopology identifier, unique within the topology.
    ///
    /// Versions 1+.
    pub subtopology_id: String,
    /// The processing nodes in this subtopology.
    ///
    /// Versions 1+.
    pub nodes: Vec<TopologyDescriptionNode>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescriptionSubtopology {
    fn default() -> Self {
        TopologyDescriptionSubtopology {
            subtopology_id: String::new(),
            nodes: Vec::<TopologyDescriptionNode>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescriptionSubtopology {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        if version >= 1 { write_string(w, (&self.subtopology_id), flexible)?; }
        if !(version >= 1) { if self.subtopology_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "SubtopologyId", version }); } }
        if version >= 1 { write_len_prefix(w, (&self.nodes).len(), flexible)?; for e0 in (&self.nodes).iter() { e0.encode(w, version)?; } }
        if !(version >= 1) { if self.nodes != Vec::<TopologyDescriptionNode>::new() { return Err(EncodeError::FieldNotInVersion { field: "Nodes", version }); } }
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
        if version >= 1 { n += string_len((&self.subtopology_id), flexible); }
        if version >= 1 { n += len_prefix_len((&self.nodes).len(), flexible) + (&self.nodes).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
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
        if version >= 1 { v.subtopology_id = read_string(buf, flexible, "SubtopologyId")?; }
        if version >= 1 { v.nodes = { let n = read_array_len_non_null(buf, flexible, "Nodes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopologyDescriptionNode::decode(buf, version)?); } v }; }
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
        if version >= 1 { v.subtopology_id = g.string(); }
        if version >= 1 { v.nodes = (0..g.collection_len()).map(|_| TopologyDescriptionNode::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.nodes { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 1 { for x in &mut self.nodes { x.each_nullable_string(version, f); } }
    }
}

/// The common struct `TopologyDescriptionNode`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescriptionNode {
    /// The name of this node (e.g., KSTREAM-SOURCE-0000000000).
    ///
    /// Versions 1+.
    pub name: String,
    /// The type of this node: 1=SOURCE, 2=PROCESSOR, 3=SINK.
    ///
    /// Versions 1+.
    pub node_type: i8,
    /// The source topics this node reads from. Defined only for source nodes, may be empty if source topics are dynamically determined.
    ///
    /// Versions 1+.
    pub source_topics: Vec<String>,
    /// The topic this node writes to. Defined only for sink nodes, may be null if sink topic is dynamically determined.
    ///
    /// Versions 1+; nullable 1+.
    pub sink_topic: Option<String>,
    /// The state store names accessed by this node. Defined only for processor nodes.
    ///
    /// Versions 1+.
    pub stores: Vec<String>,
    /// The names of successor nodes in the processing graph. Predecessor relationships are reconstructed from this field.
    ///
    /// Versions 1+.
    pub successors: Vec<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescriptionNode {
    fn default() -> Self {
        TopologyDescriptionNode {
            name: String::new(),
            node_type: 0,
            source_topics: Vec::<String>::new(),
            sink_topic: None,
            stores: Vec::<String>::new(),
            successors: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescriptionNode {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        if version >= 1 { write_string(w, (&self.name), flexible)?; }
        if !(version >= 1) { if self.name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version >= 1 { w.put_i8(*(&self.node_type)); }
        if !(version >= 1) { if self.node_type != 0 { return Err(EncodeError::FieldNotInVersion { field: "NodeType", version }); } }
        if version >= 1 { write_len_prefix(w, (&self.source_topics).len(), flexible)?; for e0 in (&self.source_topics).iter() { write_string(w, e0, flexible)?; } }
        if !(version >= 1) { if self.source_topics != Vec::<String>::new() { return Err(EncodeError::FieldNotInVersion { field: "SourceTopics", version }); } }
        if version >= 1 { match (&self.sink_topic) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "SinkTopic", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 1) { if self.sink_topic != None { return Err(EncodeError::FieldNotInVersion { field: "SinkTopic", version }); } }
        if version >= 1 { write_len_prefix(w, (&self.stores).len(), flexible)?; for e0 in (&self.stores).iter() { write_string(w, e0, flexible)?; } }
        if !(version >= 1) { if self.stores != Vec::<String>::new() { return Err(EncodeError::FieldNotInVersion { field: "Stores", version }); } }
        if version >= 1 { write_len_prefix(w, (&self.successors).len(), flexible)?; for e0 in (&self.successors).iter() { write_string(w, e0, flexible)?; } }
        if !(version >= 1) { if self.successors != Vec::<String>::new() { return Err(EncodeError::FieldNotInVersion { field: "Successors", version }); } }
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
        if version >= 1 { n += string_len((&self.name), flexible); }
        if version >= 1 { n += 1; }
        if version >= 1 { n += len_prefix_len((&self.source_topics).len(), flexible) + (&self.source_topics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>(); }
        if version >= 1 { n += match (&self.sink_topic) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 1 { n += len_prefix_len((&self.stores).len(), flexible) + (&self.stores).iter().map(|e0| string_len(e0, flexible)).sum::<usize>(); }
        if version >= 1 { n += len_prefix_len((&self.successors).len(), flexible) + (&self.successors).iter().map(|e0| string_len(e0, flexible)).sum::<usize>(); }
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
        if version >= 1 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 1 { v.node_type = read_i8(buf)?; }
        if version >= 1 { v.source_topics = { let n = read_array_len_non_null(buf, flexible, "SourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SourceTopics")?); } v }; }
        if version >= 1 { v.sink_topic = if version >= 1 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "SinkTopic")?) }; }
        if version >= 1 { v.stores = { let n = read_array_len_non_null(buf, flexible, "Stores")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Stores")?); } v }; }
        if version >= 1 { v.successors = { let n = read_array_len_non_null(buf, flexible, "Successors")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Successors")?); } v }; }
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
        if version >= 1 { v.name = g.string(); }
        if version >= 1 { v.node_type = g.i8(); }
        if version >= 1 { v.source_topics = (0..g.collection_len()).map(|_| g.string()).collect(); }
        if version >= 1 { v.sink_topic = if (version >= 1) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 1 { v.stores = (0..g.collection_len()).map(|_| g.string()).collect(); }
        if version >= 1 { v.successors = (0..g.collection_len()).map(|_| g.string()).collect(); }
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
        if version >= 1 { f("SinkTopic", &mut self.sink_topic); }
    }
}

/// The common struct `TopologyDescriptionGlobalStore`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescriptionGlobalStore {
    /// The source node providing data to the global store.
    ///
    /// Versions 1+.
    pub source: TopologyDescriptionNode,
    /// The processor node that populates the global store.
    ///
    /// Versions 1+.
    pub processor: TopologyDescriptionNode,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescriptionGlobalStore {
    fn default() -> Self {
        TopologyDescriptionGlobalStore {
            source: TopologyDescriptionNode::default(),
            processor: TopologyDescriptionNode::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescriptionGlobalStore {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        if version >= 1 { (&self.source).encode(w, version)?; }
        if !(version >= 1) { if self.source != TopologyDescriptionNode::default() { return Err(EncodeError::FieldNotInVersion { field: "Source", version }); } }
        if version >= 1 { (&self.processor).encode(w, version)?; }
        if !(version >= 1) { if self.processor != TopologyDescriptionNode::default() { return Err(EncodeError::FieldNotInVersion { field: "Processor", version }); } }
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
        if version >= 1 { n += (&self.source).encoded_len(version); }
        if version >= 1 { n += (&self.processor).encoded_len(version); }
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
        if version >= 1 { v.source = TopologyDescriptionNode::decode(buf, version)?; }
        if version >= 1 { v.processor = TopologyDescriptionNode::decode(buf, version)?; }
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
        if version >= 1 { v.source = TopologyDescriptionNode::sample(g, version); }
        if version >= 1 { v.processor = TopologyDescriptionNode::sample(g, version); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.source.each_error_code(f);
        self.processor.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 1 { self.source.each_nullable_string(version, f); }
        if version >= 1 { self.processor.each_nullable_string(version, f); }
    }
}
