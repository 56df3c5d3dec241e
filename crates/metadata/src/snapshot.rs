//! Snapshots of the image: the records that rebuild it (features first, then brokers,
//! controllers, topics with their partitions, configs, producer ids), packed into record
//! batches as `__cluster_metadata` stores them; and the way back, batches to records.

use crate::image::MetadataImage;
use crate::record_serde;
use crate::version::MetadataVersion;
use bytes::{Bytes, BytesMut};
use fjord_protocol::generated::{
    config_record::ConfigRecord,
    feature_level_record::FeatureLevelRecord,
    producer_ids_record::ProducerIdsRecord,
    register_broker_record::{self as rb, RegisterBrokerRecord},
    register_controller_record::{self as rc, RegisterControllerRecord},
    topic_record::TopicRecord,
};
use fjord_protocol::records::{Compression, RecordBatch, RecordBatchBuilder, RecordBatches};
use fjord_protocol::{DecodeError, EncodeError, MetadataRecord};

/// The most records per snapshot batch.
pub const RECORDS_PER_BATCH: usize = 1_000;

/// The records that replay to `image` from an empty one.
pub fn image_records(image: &MetadataImage) -> Vec<MetadataRecord> {
    let mut out = Vec::new();
    let acls = image
        .acls
        .by_id
        .iter()
        .map(|(id, acl)| MetadataRecord::AccessControlEntry(acl.to_record(*id)));
    for (name, level) in &image.features.levels {
        out.push(MetadataRecord::FeatureLevel(FeatureLevelRecord {
            name: name.clone(),
            feature_level: *level,
            ..Default::default()
        }));
    }
    for b in image.cluster.brokers.values() {
        out.push(MetadataRecord::RegisterBroker(RegisterBrokerRecord {
            broker_id: b.id,
            incarnation_id: b.incarnation_id,
            broker_epoch: b.epoch,
            end_points: b
                .listeners
                .iter()
                .map(|l| rb::BrokerEndpoint {
                    name: l.name.clone(),
                    host: l.host.clone(),
                    port: l.port,
                    security_protocol: l.security_protocol,
                    ..Default::default()
                })
                .collect(),
            features: b
                .supported_features
                .iter()
                .map(|(n, (min, max))| rb::BrokerFeature {
                    name: n.clone(),
                    min_supported_version: *min,
                    max_supported_version: *max,
                    ..Default::default()
                })
                .collect(),
            rack: b.rack.clone(),
            fenced: b.fenced,
            in_controlled_shutdown: b.in_controlled_shutdown,
            log_dirs: b.log_dirs.clone(),
            ..Default::default()
        }));
    }
    for c in image.cluster.controllers.values() {
        out.push(MetadataRecord::RegisterController(
            RegisterControllerRecord {
                controller_id: c.id,
                incarnation_id: c.incarnation_id,
                zk_migration_ready: c.zk_migration_ready,
                end_points: c
                    .listeners
                    .iter()
                    .map(|l| rc::ControllerEndpoint {
                        name: l.name.clone(),
                        host: l.host.clone(),
                        port: l.port,
                        security_protocol: l.security_protocol,
                        ..Default::default()
                    })
                    .collect(),
                features: c
                    .supported_features
                    .iter()
                    .map(|(n, (min, max))| rc::ControllerFeature {
                        name: n.clone(),
                        min_supported_version: *min,
                        max_supported_version: *max,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            },
        ));
    }
    for t in image.topics.by_id.values() {
        out.push(MetadataRecord::Topic(TopicRecord {
            name: t.name.clone(),
            topic_id: t.id,
            ..Default::default()
        }));
        for (index, p) in &t.partitions {
            out.push(MetadataRecord::Partition(p.to_record(t.id, *index)));
        }
    }
    for ((resource_type, resource_name), entries) in &image.configs.resources {
        for (k, v) in entries {
            out.push(MetadataRecord::Config(ConfigRecord {
                resource_type: *resource_type,
                resource_name: resource_name.clone(),
                name: k.clone(),
                value: Some(v.clone()),
                ..Default::default()
            }));
        }
    }
    if image.next_producer_id > 0 {
        out.push(MetadataRecord::ProducerIds(ProducerIdsRecord {
            broker_id: -1,
            broker_epoch: -1,
            next_producer_id: image.next_producer_id,
            ..Default::default()
        }));
    }
    out.extend(acls);
    out.extend(image.scram.by_user.iter().map(|((user, mechanism), c)| {
        MetadataRecord::UserScramCredential(c.to_record(user, *mechanism))
    }));
    out.extend(
        image
            .quotas
            .records()
            .into_iter()
            .map(MetadataRecord::ClientQuota),
    );
    out.extend(
        image
            .tokens
            .by_id
            .values()
            .map(|t| MetadataRecord::DelegationToken(t.to_record())),
    );
    out
}

/// One record batch of metadata records written as `metadata.version` `mv` allows (each
/// record downgraded and encoded at the version the level gives it).
pub fn batch_at(
    records: &[MetadataRecord],
    mv: MetadataVersion,
    now_ms: i64,
) -> Result<Bytes, EncodeError> {
    let mut b = RecordBatchBuilder::new(Compression::None);
    for r in records {
        let r = mv.downgrade(r);
        let value = record_serde::encode_at(&r, mv.record_version(&r))?;
        b.append(now_ms, None, Some(&value), &[]);
    }
    b.build()
}

/// One record batch of metadata records at their newest versions (offsets are assigned
/// when it is appended).
pub fn batch_of(records: &[MetadataRecord], now_ms: i64) -> Result<Bytes, EncodeError> {
    let mut b = RecordBatchBuilder::new(Compression::None);
    for r in records {
        let value = record_serde::encode(r)?;
        b.append(now_ms, None, Some(&value), &[]);
    }
    b.build()
}

/// The image as snapshot state: record batches of at most [`RECORDS_PER_BATCH`] records,
/// written as the image's `metadata.version` allows.
pub fn image_batches(image: &MetadataImage, now_ms: i64) -> Result<Bytes, EncodeError> {
    let mv = MetadataVersion::of(image.features.metadata_version());
    let records = image_records(image);
    let mut out = BytesMut::new();
    for chunk in records.chunks(RECORDS_PER_BATCH) {
        out.extend_from_slice(&batch_at(chunk, mv, now_ms)?);
    }
    Ok(out.freeze())
}

/// The metadata records of one batch, in order.
pub fn batch_records(batch: &RecordBatch) -> Result<Vec<MetadataRecord>, DecodeError> {
    let mut out = Vec::new();
    for r in batch.records()? {
        let r = r?;
        let value = r.value.ok_or_else(|| {
            DecodeError::CorruptRecords("a metadata record without a value".into())
        })?;
        out.push(record_serde::decode(value)?);
    }
    Ok(out)
}

/// Loads snapshot state (record batches) into a new image at `provenance`.
pub fn load(
    state: Bytes,
    last_offset: i64,
    epoch: i32,
) -> Result<MetadataImage, crate::MetadataError> {
    let bad = |e: &dyn std::fmt::Display| crate::MetadataError::Snapshot(e.to_string());
    let mut records = Vec::new();
    for b in RecordBatches::new(state) {
        let b = b.map_err(|e| bad(&e))?;
        records.extend(batch_records(&b).map_err(|e| bad(&e))?);
    }
    MetadataImage::empty()
        .apply(&records, last_offset, epoch)
        .map(|(image, _)| image)
        .map_err(|e| bad(&e))
}
