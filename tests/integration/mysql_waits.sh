#!/usr/bin/env bash
# The server wait profile (--wait-profile) on a real MariaDB: a held row lock (another
# session keeps FOR UPDATE on the one tpcb branch for 2 s, twice) shows as InnoDB row
# lock waits (information_schema.INNODB_TRX), the intervals inside the hold all Lock, and
# the verdict "lock waits"; the samples are 150 ms apart, not the 10 ms asked (InnoDB
# refreshes that view only when it was not read for 0.1 s), and the result and a warning
# say so; performance_schema is off on the test server: said too.
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
client=$(command -v mariadb || command -v mysql) || fail "no mariadb client"
# the URL's parts for the client (mysql://user:pass@host:port/db)
rest=${url#*://}; cred=${rest%%@*}; hostpart=${rest#*@}; hp=${hostpart%%/*}; db=${hostpart#*/}; db=${db%%\?*}
user=${cred%%:*}; pass=${cred#*:}; host=${hp%%:*}; port=${hp#*:}
"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop -q > /dev/null || fail "load"

hold="MYSQL_PWD='$pass' $client -h$host -P$port -u$user $db -e 'BEGIN; SELECT bid FROM pgbench_branches FOR UPDATE; SELECT SLEEP(2); COMMIT'"
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 8 -P 1 --wait-profile 10ms --event "1s:$hold" --event "5s:$hold" \
  --json "$TMP/lock.json" > "$TMP/lock.out" 2>&1 || { cat "$TMP/lock.out"; fail "run with a held lock"; }
grep -q 'limited by: lock waits' "$TMP/lock.out" || { cat "$TMP/lock.out"; fail "summary: $(json "$TMP/lock.json" "d['verdict']")"; }
grep -q -- '--wait-profile: sampled every 150 ms, not 10 ms' "$TMP/lock.out" || fail "no warning about the interval"
python3 - "$TMP/lock.json" <<'PY' || fail "wait profile"
import json, sys
d = json.load(open(sys.argv[1]))
wp = d["wait_profile"]
assert wp["available"] and "INNODB_TRX" in wp["source"] and wp["interval_ms"] == 150, wp
assert "INNODB_TRX" in wp["interval_note"] and wp["failed"] == 0 and wp["unseen"] <= 0.005 * wp["samples"] * d["run"]["terminals"], wp
# the test server runs without performance_schema (its default)
assert "performance_schema is off" in wp.get("note", ""), wp
t = wp["types"]["tpcb"]
assert abs(sum(t["classes"].values()) - 1) < 1e-9 and abs(sum(t["events"].values()) - 1) < 1e-9, t
print("tpcb with a held lock: %s" % {k: round(v, 3) for k, v in t["classes"].items()})
assert t["classes"].get("Lock", 0) >= 0.4 and t["events"].get("Lock:row lock", 0) >= 0.4, t
T = d["run"]["terminals"]
assert 0.95 * wp["samples"] * T <= t["samples"] <= wp["samples"] * T, (wp["samples"], t["samples"])
assert wp["samples"] + wp["late"] >= 0.95 * d["totals"]["duration_s"] / 0.150, wp
held = [i["waits"]["classes"].get("Lock", 0) for i in d["intervals"] if i["t_s"] in (2, 3, 6, 7) and "waits" in i]
assert len(held) >= 3 and sorted(held)[1] >= 0.8, held
v = d["verdict"]
assert v["limited_by"] == "lock_waits" and v["evidence"]["wait_lock_share"] >= 0.4, v
PY
echo "ok"
