#!/usr/bin/env bash
# Ory Hydra, the OpenID Connect provider the OAUTHBEARER tests sign in through (a real
# provider issuing client-credentials JWTs and serving its JWKS, never a mock): built from the
# Go module proxy at a pinned version, with SQLite for its in-memory store, into
# target/tools/hydra (once; a few minutes), then started on loopback by the tests themselves
# (crates/server/tests/oauth_processes.rs).
#
#   hydra.sh fetch     build target/tools/hydra if it is missing; print its path
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=v2.3.0
bin=$root/target/tools/hydra

fetch() {
    if [ -x "$bin" ] && [ "$(cat "$bin.version" 2> /dev/null)" = "$version" ]; then
        echo "$bin"
        return
    fi
    mkdir -p "$(dirname "$bin")"
    # `go install` refuses a module with replace directives: build inside a copy of its
    # source. Its client library's replace points at a directory the module zip leaves out
    # (a module of its own): the published module of the same version is used instead.
    local src work
    src=$(GOFLAGS=-mod=mod go mod download -json "github.com/ory/hydra/v2@$version" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
    work=$(mktemp -d)
    cp -r "$src/." "$work/"
    chmod -R u+w "$work"
    sed -i '/^replace github.com\/ory\/hydra-client-go\/v2 => .\/internal\/httpclient/d' "$work/go.mod"
    (cd "$work" && GOFLAGS=-mod=mod go build -tags sqlite -o "$bin" .) \
        > "$root/target/tools/hydra-build.log" 2>&1 \
        || { cat "$root/target/tools/hydra-build.log" >&2; rm -rf "$work"; exit 1; }
    rm -rf "$work"
    echo "$version" > "$bin.version"
    echo "$bin"
}

case "${1:-}" in
    fetch) fetch ;;
    *) echo "usage: hydra.sh fetch" >&2; exit 2 ;;
esac
