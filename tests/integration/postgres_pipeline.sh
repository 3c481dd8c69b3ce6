#!/usr/bin/env bash
# Pipelined transactions on PostgreSQL (--pipeline: BEGIN, the statements and COMMIT sent
# together, the results read at the commit): with a thread per terminal and with the
# events engine, every count is exact against the server (history rows = completed
# transactions, balances agree), also when serialization failures make the pipelined
# transactions fail and be retried; workloads whose statements need each other's results
# are refused before anything runs.
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
command -v psql >/dev/null || fail "psql not found"
q() { psql "$url" -XAtq -c "$1"; }
balances() {
  [ "$(q "SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(delta) FROM pgbench_history) AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history) AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(delta) FROM pgbench_history)")" = t ] \
    || fail "$1: balances do not add up"
}
"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results
total=0
for engine in "--workers 0" "--workers 2"; do
  "$DBGAUGE" run --db "$url" -w tpcb -c 4 -T 2s --pipeline $engine -q --json "$TMP/r.json" >/dev/null \
    || fail "pipelined run ($engine) failed"
  json "$TMP/r.json" "d['run']['pipeline'] and d['run']['complete'] and d['totals']['errors'] == 0 and d['totals']['transactions'] > 50" \
    | grep -q True || fail "$engine: $(json "$TMP/r.json" "(d['run']['pipeline'], d['totals'])")"
  total=$((total + $(completed "$TMP/r.json")))
  hist=$(q "SELECT count(*) FROM pgbench_history")
  note "--pipeline $engine: $(json "$TMP/r.json" "round(d['totals']['tps'])") tps; $total transactions in all, $hist history rows"
  [ "$hist" = "$total" ] || fail "$engine: history has $hist rows, dbgauge completed $total"
  balances "$engine"
done

# a pgbench-style script with BEGIN and no \gset: pipelined as well
"$DBGAUGE" run --db "$url" -f "$DG_FIXTURES/scripts/tpcb-like.sql" -c 2 -T 2s --pipeline -q --json "$TMP/f.json" >/dev/null \
  || fail "pipelined script failed"
json "$TMP/f.json" "d['run']['pipeline'] and d['totals']['errors'] == 0" | grep -q True || fail "script: $(json "$TMP/f.json" "d['totals']")"
total=$((total + $(completed "$TMP/f.json")))
[ "$(q "SELECT count(*) FROM pgbench_history")" = "$total" ] || fail "script: history rows differ from completed transactions"
balances script

# serializable: pipelined transactions fail with 40001 at the commit and run again
"$DBGAUGE" run --db "$url" -w tpcb -c 8 -T 2s --pipeline --workers 2 \
  --conn "default_transaction_isolation=serializable" -q --json "$TMP/s.json" >/dev/null 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "serializable pipelined run failed"; }
total=$((total + $(completed "$TMP/s.json")))
hist=$(q "SELECT count(*) FROM pgbench_history")
note "serializable: $(json "$TMP/s.json" "d['totals']['retries']") retries, $(json "$TMP/s.json" "d['totals']['errors']") transactions failed after every try; $hist history rows"
json "$TMP/s.json" "d['totals']['retries'] > 0" | grep -q True || fail "no serialization failure to retry"
[ "$hist" = "$total" ] || fail "serializable: history has $hist rows, dbgauge completed $total"
balances serializable

# refused before anything runs: a workload whose statements need each other's answers,
# and one with no transaction
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcc -T 1s --pipeline --no-load --json "$TMP/x.json"
grep -q -- "--pipeline: tpcc's statements need each other's results" "$TMP/err" || fail "tpcc: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb:select-only -T 1s --pipeline --json "$TMP/x.json"
grep -q -- "--pipeline: tpcb:select-only" "$TMP/err" || fail "select-only: $(cat "$TMP/err")"
printf 'BEGIN;\nSELECT 1 AS one \\gset\nEND;\n' >"$TMP/gset.sql"
expect_exit 1 "$DBGAUGE" run --db "$url" -f "$TMP/gset.sql" -T 1s --pipeline --json "$TMP/x.json"
grep -q -- "--pipeline: script's statements need each other's results" "$TMP/err" || fail "gset script: $(cat "$TMP/err")"
[ ! -e "$TMP/x.json" ] || fail "a refused run wrote a result file"
echo ok
