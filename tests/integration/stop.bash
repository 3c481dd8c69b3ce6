# Shared by the *_stop.sh tests: SIGTERM while a server is hung, and a connect to a hung
# server. The caller sources common.bash first, sets $url and defines hang and unhang
# (stop and resume the server's processes).
now_ms() { date +%s%3N; }
# (0 while the run's output file does not exist yet: the shell opens it in the child, which
# may not have run yet; an empty answer made the wait below end at once)
interval_lines() { local n; n=$(grep -c ' tps ' "$1" 2>/dev/null) || true; echo "${n:-0}"; }

# sigterm_wait PID: SIGTERM, then waits; sets rc and ms (from the signal to the exit)
sigterm_wait() {
  local t0
  t0=$(now_ms)
  kill -TERM "$1"
  set +e; wait "$1"; rc=$?; set -e
  ms=$(( $(now_ms) - t0 ))
}

# connect_stop PORT: a run connecting to the hung server (the kernel completes the TCP
# handshake, no process answers); SIGTERM once its socket is ESTABLISHED ends the wait
# within 3 s, exit 2, the stop said, no result file
connect_stop() {
  local port_hex pid waited=0
  port_hex=$(printf '%04X' "$1")
  hang
  "$DBGAUGE" run --db "$url" -w tpcb:select-only -c 4 -T 60s --json "$TMP/connect.json" \
    > "$TMP/connect.out" 2> "$TMP/connect.err" &
  pid=$!
  until awk -v p=":$port_hex" '$3 ~ p"$" && $4 == "01" {n++} END {exit n ? 0 : 1}' /proc/net/tcp; do
    kill -0 $pid 2>/dev/null || { cat "$TMP/connect.err"; fail "connect: ended before connecting"; }
    [ $((waited += 1)) -lt 600 ] || fail "connect: no connection to the server in 60 s"
    sleep 0.1
  done
  sigterm_wait $pid
  unhang
  note "connecting to a hung server: SIGTERM, exit $rc after $ms ms: $(cat "$TMP/connect.err")"
  [ "$rc" = 2 ] || { cat "$TMP/connect.err"; fail "connect: exit $rc after SIGTERM, expected 2"; }
  [ "$ms" -lt 3000 ] || fail "connect: exit $ms ms after SIGTERM (3000 at most)"
  grep -q "stopped before the server answered" "$TMP/connect.err" || { cat "$TMP/connect.err"; fail "connect: the stop was not said"; }
  [ ! -e "$TMP/connect.json" ] || fail "connect: a result file for a run that never started"
}

# hung_stop NAME ARGS...: a run whose server hangs once two interval lines are out; after
# an interval without a transaction, SIGTERM ends it within 3 s with its partial result,
# exit 2, and dbgauge's own shutdown of the stuck connections is neither counted as server
# errors (08006, conn_lost) nor warned about as a lost connection ("reconnecting")
hung_stop() {
  local name=$1 pid n waited=0
  shift
  "$DBGAUGE" run --db "$url" -w tpcb:select-only -c 4 -T 120s -P 1s "$@" --json "$TMP/$name.json" \
    > "$TMP/$name.out" 2> "$TMP/$name.err" &
  pid=$!
  while [ "$(interval_lines "$TMP/$name.out")" -lt 2 ]; do
    kill -0 $pid 2>/dev/null || { cat "$TMP/$name.out" "$TMP/$name.err"; fail "$name: the run ended before the stall"; }
    [ $((waited += 1)) -lt 600 ] || fail "$name: no interval line in 60 s"
    sleep 0.1
  done
  hang
  n=$(interval_lines "$TMP/$name.out")
  waited=0
  until tail -n +$((n + 1)) "$TMP/$name.out" | grep -Eq ' tps +0\.0 '; do
    kill -0 $pid 2>/dev/null || { cat "$TMP/$name.out" "$TMP/$name.err"; fail "$name: the run ended during the stall"; }
    [ $((waited += 1)) -lt 600 ] || fail "$name: no interval without transactions in 60 s"
    sleep 0.1
  done
  sigterm_wait $pid
  unhang
  note "$name: SIGTERM during the stall, exit $rc after $ms ms; $(json "$TMP/$name.json" "(d['run']['stop_reason'], d['run']['interrupted_terminals'], d['totals']['errors'], d['errors'])")"
  [ "$rc" = 2 ] || { cat "$TMP/$name.out" "$TMP/$name.err"; fail "$name: exit $rc, expected 2"; }
  [ "$ms" -lt 3000 ] || { cat "$TMP/$name.err"; fail "$name: exit $ms ms after SIGTERM (3000 at most)"; }
  json "$TMP/$name.json" "d['run']['complete'] is False and d['run']['stop_reason'] == 'interrupted (SIGTERM)' and d['run']['interrupted_terminals'] == 4" \
    | grep -q True || fail "$name: $(json "$TMP/$name.json" "d['run']")"
  json "$TMP/$name.json" "not any('08006' in e['message'] or e['class'] == 'conn_lost' for e in d['errors']) and d['totals']['errors'] == 0 and d['drain']['errors'] == 0" \
    | grep -q True || fail "$name: dbgauge's own interrupt counted as errors: $(json "$TMP/$name.json" "(d['totals']['errors'], d['errors'])")"
  ! grep -q "reconnecting" "$TMP/$name.err" || { cat "$TMP/$name.err"; fail "$name: a reconnect warning for dbgauge's own interrupt"; }
}
