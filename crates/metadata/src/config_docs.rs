//! One line of documentation for every config key fjord knows, in fjord's own words: what
//! DescribeConfigs answers when a client sets `IncludeDocumentation`. The keys declared in
//! `fjord-configdef` carry their own; this table documents the broker keys not yet declared
//! there.

/// The documentation of config `key` (a listener-prefixed key is documented as its base
/// key), if fjord has one.
pub fn documentation(key: &str) -> Option<&'static str> {
    let base = crate::config_defs::listener_base(key).unwrap_or(key);
    if let Some(d) = fjord_configdef::topic_key(base).or_else(|| fjord_configdef::broker_key(base))
    {
        return Some(d.doc);
    }
    DOCUMENTATION
        .iter()
        .find(|(k, _)| *k == base)
        .map(|(_, doc)| *doc)
}

/// One line per key: (key, documentation).
const DOCUMENTATION: &[(&str, &str)] = &[
    ("ssl.keystore.type", "The format of the key store file."),
    ("ssl.keystore.location", "The key store file holding this listener's certificate and private key."),
    ("ssl.keystore.password", "The key store's password."),
    ("ssl.key.password", "The password of the private key in the key store."),
    ("ssl.truststore.type", "The format of the trust store file."),
    ("ssl.truststore.location", "The trust store file holding the certificates this listener trusts."),
    ("ssl.truststore.password", "The trust store's password."),
    ("ssl.keystore.certificate.chain", "The certificate chain in PEM, instead of a key store file."),
    ("ssl.keystore.key", "The private key in PEM, instead of a key store file."),
    ("ssl.truststore.certificates", "The trusted certificates in PEM, instead of a trust store file."),
    ("advertised.listeners", "The addresses clients are told to connect to, per listener."),
    ("listeners", "The addresses this node listens on, as NAME://host:port."),
    ("listener.security.protocol.map", "The security protocol of each listener name."),
    ("principal.builder.class", "The class that names the principal of a connection."),
    ("ssl.protocol", "The TLS protocol used to build the SSL context."),
    ("ssl.provider", "The security provider of the SSL context."),
    ("ssl.cipher.suites", "The cipher suites allowed."),
    ("ssl.enabled.protocols", "The TLS versions allowed."),
    ("ssl.keymanager.algorithm", "The key manager factory algorithm."),
    ("ssl.trustmanager.algorithm", "The trust manager factory algorithm."),
    ("ssl.endpoint.identification.algorithm", "How a server's host name is checked against its certificate."),
    ("ssl.secure.random.implementation", "The random number generator used for TLS."),
    ("ssl.client.auth", "Whether clients must (`required`), may (`requested`) or need not (`none`) present a certificate."),
    ("ssl.engine.factory.class", "The class that builds TLS engines."),
    ("sasl.mechanism.inter.broker.protocol", "The SASL mechanism brokers use with each other."),
    ("sasl.jaas.config", "The JAAS login settings of a SASL listener."),
    ("sasl.enabled.mechanisms", "The SASL mechanisms a listener offers."),
    ("sasl.kerberos.service.name", "The Kerberos service name of the broker."),
    ("sasl.kerberos.kinit.cmd", "The kinit command used to renew Kerberos tickets."),
    ("sasl.kerberos.ticket.renew.window.factor", "The share of a ticket's lifetime after which it is renewed."),
    ("sasl.kerberos.ticket.renew.jitter", "The random share added to the renewal time."),
    ("sasl.kerberos.min.time.before.relogin", "The shortest time between two Kerberos logins, in ms."),
    ("sasl.kerberos.principal.to.local.rules", "The rules that map Kerberos principals to short names."),
    ("sasl.login.refresh.window.factor", "The share of a login credential's lifetime after which it is refreshed."),
    ("sasl.login.refresh.window.jitter", "The random share added to the refresh time."),
    ("sasl.login.refresh.min.period.seconds", "The shortest time between two credential refreshes."),
    ("sasl.login.refresh.buffer.seconds", "How long before a credential expires it is refreshed."),
    ("max.connections", "The most connections the broker (or one listener) accepts at once."),
    ("max.connection.creation.rate", "The most new connections per second the broker (or one listener) accepts."),
    ("num.network.threads", "The threads that read requests and write responses."),
    ("log.cleaner.threads", "The threads that compact logs."),
    ("log.cleaner.dedupe.buffer.size", "The memory the log cleaner uses to find the latest record of each key."),
    ("log.cleaner.io.buffer.load.factor", "How full the cleaner's key map may get."),
    ("log.cleaner.io.buffer.size", "The memory the cleaner reads and writes through."),
    ("log.cleaner.io.max.bytes.per.second", "The most bytes per second the cleaner reads and writes."),
    ("log.cleaner.backoff.ms", "How long the cleaner sleeps when no log needs cleaning."),
    ("log.roll.jitter.ms", "The broker's default of segment.jitter.ms."),
    ("log.cleaner.max.compaction.lag.ms", "The broker's default of max.compaction.lag.ms."),
    ("compression.gzip.level", "The gzip level of batches the broker compresses."),
    ("compression.lz4.level", "The lz4 level of batches the broker compresses."),
    ("compression.zstd.level", "The zstd level of batches the broker compresses."),
    ("log.preallocate", "The broker's default of preallocate."),
    ("log.message.timestamp.difference.max.ms", "The largest difference allowed between a record's timestamp and the broker's clock (removed in Kafka 4; see the before/after keys)."),
    ("log.message.downconversion.enable", "Whether records may be converted to older formats for old clients."),
    ("log.local.retention.ms", "How long segments stay on local disk when tiered storage is on."),
    ("log.local.retention.bytes", "How many bytes stay on local disk when tiered storage is on."),
    ("num.io.threads", "The threads that handle requests."),
    ("num.replica.fetchers", "The fetcher threads per source broker a follower uses."),
    ("num.recovery.threads.per.data.dir", "The threads per log directory that recover logs at startup."),
    ("background.threads", "The threads for background work."),
    ("metric.reporters", "The classes that receive the broker's metrics."),
    ("max.connections.per.ip", "The most connections one address may hold."),
    ("max.connections.per.ip.overrides", "Per-address exceptions to max.connections.per.ip."),
    ("producer.id.expiration.ms", "How long an idle producer id's state is kept."),
    ("transaction.partition.verification.enable", "Whether a transactional write is checked against the coordinator before it is appended."),
    ("remote.log.index.file.cache.total.size.bytes", "The disk space of the tiered storage index cache."),
    ("remote.fetch.max.wait.ms", "How long a fetch from tiered storage may wait."),
    ("remote.log.manager.copy.max.bytes.per.second", "The bytes per second copied to tiered storage."),
    ("remote.log.manager.fetch.max.bytes.per.second", "The bytes per second read from tiered storage."),
    ("remote.list.offsets.request.timeout.ms", "How long a ListOffsets served from tiered storage may take."),
    ("node.id", "This node's id in the cluster."),
    ("process.roles", "What this node is: broker, controller, or both."),
    ("controller.listener.names", "The listeners the controller serves on."),
    ("inter.broker.listener.name", "The listener brokers use to talk to each other."),
    ("controller.quorum.voters", "The controller quorum's voters, as id@host:port (a static quorum)."),
    ("controller.quorum.bootstrap.servers", "The controllers a node first asks to find the quorum (a dynamic quorum)."),
    ("controller.quorum.election.timeout.ms", "How long a voter waits without a leader before it stands for election."),
    ("controller.quorum.fetch.timeout.ms", "How long a follower goes without fetching from the leader before it stands for election."),
    ("controller.quorum.election.backoff.max.ms", "The longest random wait before a new election."),
    ("controller.quorum.request.timeout.ms", "How long a quorum request may take."),
    ("controller.quorum.retry.backoff.ms", "How long a failed quorum request waits before it is sent again."),
    ("controller.quorum.append.linger.ms", "How long the leader gathers metadata records before writing them."),
    ("log.dirs", "The directories partition logs are kept in."),
    ("log.dir", "The directory partition logs are kept in, when log.dirs is not set."),
    ("metadata.log.dir", "The directory of the metadata log (the first log directory when not set)."),
    ("metadata.log.max.record.bytes.between.snapshots", "The metadata log bytes after which a new snapshot is written."),
    ("auto.create.topics.enable", "Whether Metadata and Produce create a topic they name that does not exist."),
    ("offsets.topic.replication.factor", "The replication factor of __consumer_offsets."),
    ("offsets.topic.num.partitions", "The partitions of __consumer_offsets."),
    ("transaction.state.log.replication.factor", "The replication factor of __transaction_state."),
    ("transaction.state.log.min.isr", "The min.insync.replicas of __transaction_state."),
    ("transaction.state.log.num.partitions", "The partitions of __transaction_state."),
    ("transaction.state.log.segment.bytes", "The segment size of __transaction_state."),
    ("transaction.max.timeout.ms", "The longest transaction timeout a producer may ask for."),
    ("transactional.id.expiration.ms", "How long an idle transactional id is kept."),
    ("transaction.abort.timed.out.transaction.cleanup.interval.ms", "How often the coordinator looks for transactions past their timeout."),
    ("transaction.remove.expired.transaction.cleanup.interval.ms", "How often the coordinator removes expired transactional ids."),
    ("replica.lag.time.max.ms", "How long a follower may go without catching up before it leaves the ISR."),
    ("replica.fetch.max.bytes", "The most bytes a follower fetches per partition."),
    ("replica.fetch.response.max.bytes", "The most bytes of one follower fetch answer."),
    ("replica.fetch.wait.max.ms", "How long a follower's fetch waits at the leader for new records."),
    ("replica.fetch.min.bytes", "The fewest bytes a follower's fetch waits for."),
    ("replica.fetch.backoff.ms", "How long a follower waits after a failed fetch."),
    ("broker.session.timeout.ms", "How long a broker may go without heartbeating before the controller fences it."),
    ("broker.connection.loss.fence.ms", "How long after a broker's connection to the active controller closes the controller fences it unless it heartbeats again; 0 waits for the session timeout alone (fjord's)."),
    ("broker.heartbeat.interval.ms", "How often a broker heartbeats to the controller."),
    ("broker.rack", "The rack of this broker, for rack-aware replica placement."),
    ("log.retention.check.interval.ms", "How often segments are checked against retention."),
    ("replica.high.watermark.checkpoint.interval.ms", "How often high watermarks are written to disk."),
    ("log.flush.offset.checkpoint.interval.ms", "How often the last flushed offsets are written to disk."),
    ("log.flush.start.offset.checkpoint.interval.ms", "How often log start offsets are written to disk."),
    ("socket.request.max.bytes", "The largest request a client may send."),
    ("connections.max.idle.ms", "How long an idle connection stays open."),
    ("queued.max.request.bytes", "The most bytes of requests read and not yet answered (fjord bounds it by default)."),
    ("group.initial.rebalance.delay.ms", "How long a new classic group waits for more members before its first rebalance."),
    ("group.min.session.timeout.ms", "The shortest session timeout a classic member may ask for."),
    ("group.max.session.timeout.ms", "The longest session timeout a classic member may ask for."),
    ("group.max.size", "The most members of a classic group."),
    ("group.coordinator.rebalance.protocols", "The group protocols served (classic, consumer)."),
    ("group.consumer.session.timeout.ms", "How long a consumer-protocol member may go without heartbeating before it is removed."),
    ("group.consumer.min.session.timeout.ms", "The shortest group.consumer.session.timeout.ms allowed."),
    ("group.consumer.max.session.timeout.ms", "The longest group.consumer.session.timeout.ms allowed."),
    ("group.consumer.heartbeat.interval.ms", "How often consumer-protocol members are told to heartbeat."),
    ("group.consumer.min.heartbeat.interval.ms", "The shortest group.consumer.heartbeat.interval.ms allowed."),
    ("group.consumer.max.heartbeat.interval.ms", "The longest group.consumer.heartbeat.interval.ms allowed."),
    ("group.consumer.max.size", "The most members of a consumer-protocol group."),
    ("group.consumer.migration.policy", "The online migrations allowed between classic and consumer groups with members (disabled, upgrade, downgrade, bidirectional)."),
    ("group.consumer.assignors", "The server-side assignors of consumer-protocol groups, the first the default (uniform, range)."),
    ("offset.metadata.max.bytes", "The largest metadata string an offset commit may carry."),
    ("offsets.retention.minutes", "How long the committed offsets of an empty group are kept."),
    ("offsets.retention.check.interval.ms", "How often committed offsets are checked for expiry."),
    ("offsets.topic.segment.bytes", "The segment size of __consumer_offsets."),
    ("share.coordinator.state.topic.num.partitions", "The partitions of __share_group_state."),
    ("share.coordinator.state.topic.replication.factor", "The replication factor of __share_group_state."),
    ("share.coordinator.state.topic.min.isr", "The min.insync.replicas of __share_group_state."),
    ("share.coordinator.state.topic.segment.bytes", "The segment size of __share_group_state."),
    ("share.coordinator.snapshot.update.records.per.snapshot", "The updates of a share-partition's state after which the next write is a snapshot."),
    ("share.coordinator.state.topic.prune.interval.ms", "How often the records of __share_group_state no share-partition needs any more are deleted."),
    ("group.share.session.timeout.ms", "How long a share group member may go without a heartbeat before it is removed (a group's share.session.timeout.ms overrides it)."),
    ("group.share.heartbeat.interval.ms", "How often share group members heartbeat (a group's share.heartbeat.interval.ms overrides it)."),
    ("group.share.max.size", "The most members one share group may have."),
    ("group.share.record.lock.duration.ms", "How long a share consumer holds the records it acquired before they are delivered again (a group's share.record.lock.duration.ms overrides it)."),
    ("group.share.delivery.count.limit", "How many times a record is delivered to a share group before it is archived, or sent to the group's dead-letter queue (a group's share.delivery.count.limit overrides it)."),
    ("group.share.partition.max.record.locks", "The most records of one share-partition that may be in flight (acquired or not yet settled) at once."),
    ("group.share.max.share.sessions", "The most share sessions one broker holds."),
    ("errors.deadletterqueue.auto.create.topics.enable", "Whether a share group's dead-letter queue topic is created when it does not exist (KIP-1191)."),
    ("errors.deadletterqueue.topic.name.prefix", "The prefix every share group's dead-letter queue topic name must start with (empty: any name but __...)."),
    ("max.incremental.fetch.session.cache.slots", "The most incremental fetch sessions kept."),
    ("min.incremental.fetch.session.eviction.ms", "The shortest time a fetch session is kept before it may be evicted."),
    ("producer.id.expiration.check.interval.ms", "How often idle producer ids are looked for."),
    ("metrics.listener", "The address GET /metrics is served on (fjord's)."),
    ("security.inter.broker.protocol", "The security protocol brokers use with each other."),
    ("sasl.mechanism.controller.protocol", "The SASL mechanism used with the controllers."),
    ("sasl.server.max.receive.size", "The largest SASL message accepted before authentication."),
    ("connections.max.reauth.ms", "How long an authenticated connection lasts before it must authenticate again."),
    ("delegation.token.secret.key", "The key that signs and checks delegation tokens; set the same key on every broker and controller. Empty or unset turns tokens off."),
    ("delegation.token.max.lifetime.ms", "The longest a delegation token lives, however often it is renewed (7 days by default)."),
    ("delegation.token.expiry.time.ms", "How long a delegation token stays valid before it must be renewed (1 day by default)."),
    ("delegation.token.expiry.check.interval.ms", "How often the active controller removes expired delegation tokens."),
    ("connection.failed.authentication.delay.ms", "How long the answer to a failed authentication is held back."),
    ("ssl.principal.mapping.rules", "The rules that map a client certificate's name to a principal."),
    ("authorizer.class.name", "The authorizer of requests (StandardAuthorizer turns ACLs on)."),
    ("super.users", "Principals allowed everything."),
    ("allow.everyone.if.no.acl.found", "Whether a resource without ACLs is open to everyone."),
];

/// Sets each described config's documentation when the request asked for it (null
/// otherwise, as Kafka answers).
pub fn document(
    response: &mut fjord_protocol::generated::describe_configs_response::DescribeConfigsResponse,
    include: bool,
) {
    for r in &mut response.results {
        for c in &mut r.configs {
            c.documentation = if include {
                documentation(&c.name).map(str::to_string)
            } else {
                None
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config_defs::{broker, topic, LISTENER_KEYS, OTHER_DYNAMIC_KEYS, SSL_STORE_KEYS};

    #[test]
    fn every_topic_and_dynamic_broker_key_is_documented() {
        let keys = topic::ALL
            .iter()
            .chain(broker::ALL)
            .map(|d| d.name)
            .chain(SSL_STORE_KEYS.iter().map(|(k, _)| *k))
            .chain(LISTENER_KEYS.iter().map(|(k, _)| *k))
            .chain(OTHER_DYNAMIC_KEYS.iter().map(|(k, _)| *k));
        for key in keys {
            let doc = documentation(key).unwrap_or_else(|| panic!("{key} has no documentation"));
            assert!(doc.ends_with('.') || doc.ends_with(')'), "{key}: {doc}");
        }
        assert_eq!(
            documentation("listener.name.external.ssl.keystore.location"),
            documentation("ssl.keystore.location")
        );
        assert_eq!(documentation("no.such.key"), None);
    }
}
