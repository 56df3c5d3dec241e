#!/usr/bin/env bash
# Makes test certificates for the secured example with openssl: a CA (ca.pem) and, for each
# name, a PEM key store NAME.pem (private key, then certificate) valid for 127.0.0.1 and
# localhost, with subject "CN=NAME,O=fjord". For trying fjord out only: in production, use
# your own CA and keep keys out of the repository.
#
#   config/secured/make-certs.sh [DIR] [NAME...]     (default: ./certs node1 node2 node3)
set -euo pipefail
out=${1:-./certs}
[ $# -gt 0 ] && shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(node1 node2 node3)
mkdir -p "$out"
cd "$out"
umask 077
openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=fjord-example-ca" \
    -keyout ca-key.pem -out ca.pem 2> /dev/null
for name in "${names[@]}"; do
    openssl req -newkey rsa:2048 -nodes -subj "/O=fjord/CN=$name" \
        -keyout "$name-key.pem" -out "$name.csr" 2> /dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' \
        > "$name.ext"
    openssl x509 -req -days 365 -in "$name.csr" -CA ca.pem -CAkey ca-key.pem \
        -CAcreateserial -extfile "$name.ext" -out "$name-cert.pem" 2> /dev/null
    cat "$name-key.pem" "$name-cert.pem" > "$name.pem"
    rm -f "$name.csr" "$name.ext" "$name-key.pem" "$name-cert.pem"
done
rm -f ca.srl
echo "Wrote $(pwd)/ca.pem and $(printf '%s.pem ' "${names[@]}")"
