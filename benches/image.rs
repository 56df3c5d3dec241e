//! The metadata image at scale: applying one PartitionChangeRecord to an image of 200,000
//! partitions while the previous image is still published (so nothing can be updated in
//! place), and loading a snapshot of 100,000 partitions.
// criterion_group! defines an undocumented function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fjord_metadata::snapshot::{image_batches, load};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    partition_change_record::PartitionChangeRecord, partition_record::PartitionRecord,
    topic_record::TopicRecord,
};
use fjord_protocol::{MetadataRecord, Uuid};

/// An image of `topics` topics of `partitions` partitions each (replicas 1, 2, 3), built
/// 1,000 topics per batch.
fn image(topics: u32, partitions: i32) -> MetadataImage {
    let mut image = MetadataImage::empty();
    let mut records = Vec::new();
    for t in 0..topics {
        let id = Uuid::from_u128(u128::from(t) + 1_000);
        records.push(MetadataRecord::Topic(TopicRecord {
            name: format!("topic-{t}"),
            topic_id: id,
            ..Default::default()
        }));
        for p in 0..partitions {
            records.push(MetadataRecord::Partition(PartitionRecord {
                partition_id: p,
                topic_id: id,
                replicas: vec![1, 2, 3],
                isr: vec![1, 2, 3],
                leader: 1,
                leader_epoch: 0,
                partition_epoch: 0,
                ..Default::default()
            }));
        }
        if t % 1_000 == 999 || t + 1 == topics {
            let offset = image.provenance.last_offset + records.len() as i64;
            image = image.apply(&records, offset, 1).expect("applies").0;
            records.clear();
        }
    }
    image
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("image");
    g.sample_size(20);
    for (topics, partitions) in [(2_000u32, 100i32), (200_000, 1)] {
        let base = image(topics, partitions);
        let change = [MetadataRecord::PartitionChange(PartitionChangeRecord {
            partition_id: 0,
            topic_id: Uuid::from_u128(1_000),
            leader: 2,
            ..Default::default()
        })];
        let offset = base.provenance.last_offset + 1;
        g.bench_function(
            format!("apply one PartitionChangeRecord to 200,000 partitions ({topics} topics)"),
            |b| b.iter(|| black_box(base.apply(&change, offset, 1).expect("applies"))),
        );
    }
    let snapshot = image_batches(&image(1_000, 100), 0).expect("encodes");
    g.bench_function("load a snapshot of 100,000 partitions", |b| {
        b.iter(|| black_box(load(snapshot.clone(), 1, 1).expect("loads")))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
