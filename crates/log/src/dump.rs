//! `kafka-dump-log`: prints a segment file the way Kafka's DumpLogSegments does. `.log`:
//! one line per batch (offsets, count, producer fields, epoch, position, timestamp, size,
//! magic, codec, CRC validity), records with deep iteration, keys and payloads with
//! `--print-data-log`. `.index` and `.timeindex`: one line per entry.

use crate::index::{IndexEntry, OffsetEntry, TimeEntry};
use bytes::Bytes;
use fjord_protocol::records::{ControlRecordType, RecordBatch, TimestampType};
use std::fmt::Write as _;
use std::path::Path;

/// What to print of each batch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DumpOptions {
    /// Print every record (`--deep-iteration`).
    pub deep_iteration: bool,
    /// Print record keys and payloads (`--print-data-log`; implies deep iteration).
    pub print_data_log: bool,
}

fn base_offset_from_name(path: &Path) -> i64 {
    path.file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// Dumps one file; the kind is chosen by its extension.
pub fn dump_file(path: &Path, options: DumpOptions) -> std::io::Result<String> {
    let data = std::fs::read(path)?;
    let mut out = format!("Dumping {}\n", path.display());
    match path.extension().and_then(|e| e.to_str()) {
        Some("log") => dump_log(
            &mut out,
            base_offset_from_name(path),
            Bytes::from(data),
            options,
        ),
        Some("index") => dump_index::<OffsetEntry>(&mut out, base_offset_from_name(path), &data),
        Some("timeindex") => dump_index::<TimeEntry>(&mut out, base_offset_from_name(path), &data),
        _ => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{}: not a .log, .index or .timeindex file", path.display()),
            ))
        }
    }
    Ok(out)
}

fn printable(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn dump_log(out: &mut String, base: i64, mut data: Bytes, options: DumpOptions) {
    writeln!(out, "Log starting offset: {base}").unwrap();
    let deep = options.deep_iteration || options.print_data_log;
    let total = data.len();
    loop {
        let position = total - data.len();
        let batch = match RecordBatch::split_first(&mut data) {
            Ok(Some(b)) => b,
            Ok(None) if data.is_empty() => break,
            Ok(None) | Err(_) => {
                writeln!(
                    out,
                    "Found {} invalid bytes at position {position}",
                    data.len()
                )
                .unwrap();
                break;
            }
        };
        let ts_kind = match batch.timestamp_type() {
            TimestampType::CreateTime => "CreateTime",
            TimestampType::LogAppendTime => "LogAppendTime",
        };
        let codec = batch.compression().map(|c| c.name()).unwrap_or("unknown");
        let count = batch.record_count();
        let last_seq = if batch.base_sequence() < 0 {
            -1
        } else {
            batch.base_sequence() + batch.last_offset_delta()
        };
        writeln!(
            out,
            "baseOffset: {} lastOffset: {} count: {count} baseSequence: {} lastSequence: {last_seq} producerId: {} producerEpoch: {} partitionLeaderEpoch: {} isTransactional: {} isControl: {} deleteHorizonMs: {} position: {position} {ts_kind}: {} size: {} magic: {} compresscodec: {codec} crcValid: {}",
            batch.base_offset(),
            batch.last_offset(),
            batch.base_sequence(),
            batch.producer_id(),
            batch.producer_epoch(),
            batch.partition_leader_epoch(),
            batch.is_transactional(),
            batch.is_control(),
            if batch.has_delete_horizon() { format!("OptionalLong[{}]", batch.base_timestamp()) } else { "OptionalLong.empty".into() },
            batch.max_timestamp(),
            batch.size(),
            batch.magic(),
            batch.verify_crc().is_ok(),
        )
        .unwrap();
        if !deep {
            continue;
        }
        let records = match batch.records() {
            Ok(r) => r,
            Err(e) => {
                writeln!(out, "| cannot read records: {e}").unwrap();
                continue;
            }
        };
        for r in records {
            let r = match r {
                Ok(r) => r,
                Err(e) => {
                    writeln!(out, "| invalid record: {e}").unwrap();
                    break;
                }
            };
            let offset = batch.base_offset() + i64::from(r.offset_delta);
            let seq = if batch.base_sequence() < 0 {
                -1
            } else {
                batch.base_sequence() + r.offset_delta
            };
            let headers: Vec<&str> = r.headers.iter().map(|h| h.key.as_str()).collect();
            write!(
                out,
                "| offset: {offset} {ts_kind}: {} keySize: {} valueSize: {} sequence: {seq} headerKeys: [{}]",
                batch.base_timestamp() + r.timestamp_delta,
                r.key.as_ref().map_or(-1, |k| k.len() as i64),
                r.value.as_ref().map_or(-1, |v| v.len() as i64),
                headers.join(",")
            )
            .unwrap();
            if batch.is_control() {
                if let Some(kind) = r
                    .key
                    .as_deref()
                    .and_then(|k| ControlRecordType::parse_key(k).ok())
                {
                    write!(out, " controlType: {kind:?}({})", kind.id()).unwrap();
                }
            } else if options.print_data_log {
                if let Some(k) = &r.key {
                    write!(out, " key: {}", printable(k)).unwrap();
                }
                match &r.value {
                    Some(v) => write!(out, " payload: {}", printable(v)).unwrap(),
                    None => write!(out, " payload: null").unwrap(),
                }
            }
            out.push('\n');
        }
    }
}

fn dump_index<E: IndexEntry>(out: &mut String, base: i64, data: &[u8]) {
    for chunk in data.chunks(E::SIZE) {
        if chunk.len() < E::SIZE {
            writeln!(
                out,
                "Found {} trailing bytes that are not a whole entry",
                chunk.len()
            )
            .unwrap();
            break;
        }
        let e = E::read(chunk);
        writeln!(out, "{}", e.dump_line(base)).unwrap();
    }
}
