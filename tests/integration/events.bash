# events.bash - the events engine (--workers N: terminals as fibers on N threads, the
# client library in non-blocking mode) against a server of the test's own, max_connections
# raised (sourced by postgres_events.sh and mysql_events.sh, with $url set and q QUERY
# answering one value):
#   - tpcb-like with 8 terminals on 2 workers: every count exact against the server
#     (history rows = committed transactions, balances agree), the engine recorded;
#   - 300 terminals thinking 100 ms on 2 workers: -T 3s measures exactly 3 s, every
#     terminal runs, the throughput is what the think time allows, the timers are counted;
#   - a server restart in the middle (once the run has started): terminals reconnect (new sockets, often reusing
#     descriptor numbers) and go on; the run completes;
#   - Ctrl-C (SIGINT) ends an events run at once with exit 2 and a partial result file.

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 -q --no-results

# ---- exact counts ----
"$DBGAUGE" run --db "$url" -w tpcb -c 8 --workers 2 -T 3s -P 1s -q --json "$TMP/r1.json" >/dev/null \
  || fail "tpcb-like run with --workers 2 failed"
json "$TMP/r1.json" "d['run']['engine']['kind'] == 'events' and d['run']['engine']['workers'] == 2" \
  | grep -q True || fail "engine not recorded: $(json "$TMP/r1.json" "d['run']['engine']")"
json "$TMP/r1.json" "d['run']['complete'] and d['totals']['errors'] == 0 and d['totals']['transactions'] > 100" \
  | grep -q True || fail "run: $(json "$TMP/r1.json" "d['totals']")"
done_tx=$(completed "$TMP/r1.json")
hist=$(q "SELECT count(*) FROM pgbench_history")
note "tpcb-like, 8 terminals on 2 workers: $done_tx transactions, $hist history rows"
[ "$hist" = "$done_tx" ] || fail "history has $hist rows, dbgauge completed $done_tx"
sums=$(q "SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(delta) FROM pgbench_history) AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(delta) FROM pgbench_history) AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history)")
[ "$sums" = "$TRUE" ] || fail "balances do not add up: $sums"

# ---- many thinking terminals ----
"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 300 --workers 2 -T 3s --think-time 100 -q \
  --json "$TMP/r2.json" >/dev/null 2>"$TMP/err2" || { cat "$TMP/err2"; fail "300 terminals failed"; }
note "300 terminals on 2 workers, 100 ms think: $(json "$TMP/r2.json" "round(d['totals']['tps'])") tps, measured $(json "$TMP/r2.json" "d['totals']['duration_s']") s, connect $(json "$TMP/r2.json" "d['run']['connect_s']") s, timers late $(json "$TMP/r2.json" "d['run']['engine']['timer_lag_avg_ms']") ms on average"
json "$TMP/r2.json" "abs(d['totals']['duration_s'] - 3) < 1e-6 and d['run']['complete'] and d['run']['terminals'] == 300 and d['run']['aborted_terminals'] == 0 and d['totals']['errors'] == 0" \
  | grep -q True || fail "300 terminals: $(json "$TMP/r2.json" "(d['totals'], d['run']['complete'])")"
# 300 terminals x 10 per second at most (each starts at most 30 in 3 s): more would mean
# think times were skipped. No floor on speed (a busy machine may be slow), but every
# terminal ran: at least one transaction each
json "$TMP/r2.json" "d['totals']['transactions'] >= 300 and d['totals']['tps'] <= 3030" | grep -q True \
  || fail "tps $(json "$TMP/r2.json" "d['totals']['tps']")"
# every think time is a timer (but each terminal's last, which the end may cut short); its
# lag is a number
json "$TMP/r2.json" "d['run']['engine']['timers'] >= d['totals']['transactions'] - 300 and d['run']['engine']['timer_lag_avg_ms'] >= 0" \
  | grep -q True || fail "engine timers: $(json "$TMP/r2.json" "d['run']['engine']")"

# ---- a restart in the middle: reconnects ----
# 13 s left after the restart begins: under the sanitizers, with other tests beside it, a
# server's restart took more than the 4 s a 6 s run once left, and the run ended before
# any terminal could reconnect
"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 20 --workers 2 -T 15s --think-time 20 -P 1s \
  --json "$TMP/r3.json" >"$TMP/out3" 2>"$TMP/err3" &
pid=$!
# once the run has started (its first interval line): a restart a fixed 2 s after the
# start once came while 20 sessions were still connecting under the sanitizers, and a run
# whose terminals cannot all connect does not start (by design), so there was no result
for _ in $(seq 600); do grep -q ' tps ' "$TMP/out3" 2>/dev/null && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
grep -q ' tps ' "$TMP/out3" || { cat "$TMP/out3" "$TMP/err3"; fail "restart: the run did not start in 60 s"; }
"$CTL" restart >/dev/null
wait $pid || true
json "$TMP/r3.json" "d['monitor']['reconnects'] >= 1 and d['run']['aborted_terminals'] == 0" | grep -q True \
  || { cat "$TMP/err3"; fail "restart: $(json "$TMP/r3.json" "(d['monitor']['reconnects'], d['run']['aborted_terminals'])")"; }
json "$TMP/r3.json" "d['intervals'][-1]['tps'] > 0" | grep -q True \
  || fail "no transactions after the restart: $(json "$TMP/r3.json" "[i['tps'] for i in d['intervals']]")"
note "restart: $(json "$TMP/r3.json" "d['monitor']['reconnects']") reconnects, last interval $(json "$TMP/r3.json" "d['intervals'][-1]['tps']") tps"

# ---- SIGINT ----
"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 50 --workers 2 -T 60s --think-time 100 -P 1s \
  --json "$TMP/r4.json" >"$TMP/out4" 2>"$TMP/err4" &
pid=$!
# once the run has started (its first progress line), however long connecting took: under
# the sanitizers on a busy machine 50 sessions can take more than the 2 s this once slept,
# and a Ctrl-C while connecting is another case (exit 2, no result: nothing measured)
for _ in $(seq 600); do grep -q ' tps ' "$TMP/out4" 2>/dev/null && break; sleep 0.1; done
start=$(date +%s)
kill -INT $pid
set +e; wait $pid; rc=$?; set -e
took=$(( $(date +%s) - start ))
[ "$rc" = 2 ] || { cat "$TMP/out4" "$TMP/err4"; fail "SIGINT: exit $rc, expected 2"; }
[ "$took" -lt 15 ] || fail "SIGINT took $took s to end the run"
json "$TMP/r4.json" "d['run']['complete'] == False and 'SIGINT' in d['run']['stop_reason']" | grep -q True \
  || fail "SIGINT result: $(json "$TMP/r4.json" "d['run']['stop_reason']")"
