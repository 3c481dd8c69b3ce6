#!/usr/bin/env bash
# tpcb on PostgreSQL: load scale 1, run 2 terminals x 5 s, and check every count dbgauge
# reports against the server:
#   - history rows = committed transactions (exact), and the balance sums agree;
#   - honest counts: the server's own commit counter (pg_stat_database.xact_commit, read
#     with psql before and after) grew by exactly dbgauge's committed transactions plus
#     dbgauge's bookkeeping transactions, and monitor.server_commits in the result file
#     agrees with it.
#
# Bookkeeping (docs/backends.md, "Server transactions dbgauge adds"), for `dbgauge run` on
# a loaded tpcb database with T terminals and N report intervals (warmup ones included):
#   main connection   1 session start + 1 data directory (the server is local) + 4 table
#                     checks + 2 (attach: prepare + execute) + 1 server_info + 2 per
#                     stats reading (flush + read) for the reading before the run, at the
#                     start, at each interval and after the run + 1 close flush = 16 + 2N
#   each terminal     1 session start + 5 prepared statements + 1 close flush = 7
# monitor.server_commits spans only the readings before and after the run: it sees the
# terminals, 2 per reading in between (start + N intervals), the read of the first and the
# flush of the last reading: committed + 7T + 2N + 4.
# Exactness needs a quiet database: the test server runs without autovacuum, whose
# workers' transactions would count too.
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
command -v psql >/dev/null || fail "psql not found"
export PGCONNECT_TIMEOUT=10

# Every query of this test runs in one psql session kept open throughout, so its own cost
# in the commit counter is known exactly: a reading first flushes the session's pending
# counters, then reads; between two readings the counter sees the earlier read and the
# later flush (2). A separate psql per query would not do: a session's last counts reach
# the statistics when its server process exits, at some moment after psql has returned.
# dbgauge flushes its sessions' counters before it closes them, so by the time it exits
# everything it did is in pg_stat_database (nothing to wait for).
coproc PSQL { exec psql "$url" -XAtq -v ON_ERROR_STOP=1 2>&1; }
sql() { # sql QUERY: runs QUERY (one row, one column) in the session, the value in $REPLY
  echo "$1;" >&"${PSQL[1]}"
  IFS= read -r -t 30 REPLY <&"${PSQL[0]}" || fail "the psql session did not answer: $1"
}
q() { sql "$1"; echo "$REPLY"; }
read_commits() { # -> $COMMITS
  # (reading a row makes the flush happen even when nothing else is pending: see
  # FLUSH_STATS_SQL in src/backend/postgres.c)
  sql "SELECT 'flushed' FROM pg_stat_force_next_flush(), pg_catalog.pg_database WHERE datname = current_database()"
  [ "$REPLY" = flushed ] || fail "pg_stat_force_next_flush: $REPLY"
  sql "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
  COMMITS=$REPLY
}
READING_COST=2

"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop --seed 7 -q --json "$TMP/load.json"
check_tpcb_load "$TMP/load.json" 1 yes yes
[ "$(q 'SELECT count(*) FROM pgbench_accounts')" = 100000 ] || fail "accounts"
[ "$(q 'SELECT count(*) FROM pgbench_tellers')" = 10 ] || fail "tellers"
[ "$(q 'SELECT count(*) FROM pgbench_history')" = 0 ] || fail "history not empty after load"
[ "$(q "SELECT count(*) FROM pg_indexes WHERE indexname = 'pgbench_accounts_pkey'")" = 1 ] || fail "primary key"
# load refuses to overwrite without --drop
expect_exit 1 "$DBGAUGE" load --db "$url" --workload tpcb
grep -q -- "--drop" "$TMP/err" || fail "load without --drop should mention --drop"
read_commits; c0=$COMMITS; read_commits
[ $((COMMITS - c0)) = $READING_COST ] || fail "two readings in a row differ by $((COMMITS - c0)), not $READING_COST"

# the user tables' shared-buffer hits and reads, tables then indexes (after a flush)
statio() { sql "SELECT sum(heap_blks_hit) + sum(heap_blks_read) || ' ' || sum(idx_blks_hit) + sum(idx_blks_read) FROM pg_statio_user_tables"; }
statio; io_before=$REPLY; read_commits; before=$COMMITS
"$DBGAUGE" run --db "$url" --workload tpcb --terminals 2 --duration 5s --warmup 1s \
  --report-interval 1s --json "$TMP/r.json" --seed 11 > "$TMP/run.out"
read_commits; after=$COMMITS; statio; io_after=$REPLY

# the cache by part: the block accesses dbgauge counts over the measured phase are within
# what the server counted around the whole run, and at least the sum of its intervals'
read -r t0 i0 <<<"$io_before"
read -r t1 i1 <<<"$io_after"
json "$TMP/r.json" "(lambda p, ivs: all(0 <= p[k]['hit_pct'] <= 100 for k in ('tables', 'indexes')) and p['tables']['hits'] + p['tables']['reads'] <= $((t1 - t0)) and p['indexes']['hits'] + p['indexes']['reads'] <= $((i1 - i0)) and all(p[k]['hits'] + p[k]['reads'] >= sum(i['cache_parts'][k]['hits'] + i['cache_parts'][k]['reads'] for i in ivs if 'cache_parts' in i) for k in ('tables', 'indexes')) and p['tables']['hits'] > 100 and sum('cache_parts' in i for i in ivs) >= 2)(d['monitor']['cache_parts'], d['intervals'])" | grep -q True \
  || fail "cache parts (server: tables $((t1 - t0)), indexes $((i1 - i0)) block accesses): $(json "$TMP/r.json" "d['monitor'].get('cache_parts'), [i.get('cache_parts') for i in d['intervals']]")"
grep -q "^  cache hits by part: tables [0-9.]*% ([0-9]* reads), indexes" "$TMP/run.out" || fail "run summary: no cache parts line"
"$DBGAUGE" report "$TMP/r.json" > "$TMP/report.txt" || fail "report"
grep -q "^Cache hits by part, over the measured phase: tables " "$TMP/report.txt" || fail "report: cache parts"
grep -q "the OS page cache answered about [0-9]*%" "$TMP/report.txt" || fail "report: no OS page cache estimate (a server on this machine)"
"$DBGAUGE" report "$TMP/r.json" -o "$TMP/report.html" > /dev/null || fail "html report"
pts=$(json "$TMP/r.json" "';'.join('%g,%g' % (i['t_s'], i['cache_parts']['tables']['hit_pct']) for i in d['intervals'] if i.get('cache_parts') and i['cache_parts']['tables']['hit_pct'] is not None)")
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/report.html" "series=run1-cache-parts:tables:$pts" || fail "report: the cache parts chart"
# a sweep's report draws each part's hit ratio against the varied parameter (the median of
# the point's runs): here one run a point
"$DBGAUGE" sweep --db "$url" -w tpcb:select-only -T 1s --vary terminals=1,2 -q -o "$TMP/sw" > /dev/null || fail "sweep"
"$DBGAUGE" report "$TMP/sw" -o "$TMP/sw.html" > /dev/null || fail "sweep report"
pts=$(python3 - "$TMP/sw" <<'PY'
import glob, json, sys
pts = []
for f in sorted(glob.glob(sys.argv[1] + '/p*.json')):
    d = json.load(open(f))
    pts.append('%s,%g' % (d['run']['terminals'], d['monitor']['cache_parts']['tables']['hit_pct']))
print(';'.join(pts))
PY
)
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/sw.html" "series=~Cache hit ratio by part vs terminals:tables:$pts" || fail "sweep report: the cache parts line ($pts)"

committed=$(json "$TMP/r.json" "d['totals']['transactions'] + d['warmup']['transactions'] + d['drain']['transactions']")
history=$(q 'SELECT count(*) FROM pgbench_history')
note "committed=$committed history=$history"
[ "$committed" = "$history" ] || fail "history rows $history != committed transactions $committed"
[ "$committed" -gt 100 ] || fail "too few transactions: $committed"
json "$TMP/r.json" "d['totals']['errors'] == 0 and d['run']['complete'] and d['run']['backend'] == 'postgres'" | grep -q True || fail "run section"
"$DBGAUGE" check --db "$url" --workload tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances disagree"; }

T=2
# R statistics readings (one at the start, one per interval, one at the end; fewer when a
# reading came back late and so was not asked for again), two transactions each
R=$(json "$TMP/r.json" "d['monitor']['stats_readings']")
server_delta=$((after - before - READING_COST))
expected=$((committed + 12 + 2 * R + 7 * T))
note "xact_commit grew by $server_delta; committed $committed + bookkeeping $((expected - committed)) = $expected"
[ "$server_delta" = "$expected" ] || fail "server commits $server_delta != $expected (committed $committed + bookkeeping)"
monitor=$(json "$TMP/r.json" "d['monitor']['server_commits']")
[ "$monitor" = $((committed + 7 * T + 2 * R)) ] || fail "monitor.server_commits $monitor != $((committed + 7 * T + 2 * R))"
json "$TMP/r.json" "d['monitor']['stats_readings'] + d['monitor']['stats_late_intervals'] >= len(d['intervals']) + len(d['warmup_intervals']) + 2" | grep -q True || fail "fewer statistics readings than intervals, not accounted for as late"

# the server facts and statistics the result file promises
json "$TMP/r.json" "d['server']['version'].startswith('PostgreSQL') and all(k in d['server']['settings'] for k in ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_connections', 'effective_cache_size', 'work_mem', 'checkpoint_timeout', 'default_transaction_isolation', 'full_page_writes', 'bulk_path'))" | grep -q True || fail "server settings"
json "$TMP/r.json" "d['monitor']['cache_hit_pct'] > 50 and d['monitor']['db_size_after_bytes'] > 10e6" | grep -q True || fail "cache hits / size"
# PostgreSQL publishes a backend's counters at most once a second: a 1 s interval may see
# none, and then says so (null + a note) instead of guessing; so does an interval whose
# reading came back late (a loaded machine), counted apart
json "$TMP/r.json" "all(i['cache_hit_pct'] is None or 0 <= i['cache_hit_pct'] <= 100 for i in d['intervals']) and sum(i['cache_hit_pct'] is None and i['transactions'] > 0 for i in d['intervals']) == d['monitor']['cache_hit_null_intervals'] + d['monitor']['stats_late_intervals'] and (d['monitor']['cache_hit_null_intervals'] + d['monitor']['stats_late_intervals'] == 0) == (len(d['monitor']['notes']) == 0) and sum(i['cache_hit_pct'] is not None for i in d['intervals']) >= 2" | grep -q True \
  || fail "per-interval cache hits and their note: $(json "$TMP/r.json" "[(i['t_s'], i['transactions'], i['cache_hit_pct']) for i in d['intervals']], d['monitor']")"

# select-only runs in autocommit: one server transaction per dbgauge transaction
read_commits; before=$COMMITS
"$DBGAUGE" run --db "$url" --workload tpcb:select-only -c 2 -T 2s -P 1s -q --json "$TMP/s.json" > /dev/null
read_commits; after=$COMMITS
committed=$(completed "$TMP/s.json")
R=$(json "$TMP/s.json" "d['monitor']['stats_readings']")
server_delta=$((after - before - READING_COST))
# terminals prepare 1 statement each: 1 + 1 + 1 per terminal
expected=$((committed + 12 + 2 * R + 3 * T))
note "select-only: xact_commit grew by $server_delta, expected $expected"
[ "$server_delta" = "$expected" ] || fail "select-only: server commits $server_delta != $expected"

# simple-update: exact history growth
before=$(q 'SELECT count(*) FROM pgbench_history')
"$DBGAUGE" run --db "$url" --workload tpcb:simple-update -t 500 -c 2 -q --json "$TMP/u.json" > /dev/null
after=$(q 'SELECT count(*) FROM pgbench_history')
[ $((after - before)) = 1000 ] || fail "simple-update: $((after - before)) history rows for 2x500 transactions"

# check reads one snapshot: while a run commits hundreds of transactions a second, the
# sums it compares (read one after another) still agree. The run is long and is stopped
# once the checks are done: a fixed length once ended first on a loaded machine. The checks
# begin once it commits (its first interval line), not after a fixed wait
"$DBGAUGE" run --db "$url" --workload tpcb:simple-update -c 2 -T 300s -P 1s --no-results > "$TMP/writer.out" &
writer=$!
for _ in $(seq 600); do grep -q ' tps ' "$TMP/writer.out" 2>/dev/null && break; kill -0 $writer 2>/dev/null || break; sleep 0.1; done
grep -q ' tps ' "$TMP/writer.out" || { cat "$TMP/writer.out"; fail "the writer did not start in 60 s"; }
for i in 1 2 3 4 5; do
  "$DBGAUGE" check --db "$url" --workload tpcb:simple-update > "$TMP/cc.out" \
    || { cat "$TMP/cc.out"; kill $writer 2>/dev/null; fail "check during a run (attempt $i)"; }
done
kill -0 $writer 2>/dev/null || fail "the run ended before the checks did: they proved nothing"
kill -TERM $writer
rc=0; wait $writer || rc=$?
[ $rc = 2 ] || fail "the writer stopped by SIGTERM exited $rc, not 2"

# the open-files estimate is a socket per terminal here (SQLite's is several files each,
# sqlite_many_terminals): 60 terminals fit under a limit of 150 without a warning
(ulimit -n 150 && "$DBGAUGE" run --db "$url" --workload tpcb:select-only -c 60 -t 5 -q --no-results) \
  > /dev/null 2> "$TMP/nofile.err" || { cat "$TMP/nofile.err"; fail "60 terminals under ulimit -n 150"; }
! grep -q "open files" "$TMP/nofile.err" || fail "open-files warning for 60 sockets under 150: $(cat "$TMP/nofile.err")"
