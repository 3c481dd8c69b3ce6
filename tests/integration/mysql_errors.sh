#!/usr/bin/env bash
# Errors against MariaDB/MySQL, each provoked for real:
#   - a wrong password, a missing database and a client library that cannot be loaded:
#     exit 1, a clear message, no password shown
#   - ~/.my.cnf: its [client] password connects a URL without one; the URL's wins; a file
#     anyone may write is not read
#   - bad SQL in a script workload: exit 1 before the run starts
#   - deadlock (1213) and a serialization conflict between two connections: class RETRY
#     (conformance checks), and a tpcb run at REPEATABLE READ with
#     innodb_snapshot_isolation=ON whose conflicts (1020) are retried without breaking
#     the balances
#   - lock wait timeouts (1205, which roll back only the statement): retried after a real
#     ROLLBACK (a partial transaction must not survive: the two balances it moves stay
#     equal)
#   - the server stopped mid-run and started again: the run ends on time, reconnects, and
#     every transaction dbgauge reports as committed is in the database; transactions whose
#     COMMIT was in flight when the connection broke are reported with SQLSTATE 08007
#     (outcome unknown) and are the only possible difference
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
source "$(dirname "$0")/mysql.bash"   # q QUERY through the mariadb client
server="$DG_SRC/scripts/servers/mysql.sh"
# url_with [password=P] [db=D] [param=K=V]: the test URL with one part changed
url_with() {
  python3 - "$url" "$@" <<'PY'
import sys, urllib.parse as up
p = up.urlsplit(sys.argv[1])
user, _, pw = p.netloc.rpartition("@")[0].partition(":")
host = p.netloc.rpartition("@")[2]
path, query = p.path, p.query
for arg in sys.argv[2:]:
    k, _, v = arg.partition("=")
    if k == "password":
        pw = v
    elif k == "db":
        path = "/" + v
    elif k == "param":
        query = query + ("&" if query else "") + v
auth = user + (":" + pw if pw else "")
print(up.urlunsplit((p.scheme, auth + "@" + host, path, query, "")))
PY
}

# ---- connection errors --------------------------------------------------------------------
secret='Wr0ng-S3cret-pw'
expect_exit 1 "$DBGAUGE" run --db "$(url_with "password=$secret")" -w tpcb -T 1s
grep -q "Access denied for user" "$TMP/err" || { cat "$TMP/err"; fail "wrong password: unclear message"; }
grep -q "cannot connect to" "$TMP/err" || fail "wrong password: the message does not say what failed"
! grep -q -- "$secret" "$TMP/out" "$TMP/err" || fail "the password appears in the output"

expect_exit 1 "$DBGAUGE" run --db "$(url_with db=dbgauge_no_such_db)" -w tpcb -T 1s
grep -q "dbgauge_no_such_db" "$TMP/err" || { cat "$TMP/err"; fail "missing database: unclear message"; }

# the client library is opened by the first connection: one that cannot be loaded is a
# clear error naming the file, not a failure to start (and the password stays out of it)
DBGAUGE_MARIADB_CLIENT=/nonexistent/libmariadb.so.3 expect_exit 1 "$DBGAUGE" run --db "$(url_with "password=$secret")" -w tpcb -T 1s
grep -q "cannot load the MariaDB client library from /nonexistent/libmariadb.so.3 (set by DBGAUGE_MARIADB_CLIENT)" "$TMP/err" \
  || { cat "$TMP/err"; fail "an unloadable client library: unclear message"; }
! grep -q -- "$secret" "$TMP/out" "$TMP/err" || fail "the password appears in the output"
note "client library missing: $(head -n 1 "$TMP/err")"

expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -T 1s --conn no_such_setting=1
grep -q "no_such_setting" "$TMP/err" || { cat "$TMP/err"; fail "bad --conn setting: unclear message"; }
check_conn_client_settings "$url"

# ---- ~/.my.cnf: what the URL leaves out comes from its [client] group, as for the mysql
# client; what the URL says wins; a file anyone may write is not read ----------------------
pw=$(python3 -c 'import sys, urllib.parse as u; print(u.unquote(u.urlsplit(sys.argv[1]).password or ""))' "$url")
nopw=$(url_with password=)
mkdir -p "$TMP/home"
printf 'SELECT 1;\n' > "$TMP/one.sql"
mycnf() { printf '[mysqld]\npassword=not-this\n[client]\nhost = 192.0.2.1\npassword = "%s" # the test server\n' "$1" > "$TMP/home/.my.cnf"; chmod "$2" "$TMP/home/.my.cnf"; }
one() { HOME="$TMP/home" expect_exit "$1" "$DBGAUGE" run --db "$2" -f "$TMP/one.sql" -c 1 -t 1 -q --no-results; }
mycnf "$pw" 600
one 0 "$nopw"   # the password from the file; its host is not taken: the URL names one
mycnf "$secret" 600
one 0 "$url"    # the URL's password wins over the file's
one 1 "$nopw"
grep -q "Access denied.*(with settings from ~/.my.cnf where the URL gave none)" "$TMP/err" \
  || { cat "$TMP/err"; fail "~/.my.cnf: a refused password does not say where it came from"; }
! grep -q -- "$secret" "$TMP/out" "$TMP/err" || fail "~/.my.cnf: its password appears in the output"
mycnf "$pw" 666
one 1 "$nopw"
grep -q "\.my\.cnf is not read: anyone may write it" "$TMP/err" || { cat "$TMP/err"; fail "~/.my.cnf anyone may write: not said"; }
rm -f "$TMP/home/.my.cnf"

# ---- bad SQL in a script: found when terminals prepare, before the run -----------------------
"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --seed 3 > /dev/null
printf '\\set aid random(1, 100000)\nSELEC abalance FROM pgbench_accounts WHERE aid = :aid;\n' > "$TMP/typo.sql"
expect_exit 1 "$DBGAUGE" run --db "$url" -f "$TMP/typo.sql" -T 5s
grep -q "typo.sql command 2: .*SQL syntax.*\[42000\]" "$TMP/err" || { cat "$TMP/err"; fail "bad SQL message"; }
grep -q "tps" "$TMP/out" && fail "a run started despite bad SQL"

# ---- deadlock and serialization conflicts: class RETRY ----------------------------------------
"$DG_CONFORMANCE" "$url" test_deadlock test_serialization > "$TMP/conf.out" 2>&1 || { cat "$TMP/conf.out"; fail "conformance: deadlock / serialization"; }

# tpcb at REPEATABLE READ with snapshot isolation (MariaDB 10.6.18+; the default from
# 11.6.2): an update of a row changed since the transaction's snapshot fails with 1020
if [ -n "$(q "SHOW VARIABLES LIKE 'innodb_snapshot_isolation'")" ]; then
  "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 3s -q --conn tx_isolation=REPEATABLE-READ \
    --conn innodb_snapshot_isolation=ON --json "$TMP/rr.json" > /dev/null || true
  json "$TMP/rr.json" "d['totals']['retries'] > 0" | grep -q True || fail "no 1020 conflicts were retried"
  json "$TMP/rr.json" "all(e['class'] == 'retry' for e in d['errors'])" | grep -q True || fail "unexpected error kinds with snapshot isolation"
  committed=$(completed "$TMP/rr.json")
  [ "$(q 'SELECT count(*) FROM pgbench_history')" = "$committed" ] || fail "snapshot isolation: history != committed"
  "$DBGAUGE" check --db "$url" -w tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances after retries"; }
else
  note "skip snapshot-isolation run: the server has no innodb_snapshot_isolation"
fi

# ---- lock wait timeout (1205): RETRY, and the ROLLBACK really undoes the transaction ---------------
cat > "$TMP/locks.sql" <<'SQL'
\set aid random(1, 100000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + 1 WHERE tid = 1;
\sleep 1200 ms
END;
SQL
a0=$(q 'SELECT sum(abalance) FROM pgbench_accounts'); t0=$(q 'SELECT tbalance FROM pgbench_tellers WHERE tid = 1')
"$DBGAUGE" run --db "$(url_with param=innodb_lock_wait_timeout=1)" -f "$TMP/locks.sql" -c 2 -T 5s -q \
  --json "$TMP/lk.json" > /dev/null || true
a1=$(q 'SELECT sum(abalance) FROM pgbench_accounts'); t1=$(q 'SELECT tbalance FROM pgbench_tellers WHERE tid = 1')
committed=$(completed "$TMP/lk.json")
note "lock wait timeouts: committed=$committed retries=$(json "$TMP/lk.json" "d['totals']['retries']") accounts +$((a1 - a0)) teller +$((t1 - t0))"
json "$TMP/lk.json" "d['totals']['retries'] > 0" | grep -q True || fail "no lock wait timeouts were retried"
json "$TMP/lk.json" "all(e['class'] == 'retry' for e in d['errors'])" | grep -q True || fail "unexpected error kinds with lock wait timeouts"
[ $((a1 - a0)) = "$committed" ] && [ $((t1 - t0)) = "$committed" ] || fail "a timed-out transaction left changes behind (or counts are off)"

# ---- the server stopped mid-run, then started again (restart.bash) -------------------------------
source "$(dirname "$0")/restart.bash"
ENV_VAR=DG_TEST_MYSQL_URL restart_test
