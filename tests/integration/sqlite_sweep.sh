#!/usr/bin/env bash
# dbgauge sweep on SQLite: a 2x2 grid (scale x terminals) writes one result file per point
# and an experiment index; scale changes reload the database (load figures recorded);
# hooks get their placeholders; an interrupted sweep is resumed without rerunning
# finished points; one seed serves the whole sweep, given or drawn once.
source "$(dirname "$0")/common.bash"
db="sqlite:$TMP/w.db"
"$DBGAUGE" sweep --db "$db" -w tpcb --vary scale=1,2 --vary terminals=1,2 -T 1s -P 500ms \
  -o "$TMP/s1" --seed 9 --before-each "echo {point} {scale} {terminals} >> $TMP/hooks.log" > "$TMP/out1"
[ "$(ls "$TMP/s1"/p*.json | wc -l)" = 4 ] || fail "expected 4 result files"
json "$TMP/s1/experiment.json" "[p['status'] for p in d['points']] == ['done'] * 4" | grep -q True || fail "statuses"
json "$TMP/s1/experiment.json" "[p['params'] for p in d['points']] == [{'scale': s, 'terminals': t} for s in '12' for t in '12']" | grep -q True || fail "grid order"
for f in "$TMP"/s1/p*.json; do
  json "$f" "d['sweep']['params']['terminals'] == str(d['run']['terminals']) and d['sweep']['params']['scale'] == str(d['run']['scale'])" | grep -q True || fail "$f: sweep params do not match the run"
done
# the first point of each scale loaded the database, the others did not
json "$TMP/s1/p001-scale=1-terminals=1-r1.json" "d['load']['scale'] == 1 and d['load']['mb_per_s'] > 0" | grep -q True || fail "p001 load"
json "$TMP/s1/p003-scale=2-terminals=1-r1.json" "d['load']['scale'] == 2" | grep -q True || fail "p003 load"
json "$TMP/s1/p002-scale=1-terminals=2-r1.json" "'load' not in d" | grep -q True || fail "p002 should not reload"
# the report draws each point's workload size as a bar (the growth study's first figure):
# a point that did not load ran on its scale's load
"$DBGAUGE" report "$TMP/s1" -o "$TMP/s1.html" > /dev/null || fail "report of the sweep"
sizes=$(python3 - "$TMP/s1" <<'PY'
import glob, json, sys
loads = {}
files = sorted(glob.glob(sys.argv[1] + '/p*.json'))
for f in files:
    d = json.load(open(f))
    if d.get('load'):
        loads[d['run']['scale']] = d['load']['objects_bytes']
print(';'.join(repr(loads[json.load(open(f))['run']['scale']] / 1e6) for f in files))
PY
)
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/s1.html" "bars=~Workload size of each point:$sizes" || fail "the points' sizes ($sizes)"
[ "$(wc -l < "$TMP/hooks.log")" = 4 ] || fail "hook ran $(wc -l < "$TMP/hooks.log") times"
grep -qx "p003 2 1" "$TMP/hooks.log" || fail "placeholders: $(cat "$TMP/hooks.log")"
[ "$(grep -c ' tps' "$TMP/out1")" = 4 ] || fail "one summary line per point"
# --seed: the seed of every point and of the loads, recorded in experiment.json
json "$TMP/s1/experiment.json" "d.get('seed')" | grep -qx 9 || fail "experiment.json's seed is not --seed 9"
for f in "$TMP"/s1/p*.json; do
  json "$f" "d['run']['seed'] == 9 and d.get('load', {}).get('seed', 9) == 9" | grep -q True || fail "$f: not seed 9"
done

# interrupt after the first point, then resume
"$DBGAUGE" sweep --db "$db" -w tpcb:select-only --vary terminals=1,2,3 -T 2s -o "$TMP/s2" > "$TMP/out2" 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q '^p001' "$TMP/out2" 2>/dev/null && break; sleep 0.1; done
grep -q '^p001' "$TMP/out2" || fail "the first point did not end in 30 s"
# at once (two points of 2 s are left): the signal may find the sweep between points or in
# p002's session, both stop it; a fixed wait first could let the sweep end on a loaded machine
kill -INT "$pid"
set +e; wait "$pid"; code=$?; set -e
[ "$code" = 2 ] || { cat "$TMP/out2"; fail "interrupted sweep exited $code, expected 2"; }
grep -q -- "--resume" "$TMP/out2" || fail "no resume hint"
# p002 may have ended before the signal arrived on a loaded machine (the sweep then stops
# before p003); the last point is never done, and no point is left half-recorded
json "$TMP/s2/experiment.json" "[p['status'] for p in d['points']][0] == 'done' and [p['status'] for p in d['points']][2] in ('interrupted', 'pending') and [p['status'] for p in d['points']][1] in ('done', 'interrupted', 'pending')" | grep -q True || fail "statuses after interrupt: $(cat "$TMP/s2/experiment.json")"
first=$(stat -c %Y.%s "$TMP"/s2/p001-*.json)
# a second sweep into the same directory without --resume is refused
expect_exit 1 "$DBGAUGE" sweep --db "$db" -w tpcb:select-only --vary terminals=1,2,3 -T 2s -o "$TMP/s2"
grep -q -- "--resume" "$TMP/err" || fail "refusal should mention --resume"
# resuming with other values is refused
expect_exit 1 "$DBGAUGE" sweep --db "$db" -w tpcb:select-only --vary terminals=1,2 -T 2s -o "$TMP/s2" --resume
# and with a --seed other than the sweep's
s2seed=$(json "$TMP/s2/experiment.json" "d['seed']")
expect_exit 1 "$DBGAUGE" sweep --db "$db" -w tpcb:select-only --vary terminals=1,2,3 -T 2s -o "$TMP/s2" --resume --seed $((s2seed == 1 ? 2 : 1))
grep -q "made with seed $s2seed" "$TMP/err" || fail "refusal should name the sweep's seed: $(cat "$TMP/err")"
"$DBGAUGE" sweep --db "$db" -w tpcb:select-only --vary terminals=1,2,3 -T 1s -o "$TMP/s2" --resume > "$TMP/out3"
json "$TMP/s2/experiment.json" "[p['status'] for p in d['points']] == ['done'] * 3" | grep -q True || fail "not all done after resume"
grep -q '^p001' "$TMP/out3" && fail "resume reran p001"
[ "$(stat -c %Y.%s "$TMP"/s2/p001-*.json)" = "$first" ] || fail "p001's file was rewritten"
json "$TMP/s2/p003-terminals=3-r1.json" "d['run']['terminals'] == 3 and d['run']['complete']" | grep -q True || fail "p003"
# no --seed: one seed drawn for the whole sweep, recorded in experiment.json and every
# point's, those the resume ran included (all points then use the same random stream)
python3 - "$TMP/s2" <<'PY' || fail "the points of a sweep without --seed do not share one seed"
import glob, json, sys
seed = json.load(open(sys.argv[1] + "/experiment.json")).get("seed")
seeds = {f.rsplit("/", 1)[1]: json.load(open(f))["run"]["seed"] for f in sorted(glob.glob(sys.argv[1] + "/p*.json"))}
assert isinstance(seed, int) and len(seeds) == 3 and set(seeds.values()) == {seed}, (seed, seeds)
PY
grep -q "seed $(json "$TMP/s2/experiment.json" "d['seed']")\$" "$TMP/out3" || fail "the resumed sweep does not print its seed: $(head -1 "$TMP/out3")"

# per-connection settings as a parameter
"$DBGAUGE" sweep --db "$db" -w tpcb:select-only --vary conn.cache_size=-500,-8000 -T 1s -o "$TMP/s3" -q > /dev/null
json "$TMP/s3/p002-conn.cache_size=-8000-r1.json" "d['server']['settings']['cache_size'] == '-8000' and d['run']['conn_settings']['cache_size'] == '-8000'" | grep -q True || fail "conn setting not applied"

# labelled values: --vary db=hdd:URL,ssd:URL runs each URL and names the series by label
# (file names, params, experiment.json, the report and compare), keeping the URLs
cp "$TMP/w.db" "$TMP/v.db"
"$DBGAUGE" sweep -w tpcb:select-only --vary "db=hdd:sqlite:$TMP/w.db,ssd:sqlite:$TMP/v.db" -t 200 -o "$TMP/s4" -q > "$TMP/out4"
[ -f "$TMP/s4/p001-db=hdd-r1.json" ] && [ -f "$TMP/s4/p002-db=ssd-r1.json" ] || fail "labelled file names: $(ls "$TMP/s4")"
json "$TMP/s4/p002-db=ssd-r1.json" "d['sweep']['params'] == {'db': 'ssd'} and d['sweep']['values'] == {'db': 'sqlite:$TMP/v.db'} and d['run']['db'] == 'sqlite:$TMP/v.db'" | grep -q True || fail "labelled point"
json "$TMP/s4/experiment.json" "d['parameters'][0]['values'] == ['hdd', 'ssd'] and d['parameters'][0]['labels'] == {'hdd': 'sqlite:$TMP/w.db', 'ssd': 'sqlite:$TMP/v.db'}" | grep -q True || fail "labelled index"
grep -q "db=ssd" "$TMP/out4" || fail "summary line without the label: $(cat "$TMP/out4")"
"$DBGAUGE" report "$TMP/s4" --format markdown > "$TMP/rep4.md"
grep -q "ssd" "$TMP/rep4.md" && grep -q "hdd" "$TMP/rep4.md" || fail "report does not name the series by label"
# its pivot tables: one row per label, one value column
"$DBGAUGE" report "$TMP/s4" -o "$TMP/rep4.html" 2>/dev/null
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/rep4.html" "pivot=sweep-pivot-tps:tps:$TMP/s4" \
  "pivot=sweep-pivot-p95:p95:$TMP/s4" >&2 || fail "pivot tables of the labelled sweep"
"$DBGAUGE" compare "$TMP/s4/p001-db=hdd-r1.json" "$TMP/s4/p002-db=ssd-r1.json" > "$TMP/cmp4" || true
grep -q "db=ssd" "$TMP/cmp4" || { cat "$TMP/cmp4"; fail "compare does not name the sides by label"; }

# --vary size= reloads like --vary scale=: every point loads its own size
"$DBGAUGE" sweep --db "sqlite:$TMP/z.db" -w tables:select --tables 4 --vary size=3MB,6MB,4MB -T 1s -o "$TMP/s5" -q > /dev/null
for f in "$TMP"/s5/p00[123]-*.json; do
  json "$f" "d['load']['scale'] == d['run']['scale'] and d['load']['mb_per_s'] > 0" | grep -q True || fail "$f: no load of its own"
done
s1=$(json "$TMP/s5/p001-size=3MB-r1.json" "d['run']['scale']"); s2=$(json "$TMP/s5/p002-size=6MB-r1.json" "d['run']['scale']")
[ "$s2" -gt "$s1" ] || fail "size 6MB loaded $s2 rows, 3MB $s1"

# one series over named values (db=hdd,ssd) is a bar chart per metric
"$DBGAUGE" report "$TMP/s4" --format json > "$TMP/rep4.json"
python3 - "$TMP/rep4.json" <<'PY' || fail "sweep over named values: not bar charts"
import json, sys
r = json.load(open(sys.argv[1]))
charts = [i for s in r["sections"] if s["id"] == "sweep" for i in s["items"] if i["type"] == "chart"]
assert charts and all(c["kind"] == "bar" for c in charts), [(c["title"], c["kind"]) for c in charts]
tps = [c for c in charts if c["title"].startswith("Throughput")][0]
assert tps["x"]["categories"] == ["hdd", "ssd"], tps["x"]
PY

# one numeric parameter: throughput (left) and client CPU (right axis: SQLite has no server
# host) on one chart, whose
# points are the other charts' values
"$DBGAUGE" report "$TMP/s2" --format json > "$TMP/rep2.json"
python3 - "$TMP/rep2.json" <<'PY' || fail "throughput and CPU chart"
import json, sys
r = json.load(open(sys.argv[1]))
charts = {i["title"]: i for s in r["sections"] if s["id"] == "sweep" for i in s["items"] if i["type"] == "chart"}
c = charts["Throughput and client CPU vs terminals"]
assert c["y"]["unit"] == "tx/s" and c["y2"]["unit"] == "%", (c["y"], c.get("y2"))
tps, cpu = c["series"]
assert "axis" not in tps and cpu["axis"] == "y2", c["series"]
pts = lambda s: [(p["x"], round(p["y"], 6)) for p in s["points"]]
assert pts(tps) == pts(charts["Throughput vs terminals"]["series"][0]), (pts(tps), charts["Throughput vs terminals"])
assert pts(cpu) == pts(charts["Client CPU use vs terminals"]["series"][0])
assert [p[0] for p in pts(tps)] == [1, 2, 3]
PY
"$DBGAUGE" report "$TMP/s2" -o "$TMP/rep2.html"
grep -q 'class="axis y2"' "$TMP/rep2.html" || fail "no right-hand axis drawn"

# the load's timeline: one tick a second, whose data add up to the bytes the load sent
for f in "$TMP/s1/p001-scale=1-terminals=1-r1.json" "$TMP/s1/p003-scale=2-terminals=1-r1.json"; do
  json "$f" "(lambda l: len(l['timeline']) >= 1 and sum(t['bytes'] for t in l['timeline']) == l['data_bytes_sent'] and sum(t['rows'] for t in l['timeline']) == sum(s['rows'] for s in l['steps'] if s['kind'] == 'table') and all(0.5 < t['dur_s'] < 3 for t in l['timeline'][:-1]) and abs(l['timeline'][-1]['t_s'] - l['seconds']) < 0.5)(d['load'])" | grep -q True || fail "$f: load timeline $(json "$f" "d['load']['timeline']")"
done
