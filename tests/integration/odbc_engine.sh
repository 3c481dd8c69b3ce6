#!/usr/bin/env bash
# Every built-in workload through the ODBC backend against the engine behind
# DG_ODBC_URL (skipped without it): the way to verify a dialect dbgauge writes from an
# engine's manual (Db2, CUBRID; docs/backends.md) on a real server, or any engine's driver.
#   DG_ODBC_URL='odbc:DSN=db2bench;UID=db2inst1;PWD=...' ctest -R integration/odbc_engine -V
# The backend conformance body; then tpcb, tpcc (and its stored procedures where dbgauge
# has them for the engine), tables and docs, each loaded small with
# --drop, run with 2 terminals for 3 s, something committed, and checked (`dbgauge check`:
# tpcb's balances against its history, TPC-C's consistency conditions, the tables' rows,
# the documents). The tables stay (the next --drop replaces them). The suite runs it
# against SQLite's ODBC driver when that driver is installed and DG_ODBC_URL is not set,
# so the script itself is tested.
source "$(dirname "$0")/common.bash"
url=${DG_ODBC_URL:-}
if [ -z "$url" ]; then
  "$DBGAUGE" list >"$TMP/list" 2>&1
  if grep -q "^  odbc .*not built" "$TMP/list" || ! grep -q "^odbc drivers:.* SQLite3\(,\|$\)" "$TMP/list"; then
    echo "skip: set DG_ODBC_URL to an odbc: URL (this build has no ODBC backend or no SQLite3 driver to test the script with)" >&2
    exit 77
  fi
  url="odbc:DRIVER={SQLite3};Database=$TMP/engine.db"
fi

"$DG_CONFORMANCE" "$url" || fail "the backend conformance body"

run_one() { # NAME LOAD-ARGS... -- RUN-ARGS...
  local name=$1; shift
  local load=() run=()
  while [ "$1" != "--" ]; do load+=("$1"); shift; done; shift
  run=("$@")
  "$DBGAUGE" load --db "$url" -w "$name" --drop -q "${load[@]}" --json "$TMP/$name-load.json" \
    > "$TMP/$name-load.out" 2>&1 || fail "$name: load: $(tail -5 "$TMP/$name-load.out")"
  "$DBGAUGE" run --db "$url" -w "$name" -c 2 -T 3 -q "${run[@]}" --json "$TMP/$name.json" \
    > "$TMP/$name.out" 2>&1 || fail "$name: run: $(tail -5 "$TMP/$name.out")"
  [ "$(json "$TMP/$name.json" "sum(t['count'] for t in d['transactions']) > 0")" = True ] ||
    fail "$name: nothing committed"
  "$DBGAUGE" check --db "$url" -w "$name" "${run[@]}" > "$TMP/$name-check.out" 2>&1 ||
    fail "$name: check: $(cat "$TMP/$name-check.out")"
  echo "ok: $name: $(json "$TMP/$name.json" "'%.0f tx/s' % d['totals']['tps']")"
}

run_one tpcb --scale 1 --
dbms=$(json "$TMP/tpcb.json" "d['server']['settings'].get('odbc_dbms', '?')")
run_one tpcc --scale 1 --
# tpcc's stored procedures, where dbgauge writes them for the engine
if "$DBGAUGE" run --db "$url" -w tpcc -c 2 -T 3 -q --wl-opt procedures=1 --json "$TMP/procs.json" \
    > "$TMP/procs.out" 2>&1; then
  [ "$(json "$TMP/procs.json" "d['run']['execution'] == 'procedures' and sum(t['count'] for t in d['transactions']) > 0")" = True ] ||
    fail "tpcc procedures: nothing committed"
  "$DBGAUGE" check --db "$url" -w tpcc > "$TMP/procs-check.out" 2>&1 ||
    fail "tpcc procedures: check: $(cat "$TMP/procs-check.out")"
  echo "ok: tpcc procedures=1: $(json "$TMP/procs.json" "'%.0f tx/s' % d['totals']['tps']")"
else
  grep -q "has no stored procedures for" "$TMP/procs.out" ||
    fail "tpcc procedures: $(tail -5 "$TMP/procs.out")"
  echo "ok: tpcc procedures=1 refused: $(grep -o 'no stored procedures for [a-z0-9]*' "$TMP/procs.out")"
fi
run_one tables --tables 4 --rows 4000 --
run_one docs --scale 0.0005 --wl-opt securities=50 -- --wl-opt securities=50
echo "ok: every workload through ODBC on $dbms ($url)" | sed 's/PWD=[^;)]*/PWD=***/Ig'
