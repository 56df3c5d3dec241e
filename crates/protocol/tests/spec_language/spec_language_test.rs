//! Generated from `SpecLanguageTest.json` by fjord-codegen. Do not edit.

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

/// The `SpecLanguageTest` request (api key 999, versions 0-3).
#[derive(Debug, Clone, PartialEq)]
pub struct SpecLanguageTest {
    /// A bool with a default.
    ///
    /// Versions 0+.
    pub flag: bool,
    /// An int8.
    ///
    /// Versions 0+.
    pub tiny: i8,
    /// A uint16.
    ///
    /// Versions 0+.
    pub port: u16,
    /// A uint32 from v1.
    ///
    /// Versions 1+.
    pub big: u32,
    /// A float64.
    ///
    /// Versions 0+.
    pub ratio: f64,
    /// Removed in v2, ignorable.
    ///
    /// Versions 0-1.
    pub old: i32,
    /// Removed in v2, not ignorable.
    ///
    /// Versions 0-1.
    pub strict: i64,
    /// A string default.
    ///
    /// Versions 0+.
    pub label: String,
    /// Always a classic string, even in flexible versions.
    ///
    /// Versions 0+; nullable 0+.
    pub client: Option<String>,
    /// Nullable from v1.
    ///
    /// Versions 0+; nullable 1+.
    pub blob: Option<Bytes>,
    /// Records.
    ///
    /// Versions 0+; nullable 0+.
    pub records: Option<Records>,
    /// A uuid.
    ///
    /// Versions 0+.
    pub id: Uuid,
    /// A nullable array of structs, null by default.
    ///
    /// Versions 0+; nullable 0+.
    pub items: Option<Vec<Item>>,
    /// A nullable common struct.
    ///
    /// Versions 0+; nullable 1+.
    pub origin: Option<Point>,
    /// An array of strings.
    ///
    /// Versions 0+.
    pub names: Vec<String>,
    /// A tagged nullable string.
    ///
    /// Versions 2+; nullable 2+; tag 0 in 2+.
    pub note: Option<String>,
    /// A tagged array of common structs from v3.
    ///
    /// Versions 3+; tag 1 in 3+.
    pub extra: Vec<Point>,
    /// A tagged int with a hex default.
    ///
    /// Versions 2+; tag 2 in 2+.
    pub limit: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for SpecLanguageTest {
    fn default() -> Self {
        SpecLanguageTest {
            flag: true,
            tiny: -2,
            port: 9092,
            big: 4294967295,
            ratio: 1.5,
            old: 0,
            strict: 0,
            label: String::from("fjord"),
            client: Some(String::new()),
            blob: Some(Bytes::new()),
            records: None,
            id: Uuid::nil(),
            items: None,
            origin: Some(Point::default()),
            names: Vec::<String>::new(),
            note: None,
            extra: Vec::<Point>::new(),
            limit: 2147483647,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SpecLanguageTest {
    /// The message name.
    pub const NAME: &'static str = "SpecLanguageTest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "SpecLanguageTest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        write_bool(w, *(&self.flag));
        w.put_i8(*(&self.tiny));
        w.put_u16(*(&self.port));
        if version >= 1 { w.put_u32(*(&self.big)); }
        if !(version >= 1) { if self.big != 4294967295 { return Err(EncodeError::FieldNotInVersion { field: "Big", version }); } }
        w.put_f64(*(&self.ratio));
        if version <= 1 { w.put_i32(*(&self.old)); }
        if version <= 1 { w.put_i64(*(&self.strict)); }
        if !(version <= 1) { if self.strict != 0 { return Err(EncodeError::FieldNotInVersion { field: "Strict", version }); } }
        write_string(w, (&self.label), flexible)?;
        match (&self.client) { Some(x) => { write_string(w, x, false)?; } None => { write_nullable_string(w, None, false)?; } }
        match (&self.blob) { Some(x) => { write_bytes(w, x, flexible)?; } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "Blob", version }); } write_null(w, flexible); } }
        match (&self.records) { Some(x) => { write_records(w, x, flexible)?; } None => { write_null(w, flexible); } }
        write_uuid(w, (&self.id));
        match (&self.items) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { write_null(w, flexible); } }
        match (&self.origin) { Some(x) => { if version >= 1 { w.put_i8(1); } x.encode(w, version)?; } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "Origin", version }); } w.put_i8(-1); } }
        write_len_prefix(w, (&self.names).len(), flexible)?; for e0 in (&self.names).iter() { write_string(w, e0, flexible)?; }
        if !((false) || (version >= 2)) { if self.note != None { return Err(EncodeError::FieldNotInVersion { field: "Note", version }); } }
        if !((false) || (version >= 3)) { if self.extra != Vec::<Point>::new() { return Err(EncodeError::FieldNotInVersion { field: "Extra", version }); } }
        if !((false) || (version >= 2)) { if self.limit != 2147483647 { return Err(EncodeError::FieldNotInVersion { field: "Limit", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 2 && self.note != None { count += 1; }
            if version >= 3 && self.extra != Vec::<Point>::new() { count += 1; }
            if version >= 2 && self.limit != 2147483647 { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.note != None { write_uvarint(w, 0); write_uvarint(w, (match (&self.note) { Some(x) => string_len(x, true), None => nullable_string_len(None, true) }) as u32); match (&self.note) { Some(x) => { write_string(w, x, true)?; } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "Note", version }); } write_nullable_string(w, None, true)?; } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 3 && self.extra != Vec::<Point>::new() { write_uvarint(w, 1); write_uvarint(w, (len_prefix_len((&self.extra).len(), true) + (&self.extra).iter().map(|e0| e0.encoded_len(version)).sum::<usize>()) as u32); write_len_prefix(w, (&self.extra).len(), true)?; for e0 in (&self.extra).iter() { e0.encode(w, version)?; } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.limit != 2147483647 { write_uvarint(w, 2); write_uvarint(w, (4) as u32); w.put_i32(*(&self.limit)); }
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
        n += 1;
        n += 2;
        if version >= 1 { n += 4; }
        n += 8;
        if version <= 1 { n += 4; }
        if version <= 1 { n += 8; }
        n += string_len((&self.label), flexible);
        n += match (&self.client) { Some(x) => string_len(x, false), None => nullable_string_len(None, false) };
        n += match (&self.blob) { Some(x) => bytes_len(x, flexible), None => null_len(flexible) };
        n += match (&self.records) { Some(x) => records_len(x, flexible), None => null_len(flexible) };
        n += 16;
        n += match (&self.items) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) };
        n += match (&self.origin) { Some(x) => usize::from(version >= 1) + x.encoded_len(version), None => 1 };
        n += len_prefix_len((&self.names).len(), flexible) + (&self.names).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 2 && self.note != None { count += 1; let s = match (&self.note) { Some(x) => string_len(x, true), None => nullable_string_len(None, true) }; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 3 && self.extra != Vec::<Point>::new() { count += 1; let s = len_prefix_len((&self.extra).len(), true) + (&self.extra).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if version >= 2 && self.limit != 2147483647 { count += 1; let s = 4; n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "SpecLanguageTest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.flag = read_bool(buf)?;
        v.tiny = read_i8(buf)?;
        v.port = read_u16(buf)?;
        if version >= 1 { v.big = read_u32(buf)?; }
        v.ratio = read_f64(buf)?;
        if version <= 1 { v.old = read_i32(buf)?; }
        if version <= 1 { v.strict = read_i64(buf)?; }
        v.label = read_string(buf, flexible, "Label")?;
        v.client = read_nullable_string(buf, false)?;
        v.blob = if version >= 1 { read_nullable_bytes(buf, flexible)? } else { Some(read_bytes(buf, flexible, "Blob")?) };
        v.records = read_nullable_bytes(buf, flexible)?.map(Records::from);
        v.id = read_uuid(buf)?;
        v.items = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Item::decode(buf, version)?); } Some(v) } };
        v.origin = if version >= 1 { if read_i8(buf)? < 0 { None } else { Some(Point::decode(buf, version)?) } } else { Some(Point::decode(buf, version)?) };
        v.names = { let n = read_array_len_non_null(buf, flexible, "Names")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Names")?); } v };
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 2 => { let buf = &mut field; v.note = if version >= 2 { read_nullable_string(buf, true)? } else { Some(read_string(buf, true, "Note")?) }; finish_tagged_field(buf, 0)?; }
                    1 if version >= 3 => { let buf = &mut field; v.extra = { let n = read_array_len_non_null(buf, true, "Extra")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Point::decode(buf, version)?); } v }; finish_tagged_field(buf, 1)?; }
                    2 if version >= 2 => { let buf = &mut field; v.limit = read_i32(buf)?; finish_tagged_field(buf, 2)?; }
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
        v.flag = g.bool();
        v.tiny = g.i8();
        v.port = g.u16();
        if version >= 1 { v.big = g.u32(); }
        v.ratio = g.f64();
        if version <= 1 { v.old = g.i32(); }
        if version <= 1 { v.strict = g.i64(); }
        v.label = g.string();
        v.client = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.blob = if (version >= 1) && g.chance(4) { None } else { Some(g.bytes()) };
        v.records = if (true) && g.chance(4) { None } else { Some(Records::from(g.bytes())) };
        v.id = g.uuid();
        v.items = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| Item::sample(g, version)).collect()) };
        v.origin = if (version >= 1) && g.chance(4) { None } else { Some(Point::sample(g, version)) };
        v.names = (0..g.collection_len()).map(|_| g.string()).collect();
        if (version >= 2) && g.bool() { v.note = if (version >= 2) && g.chance(4) { None } else { Some(g.string()) }; }
        if (version >= 3) && g.bool() { v.extra = (0..g.collection_len()).map(|_| Point::sample(g, version)).collect(); }
        if (version >= 2) && g.bool() { v.limit = g.i32(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.items { for x in v { x.each_error_code(f); } }
        if let Some(x) = &self.origin { x.each_error_code(f); }
        for x in &self.extra { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("Client", &mut self.client);
        if let Some(v) = &mut self.items { for x in v { x.each_nullable_string(version, f); } }
        if let Some(x) = &mut self.origin { x.each_nullable_string(version, f); }
        if (false) || (version >= 2) { f("Note", &mut self.note); }
        if (false) || (version >= 3) { for x in &mut self.extra { x.each_nullable_string(version, f); } }
    }
}

/// A nullable array of structs, null by default.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The map key.
    ///
    /// Versions 0+.
    pub key: String,
    /// An array of int64.
    ///
    /// Versions 0+.
    pub values: Vec<i64>,
    /// A common struct.
    ///
    /// Versions 0+.
    pub r#where: Point,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Item {
    fn default() -> Self {
        Item {
            key: String::new(),
            values: Vec::<i64>::new(),
            r#where: Point::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Item {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        write_string(w, (&self.key), flexible)?;
        write_len_prefix(w, (&self.values).len(), flexible)?; for e0 in (&self.values).iter() { w.put_i64(*e0); }
        (&self.r#where).encode(w, version)?;
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
        n += string_len((&self.key), flexible);
        n += len_prefix_len((&self.values).len(), flexible) + (&self.values).len() * 8;
        n += (&self.r#where).encoded_len(version);
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
        v.key = read_string(buf, flexible, "Key")?;
        v.values = { let n = read_array_len_non_null(buf, flexible, "Values")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i64(buf)?); } v };
        v.r#where = Point::decode(buf, version)?;
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
        v.key = g.string();
        v.values = (0..g.collection_len()).map(|_| g.i64()).collect();
        v.r#where = Point::sample(g, version);
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.r#where.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        self.r#where.each_nullable_string(version, f);
    }
}

/// The common struct `Point`.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// X.
    ///
    /// Versions 0+.
    pub x: i32,
    /// Y.
    ///
    /// Versions 0+.
    pub y: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Point {
    fn default() -> Self {
        Point {
            x: 0,
            y: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Point {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i32(*(&self.x));
        w.put_i32(*(&self.y));
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
        n += 4;
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
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.x = read_i32(buf)?;
        v.y = read_i32(buf)?;
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
        v.x = g.i32();
        v.y = g.i32();
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
