//! Emits `error_response.rs`: each API's error response (Kafka's `getErrorResponse`), from the
//! specs and fjord's entity paths (`schemas/error_responses.json`): the top-level error code
//! and message where the response version has them, and for responses that carry errors per
//! entity, one entity per entity of the request, with its keys copied and its error set.

use crate::names::{field_ident, type_ident};
use crate::rust_gen::module_name;
use crate::spec::{strip_comments, FieldSpec, FieldType, MessageSpec};
use crate::tables::Api;
use crate::SpecError;
use serde_json::Value;
use std::fmt::Write as _;

/// The entity paths' file, below `schemas/`.
pub const ENTITY_PATHS: &str = "error_responses.json";

fn invalid(msg: String) -> SpecError {
    SpecError::Invalid(format!("{ENTITY_PATHS}: {msg}"))
}

/// One side of a mapping: the struct whose fields are in scope.
struct Side<'a> {
    spec: &'a MessageSpec,
    fields: &'a [FieldSpec],
}

impl<'a> Side<'a> {
    fn field(&self, name: &str) -> Result<&'a FieldSpec, SpecError> {
        self.fields
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| invalid(format!("{} has no field {name} here", self.spec.name)))
    }

    /// The element side of collection field `f`: its struct's fields, or `None` for an
    /// array of plain values.
    fn element(&self, f: &'a FieldSpec) -> Result<Option<Side<'a>>, SpecError> {
        let FieldType::Array(inner) = &f.ty else {
            return Err(invalid(format!(
                "{}.{} is not an array",
                self.spec.name, f.name
            )));
        };
        let FieldType::Struct(name) = inner.as_ref() else {
            return Ok(None);
        };
        let fields = match &f.fields {
            Some(fields) => fields.as_slice(),
            None => self
                .spec
                .common_structs
                .iter()
                .find(|s| &s.name == name)
                .map(|s| s.fields.as_slice())
                .ok_or_else(|| invalid(format!("{}: no struct {name}", self.spec.name)))?,
        };
        Ok(Some(Side {
            spec: self.spec,
            fields,
        }))
    }
}

/// The struct type of a collection's elements (`module::Type`).
fn element_type(spec: &MessageSpec, f: &FieldSpec) -> Result<String, SpecError> {
    match &f.ty {
        FieldType::Array(inner) => match inner.as_ref() {
            FieldType::Struct(name) => Ok(format!("{}::{}", module_name(spec), type_ident(name))),
            _ => Err(invalid(format!(
                "{}.{} holds no structs",
                spec.name, f.name
            ))),
        },
        _ => Err(invalid(format!("{}.{} is not an array", spec.name, f.name))),
    }
}

fn optional(f: &FieldSpec) -> bool {
    !f.nullable.is_empty()
}

/// The value of response field `to` copied from `from` (a place expression) of request field
/// `src` (`None`: a plain element).
fn copied(from: &str, src: &FieldType, src_opt: bool, to: &FieldSpec, nonnull: bool) -> String {
    let owned = matches!(src, FieldType::String | FieldType::Bytes);
    if !owned {
        return from.to_string();
    }
    match (src_opt, optional(to)) {
        (false, false) | (true, true) if !nonnull => format!("{from}.clone()"),
        (true, true) => format!("Some({from}.clone().unwrap_or_default())"),
        (false, _) => format!("Some({from}.clone())"),
        (true, false) => format!("{from}.clone().unwrap_or_default()"),
    }
}

/// Generates the iterator over `path` (dotted) of the request below `var`, and the side of its
/// elements with their type.
fn source<'a>(
    side: &Side<'a>,
    var: &str,
    path: &str,
) -> Result<(String, Option<Side<'a>>, &'a FieldSpec), SpecError> {
    let mut segments = path.split('.');
    let first = side.field(segments.next().unwrap_or_default())?;
    let flatten = |f: &FieldSpec| if optional(f) { ".flatten()" } else { "" };
    let mut expr = format!(
        "{var}.{}.iter(){}",
        field_ident(&first.name),
        flatten(first)
    );
    let mut field = first;
    let mut element = side.element(first)?;
    for seg in segments {
        let Some(el) = element else {
            return Err(invalid(format!("{path}: {} holds no structs", field.name)));
        };
        let next = el.field(seg)?;
        write!(
            expr,
            ".flat_map(|e| e.{}.iter(){})",
            field_ident(&next.name),
            flatten(next)
        )
        .unwrap();
        element = el.element(next)?;
        field = next;
    }
    Ok((expr, element, field))
}

/// The value a `set` entry gives a field.
fn set_value(field: &FieldSpec, v: &Value) -> Result<String, SpecError> {
    match v {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) if s == "empty" && optional(field) => {
            Ok("Some(Default::default())".into())
        }
        Value::Null if optional(field) => Ok("None".into()),
        other => Err(invalid(format!("{}: cannot set {other}", field.name))),
    }
}

/// The error fields of a struct: its error code (ErrorCode, or one named for its entity such
/// as AddPartitionsToTxn's PartitionErrorCode), and ErrorMessage where the version has it.
fn error_fields(out: &mut String, side: &Side<'_>, indent: &str) {
    let valid = &side.spec.valid;
    let code_field = side
        .fields
        .iter()
        .find(|f| f.name == "ErrorCode")
        .or_else(|| side.fields.iter().find(|f| f.name.ends_with("ErrorCode")));
    if let Some(c) = code_field {
        let name = field_ident(&c.name);
        let test = c.versions.rust_test("version", valid);
        if test == "true" {
            writeln!(out, "{indent}{name}: code,").unwrap();
        } else {
            writeln!(out, "{indent}{name}: if {test} {{ code }} else {{ 0 }},").unwrap();
        }
    }
    if let Some(m) = side.fields.iter().find(|f| f.name == "ErrorMessage") {
        let test = m.versions.rust_test("version", valid);
        let (some, none) = if optional(m) {
            ("Some(message.to_string())", "None")
        } else {
            ("message.to_string()", "String::new()")
        };
        if test == "true" {
            writeln!(out, "{indent}error_message: {some},").unwrap();
        } else {
            writeln!(
                out,
                "{indent}error_message: if {test} {{ {some} }} else {{ {none} }},"
            )
            .unwrap();
        }
    }
}

/// The expression for response collection `to_name` of `resp`, filled from the mappings
/// `maps` over the request `req` below `var` (nesting `depth`).
fn collection(
    req: &Side<'_>,
    resp: &Side<'_>,
    var: &str,
    to_name: &str,
    maps: &[&Value],
    depth: usize,
) -> Result<String, SpecError> {
    let to = resp.field(to_name)?;
    let ty = element_type(resp.spec, to)?;
    let Some(to_side) = resp.element(to)? else {
        return Err(invalid(format!("{to_name} holds no structs")));
    };
    let x = format!("x{depth}");
    let indent = "    ".repeat(depth + 4);
    let mut parts = Vec::new();
    for m in maps {
        let from = m
            .get("from")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(format!("a mapping to {to_name} has no from")))?;
        let (iter, from_side, from_field) = source(req, var, from)?;
        let mut body = String::new();
        writeln!(body, "{iter}.map(|{x}| {ty} {{").unwrap();
        let nonnull: Vec<&str> = m
            .get("nonnull")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let inner = format!("{indent}    ");
        for (target, src) in m
            .get("copy")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let target_field = to_side.field(target)?;
            let src = src.as_str().unwrap_or_default();
            let value = if src == "." {
                let FieldType::Array(el) = &from_field.ty else {
                    return Err(invalid(format!("{from} is not an array")));
                };
                let place = if matches!(el.as_ref(), FieldType::String | FieldType::Bytes) {
                    x.clone()
                } else {
                    format!("*{x}")
                };
                copied(
                    &place,
                    el,
                    false,
                    target_field,
                    nonnull.contains(&target.as_str()),
                )
            } else {
                let Some(fs) = &from_side else {
                    return Err(invalid(format!("{from} holds plain values: copy \".\"")));
                };
                let f = fs.field(src)?;
                let place = format!("{x}.{}", field_ident(&f.name));
                copied(
                    &place,
                    &f.ty,
                    optional(f),
                    target_field,
                    nonnull.contains(&target.as_str()),
                )
            };
            writeln!(body, "{inner}{}: {value},", field_ident(target)).unwrap();
        }
        error_fields(&mut body, &to_side, &inner);
        for (target, v) in m
            .get("set")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let f = to_side.field(target)?;
            writeln!(
                body,
                "{inner}{}: {},",
                field_ident(target),
                set_value(f, v)?
            )
            .unwrap();
        }
        let nested = m.get("entities").and_then(Value::as_array);
        for (name, group) in grouped(nested.map(Vec::as_slice).unwrap_or_default())? {
            let Some(fs) = &from_side else {
                return Err(invalid(format!(
                    "{from} holds plain values: no nested entities"
                )));
            };
            let value = collection(fs, &to_side, &x, name, &group, depth + 1)?;
            writeln!(body, "{inner}{}: {value},", field_ident(name)).unwrap();
        }
        write!(body, "{inner}..Default::default()\n{indent}}})").unwrap();
        parts.push(body);
    }
    let mut expr = parts.remove(0);
    for p in parts {
        expr = format!("{expr}.chain({p})");
    }
    let collected = format!("{expr}.collect()");
    Ok(if optional(to) {
        format!("Some({collected})")
    } else {
        collected
    })
}

/// The mappings of a list, grouped by target collection, in first-appearance order.
fn grouped(maps: &[Value]) -> Result<Vec<(&str, Vec<&Value>)>, SpecError> {
    let mut out: Vec<(&str, Vec<&Value>)> = Vec::new();
    for m in maps {
        let to = m
            .get("to")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("a mapping has no to".into()))?;
        match out.iter_mut().find(|(t, _)| *t == to) {
            Some((_, g)) => g.push(m),
            None => out.push((to, vec![m])),
        }
    }
    Ok(out)
}

/// The text of `error_response.rs`, from `paths` (the entity paths file's text).
pub fn error_module(apis: &[Api<'_>], paths: &str) -> Result<String, SpecError> {
    let paths: Value = serde_json::from_str(&strip_comments(paths))
        .map_err(|e| invalid(format!("not JSON: {e}")))?;
    let paths = paths
        .as_object()
        .ok_or_else(|| invalid("not an object".into()))?;
    for name in paths.keys() {
        if !apis.iter().any(|a| &a.name == name) {
            return Err(invalid(format!("no API {name}")));
        }
    }
    let mut o = String::from(
        "//! Generated by fjord-codegen from the specs and `schemas/error_responses.json`. Do not edit.\n\n\
         use crate::generated::*;\nuse crate::{RequestBody, ResponseBody};\n\n\
         /// The response to `request` (read at `version`) failing all of it with `code` and\n\
         /// `message`: the top-level error where the version has one, and one entity with the\n\
         /// error for each entity of the request.\n\
         pub fn error_response(request: &RequestBody, version: i16, code: i16, message: &str) -> ResponseBody {\n\
         \x20   let api = request.api_key();\n\
         \x20   let top = ResponseBody::top_level_error(api, version, code, Some(message));\n\
         \x20   match request {\n",
    );
    for a in apis {
        let Some(entry) = paths.get(&a.name) else {
            continue;
        };
        let req = Side {
            spec: a.request,
            fields: &a.request.fields,
        };
        let resp = Side {
            spec: a.response,
            fields: &a.response.fields,
        };
        let ty = format!(
            "{}::{}",
            module_name(a.response),
            type_ident(&a.response.name)
        );
        writeln!(
            o,
            "        RequestBody::{}(r) => {{\n            let mut out = match top {{\n                Some(ResponseBody::{}(o)) => o,\n                _ => {ty}::default(),\n            }};",
            a.name, a.name
        )
        .unwrap();
        for (target, v) in entry
            .get("set")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let f = resp.field(target)?;
            writeln!(
                o,
                "            out.{} = {};",
                field_ident(target),
                set_value(f, v)?
            )
            .unwrap();
        }
        let maps = entry.get("entities").and_then(Value::as_array);
        for (name, group) in grouped(maps.map(Vec::as_slice).unwrap_or_default())? {
            let value = collection(&req, &resp, "r", name, &group, 0)?;
            writeln!(o, "            out.{} = {value};", field_ident(name)).unwrap();
        }
        writeln!(o, "            ResponseBody::{}(out)\n        }}", a.name).unwrap();
    }
    o.push_str("        _ => top.unwrap_or_else(|| ResponseBody::default_for(api)),\n    }\n}\n");
    Ok(o)
}
