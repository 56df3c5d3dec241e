//! A PushTelemetry payload as a broker reads it: the first byte the compression type, the
//! rest the payload, decompressed (bounded), decoded as OTLP and stored in a bounded series
//! store, which must stay within its bound and render every series it counts.
#![no_main]
use fjord_telemetry::manager::decode_payload;
use fjord_telemetry::series::SeriesStore;
use libfuzzer_sys::fuzz_target;

/// The series bound the target stores under.
const MAX_SERIES: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Some((&compression, payload)) = data.split_first() else { return };
    let Ok(metrics) = decode_payload(compression as i8, payload, 1 << 20) else { return };
    let mut store = SeriesStore::new(MAX_SERIES);
    let labels = vec![("client_id".to_string(), "fuzz".to_string())];
    let all = vec!["*".to_string()];
    for instance in 0..2u128 {
        store.apply(uuid::Uuid::from_u128(instance), labels.clone(), &all, &metrics, 1);
    }
    assert!(store.len() <= MAX_SERIES);
    assert_eq!(store.render().len(), store.len());
    store.expire(1);
    assert!(store.is_empty());
});
