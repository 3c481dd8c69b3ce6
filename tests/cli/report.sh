#!/usr/bin/env bash
# dbgauge report and compare on fixture result files (tests/fixtures/results, made by
# tests/tools/make_fixtures.c with the real writers; see cli/fixtures): golden text/markdown/CSV outputs, HTML structure, chart geometry, the sweep's pivot tables cell by cell, and
# escaping, JSON, compare verdicts, and input errors (exit 1, nothing written).
# After an intended change of the outputs: DG_UPDATE_GOLDEN=1 ctest -R cli/report
source "$(dirname "$0")/common.bash"
RES="$DG_FIXTURES/results"
GOLD="$DG_FIXTURES/report"
PY=python3
# html5lib (python3-html5lib) makes the structure check strict when the system python has it
if /usr/bin/python3 -c 'import html5lib' 2>/dev/null; then PY=/usr/bin/python3; fi
HTMLCHECK="$DG_SRC/tests/cli/report_html.py"

# run dbgauge from the fixture directory so that the paths in the outputs are stable
dg() { (cd "$RES" && "$DBGAUGE" "$@"); }

golden() { # NAME COMMAND...: output equals $GOLD/NAME
  local name=$1; shift
  checks=$((checks + 1))
  if ! dg "$@" >"$TMP/$name" 2>"$TMP/$name.err"; then
    fail "dbgauge $*: exit $?: $(cat "$TMP/$name.err")"
    return
  fi
  if [ "${DG_UPDATE_GOLDEN:-0}" = 1 ]; then mkdir -p "$GOLD"; cp "$TMP/$name" "$GOLD/$name"; return; fi
  diff -u "$GOLD/$name" "$TMP/$name" >&2 || fail "dbgauge $* differs from $GOLD/$name"
}

html_check() { # FILE CHECK...
  checks=$((checks + 1))
  "$PY" "$HTMLCHECK" "$@" >&2 || fail "HTML checks of $1"
}

# ---- golden outputs -------------------------------------------------------------------
golden small.txt report small.json
golden small.md report --format markdown small.json
golden small.csv report --format csv small.json
golden sweep.txt report sweep
golden sweep.md report --format md sweep
golden lists.txt report small.json compare/a1.json
golden compare.txt compare compare/a1.json compare/b1.json

# ---- HTML: structure, charts, geometry -------------------------------------------------
dg report small.json -o "$TMP/small.html" 2>/dev/null
html_check "$TMP/small.html" structure svgs=7 \
  "title=Throughput over time" "title=Latency percentiles over time" "title=CPU use over time" \
  "title=Disk I/O operations per second over time" "title=Cache hit ratio over time" \
  "title=Latency percentiles per transaction type" "title=Load time per step (tables, then indexes)" \
  "series=run1-tps:throughput:1,100;2,110;3,90;4,100;5,100" \
  "series=run1-latency:p95:1,2;2,2.2;3,2.4;4,2.6;5,2.8" \
  "series=run1-cpu:client host CPU (all cores):1,40;2,42;3,44;4,46;5,48" \
  "series=run1-cpu:server host CPU (all cores):1,60;2,64;3,68;4,72" \
  "present=<figure>" "absent=NaN" "absent=nan"

dg report sweep -o "$TMP/sweep.html" 2>/dev/null
# medians over two repeats (tps = 100 * terminals^0.8, 30% less at scale 10, repeat 2 is 2%
# faster): terminals=1 at 16 MB: 100 and 102; at 160 MB: 70 and 71.4; p006 repeat 2 (4 at
# 160 MB) is missing
# charts: 7 of the sweep and its points' sizes, the overlay of all runs, 7 in each of the
# 11 runs
html_check "$TMP/sweep.html" structure svgs=86 \
  "title=Database size of each point" "bars=sweep-8:16;16;16;160;160;160" \
  "title=Business operations per second vs database size" "title=Load speed vs database size" \
  "title=Throughput vs terminals" "title=Client CPU use vs terminals" \
  "title=95th percentile latency vs terminals" "title=Throughput over time, all runs" \
  "series=sweep-1:terminals=1:16,101;160,70.7" \
  "series=sweep-1:terminals=4:16,306.17;160,212.33" \
  "series=sweep-5:scale=1:1,101;2,175.83;4,306.17" \
  "series=sweep-2:terminals=1:16,40;160,32" "series=sweep-2:terminals=4:16,40;160,32" \
  "present=has no result file (status: failed)" \
  "pivot=sweep-pivot-tps:tps:$RES/sweep" "pivot=sweep-pivot-p95:p95:$RES/sweep" \
  "absent=t-sweep-pivot-tpmc"

# the pivot tables, checked cell by cell against medians computed from the point files
# (report_html.py pivot=): a sweep made from the fixture's with the x parameter second in
# the files' order (terminals), a labelled parameter (db=hdd:URL,ssd:URL, whose columns are
# named by label), the workload's tpmC, p95 that differ per column, and a combination
# without any run (its cell is "-"); and one with a single series (one value column)
checks=$((checks + 1))
"$PY" - "$RES/sweep" "$TMP/lab" "$TMP/one" <<'PY' || fail "making the pivot sweeps"
import glob, json, os, sys
src, lab, one = sys.argv[1:]
exp = json.load(open(os.path.join(src, "experiment.json")))
urls = {"hdd": "sqlite:/hdd/b.db", "ssd": "sqlite:/ssd/b.db"}
def relabel(params):
    return {"terminals": params["terminals"], "db": "hdd" if params["scale"] == "1" else "ssd"}
os.makedirs(lab)
os.makedirs(one)
for pt in exp["points"]:
    f = os.path.join(src, pt["file"])
    if not os.path.exists(f):
        continue
    doc = json.load(open(f))
    scale1 = pt["params"]["scale"] == "1"
    if scale1:
        json.dump(doc, open(os.path.join(one, pt["file"]), "w"))
    if pt["id"] == "p005":  # scale=10 terminals=2: no run of db=ssd at 2 terminals
        continue
    doc["sweep"]["params"] = relabel(doc["sweep"]["params"])
    doc["sweep"]["values"] = {"db": urls[doc["sweep"]["params"]["db"]]}
    rep = doc["sweep"]["repeat"]
    doc["workload_metrics"] = {"tpmC": doc["totals"]["tps"] * 27 + 0.25 * rep}
    doc["workload_metric_units"] = {"tpmC": "New-Orders committed/min"}
    lat = doc["transactions"][0]["latency_ms"]
    lat["p95"] = lat["p95"] * (1.0 if scale1 else 3.1) + 0.05 * rep
    json.dump(doc, open(os.path.join(lab, pt["file"]), "w"))
e = dict(exp)
e["parameters"] = [{"name": "terminals", "values": ["1", "2", "4"]},
                   {"name": "db", "values": ["hdd", "ssd"], "labels": urls}]
e["points"] = [dict(pt, params=relabel(pt["params"]), values={"db": urls[relabel(pt["params"])["db"]]})
               for pt in exp["points"]]
json.dump(e, open(os.path.join(lab, "experiment.json"), "w"))
e = dict(exp)
e["points"] = [pt for pt in exp["points"] if pt["params"]["scale"] == "1"]
json.dump(e, open(os.path.join(one, "experiment.json"), "w"))
PY
"$DBGAUGE" report "$TMP/lab" -o "$TMP/lab.html" 2>/dev/null || fail "report lab: exit $?"
html_check "$TMP/lab.html" structure \
  "pivot=sweep-pivot-tps:tps:$TMP/lab" "pivot=sweep-pivot-p95:p95:$TMP/lab" \
  "pivot=sweep-pivot-tpmc:tpmC:$TMP/lab" "absent=sqlite:/ssd"
checks=$((checks + 1))
"$DBGAUGE" report "$TMP/lab" >"$TMP/lab.txt" 2>/dev/null || fail "report lab (text): exit $?"
# the text report has the same pivot: rows terminals, columns db=hdd and db=ssd
awk '/^tpmC by terminals and db/ {on = 1} on && NF == 0 {exit} on' "$TMP/lab.txt" >"$TMP/lab-tpmc.txt"
[ "$(sed -n 2p "$TMP/lab-tpmc.txt" | tr -s ' ')" = " terminals db=hdd db=ssd" ] \
  && [ "$(sed -n 5p "$TMP/lab-tpmc.txt" | tr -s ' ')" = " 2 4747.9 -" ] \
  || fail "text pivot of tpmC: $(cat "$TMP/lab-tpmc.txt")"
"$DBGAUGE" report "$TMP/one" -o "$TMP/one.html" 2>/dev/null || fail "report one: exit $?"
html_check "$TMP/one.html" structure \
  "pivot=sweep-pivot-tps:tps:$TMP/one" "pivot=sweep-pivot-p95:p95:$TMP/one"

# every string from a result file is escaped
dg report hostile.json -o "$TMP/hostile.html" 2>/dev/null
html_check "$TMP/hostile.html" structure \
  "absent=<script>alert" "absent=<img src" "absent=<b>order" "absent=\"><script>" \
  "present=&lt;script&gt;alert(&quot;wl&quot;)&lt;/script&gt;" \
  "present=&lt;img src=x onerror=&quot;alert(1)&quot;&gt; it&#39;s &quot;bad&quot; &amp; &lt;script&gt;"
checks=$((checks + 1))
dg report --format markdown hostile.json >"$TMP/hostile.md"
if grep -q '<script>\|<img\|<b>' "$TMP/hostile.md"; then fail "markdown output has raw HTML from a result file"; fi

# the format follows -o's extension unless given; --format html to stdout
checks=$((checks + 1))
dg report --format html small.json >"$TMP/stdout.html"
cmp -s "$TMP/stdout.html" "$TMP/small.html" || fail "--format html on stdout differs from -o x.html"
checks=$((checks + 1))
dg report small.json -o "$TMP/small.txt" 2>/dev/null
cmp -s "$TMP/small.txt" "$GOLD/small.txt" || fail "-o x.txt is not the text format"
checks=$((checks + 1))
ls "$TMP" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# JSON: the model, parseable, with the sweep chart's points
checks=$((checks + 1))
dg report --format json sweep >"$TMP/sweep.json" 2>/dev/null
"$PY" - "$TMP/sweep.json" <<'PY' || fail "report --format json"
import json, sys
d = json.load(open(sys.argv[1]))
charts = [i for s in d["sections"] for i in s["items"] if i["type"] == "chart"]
c = [c for c in charts if c["title"] == "Throughput vs terminals"][0]
s = [s for s in c["series"] if s["name"] == "scale=1"][0]
# totals.tps = transactions / 3 s, with transactions = round(3 * tps)
assert [(p["x"], round(p["y"], 4)) for p in s["points"]] == [(1, 101.0), (2, 175.8333), (4, 306.1667)], s
assert s["points"][0]["lo"] == 100.0 and s["points"][0]["hi"] == 102.0
assert d["notes"] and "p006 (scale=10 terminals=4)" in d["notes"][0]
PY

# experiment.json stands for its directory
checks=$((checks + 1))
dg report sweep/experiment.json >"$TMP/sweep-index.txt" 2>/dev/null
cmp -s "$TMP/sweep-index.txt" "$TMP/sweep.txt" || fail "report DIR/experiment.json differs from report DIR"

# ---- compare ----------------------------------------------------------------------------
cmp_line() { # A B METRIC: the metric's row of the text comparison
  dg compare "$1" "$2" | grep -E "^  $3 " | head -1
}
checks=$((checks + 1))
row=$(cmp_line compare/a1.json compare/b1.json throughput)
case "$row" in *faster*"batch means: 10 x 6 vs 10 x 6 intervals"*) ;; *) fail "a1 vs b1: $row" ;; esac
lo=$(echo "$row" | awk '{print $6}')
awk -v lo="$lo" 'BEGIN { exit !(lo > 1.15) }' || fail "a1 vs b1: CI low $lo should exclude 1"
checks=$((checks + 1))
row=$(cmp_line compare/b1.json compare/a1.json throughput)
case "$row" in *slower*) ;; *) fail "b1 vs a1: $row" ;; esac
checks=$((checks + 1))
row=$(cmp_line compare/a1.json compare/a2.json throughput)
case "$row" in *"no significant difference"*) ;; *) fail "a1 vs a2: $row" ;; esac
checks=$((checks + 1))
row=$(cmp_line compare/a1.json compare/b1.json "p95 latency")
case "$row" in *faster*) ;; *) fail "a1 vs b1 p95: $row" ;; esac
checks=$((checks + 1))
row=$(cmp_line compare/a-reps compare/b-reps throughput)
case "$row" in *"no significant difference"*"repeats: 3 vs 3 runs"*) ;; *) fail "a-reps vs b-reps: $row" ;; esac
# compare --metric: the workload's own figures (tpmC) and the load time, from repeats; a
# figure with no better direction says which side is higher; an unknown name is refused
checks=$((checks + 1))
"$PY" - "$RES/compare" "$TMP/wm" <<'PY'
import glob, json, os, sys
src, dst = sys.argv[1], sys.argv[2]
for side, tpmc, secs in (("a", 100.0, 20.0), ("b", 130.0, 12.0)):
    os.makedirs(os.path.join(dst, side), exist_ok=True)
    for i, f in enumerate(sorted(glob.glob(os.path.join(src, side + "-reps", "*.json")))):
        d = json.load(open(f))
        d["workload_metrics"] = {"tpmC": tpmc + i, "rows_loaded": 5.0 + (side == "b") + 0.1 * i}
        d["workload_metric_units"] = {"tpmC": "tx/min", "rows_loaded": "rows"}
        d["load"] = {"workload": "tpcb", "scale": 1, "jobs": 1, "seed": 1, "bytes": 1e6,
                     "data_bytes_sent": 1000000, "db_size_bytes": 1000000, "seconds": secs + i,
                     "mb_per_s": 1.0 / (secs + i), "steps": []}
        json.dump(d, open(os.path.join(dst, side, os.path.basename(f)), "w"))
PY
"$DBGAUGE" compare "$TMP/wm/a" "$TMP/wm/b" > "$TMP/wm.txt" || fail "compare with workload metrics: exit $?"
grep -E "^  tpmC +tx/min .*faster.*repeats: 3 vs 3 runs" "$TMP/wm.txt" > /dev/null || fail "tpmC row: $(grep tpmC "$TMP/wm.txt")"
grep -E "^  load time +s .*faster" "$TMP/wm.txt" > /dev/null || fail "load time row: $(grep 'load time' "$TMP/wm.txt")"
grep -q "rows_loaded" "$TMP/wm.txt" && fail "a count is compared by default"
"$DBGAUGE" compare "$TMP/wm/a" "$TMP/wm/b" --metric tpmC,rows_loaded > "$TMP/wm2.txt" || fail "compare --metric: exit $?"
grep -E "^  rows_loaded +rows .*B higher" "$TMP/wm2.txt" > /dev/null || fail "rows_loaded row: $(grep rows_loaded "$TMP/wm2.txt")"
grep -qE "^  (throughput|p95 latency) " "$TMP/wm2.txt" && fail "--metric tpmC,rows_loaded shows other rows"
set +e; "$DBGAUGE" compare "$TMP/wm/a" "$TMP/wm/b" --metric tpmc >"$TMP/wm3.txt" 2>&1; rc=$?; set -e
[ $rc = 1 ] && grep -q "unknown --metric 'tpmc' (known here: tps, p50, .*tpmC, rows_loaded)" "$TMP/wm3.txt" \
  || fail "--metric tpmc: exit $rc, $(cat "$TMP/wm3.txt")"

# compare's honesty: 2 repeats a side give no verdict (an 11x gain once read "no significant
# difference"), a ratio of positive figures has no negative bound, and an unbounded ratio
# interval comes with the difference's
checks=$((checks + 1))
"$PY" - "$TMP/wm" "$TMP/hon" <<'PY'
import glob, json, os, sys
src, dst = sys.argv[1], sys.argv[2]
cases = {"two-a": [100, 110], "two-b": [1100, 1300],    # 11x, 2 vs 2
         "tight-a": [100, 101, 102], "wide-b": [1, 50, 100],  # Fieller's low bound < 0
         "wide-a": [1, 50, 100], "tight-b": [100, 101, 102]}  # A not clearly above 0
for name, vals in cases.items():
    os.makedirs(os.path.join(dst, name), exist_ok=True)
    files = sorted(glob.glob(os.path.join(src, "a", "*.json")))
    for i, v in enumerate(vals):
        d = json.load(open(files[i]))
        d["workload_metrics"]["tpmC"] = float(v)
        json.dump(d, open(os.path.join(dst, name, "r%d.json" % i), "w"))
PY
tpmc() { "$DBGAUGE" compare "$TMP/hon/$1" "$TMP/hon/$2" --metric tpmC | grep -E "^  tpmC "; }
row=$(tpmc two-a two-b)
case "$row" in *"too few repeats: 2 vs 2; use --repeat 3 or more"*) ;; *) fail "2 vs 2 repeats: $row" ;; esac
case "$row" in *"significant"*|*faster*|*slower*) fail "2 vs 2 repeats give a verdict: $row" ;; esac
row=$(tpmc tight-a wide-b)
lo=$(echo "$row" | awk '{print $6}')
awk -v lo="$lo" 'BEGIN { exit !(lo == 0) }' || fail "a ratio's low bound below 0 is not 0: $row"
row=$(tpmc wide-a tight-b)
case "$row" in *"repeats: 3 vs 3 runs; B-A "*" to "*"(ratio interval unbounded)"*) ;; *) fail "unbounded ratio: $row" ;; esac

# CSV: text that a spreadsheet would run as a formula is defused with a leading apostrophe
checks=$((checks + 1))
"$PY" - "$RES/small.json" "$TMP/formula.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["run"]["workload"] = "=HYPERLINK(\"http://x\")"
d["errors"][0]["message"] = "@SUM(1+1)"
json.dump(d, open(sys.argv[2], "w"))
PY
"$DBGAUGE" report --format csv "$TMP/formula.json" >"$TMP/formula.csv"
if grep -qE '(^|,)"?[=@+]' "$TMP/formula.csv" || ! grep -q "\"'=HYPERLINK" "$TMP/formula.csv"; then
  fail "CSV cells starting with = @ + are not defused: $(grep -E '[=@]' "$TMP/formula.csv" | head -3)"
fi

# runs of different workloads are refused; other differences are said at the top
checks=$((checks + 1))
"$PY" - "$RES/compare/b1.json" "$TMP/b1-tpcc.json" "$TMP/b1-pg.json" "$TMP/b1-procs.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["run"]["workload"] = "tpcc"
json.dump(d, open(sys.argv[2], "w"))
d["run"]["workload"] = "tpcb"
d["run"]["backend"] = "postgres"
json.dump(d, open(sys.argv[3], "w"))
d["run"]["backend"] = "sqlite"
d["run"]["execution"] = "procedures"
json.dump(d, open(sys.argv[4], "w"))
PY
set +e; dg compare compare/a1.json "$TMP/b1-tpcc.json" >"$TMP/cmp-wl.out" 2>&1; rc=$?; set -e
[ $rc = 1 ] && grep -q "A ran workload 'tpcb' and B ran 'tpcc'" "$TMP/cmp-wl.out" \
  || fail "compare of different workloads: exit $rc, $(cat "$TMP/cmp-wl.out")"
checks=$((checks + 1))
dg compare compare/a1.json "$TMP/b1-pg.json" >"$TMP/cmp-be.out" 2>&1 || fail "compare sqlite vs postgres: exit $?"
grep -q "A and B ran on different databases (sqlite vs postgres)" "$TMP/cmp-be.out" \
  || fail "compare of different databases does not say so: $(head -20 "$TMP/cmp-be.out")"
# a labelled execution mode (stored procedures) against statements: said, and the
# report of the procedures run names it among its facts
checks=$((checks + 1))
dg compare compare/a1.json "$TMP/b1-procs.json" >"$TMP/cmp-ex.out" 2>&1 || fail "compare statements vs procedures: exit $?"
grep -q "A and B sent their transactions differently (statements vs procedures)" "$TMP/cmp-ex.out" \
  || fail "compare of execution modes does not say so: $(head -20 "$TMP/cmp-ex.out")"
grep -q "sent their transactions differently" "$TMP/cmp-be.out" && fail "a note on execution modes where both sent statements"
dg report "$TMP/b1-procs.json" >"$TMP/rep-ex.out" 2>&1 || fail "report of a procedures run: exit $?"
grep -Eq "execution: +procedures" "$TMP/rep-ex.out" || fail "the report does not name the execution mode: $(grep -n workload "$TMP/rep-ex.out")"
# different terminal counts and pacing: said, with the field and both values
checks=$((checks + 1))
"$PY" - "$RES/compare/b1.json" "$TMP/b1-c8.json" "$TMP/b1-rate.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["run"]["terminals"]
d["run"]["terminals"] = t * 2
json.dump(d, open(sys.argv[2], "w"))
d["run"]["terminals"] = t
d["run"]["rate_tps"] = 250.0
json.dump(d, open(sys.argv[3], "w"))
PY
ta=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["terminals"])' "$RES/compare/a1.json")
dg compare compare/a1.json "$TMP/b1-c8.json" >"$TMP/cmp-c8.out" 2>&1 || fail "compare of terminal counts: exit $?"
grep -q "A and B ran with different terminal counts (run.terminals $ta vs $((ta * 2))): the verdicts compare that too" "$TMP/cmp-c8.out" \
  || fail "compare of different terminal counts does not say so: $(head -8 "$TMP/cmp-c8.out")"
dg compare compare/a1.json "$TMP/b1-rate.json" >"$TMP/cmp-rate.out" 2>&1 || fail "compare of rates: exit $?"
grep -q "A and B ran with different target rates (run.rate_tps none vs 250)" "$TMP/cmp-rate.out" \
  || fail "compare of a paced run with an unpaced one does not say so: $(head -8 "$TMP/cmp-rate.out")"
grep -q "ran with different" "$TMP/cmp-be.out" && fail "a note on run parameters where they are equal"
checks=$((checks + 1))
dg compare sweep sweep >"$TMP/cmp-sweep.txt" 2>&1 || fail "compare sweep sweep: exit $?"
[ "$(grep -c '^Comparison: scale=' "$TMP/cmp-sweep.txt")" = 6 ] || fail "compare of two sweeps should match 6 points"
checks=$((checks + 1))
dg compare compare/a1.json compare/b1.json -o "$TMP/cmp.html" || fail "compare -o cmp.html"
# the A and B bars are the table's throughput row, A first
ab=$(dg compare compare/a1.json compare/b1.json --format json | "$PY" -c '
import json, sys
r = json.load(sys.stdin)
t = [i for s in r["sections"] for i in s["items"] if i.get("id") == "cmp1-metrics"][0]
row = [x for x in t["rows"] if x[0] == "throughput"][0]
print("%.10g;%.10g" % (row[2], row[3]))')
html_check "$TMP/cmp.html" structure svgs=3 "title=B relative to A, with 95% confidence intervals" \
  "title=Throughput over time: A and B" "title=Throughput: A and B" "bars=cmp1-bars-tps:$ab"

# ---- errors: exit 1, a clear message, nothing written -----------------------------------
printf '{"dbgauge": {"version": "0.1.0", "format": 1},\n "run": {"workload": "tpcb",,}}\n' >"$TMP/bad.json"
echo '{"hello": 1}' >"$TMP/other.json"
mkdir -p "$TMP/empty"
truncate -s 1025M "$TMP/big.json" # sparse: a size over the limit without the bytes
# a sweep index that points outside its directory
mkdir -p "$TMP/evil" && cp "$RES"/sweep/*.json "$TMP/evil/"
"$PY" - "$TMP/evil/experiment.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["points"][0]["file"] = "../small.json"
json.dump(d, open(sys.argv[1], "w"))
PY
while IFS='|' read -r args code text; do
  args=$(echo "$args" | sed 's/ *$//'); code=$(echo "$code" | tr -d ' '); text=$(echo "$text" | sed 's/^ *//')
  [ -z "$args" ] && continue
  checks=$((checks + 1))
  rm -f "$TMP/out.html"
  set +e
  (cd "$TMP" && eval "\"\$DBGAUGE\" $args") >"$TMP/out" 2>"$TMP/err"
  got=$?
  set -e
  if [ "$got" != "$code" ]; then
    fail "dbgauge $args: exit $got, expected $code; stderr: $(cat "$TMP/err")"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$TMP/err"; then
    fail "dbgauge $args: stderr lacks '$text': $(cat "$TMP/err")"
  elif [ -e "$TMP/out.html" ]; then
    fail "dbgauge $args: wrote out.html despite the error"
  fi
done <<'TABLE'
report -o out.html bad.json                        | 1 | bad.json:2:29: error:
report -o out.html $RES/small.json bad.json        | 1 | bad.json:2:29: error:
report -o out.html missing.json                    | 1 | cannot read 'missing.json'
report -o out.html other.json                      | 1 | not a dbgauge result file
report -o out.html /dev/zero                       | 1 | result file '/dev/zero' is not a regular file
report -o out.html big.json                        | 1 | result file 'big.json' is too large
report -o out.html empty                           | 1 | holds no result files
report                                             | 1 | report needs result files or directories
report --format pdf $RES/small.json                | 1 | unknown format 'pdf' for --format
report --terminals 4 $RES/small.json               | 1 | option '--terminals' does not apply to 'report'
report -o /nonexistent-dir/out.html $RES/small.json | 1 | cannot write report '/nonexistent-dir/out.html'
compare $RES/small.json                            | 1 | compare needs two result files or directories (A B), got 1
compare -o out.html $RES/small.json bad.json       | 1 | bad.json:2:29: error:
compare $RES/small.json $RES/small.json            | 0 |
report -o out.html evil                            | 1 | names the file '../small.json', which is not a file in the sweep's directory
TABLE
checks=$((checks + 1))
ls "$TMP" | grep -q '\.tmp\.' && fail "a temporary file was left behind after errors"

# The restore log and the table of tables and indexes, from the CSV against the file:
# elapsed is cumulative, the page columns are the steps' own, the objects come largest
# first with their share of the whole.
"$DBGAUGE" report --format csv -o "$TMP/small.csv" "$RES/small.json"
python3 - "$TMP/small.csv" "$RES/small.json" <<'PY' || fail "load tables do not match the result file"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
load = json.load(open(sys.argv[2]))["load"]
def table(tid):
    t = {}
    for r in rows:
        if len(r) == 6 and r[1] == tid:
            t.setdefault(int(r[2]), {})[r[3]] = r[5]
    return [t[k] for k in sorted(t)]
steps = table("run1-load")
assert len(steps) == len(load["steps"]), steps
for got, st in zip(steps, load["steps"]):
    assert got["step"] == st["name"], (got, st)
    assert abs(float(got["elapsed"]) - st["elapsed_s"]) < 1e-3, (got, st)
    assert abs(float(got["time"]) - st["seconds"]) < 1e-3, (got, st)
    assert int(got["page reads"]) == st["page_reads"] and int(got["page writes"]) == st["page_writes"], got
objs = table("run1-objects")
want = sorted(load["objects"], key=lambda o: -o["bytes"])
total = sum(o["bytes"] for o in load["objects"])
assert [o["object"] for o in objs] == [o["name"] for o in want], objs
for got, o in zip(objs, want):
    assert abs(float(got["size"]) - o["bytes"] / 1e6) < 0.01, (got, o)
    assert abs(float(got["share"]) - 100 * o["bytes"] / total) < 0.1, (got, o)
    assert got.get("depth", "") == ("" if o["depth"] is None else str(o["depth"])), (got, o)
PY
checks=$((checks + 1))

finish
