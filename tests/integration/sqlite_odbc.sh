#!/usr/bin/env bash
# The ODBC backend against SQLite through Debian's SQLite3 ODBC driver (libsqliteodbc): the
# backend conformance body, tpcb with exact counts, the tables workload's rows, the engine
# told apart (SQLite's dialect, no server), `dbgauge list`'s drivers, and bad connection
# strings refused with the driver manager's message and no password shown.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/odbc.bash"
odbc_need SQLite3
url="odbc:DRIVER={SQLite3};Database=$TMP/o.db"
"$DG_CONFORMANCE" "odbc:DRIVER={SQLite3};Database=$TMP/conf.db"
# the bulk tests through parameter arrays (bulk=array; auto takes multi-row VALUES here)
"$DG_CONFORMANCE" "odbc:DRIVER={SQLite3};Database=$TMP/conf2.db?bulk=array"
odbc_tpcb "$url" sqlite3 "$TMP/o.db" "SELECT count(*) FROM pgbench_history"
[ "$(json "$TMP/tpcb.json" "d['server']['version'].split()[0]")" = SQLite ] || fail "server.version: not SQLite"
# the load's path and why: VALUES by default, arrays when asked (the same rows either way)
for b in auto array; do
  "$DBGAUGE" load --db "$url" --conn bulk=$b -w tpcb --scale 1 --drop --json "$TMP/bulk-$b.json" > "$TMP/bulk-$b.out" 2>&1 ||
    fail "load with bulk=$b: $(cat "$TMP/bulk-$b.out")"
  [ "$(sqlite3 "$TMP/o.db" "SELECT count(*), sum(abalance), count(filler) FROM pgbench_accounts")" = "100000|0|100000" ] ||
    fail "bulk=$b: the accounts loaded"
done
grep -q "bulk path: multi-row INSERT of up to 200 rows: the SQLite driver runs each row of a parameter array" "$TMP/bulk-auto.out" ||
  fail "bulk=auto's path: $(grep 'bulk path' "$TMP/bulk-auto.out")"
[ "$(json "$TMP/bulk-array.json" "d['load']['bulk_path']['path'] == d['server']['settings']['bulk_path'] == 'parameter arrays of 1000 rows'")" = True ] ||
  fail "bulk=array in the result: $(json "$TMP/bulk-array.json" "d['load'].get('bulk_path')")"

"$DBGAUGE" run --db "$url" -w tables --tables 4 --rows 2000 -T 1s --reload -q --json "$TMP/t.json" >/dev/null ||
  fail "the tables workload through ODBC"
[ "$(sqlite3 "$TMP/o.db" "SELECT (SELECT count(*) FROM tbl_200) + (SELECT count(*) FROM tbl_201) + (SELECT count(*) FROM tbl_202) + (SELECT count(*) FROM tbl_203) - $(json "$TMP/t.json" "sum(t['count'] for t in d['transactions'] if t['name'] == 'insert') + d['drain']['by_transaction'].get('insert', {}).get('count', 0)")")" = 2000 ] ||
  fail "tables: the rows loaded and inserted do not add up"

# bad connection strings: the driver manager's message, exit 1, no password
for bad in "odbc:DRIVER={No Such Driver};PWD=Secret1" "odbc:DSN=dgtest_no_such_dsn;PWD=Secret2" \
           "odbc:DRIVER={SQLite3;Database=x;PWD=Secret3"; do
  expect_exit 1 "$DBGAUGE" run --db "$bad" -T 1s --no-results
  ! grep -q "Secret" "$TMP/out" "$TMP/err" || fail "a password was shown: $(cat "$TMP/err")"
done
expect_exit 1 "$DBGAUGE" run --db "odbc:DRIVER={No Such Driver};PWD=x" -T 1s --no-results
grep -q "No Such Driver" "$TMP/err" || fail "the unknown driver is not named: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" run --db "odbc:DRIVER={SQLite3;Database=x" -T 1s --no-results
grep -q "a '{' without its '}'" "$TMP/err" || fail "unbalanced braces: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" run --db "odbc:DSN=dgtest_no_such_dsn" -T 1s --no-results
grep -q "IM002" "$TMP/err" || fail "a missing DSN: $(cat "$TMP/err")"
echo "ok: ODBC to SQLite: conformance, tpcb exact, tables, errors"
