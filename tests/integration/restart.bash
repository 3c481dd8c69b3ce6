# restart.bash - the "server stopped mid-run, then started again" test shared by the server
# backends (sourced after common.bash). The caller defines $url, $server (the script under
# scripts/servers that manages the test server), ENV_VAR (its DG_TEST_*_URL name) and q
# (runs one query returning one value), then calls restart_test.
#
# A 12 s tpcb run with 2 terminals; the server is stopped at ~3 s and started at ~6 s. The
# run must finish on time with every terminal (exit 0), report reconnects and downtime in
# the monitor section and in the intervals where they happened, and afterwards the
# database must hold every commit dbgauge reported, plus at most the ones whose outcome
# was unknown (connection lost during COMMIT), and tpcb's balances must agree.

elapsed_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'; }

restart_test() {
  if ! "$server" status >/dev/null 2>&1 || [ "$("$server" env)" != "export $ENV_VAR=$url" ]; then
    note "skip restart test: $url is not the server $server manages"
    return 0
  fi
  trap '"$server" start >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
  "$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --seed 5 > /dev/null
  local t0 pid rc elapsed committed unknown history
  t0=$(date +%s.%N)
  "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 12s -P 1s --json "$TMP/down.json" > "$TMP/down.out" 2> "$TMP/down.err" &
  pid=$!
  sleep 3
  "$server" stop
  while [ "$(elapsed_since "$t0" | cut -d. -f1)" -lt 6 ]; do sleep 0.1; done
  "$server" start
  set +e; wait $pid; rc=$?; set -e
  elapsed=$(elapsed_since "$t0")
  note "run with a restart: exit $rc after $elapsed s"
  # the runner reconnects and finishes the planned duration with every terminal: exit 0
  # (2 would mean a terminal gave up, e.g. when reconnecting failed for a non-network reason)
  [ "$rc" = 0 ] || { cat "$TMP/down.err"; fail "exit status $rc after a server restart"; }
  awk -v e="$elapsed" 'BEGIN {exit !(e < 17)}' || fail "the run took $elapsed s for 12 s: it hung"
  json "$TMP/down.json" "d['monitor']['reconnects'] > 0 and d['monitor']['downtime_s'] > 1" | grep -q True || fail "no reconnects / downtime in the monitor section"
  json "$TMP/down.json" "sum(i['reconnects'] for i in d['intervals']) == d['monitor']['reconnects'] and any(i['downtime_s'] > 0 for i in d['intervals'])" | grep -q True || fail "reconnects / downtime missing from the intervals"
  json "$TMP/down.json" "any(i['transactions'] > 0 for i in d['intervals'][-3:])" | grep -q True || fail "no transactions after the restart"
  grep -q "reconnecting" "$TMP/down.err" || fail "the lost connection was not reported"
  committed=$(json "$TMP/down.json" "d['totals']['transactions']")
  unknown=$(json "$TMP/down.json" "d['totals']['unknown_outcome'] + d['warmup']['unknown_outcome']")
  history=$(q 'SELECT count(*) FROM pgbench_history')
  note "committed=$committed history=$history outcome unknown=$unknown"
  [ "$history" -ge "$committed" ] || fail "history $history < committed $committed: a reported commit is missing"
  [ "$history" -le $((committed + unknown)) ] || fail "history $history > committed $committed + unknown $unknown"
  "$DBGAUGE" check --db "$url" -w tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances after a restart"; }
}
