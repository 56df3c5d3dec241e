//! Generated from `ConsumerGroupMemberMetadataValue.json` by fjord-codegen. Do not edit.

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

/// The `ConsumerGroupMemberMetadataValue` data (versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct ConsumerGroupMemberMetadataValue {
    /// The (optional) instance id.
    ///
    /// Versions 0+; nullable 0+.
    pub instance_id: Option<String>,
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
    /// The subscribed topic regular expression.
    ///
    /// Versions 0+; nullable 0+.
    pub subscribed_topic_regex: Option<String>,
    /// The rebalance timeout
    ///
    /// Versions 0+.
    pub rebalance_timeout_ms: i32,
    /// The server assignor to use; or null if not used.
    ///
    /// Versions 0+; nullable 0+.
    pub server_assignor: Option<String>,
    /// The classic member metadata which includes the supported protocols of the consumer if it uses the classic protocol. The metadata is null if the consumer uses the consumer protocol.
    ///
    /// Versions 0+; nullable 0+; tag 0 in 0+.
    pub classic_member_metadata: Option<ClassicMemberMetadata>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ConsumerGroupMemberMetadataValue {
    fn default() -> Self {
        ConsumerGroupMemberMetadataValue {
            instance_id: Some(String::new()),
            rack_id: Some(String::new()),
            client_id: String::new(),
            client_host: String::new(),
            subscribed_topic_names: Vec::<String>::new(),
            subscribed_topic_regex: Some(String::new()),
            rebalance_timeout_ms: -1,
            server_assignor: Some(String::new()),
            classic_member_metadata: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ConsumerGroupMemberMetadataValue {
    /// The message name.
    pub const NAME: &'static str = "ConsumerGroupMemberMetadataValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ConsumerGroupMemberMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        match (&self.instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        match (&self.rack_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_string(w, (&self.client_id), flexible)?;
        write_string(w, (&self.client_host), flexible)?;
        write_len_prefix(w, (&self.subscribed_topic_names).len(), flexible)?; for e0 in (&self.subscribed_topic_names).iter() { write_string(w, e0, flexible)?; }
        match (&self.subscribed_topic_regex) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i32(*(&self.rebalance_timeout_ms));
        match (&self.server_assignor) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        if !((false) || (true)) { if self.classic_member_metadata != None { return Err(EncodeError::FieldNotInVersion { field: "ClassicMemberMetadata", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.classic_member_metadata != None { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.classic_member_metadata != None { write_uvarint(w, 0); write_uvarint(w, (match (&self.classic_member_metadata) { Some(x) => usize::from(true) + x.encoded_len(version), None => 1 }) as u32); match (&self.classic_member_metadata) { Some(x) => { if true { w.put_i8(1); } x.encode(w, version)?; } None => { w.put_i8(-1); } } }
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
        n += match (&self.instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += match (&self.rack_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += string_len((&self.client_id), flexible);
        n += string_len((&self.client_host), flexible);
        n += len_prefix_len((&self.subscribed_topic_names).len(), flexible) + (&self.subscribed_topic_names).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += match (&self.subscribed_topic_regex) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 4;
        n += match (&self.server_assignor) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.classic_member_metadata != None { count += 1; let s = match (&self.classic_member_metadata) { Some(x) => usize::from(true) + x.encoded_len(version), None => 1 }; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ConsumerGroupMemberMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.instance_id = read_nullable_string(buf, flexible)?;
        v.rack_id = read_nullable_string(buf, flexible)?;
        v.client_id = read_string(buf, flexible, "ClientId")?;
        v.client_host = read_string(buf, flexible, "ClientHost")?;
        v.subscribed_topic_names = { let n = read_array_len_non_null(buf, flexible, "SubscribedTopicNames")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SubscribedTopicNames")?); } v };
        v.subscribed_topic_regex = read_nullable_string(buf, flexible)?;
        v.rebalance_timeout_ms = read_i32(buf)?;
        v.server_assignor = read_nullable_string(buf, flexible)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.classic_member_metadata = if read_i8(buf)? < 0 { None } else { Some(ClassicMemberMetadata::decode(buf, version)?) }; finish_tagged_field(buf, 0)?; }
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
        v.instance_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.rack_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.client_id = g.string();
        v.client_host = g.string();
        v.subscribed_topic_names = (0..g.collection_len()).map(|_| g.string()).collect();
        v.subscribed_topic_regex = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.rebalance_timeout_ms = g.i32();
        v.server_assignor = if (true) && g.chance(4) { None } else { Some(g.string()) };
        if (true) && g.bool() { v.classic_member_metadata = if (true) && g.chance(4) { None } else { Some(ClassicMemberMetadata::sample(g, version)) }; }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(x) = &self.classic_member_metadata { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("InstanceId", &mut self.instance_id);
        f("RackId", &mut self.rack_id);
        f("SubscribedTopicRegex", &mut self.subscribed_topic_regex);
        f("ServerAssignor", &mut self.server_assignor);
        if (false) || (true) { if let Some(x) = &mut self.classic_member_metadata { x.each_nullable_string(version, f); } }
    }
}

/// The classic member metadata which includes the supported protocols of the consumer if it uses the classic protocol. The metadata is null if the consumer uses the consumer protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassicMemberMetadata {
    /// The session timeout if the consumer uses the classic protocol.
    ///
    /// Versions 0+.
    pub session_timeout_ms: i32,
    /// The list of protocols that the member supports if the consumer uses the classic protocol.
    ///
    /// Versions 0+.
    pub supported_protocols: Vec<ClassicProtocol>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ClassicMemberMetadata {
    fn default() -> Self {
        ClassicMemberMetadata {
            session_timeout_ms: 0,
            supported_protocols: Vec::<ClassicProtocol>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ClassicMemberMetadata {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.session_timeout_ms));
        write_len_prefix(w, (&self.supported_protocols).len(), flexible)?; for e0 in (&self.supported_protocols).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.supported_protocols).len(), flexible) + (&self.supported_protocols).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.session_timeout_ms = read_i32(buf)?;
        v.supported_protocols = { let n = read_array_len_non_null(buf, flexible, "SupportedProtocols")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(ClassicProtocol::decode(buf, version)?); } v };
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
        v.session_timeout_ms = g.i32();
        v.supported_protocols = (0..g.collection_len()).map(|_| ClassicProtocol::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.supported_protocols { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.supported_protocols { x.each_nullable_string(version, f); }
    }
}

/// The list of protocols that the member supports if the consumer uses the classic protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassicProtocol {
    /// The protocol name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The protocol metadata.
    ///
    /// Versions 0+.
    pub metadata: Bytes,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ClassicProtocol {
    fn default() -> Self {
        ClassicProtocol {
            name: String::new(),
            metadata: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ClassicProtocol {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        write_bytes(w, (&self.metadata), flexible)?;
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
        n += bytes_len((&self.metadata), flexible);
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
        v.metadata = read_bytes(buf, flexible, "Metadata")?;
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
        v.metadata = g.bytes();
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
