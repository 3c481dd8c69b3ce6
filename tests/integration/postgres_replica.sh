#!/usr/bin/env bash
# PostgreSQL with a hot standby (scripts/servers/postgres.sh standby) and --db-read:
#   - a mix of a writing script and a \readonly one: the reads run on the standby, the
#     writes on the primary, each counted per node; the server's own commit counter on each
#     node grew by exactly what dbgauge counted there plus a bookkeeping that does not
#     depend on how many transactions ran (two runs of 40 and 160 transactions per
#     terminal: the differences are equal, node by node);
#   - the replication figures in every interval: the primary's standbys and WAL lag, the
#     standby's replay delay;
#   - bad input: --db-read of another engine, and a write sent to the standby (SQLSTATE
#     25006, the server's message).
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
PG="$DG_SRC/scripts/servers/postgres.sh"
# a new standby each time: an old one may have missed WAL the primary no longer keeps
"$PG" standby-clean >/dev/null 2>&1 || true
"$PG" standby >"$TMP/standby.log" 2>&1 || { cat "$TMP/standby.log"; fail "the standby did not start"; }
trap '"$PG" standby-stop >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
eval "$("$PG" env)"
standby=$DG_TEST_POSTGRES_STANDBY_URL
"$PG" admin "GRANT pg_read_all_stats TO dbgauge" >/dev/null # a server provisioned before it

"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop -q --json "$TMP/load.json" || fail "load"
# the standby has replayed the load
for _ in $(seq 1 600); do
  n=$(psql "$standby" -XAtc "SELECT count(*) FROM pgbench_branches" 2>/dev/null || true)
  [ "$n" = 1 ] && break
  sleep 0.05
done
[ "$n" = 1 ] || fail "the standby did not replay the load"

cat >"$TMP/write.sql" <<'EOF'
\set aid random(1, 100000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
COMMIT;
EOF
cat >"$TMP/read.sql" <<'EOF'
\readonly
\set aid random(1, 100000)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
EOF
for t in 40 160; do
  "$DBGAUGE" run --db "$url" --db-read "$standby" -f "$TMP/write.sql" -f "$TMP/read.sql" -c 2 -t $t \
    -P 0 -q --json "$TMP/r$t.json" > "$TMP/r$t.out" 2>&1 || { cat "$TMP/r$t.out"; fail "run -t $t"; }
done
python3 - "$TMP/r40.json" "$TMP/r160.json" <<'PY' || fail "per-node counts"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    c = d["cluster"]
    assert c["kind"] == "replication", c["kind"]
    w, r = c["nodes"]
    assert (w["role"], r["role"]) == ("write", "read"), c["nodes"]
    by = {t["name"]: t["count"] for t in d["transactions"]}
    assert w["transactions"] == by["write"] and r["transactions"] == by["read"], (by, c["nodes"])
    assert by["read"] > 0 and by["write"] > 0 and d["totals"]["errors"] == 0, by
    for n in (w, r):
        assert n["server_commits"] >= n["dbgauge_committed"], n
for k in (0, 1):
    na, nb = a["cluster"]["nodes"][k], b["cluster"]["nodes"][k]
    srv, mine = nb["server_commits"] - na["server_commits"], nb["dbgauge_committed"] - na["dbgauge_committed"]
    print(na["role"], "node: server +%d, dbgauge +%d, bookkeeping %d" % (srv, mine, na["server_commits"] - na["dbgauge_committed"]))
    assert srv == mine, (na, nb)
PY
# replication figures per interval
"$DBGAUGE" run --db "$url" --db-read "$standby" -f "$TMP/write.sql" -f "$TMP/read.sql" -c 2 -T 2 \
  -P 1 -q --json "$TMP/iv.json" > "$TMP/iv.out" 2>&1 || { cat "$TMP/iv.out"; fail "run -T 2"; }
# (a standby that has replayed no transaction since it started has no replay delay yet)
json "$TMP/iv.json" "all(i['nodes'][0]['standby'] is False and i['nodes'][0]['replicas'] == 1 and i['nodes'][0]['lag_bytes'] is not None and i['nodes'][1]['standby'] is True for i in d['intervals']) and d['intervals'][-1]['nodes'][1]['replay_delay_ms'] is not None" | grep -q True \
  || fail "replication figures: $(json "$TMP/iv.json" "d['intervals'][-1]['nodes']")"

# bad input
expect_exit 1 "$DBGAUGE" run --db "$url" --db-read "mysql://u:pw@127.0.0.1:1/x" -w tpcb -T 1 --json "$TMP/x.json"
grep -q -- "--db-read: mysql://u:\*\*\*@127.0.0.1:1/x is a mysql URL, and --db a postgres one" "$TMP/err" || { cat "$TMP/err"; fail "engine mismatch message"; }
[ ! -e "$TMP/x.json" ] || fail "a result file for a refused run"
cat >"$TMP/lie.sql" <<'EOF'
\readonly
UPDATE pgbench_branches SET bbalance = bbalance WHERE bid = 1;
EOF
"$DBGAUGE" run --db "$url" --db-read "$standby" -f "$TMP/lie.sql" -c 1 -T 1 -q --json "$TMP/lie.json" > "$TMP/lie.out" 2>&1 || true
grep -q '25006' "$TMP/lie.out" || { cat "$TMP/lie.out"; fail "a write on the standby: no SQLSTATE 25006"; }
echo "ok"
