# odbc.bash - helpers of the ODBC tests (sourced after common.bash): the same engines as the
# native tests, reached through Debian's ODBC drivers (scripts/deps.sh test installs them).
#
#   odbc_need DRIVER        skips (exit 77) when this dbgauge has no ODBC backend; fails
#                           unless unixODBC knows DRIVER (an installed driver's name, as
#                           `odbcinst -q -d` lists it)
#   odbc_from_url URL DRIVER  the odbc: URL of a postgres:// or mysql:// test URL
#   odbc_tpcb URL COUNT-CMD   loads tpcb at scale 1 through URL, runs 2 terminals for 3 s and
#                           checks the committed count against the history rows COUNT-CMD
#                           prints (exact) and the balance checks
#   odbc_tpcc URL           loads tpcc at scale 1 through URL, runs 2 terminals for 3 s with a
#                           mix heavy in New-Order and Delivery (Delivery's races for the oldest
#                           new order: an UPDATE or DELETE that finds no row), then with the
#                           stored procedures (procedures=1): no error in either, and
#                           `dbgauge check` passes after each
#   odbc_server_figures ENGINE  the last odbc_tpcb's result names ENGINE (server.version's
#                           first word), shows the URL redacted, and has the server's cache
#                           hit ratio and database size
#   odbc_killed URL KILL COUNT-CMD  a 2-terminal tpcb run through URL whose sessions the
#                           function KILL ends on the server once two interval lines are out
#                           (it prints how many it ended): the run reconnects and finishes
#                           (exit 0), reconnects are counted, work goes on after the kill,
#                           the monitor reads the server's figures again, and the history
#                           rows COUNT-CMD prints lie between the committed transactions and
#                           those plus the ones whose COMMIT's outcome is unknown
odbc_need() {
  "$DBGAUGE" list >"$TMP/list" 2>&1
  if grep -q "^  odbc .*not built" "$TMP/list"; then
    # a build without the backend (scripts/check's minimal one): nothing to test; the main
    # build asks for it with -DDG_WITH_ODBC=ON, which fails when unixodbc-dev is missing
    echo "skip: this dbgauge was built without the ODBC backend" >&2
    exit 77
  fi
  grep -q "^odbc drivers:.* $1\(,\|$\)" "$TMP/list" ||
    fail "the ODBC driver '$1' is not installed ($(grep '^odbc drivers' "$TMP/list"))"
}

odbc_from_url() {
  python3 - "$1" "$2" <<'PY'
import sys, urllib.parse as up
p = up.urlsplit(sys.argv[1])
attrs = ["DRIVER={%s}" % sys.argv[2], "SERVER=" + (p.hostname or "127.0.0.1")]
if p.port: attrs.append("PORT=%d" % p.port)
attrs.append("DATABASE=" + p.path.lstrip("/"))
if p.username: attrs.append("UID=" + up.unquote(p.username))
if p.password: attrs.append("PWD=" + up.unquote(p.password))
print("odbc:" + ";".join(attrs))
PY
}

odbc_tpcb() {
  local url=$1; shift
  "$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results
  "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 3s --warmup 1s -P 1s --json "$TMP/tpcb.json" >"$TMP/tpcb.out" 2>&1 ||
    { cat "$TMP/tpcb.out" >&2; fail "tpcb through ODBC exited $?"; }
  local committed history
  committed=$(json "$TMP/tpcb.json" "d['totals']['transactions'] + d['warmup']['transactions'] + d['drain']['transactions']")
  history=$("$@")
  [ "$history" = "$committed" ] || fail "history rows $history != committed transactions $committed"
  [ "$committed" -gt 100 ] || fail "only $committed transactions through ODBC"
  [ "$(json "$TMP/tpcb.json" "d['run']['backend'], d['totals']['errors']")" = "odbc 0" ] ||
    fail "run.backend / errors: $(json "$TMP/tpcb.json" "d['run']['backend'], d['totals']['errors']")"
  "$DBGAUGE" check --db "$url" -w tpcb >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "check through ODBC"; }
  note "tpcb through ODBC: $committed committed = $history history rows"
}

odbc_server_figures() {
  python3 - "$TMP/tpcb.json" "$1" <<'PY' || fail "$1 through ODBC: the result's server figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["server"]["version"].split()[0] == sys.argv[2], d["server"]["version"]
assert "PWD=***" in d["run"]["db"], d["run"]["db"]
m = d["monitor"]
assert m["cache_hit_pct"] is not None and m["db_size_after_bytes"] > 1e6, m
PY
}

odbc_killed() {
  local url=$1 killfn=$2 pid n waited=0 killed committed unknown history
  shift 2
  "$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results
  "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 8s -P 1s --json "$TMP/kill.json" > "$TMP/kill.out" 2> "$TMP/kill.err" &
  pid=$!
  while n=$(grep -c ' tps ' "$TMP/kill.out" 2>/dev/null); [ "${n:-0}" -lt 2 ]; do
    kill -0 "$pid" 2>/dev/null || { cat "$TMP/kill.err" >&2; fail "the run ended before its sessions were killed"; }
    [ $((waited += 1)) -lt 600 ] || fail "no interval line in 60 s"
    sleep 0.1
  done
  killed=$("$killfn")
  set +e; wait "$pid"; local rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$TMP/kill.err" >&2; fail "exit $rc after the sessions were killed"; }
  [ "${killed:-0}" -ge 3 ] || fail "ended $killed sessions: expected both terminals' and the monitor's"
  grep -q "reconnecting" "$TMP/kill.err" || fail "the lost connections were not reported: $(cat "$TMP/kill.err")"
  python3 - "$TMP/kill.json" <<'PY' || fail "the run after its sessions were killed"
import json, sys
d = json.load(open(sys.argv[1]))
ivs = d["intervals"]
assert d["monitor"]["reconnects"] >= 2 and d["run"]["complete"], (d["monitor"], d["run"]["complete"])
k = max(i for i, iv in enumerate(ivs) if iv["reconnects"] > 0)
assert any(iv["transactions"] > 0 for iv in ivs[k + 1:]), [(iv["t_s"], iv["transactions"]) for iv in ivs]
# the monitor's own session was ended too: it opened another, the last interval has figures
assert ivs[-1]["cache_hit_pct"] is not None and ivs[-1]["db_size_bytes"] is not None, ivs[-1]
PY
  committed=$(json "$TMP/kill.json" "d['totals']['transactions'] + d['warmup']['transactions'] + d['drain']['transactions']")
  unknown=$(json "$TMP/kill.json" "d['totals']['unknown_outcome'] + d['warmup']['unknown_outcome'] + d['drain']['unknown_outcome']")
  history=$("$@")
  [ "$history" -ge "$committed" ] && [ "$history" -le $((committed + unknown)) ] ||
    fail "history rows $history, committed $committed, outcome unknown $unknown"
  "$DBGAUGE" check --db "$url" -w tpcb >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "check after the kill"; }
  note "ODBC sessions killed: $killed ended, $(json "$TMP/kill.json" "d['monitor']['reconnects']") reconnects, committed $committed, history $history, unknown $unknown"
}

odbc_tpcc() {
  local url=$1
  "$DBGAUGE" load --db "$url" -w tpcc --scale 1 --drop -q --no-results > "$TMP/tpcc-load.out" 2>&1 ||
    fail "tpcc load through ODBC: $(tail -5 "$TMP/tpcc-load.out")"
  local mode
  for mode in statements procedures; do
    local opt=()
    [ "$mode" = procedures ] && opt=(--wl-opt procedures=1)
    "$DBGAUGE" run --db "$url" -w tpcc "${opt[@]}" -c 2 -T 3 -q \
      --mix new_order=45,payment=10,order_status=5,delivery=35,stock_level=5 \
      --json "$TMP/tpcc-$mode.json" > "$TMP/tpcc-$mode.out" 2>&1 ||
      fail "tpcc ($mode) through ODBC: $(tail -8 "$TMP/tpcc-$mode.out")"
    [ "$(json "$TMP/tpcc-$mode.json" "d['totals']['errors'] == 0 and d['totals']['transactions'] > 0")" = True ] ||
      fail "tpcc ($mode) through ODBC: $(json "$TMP/tpcc-$mode.json" "d['totals']") $(grep -A3 'errors:' "$TMP/tpcc-$mode.out")"
    "$DBGAUGE" check --db "$url" -w tpcc > "$TMP/tpcc-check.out" 2>&1 ||
      fail "tpcc ($mode) check through ODBC: $(cat "$TMP/tpcc-check.out")"
  done
}
