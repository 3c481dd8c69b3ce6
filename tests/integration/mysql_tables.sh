#!/usr/bin/env bash
# The 40-table study's regimes on MariaDB, checked, through its recipe: experiments/tables
# with POOL shrinks the buffer pool through the server-control script for the runs (a
# throwaway server of its own: the shared test server is never restarted), so the select
# over all keys reads past the pool (I/O-bound held: it misses the pool far more often than
# the hot select) and the pool is put back afterwards, as the recipe says; the default pool
# and smaller data inside it make an all-keys select that the result, the summary and the
# report call CPU-bound.
source "$(dirname "$0")/common.bash"
need_server mysql >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without MariaDB

own_server mysql DG_MYSQL_PORT 31800
url=$OWN_URL
out=$TMP/tables
# 200k rows in each of 4 tables (about 60 MB of data and indexes) against a 6 MB buffer pool
OUT=$out DB1=$url DB2=$url ROWS=200k TABLES=4 TERMINALS=4 DURATION=3s INTERVAL=1s WARMUP=2s \
  REPEAT=1 JOBS=2 POOL=innodb_buffer_pool_size=6M SERVER_CTL="$CTL_CMD" \
  "$DG_SRC/experiments/tables" > "$TMP/recipe.out" 2>&1 || { cat "$TMP/recipe.out"; fail "the recipe failed"; }
grep -q "^== database 1: server setting innodb_buffer_pool_size=6M (server restarted)" "$TMP/recipe.out" \
  || { cat "$TMP/recipe.out"; fail "the recipe did not say it shrank the pool"; }
[ "$(grep -c "^tables: server setting innodb_buffer_pool_size put back (not set: the server's default); server restarted" "$TMP/recipe.out")" = 2 ] \
  || { cat "$TMP/recipe.out"; fail "the recipe did not put the pool back after each database"; }
[ -z "$("$CTL" settings)" ] || fail "settings after the recipe: $("$CTL" settings)"
for n in 1 2; do
  all=$out/db$n-select-all-r1.json hot=$out/db$n-select-hot-r1.json
  json "$all" "d['regime']['claimed'] == 'io_bound' and d['regime']['held'] is True and d['regime']['cache'] == 'innodb_buffer_pool_size 6291456'" | grep -q True \
    || fail "database $n, all keys under a 6 MB pool: $(json "$all" "d['regime']")"
  # the physical quantity behind the regimes, not their timing: the all-keys select reads
  # past the pool at least twice as often a transaction as the hot one
  ra=$(json "$all" "d['monitor']['physical_reads_per_tx']")
  rh=$(json "$hot" "d['monitor']['physical_reads_per_tx']")
  note "database $n: physical reads per transaction, all keys $ra, hot keys $rh; tps $(json "$all" "d['totals']['tps']") vs $(json "$hot" "d['totals']['tps']")"
  python3 -c "import sys; sys.exit(0 if $ra > 2 * $rh and $ra > 0.5 else 1)" \
    || fail "database $n: all keys read $ra pages a transaction past the pool, hot keys $rh"
done
"$DBGAUGE" report "$out" --format text > "$TMP/report.txt" || fail "report"
grep -q "^CPU-bound vs I/O-bound throughput" "$TMP/report.txt" || fail "report: no study summary"
! grep -q "^Warning: database 1's select, I/O-bound" "$TMP/report.txt" || fail "report: a warning for the held I/O-bound regime"

# data well inside the default 128 MB pool, warmed: CPU-bound, said everywhere
"$DBGAUGE" load --db "$url" -w tables --rows 20k --tables 4 --drop -q > /dev/null || fail "small load"
"$DBGAUGE" run --db "$url" -w tables:select --key-range all -c 4 -T 3 -P 1 --warmup 3 \
  --json "$TMP/fits.json" > "$TMP/fits.out" 2>&1 || { cat "$TMP/fits.out"; fail "run inside the pool"; }
grep -q "warning: the run was meant to be I/O-bound (selects over all keys) but ran CPU-bound" "$TMP/fits.out" \
  || { cat "$TMP/fits.out"; fail "no regime warning in the summary"; }
json "$TMP/fits.json" "d['regime']['held'] is False and d['regime']['cache_hit_pct'] >= 99" | grep -q True \
  || fail "regime inside the pool: $(json "$TMP/fits.json" "d['regime']")"
"$DBGAUGE" report "$TMP/fits.json" --format text > "$TMP/fits.report" || fail "report"
grep -q 'Warning: the run was meant to be I/O-bound' "$TMP/fits.report" || fail "no regime warning in the report"
echo ok
