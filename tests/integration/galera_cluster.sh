#!/usr/bin/env bash
# A 3-node MariaDB Galera cluster (scripts/servers/galera.sh, started here when it is not
# running) driven through one URL that names the three nodes:
#   - tpcb at scale 1 with terminals on every node (place=terminal): the cluster's
#     conflicts are counted apart (certification failures, brute-force aborts), each node
#     has its transactions and figures in every interval, and the count audit
#     (Δwsrep_last_committed − Σ Δwsrep_local_cert_failures) equals dbgauge's committed
#     count exactly; `check` finds the balances agree;
#   - failover: every terminal on node 0 (place=first), node 0 killed by --event 2 s in:
#     the terminals move to node 1, the outage and the recovery are in the intervals, the
#     event is in the result, and the history rows equal dbgauge's committed count (to
#     within the transactions whose COMMIT lost its connection);
#   - bad input: a host list whose every node is down, a malformed host list, a node down
#     at the start (the run goes on with the others and says so).
source "$(dirname "$0")/common.bash"
GALERA="$DG_SRC/scripts/servers/galera.sh"
if [ -z "${DG_TEST_GALERA_URL:-}" ]; then
  "$GALERA" start >"$TMP/galera-start.log" 2>&1 || { tail -n 30 "$TMP/galera-start.log" >&2; fail "the Galera cluster did not start"; }
fi
eval "$("$GALERA" env)"
url=$DG_TEST_GALERA_URL
# the cluster's members, for SQL from the test (the mariadb client, as root over a socket)
q() { mariadb --no-defaults -S "${DG_SERVER_DIR:-/tmp/dbgauge-servers}/galera/node$1/mysqld.sock" -u root -N -B dbgauge -e "$2"; }

# settled: every node has applied the same last write set (a load's may still be on its
# way to some; a run waits at most 10 s for that before its audit's first reading)
settled() {
  local i s0 s k
  for k in $(seq 1 1200); do
    s0=$(q 0 "SHOW STATUS LIKE 'wsrep_last_committed'" | cut -f2)
    s=$s0
    for i in 1 2; do [ "$(q $i "SHOW STATUS LIKE 'wsrep_last_committed'" | cut -f2)" = "$s0" ] || s=""; done
    [ -n "$s" ] && return 0
    sleep 0.05
  done
  fail "the nodes did not apply the same write sets within a minute"
}
"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop -q --json "$TMP/load.json" \
  || fail "load through the node list"
settled

# ---- conflicts and the audit ---------------------------------------------------------
"$DBGAUGE" run --db "$url" --workload tpcb -c 6 -T 3 -P 1 --seed 7 -q --json "$TMP/r.json" \
  > "$TMP/r.out" 2>&1 || { cat "$TMP/r.out"; fail "run on three nodes"; }
json "$TMP/r.json" "json.dumps(d['cluster'])" >&2
python3 - "$TMP/r.json" <<'PY' || fail "cluster figures"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cluster"]
assert c["kind"] == "galera" and c["place"] == "terminal", c
# every node had its terminals at work; one may commit nothing in 3 s when its every
# transaction lost certification to the others' on the one branch row (a loaded CI
# machine: 0 commits, 32 conflicts on one node)
assert len(c["nodes"]) == 3 and all(n["transactions"] + n["errors"] > 0 for n in c["nodes"]), c["nodes"]
assert sum(n["transactions"] for n in c["nodes"]) == d["totals"]["transactions"], c["nodes"]
conf = d["totals"]["conflicts"]
assert conf["cert_failures"] + conf["bf_aborts"] > 0 and conf["complete"], conf
assert conf["cert_failures"] == sum(n["conflicts"]["cert_failures"] for n in c["nodes"]), c
a = c["audit"]
assert a["exact"] is True and a["cluster_committed"] == a["dbgauge_committed"], a
assert a["unknown_outcome"] == 0 and a["nodes_agree"], a
assert d["monitor"]["server_commits"] == a["cluster_committed"], d["monitor"]
assert d["verdict"]["limited_by"] == "cluster_conflicts", d["verdict"]
for iv in d["intervals"]:
    assert [n["node"] for n in iv["nodes"]] == [n["node"] for n in c["nodes"]], iv["nodes"]
    assert all(n["status"] == "ok" and n["cluster_size"] == 3 and n["synced"] for n in iv["nodes"]), iv["nodes"]
    assert sum(n["transactions"] for n in iv["nodes"]) == iv["transactions"], iv
print("conflicts", conf, "audit", a["cluster_committed"])
PY
grep -q 'conflicts: [0-9]* certification failures' "$TMP/r.out" || { cat "$TMP/r.out"; fail "no conflicts line"; }
grep -q 'cluster audit: .*: exact' "$TMP/r.out" || { cat "$TMP/r.out"; fail "no audit line"; }
"$DBGAUGE" check --db "$url" --workload tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances disagree"; }

note "conflicts at scale 1: ${SECONDS}s"
# ---- at scale 10 (ten branches, not one) the same run conflicts less ---------------------
"$DBGAUGE" load --db "$url" --workload tpcb --scale 10 --drop -q --json "$TMP/load10.json" \
  || fail "load scale 10"
settled
"$DBGAUGE" run --db "$url" --workload tpcb -c 6 -T 3 -P 1 --seed 7 -q --json "$TMP/r10.json" \
  > "$TMP/r10.out" 2>&1 || { cat "$TMP/r10.out"; fail "run at scale 10"; }
python3 - "$TMP/r.json" "$TMP/r10.json" <<'PY' || fail "conflicts at scale 10"
import json, sys
def per_tx(f):
    d = json.load(open(f)); c = d["totals"]["conflicts"]
    assert d["cluster"]["audit"]["exact"] is True, d["cluster"]["audit"]
    return (c["cert_failures"] + c["bf_aborts"]) / max(1, d["totals"]["transactions"])
one, ten = per_tx(sys.argv[1]), per_tx(sys.argv[2])
print("conflicts per committed transaction: scale 1 %.3f, scale 10 %.3f" % (one, ten))
assert ten < one, (one, ten)
PY

note "scale 10: ${SECONDS}s"
# ---- failover: node 0 killed by --event ------------------------------------------------
restore_node0() { "$GALERA" start-node 0 >/dev/null 2>&1 || true; }
trap 'restore_node0; rm -rf "$TMP"' EXIT
before=$(q 1 "SELECT COUNT(*) FROM pgbench_history")
"$DBGAUGE" run --db "$url?place=first" --workload tpcb -c 2 -T 9 -P 1 -q \
  --event "2s:$GALERA kill-node 0" --event "1s:echo mysql://u:hush1234@h/x >/dev/null" \
  --json "$TMP/f.json" > "$TMP/f.out" 2>&1 || { cat "$TMP/f.out"; fail "failover run"; }
after=$(q 1 "SELECT COUNT(*) FROM pgbench_history")
python3 - "$TMP/f.json" "$((after - before))" <<'PY' || fail "failover figures"
import json, sys
d = json.load(open(sys.argv[1])); rows = int(sys.argv[2])
ev = d["events"]
assert [e["at_s"] for e in ev] == [1.0, 2.0] and all(e["status"] == "ok" and e["exit"] == 0 for e in ev), ev
assert "hush1234" not in json.dumps(d) and "u:***@h" in ev[0]["command"], ev
n0, n1, n2 = d["cluster"]["nodes"]
assert n0["transactions"] > 0 and n1["transactions"] > 0 and n1["arrivals"] == 2, (n0, n1)
assert n2["transactions"] == 0, n2
assert d["run"]["complete"] and d["monitor"]["reconnects"] >= 2, (d["run"], d["monitor"])
ivs = d["intervals"]
assert ivs[-1]["tps"] > 0 and ivs[-1]["nodes"][1]["transactions"] > 0, ivs[-1]   # recovered
assert ivs[-1]["nodes"][0]["status"] == "no_answer", ivs[-1]["nodes"][0]
assert min(i["tps"] for i in ivs[2:]) < 0.5 * ivs[0]["tps"], [i["tps"] for i in ivs]  # the dip
mine = d["cluster"]["audit"]["dbgauge_committed"]; unk = d["cluster"]["audit"]["unknown_outcome"]
assert mine <= rows <= mine + unk, (mine, unk, rows)
print("failover: rows", rows, "committed", mine, "unknown", unk, "tps", [round(i["tps"]) for i in ivs])
PY
grep -q 'hush1234' "$TMP/f.out" && fail "a password on the console"
note "failover run: ${SECONDS}s"
restore_node0
note "node 0 back: ${SECONDS}s"
trap 'rm -rf "$TMP"' EXIT

# ---- bad input -----------------------------------------------------------------------
expect_exit 1 "$DBGAUGE" run --db "mysql://dbgauge:dbgauge@127.0.0.1:1,127.0.0.1:2/dbgauge" -w tpcb -T 1 --json "$TMP/x.json"
grep -q 'no host of the URL accepted a connection (127.0.0.1:1: .*; 127.0.0.1:2: ' "$TMP/err" || { cat "$TMP/err"; fail "all nodes down: message"; }
[ ! -e "$TMP/x.json" ] || fail "a result file for a run that never started"
expect_exit 1 "$DBGAUGE" run --db "mysql://dbgauge:dbgauge@127.0.0.1:24306,,h/dbgauge" -w tpcb -T 1
grep -q "an empty host in the host list" "$TMP/err" || { cat "$TMP/err"; fail "malformed list: message"; }
grep -q "dbgauge:dbgauge" "$TMP/err" && fail "the password in an error"
# one node down at the start: its terminals go on the next node, said once
down="mysql://dbgauge:dbgauge@127.0.0.1:1,${url#mysql://dbgauge:dbgauge@}"
"$DBGAUGE" run --db "$down" -w tpcb -c 4 -T 1 -q --json "$TMP/d.json" > "$TMP/d.out" 2>&1 || { cat "$TMP/d.out"; fail "a node down at the start"; }
[ "$(grep -c 'host 127.0.0.1:1 of the URL did not accept a connection' "$TMP/d.out")" = 1 ] || { cat "$TMP/d.out"; fail "node down: warning"; }
json "$TMP/d.json" "d['cluster']['nodes'][0]['transactions'] == 0 and d['cluster']['nodes'][0]['status'] == 'no_monitor' and d['cluster']['nodes'][1]['arrivals'] == 1 and d['totals']['transactions'] > 0" | grep -q True \
  || fail "node down at the start: $(json "$TMP/d.json" "d['cluster']['nodes']")"
echo "ok"
