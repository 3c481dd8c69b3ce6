#!/usr/bin/env bash
# tpcb on Firebird: load scale 1 (the default bulk path: external tables on the test server), run 2 terminals x 5 s, and check
# every count dbgauge reports against the database:
#   - history rows = committed transactions (exact; conflicts on the one branch row are
#     retried, never half-counted), and the balance sums agree (dbgauge check too);
#   - the result file carries the server facts (MON$DATABASE) and cache/size statistics
#     (MON$IO_STATS) for the run and for each interval;
#   - the page cache size reaches the server: ?buffers=3000 shows as MON$PAGE_BUFFERS =
#     3000 with Classic/SuperClassic; a SuperServer ignores it (warned), and ?set_buffers
#     shows instead;
#   - simple-update adds exactly one history row per transaction; select-only runs in
#     both read transaction shapes (?read_tx=shared, the default, and =statement).
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/firebird.bash"
fb_url
url=$FB_URL

"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop --seed 7 -q --json "$TMP/load.json"
check_tpcb_load "$TMP/load.json" 1 yes yes
[ "$(fbsql 'SELECT COUNT(*) FROM pgbench_accounts;')" = 100000 ] || fail "accounts"
[ "$(fbsql 'SELECT COUNT(*) FROM pgbench_tellers;')" = 10 ] || fail "tellers"
[ "$(fbsql 'SELECT COUNT(*) FROM pgbench_branches;')" = 1 ] || fail "branches"
[ "$(fbsql 'SELECT COUNT(*) FROM pgbench_history;')" = 0 ] || fail "history not empty after load"
[ "$(fbsql "SELECT COUNT(*) FROM RDB\$RELATION_CONSTRAINTS WHERE RDB\$CONSTRAINT_TYPE = 'PRIMARY KEY' AND RDB\$RELATION_NAME STARTING WITH 'PGBENCH_';")" = 3 ] || fail "primary keys"
[ "$(fbsql 'SELECT COUNT(*) FROM pgbench_accounts WHERE bid = 1 AND abalance = 0;')" = 100000 ] || fail "account values"
# load refuses to overwrite without --drop
expect_exit 1 "$DBGAUGE" load --db "$url" --workload tpcb
grep -q -- "--drop" "$TMP/err" || fail "load without --drop should mention --drop"

"$DBGAUGE" run --db "$url" --workload tpcb --terminals 2 --duration 5s --warmup 1s \
  --report-interval 1s --json "$TMP/r.json" --seed 11 > "$TMP/run.out"
committed=$(json "$TMP/r.json" "d['totals']['transactions'] + d['warmup']['transactions'] + d['drain']['transactions']")
history=$(fbsql 'SELECT COUNT(*) FROM pgbench_history;')
note "committed=$committed history=$history retries=$(json "$TMP/r.json" "d['totals']['retries']")"
[ "$committed" = "$history" ] || fail "history rows $history != committed transactions $committed"
[ "$committed" -gt 50 ] || fail "too few transactions: $committed"
sums=$(fbsql "SELECT (SELECT SUM(abalance) FROM pgbench_accounts) || ' ' || (SELECT SUM(tbalance) FROM pgbench_tellers) || ' ' || (SELECT SUM(bbalance) FROM pgbench_branches) || ' ' || (SELECT SUM(delta) FROM pgbench_history) FROM RDB\$DATABASE;")
read -r a t b h <<<"$sums"
note "sums: accounts $a tellers $t branches $b history $h"
[ "$a" = "$t" ] && [ "$t" = "$b" ] && [ "$b" = "$h" ] || fail "balances disagree: $sums"
"$DBGAUGE" check --db "$url" --workload tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "dbgauge check"; }

# what the result file promises
json "$TMP/r.json" "d['run']['complete'] and d['run']['backend'] == 'firebird' and d['run']['terminals'] == 2" | grep -q True || fail "run section"
grep -q "dbgauge:dbgauge@" "$TMP/r.json" && fail "the password shows in the result file"
# a server on this machine: its host's figures from the local /proc, its own process the
# one the server names for dbgauge's attachment (MON$SERVER_PID), not every process of that
# name on the host
json "$TMP/r.json" "d['monitor']['server_host']['source'] == 'local' and d['monitor']['server_host']['status'] == 'ok' and d['monitor']['server_host']['server_cpu_pct'] > 0 and all(i['server_host']['server_procs'] >= 1 for i in d['intervals'])" | grep -q True \
  || fail "server host figures: $(json "$TMP/r.json" "d['monitor'].get('server_host')")"
root=$(json "$TMP/r.json" "d['monitor']['server_host']['root_pid']")
[ "${root:-0}" -gt 0 ] && grep -Eqx 'firebird|fbserver|fb_smp_server|fb_inet_server' "/proc/$root/comm" \
  || fail "the server process is not the one serving dbgauge: root_pid $root ($(cat "/proc/$root/comm" 2>&1))"
# the lock manager's table, read with fb_lock_print in the lock directory the server
# process was started with (the test server's own, not dbgauge's environment): the
# measured phase's figures are the sum of its intervals' (each reading chains from the last)
[ -z "${FIREBIRD_LOCK:-}" ] || fail "the test's environment names a lock directory: the check below needs it not to"
json "$TMP/r.json" "(lambda lt, ivs: lt['available'] and lt['source'] == 'fb_lock_print' and lt['lock_dir'].endswith('/firebird/lock') and lt['failed'] == 0 and lt['measured']['acquires'] > 0 and lt['measured']['enqueues'] > 0 and 0 <= lt['measured']['mutex_wait_pct'] <= 100 and lt['hash_slots'] > 0 and all('lock_table' in i for i in ivs) and all(sum(i['lock_table'][k] for i in ivs) == lt['measured'][k] for k in ('enqueues', 'acquires', 'acquire_blocks', 'blocks', 'deadlocks')))(d['monitor']['lock_table'], d['intervals'])" | grep -q True \
  || fail "lock table: $(json "$TMP/r.json" "d['monitor'].get('lock_table'), [i.get('lock_table') for i in d['intervals']]")"
"$DBGAUGE" report "$TMP/r.json" > "$TMP/report.txt" || fail "report"
grep -q "^Lock table (fb_lock_print, over the measured phase): [0-9]* lock requests" "$TMP/report.txt" || fail "report: no lock table line"
"$DBGAUGE" report "$TMP/r.json" -o "$TMP/report.html" > /dev/null || fail "html report"
# the chart's line maps back to the intervals' figures
pts=$(json "$TMP/r.json" "';'.join('%g,%g' % (i['t_s'], i['lock_table']['mutex_wait_pct']) for i in d['intervals'] if i['lock_table']['mutex_wait_pct'] is not None)")
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/report.html" "series=run1-lock-table:lock table mutex:$pts" \
  || fail "report: the lock table chart"
json "$TMP/r.json" "d['server']['version'].startswith('Firebird 3') and all(k in d['server']['settings'] for k in ('page_buffers', 'page_size', 'forced_writes', 'ods_version', 'sweep_interval', 'server_mode', 'page_cache', 'default_isolation', 'lock_timeout_s', 'protocol'))" | grep -q True || fail "server settings: $(json "$TMP/r.json" "d['server']")"
json "$TMP/r.json" "d['monitor']['cache_hit_pct'] > 50 and d['monitor']['db_size_after_bytes'] > 1e6" | grep -q True || fail "cache hits / size: $(json "$TMP/r.json" "d['monitor']")"
# every interval has the cache hit ratio and the size, except those the result file itself
# accounts for: a statistics sample the server answered too late (a loaded machine) leaves
# its interval and the next without a ratio, counted in monitor.stats_late_intervals
json "$TMP/r.json" "all(i['db_size_bytes'] or i['cache_hit_pct'] is None for i in d['intervals']) and sum(i['cache_hit_pct'] is None for i in d['intervals']) == d['monitor']['stats_late_intervals'] + d['monitor']['cache_hit_null_intervals'] and d['monitor']['cache_hit_null_intervals'] == 0 and sum(i['cache_hit_pct'] is not None for i in d['intervals']) >= 2" | grep -q True \
  || fail "per-interval cache hits and size: $(json "$TMP/r.json" "[(i['t_s'], i['transactions'], i['cache_hit_pct'], i['db_size_bytes']) for i in d['intervals']], d['monitor']")"
late=$(json "$TMP/r.json" "d['monitor']['stats_late_intervals']")
[ "$late" = 0 ] || note "$late interval(s) without statistics: the server answered late"
json "$TMP/r.json" "len(d['intervals']) >= 4 and sum(i['transactions'] for i in d['intervals']) == d['totals']['transactions']" | grep -q True || fail "intervals"

# the page cache, the knob of the published page-cache study. Classic and SuperClassic
# give each attachment the cache it asks for (?buffers=N, isc_dpb_num_buffers); a
# SuperServer ignores that (dbgauge warns) and sizes its shared cache from the database
# header, which ?set_buffers=N writes (permanently, like gfix -buffers) and which counts
# from the next time the server opens the database.
"$DBGAUGE" run --db "$url?buffers=3000" --workload tpcb:select-only -c 2 -T 2s -P 1s -q --json "$TMP/b.json" 2> "$TMP/b.err"
cache=$(json "$TMP/b.json" "d['server']['settings']['page_cache']")
pb=$(json "$TMP/b.json" "d['server']['settings']['page_buffers'] + ' ' + d['server']['settings']['buffers_requested']")
note "?buffers=3000 ($cache page cache): MON\$PAGE_BUFFERS, requested = $pb"
if [ "$cache" = shared ]; then
  grep -q "buffers=3000 has no effect on a SuperServer" "$TMP/b.err" || fail "no warning that a SuperServer ignores buffers: $(cat "$TMP/b.err")"
  default=${pb% *}
  "$DBGAUGE" run --db "$url?set_buffers=3000" --workload tpcb:select-only -T 1s -q --no-results
  "$DBGAUGE" run --db "$url" --workload tpcb:select-only -T 1s -q --json "$TMP/b2.json"
  "$DBGAUGE" run --db "$url?set_buffers=0" --workload tpcb:select-only -T 1s -q --no-results
  got=$(json "$TMP/b2.json" "d['server']['settings']['page_buffers']")
  note "after ?set_buffers=3000: MON\$PAGE_BUFFERS = $got"
  [ "$got" = 3000 ] || fail "?set_buffers=3000 gave page_buffers $got"
  "$DBGAUGE" run --db "$url" --workload tpcb:select-only -T 1s -q --json "$TMP/b3.json"
  [ "$(json "$TMP/b3.json" "d['server']['settings']['page_buffers']")" = "$default" ] || fail "?set_buffers=0 did not restore the default cache"
else
  [ "$pb" = "3000 3000" ] || fail "?buffers=3000 gave page_buffers/requested '$pb'"
  # the same through --conn
  "$DBGAUGE" run --db "$url" --conn buffers=2500 --workload tpcb:select-only -T 1s -q --json "$TMP/b2.json"
  [ "$(json "$TMP/b2.json" "d['server']['settings']['page_buffers']")" = 2500 ] || fail "--conn buffers=2500"
fi
json "$TMP/b.json" "d['monitor']['cache_hit_pct'] > 50" | grep -q True || fail "cache hits with ?buffers: $(json "$TMP/b.json" "d['monitor']")"

# simple-update: exact history growth
before=$(fbsql 'SELECT COUNT(*) FROM pgbench_history;')
"$DBGAUGE" run --db "$url" --workload tpcb:simple-update -t 300 -c 2 -q --json "$TMP/u.json"
after=$(fbsql 'SELECT COUNT(*) FROM pgbench_history;')
[ $((after - before)) = 600 ] || fail "simple-update: $((after - before)) history rows for 2x300 transactions"
[ "$(json "$TMP/u.json" "d['totals']['transactions']")" = 600 ] || fail "simple-update transactions count"

# select-only in both read-transaction shapes
for shape in shared statement; do
  "$DBGAUGE" run --db "$url?read_tx=$shape" --workload tpcb:select-only -c 2 -T 2s -q --json "$TMP/s-$shape.json"
  json "$TMP/s-$shape.json" "d['totals']['transactions'] > 100 and d['totals']['errors'] == 0 and d['server']['settings']['read_tx'] == '$shape'" | grep -q True || fail "select-only ($shape)"
  note "select-only read_tx=$shape: $(json "$TMP/s-$shape.json" "round(d['totals']['tps'])") tps"
done

# A growth sweep 1 -> 2 -> 1 on one database file, which never shrinks: a reload refills
# the pages the dropped tables left and hardly grows the file, so each point's size is its
# tables and indexes as the database statistics tell them (bytes_measure "objects"), and
# the result says so: scale 1 after scale 2 has scale 1's size again, and a positive speed
# (not "0 B, 0 MB/s", nor scale 2's file size).
for p in 1:1 2:2 3:1; do
  "$DBGAUGE" run --db "$url" --workload tpcb --scale "${p#*:}" --reload -t 1 -q --json "$TMP/re${p%%:*}.json" > /dev/null
  note "reload $p: $(json "$TMP/re${p%%:*}.json" "(d['load']['bytes'], d['load']['bytes_measure'], d['load']['objects_bytes'], round(d['load']['mb_per_s'], 1))")"
done
python3 - "$TMP/re1.json" "$TMP/re2.json" "$TMP/re3.json" <<'PY' || fail "growth sweep 1 -> 2 -> 1"
import json, sys
a, b, c = (json.load(open(f))["load"] for f in sys.argv[1:])
for l in (a, b, c):
    assert l["mb_per_s"] > 0.1 and l["bytes"] > 0, l
    assert l["bytes_measure"] in ("growth", "objects"), l["bytes_measure"]
assert c["bytes_measure"] == "objects", c["bytes_measure"]  # the file kept scale 2's pages
assert c["bytes"] == c["objects_bytes"]
assert 1.7 < b["objects_bytes"] / a["objects_bytes"] < 2.3, (a["objects_bytes"], b["objects_bytes"])
assert abs(c["objects_bytes"] - a["objects_bytes"]) <= 0.05 * a["objects_bytes"], (a["objects_bytes"], c["objects_bytes"])
assert c["db_size_bytes"] >= b["objects_bytes"]  # the file itself did not shrink
PY
# and the report says what measured it
"$DBGAUGE" report --format text -o "$TMP/re.txt" "$TMP/re3.json"
grep -q 'of loaded tables and indexes (the database reused free space' "$TMP/re.txt" || fail "report: $(grep -i loaded "$TMP/re.txt")"
