#!/usr/bin/env bash
# A real MIT Kerberos KDC (Debian's krb5-kdc) for the GSSAPI tests, on loopback only: a realm
# of its own in a directory the test gives, its principals' keys in keytabs there. Installs
# Debian's krb5-kdc, krb5-admin-server and krb5-user where they are missing.
#
#   kdc.sh start DIR REALM PRINCIPAL...   create the realm and a keytab per principal
#       (DIR/<first component>[-<host>].keytab), start the KDC on a free loopback port, and
#       print the path of DIR/krb5.conf (point KRB5_CONFIG, or Java's
#       java.security.krb5.conf, at it)
#   kdc.sh rekey DIR PRINCIPAL            give the principal a new key (its keytab goes stale)
#   kdc.sh stop DIR                       stop the KDC
set -euo pipefail

die() { echo "kdc.sh: $*" >&2; exit 1; }

ensure_krb5() {
    if command -v krb5kdc > /dev/null || [ -x /usr/sbin/krb5kdc ]; then
        return
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq krb5-kdc krb5-admin-server krb5-user > /dev/null
}

# A keytab's file name: alice@R -> alice.keytab, kafka/localhost@R -> kafka-localhost.keytab.
keytab_of() {
    local p=${1%@*}
    echo "$2/${p//\//-}.keytab"
}

admin() {
    local dir=$1
    shift
    KRB5_CONFIG=$dir/krb5.conf KRB5_KDC_PROFILE=$dir/kdc.conf /usr/sbin/kadmin.local -r "$(cat "$dir/realm")" -q "$*" > /dev/null 2>&1
}

start() {
    local dir realm port
    dir=$(cd "$1" && pwd)
    realm=$2
    shift 2
    ensure_krb5
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    echo "$realm" > "$dir/realm"
    cat > "$dir/krb5.conf" <<CONF
[libdefaults]
    default_realm = $realm
    dns_lookup_kdc = false
    dns_lookup_realm = false
    udp_preference_limit = 1
    forwardable = false
    ticket_lifetime = 24h

[realms]
    $realm = {
        kdc = 127.0.0.1:$port
    }

[domain_realm]
    localhost = $realm
CONF
    cat > "$dir/kdc.conf" <<CONF
[kdcdefaults]
    kdc_listen = 127.0.0.1:$port
    kdc_tcp_listen = 127.0.0.1:$port

[realms]
    $realm = {
        database_name = $dir/principal
        key_stash_file = $dir/stash
        acl_file = $dir/kadm5.acl
        kdc_listen = 127.0.0.1:$port
        kdc_tcp_listen = 127.0.0.1:$port
    }

[logging]
    kdc = FILE:$dir/kdc.log
CONF
    : > "$dir/kadm5.acl"
    KRB5_CONFIG=$dir/krb5.conf KRB5_KDC_PROFILE=$dir/kdc.conf \
        /usr/sbin/kdb5_util create -s -r "$realm" -P fjord-test-master-key > /dev/null
    for p in "$@"; do
        admin "$dir" "addprinc -randkey $p"
        admin "$dir" "ktadd -k $(keytab_of "$p" "$dir") $p"
    done
    KRB5_CONFIG=$dir/krb5.conf KRB5_KDC_PROFILE=$dir/kdc.conf \
        /usr/sbin/krb5kdc -r "$realm" -P "$dir/kdc.pid" > "$dir/kdc.out" 2>&1 \
        || die "the KDC did not start: $(cat "$dir/kdc.out")"
    for _ in $(seq 1 100); do
        if python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2> /dev/null; then
            echo "$dir/krb5.conf"
            return
        fi
        sleep 0.1
    done
    die "the KDC does not listen on 127.0.0.1:$port"
}

case "${1:-}" in
    start) [ $# -ge 3 ] || die "usage: start DIR REALM PRINCIPAL..."; shift; start "$@" ;;
    rekey) admin "$2" "cpw -randkey $3" ;;
    stop) [ -f "$2/kdc.pid" ] && kill "$(cat "$2/kdc.pid")" 2> /dev/null || true ;;
    *) die "usage: kdc.sh start DIR REALM PRINCIPAL... | rekey DIR PRINCIPAL | stop DIR" ;;
esac
