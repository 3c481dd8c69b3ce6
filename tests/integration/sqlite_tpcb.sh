#!/usr/bin/env bash
# tpcb on SQLite: load scale 1, run 2 terminals x 5 s, and check that every count dbgauge
# reports is what the database holds: history rows = committed transactions (exact), and
# sum(abalance) = sum(tbalance) = sum(bbalance) = sum(history.delta).
source "$(dirname "$0")/common.bash"
db="sqlite:$TMP/t.db"
"$DBGAUGE" load --db "$db" --workload tpcb --scale 1 --seed 7 -q --json "$TMP/load.json"
check_tpcb_load "$TMP/load.json" 1 no yes
# --no-table-stats skips the pass over every page: no objects, the growth measures
"$DBGAUGE" load --db "sqlite:$TMP/nostats.db" --workload tpcb --scale 1 --seed 7 -q --no-table-stats --json "$TMP/nostats.json"
json "$TMP/nostats.json" "d['load']['objects'] is None and d['load']['bytes_measure'] == 'growth' and d['load']['bytes'] > 0" \
  | grep -q True || fail "--no-table-stats"
[ "$(sqlite3 "$TMP/t.db" 'select count(*) from pgbench_accounts')" = 100000 ] || fail "accounts"
[ "$(sqlite3 "$TMP/t.db" 'select count(*) from pgbench_tellers')" = 10 ] || fail "tellers"
# load refuses to overwrite without --drop, and reloads with it
expect_exit 1 "$DBGAUGE" load --db "$db" --workload tpcb
grep -q -- "--drop" "$TMP/err" || fail "load without --drop should mention --drop"

"$DBGAUGE" run --db "$db" --workload tpcb --terminals 2 --duration 5s --warmup 1s \
  --report-interval 1s --json "$TMP/r.json" --seed 11 > "$TMP/run.out"
committed=$(json "$TMP/r.json" "d['totals']['transactions'] + d['warmup']['transactions'] + d['drain']['transactions']")
history=$(sqlite3 "$TMP/t.db" 'select count(*) from pgbench_history')
note "committed=$committed history=$history"
[ "$committed" = "$history" ] || fail "history rows $history != committed transactions $committed"
[ "$committed" -gt 100 ] || fail "too few transactions: $committed"
sums=$(sqlite3 "$TMP/t.db" 'select (select sum(abalance) from pgbench_accounts) = (select sum(tbalance) from pgbench_tellers) and (select sum(tbalance) from pgbench_tellers) = (select sum(bbalance) from pgbench_branches) and (select sum(bbalance) from pgbench_branches) = (select sum(delta) from pgbench_history)')
[ "$sums" = 1 ] || fail "balances disagree"
"$DBGAUGE" check --db "$db" --workload tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "check"; }

# the result file holds what DESIGN.md §6 promises
json "$TMP/r.json" "d['run']['terminals'] == 2 and d['run']['complete'] and d['run']['backend'] == 'sqlite'" | grep -q True || fail "run section"
json "$TMP/r.json" "all(k in d['transactions'][0]['latency_ms'] for k in ('avg','max','p50','p90','p95','p99','p999'))" | grep -q True || fail "latency fields"
json "$TMP/r.json" "len(d['intervals']) >= 4 and all('tps' in i and 'cpu_pct' in i for i in d['intervals'])" | grep -q True || fail "intervals"
json "$TMP/r.json" "d['warmup']['duration_s'] > 0.9 and d['totals']['duration_s'] > 4.9" | grep -q True || fail "phases"
json "$TMP/r.json" "sum(i['transactions'] for i in d['intervals']) == d['totals']['transactions']" | grep -q True || fail "interval sum"
json "$TMP/r.json" "sum(c for _, c in d['transactions'][0]['histogram']['buckets']) == d['transactions'][0]['count']" | grep -q True || fail "histogram count"
grep -q "tps" "$TMP/run.out" || fail "no interval lines"

# select-only and simple-update variants run on the same database
"$DBGAUGE" run --db "$db" --workload tpcb:select-only -T 2s -q --json "$TMP/s.json"
[ "$(json "$TMP/s.json" "d['transactions'][0]['name']")" = select_only ] || fail "select-only"
before=$(sqlite3 "$TMP/t.db" 'select count(*) from pgbench_history')
"$DBGAUGE" run --db "$db" --workload tpcb:simple-update -t 500 -c 2 -q --json "$TMP/u.json"
after=$(sqlite3 "$TMP/t.db" 'select count(*) from pgbench_history')
[ $((after - before)) = 1000 ] || fail "simple-update: $((after - before)) history rows for 2x500 transactions"
[ "$(json "$TMP/u.json" "d['totals']['transactions']")" = 1000 ] || fail "transactions count"

# the cache hit ratio with a warmup: the run's figure is there (it was null: the
# connections' counters are read once an interval, after the warmup had ended), and each
# interval without one is counted and explained, in the file and the summary
"$DBGAUGE" run --db "$db" -w tpcb -c 1 -T 2s -P 1s --warmup 1s --json "$TMP/cache.json" > "$TMP/cache.out"
json "$TMP/cache.json" "d['monitor']['cache_hit_pct'] is not None and 50 < d['monitor']['cache_hit_pct'] <= 100" \
  | grep -q True || fail "no run-level cache hit ratio with a warmup"
nulls=$(json "$TMP/cache.json" "sum(1 for i in d['intervals'] if i['cache_hit_pct'] is None and i['transactions'] > 0)")
[ "$(json "$TMP/cache.json" "d['monitor']['cache_hit_null_intervals']")" = "$nulls" ] || fail "null cache intervals: counted $(json "$TMP/cache.json" "d['monitor']['cache_hit_null_intervals']"), found $nulls"
if [ "$nulls" -gt 0 ]; then
  grep -q "note: cache_hit_pct is null in $nulls interval" "$TMP/cache.out" || fail "the summary does not say why cache figures are null"
fi

# a rate the database cannot keep: latency counts the backlog, and the file says so
"$DBGAUGE" run --db "$db" -w tpcb -c 1 --rate 200000 -T 2s -P 250ms --json "$TMP/rate.json" > "$TMP/rate.out"
grep -Eq ' tps .* lag p99 [0-9.]+ ms ' "$TMP/rate.out" || fail "no schedule lag on the live lines: $(grep ' tps ' "$TMP/rate.out" | head -2)"
json "$TMP/rate.json" "any('schedule lag grew' in w for w in d['warnings'])" | grep -q True || fail "no schedule-lag warning"
json "$TMP/rate.json" "d['schedule_lag_ms']['p99'] > 100 and d['transactions'][0]['latency_ms']['p99'] >= d['schedule_lag_ms']['p99']" | grep -q True || fail "latency must include the schedule lag"

# Ctrl-C: in-flight transactions finish, the partial result is written (complete: false),
# exit 2, and its counts still match the database exactly
before=$(sqlite3 "$TMP/t.db" 'select count(*) from pgbench_history')
"$DBGAUGE" run --db "$db" -w tpcb -c 2 -T 60s -P 1s --json "$TMP/int.json" > "$TMP/int.out" 2>&1 &
pid=$!
# once the run has started (its first interval line); not after a fixed wait, which on a
# loaded machine may still be the connect
for _ in $(seq 600); do grep -q ' tps ' "$TMP/int.out" 2>/dev/null && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
grep -q ' tps ' "$TMP/int.out" || { cat "$TMP/int.out"; fail "the run did not start in 60 s"; }
kill -INT "$pid"
set +e; wait "$pid"; code=$?; set -e
[ "$code" = 2 ] || { cat "$TMP/int.out"; fail "interrupted run exited $code, expected 2"; }
json "$TMP/int.json" "d['run']['complete'] == False and 'SIGINT' in d['run']['stop_reason']" | grep -q True || fail "partial result not marked"
after=$(sqlite3 "$TMP/t.db" 'select count(*) from pgbench_history')
[ $((after - before)) = "$(completed "$TMP/int.json")" ] || fail "interrupted run: counts differ from the database"
ls "$TMP"/int.json.tmp.* >/dev/null 2>&1 && fail "a temporary result file was left behind"

# the events engine needs a client that does not block its thread: SQLite's does, so
# --workers is refused before anything runs, with no result file
expect_exit 1 "$DBGAUGE" run --db "$db" -w tpcb -T 1s --workers 2 --json "$TMP/ev.json"
grep -q -- "--workers: sqlite's client library blocks its thread" "$TMP/err" || fail "--workers on sqlite: $(cat "$TMP/err")"
[ ! -e "$TMP/ev.json" ] || fail "a refused run wrote a result file"
expect_exit 1 "$DBGAUGE" run --db "$db" -w tpcb -T 1s --pipeline --json "$TMP/ev.json"
grep -q -- "--pipeline: sqlite cannot send a transaction's statements" "$TMP/err" || fail "--pipeline on sqlite: $(cat "$TMP/err")"
[ ! -e "$TMP/ev.json" ] || fail "a refused run wrote a result file"
true
