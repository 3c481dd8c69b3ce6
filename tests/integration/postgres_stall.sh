#!/usr/bin/env bash
# A server that stalls (every PostgreSQL process stopped with SIGSTOP for 3 s, as a hung
# host or a long freeze would): interval lines keep their 1 s clock instead of waiting
# for the server's statistics, the stalled intervals say 0 transactions (no rate made up
# afterwards), the missing statistics are null and explained, and the run ends on time.
# A stall across the end: terminals still in a call 2 s after it are interrupted instead of
# waiting for the server; the measured window was whole, so the run is complete (exit 0)
# and its warnings say the terminals were interrupted and how long the end overran.
# A stall over the warmup's end: the measured phase's cache figures start from the first
# statistics reading that came back, and say so.
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
pidfile=${DG_SERVER_DIR:-/tmp/dbgauge-servers}/postgres/data/postmaster.pid
[ -r "$pidfile" ] || fail "no postmaster.pid at $pidfile (scripts/servers/postgres.sh runs the test server)"
pm=$(head -n 1 "$pidfile")
# server_procs: the postmaster and its children, from /proc (a minimal system has no
# pgrep); processes that end while we look are skipped
server_procs() {
  local f line rest out=$pm
  for f in /proc/[0-9]*/stat; do
    { read -r line < "$f"; } 2>/dev/null || continue
    rest=${line##*) }            # "STATE PPID ..." after the command name
    set -- $rest
    [ "${2:-}" = "$pm" ] && out="$out ${line%% *}"
  done
  echo "$out"
}
"$DBGAUGE" load --db "$url" -w tpcb --drop -q > /dev/null

# wait_lines N: until the run has printed N interval lines (the timeline follows the run,
# so a slow start on a loaded machine cannot make the stall miss it)
wait_lines() { # N FILE
  local waited=0 n
  while n=$(grep -c ' tps ' "$2" 2>/dev/null); [ "${n:-0}" -lt "$1" ]; do
    kill -0 "$run" 2>/dev/null || { cat "$2" >&2; fail "the run ended before the stall"; }
    [ $((waited += 1)) -lt 300 ] || fail "no interval line in 30 s"
    sleep 0.1
  done
}
"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 2 -T 12s -P 1s --json "$TMP/r.json" > "$TMP/out" 2>&1 &
run=$!
wait_lines 2 "$TMP/out"
procs=$(server_procs)
trap 'kill -CONT $procs 2>/dev/null; rm -rf "$TMP"' EXIT
kill -STOP $procs 2>/dev/null || true  # a backend may have just exited
sleep 3
kill -CONT $procs 2>/dev/null || true
set +e; wait $run; rc=$?; set -e
[ $rc = 0 ] || { cat "$TMP/out" >&2; fail "run exited $rc"; }
json "$TMP/r.json" "[(i['t_s'], i['transactions'], i['cache_hit_pct']) for i in d['intervals']]" >&2
json "$TMP/r.json" "d['monitor']['notes']" >&2
# every interval on time: none near the 3 s a collector waiting for the server would make
# (and so about 12 of them; the run is long enough that a stall seen late on a loaded
# machine still ends well before the end)
json "$TMP/r.json" "len(d['intervals']) >= 5 and all(i['dur_s'] < 2.5 for i in d['intervals'])" | grep -q True \
  || fail "interval lines did not keep their clock through the stall"
# the stall shows as intervals without transactions, with a rate of 0, not made up later
json "$TMP/r.json" "any(i['transactions'] == 0 and i['tps'] == 0 for i in d['intervals'])" | grep -q True \
  || fail "no interval shows the stall"
# statistics the server did not answer are null, counted and explained
json "$TMP/r.json" "d['monitor']['stats_late_intervals'] >= 1 and any('did not answer its statistics query' in n for n in d['monitor']['notes'])" | grep -q True \
  || fail "late statistics not counted or not explained"
json "$TMP/r.json" "sum(i['cache_hit_pct'] is None for i in d['intervals']) >= d['monitor']['stats_late_intervals']" | grep -q True \
  || fail "an interval without statistics shows a cache figure"
json "$TMP/r.json" "d['run']['complete'] and d['totals']['duration_s'] < 13" | grep -q True || fail "the run did not end on time"

# ---- the stall covers the measured phase's start ----
# The statistics reading at the end of the warmup does not come back: the phase's cache
# figures count from its first reading that does, and the notes say from when (they were
# null, "no page was read or found in the cache", in a CI run where a busy machine made
# that one reading late). Stopped at the second line of a 5 s warmup, for 4.5 s: the
# boundary falls inside the stall unless seeing that line took 3 s; whether it did is read
# from the result (the last warmup interval and the first measured one without a
# transaction), not assumed.
"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 2 -T 6s --warmup 5s -P 1s --json "$TMP/w.json" > "$TMP/out3" 2>&1 &
run=$!
wait_lines 2 "$TMP/out3"
procs=$(server_procs)
kill -STOP $procs 2>/dev/null || true
sleep 4.5
kill -CONT $procs 2>/dev/null || true
set +e; wait $run; rc=$?; set -e
[ $rc = 0 ] || { cat "$TMP/out3" >&2; fail "a run stalled over its warmup's end exited $rc"; }
covered=$(json "$TMP/w.json" "d['warmup_intervals'][-1]['transactions'] == 0 and d['intervals'][0]['transactions'] == 0")
if [ "$covered" = True ]; then
  json "$TMP/w.json" "d['monitor']['cache_hit_pct'] is not None and d['monitor']['physical_reads_per_tx'] is not None and any(\"statistics at the measured phase's start came late\" in n for n in d['monitor']['notes'])" | grep -q True \
    || fail "the measured phase's start without statistics: $(json "$TMP/w.json" "(d['monitor']['cache_hit_pct'], d['monitor']['notes'])")"
  note "stall over the warmup's end: cache hits $(json "$TMP/w.json" "d['monitor']['cache_hit_pct']")% from the first reading back"
else
  note "the stall did not cover the warmup's end (the machine was slow to show its second line): not checked"
fi

# ---- the stall covers the end ----
# stopped at the second interval line of a 6 s run (not a fixed time after it), for up to
# 10 s: the run must end (the end, then 2 s for the terminals' calls) while the server is
# still stopped
"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 2 -T 6s -P 1s --json "$TMP/e.json" > "$TMP/out2" 2>&1 &
run=$!
wait_lines 2 "$TMP/out2"
procs=$(server_procs)
kill -STOP $procs 2>/dev/null || true  # a backend may have just exited
ended_in_stall=no
for _ in $(seq 100); do
  kill -0 "$run" 2>/dev/null || { ended_in_stall=yes; break; }
  sleep 0.1
done
kill -CONT $procs 2>/dev/null || true
set +e; wait $run; rc=$?; set -e
note "stall over the end: exit $rc, ended while the server was stopped: $ended_in_stall; $(json "$TMP/e.json" "(d['run']['stop_reason'], d['run']['interrupted_terminals'], d['warnings'])")"
[ $rc = 0 ] || { cat "$TMP/out2" >&2; fail "a run whose measured window was whole exited $rc, expected 0"; }
[ $ended_in_stall = yes ] || fail "the run waited for the server to come back"
json "$TMP/e.json" "d['run']['complete'] and d['run']['stop_reason'] == 'duration' and d['run']['interrupted_terminals'] == 2 and d['run']['overrun_s'] > 1" | grep -q True \
  || fail "the overrun is not recorded"
json "$TMP/e.json" "any('2 terminals were still inside a database call 2 s after the end' in w and 'measured window is whole' in w for w in d['warnings'])" | grep -q True \
  || fail "the interrupted terminals are not in the warnings"
echo "3 passed, 0 failed"
