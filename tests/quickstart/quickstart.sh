#!/usr/bin/env bash
# Kafka's quickstart (kafka.apache.org/quickstart, steps 2-5), command for command, through
# links named as Kafka's scripts. The only changes: the repository's config/server.properties
# is copied with the ports the caller gives (BROKER_PORT, CONTROLLER_PORT) and the data under
# WORK_DIR, and the consumer stops after the events it expects (--max-messages) instead of
# Ctrl-C. Usage: BROKER_PORT=.. CONTROLLER_PORT=.. quickstart.sh FJORD_BINARY WORK_DIR
set -euo pipefail
fjord=${1:?usage: quickstart.sh FJORD_BINARY WORK_DIR}
work=${2:?usage: quickstart.sh FJORD_BINARY WORK_DIR}
: "${BROKER_PORT:?}" "${CONTROLLER_PORT:?}"
repo=$(cd "$(dirname "$0")/../.." && pwd)

mkdir -p "$work/bin" "$work/config"
for tool in kafka-storage kafka-server-start kafka-topics kafka-console-producer kafka-console-consumer; do
    ln -sf "$fjord" "$work/bin/$tool.sh"
done
sed -e "s/:9092/:$BROKER_PORT/g" -e "s/:9093/:$CONTROLLER_PORT/g" \
    -e "s#^log.dirs=.*#log.dirs=$work/data#" \
    "$repo/config/server.properties" > "$work/config/server.properties"
echo "metrics.listener=" >> "$work/config/server.properties"
cd "$work"
server=
trap '[ -n "$server" ] && kill -9 "$server" 2>/dev/null; true' EXIT

# Step 2: start the Kafka environment.
KAFKA_CLUSTER_ID="$(bin/kafka-storage.sh random-uuid)"
bin/kafka-storage.sh format --standalone -t $KAFKA_CLUSTER_ID -c config/server.properties
bin/kafka-server-start.sh config/server.properties > server.log 2>&1 &
server=$!

# Step 3: create a topic (the tool waits for the server to answer).
bin/kafka-topics.sh --create --topic quickstart-events --bootstrap-server 127.0.0.1:$BROKER_PORT
bin/kafka-topics.sh --describe --topic quickstart-events --bootstrap-server 127.0.0.1:$BROKER_PORT

# Step 4: write some events.
printf 'This is my first event\nThis is my second event\n' |
    bin/kafka-console-producer.sh --topic quickstart-events --bootstrap-server 127.0.0.1:$BROKER_PORT

# Step 5: read the events.
bin/kafka-console-consumer.sh --topic quickstart-events --from-beginning \
    --bootstrap-server 127.0.0.1:$BROKER_PORT --max-messages 2

# Keys, as the console tools' documentation shows them.
printf 'user1:logged in\n' | bin/kafka-console-producer.sh --topic quickstart-events \
    --bootstrap-server 127.0.0.1:$BROKER_PORT --property parse.key=true --property key.separator=:
bin/kafka-console-consumer.sh --topic quickstart-events --bootstrap-server 127.0.0.1:$BROKER_PORT \
    --partition 0 --offset 2 --max-messages 1 --property print.key=true --property key.separator=:

# Ctrl-C: the server stops cleanly.
kill -INT "$server"
wait "$server"
server=
echo "quickstart: done"
