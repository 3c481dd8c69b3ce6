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
python3 - "$TMP/tpcb.json" <<'PY' || fail "MariaDB through ODBC: the result"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["server"]["version"].startswith("MariaDB"), d["server"]["version"]
assert "PWD=***" in d["run"]["db"], d["run"]["db"]
m = d["monitor"]
assert m["cache_hit_pct"] is not None and m["db_size_after_bytes"] > 1e6, m
PY
echo "ok: ODBC to MariaDB: conformance, tpcb exact"
