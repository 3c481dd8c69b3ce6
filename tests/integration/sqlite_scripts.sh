#!/usr/bin/env bash
# Script workloads end to end on SQLite: the examples in workloads/ run; counts match the
# rows written; a script error is reported as FILE:LINE:COL with a caret, exit 1, before
# any connection (the database file is not even created); runtime errors are counted.
source "$(dirname "$0")/common.bash"
db="sqlite:$TMP/s.db"
"$DBGAUGE" load --db "$db" -w tpcb --scale 1 -q --seed 3

for f in "$DG_SRC"/workloads/*.sql "$DG_SRC"/workloads/*/*.sql; do
  case "$f" in */docs-schema.sql|*/insert-doc.sql) continue ;; esac
  "$DBGAUGE" run --db "$db" -f "$f" -t 20 -c 2 -q --no-results > /dev/null || fail "example $f"
done
# the insert-only pair: schema once, then documents with unique keys across terminals
"$DBGAUGE" run --db "$db" -f "$DG_SRC/workloads/docs-schema.sql" -t 1 -q --no-results > /dev/null
"$DBGAUGE" run --db "$db" -f "$DG_SRC/workloads/insert-doc.sql" -D n=0 -t 50 -c 3 -q --no-results > /dev/null || fail "insert-doc"
[ "$(sqlite3 "$TMP/s.db" 'select count(distinct doc_id) from docs')" = 150 ] || fail "insert-doc keys"

# :scale without --scale is the number of pgbench_branches rows (pgbench's rule; it used to
# stay 1: the session never asked a workload without tables of its own)
"$DBGAUGE" load --db "sqlite:$TMP/s2.db" -w tpcb --scale 2 -q --no-results
printf 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (0, :scale, 0, 0, CURRENT_TIMESTAMP);\n' > "$TMP/scale.sql"
"$DBGAUGE" run --db "sqlite:$TMP/s2.db" -f "$TMP/scale.sql" -t 1 -q --json "$TMP/scale.json" > /dev/null || fail ":scale run"
[ "$(sqlite3 "$TMP/s2.db" 'select bid from pgbench_history')" = 2 ] || fail ":scale is not the branches' count"
json "$TMP/scale.json" "d['run']['scale'] == 2" | grep -q True || fail ":scale: the result's run.scale"
"$DBGAUGE" run --db "sqlite:$TMP/s2.db" -f "$TMP/scale.sql" --scale 5 -t 1 -q --no-results > /dev/null || fail ":scale --scale run"
[ "$(sqlite3 "$TMP/s2.db" 'select max(bid) from pgbench_history')" = 5 ] || fail "--scale does not win over the branches' count"

# weights and names; history rows = write transactions
before=$(sqlite3 "$TMP/s.db" 'select count(*) from pgbench_history')
"$DBGAUGE" run --db "$db" -f "$DG_SRC/workloads/read-mostly/read.sql@9" \
  -f "$DG_SRC/workloads/read-mostly/write.sql@1" -t 500 -c 2 -q --json "$TMP/r.json" --seed 5
after=$(sqlite3 "$TMP/s.db" 'select count(*) from pgbench_history')
writes=$(json "$TMP/r.json" "[t['count'] for t in d['transactions'] if t['name'] == 'write'][0]")
[ $((after - before)) = "$writes" ] || fail "history grew by $((after - before)), writes reported $writes"
json "$TMP/r.json" "0.8 < [t['count'] for t in d['transactions'] if t['name'] == 'read'][0] / 1000 < 0.97" | grep -q True || fail "weights"

# a parse error: exact position and caret, exit 1, no database touched
printf '\\set aid random(1, 10\nSELECT 1;\n' > "$TMP/bad.sql"
expect_exit 1 "$DBGAUGE" run --db "sqlite:$TMP/never.db" -f "$TMP/bad.sql"
grep -q "bad.sql:1:22: error:" "$TMP/err" || { cat "$TMP/err"; fail "parse error position"; }
grep -q '^ *\^$' "$TMP/err" || fail "no caret line"
[ ! -e "$TMP/never.db" ] || fail "a parse error created the database"

# a negative \sleep from a variable stops the terminal, naming script, line and value
# (a constant one is a parse error: tests/cli/usage.sh); it used to sleep not at all
printf 'SELECT 1;\n\\set t random(-3, -1)\n\\sleep :t s\n' > "$TMP/negsleep.sql"
expect_exit 2 "$DBGAUGE" run --db "$db" -f "$TMP/negsleep.sql" -t 1000 --json "$TMP/ns.json"
grep -q 'negsleep.sql command 3: \\sleep at line 3: variable "t" holds -[123], a negative time' "$TMP/err" \
  || { cat "$TMP/err"; fail "negative \\sleep message"; }
json "$TMP/ns.json" "d['totals']['transactions'] == 0 and d['totals']['errors'] == 1" | grep -q True || fail "negative \\sleep ran"

# a script saved with a UTF-8 byte order mark runs as without one: the first line stays a
# meta-command (it used to become SQL text)
printf '\xef\xbb\xbf\\set aid random(1, 100000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' > "$TMP/bom.sql"
"$DBGAUGE" run --db "$db" -f "$TMP/bom.sql" -t 20 -q --no-results > /dev/null || fail "script with a byte order mark"

# bad SQL is found when terminals prepare: exit 1 before the run starts
printf 'SELECT nosuchcolumn FROM pgbench_accounts;\n' > "$TMP/badsql.sql"
expect_exit 1 "$DBGAUGE" run --db "$db" -f "$TMP/badsql.sql" -T 5s
grep -q "nosuchcolumn" "$TMP/err" || fail "bad SQL message"
grep -q "tps" "$TMP/out" && fail "a run started despite bad SQL"

# a runtime error (\gset without a row) aborts the terminals: exit 2, counted in the file
printf 'SELECT abalance FROM pgbench_accounts WHERE aid = -1 \\gset\n' > "$TMP/norow.sql"
expect_exit 2 "$DBGAUGE" run --db "$db" -f "$TMP/norow.sql" -T 5s --json "$TMP/e.json"
json "$TMP/e.json" "d['run']['complete'] == False and d['totals']['errors'] == 1 and d['errors'][0]['class'] == 'user'" | grep -q True || fail "runtime error accounting"
