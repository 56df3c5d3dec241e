#!/usr/bin/env bash
# SeaweedFS, the S3-compatible server tiered storage's tests run against: built from the Go
# module proxy at a pinned version into target/tools/weed (once; a few minutes), then started
# on loopback by the tests themselves (crates/server/tests/tiered_s3_processes.rs).
#
#   weed.sh fetch     build target/tools/weed if it is missing; print its path
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The SeaweedFS release pinned (a pseudo-version of github.com/seaweedfs/seaweedfs).
version=v0.0.0-20261109003541-7506e5f91cd6
bin=$root/target/tools/weed

fetch() {
    if [ -x "$bin" ] && [ "$(cat "$bin.version" 2> /dev/null)" = "$version" ]; then
        echo "$bin"
        return
    fi
    mkdir -p "$(dirname "$bin")"
    # `go install module@version` refuses a module whose go.mod has replace directives, as
    # this one does: download it and build inside a copy of its source.
    local src
    src=$(GOFLAGS=-mod=mod go mod download -json "github.com/seaweedfs/seaweedfs@$version" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
    local work
    work=$(mktemp -d)
    cp -r "$src/." "$work/"
    chmod -R u+w "$work"
    (cd "$work" && go build -o "$bin" ./weed) > "$root/target/tools/weed-build.log" 2>&1 \
        || { cat "$root/target/tools/weed-build.log" >&2; rm -rf "$work"; exit 1; }
    rm -rf "$work"
    echo "$version" > "$bin.version"
    echo "$bin"
}

case "${1:-}" in
    fetch) fetch ;;
    *) echo "usage: weed.sh fetch" >&2; exit 2 ;;
esac
