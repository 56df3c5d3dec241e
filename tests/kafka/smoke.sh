#!/usr/bin/env bash
# The Apache Kafka 4.4 reference runs here: tests/kafka/kafka.sh starts a split cluster (a
# controller and three brokers on loopback), Kafka's own kafka-topics creates a topic, and
# fjord's kafka-topics describes it exactly as Kafka's does, before and after a broker is
# SIGKILLed and restarted on its old port. Usage: smoke.sh FJORD_BINARY
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fjord=$(realpath "$1")
k=$here/kafka.sh
dir=$(mktemp -d)
trap '"$k" stop "$dir" || true; rm -rf "$dir"' EXIT
passed=0
failed=0
check() {
    if [ "$2" = "$3" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'kafka-reference: %s differs\n--- Kafka 4.4:\n%s\n--- fjord:\n%s\n' "$1" "$2" "$3"
    fi
}
describe_both() {
    kafka_out=$("$k" run org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" \
        --describe --topic smoke 2> /dev/null)
    fjord_out=$("$fjord" kafka-topics --bootstrap-server "$bootstrap" --describe --topic smoke)
}
# Waits (up to 60 s, polling with fjord's tool: a JVM start per poll would be slow) until
# every partition of the topic has ISR size $1 ("Isr: a,b,c" has $1 - 1 commas).
wait_isr() {
    local want=$1 out
    for _ in $(seq 1 300); do
        out=$("$fjord" kafka-topics --bootstrap-server "$bootstrap" --describe --topic smoke 2> /dev/null || true)
        if [ "$(grep -cE "Isr: [0-9]+(,[0-9]+){$((want - 1))}\s" <<< "$out")" = 2 ]; then
            describe_both
            return 0
        fi
        sleep 0.2
    done
    echo "kafka-reference: the ISR never held $want replicas: $out"
    return 1
}

export KAFKA_EXTRA="broker.session.timeout.ms=3000
broker.heartbeat.interval.ms=500
replica.lag.time.max.ms=3000"
bootstrap=$("$k" start "$dir" 3 22000 --split)
"$k" run org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create \
    --topic smoke --partitions 2 --replication-factor 3 --config min.insync.replicas=2 > /dev/null 2>&1
wait_isr 3
check "kafka-topics --describe" "$kafka_out" "$fjord_out"
"$k" kill "$dir" 3
wait_isr 2
check "kafka-topics --describe with broker 3 down" "$kafka_out" "$fjord_out"
check "--under-replicated-partitions" \
    "$("$k" run org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --describe --under-replicated-partitions 2> /dev/null)" \
    "$("$fjord" kafka-topics --bootstrap-server "$bootstrap" --describe --under-replicated-partitions)"
check "--at-min-isr-partitions" \
    "$("$k" run org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --describe --at-min-isr-partitions 2> /dev/null)" \
    "$("$fjord" kafka-topics --bootstrap-server "$bootstrap" --describe --at-min-isr-partitions)"
"$k" restart "$dir" 3
wait_isr 3
check "kafka-topics --describe after the restart" "$kafka_out" "$fjord_out"
echo "kafka-reference: $passed passed, $failed failed"
[ "$failed" = 0 ]
