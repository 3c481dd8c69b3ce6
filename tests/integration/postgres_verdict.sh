#!/usr/bin/env bash
# The bottleneck verdict (results/verdict.c) on a real PostgreSQL on this machine:
#   - a read-only run that fits in memory with 8 terminals on 2 cores: server CPU, in the
#     run and in every interval, with the figures that decided it;
#   - a low --rate: the target rate, served on schedule (when the machine's disk is busy
#     with other work and the commits lag: the disk, said so);
#   - the CPU verdict holds when another process keeps the data device busy (the server's
#     own share of its bytes tells them apart);
#   - --rate far above what one terminal can do (--workers 1): the driver, whenever the
#     server had room (on a machine busy with other work the host CPU may be the limit:
#     then the verdict must say the CPU, not the rate);
#   - the summary line, and a merged result judged on the merged figures.
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop -q > /dev/null || fail "load"

"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 8 -T 3 -P 1 --json "$TMP/cpu.json" > "$TMP/cpu.out" 2>&1 \
  || { cat "$TMP/cpu.out"; fail "select-only run"; }
grep -q 'limited by: server CPU' "$TMP/cpu.out" || { cat "$TMP/cpu.out"; fail "summary: $(json "$TMP/cpu.json" "d['verdict']")"; }
python3 - "$TMP/cpu.json" <<'PY' || fail "server CPU verdict"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdict"]
assert v["limited_by"] == "server_cpu" and v["evidence"]["server_cpu_pct"] >= 85, v
assert v["evidence"]["server_processes_cpu_pct"] > v["evidence"]["dbgauge_cpu_pct"], v
assert all(i["verdict"]["limited_by"] in ("server_cpu", "not_enough_evidence") for i in d["intervals"]), [i["verdict"] for i in d["intervals"]]
assert sum(i["verdict"]["limited_by"] == "server_cpu" for i in d["intervals"]) >= 2, [i["verdict"] for i in d["intervals"]]
PY

"$DBGAUGE" run --db "$url" -w tpcb -c 2 -R 20 -T 3 -P 1 -q --json "$TMP/rate.json" > /dev/null 2>&1 || fail "rate run"
python3 - "$TMP/rate.json" <<'PY' || fail "rate verdict"
import json, sys
v = json.load(open(sys.argv[1]))["verdict"]; e = v["evidence"]
if e["schedule_lag_ms_p99"] < 50:
    assert v["limited_by"] == "rate_target", v
else:
    # another process's I/O on this machine made the commits late: the device, said so
    busy = (e["server_disk_util_pct"] or 0) >= 80 or (e["server_iowait_pct"] or 0) >= 20
    print("the schedule lagged (p99 %.0f ms) on a busy machine: the verdict says %s" % (e["schedule_lag_ms_p99"], v["limited_by"]))
    assert busy and v["limited_by"] == "server_disk", v
PY

"$DBGAUGE" run --db "$url" -w tpcb:select-only -c 1 --workers 1 -R 100000 -T 2 -P 1 -q --json "$TMP/drv.json" > /dev/null 2>&1 || fail "driver run"
python3 - "$TMP/drv.json" <<'PY' || fail "driver verdict"
import json, sys
v = json.load(open(sys.argv[1]))["verdict"]; e = v["evidence"]
room = e["server_cpu_pct"] < 85 and (e["server_disk_util_pct"] or 0) < 80
if room:
    assert v["limited_by"] == "driver", v
else:
    print("the machine's CPU was busy (%.0f %%): the verdict says %s" % (e["server_cpu_pct"], v["limited_by"]))
    assert v["limited_by"] in ("server_cpu", "driver"), v
PY

# two parts, merged: judged on the merged figures (the parts' own verdicts are theirs)
at=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)
for k in 0 1; do
  "$DBGAUGE" run --db "$url" -w tpcb:select-only -c 8 -T 2 -P 1 --seed 4 --part $k/2 --start-at "$at" -q \
    --json "$TMP/p$k.json" > "$TMP/p$k.out" 2>&1 &
done
wait
"$DBGAUGE" merge "$TMP/p0.json" "$TMP/p1.json" -o "$TMP/m.json" > /dev/null || fail "merge"
json "$TMP/m.json" "d['verdict']['evidence']['tps'] == d['totals']['tps'] and all('verdict' in i for i in d['intervals'])" | grep -q True \
  || fail "merged verdict: $(json "$TMP/m.json" "d['verdict']")"
echo "ok"
