#!/usr/bin/env bash
# Stops on MariaDB. A connect to a hung server (mariadbd stopped with SIGSTOP: the kernel
# accepts the socket, no one answers): SIGTERM ends the wait within 3 s, exit 2, no result
# file, the stop said. And SIGTERM while a run's server is hung (the terminals inside calls
# that will not return): the run ends within 3 s of the signal with its partial result,
# exit 2, and dbgauge's own shutdown of the stuck connections is neither counted as server
# errors nor warned about as a lost connection. Both engines: a thread per terminal, and
# --workers.
source "$(dirname "$0")/common.bash"
need_server mysql >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without MariaDB
own_server mysql DG_MYSQL_PORT 28600 # 28600-28999: no other test's range
url=$OWN_URL
pidfile=$DG_SERVER_DIR/mysql/mysqld.pid
[ -r "$pidfile" ] || fail "no mysqld.pid at $pidfile"
srv=$(head -n 1 "$pidfile")
stopped=
trap '[ -z "$stopped" ] || kill -CONT $srv 2>/dev/null || true; "$CTL" clean >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
hang() { kill -STOP "$srv"; stopped=1; }
unhang() { kill -CONT "$srv" 2>/dev/null || true; stopped=; }
source "$(dirname "$0")/stop.bash"

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 -q --no-results > /dev/null

connect_stop "$DG_MYSQL_PORT"
hung_stop threads
hung_stop events --workers 2
echo "3 passed, 0 failed"
