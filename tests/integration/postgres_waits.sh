#!/usr/bin/env bash
# The server wait profile (--wait-profile, session/waits.c) on a real PostgreSQL:
#   - a held row lock (another session keeps FOR UPDATE on the one tpcb branch for 2 s,
#     twice) makes tpcb's profile dominated by lock waits (Lock:transactionid/tuple), the
#     intervals inside the hold almost all Lock, and the verdict "lock waits";
#   - shares sum to 1 per type; the sessions sampled are the samples x the terminals
#     (within 5 %), the intervals' counts add up to the profile's, and the samples taken
#     or skipped as late cover the measured time;
#   - the same run without the hold waits on locks far less; with synchronous_commit=off
#     its sessions stop waiting on the WAL's sync (IO:WALSync) at commit;
#   - the report draws the profile; two parts of a run merge into one profile whose counts
#     are the parts' added;
#   - an engine that tells no waits (SQLite): the run goes on, the result says why.
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
command -v psql >/dev/null || fail "psql not found"
"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop -q > /dev/null || fail "load"

hold="psql '$url' -XAtq -c 'BEGIN' -c 'SELECT bid FROM pgbench_branches FOR UPDATE' -c 'SELECT pg_sleep(2)' -c 'COMMIT'"
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 8 -P 1 --wait-profile 10ms --event "1s:$hold" --event "5s:$hold" \
  --json "$TMP/lock.json" > "$TMP/lock.out" 2>&1 || { cat "$TMP/lock.out"; fail "run with a held lock"; }
grep -q 'limited by: lock waits' "$TMP/lock.out" || { cat "$TMP/lock.out"; fail "summary: $(json "$TMP/lock.json" "d['verdict']")"; }
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 4 -P 1 --wait-profile 10ms -q --json "$TMP/free.json" > /dev/null 2>&1 \
  || fail "run without the lock"
python3 - "$TMP/lock.json" "$TMP/free.json" <<'PY' || fail "wait profile"
import json, sys
d = json.load(open(sys.argv[1])); free = json.load(open(sys.argv[2]))
wp = d["wait_profile"]
assert wp["available"] and wp["source"] == "pg_stat_activity" and wp["interval_ms"] == 10, wp
# a session the query did not show while its terminal was in a transaction: none, but for
# a rare race the sampler cannot close (a terminal's first transaction against its session's
# first appearance)
assert wp["failed"] == 0 and wp["unseen"] <= 0.005 * wp["samples"] * d["run"]["terminals"], wp
t = wp["types"]["tpcb"]
for part in (t, wp["all"]):
    assert abs(sum(part["classes"].values()) - 1) < 1e-9 and abs(sum(part["events"].values()) - 1) < 1e-9, part
lock = t["classes"].get("Lock", 0)
print("tpcb with a held lock: %s" % {k: round(v, 3) for k, v in t["classes"].items()})
assert lock >= 0.4, t
assert t["events"].get("Lock:transactionid", 0) + t["events"].get("Lock:tuple", 0) >= 0.35, t["events"]
# each sample sees both terminals (always in a transaction, no think time): within 5 %
T = d["run"]["terminals"]
assert 0.95 * wp["samples"] * T <= t["samples"] <= wp["samples"] * T, (wp["samples"], t["samples"])
assert sum(i["waits"]["sessions_sampled"] for i in d["intervals"] if "waits" in i) == t["samples"]
assert sum(i["waits"]["samples"] for i in d["intervals"] if "waits" in i) == wp["samples"]
# samples taken or skipped (late, on a loaded machine) cover the measured time
assert wp["samples"] + wp["late"] >= 0.95 * d["totals"]["duration_s"] / (wp["interval_ms"] / 1000), wp
# the intervals that lie wholly inside a hold (each event's command, from its start to its
# end, as the result records them) wait on the lock nearly throughout
spans = [(e["started_s"], e["started_s"] + e["duration_s"]) for e in d["events"]]
held = [i["waits"]["classes"].get("Lock", 0) for i in d["intervals"]
        if "waits" in i and any(a <= i["t_s"] - i["dur_s"] and i["t_s"] <= b for a, b in spans)]
assert len(held) >= 2 and min(held) >= 0.75, (held, spans)
v = d["verdict"]
assert v["limited_by"] == "lock_waits" and v["evidence"]["wait_lock_share"] >= 0.4, v
f = free["wait_profile"]["types"]["tpcb"]["classes"]
print("tpcb without:        %s" % {k: round(x, 3) for k, x in f.items()})
assert f.get("Lock", 0) < lock - 0.2, (f, lock)
PY

# commits that do not wait for the WAL's sync
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 4 -P 1 --wait-profile 10ms --conn synchronous_commit=off -q \
  --json "$TMP/async.json" > /dev/null 2>&1 || fail "run with synchronous_commit=off"
python3 - "$TMP/free.json" "$TMP/async.json" <<'PY' || fail "WALSync with and without synchronous commits"
import json, sys
on, off = (json.load(open(f))["wait_profile"]["types"]["tpcb"]["events"].get("IO:WALSync", 0) for f in sys.argv[1:])
print("IO:WALSync: synchronous_commit=on %.3f, off %.3f" % (on, off))
assert on >= 0.05 and off < on / 3, (on, off)
PY

"$DBGAUGE" report "$TMP/lock.json" > "$TMP/report.txt" || fail "report"
grep -q "Where each transaction type spent its time in the server" "$TMP/report.txt" && grep -q "Lock:transactionid" "$TMP/report.txt" \
  && grep -q "Server wait classes over time" "$TMP/report.txt" || { cat "$TMP/report.txt"; fail "the report shows no wait profile"; }

# two parts of one run, merged: the profile's counts are the parts' added
at=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)
for k in 0 1; do
  "$DBGAUGE" run --db "$url" -w tpcb -c 4 -T 2 -P 1 --seed 4 --part $k/2 --start-at "$at" --wait-profile 10ms -q \
    --json "$TMP/p$k.json" > "$TMP/p$k.out" 2>&1 &
done
wait
"$DBGAUGE" merge "$TMP/p0.json" "$TMP/p1.json" -o "$TMP/m.json" > /dev/null || fail "merge"
python3 - "$TMP/p0.json" "$TMP/p1.json" "$TMP/m.json" <<'PY' || fail "merged wait profile"
import json, sys
p0, p1, m = (json.load(open(f))["wait_profile"] for f in sys.argv[1:])
assert m["available"] and m["parts"] == 2 and m["samples"] == p0["samples"] + p1["samples"], m
a0, a1, am = p0["types"]["tpcb"], p1["types"]["tpcb"], m["types"]["tpcb"]
assert am["samples"] == a0["samples"] + a1["samples"]
for c in set(a0["classes"]) | set(a1["classes"]):
    want = (a0["classes"].get(c, 0) * a0["samples"] + a1["classes"].get(c, 0) * a1["samples"]) / am["samples"]
    assert abs(am["classes"][c] - want) < 1e-9, (c, am["classes"][c], want)
assert abs(sum(am["classes"].values()) - 1) < 1e-9
PY

# an engine inside dbgauge tells no session's waits: said, and the run goes on
"$DBGAUGE" run --db "sqlite:$TMP/s.db" -w tpcb -T 1 --wait-profile 10ms -q --json "$TMP/s.json" > /dev/null 2> "$TMP/s.err" \
  || { cat "$TMP/s.err"; fail "sqlite run with --wait-profile"; }
grep -q -- "--wait-profile: sqlite tells no session's waits" "$TMP/s.err" || fail "no warning: $(cat "$TMP/s.err")"
json "$TMP/s.json" "d['wait_profile'] == {'available': False, 'reason': \"sqlite tells no session's waits\"}" | grep -q True \
  || fail "sqlite's wait_profile: $(json "$TMP/s.json" "d.get('wait_profile')")"
echo "ok"
