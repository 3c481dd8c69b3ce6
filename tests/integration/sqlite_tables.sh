#!/usr/bin/env bash
# The tables workload on SQLite: the loaded data (exact rows per table with an uneven
# share, the schema and its three indexes, col15 left to its default, col6 NULL about
# 10%), determinism (--jobs 4 = --jobs 1, another seed differs), selects whose three
# queries return what the generator says (and a terminal that stops with a clear message
# when they do not), inserts that add exactly the rows reported and continue after the
# keys of earlier runs, the check (and that it catches damage), dropping as many tables
# as the load made, and the result file's per-query figures.
source "$(dirname "$0")/common.bash" || exit 1
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 shell not installed" >&2; exit 77; }

q() { sqlite3 "$1" "$2"; }
# content_hash DB N: every row of the N tables in key order, and the meta row without its time
content_hash() {
  local sql="" t
  for t in $(seq 200 $((200 + $2 - 1))); do sql="$sql SELECT * FROM tbl_$t ORDER BY id, seq;"; done
  sqlite3 "$1" "$sql SELECT mt_tables, mt_rows, mt_seed FROM tables_meta;" | sha256sum | cut -c1-32
}
total_rows() { # DB N
  local sql="SELECT 0" t
  for t in $(seq 200 $((200 + $2 - 1))); do sql="$sql + (SELECT count(*) FROM tbl_$t)"; done
  q "$1" "$sql"
}

# ---- load: 10,005 rows over 7 tables (1,430 in the first two, 1,429 in the others) -------
A="$TMP/a.db"
"$DBGAUGE" load --db "sqlite:$A" -w tables --tables 7 --rows 10005 --seed 4 > "$TMP/load.out"
for step in "tables tbl_200 .. tbl_206" "primary key on 7 tables" "index iuk_tbl on 7 tables" "index ind1 on 7 tables"; do
  grep -q "$step" "$TMP/load.out" || { cat "$TMP/load.out"; fail "load report lacks step '$step'"; }
done
for t in 200 201; do [ "$(q "$A" "SELECT count(*) FROM tbl_$t")" = 1430 ] || fail "tbl_$t rows"; done
for t in 202 203 204 205 206; do [ "$(q "$A" "SELECT count(*) FROM tbl_$t")" = 1429 ] || fail "tbl_$t rows"; done
[ "$(q "$A" "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'tbl_%'")" = 7 ] || fail "table count"
[ "$(q "$A" "SELECT mt_tables || ' ' || mt_rows || ' ' || mt_seed FROM tables_meta")" = "7 10005 4" ] || fail "tables_meta"
q "$A" "SELECT sql FROM sqlite_master WHERE name = 'ind1_tbl_203'" | grep -q "col9 DESC" || fail "ind1 is not (id, col9 DESC, col14)"
q "$A" "SELECT sql FROM sqlite_master WHERE name = 'iuk_tbl_203'" | grep -q "UNIQUE INDEX" || fail "iuk_tbl is not unique"
[ "$(q "$A" "SELECT count(DISTINCT col15) || ' ' || max(col15) FROM tbl_200")" = "1 2010-07-30 16:25:44" ] || fail "col15 default"
# keys: 'U' + 12 digits, seq 1..16 per id, col5 ends with -seq, col6 NULL ~10%, rows ~1 KB
[ "$(q "$A" "SELECT count(*) FROM tbl_201 WHERE id NOT GLOB 'U[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]' OR seq < 1 OR seq > 16 OR col5 NOT LIKE '%-' || seq")" = 0 ] || fail "key layout"
[ "$(q "$A" "SELECT count(*) FROM (SELECT id, max(seq) m, count(*) c FROM tbl_202 GROUP BY id) WHERE m <> c")" = 0 ] || fail "seq is not 1..k per id"
nulls=$(q "$A" "SELECT CAST(1000 * avg(col6 IS NULL) AS INT) FROM (SELECT col6 FROM tbl_200 UNION ALL SELECT col6 FROM tbl_201 UNION ALL SELECT col6 FROM tbl_202 UNION ALL SELECT col6 FROM tbl_203)")
[ "$nulls" -ge 80 ] && [ "$nulls" -le 120 ] || fail "col6 NULL share ${nulls}/1000"
rowlen=$(q "$A" "SELECT CAST(avg(coalesce(length(col6),0) + length(col7) + length(col8) + length(col3) + length(col5) + length(col14) + 40) AS INT) FROM tbl_204")
[ "$rowlen" -ge 800 ] && [ "$rowlen" -le 1200 ] || fail "rows of $rowlen bytes, not about 1 KB"
note "col6 NULL ${nulls}/1000, rows of about $rowlen bytes"

# ---- determinism --------------------------------------------------------------------------
"$DBGAUGE" load --db "sqlite:$TMP/b.db" -w tables --tables 7 --rows 10005 --seed 4 -j 4 -q > /dev/null
"$DBGAUGE" load --db "sqlite:$TMP/c.db" -w tables --tables 7 --rows 10005 --seed 5 -q > /dev/null
hA=$(content_hash "$A" 7); hB=$(content_hash "$TMP/b.db" 7); hC=$(content_hash "$TMP/c.db" 7)
[ "$hA" = "$hB" ] || fail "--jobs 4 loaded other data than --jobs 1"
[ "$hA" != "$hC" ] || fail "seeds 4 and 5 loaded the same data"
"$DBGAUGE" check --db "sqlite:$A" -w tables > "$TMP/check.out" || { cat "$TMP/check.out"; fail "check after load"; }

# ---- selects: every query returns what the generator says ---------------------------------
"$DBGAUGE" run --db "sqlite:$A" -w tables:select -c 2 -t 500 -q --json "$TMP/sel.json" > /dev/null
json "$TMP/sel.json" "d['totals']['transactions'] == 1000 and d['totals']['errors'] == 0 and d['run']['workload'] == 'tables:select'" | grep -q True || fail "select run"
json "$TMP/sel.json" "all(d['workload_metrics'][f'select_{q}_{s}_ms'] > 0 for q in ('pk', 'iuk', 'ind1') for s in ('avg', 'p95', 'p99')) and d['workload_metrics']['key_range_pct'] == 100 and d['workload_metrics']['tables'] == 7" | grep -q True || fail "per-query figures"
"$DBGAUGE" run --db "sqlite:$A" -w tables:select --key-range hot -t 50 -q --json "$TMP/hot.json" > /dev/null
json "$TMP/hot.json" "d['workload_metrics']['key_range_pct'] == 1 and d['totals']['errors'] == 0" | grep -q True || fail "hot key range"
json "$TMP/hot.json" "d['run']['workload_hash'] != [None]" | grep -q True
[ "$(json "$TMP/hot.json" "d['run']['workload_hash']")" != "$(json "$TMP/sel.json" "d['run']['workload_hash']")" ] || fail "the key range is not part of the workload hash"

# ---- inserts: exactly the reported rows, fresh keys on every run --------------------------
before=$(total_rows "$A" 7)
"$DBGAUGE" run --db "sqlite:$A" -w tables:insert -c 2 -t 150 -q --json "$TMP/ins.json" > /dev/null
"$DBGAUGE" run --db "sqlite:$A" -w tables --mix insert=1,select=1 -c 2 -t 300 -q --json "$TMP/mix.json" > /dev/null
after=$(total_rows "$A" 7)
ins=$(json "$TMP/ins.json" "d['totals']['transactions']")
mixins=$(json "$TMP/mix.json" "[t['count'] for t in d['transactions'] if t['name'] == 'insert'][0]")
note "inserted $ins then $mixins rows; the tables grew by $((after - before))"
[ "$ins" = 300 ] || fail "2 terminals x 150 inserts reported $ins"
[ $((after - before)) = $((ins + mixins)) ] || fail "the tables grew by $((after - before)), the runs reported $((ins + mixins))"
json "$TMP/mix.json" "d['totals']['errors'] == 0 and d['workload_metrics']['rows_inserted'] == $mixins" | grep -q True || fail "second run's inserts"
"$DBGAUGE" check --db "sqlite:$A" -w tables > "$TMP/check.out" || { cat "$TMP/check.out"; fail "check after inserts"; }
grep -q "$((ins + mixins)) rows inserted by runs" "$TMP/check.out" || { cat "$TMP/check.out"; fail "check does not count the inserted rows"; }

# ---- damage is caught: by the selects (the terminal stops: an incomplete run, exit 2) and by check ---------------
cp "$A" "$TMP/d.db"
q "$TMP/d.db" "UPDATE tbl_203 SET col4 = 'Z' WHERE id IN (SELECT id FROM tbl_203 ORDER BY id LIMIT 5)"
expect_exit 2 "$DBGAUGE" run --db "sqlite:$TMP/d.db" -w tables:select --key-range hot -t 400 -q --no-results
grep -q "the iuk query on tbl_203 .* returned 0 rows, expected 1" "$TMP/err" || { cat "$TMP/err"; fail "damage not named by the select"; }
expect_exit 2 "$DBGAUGE" check --db "sqlite:$TMP/d.db" -w tables
grep -q "FAIL.*iuk_tbl" "$TMP/out" || { cat "$TMP/out"; fail "check did not catch the damage"; }

# ---- drop: as many tables as the load made ------------------------------------------------
"$DBGAUGE" load --db "sqlite:$A" -w tables --tables 3 --rows 300 --drop -q > /dev/null
[ "$(q "$A" "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'tbl_%'")" = 3 ] || fail "drop left tables of the 7-table load"
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" -w tables --tables 5 -t 1 -q --no-results
grep -q "holds 3 tables, not the 5 of --tables" "$TMP/err" || { cat "$TMP/err"; fail "table count mismatch"; }
"$DBGAUGE" run --db "sqlite:$A" -w tables -t 20 -q --json "$TMP/three.json" > /dev/null
json "$TMP/three.json" "d['workload_metrics']['tables'] == 3 and d['run']['scale'] == 300" | grep -q True || fail "run on a 3-table database"
# --size beyond the largest scale: refused before anything is written, exit 1
expect_exit 1 "$DBGAUGE" load --db "sqlite:$TMP/huge.db" -w tables --size 100TB
grep -q "more than the largest scale" "$TMP/err" || { cat "$TMP/err"; fail "--size past the largest scale"; }
! grep -q "partial load" "$TMP/err" || fail "--size past the largest scale: said a partial load"
# the regime the selects claim, checked: over all keys with SQLite's default 2 MB page
# cache the 26 MB of data misses it (I/O-bound holds); a database of a few hundred pages
# under a 200 MB cache is read from the cache after its first reads, however fast the
# machine (a 26 MB one needed more warmup than a slow machine gave it): a warning in the
# summary, the result and the report
"$DBGAUGE" load --db "sqlite:$TMP/regime.db" -w tables --rows 20000 -q > /dev/null || fail "regime load"
"$DBGAUGE" load --db "sqlite:$TMP/small.db" -w tables --rows 400 -q > /dev/null || fail "small load"
"$DBGAUGE" run --db "sqlite:$TMP/regime.db" -w tables:select --key-range all -c 2 -T 2 -P 1 --warmup 1 \
  --json "$TMP/io.json" > "$TMP/io.out" 2>&1 || { cat "$TMP/io.out"; fail "I/O-bound run"; }
json "$TMP/io.json" "d['regime']['claimed'] == 'io_bound' and d['regime']['held'] is True and not d['warnings']" | grep -q True \
  || fail "I/O-bound regime: $(json "$TMP/io.json" "d['regime'], d['warnings']")"
"$DBGAUGE" run --db "sqlite:$TMP/small.db" -w tables:select --key-range all -c 2 -T 2 -P 1 --warmup 1 \
  --conn cache_size=-200000 --json "$TMP/cpu.json" > "$TMP/cpu.out" 2>&1 || { cat "$TMP/cpu.out"; fail "cached run"; }
grep -q 'warning: the run was meant to be I/O-bound (selects over all keys) but ran CPU-bound: ' "$TMP/cpu.out" \
  || { cat "$TMP/cpu.out"; fail "no regime warning in the summary"; }
json "$TMP/cpu.json" "d['regime']['held'] is False and d['regime']['cache_hit_pct'] >= 99 and d['regime']['cache'] == 'cache_size -200000'" | grep -q True \
  || fail "regime in the result: $(json "$TMP/cpu.json" "d['regime']")"
"$DBGAUGE" report "$TMP/cpu.json" --format text > "$TMP/cpu.report" || fail "report"
grep -q 'Warning: the run was meant to be I/O-bound' "$TMP/cpu.report" || fail "no regime warning in the report"
# the study's summary from a set of runs: the CPU-bound and I/O-bound selects of one
# database, their ratio and a bar each; a run that did not hold its regime is named
"$DBGAUGE" run --db "sqlite:$TMP/regime.db" -w tables:select --key-range hot -c 2 -T 2 -P 1 --warmup 1 \
  -q --json "$TMP/hot2.json" > /dev/null || fail "hot run"
"$DBGAUGE" report "$TMP/io.json" "$TMP/hot2.json" -o "$TMP/study.html" > /dev/null || fail "study report"
"$DBGAUGE" report "$TMP/io.json" "$TMP/hot2.json" --format text > "$TMP/study.txt" || fail "study report (text)"
hot=$(json "$TMP/hot2.json" "d['totals']['tps']")
io=$(json "$TMP/io.json" "d['totals']['tps']")
ratio=$(python3 -c "print('%.2f' % ($hot / $io))")
grep -Eq "^  database 1 sqlite:$TMP/regime.db +- +[0-9]+ +[0-9]+ +$ratio " "$TMP/study.txt" \
  || { cat "$TMP/study.txt"; fail "study summary: no row with the ratio $ratio"; }
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/study.html" "bars=study-tables-tps:$hot;$io" || fail "study bars"
! grep -q "Warning: database 1" "$TMP/study.txt" || fail "study summary: a warning for runs that held their regime"
"$DBGAUGE" report "$TMP/io.json" "$TMP/hot2.json" "$TMP/cpu.json" --format text > "$TMP/study2.txt" || fail "study report 2"
grep -q "^Warning: database 2's select, I/O-bound (all keys) ran CPU-bound in 1 of 1 runs" "$TMP/study2.txt" \
  || { cat "$TMP/study2.txt"; fail "study summary: no warning for the run that ran CPU-bound"; }
# caches per connection (the page-buffer study): each run's cache and its terminals' sum in
# the result and the report, and the sum against the cache size in a sweep's report
"$DBGAUGE" sweep --db "sqlite:$TMP/regime.db" -w tables:select --vary conn.cache_size=-1000,-4000 -c 2 -T 1s \
  -q -o "$TMP/csw" > /dev/null || fail "cache sweep"
for f in "$TMP"/csw/p*.json; do
  json "$f" "d['server']['cache_scope'] == 'connection' and d['server']['cache_total_bytes'] == 2 * d['server']['cache_bytes'] == 2 * 1024 * -int(d['sweep']['params']['conn.cache_size'])" | grep -q True \
    || fail "$f: cache per connection: $(json "$f" "d['server']")"
done
"$DBGAUGE" report "$TMP/csw/p001-conn.cache_size=-1000-r1.json" --format text > "$TMP/c1.txt" || fail "report"
grep -q "engine's cache: *1.0 MB per connection x 2 terminals = 2.0 MB" "$TMP/c1.txt" || { grep -i cache "$TMP/c1.txt"; fail "report: the cache per connection"; }
"$DBGAUGE" report "$TMP/csw" -o "$TMP/csw.html" > /dev/null || fail "cache sweep report"
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/csw.html" "series=~Cache memory of all connections vs conn.cache_size:the engine's caches, one per connection, together:-1000,2.048;-4000,8.192" \
  || fail "cache sweep report: the caches' sum"
echo "tables on SQLite: ok"
