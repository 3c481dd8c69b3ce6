# restart.bash - the "server stopped mid-run, then started again" test shared by the server
# backends (sourced after common.bash). The caller defines $url, $server (the script under
# scripts/servers that manages the test server), ENV_VAR (its DG_TEST_*_URL name) and q
# (runs one query returning one value), then calls restart_test.
#
# A 20 s tpcb run with 2 terminals; once it has printed two interval lines the server is
# stopped, and started again 2 s after it went down (the timeline follows the run, not the
# clock, so a slow start or a slow shutdown on a loaded machine moves it instead of
# breaking it). The run must finish on time with every terminal (exit 0), report reconnects and downtime in
# the monitor section and in the intervals where they happened, and afterwards the
# database must hold every commit dbgauge reported, plus at most the ones whose outcome
# was unknown (connection lost during COMMIT), and tpcb's balances must agree.

elapsed_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'; }

restart_test() {
  local env_out
  env_out=$("$server" env 2>/dev/null || true) # whole, then matched: no pipe to race
  if ! "$server" status >/dev/null 2>&1 || ! grep -qxF "export $ENV_VAR=$url" <<<"$env_out"; then
    note "skip restart test: $url is not the server $server manages"
    return 0
  fi
  trap '"$server" start >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
  "$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --seed 5 > /dev/null
  local t0 t1 pid rc elapsed committed unknown history waited=0 n
  "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 20s -P 1s --json "$TMP/down.json" > "$TMP/down.out" 2> "$TMP/down.err" &
  pid=$!
  while n=$(grep -c ' tps ' "$TMP/down.out" 2>/dev/null); [ "${n:-0}" -lt 2 ]; do
    kill -0 "$pid" 2>/dev/null || { cat "$TMP/down.err"; fail "the run ended before the restart"; }
    [ $((waited += 1)) -lt 300 ] || fail "no interval line in 30 s"
    sleep 0.1
  done
  t0=$(date +%s.%N)
  "$server" stop
  sleep 2
  "$server" start
  t1=$(date +%s.%N)
  set +e; wait $pid; rc=$?; set -e
  elapsed=$(elapsed_since "$t0")
  note "server down and up again in $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s"
  note "run with a restart: exit $rc after $elapsed s"
  # the runner reconnects and finishes the planned duration with every terminal: exit 0
  # (2 would mean a terminal gave up, e.g. when reconnecting failed for a non-network reason)
  [ "$rc" = 0 ] || { cat "$TMP/down.err"; fail "exit status $rc after a server restart"; }
  # the stop came after 2 s of the run: the rest is at most 18 s, plus the slack of a
  # terminal that waits out a reconnect attempt
  awk -v e="$elapsed" 'BEGIN {exit !(e < 24)}' || fail "the run went on $elapsed s after the stop, of 18 s left: it hung"
  json "$TMP/down.json" "d['monitor']['reconnects'] > 0 and d['monitor']['downtime_s'] > 1" | grep -q True || fail "no reconnects / downtime in the monitor section"
  json "$TMP/down.json" "sum(i['reconnects'] for i in d['intervals']) == d['monitor']['reconnects'] and any(i['downtime_s'] > 0 for i in d['intervals'])" | grep -q True || fail "reconnects / downtime missing from the intervals"
  json "$TMP/down.json" "any(i['transactions'] > 0 for i in d['intervals'][max(k for k, i in enumerate(d['intervals']) if i['downtime_s'] > 0) + 1:])" | grep -q True \
    || fail "no transactions after the restart: $(json "$TMP/down.json" "[(i['t_s'], i['transactions'], i['downtime_s']) for i in d['intervals']]")"
  grep -q "reconnecting" "$TMP/down.err" || fail "the lost connection was not reported"
  committed=$(json "$TMP/down.json" "d['totals']['transactions'] + d['drain']['transactions']")
  unknown=$(json "$TMP/down.json" "d['totals']['unknown_outcome'] + d['warmup']['unknown_outcome'] + d['drain']['unknown_outcome']")
  history=$(q 'SELECT count(*) FROM pgbench_history')
  note "committed=$committed history=$history outcome unknown=$unknown"
  [ "$history" -ge "$committed" ] || fail "history $history < committed $committed: a reported commit is missing"
  [ "$history" -le $((committed + unknown)) ] || fail "history $history > committed $committed + unknown $unknown"
  "$DBGAUGE" check --db "$url" -w tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances after a restart"; }
}
