#!/usr/bin/env bash
# A disposable PostgreSQL cluster for the test suite: `start` creates it (initdb) under
# $GRAPHRAG_HOME/postgres on the first run and starts it on 127.0.0.1:$GRAPHRAG_TEST_POSTGRES_PORT;
# `stop` stops it (a folder under $TMPDIR when the server's user cannot reach $GRAPHRAG_HOME). Trust
# authentication, loopback only: the tests drop and create what they like in it, and the database
# `graphrag_disposable` marks it as theirs. Never point the suite at a real cluster.
# As root the server runs as the unprivileged `postgres` user that Debian's package creates.
set -euo pipefail

action=${1:?usage: test-postgres.sh start|stop}
port=${GRAPHRAG_TEST_POSTGRES_PORT:?set GRAPHRAG_TEST_POSTGRES_PORT (make test does)}
home=${GRAPHRAG_HOME:-.graphrag/test}
mkdir -p "$home"
data=$(cd "$home" && pwd)/postgres
# the server's user must reach the data folder; a checkout under a private home cannot offer that
if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$(dirname "$data")" 2>/dev/null; then
    data=${TMPDIR:-/tmp}/graphrag-test-postgres-$port
fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed: run scripts/system-deps.sh" >&2; exit 2; }
[ "$(basename "$(dirname "$bin")")" -ge 15 ] || { echo "PostgreSQL 15 or newer is needed ($bin)" >&2; exit 2; }

as_server() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
start)
    if [ ! -f "$data/PG_VERSION" ]; then
        mkdir -p "$data"
        chmod 700 "$data"
        [ "$(id -u)" -ne 0 ] || chown postgres: "$data"
        as_server "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    fi
    if as_server "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        echo "test PostgreSQL already runs on 127.0.0.1:$port" >&2
    else
        as_server "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 start \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$data -c fsync=off"
    fi
    "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -tA \
        -c "SELECT 1 FROM pg_database WHERE datname = 'graphrag_disposable'" | grep -q 1 \
        || "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "CREATE DATABASE graphrag_disposable"
    ;;
stop)
    if [ -f "$data/PG_VERSION" ] && as_server "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        as_server "$bin/pg_ctl" -D "$data" -w -m fast stop >/dev/null
    fi
    ;;
*)
    echo "usage: test-postgres.sh start|stop" >&2
    exit 2
    ;;
esac
