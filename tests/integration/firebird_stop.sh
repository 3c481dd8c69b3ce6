#!/usr/bin/env bash
# A stop while connecting to a Firebird server that does not answer (a server of the
# test's own, its process stopped with SIGSTOP: the kernel still completes the TCP
# handshake, nothing replies). Firebird's client has no non-blocking attach: dbgauge
# attaches on a thread of its own and leaves it at the stop's deadline, so SIGTERM ends
# the run within 3 s, exit 2, the stop said, no result file; the server, resumed, works.
source "$(dirname "$0")/common.bash"
need_server firebird >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without Firebird
own_server firebird DG_FIREBIRD_PORT 27800 # 27800-28199: no other test's range
url=$OWN_URL
pidfile=$DG_SERVER_DIR/firebird/firebird.pid
[ -r "$pidfile" ] || fail "no firebird.pid at $pidfile"
procs=
trap '[ -z "$procs" ] || kill -CONT $procs 2>/dev/null || true; "$CTL" clean >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
hang() { procs=$(cat "$pidfile"); kill -STOP $procs; }
unhang() { kill -CONT $procs 2>/dev/null || true; procs=; }
source "$(dirname "$0")/stop.bash"

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 -q --no-results > /dev/null || fail "load"
connect_stop "$DG_FIREBIRD_PORT"
# the server, resumed, serves a run as before (the abandoned attach did not wedge it)
"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 2 -t 50 -q --json "$TMP/after.json" > /dev/null 2>&1 \
  || fail "a run after the resumed server"
json "$TMP/after.json" "d['totals']['transactions'] == 100 and d['totals']['errors'] == 0" | grep -q True \
  || fail "after: $(json "$TMP/after.json" "d['totals']")"
echo "ok"
