#!/usr/bin/env bash
# Runs Apache Kafka 4.4.0, the reference fjord is compared with, on this machine: its jars come
# from Maven Central (tests/kafka/pom.xml), its nodes listen on 127.0.0.1 only, on ports below
# 32768 (a node restarted on its old port never meets a client that connected to itself).
#
#   kafka.sh fetch                         the jars into target/kafka-4.4.0/libs (once)
#   kafka.sh start DIR NODES BASE [--split] format and start a cluster in DIR, print bootstrap
#       NODES brokers with ids 1..NODES. Combined (default): each node is broker and
#       controller, the voters are all of them. --split: one controller-only node (id 100,
#       port BASE+1) and NODES broker-only nodes. Node i's broker listens on BASE+10*i, its
#       controller (combined) on BASE+10*i+1. Extra broker properties: KAFKA_EXTRA (lines).
#       KAFKA_LOG_DIRS=N gives each node N log dirs (data, data2, ...; default 1), and then
#       the metadata log a dir of its own (meta). KAFKA_RELEASE_VERSION (for example 4.3)
#       formats the cluster at an older metadata.version. KAFKA_JVM_OPTS adds JVM options (for
#       example -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=...). KAFKA_HEAP sets each node's heap
#       (default 768m).
#   kafka.sh kill DIR ID                   SIGKILL node ID
#   kafka.sh restart DIR ID                start node ID again (its data kept), wait for it
#   kafka.sh stop DIR                      SIGKILL every node of DIR
#   kafka.sh run CLASS ARGS...             run a Kafka class (a tool's main) with the jars
#   kafka.sh bootstrap DIR                 print the brokers' bootstrap list
#   kafka.sh rsm                           compile tests/kafka/rsm (a RemoteStorageManager over a
#       directory, dev.fjord.tiered.DirectoryStorageManager, for tiered storage on the
#       reference) into libs/fjord-rsm.jar (once); print its path
#   kafka.sh telemetry                     compile tests/kafka/telemetry (a client telemetry
#       receiver, dev.fjord.telemetry.Receiver: with metric.reporters naming it, Kafka serves
#       KIP-714's APIs) into libs/fjord-telemetry.jar (once); print its path
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
home=${FJORD_KAFKA_HOME:-$root/target/kafka-4.4.0}
libs=$home/libs

die() { echo "kafka.sh: $*" >&2; exit 1; }

ensure_java() {
    if command -v java > /dev/null && command -v mvn > /dev/null; then
        return
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless maven > /dev/null
}

fetch() {
    if [ -f "$libs/kafka_2.13-4.4.0.jar" ] && [ -f "$libs/kafka-tools-4.4.0.jar" ] \
        && [ -f "$libs/log4j-slf4j2-impl-2.25.5.jar" ]; then
        return
    fi
    ensure_java
    mkdir -p "$libs"
    mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$libs" \
        -DincludeScope=runtime > "$home/fetch.log" 2>&1 || { cat "$home/fetch.log" >&2; die "fetching the 4.4.0 jars failed"; }
}

rsm() {
    plugin "$libs/fjord-rsm.jar" "$here/rsm/dev/fjord/tiered/DirectoryStorageManager.java"
}

telemetry() {
    plugin "$libs/fjord-telemetry.jar" "$here/telemetry/dev/fjord/telemetry/Receiver.java"
}

# Compiles one plugin source ($2) against the jars into jar $1 (again when the source is
# newer); prints the jar's path.
plugin() {
    fetch
    local jar=$1
    local src=$2
    if [ ! -f "$jar" ] || [ "$src" -nt "$jar" ]; then
        local out
        out=$(mktemp -d)
        javac -d "$out" -cp "$libs/*" "$src" || die "compiling $src failed"
        jar cf "$jar" -C "$out" .
        rm -rf "$out"
    fi
    echo "$jar"
}

java_run() {
    # A tool's own log file goes to a scratch dir, never into the caller's working directory.
    local logs="${TMPDIR:-/tmp}/kafka-tool-logs"
    mkdir -p "$logs"
    java -Xmx512m -XX:+UseG1GC -Dlog4j2.configurationFile="$here/log4j2.properties" \
        -Dkafka.logs.dir="$logs" -cp "$libs/*" "$@"
}

# Waits until 127.0.0.1:$1 accepts a connection (up to 90 s).
wait_port() {
    for _ in $(seq 1 450); do
        if (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; then
            return 0
        fi
        sleep 0.2
    done
    return 1
}

# Writes node $2's properties into cluster dir $1 (roles $3, broker port $4, controller port $5).
node_props() {
    local dir=$1 id=$2 roles=$3 bport=$4 cport=$5 voters=$6
    local nd=$dir/node-$id
    local dirs="$nd/data" i
    for i in $(seq 2 "${KAFKA_LOG_DIRS:-1}"); do dirs="$dirs,$nd/data$i"; done
    mkdir -p "$nd/data" "$nd/logs"
    {
        echo "node.id=$id"
        echo "process.roles=$roles"
        echo "controller.quorum.voters=$voters"
        echo "controller.listener.names=CONTROLLER"
        echo "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
        echo "inter.broker.listener.name=PLAINTEXT"
        case $roles in
            broker,controller)
                echo "listeners=PLAINTEXT://127.0.0.1:$bport,CONTROLLER://127.0.0.1:$cport"
                echo "advertised.listeners=PLAINTEXT://127.0.0.1:$bport" ;;
            broker)
                echo "listeners=PLAINTEXT://127.0.0.1:$bport"
                echo "advertised.listeners=PLAINTEXT://127.0.0.1:$bport" ;;
            controller)
                echo "listeners=CONTROLLER://127.0.0.1:$cport" ;;
        esac
        echo "log.dirs=$dirs"
        # With several log dirs the metadata log has its own, so that a failing data dir
        # takes its replicas offline, not the whole broker.
        [ "${KAFKA_LOG_DIRS:-1}" -gt 1 ] && echo "metadata.log.dir=$nd/meta"
        echo "offsets.topic.replication.factor=1"
        echo "transaction.state.log.replication.factor=1"
        echo "transaction.state.log.min.isr=1"
        echo "share.coordinator.state.topic.replication.factor=1"
        echo "share.coordinator.state.topic.min.isr=1"
        echo "group.initial.rebalance.delay.ms=0"
        echo "${KAFKA_EXTRA:-}"
    } > "$nd/server.properties"
    echo "$roles $bport $cport" > "$nd/ports"
}

start_node() {
    local dir=$1 id=$2
    local nd=$dir/node-$id
    [ -f "$nd/server.properties" ] || die "no node $id in $dir"
    # shellcheck disable=SC2086 # KAFKA_JVM_OPTS is a list of options.
    LOG_DIR=$nd/logs nohup java -Xmx"${KAFKA_HEAP:-768m}" ${KAFKA_JVM_OPTS:-} -XX:+UseG1GC -Dkafka.logs.dir="$nd/logs" \
        -Dlog4j2.configurationFile="$here/log4j2.properties" -cp "$libs/*" \
        kafka.Kafka "$nd/server.properties" > "$nd/logs/stdout.log" 2>&1 &
    echo $! > "$nd/pid"
}

wait_node() {
    local dir=$1 id=$2
    local nd=$dir/node-$id
    read -r roles bport cport < "$nd/ports"
    local port=$bport
    [ "$roles" = controller ] && port=$cport
    wait_port "$port" || { tail -n 40 "$nd/logs/server.log" >&2 || true; die "node $id did not listen on $port"; }
}

bootstrap() {
    local dir=$1 out=""
    for nd in "$dir"/node-*; do
        read -r roles bport _ < "$nd/ports"
        [ "$roles" = controller ] && continue
        out="${out:+$out,}127.0.0.1:$bport"
    done
    echo "$out"
}

start() {
    local dir=$1 nodes=$2 base=$3 split=${4:-}
    [ "$base" -ge 1024 ] && [ $((base + 10 * nodes + 1)) -lt 32768 ] || die "ports must lie in 1024..32767"
    fetch
    mkdir -p "$dir"
    local id voters="" cluster
    if [ "$split" = --split ]; then
        voters="100@127.0.0.1:$((base + 1))"
        node_props "$dir" 100 controller 0 $((base + 1)) "$voters"
        for id in $(seq 1 "$nodes"); do
            node_props "$dir" "$id" broker $((base + 10 * id)) 0 "$voters"
        done
    else
        for id in $(seq 1 "$nodes"); do
            voters="${voters:+$voters,}$id@127.0.0.1:$((base + 10 * id + 1))"
        done
        for id in $(seq 1 "$nodes"); do
            node_props "$dir" "$id" broker,controller $((base + 10 * id)) $((base + 10 * id + 1)) "$voters"
        done
    fi
    cluster=$(java_run kafka.tools.StorageTool random-uuid 2> /dev/null | tail -n 1)
    for nd in "$dir"/node-*; do
        java_run kafka.tools.StorageTool format -t "$cluster" -c "$nd/server.properties" \
            ${KAFKA_RELEASE_VERSION:+--release-version "$KAFKA_RELEASE_VERSION"} \
            > "$nd/logs/format.log" 2>&1 || { cat "$nd/logs/format.log" >&2; die "format failed"; }
    done
    for nd in "$dir"/node-*; do
        start_node "$dir" "${nd##*-}"
    done
    for nd in "$dir"/node-*; do
        wait_node "$dir" "${nd##*-}"
    done
    bootstrap "$dir"
}

kill_node() {
    local nd=$1/node-$2
    [ -f "$nd/pid" ] || return 0
    kill -9 "$(cat "$nd/pid")" 2> /dev/null || true
    # Wait until the process is gone, so its ports are free for a restart.
    while kill -0 "$(cat "$nd/pid")" 2> /dev/null; do sleep 0.1; done
    rm -f "$nd/pid"
}

cmd=${1:-}
shift || true
case $cmd in
    fetch) fetch; echo "$libs" ;;
    start) [ $# -ge 3 ] || die "usage: start DIR NODES BASE [--split]"; start "$@" ;;
    kill) kill_node "$1" "$2" ;;
    restart) start_node "$1" "$2"; wait_node "$1" "$2" ;;
    stop) for nd in "$1"/node-*; do kill_node "$1" "${nd##*-}"; done ;;
    run) fetch; java_run "$@" ;;
    bootstrap) bootstrap "$1" ;;
    rsm) rsm ;;
    telemetry) telemetry ;;
    *) die "usage: fetch | start DIR NODES BASE [--split] | kill DIR ID | restart DIR ID | stop DIR | run CLASS ARGS... | bootstrap DIR | rsm" ;;
esac
