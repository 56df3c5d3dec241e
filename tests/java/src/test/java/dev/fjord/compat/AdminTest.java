package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.BrokerIdNotRegisteredException;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every Admin method whose APIs fjord serves, on three nodes with the standard authorizer
 * (the PLAINTEXT principal, User:ANONYMOUS, is a super user). Refusals carry Kafka's error
 * class and message.
 */
class AdminTest {
    private static FjordCluster cluster;
    private static Admin admin;

    /** Every operation a topic supports, as Kafka's AclEntry lists them. */
    private static final Set<AclOperation> TOPIC_OPS = EnumSet.of(AclOperation.READ, AclOperation.WRITE,
            AclOperation.CREATE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE,
            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
    /** Every operation the cluster supports. */
    private static final Set<AclOperation> CLUSTER_OPS = EnumSet.of(AclOperation.CREATE, AclOperation.ALTER,
            AclOperation.DESCRIBE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE);

    @BeforeAll
    static void start() {
        cluster = FjordCluster.start(3, String.join("\n",
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users=User:ANONYMOUS"));
        admin = cluster.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    static <T> T get(org.apache.kafka.common.KafkaFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    /** The cause of the future's failure, which must be of class c. */
    static <E extends Throwable> E failure(Class<E> c, org.apache.kafka.common.KafkaFuture<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        return assertInstanceOf(c, e.getCause(), String.valueOf(e.getCause()));
    }

    @Test
    void topicsLifecycleAndRefusals() throws Exception {
        get(admin.createTopics(List.of(new NewTopic("a-topic", 3, (short) 3))).all());
        // CreateTopics answers once the controller committed; each broker learns it as its
        // metadata catches up (on Kafka too).
        FjordCluster.waitFor("the topic listed", Duration.ofSeconds(30), () -> {
            try {
                return get(admin.listTopics().names()).contains("a-topic");
            } catch (Exception e) {
                return false;
            }
        });
        TopicExistsException exists = failure(TopicExistsException.class,
                admin.createTopics(List.of(new NewTopic("a-topic", 3, (short) 3))).all());
        assertEquals("Topic 'a-topic' already exists.", exists.getMessage());
        failure(InvalidReplicationFactorException.class,
                admin.createTopics(List.of(new NewTopic("too-many", 1, (short) 4))).all());
        failure(InvalidConfigurationException.class, admin.createTopics(List.of(
                new NewTopic("bad-config", 1, (short) 1).configs(Map.of("cleanup.policy", "sideways")))).all());
        failure(UnknownTopicOrPartitionException.class,
                admin.describeTopics(List.of("no-such-topic")).allTopicNames());

        get(admin.createPartitions(Map.of("a-topic", NewPartitions.increaseTo(5))).all());
        FjordCluster.waitFor("5 partitions", Duration.ofSeconds(30), () -> {
            try {
                return get(admin.describeTopics(List.of("a-topic")).allTopicNames()).get("a-topic").partitions().size() == 5;
            } catch (Exception e) {
                return false;
            }
        });
        failure(InvalidPartitionsException.class,
                admin.createPartitions(Map.of("a-topic", NewPartitions.increaseTo(2))).all());

        get(admin.deleteTopics(List.of("a-topic")).all());
        FjordCluster.waitFor("the topic gone", Duration.ofSeconds(30), () -> {
            try {
                return !get(admin.listTopics().names()).contains("a-topic");
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    void describeTopicsWithAuthorizedOperations() throws Exception {
        cluster.createTopic("ops", 2, 3);
        TopicDescription d = get(admin.describeTopics(List.of("ops"),
                new DescribeTopicsOptions().includeAuthorizedOperations(true)).allTopicNames()).get("ops");
        assertEquals(TOPIC_OPS, d.authorizedOperations());
        assertNotNull(d.topicId());
        assertEquals(2, d.partitions().size());
        TopicDescription plain = get(admin.describeTopics(List.of("ops")).allTopicNames()).get("ops");
        assertEquals(null, plain.authorizedOperations(), "not asked for, not answered");
    }

    @Test
    void describeClusterWithAuthorizedOperations() throws Exception {
        var r = admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true));
        assertEquals(3, get(r.nodes()).size());
        assertNotNull(get(r.clusterId()));
        assertTrue(get(r.controller()).id() >= 1);
        assertEquals(CLUSTER_OPS, get(r.authorizedOperations()));
    }

    @Test
    void configsWithSynonyms() throws Exception {
        cluster.createTopic("configured", 1, 3, Map.of("retention.ms", "3600000"));
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "configured");
        FjordCluster.waitFor("the topic's config on the broker asked", Duration.ofSeconds(30), () -> {
            try {
                return "3600000".equals(get(admin.describeConfigs(List.of(topic)).all()).get(topic)
                        .get("retention.ms").value());
            } catch (Exception e) {
                return false;
            }
        });
        Config c = get(admin.describeConfigs(List.of(topic), new DescribeConfigsOptions().includeSynonyms(true)
                .includeDocumentation(true)).all()).get(topic);
        ConfigEntry retention = c.get("retention.ms");
        assertEquals("3600000", retention.value());
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, retention.source());
        // Kafka 4.4 lists only the first broker synonym (log.retention.ms, unset, no default);
        // fjord also lists the one that carries the default (docs/EXTENSIONS.md).
        List<String> expected = cluster.isKafka()
                ? List.of("retention.ms=3600000 DYNAMIC_TOPIC_CONFIG")
                : List.of("retention.ms=3600000 DYNAMIC_TOPIC_CONFIG", "log.retention.hours=168 DEFAULT_CONFIG");
        assertEquals(expected, retention.synonyms().stream()
                .map(x -> x.name() + "=" + x.value() + " " + x.source()).toList());
        assertEquals(List.of("log.segment.bytes=1073741824 DEFAULT_CONFIG"), c.get("segment.bytes").synonyms()
                .stream().map(x -> x.name() + "=" + x.value() + " " + x.source()).toList());
        assertNotNull(retention.documentation());
        ConfigEntry segment = c.get("segment.bytes");
        assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, segment.source());

        get(admin.incrementalAlterConfigs(Map.of(topic, List.of(
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("retention.ms", null), AlterConfigOp.OpType.DELETE)))).all());
        // Each broker answers from its own metadata, which catches up (on Kafka too).
        FjordCluster.waitFor("the altered configs", Duration.ofSeconds(30), () -> {
            try {
                Config after = get(admin.describeConfigs(List.of(topic)).all()).get(topic);
                return "compact".equals(after.get("cleanup.policy").value())
                        && after.get("retention.ms").source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG;
            } catch (Exception e) {
                return false;
            }
        });

        failure(InvalidConfigurationException.class, admin.incrementalAlterConfigs(Map.of(topic, List.of(
                new AlterConfigOp(new ConfigEntry("min.insync.replicas", "zero"), AlterConfigOp.OpType.SET)))).all());

        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        Config b = get(admin.describeConfigs(List.of(broker), new DescribeConfigsOptions().includeSynonyms(true)).all()).get(broker);
        assertEquals("1", b.get("node.id").value());
        assertEquals(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG, b.get("node.id").source());
        ConfigResource defaults = new ConfigResource(ConfigResource.Type.BROKER, "");
        get(admin.incrementalAlterConfigs(Map.of(defaults, List.of(new AlterConfigOp(
                new ConfigEntry("log.retention.ms", "7200000"), AlterConfigOp.OpType.SET)))).all());
        FjordCluster.waitFor("the cluster default on broker 2", Duration.ofSeconds(30), () -> {
            try {
                ConfigResource two = new ConfigResource(ConfigResource.Type.BROKER, "2");
                ConfigEntry e = get(admin.describeConfigs(List.of(two)).all()).get(two).get("log.retention.ms");
                return "7200000".equals(e.value()) && e.source() == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG;
            } catch (Exception e) {
                return false;
            }
        });
        get(admin.incrementalAlterConfigs(Map.of(defaults, List.of(new AlterConfigOp(
                new ConfigEntry("log.retention.ms", null), AlterConfigOp.OpType.DELETE)))).all());
    }

    @Test
    void reassignmentsAndElections() throws Exception {
        cluster.createTopic("moved", 1, 2);
        TopicPartition tp = new TopicPartition("moved", 0);
        TopicDescription d = get(admin.describeTopics(List.of("moved")).allTopicNames()).get("moved");
        List<Integer> replicas = d.partitions().get(0).replicas().stream().map(n -> n.id()).toList();
        int missing = List.of(1, 2, 3).stream().filter(i -> !replicas.contains(i)).findFirst().orElseThrow();
        List<Integer> target = List.of(missing, replicas.get(0));
        get(admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(target)))).all());
        FjordCluster.waitFor("the reassignment to finish", Duration.ofSeconds(60), () -> {
            try {
                TopicDescription now = get(admin.describeTopics(List.of("moved")).allTopicNames()).get("moved");
                return get(admin.listPartitionReassignments().reassignments()).isEmpty()
                        && now.partitions().get(0).replicas().stream().map(n -> n.id()).toList().equals(target);
            } catch (Exception e) {
                return false;
            }
        });
        // The preferred leader is now `missing`: a preferred election moves leadership there
        // (or was already done by the reassignment).
        var preferred = admin.electLeaders(ElectionType.PREFERRED, Set.of(tp)).partitions();
        Optional<Throwable> outcome = get(preferred).get(tp);
        outcome.ifPresent(t -> assertInstanceOf(ElectionNotNeededException.class, t));
        FjordCluster.waitFor("the preferred leader", Duration.ofSeconds(30), () -> {
            try {
                return get(admin.describeTopics(List.of("moved")).allTopicNames()).get("moved")
                        .partitions().get(0).leader().id() == missing;
            } catch (Exception e) {
                return false;
            }
        });
        // An unclean election with a live ISR leader is not needed.
        Optional<Throwable> unclean = get(admin.electLeaders(ElectionType.UNCLEAN, Set.of(tp)).partitions()).get(tp);
        assertTrue(unclean.isPresent());
        assertInstanceOf(ElectionNotNeededException.class, unclean.get());
    }

    @Test
    void logDirsAndRecords() throws Exception {
        cluster.createTopic("dirs", 1, 3);
        produce("dirs", 100);
        var dirs = get(admin.describeLogDirs(List.of(1, 2, 3)).allDescriptions());
        assertEquals(3, dirs.size());
        TopicPartition tp = new TopicPartition("dirs", 0);
        for (var perBroker : dirs.values()) {
            long size = perBroker.values().stream().filter(d -> d.replicaInfos().containsKey(tp))
                    .mapToLong(d -> d.replicaInfos().get(tp).size()).sum();
            assertTrue(size > 0, "every replica holds the records");
        }
        var replicaDirs = get(admin.describeReplicaLogDirs(List.of(new org.apache.kafka.common.TopicPartitionReplica("dirs", 0, 1))).all());
        assertNotNull(replicaDirs.values().iterator().next().getCurrentReplicaLogDir());

        ListOffsetsResult earliest = admin.listOffsets(Map.of(tp, OffsetSpec.earliest()));
        assertEquals(0L, get(earliest.partitionResult(tp)).offset());
        assertEquals(100L, get(admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp)).offset());
        assertEquals(99L, get(admin.listOffsets(Map.of(tp, OffsetSpec.maxTimestamp())).partitionResult(tp)).offset());

        var deleted = get(admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(40))).lowWatermarks().get(tp));
        assertEquals(40L, deleted.lowWatermark());
        assertEquals(40L, get(admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp)).offset());
    }

    @Test
    void producersAndTransactions() throws Exception {
        cluster.createTopic("txns", 1, 3);
        Properties p = ProducerTest.producerProps(cluster);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "admin-txn");
        TopicPartition tp = new TopicPartition("txns", 0);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txns", "open"));
            producer.flush();

            List<ProducerState> states = get(admin.describeProducers(List.of(tp)).partitionResult(tp)).activeProducers();
            assertEquals(1, states.size());
            ProducerState s = states.get(0);
            assertTrue(s.currentTransactionStartOffset().isPresent(), "the open transaction's first offset");

            Collection<TransactionListing> listed = get(admin.listTransactions().all());
            assertTrue(listed.stream().anyMatch(l -> l.transactionalId().equals("admin-txn")), listed.toString());
            var described = get(admin.describeTransactions(List.of("admin-txn")).description("admin-txn"));
            assertEquals(Set.of(tp), described.topicPartitions());

            // An operator ends the hanging transaction, then fences the producer.
            get(admin.abortTransaction(new AbortTransactionSpec(tp, s.producerId(), (short) s.producerEpoch(),
                    s.coordinatorEpoch().orElse(-1))).all());
            FjordCluster.waitFor("no open transaction on the partition", Duration.ofSeconds(30), () -> {
                try {
                    return get(admin.describeProducers(List.of(tp)).partitionResult(tp)).activeProducers().stream()
                            .noneMatch(x -> x.currentTransactionStartOffset().isPresent());
                } catch (Exception e) {
                    return false;
                }
            });
            get(admin.fenceProducers(List.of("admin-txn")).all());
            assertThrows(Exception.class, () -> {
                producer.send(new ProducerRecord<>("txns", "after")).get(30, TimeUnit.SECONDS);
                producer.commitTransaction();
            });
        }
    }

    @Test
    void groupsAndOffsets() throws Exception {
        cluster.createTopic("grouped", 2, 3);
        produce("grouped", 20);
        Properties cp = ProducerTest.consumerProps(cluster, "admin-group", "read_uncommitted");
        cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        TopicPartition p0 = new TopicPartition("grouped", 0);
        TopicPartition p1 = new TopicPartition("grouped", 1);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(cp)) {
            c.subscribe(List.of("grouped"));
            FjordCluster.waitFor("an assignment", Duration.ofSeconds(60), () -> {
                c.poll(Duration.ofMillis(100));
                return c.assignment().size() == 2;
            });
            c.commitSync(Map.of(p0, new OffsetAndMetadata(3), p1, new OffsetAndMetadata(4)));
            ConsumerGroupDescription g = get(admin.describeConsumerGroups(List.of("admin-group"),
                    new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)).all()).get("admin-group");
            assertEquals(1, g.members().size());
            assertEquals(EnumSet.of(AclOperation.READ, AclOperation.DELETE, AclOperation.DESCRIBE,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS), g.authorizedOperations());
            assertTrue(get(admin.listGroups().all()).stream().anyMatch(l -> l.groupId().equals("admin-group")));
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = get(admin.listConsumerGroupOffsets("admin-group").partitionsToOffsetAndMetadata());
        assertEquals(3L, offsets.get(p0).offset());
        assertEquals(4L, offsets.get(p1).offset());
        get(admin.alterConsumerGroupOffsets("admin-group", Map.of(p0, new OffsetAndMetadata(7))).all());
        get(admin.deleteConsumerGroupOffsets("admin-group", Set.of(p1)).all());
        offsets = get(admin.listConsumerGroupOffsets("admin-group").partitionsToOffsetAndMetadata());
        assertEquals(7L, offsets.get(p0).offset());
        assertFalse(offsets.containsKey(p1) && offsets.get(p1) != null);
        get(admin.deleteConsumerGroups(List.of("admin-group")).all());
        failure(GroupIdNotFoundException.class, admin.deleteConsumerGroups(List.of("admin-group")).all());
    }

    @Test
    void featuresAndQuorum() throws Exception {
        var features = get(admin.describeFeatures().featureMetadata());
        assertTrue(features.finalizedFeatures().containsKey("metadata.version"));
        assertTrue(features.supportedFeatures().containsKey("metadata.version"));
        short mv = features.finalizedFeatures().get("metadata.version").maxVersionLevel();
        // A dry-run of the current level is accepted.
        get(admin.updateFeatures(Map.of("metadata.version", new FeatureUpdate(mv, FeatureUpdate.UpgradeType.UPGRADE)),
                new UpdateFeaturesOptions().validateOnly(true)).all());

        QuorumInfo q = get(admin.describeMetadataQuorum().quorumInfo());
        assertEquals(3, q.voters().size());
        assertTrue(q.leaderId() >= 1);
        assertTrue(q.highWatermark() > 0);
        assertEquals(Set.of(1, 2, 3), q.voters().stream().map(QuorumInfo.ReplicaState::replicaId).collect(Collectors.toSet()));
    }

    @Test
    void unregisterUnknownBroker() {
        BrokerIdNotRegisteredException e = failure(BrokerIdNotRegisteredException.class,
                admin.unregisterBroker(99).all());
        assertNotNull(e.getMessage());
    }

    @Test
    void clientQuotas() throws Exception {
        ClientQuotaEntity user = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "quota-user"));
        get(admin.alterClientQuotas(List.of(new ClientQuotaAlteration(user, List.of(
                new ClientQuotaAlteration.Op("producer_byte_rate", 1024.0))))).all());
        FjordCluster.waitFor("the quota", Duration.ofSeconds(30), () -> {
            try {
                var q = get(admin.describeClientQuotas(ClientQuotaFilter.all()).entities());
                return q.containsKey(user) && q.get(user).get("producer_byte_rate") == 1024.0;
            } catch (Exception e) {
                return false;
            }
        });
        get(admin.alterClientQuotas(List.of(new ClientQuotaAlteration(user, List.of(
                new ClientQuotaAlteration.Op("producer_byte_rate", null))))).all());
    }

    @Test
    void scramCredentials() throws Exception {
        List<UserScramCredentialAlteration> up = List.of(new UserScramCredentialUpsertion("scram-user",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), "secret"));
        get(admin.alterUserScramCredentials(up).all());
        FjordCluster.waitFor("the credential", Duration.ofSeconds(30), () -> {
            try {
                Map<String, UserScramCredentialsDescription> d = get(admin.describeUserScramCredentials().all());
                return d.containsKey("scram-user") && d.get("scram-user").credentialInfos().get(0).iterations() == 8192;
            } catch (Exception e) {
                return false;
            }
        });
        // all() leaves a named user without credentials out; description() fails for it.
        var nobody = admin.describeUserScramCredentials(List.of("nobody"));
        failure(ResourceNotFoundException.class, nobody.description("nobody"));
    }

    @Test
    void acls() throws Exception {
        AclBinding binding = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "acl-", PatternType.PREFIXED),
                new AccessControlEntry("User:bob", "*", AclOperation.READ, AclPermissionType.ALLOW));
        get(admin.createAcls(List.of(binding)).all());
        AclBindingFilter bob = new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:bob", null, AclOperation.ANY, AclPermissionType.ANY));
        FjordCluster.waitFor("the ACL", Duration.ofSeconds(30), () -> {
            try {
                return get(admin.describeAcls(bob).values()).contains(binding);
            } catch (Exception e) {
                return false;
            }
        });
        assertEquals(List.of(binding), List.copyOf(get(admin.deleteAcls(List.of(bob)).all())));
    }

    /** Produces n records to partition 0, record i with timestamp now - n + i (distinct, rising). */
    private static void produce(String topic, int n) {
        Properties p = ProducerTest.producerProps(cluster);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        long now = System.currentTimeMillis();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, 0, now - n + i, null, Integer.toString(i)));
            }
            producer.flush();
        }
    }
}
