//! Emits the Rust module for one message spec: its structs, defaults, encoders, decoders,
//! size functions and (behind the `sample` feature) seeded sample values.

use crate::field_code::{
    dec_field, default_expr, enc_field, field_compact, len_field, rust_type, sample_nonnull,
};
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
pub(crate) struct Ctx<'a> {
    pub(crate) msg: &'a MessageSpec,
    structs: BTreeMap<String, &'a [FieldSpec]>,
}

/// Per-field facts at generation time.
pub(crate) struct FieldPlan<'a> {
    pub(crate) f: &'a FieldSpec,
    pub(crate) ident: String,
    /// Versions in which the field is written in the fixed part of the struct.
    pub(crate) regular: Versions,
    /// Versions in which the field is written as a tagged field.
    pub(crate) tagged: Versions,
    /// True when the Rust type is an `Option` (nullable in some version).
    pub(crate) optional: bool,
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
    out.push_str("#[allow(unused_imports)]\nuse crate::payload::Records;\n");
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

/// What every generated method of one struct needs: its fields, their defaults, and whether
/// the message has flexible versions.
struct StructPlan<'a, 'c> {
    ctx: &'c Ctx<'a>,
    name: &'c str,
    top_level: bool,
    plans: Vec<FieldPlan<'a>>,
    defaults: Vec<String>,
    has_flexible: bool,
    flexible_test: String,
}

impl<'a, 'c> StructPlan<'a, 'c> {
    fn new(ctx: &'c Ctx<'a>, d: &'c StructDef<'a>) -> Result<Self, SpecError> {
        let msg = ctx.msg;
        let plans: Vec<FieldPlan<'a>> = d.fields.iter().map(|f| FieldPlan::new(f, msg)).collect();
        let defaults = plans
            .iter()
            .map(|p| default_expr(p, &d.name))
            .collect::<Result<_, _>>()?;
        Ok(StructPlan {
            ctx,
            name: &d.name,
            top_level: d.top_level,
            plans,
            defaults,
            has_flexible: !msg.flexible.intersect(&msg.valid).is_empty(),
            flexible_test: msg.flexible.rust_test("version", &msg.valid),
        })
    }

    /// The fields that are tagged in some version, with their default expressions.
    fn tagged(&self) -> Vec<(&FieldPlan<'a>, &String)> {
        self.plans
            .iter()
            .zip(&self.defaults)
            .filter(|(p, _)| !p.tagged.is_empty())
            .collect()
    }
}

/// The version check that opens a top-level message's `encode` or `decode` (`error` names the
/// error type); nested structs have none.
fn version_check(sp: &StructPlan<'_, '_>, error: &str) -> String {
    if !sp.top_level {
        return String::new();
    }
    let valid = &sp.ctx.msg.valid;
    format!(
        "        if !({}..={}).contains(&version) {{ return Err({error}::UnsupportedVersion {{ message: {}, version }}); }}\n",
        valid.min,
        valid.max,
        str_lit(&sp.ctx.msg.name)
    )
}

fn emit_struct(ctx: &Ctx<'_>, d: &StructDef<'_>, out: &mut String) -> Result<(), SpecError> {
    let sp = StructPlan::new(ctx, d)?;
    emit_definition(&sp, &d.doc, out);
    emit_default(&sp, out);
    writeln!(out, "impl {} {{", sp.name).unwrap();
    emit_consts(&sp, out);
    emit_encode(&sp, out);
    emit_encoded_len(&sp, out);
    emit_decode(&sp, out);
    emit_sample(&sp, out);
    emit_error_codes(&sp, out);
    emit_nullable_strings(&sp, out);
    writeln!(out, "}}").unwrap();
    Ok(())
}

/// Emits `each_error_code`: every `ErrorCode` field of the value and of its nested structs
/// (what Kafka's `errorCounts` counts for the request metrics).
fn emit_error_codes(sp: &StructPlan<'_, '_>, out: &mut String) {
    let mut body = String::new();
    for p in &sp.plans {
        let id = &p.ident;
        match &p.f.ty {
            FieldType::Int16 if p.f.name == "ErrorCode" => {
                writeln!(body, "        f(self.{id});").unwrap();
            }
            FieldType::Struct(_) if p.optional => {
                writeln!(
                    body,
                    "        if let Some(x) = &self.{id} {{ x.each_error_code(f); }}"
                )
                .unwrap();
            }
            FieldType::Struct(_) => {
                writeln!(body, "        self.{id}.each_error_code(f);").unwrap();
            }
            FieldType::Array(inner) if matches!(**inner, FieldType::Struct(_)) => {
                if p.optional {
                    writeln!(body, "        if let Some(v) = &self.{id} {{ for x in v {{ x.each_error_code(f); }} }}").unwrap();
                } else {
                    writeln!(
                        body,
                        "        for x in &self.{id} {{ x.each_error_code(f); }}"
                    )
                    .unwrap();
                }
            }
            _ => {}
        }
    }
    writeln!(
        out,
        "\n    /// Calls `f` with every error code the value carries, its own and its parts'."
    )
    .unwrap();
    writeln!(
        out,
        "    #[allow(unused_variables)]\n    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {{\n{body}    }}"
    )
    .unwrap();
}

/// Emits `each_nullable_string`: every nullable string field of the value and of its nested
/// structs, by its spec name, to read or change (the success answers' null checks).
fn emit_nullable_strings(sp: &StructPlan<'_, '_>, out: &mut String) {
    let valid = &sp.ctx.msg.valid;
    let mut body = String::new();
    for p in &sp.plans {
        let id = &p.ident;
        let name = &p.f.name;
        let regular = p.regular.rust_test("version", valid);
        let present = if p.tagged.is_empty() {
            regular
        } else {
            format!("({regular}) || ({})", p.tagged.rust_test("version", valid))
        };
        let visit = match &p.f.ty {
            FieldType::String if p.optional => format!("f(\"{name}\", &mut self.{id});"),
            FieldType::Struct(_) if p.optional => {
                format!("if let Some(x) = &mut self.{id} {{ x.each_nullable_string(version, f); }}")
            }
            FieldType::Struct(_) => format!("self.{id}.each_nullable_string(version, f);"),
            FieldType::Array(inner) if matches!(**inner, FieldType::Struct(_)) => {
                if p.optional {
                    format!("if let Some(v) = &mut self.{id} {{ for x in v {{ x.each_nullable_string(version, f); }} }}")
                } else {
                    format!("for x in &mut self.{id} {{ x.each_nullable_string(version, f); }}")
                }
            }
            _ => continue,
        };
        match present.as_str() {
            "false" => {}
            "true" => writeln!(body, "        {visit}").unwrap(),
            test => writeln!(body, "        if {test} {{ {visit} }}").unwrap(),
        }
    }
    writeln!(
        out,
        "\n    /// Calls `f` with every nullable string field `version` carries (its spec name and\n    /// value), its own and its parts'."
    )
    .unwrap();
    writeln!(
        out,
        "    #[allow(unused_variables)]\n    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {{\n{body}    }}"
    )
    .unwrap();
}

/// Emits the top-level message's constants: name, version range, first flexible version.
fn emit_consts(sp: &StructPlan<'_, '_>, out: &mut String) {
    let ctx = sp.ctx;
    let msg = ctx.msg;
    let valid = &ctx.msg.valid;
    let has_flexible = sp.has_flexible;
    if sp.top_level {
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
}

/// Emits The struct and its field docs.
fn emit_definition(sp: &StructPlan<'_, '_>, doc: &str, out: &mut String) {
    let name = sp.name;
    let plans = &sp.plans;
    let has_flexible = sp.has_flexible;
    writeln!(out, "/// {}", doc_text(doc)).unwrap();
    writeln!(out, "#[derive(Debug, Clone, PartialEq)]").unwrap();
    writeln!(out, "pub struct {name} {{").unwrap();
    for p in plans {
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
}

/// Emits `impl Default`, from the spec defaults.
fn emit_default(sp: &StructPlan<'_, '_>, out: &mut String) {
    let name = sp.name;
    let plans = &sp.plans;
    let defaults = &sp.defaults;
    let has_flexible = sp.has_flexible;
    writeln!(out, "impl Default for {name} {{").unwrap();
    writeln!(out, "    fn default() -> Self {{").unwrap();
    writeln!(out, "        {name} {{").unwrap();
    for (p, def) in plans.iter().zip(defaults) {
        writeln!(out, "            {}: {def},", p.ident).unwrap();
    }
    if has_flexible {
        writeln!(out, "            unknown_tagged_fields: Vec::new(),").unwrap();
    }
    writeln!(out, "        }}\n    }}\n}}\n").unwrap();
}

/// Emits `encode`: fixed fields in order, then the tagged-field section.
fn emit_encode(sp: &StructPlan<'_, '_>, out: &mut String) {
    let ctx = sp.ctx;
    let valid = &ctx.msg.valid;
    let plans = &sp.plans;
    let defaults = &sp.defaults;
    let has_flexible = sp.has_flexible;
    let flexible_test = &sp.flexible_test;
    let version_check_enc = version_check(sp, "EncodeError");
    writeln!(out, "    /// Writes this value at `version`.").unwrap();
    writeln!(out, "    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {{").unwrap();
    out.push_str(&version_check_enc);
    writeln!(
        out,
        "        #[allow(unused_variables)]\n        let flexible = {flexible_test};"
    )
    .unwrap();
    for (p, def) in plans.iter().zip(defaults) {
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
    let tagged_plans = sp.tagged();
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
}

/// Emits `encoded_len`: the exact size `encode` writes.
fn emit_encoded_len(sp: &StructPlan<'_, '_>, out: &mut String) {
    let ctx = sp.ctx;
    let valid = &ctx.msg.valid;
    let plans = &sp.plans;
    let has_flexible = sp.has_flexible;
    let flexible_test = &sp.flexible_test;
    let tagged_plans = sp.tagged();
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
    write_regular_fields(out, plans, ctx, |p, compact| {
        format!("n += {};", len_field(p, compact, valid))
    });
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
}

/// Emits `decode`: fixed fields in order, then the tagged-field section.
fn emit_decode(sp: &StructPlan<'_, '_>, out: &mut String) {
    let ctx = sp.ctx;
    let valid = &ctx.msg.valid;
    let plans = &sp.plans;
    let has_flexible = sp.has_flexible;
    let flexible_test = &sp.flexible_test;
    let tagged_plans = sp.tagged();
    let version_check_dec = version_check(sp, "DecodeError");
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
    write_regular_fields(out, plans, ctx, |p, compact| {
        format!("v.{} = {};", p.ident, dec_field(p, compact, valid))
    });
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
}

/// Emits `sample` (feature `sample`): a random value valid at the version.
fn emit_sample(sp: &StructPlan<'_, '_>, out: &mut String) {
    let ctx = sp.ctx;
    let valid = &ctx.msg.valid;
    let plans = &sp.plans;
    let has_flexible = sp.has_flexible;
    let flexible_test = &sp.flexible_test;
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
    for p in plans {
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
}

/// Writes `stmt` for every field in the fixed (untagged) part of the struct, guarded by the
/// versions in which the field is there. `stmt` gets the field and its compact-encoding test.
fn write_regular_fields(
    out: &mut String,
    plans: &[FieldPlan<'_>],
    ctx: &Ctx<'_>,
    stmt: impl Fn(&FieldPlan<'_>, &str) -> String,
) {
    for p in plans {
        let regular = p.regular.rust_test("version", &ctx.msg.valid);
        if regular == "false" {
            continue;
        }
        let body = stmt(p, &field_compact(p, ctx));
        if regular == "true" {
            writeln!(out, "        {body}").unwrap();
        } else {
            writeln!(out, "        if {regular} {{ {body} }}").unwrap();
        }
    }
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

/// The module name for a message.
pub fn module_name(msg: &MessageSpec) -> String {
    snake_case(&msg.name)
}
