#!/usr/bin/env bash
# Firebird failures as users meet them:
#   - a wrong password: exit 1, a clear message, and the password nowhere in the output;
#   - a database file that does not exist: exit 1, the path named;
#   - an update conflict between two SNAPSHOT (REPEATABLE READ) transactions is classified
#     RETRY: with --max-tries 1 such errors are counted as class "retry", with the default
#     they are retried, and the row holds exactly one increment per committed transaction;
#   - the server stopped mid-run and started again (only when scripts/servers/firebird.sh
#     runs the test server): a 12 s run with 2 terminals, server stopped at ~3 s and started
#     at ~6 s, finishes on time, reports reconnects and downtime, and tpcb's invariants
#     hold afterwards (a commit whose answer was lost may be in the database but not
#     counted: at most one per terminal).
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/firebird.bash"
fb_url
url=$FB_URL
base="firebird://$FB_USER:%s@$FB_HOST:$FB_PORT/$FB_PATH"

# wrong password
bad=$(printf "$base" "Wr0ngSecret7")
expect_exit 1 "$DBGAUGE" run --db "$bad" --workload tpcb:select-only -T 1s --no-results
cat "$TMP/out" "$TMP/err" > "$TMP/all"
grep -q "Wr0ngSecret7" "$TMP/all" && fail "the password shows in the output: $(cat "$TMP/all")"
grep -qi "password" "$TMP/err" || fail "no clear message for a wrong password: $(cat "$TMP/err")"
grep -q "cannot connect" "$TMP/err" || fail "wrong password: $(cat "$TMP/err")"
note "wrong password: $(head -n 1 "$TMP/err")"

# a missing database file
missing="firebird://$FB_USER:$FB_PASS@$FB_HOST:$FB_PORT//tmp/dbgauge-no-such-dir/none.fdb"
expect_exit 1 "$DBGAUGE" run --db "$missing" --workload tpcb:select-only -T 1s --no-results
grep -q "/tmp/dbgauge-no-such-dir/none.fdb" "$TMP/err" || fail "missing file not named: $(cat "$TMP/err")"
grep -q "dbgauge:$FB_PASS@" "$TMP/err" && fail "the password shows in the output"
note "missing database: $(head -n 1 "$TMP/err")"

# update conflicts between SNAPSHOT transactions are RETRY
fbsql 'RECREATE TABLE dg_conflict (id INTEGER NOT NULL PRIMARY KEY, v INTEGER NOT NULL); COMMIT; INSERT INTO dg_conflict VALUES (1, 0); COMMIT;' >/dev/null
cat > "$TMP/conflict.sql" <<'SQL'
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT v FROM dg_conflict WHERE id = 1;
\sleep 5ms
UPDATE dg_conflict SET v = v + 1 WHERE id = 1;
\sleep 5ms
COMMIT;
SQL
"$DBGAUGE" run --db "$url" -f "$TMP/conflict.sql" -c 2 -T 2s --max-tries 1 -q --json "$TMP/c1.json" > "$TMP/c1.out" 2>&1 || true
retry_errors=$(json "$TMP/c1.json" "d['transactions'][0].get('errors_by_class', {}).get('retry', 0)")
other_errors=$(json "$TMP/c1.json" "d['totals']['errors'] - d['transactions'][0].get('errors_by_class', {}).get('retry', 0)")
ok1=$(json "$TMP/c1.json" "d['totals']['transactions']")
note "snapshot conflicts, --max-tries 1: $ok1 committed, $retry_errors retry-class errors, $other_errors others"
[ "$retry_errors" -gt 0 ] || fail "no update conflict classified as retry: $(cat "$TMP/c1.out")"
[ "$other_errors" = 0 ] || fail "conflicts classified otherwise: $(json "$TMP/c1.json" "d['errors']")"
grep -q "update conflicts with concurrent update" "$TMP/c1.json" || fail "conflict message"
"$DBGAUGE" run --db "$url" -f "$TMP/conflict.sql" -c 2 -T 2s -q --json "$TMP/c2.json" > "$TMP/c2.out" 2>&1 || true
ok2=$(json "$TMP/c2.json" "d['totals']['transactions']")
retries=$(json "$TMP/c2.json" "d['totals']['retries']")
note "snapshot conflicts, default tries: $ok2 committed after $retries retries"
[ "$retries" -gt 0 ] || fail "conflicts were not retried"
v=$(fbsql 'SELECT v FROM dg_conflict WHERE id = 1;')
[ "$v" = $((ok1 + ok2)) ] || fail "row holds $v increments, dbgauge committed $((ok1 + ok2))"
fbsql 'DROP TABLE dg_conflict; COMMIT;' >/dev/null

# the server stopped and started during a run
if ! fb_own_server; then
  note "skipping the restart check: DG_TEST_FIREBIRD_URL is not the server of $FB_SERVER"
  exit 0
fi
trap '"$FB_SERVER" start >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop -q
t0=$(date +%s.%N)
"$DBGAUGE" run --db "$url" --workload tpcb -c 2 -T 12s -P 1s --json "$TMP/down.json" > "$TMP/down.out" 2>&1 &
run_pid=$!
sleep 3
"$FB_SERVER" stop
note "server stopped at $(python3 -c "print(round($(date +%s.%N) - $t0, 1))") s"
sleep 3
"$FB_SERVER" start
note "server started at $(python3 -c "print(round($(date +%s.%N) - $t0, 1))") s"
set +e; wait $run_pid; rc=$?; set -e
elapsed=$(python3 -c "print(round($(date +%s.%N) - $t0, 1))")
note "run exited $rc after $elapsed s: $(json "$TMP/down.json" "d['monitor']['reconnects']") reconnects, $(json "$TMP/down.json" "round(d['monitor']['downtime_s'], 1)") s down"
[ "$rc" = 0 ] || { cat "$TMP/down.out"; fail "the run exited $rc"; }
python3 -c "import sys; sys.exit(0 if $elapsed < 16 else 1)" || fail "the run took $elapsed s (12 s asked)"
json "$TMP/down.json" "d['monitor']['reconnects'] >= 2 and d['monitor']['downtime_s'] > 2" | grep -q True || fail "reconnects/downtime: $(json "$TMP/down.json" "d['monitor']")"
json "$TMP/down.json" "sum(i['transactions'] for i in d['intervals'][-3:]) > 0" | grep -q True || fail "no transactions after the restart"
grep -q "reconnect" "$TMP/down.out" || fail "no reconnect shown in the run's output"
committed=$(json "$TMP/down.json" "d['totals']['transactions']")
history=$(fbsql 'SELECT COUNT(*) FROM pgbench_history;')
note "committed=$committed history=$history"
[ "$history" -ge "$committed" ] && [ "$history" -le $((committed + 2)) ] || fail "history rows $history vs committed $committed"
"$DBGAUGE" check --db "$url" --workload tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances disagree after the restart"; }
