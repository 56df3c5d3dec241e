//! Generated from `ConfigRecord.json` by fjord-codegen. Do not edit.

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

/// The `ConfigRecord` metadata (type 4, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigRecord {
    /// The type of resource this configuration applies to.
    ///
    /// Versions 0+.
    pub resource_type: i8,
    /// The name of the resource this configuration applies to.
    ///
    /// Versions 0+.
    pub resource_name: String,
    /// The name of the configuration key.
    ///
    /// Versions 0+.
    pub name: String,
    /// The value of the configuration, or null if the it should be deleted.
    ///
    /// Versions 0+; nullable 0+.
    pub value: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ConfigRecord {
    fn default() -> Self {
        ConfigRecord {
            resource_type: 0,
            resource_name: String::new(),
            name: String::new(),
            value: Some(String::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ConfigRecord {
    /// The message name.
    pub const NAME: &'static str = "ConfigRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ConfigRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i8(*(&self.resource_type));
        write_string(w, (&self.resource_name), flexible)?;
        write_string(w, (&self.name), flexible)?;
        match (&self.value) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
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
        n += 1;
        n += string_len((&self.resource_name), flexible);
        n += string_len((&self.name), flexible);
        n += match (&self.value) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ConfigRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resource_type = read_i8(buf)?;
        v.resource_name = read_string(buf, flexible, "ResourceName")?;
        v.name = read_string(buf, flexible, "Name")?;
        v.value = read_nullable_string(buf, flexible)?;
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
        v.resource_type = g.i8();
        v.resource_name = g.string();
        v.name = g.string();
        v.value = if (true) && g.chance(4) { None } else { Some(g.string()) };
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
        f("Value", &mut self.value);
    }
}
