//! The message spec model: Kafka's JSON spec files (with `//` comments) parsed into structs.

use crate::versions::Versions;
use crate::SpecError;
use serde_json::Value;

/// One spec file: a request, response, header, record or data message.
#[derive(Debug, Clone)]
pub struct MessageSpec {
    /// The message name, e.g. `ProduceRequest`.
    pub name: String,
    /// The spec's `type`: request, response, header, metadata, data, coordinator-key, ...
    pub kind: String,
    /// The API key (requests, responses) or record type (metadata, coordinator records).
    pub api_key: Option<i16>,
    /// The versions this message has.
    pub valid: Versions,
    /// The versions that use the flexible (compact, tagged) encoding.
    pub flexible: Versions,
    /// True when the newest version is not yet stable (must not be advertised).
    pub latest_version_unstable: bool,
    /// The listeners a request is served on.
    pub listeners: Vec<String>,
    /// The top-level fields.
    pub fields: Vec<FieldSpec>,
    /// Structs shared by several fields, referenced by name.
    pub common_structs: Vec<StructSpec>,
}

/// A named struct with fields (a nested type or a common struct).
#[derive(Debug, Clone)]
pub struct StructSpec {
    /// The struct's type name.
    pub name: String,
    /// The versions it is defined for.
    pub versions: Versions,
    /// Its fields.
    pub fields: Vec<FieldSpec>,
}

/// A field type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldType {
    /// `bool`.
    Bool,
    /// `int8`.
    Int8,
    /// `int16`.
    Int16,
    /// `uint16`.
    Uint16,
    /// `int32`.
    Int32,
    /// `uint32`.
    Uint32,
    /// `int64`.
    Int64,
    /// `float64`.
    Float64,
    /// `string`.
    String,
    /// `uuid`.
    Uuid,
    /// `bytes`.
    Bytes,
    /// `records`.
    Records,
    /// A struct, by type name.
    Struct(String),
    /// `[]T`.
    Array(Box<FieldType>),
}

impl FieldType {
    fn parse(s: &str) -> FieldType {
        if let Some(inner) = s.strip_prefix("[]") {
            return FieldType::Array(Box::new(FieldType::parse(inner)));
        }
        match s {
            "bool" => FieldType::Bool,
            "int8" => FieldType::Int8,
            "int16" => FieldType::Int16,
            "uint16" => FieldType::Uint16,
            "int32" => FieldType::Int32,
            "uint32" => FieldType::Uint32,
            "int64" => FieldType::Int64,
            "float64" => FieldType::Float64,
            "string" => FieldType::String,
            "uuid" => FieldType::Uuid,
            "bytes" => FieldType::Bytes,
            "records" => FieldType::Records,
            other => FieldType::Struct(other.to_string()),
        }
    }

    /// True for types whose values may be null on the wire when the field allows it.
    pub fn can_be_null(&self) -> bool {
        matches!(
            self,
            FieldType::String
                | FieldType::Bytes
                | FieldType::Records
                | FieldType::Array(_)
                | FieldType::Struct(_)
        )
    }
}

/// One field of a struct.
#[derive(Debug, Clone)]
pub struct FieldSpec {
    /// The spec name, e.g. `ThrottleTimeMs`.
    pub name: String,
    /// Its type.
    pub ty: FieldType,
    /// The versions it is present in.
    pub versions: Versions,
    /// The versions in which it may be null.
    pub nullable: Versions,
    /// The versions in which it is a tagged field.
    pub tagged: Versions,
    /// Its tag, for tagged fields.
    pub tag: Option<u32>,
    /// When true, a non-default value is silently dropped at versions without the field.
    pub ignorable: bool,
    /// The spec's default, as written.
    pub default: Option<String>,
    /// Field-level override of the flexible versions (`ClientId` in the request header).
    pub flexible_override: Option<Versions>,
    /// The description.
    pub about: Option<String>,
    /// The fields of an inline struct type.
    pub fields: Option<Vec<FieldSpec>>,
}

/// Removes `//` comments outside string literals.
pub fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == '/' && chars.peek() == Some(&'/') {
            for n in chars.by_ref() {
                if n == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn get_str(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn parse_versions(v: &Value, key: &str) -> Result<Option<Versions>, SpecError> {
    get_str(v, key).map(|s| Versions::parse(&s)).transpose()
}

impl MessageSpec {
    /// Parses one spec file's text.
    pub fn parse(src: &str) -> Result<MessageSpec, SpecError> {
        let v: Value = serde_json::from_str(&strip_comments(src))
            .map_err(|e| SpecError::Invalid(format!("bad JSON: {e}")))?;
        let name =
            get_str(&v, "name").ok_or_else(|| SpecError::Invalid("message without name".into()))?;
        let kind = get_str(&v, "type").unwrap_or_default();
        let api_key = match get_str(&v, "apiKey") {
            Some(s) => Some(
                s.parse()
                    .map_err(|_| SpecError::Invalid(format!("{name}: bad apiKey {s:?}")))?,
            ),
            None => None,
        };
        let valid = parse_versions(&v, "validVersions")?
            .ok_or_else(|| SpecError::Invalid(format!("{name}: no validVersions")))?;
        let flexible = parse_versions(&v, "flexibleVersions")?.unwrap_or(Versions::NONE);
        let listeners = v
            .get("listeners")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|l| l.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let fields = parse_fields(&v, &name)?;
        let mut common_structs = Vec::new();
        if let Some(list) = v.get("commonStructs").and_then(Value::as_array) {
            for s in list {
                let sname = get_str(s, "name")
                    .ok_or_else(|| SpecError::Invalid(format!("{name}: common struct name")))?;
                common_structs.push(StructSpec {
                    versions: parse_versions(s, "versions")?.unwrap_or(Versions::ALL),
                    fields: parse_fields(s, &sname)?,
                    name: sname,
                });
            }
        }
        let latest_version_unstable = v
            .get("latestVersionUnstable")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        Ok(MessageSpec {
            name,
            kind,
            api_key,
            valid,
            flexible,
            latest_version_unstable,
            listeners,
            fields,
            common_structs,
        })
    }
}

fn parse_fields(v: &Value, owner: &str) -> Result<Vec<FieldSpec>, SpecError> {
    let Some(list) = v.get("fields").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    list.iter().map(|f| parse_field(f, owner)).collect()
}

fn parse_field(f: &Value, owner: &str) -> Result<FieldSpec, SpecError> {
    let name =
        get_str(f, "name").ok_or_else(|| SpecError::Invalid(format!("{owner}: field name")))?;
    let ty_s =
        get_str(f, "type").ok_or_else(|| SpecError::Invalid(format!("{owner}.{name}: no type")))?;
    let ty = FieldType::parse(&ty_s);
    // A field given only `taggedVersions` exists in exactly those versions (as Kafka's
    // generator reads it).
    let versions = match parse_versions(f, "versions")? {
        Some(v) => Some(v),
        None => parse_versions(f, "taggedVersions")?,
    }
    .ok_or_else(|| SpecError::Invalid(format!("{owner}.{name}: no versions")))?;
    let nullable = parse_versions(f, "nullableVersions")?.unwrap_or(Versions::NONE);
    let tagged = parse_versions(f, "taggedVersions")?.unwrap_or(Versions::NONE);
    let tag = match f.get("tag") {
        Some(Value::Number(n)) => Some(
            n.as_u64()
                .and_then(|t| u32::try_from(t).ok())
                .ok_or_else(|| SpecError::Invalid(format!("{owner}.{name}: bad tag")))?,
        ),
        Some(_) => return Err(SpecError::Invalid(format!("{owner}.{name}: bad tag"))),
        None => None,
    };
    if tag.is_some() == tagged.is_empty() {
        return Err(SpecError::Invalid(format!(
            "{owner}.{name}: tag needs taggedVersions"
        )));
    }
    if !nullable.is_empty() && !ty.can_be_null() {
        return Err(SpecError::Invalid(format!(
            "{owner}.{name}: type cannot be nullable"
        )));
    }
    let fields = match f.get("fields") {
        Some(_) => Some(parse_fields(f, &name)?),
        None => None,
    };
    Ok(FieldSpec {
        name,
        ty,
        versions,
        nullable,
        tagged,
        tag,
        ignorable: f.get("ignorable").and_then(Value::as_bool).unwrap_or(false),
        // A JSON null default means null, as the string "null" does.
        default: match f.get("default") {
            Some(Value::Null) => Some("null".to_string()),
            _ => get_str(f, "default"),
        },
        flexible_override: parse_versions(f, "flexibleVersions")?,
        about: get_str(f, "about"),
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_comments_but_not_urls_in_strings() {
        let s = "{ // note\n \"a\": \"http://x\" }";
        assert_eq!(strip_comments(s), "{ \n \"a\": \"http://x\" }");
    }

    #[test]
    fn parses_nested_types() {
        assert_eq!(
            FieldType::parse("[]Topic"),
            FieldType::Array(Box::new(FieldType::Struct("Topic".into())))
        );
        assert_eq!(
            FieldType::parse("[]int32"),
            FieldType::Array(Box::new(FieldType::Int32))
        );
    }
}
