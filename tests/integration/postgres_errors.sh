#!/usr/bin/env bash
# Errors against PostgreSQL, each provoked for real:
#   - a wrong password and a missing database: exit 1, a clear message, no password shown
#   - bad SQL in a script workload: exit 1 before the run starts
#   - deadlock and serialization failure between two connections: class RETRY
#     (conformance checks), and a tpcb run at REPEATABLE READ whose conflicts are retried
#     without breaking the balances
#   - lock timeouts (55P03) in a script workload: retried after a real ROLLBACK (a partial
#     transaction must not survive: the two balances it moves stay equal)
#   - the server stopped mid-run and started again: the run ends on time, reconnects, and
#     every transaction dbgauge reports as committed is in the database; transactions whose
#     COMMIT was in flight when the connection broke are reported with SQLSTATE 08007
#     (outcome unknown) and are the only possible difference
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
export PGCONNECT_TIMEOUT=10
q() { psql "$url" -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
server="$DG_SRC/scripts/servers/postgres.sh"
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
    elif k == "nopassword":
        pw = ""
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
bad_pw=$(url_with "password=$secret")
expect_exit 1 "$DBGAUGE" run --db "$bad_pw" -w tpcb -T 1s
grep -q "password authentication failed" "$TMP/err" || { cat "$TMP/err"; fail "wrong password: unclear message"; }
grep -q "cannot connect to" "$TMP/err" || fail "wrong password: the message does not say what failed"
! grep -q -- "$secret" "$TMP/out" "$TMP/err" || fail "the password appears in the output"
# also when it comes from the environment (PGPASSWORD) rather than the URL
nopw=$(url_with nopassword)
PGPASSWORD=$secret expect_exit 1 "$DBGAUGE" load --db "$nopw" -w tpcb --drop
! grep -q -- "$secret" "$TMP/out" "$TMP/err" || fail "the password from PGPASSWORD appears in the output"

nodb=$(url_with db=dbgauge_no_such_db)
expect_exit 1 "$DBGAUGE" run --db "$nodb" -w tpcb -T 1s
grep -q 'database "dbgauge_no_such_db" does not exist' "$TMP/err" || { cat "$TMP/err"; fail "missing database: unclear message"; }

# a server setting that does not exist, given with --conn
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -T 1s --conn no_such_setting=1
grep -q 'no_such_setting' "$TMP/err" || { cat "$TMP/err"; fail "bad --conn setting: unclear message"; }
check_conn_client_settings "$url"

# ---- bad SQL in a script: found when terminals prepare, before the run -----------------------
"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --seed 3 > /dev/null
printf '\\set aid random(1, 100000)\nSELEC abalance FROM pgbench_accounts WHERE aid = :aid;\n' > "$TMP/typo.sql"
expect_exit 1 "$DBGAUGE" run --db "$url" -f "$TMP/typo.sql" -T 5s
grep -q 'typo.sql command 2: syntax error at or near "SELEC" \[42601\]' "$TMP/err" || { cat "$TMP/err"; fail "bad SQL message"; }
grep -q "tps" "$TMP/out" && fail "a run started despite bad SQL"

# ---- deadlock and serialization failure: class RETRY ------------------------------------------
"$DG_CONFORMANCE" "$url" test_deadlock test_serialization > "$TMP/conf.out" 2>&1 || { cat "$TMP/conf.out"; fail "conformance: deadlock / serialization"; }
grep -q "serialization failure reported as: .*\[40001\]" "$TMP/conf.out" || { cat "$TMP/conf.out"; fail "serialization failure not seen"; }

# tpcb at REPEATABLE READ: concurrent updates of the one branch row fail with 40001 and are
# retried with the same inputs; the counts and balances stay exact
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 3s -q --conn "default_transaction_isolation=repeatable read" \
  --json "$TMP/rr.json" > /dev/null || true
json "$TMP/rr.json" "d['totals']['retries'] > 0" | grep -q True || fail "no serialization failures were retried at REPEATABLE READ"
json "$TMP/rr.json" "all(e['class'] == 'retry' and '40001' in e['message'] for e in d['errors'])" | grep -q True || fail "unexpected error kinds at REPEATABLE READ"
committed=$(completed "$TMP/rr.json")
[ "$(q 'SELECT count(*) FROM pgbench_history')" = "$committed" ] || fail "REPEATABLE READ: history != committed"
"$DBGAUGE" check --db "$url" -w tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances after retries"; }

# ---- lock timeout: RETRY, and the rollback really undoes the partial transaction ---------------
cat > "$TMP/locks.sql" <<'EOF'
\set aid random(1, 100000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + 1 WHERE tid = 1;
\sleep 30 ms
END;
EOF
a0=$(q 'SELECT sum(abalance) FROM pgbench_accounts'); t0=$(q 'SELECT tbalance FROM pgbench_tellers WHERE tid = 1')
"$DBGAUGE" run --db "$(url_with param=lock_timeout=10)" -f "$TMP/locks.sql" -c 2 -T 2s -q --json "$TMP/lk.json" > /dev/null || true
a1=$(q 'SELECT sum(abalance) FROM pgbench_accounts'); t1=$(q 'SELECT tbalance FROM pgbench_tellers WHERE tid = 1')
committed=$(completed "$TMP/lk.json")
note "lock timeouts: committed=$committed retries=$(json "$TMP/lk.json" "d['totals']['retries']") accounts +$((a1 - a0)) teller +$((t1 - t0))"
json "$TMP/lk.json" "d['totals']['retries'] > 0" | grep -q True || fail "no lock timeouts were retried"
json "$TMP/lk.json" "all(e['class'] == 'retry' and '55P03' in e['message'] for e in d['errors'])" | grep -q True || fail "unexpected error kinds with lock timeouts"
[ $((a1 - a0)) = "$committed" ] && [ $((t1 - t0)) = "$committed" ] || fail "a timed-out transaction left changes behind (or counts are off)"

# ---- the server stopped mid-run, then started again (restart.bash) -------------------------------
source "$(dirname "$0")/restart.bash"
ENV_VAR=DG_TEST_POSTGRES_URL restart_test
