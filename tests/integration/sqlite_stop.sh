#!/usr/bin/env bash
# SIGTERM and SIGINT end any phase within 2 s (the bound asserted here is 3 s, measured from
# the signal to the exit), exit 2 and leave a valid partial result where the phase writes
# one:
#   - each built-in workload's load (tpcb, tpcc, tables, docs) sized to last minutes, stopped
#     in its long step: the result file is a load marked incomplete with the signal as its
#     reason, and `report` reads it;
#   - `run` on an empty database (it loads first): the partial load is its result;
#   - `run` with 1,000 terminals while they connect: nothing measured, no result file.
# Every signal waits for an observable state (the database file past a size, a line of
# output), never for a fixed time, so a loaded machine only makes the test slower.
source "$(dirname "$0")/common.bash"

now_ms() { date +%s%3N; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

# wait_size PID FILE BYTES: until FILE holds BYTES (the load is in its long step), while PID
# runs; a generous overall limit for a loaded machine
wait_size() {
  local pid=$1 f=$2 want=$3 waited=0
  while [ "$(size_of "$f")" -lt "$want" ]; do
    kill -0 "$pid" 2>/dev/null || { cat "$TMP/out" "$TMP/err" >&2; fail "$f: the command ended before it held $want bytes"; }
    [ $((waited += 1)) -lt 2400 ] || fail "$f: not $want bytes after 120 s"
    sleep 0.05
  done
}

# stop PID SIGNAL WHAT: sends SIGNAL, then asserts exit 2 within 3 s of it
stop() {
  local pid=$1 sig=$2 what=$3 t0 rc ms
  t0=$(now_ms)
  kill -"$sig" "$pid"
  set +e; wait "$pid"; rc=$?; set -e
  ms=$(( $(now_ms) - t0 ))
  note "$what: SIG$sig, exit $rc after $ms ms"
  [ "$rc" = 2 ] || { cat "$TMP/out" "$TMP/err" >&2; fail "$what: exit $rc after SIG$sig, expected 2"; }
  [ "$ms" -lt 3000 ] || { cat "$TMP/out" "$TMP/err" >&2; fail "$what: exit $ms ms after SIG$sig (3000 at most)"; }
}

# partial FILE WORKLOAD SIGNAL: a load result, incomplete, the signal its reason, at least
# one finished step, readable by `report`
partial() {
  python3 - "$@" <<'PY' || fail "partial result $1"
import json, sys
f, wl, sig = sys.argv[1:4]
d = json.load(open(f))
r = d["run"]
assert d["kind"] == "load" and r["workload"] == wl, (d["kind"], r["workload"])
assert r["complete"] is False and r["stop_reason"] == "interrupted (SIG%s)" % sig, r
steps = d["load"]["steps"]
assert steps and steps[0]["name"].startswith("create"), steps
assert d["load"]["seconds"] > 0, d["load"]
PY
  "$DBGAUGE" report "$1" > "$TMP/report.out" 2>&1 || { cat "$TMP/report.out"; fail "report of $1"; }
  grep -q "INCOMPLETE: interrupted (SIG$3)" "$TMP/report.out" || { cat "$TMP/report.out"; fail "report of $1: not shown as incomplete"; }
  ! ls "$1".tmp.* >/dev/null 2>&1 || fail "a temporary result file was left behind"
}

# load_stopped WORKLOAD SIGNAL BYTES ARGS...: a load that would take minutes, stopped once its
# file holds BYTES
load_stopped() {
  local wl=$1 sig=$2 bytes=$3 pid
  shift 3
  rm -f "$TMP/$wl.db" "$TMP/$wl.json"
  "$DBGAUGE" load --db "sqlite:$TMP/$wl.db" -w "$wl" "$@" --json "$TMP/$wl.json" > "$TMP/out" 2> "$TMP/err" &
  pid=$!
  wait_size "$pid" "$TMP/$wl.db" "$bytes"
  stop "$pid" "$sig" "load $wl"
  grep -q "loading $wl stopped: interrupted (SIG$sig); the database holds a partial load" "$TMP/err" \
    || { cat "$TMP/err"; fail "load $wl: the stop was not said"; }
  partial "$TMP/$wl.json" "$wl" "$sig"
}

# tpcb: 100 million branches, a billion tellers: stopped in the branches' loop, which
# never looked for a stop before
load_stopped tpcb TERM $((16 << 20)) --scale 100000000
json "$TMP/tpcb.json" "[s['name'] for s in d['load']['steps']] == ['create tables']" | grep -q True \
  || fail "tpcb: stopped after $(json "$TMP/tpcb.json" "[s['name'] for s in d['load']['steps']]"), not in pgbench_branches"
# tpcc: 2,000 warehouses, stopped in stock (item is about 8 MB); Ctrl-C
load_stopped tpcc INT $((64 << 20)) --scale 2000
json "$TMP/tpcc.json" "'table item' in [s['name'] for s in d['load']['steps']]" | grep -q True \
  || fail "tpcc: $(json "$TMP/tpcc.json" "[s['name'] for s in d['load']['steps']]")"
# tables: 100 million rows over 40 tables, two jobs
load_stopped tables TERM $((32 << 20)) --rows 100M --jobs 2
# docs: 10 million customers
load_stopped docs INT $((32 << 20)) --scale 100

# run on an empty database loads first: the stop ends that load, and its result is the
# partial load
"$DBGAUGE" run --db "sqlite:$TMP/run.db" -w tpcb --scale 100000000 -T 10s --json "$TMP/run.json" \
  > "$TMP/out" 2> "$TMP/err" &
pid=$!
wait_size "$pid" "$TMP/run.db" $((16 << 20))
stop "$pid" TERM "run loading first"
partial "$TMP/run.json" tpcb TERM

# run with 1,000 terminals, stopped once its header is out (while they connect, or just
# after: either way exit 2 within 3 s, and a result file only when the run had started)
"$DBGAUGE" load --db "sqlite:$TMP/c.db" -w tpcb --scale 1 -q --no-results > /dev/null
"$DBGAUGE" run --db "sqlite:$TMP/c.db" -w tpcb -c 1000 -T 60s --json "$TMP/c.json" > "$TMP/out" 2> "$TMP/err" &
pid=$!
for _ in $(seq 1200); do grep -q ' terminals, ' "$TMP/out" 2>/dev/null && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
grep -q ' terminals, ' "$TMP/out" || { cat "$TMP/out" "$TMP/err"; fail "no run header in 60 s"; }
stop "$pid" INT "run with 1000 terminals connecting"
if [ -e "$TMP/c.json" ]; then
  json "$TMP/c.json" "d['run']['complete'] is False and d['run']['stop_reason'] == 'interrupted (SIGINT)'" | grep -q True \
    || fail "connecting: $(json "$TMP/c.json" "d['run']")"
else
  grep -q "interrupted (SIGINT) while the terminals connected" "$TMP/err" || { cat "$TMP/err"; fail "connecting: the stop was not said"; }
fi
echo ok
