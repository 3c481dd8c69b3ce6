#!/usr/bin/env bash
# dbgauge restore with the mariadb client: a mariadb-dump of the tpcb tables fed on
# dbgauge's standard input to `dbgauge restore -- mariadb -u USER DB`, the password only
# in the URL (the client gets it from MYSQL_PWD, the server from MYSQL_HOST and
# MYSQL_TCP_PORT): the tables are back whole, the result is whole-run timing and growth
# with no steps (and says so), the recorded command holds no password; a client that
# fails (a database that does not exist) gives exit 1 with its message.
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
source "$(dirname "$0")/mysql.bash"
dump=$(command -v mariadb-dump || command -v mysqldump || true)
[ -n "$dump" ] || fail "no mariadb-dump (scripts/deps.sh test installs mariadb-client)"
read -r user pw db < <(python3 - "$url" <<'PY'
import sys, urllib.parse as up
p = up.urlsplit(sys.argv[1])
print(up.unquote(p.username or ""), up.unquote(p.password or ""), p.path.lstrip("/"))
PY
)
[ -n "$pw" ] || fail "the test URL has no password"

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results
"$dump" "${MYARGS[@]/--database=*/--skip-comments}" "$db" pgbench_accounts pgbench_branches pgbench_tellers pgbench_history \
  >"$TMP/dump.sql" || fail "mariadb-dump"
q "DROP TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history"

env -u MYSQL_PWD "$DBGAUGE" restore --db "$url" --json "$TMP/r.json" -- "$client" --no-defaults -u "$user" "$db" \
  <"$TMP/dump.sql" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "dbgauge restore with mariadb exited $?"; }
grep -q "the mariadb client tells nothing per table: no steps" "$TMP/out" || fail "no word on the steps: $(cat "$TMP/out")"
[ "$(q 'SELECT count(*) FROM pgbench_accounts')" = 100000 ] || fail "the restored table is not whole"
python3 - "$TMP/r.json" "$pw" <<'PY' || fail "the mariadb restore's result file"
import json, sys
d = json.load(open(sys.argv[1]))
pw = sys.argv[2]
assert d["kind"] == "load" and d["run"]["complete"] is True and d["run"]["backend"] == "mysql", d["run"]
l = d["load"]
r = l["restore"]
assert r["tool"] == "mariadb" and r["steps_from"] == "none" and r["exit_status"] == 0, r
assert l["steps"] == [] and l["seconds"] > 0 and l["db_size_bytes"] > 0, l
assert all(pw not in a for a in r["command"]), r["command"]
tables = {o["name"] for o in l["objects"] if o["kind"] == "table"}
assert {"pgbench_accounts", "pgbench_branches", "pgbench_tellers"} <= tables, tables
print("ok: mariadb restore in %.2f s, %s %.1f MB" % (l["seconds"], l["bytes_measure"], l["bytes"] / 1e6))
PY
! grep -qF -- "$pw@" "$TMP/r.json" "$TMP/out" "$TMP/err" || fail "the password is in an output"

# the client fails: a database that does not exist
set +e
env -u MYSQL_PWD "$DBGAUGE" restore --db "$url" --json "$TMP/f.json" -- "$client" --no-defaults -u "$user" dgtest_no_such_db \
  <"$TMP/dump.sql" >"$TMP/out" 2>"$TMP/err"
got=$?
set -e
[ "$got" = 1 ] || { cat "$TMP/err" >&2; fail "a failing mariadb exited $got, expected 1"; }
grep -q "dgtest_no_such_db" "$TMP/err" || fail "the client's message is not shown: $(cat "$TMP/err")"
[ "$(json "$TMP/f.json" "d['run']['complete']")" = False ] || fail "the failed restore is not marked failed"
echo "ok: a mariadb restore timed (no steps), its password from the URL only; a failure exits 1"
