//! Rust expressions and statements for one field: its type, default, encoder, decoder, size
//! and sample value, each specialised to the versions the field exists in.

use crate::names::{str_lit, type_ident};
use crate::rust_gen::{Ctx, FieldPlan};
use crate::spec::FieldType;
use crate::versions::Versions;
use crate::SpecError;

pub(crate) fn rust_base_type(ty: &FieldType) -> String {
    match ty {
        FieldType::Bool => "bool".into(),
        FieldType::Int8 => "i8".into(),
        FieldType::Int16 => "i16".into(),
        FieldType::Uint16 => "u16".into(),
        FieldType::Int32 => "i32".into(),
        FieldType::Uint32 => "u32".into(),
        FieldType::Int64 => "i64".into(),
        FieldType::Float64 => "f64".into(),
        FieldType::String => "String".into(),
        FieldType::Uuid => "Uuid".into(),
        FieldType::Bytes => "Bytes".into(),
        FieldType::Records => "Records".into(),
        FieldType::Struct(n) => type_ident(n),
        FieldType::Array(inner) => format!("Vec<{}>", rust_base_type(inner)),
    }
}

pub(crate) fn rust_type(p: &FieldPlan<'_>) -> String {
    let base = rust_base_type(&p.f.ty);
    if p.optional {
        format!("Option<{base}>")
    } else {
        base
    }
}

pub(crate) fn parse_int(s: &str) -> Option<i128> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i128::from_str_radix(h, 16).ok();
    }
    if let Some(h) = s.strip_prefix("-0x") {
        return i128::from_str_radix(h, 16).ok().map(|v| -v);
    }
    s.parse().ok()
}

/// The Rust expression of a field's default value.
pub(crate) fn default_expr(p: &FieldPlan<'_>, owner: &str) -> Result<String, SpecError> {
    let f = p.f;
    let d = f.default.as_deref();
    let bad = || SpecError::Invalid(format!("{owner}.{}: bad default {d:?}", f.name));
    let is_null = d == Some("null");
    if is_null && !p.optional {
        return Err(bad());
    }
    let base = match &f.ty {
        FieldType::Bool => match d {
            None | Some("false") => "false".to_string(),
            Some("true") => "true".to_string(),
            _ => return Err(bad()),
        },
        FieldType::Int8
        | FieldType::Int16
        | FieldType::Uint16
        | FieldType::Int32
        | FieldType::Uint32
        | FieldType::Int64 => match d {
            None => "0".to_string(),
            Some(s) => {
                let v = parse_int(s).ok_or_else(bad)?;
                let (lo, hi): (i128, i128) = match f.ty {
                    FieldType::Int8 => (i8::MIN.into(), i8::MAX.into()),
                    FieldType::Int16 => (i16::MIN.into(), i16::MAX.into()),
                    FieldType::Uint16 => (0, u16::MAX.into()),
                    FieldType::Int32 => (i32::MIN.into(), i32::MAX.into()),
                    FieldType::Uint32 => (0, u32::MAX.into()),
                    _ => (i64::MIN.into(), i64::MAX.into()),
                };
                if v < lo || v > hi {
                    return Err(bad());
                }
                v.to_string()
            }
        },
        FieldType::Float64 => match d {
            None => "0.0".to_string(),
            Some(s) => {
                let v: f64 = s.parse().map_err(|_| bad())?;
                format!("{v:?}")
            }
        },
        FieldType::String => match d {
            None | Some("") => "String::new()".to_string(),
            Some("null") => String::new(),
            Some(s) => format!("String::from({})", str_lit(s)),
        },
        FieldType::Uuid => "Uuid::nil()".to_string(),
        FieldType::Bytes => "Bytes::new()".to_string(),
        FieldType::Records => "Records::default()".to_string(),
        FieldType::Struct(n) => format!("{}::default()", type_ident(n)),
        FieldType::Array(inner) => format!("Vec::<{}>::new()", rust_base_type(inner)),
    };
    if !p.optional {
        return Ok(base);
    }
    // Kafka's defaults: null when the spec says "null"; records are null unless stated.
    if is_null || (f.ty == FieldType::Records && d.is_none()) {
        Ok("None".to_string())
    } else {
        Ok(format!("Some({base})"))
    }
}

/// Statements writing a non-null value `v` (a reference) of type `ty`.
pub(crate) fn enc_nonnull(ty: &FieldType, v: &str, compact: &str, depth: usize) -> String {
    match ty {
        FieldType::Bool => format!("write_bool(w, *{v});"),
        FieldType::Int8 => format!("w.put_i8(*{v});"),
        FieldType::Int16 => format!("w.put_i16(*{v});"),
        FieldType::Uint16 => format!("w.put_u16(*{v});"),
        FieldType::Int32 => format!("w.put_i32(*{v});"),
        FieldType::Uint32 => format!("w.put_u32(*{v});"),
        FieldType::Int64 => format!("w.put_i64(*{v});"),
        FieldType::Float64 => format!("w.put_f64(*{v});"),
        FieldType::Uuid => format!("write_uuid(w, {v});"),
        FieldType::String => format!("write_string(w, {v}, {compact})?;"),
        FieldType::Bytes => format!("write_bytes(w, {v}, {compact})?;"),
        FieldType::Records => format!("write_records(w, {v}, {compact})?;"),
        FieldType::Struct(_) => format!("{v}.encode(w, version)?;"),
        FieldType::Array(inner) => {
            let e = format!("e{depth}");
            format!(
                "write_len_prefix(w, {v}.len(), {compact})?; for {e} in {v}.iter() {{ {} }}",
                enc_nonnull(inner, &e, compact, depth + 1)
            )
        }
    }
}

pub(crate) fn fixed_size(ty: &FieldType) -> Option<usize> {
    match ty {
        FieldType::Bool | FieldType::Int8 => Some(1),
        FieldType::Int16 | FieldType::Uint16 => Some(2),
        FieldType::Int32 | FieldType::Uint32 => Some(4),
        FieldType::Int64 | FieldType::Float64 => Some(8),
        FieldType::Uuid => Some(16),
        _ => None,
    }
}

/// An expression for the encoded size of a non-null value `v` (a reference).
pub(crate) fn len_nonnull(ty: &FieldType, v: &str, compact: &str, depth: usize) -> String {
    if let Some(n) = fixed_size(ty) {
        return n.to_string();
    }
    match ty {
        FieldType::String => format!("string_len({v}, {compact})"),
        FieldType::Bytes => format!("bytes_len({v}, {compact})"),
        FieldType::Records => format!("records_len({v}, {compact})"),
        FieldType::Struct(_) => format!("{v}.encoded_len(version)"),
        FieldType::Array(inner) => {
            let items = match fixed_size(inner) {
                Some(n) => format!("{v}.len() * {n}"),
                None => {
                    let e = format!("e{depth}");
                    format!(
                        "{v}.iter().map(|{e}| {}).sum::<usize>()",
                        len_nonnull(inner, &e, compact, depth + 1)
                    )
                }
            };
            format!("len_prefix_len({v}.len(), {compact}) + {items}")
        }
        _ => unreachable!("fixed-size types handled above"),
    }
}

/// An expression decoding a non-null value of type `ty` from `buf`.
pub(crate) fn dec_nonnull(ty: &FieldType, compact: &str, field: &str) -> String {
    match ty {
        FieldType::Bool => "read_bool(buf)?".into(),
        FieldType::Int8 => "read_i8(buf)?".into(),
        FieldType::Int16 => "read_i16(buf)?".into(),
        FieldType::Uint16 => "read_u16(buf)?".into(),
        FieldType::Int32 => "read_i32(buf)?".into(),
        FieldType::Uint32 => "read_u32(buf)?".into(),
        FieldType::Int64 => "read_i64(buf)?".into(),
        FieldType::Float64 => "read_f64(buf)?".into(),
        FieldType::Uuid => "read_uuid(buf)?".into(),
        FieldType::String => format!("read_string(buf, {compact}, {})?", str_lit(field)),
        FieldType::Bytes => format!("read_bytes(buf, {compact}, {})?", str_lit(field)),
        FieldType::Records => format!(
            "Records::from(read_bytes(buf, {compact}, {})?)",
            str_lit(field)
        ),
        FieldType::Struct(n) => format!("{}::decode(buf, version)?", type_ident(n)),
        FieldType::Array(inner) => format!(
            "{{ let n = read_array_len_non_null(buf, {compact}, {})?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n {{ v.push({}); }} v }}",
            str_lit(field),
            dec_nonnull(inner, compact, field)
        ),
    }
}

/// An expression decoding a possibly-null value (`Option`) when the field is nullable.
pub(crate) fn dec_nullable(ty: &FieldType, compact: &str, field: &str) -> String {
    match ty {
        FieldType::String => format!("read_nullable_string(buf, {compact})?"),
        FieldType::Bytes => format!("read_nullable_bytes(buf, {compact})?"),
        FieldType::Records => format!("read_nullable_bytes(buf, {compact})?.map(Records::from)"),
        FieldType::Struct(n) => {
            format!("if read_i8(buf)? < 0 {{ None }} else {{ Some({}::decode(buf, version)?) }}", type_ident(n))
        }
        FieldType::Array(inner) => format!(
            "match read_array_len(buf, {compact})? {{ None => None, Some(n) => {{ let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n {{ v.push({}); }} Some(v) }} }}",
            dec_nonnull(inner, compact, field)
        ),
        _ => unreachable!("only nullable types reach here"),
    }
}

/// An expression sampling a non-null value of type `ty`.
pub(crate) fn sample_nonnull(ty: &FieldType) -> String {
    match ty {
        FieldType::Bool => "g.bool()".into(),
        FieldType::Int8 => "g.i8()".into(),
        FieldType::Int16 => "g.i16()".into(),
        FieldType::Uint16 => "g.u16()".into(),
        FieldType::Int32 => "g.i32()".into(),
        FieldType::Uint32 => "g.u32()".into(),
        FieldType::Int64 => "g.i64()".into(),
        FieldType::Float64 => "g.f64()".into(),
        FieldType::Uuid => "g.uuid()".into(),
        FieldType::String => "g.string()".into(),
        FieldType::Bytes => "g.bytes()".into(),
        FieldType::Records => "Records::from(g.bytes())".into(),
        FieldType::Struct(n) => format!("{}::sample(g, version)", type_ident(n)),
        FieldType::Array(inner) => {
            format!(
                "(0..g.collection_len()).map(|_| {}).collect()",
                sample_nonnull(inner)
            )
        }
    }
}

pub(crate) fn field_compact(p: &FieldPlan<'_>, ctx: &Ctx<'_>) -> String {
    match p.f.flexible_override {
        Some(o) => o.rust_test("version", &ctx.msg.valid),
        None => "flexible".to_string(),
    }
}

/// Statements writing field `p` (present at this version).
pub(crate) fn enc_field(
    p: &FieldPlan<'_>,
    compact: &str,
    valid: &Versions,
    field_lit: &str,
) -> String {
    let this = format!("(&self.{})", p.ident);
    if !p.optional {
        return enc_nonnull(&p.f.ty, &this, compact, 0);
    }
    let nullable = p.f.nullable.rust_test("version", valid);
    let some = match &p.f.ty {
        FieldType::Struct(_) if nullable != "false" => {
            format!(
                "if {nullable} {{ w.put_i8(1); }} {}",
                enc_nonnull(&p.f.ty, "x", compact, 0)
            )
        }
        _ => enc_nonnull(&p.f.ty, "x", compact, 0),
    };
    let null = match &p.f.ty {
        FieldType::String => format!("write_nullable_string(w, None, {compact})?;"),
        FieldType::Struct(_) => "w.put_i8(-1);".to_string(),
        _ => format!("write_null(w, {compact});"),
    };
    let none = if nullable == "true" {
        null
    } else {
        format!(
            "if !({nullable}) {{ return Err(EncodeError::NullNotAllowed {{ field: {field_lit}, version }}); }} {null}"
        )
    };
    format!("match {this} {{ Some(x) => {{ {some} }} None => {{ {none} }} }}")
}

/// An expression for the encoded size of field `p`.
pub(crate) fn len_field(p: &FieldPlan<'_>, compact: &str, valid: &Versions) -> String {
    let this = format!("(&self.{})", p.ident);
    if !p.optional {
        return len_nonnull(&p.f.ty, &this, compact, 0);
    }
    let nullable = p.f.nullable.rust_test("version", valid);
    let (some, null) = match &p.f.ty {
        FieldType::Struct(_) => (
            format!(
                "usize::from({nullable}) + {}",
                len_nonnull(&p.f.ty, "x", compact, 0)
            ),
            "1".to_string(),
        ),
        FieldType::String => (
            len_nonnull(&p.f.ty, "x", compact, 0),
            format!("nullable_string_len(None, {compact})"),
        ),
        _ => (
            len_nonnull(&p.f.ty, "x", compact, 0),
            format!("null_len({compact})"),
        ),
    };
    format!("match {this} {{ Some(x) => {some}, None => {null} }}")
}

/// An expression decoding field `p` (present at this version).
pub(crate) fn dec_field(p: &FieldPlan<'_>, compact: &str, valid: &Versions) -> String {
    let name = &p.f.name;
    if !p.optional {
        return dec_nonnull(&p.f.ty, compact, name);
    }
    let nullable = p.f.nullable.rust_test("version", valid);
    match nullable.as_str() {
        "true" => dec_nullable(&p.f.ty, compact, name),
        "false" => format!("Some({})", dec_nonnull(&p.f.ty, compact, name)),
        cond => format!(
            "if {cond} {{ {} }} else {{ Some({}) }}",
            dec_nullable(&p.f.ty, compact, name),
            dec_nonnull(&p.f.ty, compact, name)
        ),
    }
}
