#!/usr/bin/env bash
# sweep --until-ci on SQLite: a point whose throughput does not vary between runs (a paced
# SELECT 1: the same seeded arrivals every run) settles at the fewest runs with its other
# repeats skipped; a noisy one (each transaction a random amount of work drawn by SQLite's
# own unseeded random()) runs to --max-repeat and says so ("cap"); experiment.json records
# both; --resume runs nothing more; a report reads the directory without a missing-file
# note; bad values are refused.
source "$(dirname "$0")/common.bash"
printf 'SELECT 1;\n' >"$TMP/stable.sql"
# (the length drawn once a transaction, in the anchor row, and carried: drawn again on every
# row, the recursion stopped after about 800 rows almost every time, and three runs once
# came out within 0.8 % of each other)
printf 'SELECT count(*) FROM (WITH RECURSIVE c(x, n) AS (SELECT 1, abs(random()) %% 100000 UNION ALL SELECT x + 1, n FROM c WHERE x < n) SELECT x FROM c);\n' >"$TMP/noisy.sql"
db="sqlite:$TMP/ci.db"

"$DBGAUGE" sweep --db "$db" -f "$TMP/stable.sql" --vary rate=100,150 -T 1s --until-ci 10 --max-repeat 6 \
  -o "$TMP/stable" >"$TMP/s.out" 2>"$TMP/s.err" || { cat "$TMP/s.err" >&2; fail "the stable sweep exited $?"; }
grep -q "each run 3 to 6 times until its 95% CI is within +/-10% of the mean" "$TMP/s.out" ||
  fail "the sweep's first line: $(head -1 "$TMP/s.out")"
[ "$(grep -c 'within --until-ci$' "$TMP/s.out")" = 2 ] || fail "the stable points did not settle: $(cat "$TMP/s.out")"
python3 - "$TMP/stable/experiment.json" <<'PY' || fail "the stable sweep's experiment.json"
import json, os, sys
d = json.load(open(sys.argv[1]))
assert d["until_ci"]["pct"] == 10 and d["until_ci"]["min_repeat"] == 3 and d["until_ci"]["max_repeat"] == 6, d["until_ci"]
for pid in ("p001", "p002"):
    runs = [p for p in d["points"] if p["id"] == pid]
    assert [p["status"] for p in runs] == ["done"] * 3 + ["skipped"] * 3, runs
    for p in runs:
        ci = p["ci"]
        assert ci["stopped"] == "ci reached" and ci["runs"] == 3 and ci["half_width_pct"] <= 10, ci
        present = os.path.exists(os.path.join(os.path.dirname(sys.argv[1]), p["file"]))
        assert present == (p["status"] == "done"), p
print("ok: both stable points settled after 3 runs")
PY
"$DBGAUGE" sweep --db "$db" -f "$TMP/stable.sql" --vary rate=100,150 -T 1s --until-ci 10 --max-repeat 6 \
  -o "$TMP/stable" --resume >"$TMP/r.out" 2>&1 || { cat "$TMP/r.out" >&2; fail "--resume exited $?"; }
grep -q "(12 runs at most, 0 to run)" "$TMP/r.out" || fail "--resume ran again: $(cat "$TMP/r.out")"
"$DBGAUGE" report --format text "$TMP/stable" >"$TMP/rep" 2>"$TMP/rep.err" || fail "report of an --until-ci sweep"
! grep -q "has no result file" "$TMP/rep" "$TMP/rep.err" || fail "the report calls skipped runs missing"

"$DBGAUGE" sweep --db "$db" -f "$TMP/noisy.sql" --vary terminals=1 -t 5 --until-ci 1 --max-repeat 4 \
  -o "$TMP/noisy" >"$TMP/n.out" 2>"$TMP/n.err" || { cat "$TMP/n.err" >&2; fail "the noisy sweep exited $?"; }
grep -q "p001: 95% CI .* after 4 runs: not within --until-ci at --max-repeat" "$TMP/n.out" ||
  fail "the noisy point: $(cat "$TMP/n.out")"
[ "$(json "$TMP/noisy/experiment.json" "[p['status'] + ':' + p['ci']['stopped'] for p in d['points']]")" = \
  "['done:cap', 'done:cap', 'done:cap', 'done:cap']" ] || fail "the noisy point's record"

expect_exit 1 "$DBGAUGE" sweep --db "$db" --vary terminals=1 --max-repeat 4
grep -q "give --until-ci PCT too" "$TMP/err" || fail "--max-repeat alone: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" sweep --db "$db" --vary terminals=1 --until-ci 5 --repeat 12
grep -q "more than --max-repeat 10" "$TMP/err" || fail "--repeat beyond the cap: $(cat "$TMP/err")"
for bad in 0 101 -3 x; do
  expect_exit 1 "$DBGAUGE" sweep --db "$db" --vary terminals=1 --until-ci "$bad"
done
expect_exit 1 "$DBGAUGE" sweep --db "$db" --vary terminals=1 --until-ci 5 --max-repeat 1
echo "ok: --until-ci settles a stable point, caps a noisy one, resumes and reports"
