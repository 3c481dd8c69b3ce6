#!/usr/bin/env bash
# dbgauge report and compare on real result files: a 2x2 sweep (scale x terminals) and two
# plain runs on SQLite. The report reads what run and sweep really write: every chart is
# there, the HTML is well formed, the pivot tables hold the medians of the point files
# (p95 from their merged histograms), the sweep table has a row per point with its load,
# and compare matches two sweeps point by point.
source "$(dirname "$0")/common.bash"
PY=python3
if /usr/bin/python3 -c 'import html5lib' 2>/dev/null; then PY=/usr/bin/python3; fi
db="sqlite:$TMP/r.db"
"$DBGAUGE" sweep --db "$db" -w tpcb --vary scale=1,2 --vary terminals=1,2 -t 150 -P 250ms \
  -o "$TMP/s1" --seed 3 -q >/dev/null
"$DBGAUGE" sweep --db "$db" -w tpcb --vary scale=1,2 --vary terminals=1,2 -t 150 -P 250ms \
  -o "$TMP/s2" --seed 4 -q >/dev/null
"$DBGAUGE" run --db "$db" -w tpcb -T 2s -P 250ms --json "$TMP/a.json" -q >/dev/null
"$DBGAUGE" run --db "$db" -w tpcb:select-only -T 2s -P 250ms --json "$TMP/b.json" -q >/dev/null

"$DBGAUGE" report "$TMP/s1" -o "$TMP/s1.html" 2>"$TMP/err" || fail "report s1: $(cat "$TMP/err")"
# two sweeps in one report would pass for repeats of one: refused, with what to do instead
expect_exit 1 "$DBGAUGE" report "$TMP/s1" "$TMP/s2" -o "$TMP/s12.html"
grep -q "are two sweeps: a report shows one" "$TMP/err" || fail "two sweeps in one report: $(cat "$TMP/err")"
[ ! -e "$TMP/s12.html" ] || fail "a refused report left a file behind"
"$PY" "$DG_SRC/tests/cli/report_html.py" "$TMP/s1.html" structure \
  "title=Business operations per second vs workload size" "title=Load speed vs workload size" \
  "title=Throughput vs terminals" "title=Client CPU use vs terminals" \
  "pivot=sweep-pivot-tps:tps:$TMP/s1" "pivot=sweep-pivot-p95:p95:$TMP/s1" \
  "absent=t-sweep-pivot-tpmc" >&2 || fail "s1.html"

"$DBGAUGE" report --format json "$TMP/s1" >"$TMP/s1.json" || fail "report --format json"
"$PY" - "$TMP/s1.json" "$TMP/s1" <<'PY' || fail "sweep model"
import json, sys
d = json.load(open(sys.argv[1]))
items = [i for s in d["sections"] for i in s["items"]]
t = [i for i in items if i["type"] == "table" and i["id"] == "sweep-points"][0]
cols = [c["name"] for c in t["columns"]]
assert len(t["rows"]) == 4, t["rows"]
rows = [dict(zip(cols, r)) for r in t["rows"]]
assert [r["scale"] + "/" + r["terminals"] for r in rows] == ["1/1", "1/2", "2/1", "2/2"], rows
# each scale was loaded once (by its first point), with a positive speed
assert rows[0]["load speed"] > 0 and rows[2]["load speed"] > 0, rows
assert rows[1]["load speed"] is None and rows[3]["load speed"] is None, rows
assert all(r["throughput"] > 0 and r["workload size"] > 0 for r in rows), rows
# one size measure for the sweep: every load measured its tables and indexes, so every
# point's size is its scale's load's (the point that did not load too), never the file's
import glob, os
loads = {}
for f in glob.glob(os.path.join(sys.argv[2], "p*.json")):
    r = json.load(open(f))
    if r.get("load"):
        loads[str(r["run"]["scale"])] = r["load"]["objects_bytes"]
unit = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9}[[c for c in t["columns"] if c["name"] == "workload size"][0]["unit"]]
for r in rows:
    want = loads[r["scale"]] / unit
    assert abs(r["workload size"] - want) <= 0.01 * want, (r, loads)
# the size axis grows with the scale
c = [i for i in items if i["type"] == "chart" and i["id"] == "sweep-1"][0]
xs = [p["x"] for p in c["series"][0]["points"]]
assert len(xs) == 2 and xs[0] < xs[1], xs
# the regime's bounds on a size axis: SQLite's default cache (2 MB) is below these sizes and
# the machine's RAM above them, said in the chart's note
assert "the server's cache (2.0" in c["note"] and "is below every size drawn" in c["note"], c["note"]
assert "RAM" in c["note"] and "every point's data fits in memory" in c["note"], c["note"]
PY
# a cache between the sizes is a vertical mark at its size (3,500 KiB = 3.58 MB)
"$DBGAUGE" sweep --db "sqlite:$TMP/m.db" -w tpcb --vary scale=1,2 -t 100 --conn cache_size=-3500 \
  -o "$TMP/s3" -q >/dev/null
"$DBGAUGE" report --format json "$TMP/s3" >"$TMP/s3.json" || fail "report --format json of s3"
"$PY" - "$TMP/s3.json" <<'PY' || fail "the cache's mark on the size axis"
import json, sys
d = json.load(open(sys.argv[1]))
c = [i for s in d["sections"] for i in s["items"] if i["type"] == "chart" and i["id"] == "sweep-1"][0]
marks = c.get("marks", [])
assert len(marks) == 1 and marks[0]["label"] == "the server's cache (3.6 MB)", c
xs = [p["x"] for p in c["series"][0]["points"]]
assert xs[0] < marks[0]["x"] < xs[1] and c["x"]["unit"] == "MB" and abs(marks[0]["x"] - 3.584) < 0.01, (xs, marks, c["x"])
assert "server's cache" not in c["note"], c["note"]
PY

"$DBGAUGE" report "$TMP/a.json" "$TMP/b.json" >"$TMP/ab.txt" || fail "report a b"
grep -q '^Runs side by side' "$TMP/ab.txt" || fail "no comparison table for a list of runs"
"$DBGAUGE" compare "$TMP/a.json" "$TMP/b.json" >"$TMP/cmp.txt" || fail "compare a b"
grep -Eq '^  throughput +tx/s .*(faster|slower|no significant difference)' "$TMP/cmp.txt" \
  || fail "compare a b: $(cat "$TMP/cmp.txt")"
"$DBGAUGE" compare "$TMP/s1" "$TMP/s2" >"$TMP/cmp2.txt" || fail "compare s1 s2"
[ "$(grep -c '^Comparison: scale=' "$TMP/cmp2.txt")" = 4 ] || fail "compare s1 s2: $(cat "$TMP/cmp2.txt")"
