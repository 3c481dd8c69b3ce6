#!/usr/bin/env bash
# Measured time is the duration asked, at 1,000 terminals: with 100 ms think time, -T 3s
# measures exactly 3 s (transactions still in flight then are the drain), not the
# seconds it takes to open and close 1,000 connections; every terminal runs, and the
# throughput is what 1,000 terminals thinking 100 ms each can offer (about 10,000/s,
# less what the select itself takes on two cores). Opening the terminals' connections
# happens before the clock starts, closing them after it stopped.
source "$(dirname "$0")/common.bash"
db="sqlite:$TMP/many.db"
"$DBGAUGE" load --db "$db" -w tpcb --scale 1 -q --no-results
start=$(date +%s.%N)
"$DBGAUGE" run --db "$db" -w tpcb:select-only -c 1000 -T 3s --think-time 100 -q \
  --json "$TMP/r.json" > /dev/null 2> "$TMP/err" || { cat "$TMP/err"; fail "run failed"; }
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
measured=$(json "$TMP/r.json" "d['totals']['duration_s']")
note "1000 terminals, -T 3s: measured $measured s, $(json "$TMP/r.json" "round(d['totals']['tps'])") tps, $(json "$TMP/r.json" "d['drain']['transactions']") in flight at the end finished $(json "$TMP/r.json" "d['drain']['duration_s']") s after it, whole command $wall s"
json "$TMP/r.json" "abs(d['totals']['duration_s'] - 3) < 1e-6" | grep -q True || fail "measured $measured s for -T 3s"
# in flight at the end: at most one per terminal
json "$TMP/r.json" "0 <= d['drain']['transactions'] <= 1000 and d['drain']['errors'] == 0" | grep -q True \
  || fail "drain $(json "$TMP/r.json" "d['drain']")"
json "$TMP/r.json" "d['run']['complete'] and d['run']['aborted_terminals'] == 0 and d['run']['terminals'] == 1000" \
  | grep -q True || fail "not every terminal ran"
# 1,000 terminals x 10 per second at most (more: think times skipped); no floor on speed,
# which a busy machine sets, but every terminal ran at least one transaction
json "$TMP/r.json" "d['totals']['transactions'] >= 1000 and d['totals']['tps'] <= 10100" | grep -q True \
  || fail "tps $(json "$TMP/r.json" "(d['totals']['transactions'], d['totals']['tps'])")"

# each SQLite terminal opens several files: 30 of them under a limit of 150 are warned
# about (and still run: the estimate leaves room)
(ulimit -n 150 && "$DBGAUGE" run --db "$db" -w tpcb:select-only -c 30 -t 5 -q --no-results) \
  > /dev/null 2> "$TMP/nofile.err" || { cat "$TMP/nofile.err"; fail "30 terminals under ulimit -n 150"; }
grep -q "30 terminals may need 184 open files, but the limit is 150" "$TMP/nofile.err" \
  || fail "no open-files warning: $(cat "$TMP/nofile.err")"
echo ok
