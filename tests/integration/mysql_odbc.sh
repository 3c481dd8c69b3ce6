#!/usr/bin/env bash
# The ODBC backend against the MariaDB test server through Connector/ODBC (odbc-mariadb):
# the backend conformance body (a deadlock retried as one), tpcb with the committed count
# equal to the history rows, MariaDB's dialect and statistics, no password in the output.
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
source "$(dirname "$0")/mysql.bash"
source "$(dirname "$0")/odbc.bash"
odbc_need "MariaDB Unicode"
odbc=$(odbc_from_url "$url" "MariaDB Unicode")
"$DG_CONFORMANCE" "$odbc"
odbc_tpcb "$odbc" q "SELECT count(*) FROM pgbench_history"
odbc_server_figures MariaDB
echo "ok: ODBC to MariaDB: conformance, tpcb exact"
