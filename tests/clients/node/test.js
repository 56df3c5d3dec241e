// Scenarios of kafkajs (Node's most used pure-JavaScript Kafka client) against a real fjord
// node: admin, idempotent produce, a consumer group that commits and resumes, offsets reset
// to the EARLIEST sentinel (also after DeleteRecords), a consumer seeking past the end,
// DescribeConfigs right after CreateTopics, and transactions with read_committed. Run by tests/clients/run.py, which starts the node;
// usage: node test.js BOOTSTRAP [NAME-PART] (only the scenarios whose name has it). Prints "kafkajs: N passed, M failed".
"use strict";
const { Kafka, logLevel } = require("kafkajs");

const kafka = new Kafka({ clientId: "fjord-kafkajs", brokers: [process.argv[2]], logLevel: logLevel.NOTHING });

function range(from, to) {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

function expectRange(got, from, to) {
  const sorted = [...got].sort((a, b) => a - b);
  const want = range(from, to);
  if (sorted.length !== want.length || sorted.some((v, i) => v !== want[i])) {
    throw new Error(`read ${sorted.length} records (${sorted.slice(0, 5)}...), want ${from}..${to - 1} once each`);
  }
}

async function produce(producer, topic, from, to) {
  const messages = range(from, to).map((i) => ({ value: String(i), partition: i % 3 }));
  return producer.send({ topic, acks: -1, messages });
}

// Runs a consumer in `groupId` (from the start) until it has `want` records; the values.
async function consumeGroup(groupId, topic, want, opts = {}) {
  const consumer = kafka.consumer({ groupId, ...opts });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const got = [];
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  await consumer.run({
    autoCommit: true,
    autoCommitThreshold: 1,
    eachMessage: async ({ message }) => {
      got.push(Number(message.value.toString()));
      if (got.length >= want) done();
    },
  });
  const timer = new Promise((_, reject) => setTimeout(() => reject(new Error(`read ${got.length} of ${want}`)), 60000));
  try {
    await Promise.race([finished, timer]);
  } finally {
    await consumer.disconnect();
  }
  return got;
}

const checks = [
  ["admin: create, list and describe topics", async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [
          { topic: "js-data", numPartitions: 3, replicationFactor: 1, configEntries: [{ name: "retention.ms", value: "3600000" }] },
          { topic: "js-txn", numPartitions: 3, replicationFactor: 1 },
        ],
      });
      const topics = await admin.listTopics();
      if (!topics.includes("js-data") || !topics.includes("js-txn")) throw new Error(`listed ${topics}`);
      const meta = await admin.fetchTopicMetadata({ topics: ["js-data"] });
      if (meta.topics[0].partitions.length !== 3) throw new Error(JSON.stringify(meta));
      const cfg = await admin.describeConfigs({ resources: [{ type: 2, name: "js-data" }], includeSynonyms: false });
      const entry = cfg.resources[0].configEntries.find((e) => e.configName === "retention.ms");
      if (!entry || entry.configValue !== "3600000") throw new Error(`retention.ms is ${JSON.stringify(entry)}`);
    } finally {
      await admin.disconnect();
    }
  }],
  ["idempotent produce: offsets dense per partition", async () => {
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      for (let b = 0; b < 3; b++) await produce(producer, "js-data", b * 1000, b * 1000 + 1000);
    } finally {
      await producer.disconnect();
    }
    const admin = kafka.admin();
    await admin.connect();
    try {
      const offsets = await admin.fetchTopicOffsets("js-data");
      for (const o of offsets) {
        if (o.high !== "1000") throw new Error(`partition ${o.partition} ends at ${o.high}`);
      }
    } finally {
      await admin.disconnect();
    }
  }],
  ["consumer group: commits, then resumes after the last commit", async () => {
    expectRange(await consumeGroup("js-group", "js-data", 3000), 0, 3000);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await produce(producer, "js-data", 3000, 3030);
    await producer.disconnect();
    expectRange(await consumeGroup("js-group", "js-data", 30), 3000, 3030);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const offsets = await admin.fetchOffsets({ groupId: "js-group", topics: ["js-data"] });
      const total = offsets[0].partitions.reduce((s, p) => s + Number(p.offset), 0);
      if (total !== 3030) throw new Error(`committed offsets sum to ${total}, want 3030`);
    } finally {
      await admin.disconnect();
    }
  }],
  ["resetOffsets({ earliest: true }) commits -2, fetched back and resolved to the log start", async () => {
    // kafkajs commits Kafka's EARLIEST sentinel (-2); Kafka 4.4 answers it back as the
    // committed offset (not UNSTABLE_OFFSET_COMMIT), and resolveOffsets turns it into the log start.
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.resetOffsets({ groupId: "js-group", topic: "js-data", earliest: true });
      const raw = await admin.fetchOffsets({ groupId: "js-group", topics: ["js-data"] });
      const rawOffsets = raw[0].partitions.map((p) => p.offset);
      if (rawOffsets.some((o) => o !== "-2")) throw new Error(`fetched ${rawOffsets}, want -2 each`);
      const resolved = await admin.fetchOffsets({ groupId: "js-group", topics: ["js-data"], resolveOffsets: true });
      const starts = resolved[0].partitions.map((p) => p.offset);
      if (starts.some((o) => o !== "0")) throw new Error(`resolved to ${starts}, want the log start 0`);
      // Again once DeleteRecords has moved partition 0's log start to 7: -2 resolves to 7.
      await admin.deleteTopicRecords({ topic: "js-data", partitions: [{ partition: 0, offset: "7" }] });
      await admin.resetOffsets({ groupId: "js-group", topic: "js-data", earliest: true });
      const again = await admin.fetchOffsets({ groupId: "js-group", topics: ["js-data"], resolveOffsets: true });
      const moved = again[0].partitions.find((p) => p.partition === 0).offset;
      if (moved !== "7") throw new Error(`partition 0 resolved to ${moved}, want the new log start 7`);
    } finally {
      await admin.disconnect();
    }
  }],
  ["a consumer that seeks past the end carries on from its reset policy (earliest)", async () => {
    // The answer is OFFSET_OUT_OF_RANGE; kafkajs then commits the EARLIEST sentinel (-2) and
    // fetches it back, so this is the -2 fault above seen from a consumer.
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic: "js-seek", numPartitions: 1, replicationFactor: 1 }] });
    } finally {
      await admin.disconnect();
    }
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic: "js-seek", acks: -1, messages: range(0, 30).map((i) => ({ value: String(i) })) });
    await producer.disconnect();
    // First the group's committed offset lies past the end, then a seek puts it there: each
    // time the consumer must read the partition again from offset 0.
    const setter = kafka.admin();
    await setter.connect();
    try {
      await setter.setOffsets({ groupId: "js-seek-group", topic: "js-seek", partitions: [{ partition: 0, offset: "1000000" }] });
    } finally {
      await setter.disconnect();
    }
    const consumer = kafka.consumer({ groupId: "js-seek-group" });
    await consumer.connect();
    await consumer.subscribe({ topic: "js-seek", fromBeginning: true });
    const got = [];
    const waiters = [];
    const reach = (n) => new Promise((resolve, reject) => {
      waiters.push([n, resolve]);
      setTimeout(() => reject(new Error(`read ${got.length} of ${n} after the offset past the end`)), 60000);
    });
    await consumer.run({
      eachMessage: async ({ message }) => {
        got.push(Number(message.value.toString()));
        for (const [n, resolve] of waiters) if (got.length >= n) resolve();
      },
    });
    try {
      await reach(30);
      consumer.seek({ topic: "js-seek", partition: 0, offset: "1000000" });
      await reach(60);
    } finally {
      await consumer.disconnect();
    }
    expectRange(got.slice(0, 30), 0, 30);
    expectRange(got.slice(30, 60), 0, 30);
  }],
  ["describeConfigs right after createTopics: the configs, or UNKNOWN_TOPIC_OR_PARTITION until the broker knows the topic", async () => {
    // kafkajs sends both to the broker Metadata names as controller. Kafka 4.4's broker may
    // answer before its metadata has the new topic (3 of 30 times on three nodes here), and
    // fjord's broker likewise: either answer is allowed, and a retry then finds the configs.
    const once = new Kafka({ clientId: "fjord-kafkajs-once", brokers: [process.argv[2]], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
    const admin = once.admin();
    await admin.connect();
    try {
      for (let i = 0; i < 5; i++) {
        const topic = `js-describe-${i}`;
        await admin.createTopics({ waitForLeaders: false, topics: [{ topic, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: "retention.ms", value: "7200000" }] }] });
        const describe = () => admin.describeConfigs({ resources: [{ type: 2, name: topic }], includeSynonyms: false });
        let answer;
        for (let attempt = 0; !answer; attempt++) {
          try {
            answer = await describe();
          } catch (e) {
            if (e.type !== "UNKNOWN_TOPIC_OR_PARTITION") throw new Error(`answered ${e.type || e.message}, want the configs or UNKNOWN_TOPIC_OR_PARTITION`);
            if (attempt >= 50) throw new Error("still UNKNOWN_TOPIC_OR_PARTITION after 50 tries");
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        const entry = answer.resources[0].configEntries.find((e) => e.configName === "retention.ms");
        if (!entry || entry.configValue !== "7200000") throw new Error(`retention.ms is ${JSON.stringify(entry)}`);
      }
    } finally {
      await admin.disconnect();
    }
  }],
  ["transactions: committed seen by read_committed, aborted not", async () => {
    const producer = kafka.producer({ transactionalId: "js-txn-producer", idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      for (const [i, commit] of [[0, true], [1, false], [2, true]]) {
        const txn = await producer.transaction();
        await produce(txn, "js-txn", i * 10, i * 10 + 10);
        if (commit) await txn.commit();
        else await txn.abort();
      }
    } finally {
      await producer.disconnect();
    }
    // Committed 0-9, aborted 10-19, committed 20-29: a reader that saw the aborted ones would
    // have 10-19 among its first 20.
    const committed = await consumeGroup("js-rc", "js-txn", 20, { readUncommitted: false });
    expectRange(committed.filter((v) => v < 10), 0, 10);
    expectRange(committed.filter((v) => v >= 10), 20, 30);
    const all = await consumeGroup("js-ru", "js-txn", 30, { readUncommitted: true });
    expectRange(all, 0, 30);
  }],
];

(async () => {
  let failed = 0;
  const only = process.argv[3];
  for (const [name, run] of checks) {
    if (only && !name.includes(only)) continue;
    try {
      await run();
    } catch (e) {
      failed++;
      console.log(`FAILED ${name}: ${e && e.stack ? e.stack : e}`);
    }
  }
  const ran = checks.filter(([name]) => !only || name.includes(only)).length;
  console.log(`${process.env.KAFKAJS_LABEL || "kafkajs"}: ${ran - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
