//! Java's properties format, the one parser for `server.properties`, tool configs and
//! `meta.properties`: `key=value`, `key: value` or `key value`, `#` and `!` comments, line
//! continuations, `\t`-style and `\uXXXX` escapes, exactly as `java.util.Properties` reads
//! them (the `java-properties` crate); files are UTF-8 (plain ASCII reads the same either way).

use std::collections::BTreeMap;

crate::message_error! {
    /// Text that is not in Java's properties format: what could not be read, and where.
    pub struct PropertiesError;
}

/// Parses properties text; an error names the line that could not be read.
pub fn parse(text: &str) -> Result<BTreeMap<String, String>, PropertiesError> {
    let mut out = BTreeMap::new();
    java_properties::PropertiesIter::new_with_encoding(text.as_bytes(), encoding_rs::UTF_8)
        .read_into(|k, v| {
            out.insert(k, v);
        })
        .map_err(|e| PropertiesError(e.to_string()))?;
    Ok(out)
}

/// Writes properties as `java.util.Properties` would store them (escaped), one per line in
/// key order, after a `#` comment line.
pub fn write(comment: &str, values: &BTreeMap<String, String>) -> String {
    let mut out = Vec::new();
    let mut w = java_properties::PropertiesWriter::new_with_encoding(&mut out, encoding_rs::UTF_8);
    // Writing to memory cannot fail; a failure would leave the text short, which the reader
    // of the file then reports.
    let _ = w.write_comment(comment);
    for (k, v) in values {
        let _ = w.write(k, v);
    }
    let _ = w.finish();
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_syntax_is_read_as_java_reads_it() {
        let text = "# comment\n! also a comment\na=1\nb : 2\nc 3\n\
                    long = one, \\\n    two\nunicode=caf\\u00e9\nescaped\\=key=x\\ty\n\
                    spaces   =   trimmed before, kept after  \n";
        let p = parse(text).unwrap();
        assert_eq!(p["a"], "1");
        assert_eq!(p["b"], "2");
        assert_eq!(p["c"], "3");
        assert_eq!(p["long"], "one, two");
        assert_eq!(p["unicode"], "café");
        assert_eq!(p["escaped=key"], "x\ty");
        assert_eq!(p["spaces"], "trimmed before, kept after  ");
    }

    #[test]
    fn what_is_written_reads_back() {
        let values: BTreeMap<String, String> = [
            ("cluster.id", "a:b=c d"),
            ("weird key", "tab\there\nnewline é"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(parse(&write("fjord", &values)).unwrap(), values);
    }
}
