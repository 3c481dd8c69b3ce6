#!/usr/bin/env bash
# The server wait profile (--wait-profile) on a real MariaDB: a held row lock (another
# session keeps FOR UPDATE on the one tpcb branch for 2 s, twice) shows as InnoDB row
# lock waits (information_schema.INNODB_TRX), the intervals inside the hold all Lock, and
# the verdict "lock waits"; the samples are 150 ms apart, not the 10 ms asked (InnoDB
# refreshes that view only when it was not read for 0.1 s), and the result and a warning
# say so; performance_schema is off on the test server: said too. A user without the
# PROCESS privilege or SELECT on performance_schema gets the coarser queries, and the result
# says what is missing (when scripts/servers/mysql.sh runs the test server: it makes the
# users).
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
# the intervals that lie wholly inside a hold (each event's command, from its start to its
# end, as the result records them) wait on the lock nearly throughout
spans = [(e["started_s"], e["started_s"] + e["duration_s"]) for e in d["events"]]
held = [i["waits"]["classes"].get("Lock", 0) for i in d["intervals"]
        if "waits" in i and any(a <= i["t_s"] - i["dur_s"] and i["t_s"] <= b for a, b in spans)]
assert len(held) >= 2 and min(held) >= 0.75, (held, spans)
v = d["verdict"]
assert v["limited_by"] == "lock_waits" and v["evidence"]["wait_lock_share"] >= 0.4, v
PY

# users with fewer privileges: the profile falls back, says what it lacks, the run goes on
ctl="$DG_SRC/scripts/servers/mysql.sh"
env=$("$ctl" env 2>/dev/null || true)
if grep -qxF "export DG_TEST_MYSQL_URL=$url" <<<"$env"; then
  "$ctl" admin <<SQL || fail "cannot make the test users"
DROP USER IF EXISTS 'dgw_plain'@'$host', 'dgw_proc'@'$host';
CREATE USER 'dgw_plain'@'$host' IDENTIFIED BY 'pw';
CREATE USER 'dgw_proc'@'$host' IDENTIFIED BY 'pw';
GRANT ALL PRIVILEGES ON $db.* TO 'dgw_plain'@'$host';
GRANT ALL PRIVILEGES ON $db.* TO 'dgw_proc'@'$host';
GRANT PROCESS ON *.* TO 'dgw_proc'@'$host';
SQL
  for who in plain proc; do
    "$DBGAUGE" run --db "mysql://dgw_$who:pw@$host:$port/$db" -w tpcb -c 2 -T 2 --wait-profile 10ms -q \
      --json "$TMP/$who.json" > /dev/null 2> "$TMP/$who.err" || { cat "$TMP/$who.err"; fail "run as dgw_$who"; }
  done
  python3 - "$TMP/plain.json" "$TMP/proc.json" <<'PY' || fail "the profile of users with fewer privileges"
import json, sys
plain, proc = (json.load(open(f))["wait_profile"] for f in sys.argv[1:])
assert plain["available"] and plain["source"] == "information_schema.PROCESSLIST", plain
assert "no PROCESS privilege" in plain["note"] and plain["interval_ms"] == 10, plain
assert set(plain["all"]["classes"]) <= {"CPU", "Client"}, plain["all"]
assert proc["available"] and proc["source"] == "information_schema.PROCESSLIST, information_schema.INNODB_TRX", proc
assert "performance_schema is not readable" in proc["note"] and proc["interval_ms"] == 150, proc
PY
  grep -q -- "--wait-profile: the user has no PROCESS privilege" "$TMP/plain.err" || fail "no warning: $(cat "$TMP/plain.err")"
  "$ctl" admin <<SQL || true
DROP USER IF EXISTS 'dgw_plain'@'$host', 'dgw_proc'@'$host';
SQL
fi
echo "ok"
