//! What the benchmarks share: librdkafka producers and consumers driven at full speed (or a
//! set rate) that report throughput and delivery latencies. The benchmarks themselves are the
//! `[[bench]]` targets of this package.

use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::producer::{BaseProducer, BaseRecord, DeliveryResult, Producer, ProducerContext};
use rdkafka::{ClientContext, Message, Offset, TopicPartitionList};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Records delivery latencies (µs) of messages sent with their send time, and failures.
#[derive(Clone, Default)]
pub struct Latencies(Arc<(Mutex<Vec<u64>>, AtomicU64)>);

impl ClientContext for Latencies {}

impl ProducerContext for Latencies {
    type DeliveryOpaque = Box<Instant>;
    fn delivery(&self, r: &DeliveryResult<'_>, sent: Box<Instant>) {
        if r.is_ok() {
            self.0
                 .0
                .lock()
                .unwrap()
                .push(sent.elapsed().as_micros() as u64);
        } else {
            self.0 .1.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Produces `size`-byte records to `topic` for `secs` seconds (at most `rate` per second when
/// given), with the client settings `client` (security ones, say); returns (records acknowledged, failures, latencies in µs).
pub fn produce(
    client: &[(&str, &str)],
    bootstrap: &str,
    topic: &str,
    partitions: i32,
    size: usize,
    acks: &str,
    secs: f64,
    rate: Option<f64>,
) -> (u64, u64, Vec<u64>) {
    let ctx = Latencies::default();
    let mut config = ClientConfig::new();
    for (k, v) in client {
        config.set(*k, *v);
    }
    let producer: BaseProducer<Latencies> = config
        .set("bootstrap.servers", bootstrap)
        .set("acks", acks)
        .set("linger.ms", "5")
        .set("batch.size", "1000000")
        .set("queue.buffering.max.messages", "1000000")
        .set("queue.buffering.max.kbytes", "1048576")
        .create_with_context(ctx.clone())
        .unwrap();
    let payload = vec![b'x'; size];
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(secs);
    let mut sent = 0u64;
    while Instant::now() < end {
        if let Some(r) = rate {
            let due = (start.elapsed().as_secs_f64() * r) as u64;
            if sent >= due {
                producer.poll(Duration::from_micros(200));
                continue;
            }
        }
        let record = BaseRecord::with_opaque_to(topic, Box::new(Instant::now()))
            .payload(&payload)
            .key(&[])
            .partition((sent % partitions as u64) as i32);
        match producer.send(record) {
            Ok(()) => sent += 1,
            Err(_) => {
                producer.poll(Duration::from_millis(1));
            }
        }
        if sent % 1024 == 0 {
            producer.poll(Duration::ZERO);
        }
    }
    producer.flush(Duration::from_secs(60)).unwrap();
    let lat = std::mem::take(&mut *ctx.0 .0.lock().unwrap());
    (lat.len() as u64, ctx.0 .1.load(Ordering::Relaxed), lat)
}

/// Consumes every record of `topic` partition `p` from the start until `count` arrived;
/// returns the seconds it took.
pub fn consume(
    client: &[(&str, &str)],
    bootstrap: &str,
    topic: &str,
    partitions: i32,
    count: u64,
) -> f64 {
    let mut config = ClientConfig::new();
    for (k, v) in client {
        config.set(*k, *v);
    }
    let consumer: BaseConsumer = config
        .set("bootstrap.servers", bootstrap)
        // assign() needs a group id; nothing joins or commits.
        .set("group.id", "broker-load")
        .set("enable.auto.commit", "false")
        // librdkafka 2.3+ pauses a partition's fetching for `fetch.queue.backoff.ms` (1 s)
        // whenever its local queue is past `queued.min.messages`: with 100 B records that
        // is most of the run. Keep fetching instead.
        .set("fetch.queue.backoff.ms", "1")
        .set("queued.min.messages", "1000000")
        .set("fetch.max.bytes", "52428800")
        .set("max.partition.fetch.bytes", "10485760")
        .set("queued.max.messages.kbytes", "1048576")
        .create()
        .unwrap();
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition_offset(topic, p, Offset::Beginning)
            .unwrap();
    }
    consumer.assign(&tpl).unwrap();
    let start = Instant::now();
    let mut n = 0u64;
    let deadline = start + Duration::from_secs(300);
    while n < count && Instant::now() < deadline {
        if let Some(Ok(m)) = consumer.poll(Duration::from_millis(100)) {
            n += 1;
            std::hint::black_box(m.payload());
        }
    }
    start.elapsed().as_secs_f64()
}

/// A free port on 127.0.0.1 (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// User+system CPU seconds of process `pid` so far.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 (utime, stime) are at 11 and 12 after the command name.
    (ticks(11) + ticks(12)) / 100.0
}
