#!/usr/bin/env bash
# Firebird failures as users meet them:
#   - a wrong password: exit 1, a clear message, and the password nowhere in the output;
#   - a database file that does not exist: exit 1, the path named;
#   - a client library that cannot be loaded (DBGAUGE_FBCLIENT naming no file): exit 1,
#     the file named;
#   - wire_crypt=disabled against a server that requires encryption (the test server keeps
#     Firebird's default, WireCrypt = Required): exit 1, Firebird's message, SQLSTATE 28000
#     and what the server would need; a wire setting on an embedded database is refused; the
#     result file says what the wire agreed on (firebird_server_ctl checks an unencrypted one);
#   - an update conflict between two SNAPSHOT (REPEATABLE READ) transactions is classified
#     RETRY: with --max-tries 1 such errors are counted as class "retry", with the default
#     they are retried, and the row holds exactly one increment per committed transaction;
#   - the server stopped mid-run and started again (restart.bash, only when
#     scripts/servers/firebird.sh runs the test server): the run ends on time, reconnects,
#     and every transaction dbgauge reports as committed is in the database; transactions
#     whose COMMIT was in flight when the connection broke are reported with SQLSTATE 08007
#     (outcome unknown) and are the only possible difference
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

# the client library is opened by the first connection: one that cannot be loaded is a
# clear error naming the file, not a failure to start (and the password stays out of it)
DBGAUGE_FBCLIENT=/nonexistent/libfbclient.so.2 expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb:select-only -T 1s --no-results
grep -q "cannot load the Firebird client library from /nonexistent/libfbclient.so.2 (set by DBGAUGE_FBCLIENT)" "$TMP/err" \
  || fail "an unloadable client library: $(cat "$TMP/err")"
grep -q "dbgauge:$FB_PASS@" "$TMP/err" && fail "the password shows in the output"
note "client library missing: $(head -n 1 "$TMP/err")"

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
ok1=$(completed "$TMP/c1.json")
note "snapshot conflicts, --max-tries 1: $ok1 committed, $retry_errors retry-class errors, $other_errors others"
[ "$retry_errors" -gt 0 ] || fail "no update conflict classified as retry: $(cat "$TMP/c1.out")"
[ "$other_errors" = 0 ] || fail "conflicts classified otherwise: $(json "$TMP/c1.json" "d['errors']")"
grep -q "update conflicts with concurrent update" "$TMP/c1.json" || fail "conflict message"
"$DBGAUGE" run --db "$url" -f "$TMP/conflict.sql" -c 2 -T 2s -q --json "$TMP/c2.json" > "$TMP/c2.out" 2>&1 || true
ok2=$(completed "$TMP/c2.json")
retries=$(json "$TMP/c2.json" "d['totals']['retries']")
note "snapshot conflicts, default tries: $ok2 committed after $retries retries"
[ "$retries" -gt 0 ] || fail "conflicts were not retried"
v=$(fbsql 'SELECT v FROM dg_conflict WHERE id = 1;')
[ "$v" = $((ok1 + ok2)) ] || fail "row holds $v increments, dbgauge committed $((ok1 + ok2))"
fbsql 'DROP TABLE dg_conflict; COMMIT;' >/dev/null

# the wire: encrypted by default, compressed when asked; no unencrypted wire with a server
# that requires encryption
sep='?'; case $url in *'?'*) sep='&' ;; esac
"$DBGAUGE" run --db "$url${sep}wire_compression=on" -w tpcb:select-only -t 5 -q --json "$TMP/wire.json" \
  > /dev/null 2> "$TMP/err" || fail "wire_compression=on: $(cat "$TMP/err")"
[ "$(json "$TMP/wire.json" "d['server']['settings']['wire_compressed']")" = on ] ||
  fail "wire_compressed in the result: $(json "$TMP/wire.json" "d['server']['settings']")"
if fb_own_server; then # Firebird's default, WireCrypt = Required
  [ "$(json "$TMP/wire.json" "d['server']['settings']['wire_encrypted']")" = on ] ||
    fail "wire_encrypted in the result: $(json "$TMP/wire.json" "d['server']['settings']")"
  expect_exit 1 "$DBGAUGE" run --db "$url${sep}wire_crypt=disabled" -w tpcb:select-only -T 1s --json "$TMP/nowire.json"
  grep -q "Incompatible wire encryption levels requested on client and server" "$TMP/err" &&
    grep -q "wire_crypt=disabled: this server requires encryption (it accepts an unencrypted wire with WireCrypt = Enabled in its firebird.conf): Incompatible" "$TMP/err" &&
    grep -q "\[28000\]" "$TMP/err" ||
    fail "wire_crypt=disabled against WireCrypt = Required: $(cat "$TMP/err")"
  grep -q "dbgauge:$FB_PASS@" "$TMP/err" && fail "the password shows in the output"
  [ ! -e "$TMP/nowire.json" ] || fail "a refused connection left a result file"
  note "unencrypted wire refused: $(head -n 1 "$TMP/err")"
fi
expect_exit 1 "$DBGAUGE" run --db "firebird:$TMP/embedded.fdb?wire_crypt=disabled" -w tpcb:select-only -T 1s --no-results
grep -q "wire_crypt and wire_compression apply to connections through a server" "$TMP/err" ||
  fail "a wire setting on an embedded database: $(cat "$TMP/err")"

# ---- the server stopped mid-run, then started again (restart.bash) -------------------------------
server=$FB_SERVER
q() { fbsql "$1;"; }
source "$(dirname "$0")/restart.bash"
ENV_VAR=DG_TEST_FIREBIRD_URL restart_test
