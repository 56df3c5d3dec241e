//! Emits the Rust module for one message spec: its structs, defaults, encoders, decoders,
//! size functions and (behind the `sample` feature) seeded sample values.

use crate::names::{doc_text, field_ident, snake_case, str_lit, type_ident};
use crate::spec::{FieldSpec, FieldType, MessageSpec};
use crate::versions::Versions;
use crate::SpecError;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A struct to emit: its name, doc and fields.
struct StructDef<'a> {
    name: String,
    doc: String,
    fields: &'a [FieldSpec],
    top_level: bool,
}

/// Generation context for one message.
struct Ctx<'a> {
    msg: &'a MessageSpec,
    structs: BTreeMap<String, &'a [FieldSpec]>,
}

/// Per-field facts at generation time.
struct FieldPlan<'a> {
    f: &'a FieldSpec,
    ident: String,
    /// Versions in which the field is written in the fixed part of the struct.
    regular: Versions,
    /// Versions in which the field is written as a tagged field.
    tagged: Versions,
    /// True when the Rust type is an `Option` (nullable in some version).
    optional: bool,
}

/// Generates the module text for `msg`.
pub fn message_module(msg: &MessageSpec) -> Result<String, SpecError> {
    let mut ctx = Ctx {
        msg,
        structs: BTreeMap::new(),
    };
    for cs in &msg.common_structs {
        ctx.structs.insert(cs.name.clone(), &cs.fields);
    }
    let mut defs = vec![StructDef {
        name: type_ident(&msg.name),
        doc: top_doc(msg),
        fields: &msg.fields,
        top_level: true,
    }];
    collect_structs(&msg.fields, &mut ctx, &mut defs)?;
    for cs in &msg.common_structs {
        defs.push(StructDef {
            name: type_ident(&cs.name),
            doc: format!("The common struct `{}`.", cs.name),
            fields: &cs.fields,
            top_level: false,
        });
    }
    check_references(&msg.fields, &ctx)?;

    let mut out = String::new();
    writeln!(
        out,
        "//! Generated from `{}.json` by fjord-codegen. Do not edit.",
        msg.name
    )
    .unwrap();
    out.push('\n');
    out.push_str("#[allow(unused_imports)]\nuse crate::codec::*;\n");
    out.push_str("#[allow(unused_imports)]\nuse crate::error::{DecodeError, EncodeError};\n");
    out.push_str("#[allow(unused_imports)]\nuse bytes::Bytes;\n");
    out.push_str("#[allow(unused_imports)]\nuse uuid::Uuid;\n");
    for d in &defs {
        out.push('\n');
        emit_struct(&ctx, d, &mut out)?;
    }
    Ok(out)
}

fn top_doc(msg: &MessageSpec) -> String {
    let key = match msg.api_key {
        Some(k) if msg.kind == "request" || msg.kind == "response" => format!("api key {k}, "),
        Some(k) => format!("type {k}, "),
        None => String::new(),
    };
    format!(
        "The `{}` {} ({}versions {}-{}).",
        msg.name,
        if msg.kind.is_empty() {
            "message"
        } else {
            &msg.kind
        },
        key,
        msg.valid.min,
        msg.valid.max
    )
}

fn struct_name_of(ty: &FieldType) -> Option<&str> {
    match ty {
        FieldType::Struct(n) => Some(n),
        FieldType::Array(inner) => struct_name_of(inner),
        _ => None,
    }
}

fn collect_structs<'a>(
    fields: &'a [FieldSpec],
    ctx: &mut Ctx<'a>,
    defs: &mut Vec<StructDef<'a>>,
) -> Result<(), SpecError> {
    for f in fields {
        if let (Some(name), Some(sub)) = (struct_name_of(&f.ty), f.fields.as_ref()) {
            if ctx.structs.contains_key(name) {
                return Err(SpecError::Invalid(format!(
                    "{}: struct {name} defined twice",
                    ctx.msg.name
                )));
            }
            ctx.structs.insert(name.to_string(), sub);
            defs.push(StructDef {
                name: type_ident(name),
                doc: f
                    .about
                    .as_deref()
                    .map(doc_text)
                    .unwrap_or_else(|| format!("The `{}` struct.", f.name)),
                fields: sub,
                top_level: false,
            });
            collect_structs(sub, ctx, defs)?;
        }
    }
    Ok(())
}

fn check_references(fields: &[FieldSpec], ctx: &Ctx<'_>) -> Result<(), SpecError> {
    for f in fields {
        if let Some(name) = struct_name_of(&f.ty) {
            let Some(sub) = ctx.structs.get(name) else {
                return Err(SpecError::Invalid(format!(
                    "{}: field {} has unknown type {name}",
                    ctx.msg.name, f.name
                )));
            };
            check_references(sub, ctx)?;
        }
    }
    Ok(())
}

impl<'a> FieldPlan<'a> {
    fn new(f: &'a FieldSpec, msg: &MessageSpec) -> FieldPlan<'a> {
        let (regular, tagged) = match f.tag {
            Some(_) => {
                let tagged = f.versions.intersect(&f.tagged).intersect(&msg.flexible);
                let below = Versions {
                    min: f.versions.min,
                    max: f.versions.max.min(f.tagged.min - 1),
                };
                (below, tagged)
            }
            None => (f.versions, Versions::NONE),
        };
        FieldPlan {
            f,
            ident: field_ident(&f.name),
            regular,
            tagged,
            optional: !f.nullable.is_empty(),
        }
    }
}

fn rust_base_type(ty: &FieldType) -> String {
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
        FieldType::Bytes | FieldType::Records => "Bytes".into(),
        FieldType::Struct(n) => type_ident(n),
        FieldType::Array(inner) => format!("Vec<{}>", rust_base_type(inner)),
    }
}

fn rust_type(p: &FieldPlan<'_>) -> String {
    let base = rust_base_type(&p.f.ty);
    if p.optional {
        format!("Option<{base}>")
    } else {
        base
    }
}

fn parse_int(s: &str) -> Option<i128> {
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
fn default_expr(p: &FieldPlan<'_>, owner: &str) -> Result<String, SpecError> {
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
        FieldType::Records => "Bytes::new()".to_string(),
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
fn enc_nonnull(ty: &FieldType, v: &str, compact: &str, depth: usize) -> String {
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
        FieldType::Bytes | FieldType::Records => format!("write_bytes(w, {v}, {compact})?;"),
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

fn fixed_size(ty: &FieldType) -> Option<usize> {
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
fn len_nonnull(ty: &FieldType, v: &str, compact: &str, depth: usize) -> String {
    if let Some(n) = fixed_size(ty) {
        return n.to_string();
    }
    match ty {
        FieldType::String => format!("string_len({v}, {compact})"),
        FieldType::Bytes | FieldType::Records => format!("bytes_len({v}, {compact})"),
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
fn dec_nonnull(ty: &FieldType, compact: &str, field: &str) -> String {
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
        FieldType::Bytes | FieldType::Records => {
            format!("read_bytes(buf, {compact}, {})?", str_lit(field))
        }
        FieldType::Struct(n) => format!("{}::decode(buf, version)?", type_ident(n)),
        FieldType::Array(inner) => format!(
            "{{ let n = read_array_len_non_null(buf, {compact}, {})?; let mut v = Vec::with_capacity(n); for _ in 0..n {{ v.push({}); }} v }}",
            str_lit(field),
            dec_nonnull(inner, compact, field)
        ),
    }
}

/// An expression decoding a possibly-null value (`Option`) when the field is nullable.
fn dec_nullable(ty: &FieldType, compact: &str, field: &str) -> String {
    match ty {
        FieldType::String => format!("read_nullable_string(buf, {compact})?"),
        FieldType::Bytes | FieldType::Records => format!("read_nullable_bytes(buf, {compact})?"),
        FieldType::Struct(n) => {
            format!("if read_i8(buf)? < 0 {{ None }} else {{ Some({}::decode(buf, version)?) }}", type_ident(n))
        }
        FieldType::Array(inner) => format!(
            "match read_array_len(buf, {compact})? {{ None => None, Some(n) => {{ let mut v = Vec::with_capacity(n); for _ in 0..n {{ v.push({}); }} Some(v) }} }}",
            dec_nonnull(inner, compact, field)
        ),
        _ => unreachable!("only nullable types reach here"),
    }
}

/// An expression sampling a non-null value of type `ty`.
fn sample_nonnull(ty: &FieldType) -> String {
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
        FieldType::Bytes | FieldType::Records => "g.bytes()".into(),
        FieldType::Struct(n) => format!("{}::sample(g, version)", type_ident(n)),
        FieldType::Array(inner) => {
            format!(
                "(0..g.collection_len()).map(|_| {}).collect()",
                sample_nonnull(inner)
            )
        }
    }
}

fn field_compact(p: &FieldPlan<'_>, ctx: &Ctx<'_>) -> String {
    match p.f.flexible_override {
        Some(o) => o.rust_test("version", &ctx.msg.valid),
        None => "flexible".to_string(),
    }
}

fn emit_struct(ctx: &Ctx<'_>, d: &StructDef<'_>, out: &mut String) -> Result<(), SpecError> {
    let msg = ctx.msg;
    let valid = &msg.valid;
    let plans: Vec<FieldPlan<'_>> = d.fields.iter().map(|f| FieldPlan::new(f, msg)).collect();
    let has_flexible = !msg.flexible.intersect(valid).is_empty();
    let flexible_test = msg.flexible.rust_test("version", valid);
    let mut defaults = Vec::new();
    for p in &plans {
        defaults.push(default_expr(p, &d.name)?);
    }
    let name = &d.name;

    // The struct.
    writeln!(out, "/// {}", doc_text(&d.doc)).unwrap();
    writeln!(out, "#[derive(Debug, Clone, PartialEq)]").unwrap();
    writeln!(out, "pub struct {name} {{").unwrap();
    for p in &plans {
        let about =
            p.f.about
                .as_deref()
                .map(doc_text)
                .unwrap_or_else(|| format!("The {} field.", p.f.name));
        let mut vinfo = format!("Versions {}", fmt_versions(&p.f.versions));
        if !p.f.nullable.is_empty() {
            write!(vinfo, "; nullable {}", fmt_versions(&p.f.nullable)).unwrap();
        }
        if let Some(t) = p.f.tag {
            write!(vinfo, "; tag {t} in {}", fmt_versions(&p.f.tagged)).unwrap();
        }
        writeln!(out, "    /// {about}").unwrap();
        writeln!(out, "    ///").unwrap();
        writeln!(out, "    /// {vinfo}.").unwrap();
        writeln!(out, "    pub {}: {},", p.ident, rust_type(p)).unwrap();
    }
    if has_flexible {
        writeln!(
            out,
            "    /// Tagged fields this build does not know, kept to be written back."
        )
        .unwrap();
        writeln!(out, "    pub unknown_tagged_fields: Vec<RawTaggedField>,").unwrap();
    }
    writeln!(out, "}}\n").unwrap();

    // Default.
    writeln!(out, "impl Default for {name} {{").unwrap();
    writeln!(out, "    fn default() -> Self {{").unwrap();
    writeln!(out, "        {name} {{").unwrap();
    for (p, def) in plans.iter().zip(&defaults) {
        writeln!(out, "            {}: {def},", p.ident).unwrap();
    }
    if has_flexible {
        writeln!(out, "            unknown_tagged_fields: Vec::new(),").unwrap();
    }
    writeln!(out, "        }}\n    }}\n}}\n").unwrap();

    writeln!(out, "impl {name} {{").unwrap();
    if d.top_level {
        writeln!(out, "    /// The message name.").unwrap();
        writeln!(
            out,
            "    pub const NAME: &'static str = {};",
            str_lit(&msg.name)
        )
        .unwrap();
        writeln!(out, "    /// The lowest version.").unwrap();
        writeln!(out, "    pub const MIN_VERSION: i16 = {};", valid.min).unwrap();
        writeln!(out, "    /// The highest version.").unwrap();
        writeln!(out, "    pub const MAX_VERSION: i16 = {};", valid.max).unwrap();
        writeln!(out, "    /// The first flexible version, if any.").unwrap();
        let fmin = if has_flexible {
            format!("Some({})", msg.flexible.intersect(valid).min)
        } else {
            "None".into()
        };
        writeln!(
            out,
            "    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = {fmin};\n"
        )
        .unwrap();
    }
    let version_check_enc = if d.top_level {
        format!(
            "        if !({}..={}).contains(&version) {{ return Err(EncodeError::UnsupportedVersion {{ message: {}, version }}); }}\n",
            valid.min, valid.max, str_lit(&msg.name)
        )
    } else {
        String::new()
    };
    let version_check_dec = version_check_enc.replace("EncodeError", "DecodeError");

    // encode
    writeln!(out, "    /// Writes this value at `version`.").unwrap();
    writeln!(out, "    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {{").unwrap();
    out.push_str(&version_check_enc);
    writeln!(
        out,
        "        #[allow(unused_variables)]\n        let flexible = {flexible_test};"
    )
    .unwrap();
    for (p, def) in plans.iter().zip(&defaults) {
        let regular = p.regular.rust_test("version", valid);
        let field_lit = str_lit(&p.f.name);
        let absent_check = if p.f.ignorable {
            String::new()
        } else {
            format!(
                "if self.{} != {def} {{ return Err(EncodeError::FieldNotInVersion {{ field: {field_lit}, version }}); }}",
                p.ident
            )
        };
        let present = if p.tagged.is_empty() {
            regular.clone()
        } else {
            format!("({regular}) || ({})", p.tagged.rust_test("version", valid))
        };
        let compact = field_compact(p, ctx);
        if regular != "false" {
            let body = enc_field(p, &compact, valid, &field_lit);
            if regular == "true" {
                writeln!(out, "        {body}").unwrap();
            } else {
                writeln!(out, "        if {regular} {{ {body} }}").unwrap();
            }
        }
        if present != "true" && !absent_check.is_empty() {
            writeln!(out, "        if !({present}) {{ {absent_check} }}").unwrap();
        }
    }
    let tagged_plans: Vec<(&FieldPlan<'_>, &String)> = plans
        .iter()
        .zip(&defaults)
        .filter(|(p, _)| !p.tagged.is_empty())
        .collect();
    if has_flexible {
        writeln!(out, "        if flexible {{").unwrap();
        writeln!(
            out,
            "            let unknown = sorted_unknown(&self.unknown_tagged_fields);"
        )
        .unwrap();
        writeln!(
            out,
            "            #[allow(unused_mut)]\n            let mut count = unknown.len();"
        )
        .unwrap();
        for (p, def) in &tagged_plans {
            writeln!(
                out,
                "            if {} && self.{} != {def} {{ count += 1; }}",
                p.tagged.rust_test("version", valid),
                p.ident
            )
            .unwrap();
        }
        writeln!(out, "            write_uvarint(w, count as u32);").unwrap();
        writeln!(
            out,
            "            #[allow(unused_mut)]\n            let mut rest = unknown.as_slice();"
        )
        .unwrap();
        let mut sorted = tagged_plans.clone();
        sorted.sort_by_key(|(p, _)| p.f.tag);
        for (p, def) in &sorted {
            let tag = p.f.tag.unwrap_or(0);
            let field_lit = str_lit(&p.f.name);
            let size = len_field(p, "true", valid);
            let enc = enc_field(p, "true", valid, &field_lit);
            writeln!(
                out,
                "            while let Some((f, tail)) = rest.split_first() {{ if f.tag >= {tag} {{ break; }} write_raw_tagged(w, f); rest = tail; }}"
            )
            .unwrap();
            writeln!(
                out,
                "            if {} && self.{} != {def} {{ write_uvarint(w, {tag}); write_uvarint(w, ({size}) as u32); {enc} }}",
                p.tagged.rust_test("version", valid),
                p.ident
            )
            .unwrap();
        }
        writeln!(
            out,
            "            for f in rest {{ write_raw_tagged(w, f); }}"
        )
        .unwrap();
        writeln!(
            out,
            "        }} else if !self.unknown_tagged_fields.is_empty() {{"
        )
        .unwrap();
        writeln!(
            out,
            "            return Err(EncodeError::TaggedFieldsNotInVersion {{ version }});"
        )
        .unwrap();
        writeln!(out, "        }}").unwrap();
    }
    writeln!(out, "        Ok(())\n    }}\n").unwrap();

    // encoded_len
    writeln!(
        out,
        "    /// The number of bytes [`Self::encode`] writes at `version`."
    )
    .unwrap();
    writeln!(
        out,
        "    pub fn encoded_len(&self, version: i16) -> usize {{"
    )
    .unwrap();
    writeln!(
        out,
        "        #[allow(unused_variables)]\n        let flexible = {flexible_test};"
    )
    .unwrap();
    writeln!(
        out,
        "        #[allow(unused_mut)]\n        let mut n = 0usize;"
    )
    .unwrap();
    for p in &plans {
        let regular = p.regular.rust_test("version", valid);
        if regular == "false" {
            continue;
        }
        let compact = field_compact(p, ctx);
        let size = len_field(p, &compact, valid);
        if regular == "true" {
            writeln!(out, "        n += {size};").unwrap();
        } else {
            writeln!(out, "        if {regular} {{ n += {size}; }}").unwrap();
        }
    }
    if has_flexible {
        writeln!(out, "        if flexible {{").unwrap();
        writeln!(
            out,
            "            let mut count = self.unknown_tagged_fields.len();"
        )
        .unwrap();
        writeln!(out, "            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();").unwrap();
        for (p, def) in &tagged_plans {
            let tag = p.f.tag.unwrap_or(0);
            let size = len_field(p, "true", valid);
            writeln!(
                out,
                "            if {} && self.{} != {def} {{ count += 1; let s = {size}; n += uvarint_len({tag}) + uvarint_len(s as u32) + s; }}",
                p.tagged.rust_test("version", valid),
                p.ident
            )
            .unwrap();
        }
        writeln!(out, "            n += uvarint_len(count as u32);").unwrap();
        writeln!(out, "        }}").unwrap();
    }
    writeln!(out, "        n\n    }}\n").unwrap();

    // decode
    writeln!(
        out,
        "    /// Reads a value written at `version`. Large byte fields share `buf` (no copy)."
    )
    .unwrap();
    writeln!(
        out,
        "    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {{"
    )
    .unwrap();
    out.push_str(&version_check_dec);
    writeln!(
        out,
        "        #[allow(unused_variables)]\n        let flexible = {flexible_test};"
    )
    .unwrap();
    writeln!(
        out,
        "        #[allow(unused_mut)]\n        let mut v = Self::default();"
    )
    .unwrap();
    for p in &plans {
        let regular = p.regular.rust_test("version", valid);
        if regular == "false" {
            continue;
        }
        let compact = field_compact(p, ctx);
        let expr = dec_field(p, &compact, valid);
        if regular == "true" {
            writeln!(out, "        v.{} = {expr};", p.ident).unwrap();
        } else {
            writeln!(out, "        if {regular} {{ v.{} = {expr}; }}", p.ident).unwrap();
        }
    }
    if has_flexible {
        writeln!(out, "        if flexible {{").unwrap();
        writeln!(out, "            let count = read_tagged_count(buf)?;").unwrap();
        writeln!(out, "            let mut last_tag = None;").unwrap();
        writeln!(out, "            for _ in 0..count {{").unwrap();
        writeln!(
            out,
            "                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;"
        )
        .unwrap();
        writeln!(out, "                match tag {{").unwrap();
        for (p, _) in &tagged_plans {
            let tag = p.f.tag.unwrap_or(0);
            let expr = dec_field(p, "true", valid);
            let cond = p.tagged.rust_test("version", valid);
            let guard = if cond == "true" {
                String::new()
            } else {
                format!(" if {cond}")
            };
            writeln!(
                out,
                "                    {tag}{guard} => {{ let buf = &mut field; v.{} = {expr}; finish_tagged_field(buf, {tag})?; }}",
                p.ident
            )
            .unwrap();
        }
        writeln!(out, "                    _ => v.unknown_tagged_fields.push(RawTaggedField {{ tag, data: field }}),").unwrap();
        writeln!(out, "                }}\n            }}\n        }}").unwrap();
    }
    writeln!(out, "        Ok(v)\n    }}").unwrap();

    // sample
    writeln!(
        out,
        "\n    /// A random value that is valid at `version` (for tests and fuzzing)."
    )
    .unwrap();
    writeln!(out, "    #[cfg(feature = \"sample\")]").unwrap();
    writeln!(
        out,
        "    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {{"
    )
    .unwrap();
    writeln!(
        out,
        "        #[allow(unused_variables)]\n        let flexible = {flexible_test};"
    )
    .unwrap();
    writeln!(
        out,
        "        #[allow(unused_mut)]\n        let mut v = Self::default();"
    )
    .unwrap();
    for p in &plans {
        let regular = p.regular.rust_test("version", valid);
        let tagged = p.tagged.rust_test("version", valid);
        let present = match (regular.as_str(), tagged.as_str()) {
            ("false", "false") => continue,
            ("false", t) => format!("({t}) && g.bool()"),
            (r, "false") => r.to_string(),
            (r, t) => format!("({r}) || (({t}) && g.bool())"),
        };
        let nonnull = sample_nonnull(&p.f.ty);
        let expr = if p.optional {
            let nullable = p.f.nullable.rust_test("version", valid);
            if nullable == "false" {
                format!("Some({nonnull})")
            } else {
                format!("if ({nullable}) && g.chance(4) {{ None }} else {{ Some({nonnull}) }}")
            }
        } else {
            nonnull
        };
        if present == "true" {
            writeln!(out, "        v.{} = {expr};", p.ident).unwrap();
        } else {
            writeln!(out, "        if {present} {{ v.{} = {expr}; }}", p.ident).unwrap();
        }
    }
    if has_flexible {
        writeln!(
            out,
            "        if flexible {{ v.unknown_tagged_fields = g.unknown_tagged_fields(); }}"
        )
        .unwrap();
    }
    writeln!(out, "        v\n    }}").unwrap();
    writeln!(out, "}}").unwrap();
    Ok(())
}

fn fmt_versions(v: &Versions) -> String {
    if v.is_empty() {
        "none".into()
    } else if v.max == i16::MAX {
        format!("{}+", v.min)
    } else if v.min == v.max {
        v.min.to_string()
    } else {
        format!("{}-{}", v.min, v.max)
    }
}

/// Statements writing field `p` (present at this version).
fn enc_field(p: &FieldPlan<'_>, compact: &str, valid: &Versions, field_lit: &str) -> String {
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
fn len_field(p: &FieldPlan<'_>, compact: &str, valid: &Versions) -> String {
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
fn dec_field(p: &FieldPlan<'_>, compact: &str, valid: &Versions) -> String {
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

/// The module name for a message.
pub fn module_name(msg: &MessageSpec) -> String {
    snake_case(&msg.name)
}
