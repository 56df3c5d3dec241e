#!/usr/bin/env bash
# Times librdkafka's own cooperative-rebalance test (0113, the six
# u_multiple_subscription_changes cases: eight consumers changing their subscriptions over two
# topics) against a single Kafka 4.4 node and a single fjord node, one after the other, with
# the librdkafka the `rdkafka` crate vendors (its tests are built here once, in target/).
#
#   benches/librdkafka_coop.sh            prints each case's time on each system
#
# Needs a C/C++ toolchain, OpenSSL headers, Java (for Kafka) and `cargo build -p fjord-server`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/target/librdkafka-tests
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/rdkafka-sys-*/librdkafka | tail -n 1)
if [ ! -x "$work/tests/test-runner" ]; then
    rm -rf "$work" && cp -r "$src" "$work"
    (cd "$work" && ./configure --disable-zstd --disable-lz4-ext > configure.log 2>&1 \
        && make -j"$(nproc)" libs > make.log 2>&1 && cd tests && make -j"$(nproc)" build > build.log 2>&1)
fi

run_0113() { # label bootstrap
    printf 'bootstrap.servers=%s\n' "$2" > "$work/tests/$1.conf"
    (cd "$work/tests" && LD_LIBRARY_PATH=../src:../src-cpp RDKAFKA_TEST_CONF="$1.conf" TESTS=0113 \
        SUBTESTS=u_multiple TEST_KAFKA_VERSION=4.0.0 timeout 1200 ./test-runner > "$1.log" 2>&1) || true
    grep -o 'use_rebalance_cb: [01], subscription_variation: [0-9]: PASS ([0-9.]*s)' "$work/tests/$1.log" \
        | sed "s/^/$1  /"
}

scratch=$(mktemp -d)
trap 'tests_kafka stop "$scratch/kafka" > /dev/null 2>&1 || true; kill "$fjord_pid" 2> /dev/null || true; rm -rf "$scratch"' EXIT
tests_kafka() { "$root/tests/kafka/kafka.sh" "$@"; }

bootstrap=$(tests_kafka start "$scratch/kafka" 1 21400 | tail -n 1)
run_0113 kafka "$bootstrap"
tests_kafka stop "$scratch/kafka" > /dev/null

mkdir -p "$scratch/fjord" && cd "$scratch/fjord"
"$root/target/debug/fjord" server --override listeners=PLAINTEXT://127.0.0.1:21492,CONTROLLER://127.0.0.1:21493 \
    --override controller.quorum.bootstrap.servers=127.0.0.1:21493 --override metrics.listener=http://127.0.0.1:21494 \
    > server.log 2>&1 &
fjord_pid=$!
for _ in $(seq 1 300); do (exec 3<> /dev/tcp/127.0.0.1/21492) 2> /dev/null && break; sleep 0.1; done
run_0113 fjord 127.0.0.1:21492
