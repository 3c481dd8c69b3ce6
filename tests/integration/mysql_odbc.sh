#!/usr/bin/env bash
# The ODBC backend against the MariaDB test server through Connector/ODBC (odbc-mariadb):
# the backend conformance body (a deadlock retried as one), tpcb with the committed count
# equal to the history rows, MariaDB's dialect and statistics, no password in the output,
# and sessions the server ends mid-run (KILL of every session in a database of the test's
# own, made by the test server's script): reconnected, the monitor's too; tpcc with and
# without its stored procedures (odbc_tpcc).
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
source "$(dirname "$0")/mysql.bash"
source "$(dirname "$0")/odbc.bash"
odbc_need "MariaDB Unicode"
odbc=$(odbc_from_url "$url" "MariaDB Unicode")
"$DG_CONFORMANCE" "$odbc"
odbc_tpcb "$odbc" q "SELECT count(*) FROM pgbench_history"
odbc_server_figures MariaDB
# Connector/ODBC sends a parameter array as one bulk request: the default path (the
# conformance body's bulk tests above went through it)
[ "$(json "$TMP/tpcb.json" "d['server']['settings']['bulk_path']")" = "parameter arrays of 1000 rows" ] ||
  fail "bulk path through Connector/ODBC: $(json "$TMP/tpcb.json" "d['server']['settings']")"
"$DG_CONFORMANCE" "$odbc?bulk=values" > "$TMP/values.out" 2>&1 || { cat "$TMP/values.out" >&2; fail "conformance with bulk=values"; }
ctl="$DG_SRC/scripts/servers/mysql.sh"
env=$("$ctl" env 2>/dev/null || true)
if grep -qxF "export DG_TEST_MYSQL_URL=$url" <<<"$env"; then
  kdb=dgtest_odbc_kill
  user=$(python3 -c "import sys, urllib.parse as u; print(u.unquote(u.urlsplit(sys.argv[1]).username))" "$url")
  "$ctl" admin <<SQL || fail "cannot make the database $kdb"
DROP DATABASE IF EXISTS $kdb;
CREATE DATABASE $kdb;
GRANT ALL PRIVILEGES ON $kdb.* TO '$user'@'127.0.0.1';
SQL
  trap '"$ctl" admin <<< "DROP DATABASE IF EXISTS $kdb;" >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
  killer() {
    local ids n=0 id
    ids=$(q "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = '$kdb'")
    for id in $ids; do q "KILL $id" 2>/dev/null && n=$((n + 1)); done
    echo "$n"
  }
  odbc_killed "$(odbc_from_url "${url%/*}/$kdb" "MariaDB Unicode")" killer q "SELECT count(*) FROM $kdb.pgbench_history"
elif [ "${DG_REQUIRE_SERVERS:-0}" = 1 ]; then
  fail "the MariaDB test server is not scripts/servers/mysql.sh's: no database of the test's own"
fi
odbc_tpcc "$odbc"
echo "ok: ODBC to MariaDB: conformance, tpcc with and without procedures, tpcb exact, killed sessions reconnected"
