#!/usr/bin/env bash
# The ODBC backend against the PostgreSQL test server through psqlODBC (odbc-postgresql):
# the backend conformance body (error classes: a deadlock and a serialization failure
# retried, bad SQL as the driver's SQLSTATE and text), tpcb with the committed count equal
# to the history rows, PostgreSQL's dialect and statistics (cache hits, database size),
# no password in the output, and sessions the server ends mid-run (pg_terminate_backend
# of those with the run's application_name, set through psqlODBC's pqopt): reconnected,
# the monitor's too; tpcc with and without its stored procedures (odbc_tpcc).
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/odbc.bash"
native=$(need_server postgres)
odbc_need "PostgreSQL Unicode"
url=$(odbc_from_url "$native" "PostgreSQL Unicode")
"$DG_CONFORMANCE" "$url"
odbc_tpcb "$url" psql "$native" -XAtqc "SELECT count(*) FROM pgbench_history"
odbc_server_figures PostgreSQL
# psqlODBC runs an array row by row and leaves its plan behind: multi-row VALUES, even
# when arrays are asked for, and the load says why
"$DBGAUGE" load --db "$url" --conn bulk=array -w tpcb --scale 1 --drop --json "$TMP/arr.json" > "$TMP/arr.out" 2>&1 ||
  fail "load with bulk=array: $(cat "$TMP/arr.out")"
grep -q "bulk path: multi-row INSERT of up to 200 rows: psqlODBC runs each row of a parameter array .*bulk=array is not taken" "$TMP/arr.out" ||
  fail "bulk=array through psqlODBC: $(grep 'bulk path' "$TMP/arr.out")"
killer() {
  psql "$native" -XAtq -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'dgtest_odbc_kill'"
}
odbc_killed "$url;pqopt={application_name=dgtest_odbc_kill}" killer psql "$native" -XAtqc "SELECT count(*) FROM pgbench_history"
pw=$(python3 -c "import sys, urllib.parse as u; print(u.urlsplit(sys.argv[1]).password)" "$native")
! grep -q "PWD=$pw" "$TMP/tpcb.json" "$TMP/tpcb.out" || fail "the password is in an output"
odbc_tpcc "$url"
echo "ok: ODBC to PostgreSQL: conformance, tpcc with and without procedures, tpcb exact, killed sessions reconnected"
