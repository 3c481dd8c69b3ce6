#!/usr/bin/env bash
# Stops on PostgreSQL. SIGTERM while the server is hung (every process of a server of the test's own stopped
# with SIGSTOP, the terminals and the statistics query inside calls that will not return):
# the run ends within 3 s of the signal (terminals, closing statistics and sampler share
# one deadline), exits 2 with its partial result, and dbgauge's own shutdown of the stuck
# connections is neither counted as server errors (08006) nor warned about as a lost
# connection ("reconnecting"). Both engines: a thread per terminal, and --workers. And
# `check` whose query waits on a lock another session holds: SIGTERM ends it at once; a
# load stopped in its index builds ends within 3 s with its partial result. And a connect
# to the hung server (its socket accepted by the kernel, never answered) ends within 3 s.
source "$(dirname "$0")/common.bash"
need_server postgres >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without PostgreSQL
own_server postgres DG_PG_PORT 29000 # 29000-29399: no other test's range
url=$OWN_URL
pidfile=$DG_SERVER_DIR/postgres/data/postmaster.pid
[ -r "$pidfile" ] || fail "no postmaster.pid at $pidfile"
pm=$(head -n 1 "$pidfile")
# server_procs: the postmaster and its children, from /proc (as postgres_stall.sh)
server_procs() {
  local f line rest out=$pm
  for f in /proc/[0-9]*/stat; do
    { read -r line < "$f"; } 2>/dev/null || continue
    rest=${line##*) }
    set -- $rest
    [ "${2:-}" = "$pm" ] && out="$out ${line%% *}"
  done
  echo "$out"
}
procs=
trap '[ -z "$procs" ] || kill -CONT $procs 2>/dev/null || true; "$CTL" clean >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
hang() { procs=$(server_procs); kill -STOP $procs 2>/dev/null || true; } # a backend may have just exited
unhang() { kill -CONT $procs 2>/dev/null || true; procs=; }
source "$(dirname "$0")/stop.bash"

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 -q --no-results > /dev/null

hung_stop threads
hung_stop events --workers 2
connect_stop "$DG_PG_PORT"

# ---- check: its query waits on a lock another session holds; SIGTERM ends it at once ----
command -v psql >/dev/null || fail "psql not found"
q() { psql "$url" -XAtq -c "$1"; }
mkfifo "$TMP/locker.in"
psql "$url" -XAtq < "$TMP/locker.in" > "$TMP/locker.out" 2>&1 &
locker=$!
exec 3> "$TMP/locker.in"
echo "BEGIN; LOCK TABLE pgbench_accounts IN ACCESS EXCLUSIVE MODE; SELECT 'locked';" >&3
for _ in $(seq 600); do grep -q locked "$TMP/locker.out" && break; sleep 0.1; done
grep -q locked "$TMP/locker.out" || fail "the lock was not taken: $(cat "$TMP/locker.out")"
"$DBGAUGE" check --db "$url" -w tpcb > "$TMP/check.out" 2> "$TMP/check.err" &
pid=$!
# waiting: its session shows a lock wait on the server
for _ in $(seq 600); do
  [ "$(q "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'dbgauge' AND wait_event_type = 'Lock'")" = 1 ] && break
  kill -0 $pid 2>/dev/null || { cat "$TMP/check.out" "$TMP/check.err"; fail "check ended while the table was locked"; }
  sleep 0.1
done
t0=$(now_ms)
kill -TERM $pid
set +e; wait $pid; rc=$?; set -e
ms=$(( $(now_ms) - t0 ))
echo "ROLLBACK;" >&3
exec 3>&-
wait $locker || true
note "check waiting on a lock: SIGTERM, exit $rc after $ms ms"
[ "$rc" = 2 ] || { cat "$TMP/check.out" "$TMP/check.err"; fail "check: exit $rc after SIGTERM, expected 2"; }
[ "$ms" -lt 3000 ] || fail "check: exit $ms ms after SIGTERM (3000 at most)"
grep -q "check stopped: interrupted (SIGTERM)" "$TMP/check.err" || { cat "$TMP/check.err"; fail "check: the stop was not said"; }

# ---- a load stopped in its index builds: a statement still running 0.5 s after the signal
# has its connection interrupted ----
"$DBGAUGE" load --db "$url" -w tpcb --scale 50 --drop --json "$TMP/load.json" > "$TMP/load.out" 2> "$TMP/load.err" &
pid=$!
# the accounts are in (their step's line is out): the keys and the analyze follow
for _ in $(seq 3000); do grep -q 'table pgbench_accounts' "$TMP/load.out" && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
grep -q 'table pgbench_accounts' "$TMP/load.out" || { cat "$TMP/load.out" "$TMP/load.err"; fail "load: the accounts were not loaded in 300 s"; }
t0=$(now_ms)
kill -TERM $pid
set +e; wait $pid; rc=$?; set -e
ms=$(( $(now_ms) - t0 ))
note "load in its index builds: SIGTERM, exit $rc after $ms ms; steps $(json "$TMP/load.json" "[s['name'] for s in d['load']['steps']]")"
[ "$rc" = 2 ] || { cat "$TMP/load.out" "$TMP/load.err"; fail "load: exit $rc after SIGTERM, expected 2"; }
[ "$ms" -lt 3000 ] || fail "load: exit $ms ms after SIGTERM (3000 at most)"
json "$TMP/load.json" "d['kind'] == 'load' and d['run']['complete'] is False and d['run']['stop_reason'] == 'interrupted (SIGTERM)' and 'table pgbench_accounts' in [s['name'] for s in d['load']['steps']]" \
  | grep -q True || fail "load: $(json "$TMP/load.json" "d['run']")"
echo "5 passed, 0 failed"
