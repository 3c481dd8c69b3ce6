#!/usr/bin/env bash
# Where dbgauge's outputs go (core/file.h): `run --json`, `load --json`, `report -o` and
# `compare -o` to "-" (standard output holds the JSON alone), to a character device (a
# private node with /dev/null's numbers, made with mknod: root only), a fifo (read by a
# reader started before), a symbolic link (the link stays, its target gets the file) and a
# socket (refused); report and compare refuse an output that is one of their inputs (exit
# 1, the input unchanged); result files with dbgauge.format 0 or -1 are refused. The
# machine's /dev/null and /dev/stdout are never named as an output (private stand-ins
# are: a broken dbgauge replaces those, not the machine's); after the writes they are
# checked to be what they were.
# Runs SQLite tpcb with a count of transactions: nothing here waits on the clock.
source "$(dirname "$0")/common.bash"
RES="$DG_FIXTURES/results"
DB="sqlite:$TMP/t.db"
RUN=(-w tpcb --scale 1 -t 20 -P 0 --db "$DB")

json_ok() { # FILE [KIND]: FILE is one JSON document (a result document of KIND)
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if len(sys.argv) > 2:
    assert d["dbgauge"]["format"] == 2, d["dbgauge"]
    kind = d.get("kind", "run")
    assert kind == sys.argv[2], "kind %r, wanted %r" % (kind, sys.argv[2])
PY
}

# the machine's own /dev/null and /dev/stdout, as they are now
devnull_was=$(stat -c '%F %t:%T' /dev/null)
stdout_was=$(stat -c '%F' /dev/stdout)
stdout_link=$(readlink /dev/stdout)
machine_ok() { # WHEN: /dev/null and /dev/stdout are still what they were
  checks=$((checks + 1))
  [ "$(stat -c '%F %t:%T' /dev/null)" = "$devnull_was" ] || fail "$1: /dev/null is now $(stat -c '%F' /dev/null)"
  [ "$(stat -c '%F' /dev/stdout)" = "$stdout_was" ] && [ "$(readlink /dev/stdout)" = "$stdout_link" ] \
    || fail "$1: /dev/stdout is now $(stat -c '%F' /dev/stdout)"
}
no_leftovers() { # DIR WHAT: no temporary file of an atomic write left in DIR
  checks=$((checks + 1))
  if ls "$1" | grep -q '\.tmp\.'; then fail "$2: temporary files left: $(ls "$1")"; fi
}

# the tables once; the runs below find them loaded
"$DBGAUGE" load -w tpcb --scale 1 --db "$DB" -q --no-results >/dev/null 2>"$TMP/load.err" \
  || { cat "$TMP/load.err" >&2; fail "load: exit $?"; finish; }

# ---- "-": the JSON alone on stdout, the rest on stderr -----------------------------------
checks=$((checks + 1))
if "$DBGAUGE" run "${RUN[@]}" --json - >"$TMP/dash.json" 2>"$TMP/dash.err"; then
  json_ok "$TMP/dash.json" run || fail "run --json -: stdout is not the result document: $(head -c 300 "$TMP/dash.json")"
  grep -q '^results: tpcb on sqlite' "$TMP/dash.err" || fail "run --json -: the summary is not on stderr: $(cat "$TMP/dash.err")"
  grep -qx 'result file: standard output' "$TMP/dash.err" || fail "run --json -: stderr does not say where the result went"
else
  fail "run --json -: exit $?: $(cat "$TMP/dash.err")"
fi
[ -e "$TMP/-" ] && fail "run --json - made a file named '-'"
# the commit --version shows is the one the result file records
checks=$((checks + 1))
commit=$("$DBGAUGE" --version | sed -n 's/^dbgauge [0-9.]* (commit \(.*\))$/\1/p')
[ -n "$commit" ] || fail "--version shows no commit: $("$DBGAUGE" --version)"
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dbgauge"]["commit"])' "$TMP/dash.json")" = "$commit" ] \
  || fail "the result's dbgauge.commit is not --version's ($commit)"
machine_ok "run --json -"
# the same through a link to /proc/self/fd/1 (what /dev/stdout is: a private one, so that
# a dbgauge that renamed over it would not replace the machine's), into a pipe and into a
# redirected file
mkdir "$TMP/dev"
ln -s /proc/self/fd/1 "$TMP/dev/stdout"
checks=$((checks + 1))
"$DBGAUGE" run "${RUN[@]}" --json "$TMP/dev/stdout" 2>"$TMP/devstdout.err" | cat >"$TMP/piped.json" \
  || fail "run --json STDOUT-LINK | cat: exit ${PIPESTATUS[0]}: $(cat "$TMP/devstdout.err")"
json_ok "$TMP/piped.json" run || fail "run --json STDOUT-LINK into a pipe: not JSON: $(head -c 300 "$TMP/piped.json")"
checks=$((checks + 1))
"$DBGAUGE" run "${RUN[@]}" --json "$TMP/dev/stdout" >"$TMP/redirected.json" 2>"$TMP/devstdout.err" \
  || fail "run --json STDOUT-LINK > FILE: exit $?: $(cat "$TMP/devstdout.err")"
json_ok "$TMP/redirected.json" run || fail "run --json STDOUT-LINK > FILE: not JSON: $(head -c 300 "$TMP/redirected.json")"
[ -L "$TMP/dev/stdout" ] || fail "run --json STDOUT-LINK replaced the link: it is now a $(stat -c '%F' "$TMP/dev/stdout")"
machine_ok "run --json STDOUT-LINK"
checks=$((checks + 1))
"$DBGAUGE" load -w tpcb --scale 1 --db "sqlite:$TMP/l.db" --json - >"$TMP/load.json" 2>"$TMP/load.err" \
  || fail "load --json -: exit $?: $(cat "$TMP/load.err")"
json_ok "$TMP/load.json" load || fail "load --json -: stdout is not the load document: $(head -c 300 "$TMP/load.json")"
grep -q 'pgbench_accounts' "$TMP/load.err" || fail "load --json -: the load steps are not on stderr"
checks=$((checks + 1))
"$DBGAUGE" report "$RES/small.json" --format json -o - >"$TMP/rep-dash.json" 2>"$TMP/rep.err" \
  || fail "report -o -: exit $?: $(cat "$TMP/rep.err")"
json_ok "$TMP/rep-dash.json" || fail "report --format json -o -: not JSON"
[ -e "$TMP/-" ] && fail "report -o - made a file named '-'"
checks=$((checks + 1))
"$DBGAUGE" compare "$RES/compare/a1.json" "$RES/compare/b1.json" --format json -o - >"$TMP/cmp-dash.json" 2>"$TMP/cmp.err" \
  || fail "compare -o -: exit $?: $(cat "$TMP/cmp.err")"
json_ok "$TMP/cmp-dash.json" || fail "compare --format json -o -: not JSON"

# ---- a load on a terminal: the bar gives the rows' percent and the time; an index build
# says it has begun (script(1) gives dbgauge a terminal)
checks=$((checks + 1))
if command -v script >/dev/null; then
  script -qec "$DBGAUGE load -w tpcb --scale 2 --db sqlite:$TMP/bar.db --no-results" /dev/null \
    > "$TMP/bar.out" 2>&1 || fail "load on a terminal: exit $?"
  tr '\r' '\n' < "$TMP/bar.out" > "$TMP/bar.lines"
  grep -Eq 'loading pgbench_accounts +\[[#.]{20}\] +[0-9]+% of rows, [0-9.]+ (us|ms|s|min)' "$TMP/bar.lines" \
    || fail "no load bar with percent and time: $(head -c 600 "$TMP/bar.lines")"
  grep -Eq 'index pgbench_accounts_pkey +\.\.\. \(the load: [0-9.]+ (us|ms|s|min)( [0-9]+ s)? so far\)' "$TMP/bar.lines" \
    || fail "an index build does not say it has begun: $(head -c 600 "$TMP/bar.lines")"
fi

# ---- -j on a loaded database: pgbench's threads, here load jobs: said, not silent ----------
checks=$((checks + 1))
"$DBGAUGE" run "${RUN[@]}" -j 4 --no-results >/dev/null 2>"$TMP/j.err" || fail "run -j 4: exit $?"
grep -q -- "-j 4 is the number of parallel load jobs, and the tables are loaded" "$TMP/j.err" \
  || fail "run -j 4 on a loaded database: no warning: $(cat "$TMP/j.err")"

# ---- @FILE: options from a file, recorded (redacted) in the result ---------------------
checks=$((checks + 1))
cat > "$TMP/run.opts" <<OPTS
# the tables are loaded above; a comment with a URL: postgres://u:Fi1eSecret@h/db
-w tpcb
--db $DB
  --terminals 2
-t 20
--report-interval=0
OPTS
if "$DBGAUGE" run @"$TMP/run.opts" -q --json "$TMP/opts.json" >"$TMP/opts.out" 2>&1; then
  python3 - "$TMP/opts.json" "$TMP/run.opts" <<'PY' || fail "@FILE: not recorded as it should be"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["terminals"] == 2 and r["transactions_per_terminal"] == 20, r
assert "--terminals 2 -t 20 --report-interval=0" in r["command"], r["command"]
f = r["options_files"]
assert len(f) == 1 and f[0]["file"] == sys.argv[2], f
assert "--db sqlite:" in f[0]["text"] and "Fi1eSecret" not in f[0]["text"] and "u:***@h" in f[0]["text"], f[0]["text"]
PY
  ! grep -q Fi1eSecret "$TMP/opts.json" "$TMP/opts.out" || fail "@FILE: the comment's password is in the output"
else
  fail "run @FILE: exit $?: $(cat "$TMP/opts.out")"
fi

# ---- --interval-log: one JSON line per interval, as each ends ---------------------------
# (a 2 s run: the test reads what the result file says, never the clock)
checks=$((checks + 1))
if "$DBGAUGE" run -w tpcb --db "$DB" -c 1 -T 2 -P 1 --warmup 1 --interval-log - --json "$TMP/il.json" \
     >"$TMP/il.out" 2>"$TMP/il.err"; then
  python3 - "$TMP/il.out" "$TMP/il.json" <<'PY' || fail "--interval-log -: the lines do not match the result file"
import datetime, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
d = json.load(open(sys.argv[2]))
for phase, key in (("warmup", "warmup_intervals"), ("measured", "intervals")):
    got = [l for l in lines if l["phase"] == phase]
    want = d[key]
    assert len(got) == len(want) > 0, (phase, len(got), len(want))
    for g, w in zip(got, want):
        for k in w:
            if k == "verdict":  # judged when the run ends, after the live lines
                continue
            assert g[k] == w[k], (phase, k, g[k], w[k])
ends = [datetime.datetime.strptime(l["end_at"], "%Y-%m-%dT%H:%M:%S.%fZ") for l in lines]
assert ends == sorted(ends) and (ends[-1] - ends[0]).total_seconds() > 1.5, ends
print("# --interval-log -: %d lines, the same records as the result file" % len(lines))
PY
  grep -q ' tps ' "$TMP/il.err" || fail "--interval-log -: the interval lines are not on stderr"
else
  fail "--interval-log -: exit $?: $(cat "$TMP/il.err")"
fi
checks=$((checks + 1))
"$DBGAUGE" run "${RUN[@]}" -q --no-results --interval-log "$TMP/il.jsonl" >"$TMP/ilq.out" 2>&1 \
  || fail "--interval-log FILE -q: exit $?"
[ "$(grep -c '"phase":"measured"' "$TMP/il.jsonl")" = 1 ] && ! grep -q ' tps .* lat ms' "$TMP/ilq.out" \
  || fail "--interval-log FILE with -q: $(cat "$TMP/il.jsonl" "$TMP/ilq.out" | head -c 300)"
# a reader that goes away: a warning, and the run goes on to its result
checks=$((checks + 1))
set +e
"$DBGAUGE" run -w tpcb --db "$DB" -c 1 -T 3 -P 1 --interval-log - --json "$TMP/gone.json" \
  2>"$TMP/gone.err" | head -n 1 > "$TMP/gone.first"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] && json_ok "$TMP/gone.json" run && [ "$(wc -l < "$TMP/gone.first")" = 1 ] \
  && grep -q -- "--interval-log: cannot write (Broken pipe)" "$TMP/gone.err" \
  || fail "--interval-log - read by head -1: exit $rc, $(cat "$TMP/gone.err" | tail -3)"
checks=$((checks + 1))
set +e; "$DBGAUGE" run "${RUN[@]}" --interval-log - --json - >"$TMP/both.out" 2>&1; rc=$?; set -e
[ "$rc" = 1 ] && grep -q "both name standard output" "$TMP/both.out" && [ ! -e "$TMP/-" ] \
  || fail "--interval-log - --json -: exit $rc, $(cat "$TMP/both.out")"

# ---- --metrics-file: Prometheus text, replaced whole at each interval --------------------
checks=$((checks + 1))
if "$DBGAUGE" run -w tpcb --db "$DB" -c 1 -T 2 -P 1 -q --metrics-file "$TMP/m.prom" --json "$TMP/m.json" \
     >"$TMP/m.out" 2>&1; then
  python3 - "$TMP/m.prom" "$TMP/m.json" <<'PY' || fail "--metrics-file: not the text format, or not the run's figures"
import json, re, sys
text = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
# a strict reading of the text format 0.0.4: HELP and TYPE before a family's samples,
# metric and label names, quoted and escaped values, one value per sample, no series twice
types, helped, seen, series = {}, set(), set(), {}
sample = re.compile(r'^(dbgauge_[a-z_]+)\{((?:[a-z_]+="(?:[^"\\\n]|\\.)*",)*[a-z_]+="(?:[^"\\\n]|\\.)*")\} (-?[0-9.e+-]+|NaN)$')
for line in text.splitlines():
    if line.startswith("# HELP "):
        helped.add(line.split()[2])
    elif line.startswith("# TYPE "):
        _, _, name, kind = line.split()
        assert kind in ("gauge", "counter", "summary"), line
        assert name in helped and name not in types, line
        types[name] = kind
    else:
        m = sample.match(line)
        assert m, "not a sample line: %r" % line
        name = m.group(1)
        base = re.sub(r"_(sum|count)$", "", name)
        family = base if types.get(base) == "summary" else name
        assert family in types, "no TYPE for %s" % name
        assert types[family] != "counter" or name.endswith("_total"), name
        key = (name, m.group(2))
        assert key not in seen, "twice: %s" % line
        seen.add(key)
        series[key] = float(m.group(3))
lab = 'workload="tpcb",backend="sqlite"'
total = sum(iv["transactions"] for iv in d["intervals"])
assert series[("dbgauge_latency_seconds_count", lab + ',transaction="all"')] == total, total
assert series[("dbgauge_transactions_total", lab + ',transaction="tpcb"')] == total
last = d["intervals"][-1]
if last["tps"] is not None:
    assert abs(series[("dbgauge_tps", lab)] - last["tps"]) < 1e-6 * last["tps"]
assert series[("dbgauge_measuring", lab)] == 1
print("# --metrics-file: %d series, %d transactions" % (len(series), total))
PY
  if command -v promtool >/dev/null; then
    promtool check metrics < "$TMP/m.prom" > "$TMP/promtool.out" 2>&1 || fail "promtool check metrics: $(cat "$TMP/promtool.out")"
  fi
  no_leftovers "$TMP" "--metrics-file"
else
  fail "--metrics-file: exit $?: $(cat "$TMP/m.out")"
fi
checks=$((checks + 1))
set +e; "$DBGAUGE" run "${RUN[@]}" --metrics-file - >"$TMP/mdash.out" 2>&1; rc=$?; set -e
[ "$rc" = 1 ] && grep -q "name a file, not standard output" "$TMP/mdash.out" || fail "--metrics-file -: exit $rc, $(cat "$TMP/mdash.out")"

# ---- --hlog: an HdrHistogram interval log that HdrHistogram's own processor reads --------
checks=$((checks + 1))
jar=/usr/share/java/hdrhistogram.jar
if "$DBGAUGE" run -w tpcb --db "$DB" -c 1 -T 3 -P 1 --warmup 1 -q --hlog "$TMP/t.hlog" --json "$TMP/h.json" \
     >"$TMP/h.out" 2>&1; then
  if command -v java >/dev/null && [ -r "$jar" ]; then
    # values in ns (ratio 1): the distribution's rows bracket our percentiles
    for tag in "" tpcb; do
      java -cp "$jar" org.HdrHistogram.HistogramLogProcessor -i "$TMP/t.hlog" ${tag:+-tag "$tag"} \
        -outputValueUnitRatio 1 -csv -o "$TMP/proc$tag" > "$TMP/proc.err" 2>&1 \
        || fail "HistogramLogProcessor ${tag:-(untagged)}: $(cat "$TMP/proc.err")"
    done
    python3 - "$TMP/proc.hgrm" "$TMP/proctpcb.hgrm" "$TMP/h.json" <<'PY' || fail "--hlog: HdrHistogram reads other figures than the result's"
import csv, json, sys
d = json.load(open(sys.argv[3]))
tx = d["transactions"][0]
for path in sys.argv[1:3]:
    rows = [r for r in csv.reader(open(path)) if r and not r[0].startswith("#")][1:]
    rows = [(float(r[0]), float(r[1]), int(r[2])) for r in rows]
    assert rows[-1][2] == tx["count"] == d["totals"]["transactions"], (rows[-1], tx["count"])
    assert abs(rows[-1][0] / 1e6 - tx["latency_ms"]["max"]) <= tx["latency_ms"]["max"] * 2 / 1024 + 1e-6, (rows[-1], tx["latency_ms"]["max"])
    for q, key in ((0.5, "p50"), (0.99, "p99")):
        ours = tx["latency_ms"][key] * 1e6
        below = max([v for v, p, c in rows if p < q] or [0])
        above = min(v for v, p, c in rows if p >= q)
        assert below * (1 - 2 / 1024) - 1 <= ours <= above * (1 + 2 / 1024) + 1, (path, key, below, ours, above)
print("# --hlog: HistogramLogProcessor counts %d transactions, as the result does" % tx["count"])
PY
  elif [ "${DG_REQUIRE_SERVERS:-0}" = 1 ]; then
    fail "--hlog: no java or $jar to read the log with (scripts/deps.sh test installs them)"
  fi
  head -n 3 "$TMP/t.hlog" | grep -q '^#\[StartTime: [0-9.]* (seconds since epoch)' || fail "--hlog: no StartTime header"
  [ "$(grep -c '^Tag=tpcb,' "$TMP/t.hlog")" = "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["intervals"]))' "$TMP/h.json")" ] \
    || fail "--hlog: not one tagged line per measured interval"
else
  fail "--hlog: exit $?: $(cat "$TMP/h.out")"
fi

# ---- a character device: written in place, still a device afterwards -----------------
# (a private node with /dev/null's numbers: the machine's own is never named, so that a
# dbgauge that renamed over its target could not replace it)
if mknod "$TMP/dev/null" c 1 3 2>/dev/null; then
  for cmd in "run ${RUN[*]} --json" "report $RES/small.json -o" \
             "compare $RES/compare/a1.json $RES/compare/b1.json -o" \
             "run ${RUN[*]} --no-results --interval-log"; do
    checks=$((checks + 1))
    # shellcheck disable=SC2086 # the words of cmd are the arguments
    "$DBGAUGE" $cmd "$TMP/dev/null" >/dev/null 2>"$TMP/dev.err" || fail "$cmd DEVICE: exit $?: $(cat "$TMP/dev.err")"
    [ "$(stat -c '%F %t:%T' "$TMP/dev/null")" = "character special file 1:3" ] \
      || fail "$cmd DEVICE replaced the device: it is now a $(stat -c '%F' "$TMP/dev/null")"
    no_leftovers "$TMP/dev" "$cmd DEVICE"
    machine_ok "$cmd DEVICE"
  done
else
  echo "not root: the device checks are left out" >&2
fi

# ---- a fifo: its reader gets the document ---------------------------------------------
mkdir "$TMP/fifo"
mkfifo "$TMP/fifo/f"
for cmd in "run ${RUN[*]} --json" "report $RES/small.json --format json -o" \
           "compare $RES/compare/a1.json $RES/compare/b1.json --format json -o"; do
  checks=$((checks + 1))
  # the reader is started first; dbgauge's open waits for it (the timeout only guards
  # against a hang when the fifo is never opened)
  timeout 300 cat "$TMP/fifo/f" >"$TMP/fifo.out" &
  reader=$!
  # shellcheck disable=SC2086
  if "$DBGAUGE" $cmd "$TMP/fifo/f" >/dev/null 2>"$TMP/fifo.err"; then
    wait "$reader" || fail "$cmd FIFO: the reader failed ($?)"
    json_ok "$TMP/fifo.out" || fail "$cmd FIFO: the reader did not get JSON: $(head -c 300 "$TMP/fifo.out")"
  else
    fail "$cmd FIFO: exit $?: $(cat "$TMP/fifo.err")"
    kill "$reader" 2>/dev/null || true
    wait "$reader" 2>/dev/null || true
  fi
  [ -p "$TMP/fifo/f" ] || fail "$cmd FIFO replaced the fifo: it is now a $(stat -c '%F' "$TMP/fifo/f")"
  no_leftovers "$TMP/fifo" "$cmd FIFO"
done

# ---- a symbolic link: followed; the link stays, the target is replaced ----------------
mkdir -p "$TMP/links/real"
for cmd in "run ${RUN[*]} --json" "report $RES/small.json --format json -o" \
           "compare $RES/compare/a1.json $RES/compare/b1.json --format json -o"; do
  checks=$((checks + 1))
  echo old >"$TMP/links/real/target.json"
  rm -f "$TMP/links/link.json"
  ln -s real/target.json "$TMP/links/link.json"
  # shellcheck disable=SC2086
  "$DBGAUGE" $cmd "$TMP/links/link.json" >/dev/null 2>"$TMP/link.err" || fail "$cmd LINK: exit $?: $(cat "$TMP/link.err")"
  [ -L "$TMP/links/link.json" ] && [ "$(readlink "$TMP/links/link.json")" = real/target.json ] \
    || fail "$cmd LINK: the link is gone: $(stat -c '%F' "$TMP/links/link.json")"
  json_ok "$TMP/links/real/target.json" || fail "$cmd LINK: the target does not hold the output: $(head -c 100 "$TMP/links/real/target.json")"
  no_leftovers "$TMP/links" "$cmd LINK"
  no_leftovers "$TMP/links/real" "$cmd LINK"
done
# a dangling link names the file to create
checks=$((checks + 1))
ln -s real/new.json "$TMP/links/dangling.json"
"$DBGAUGE" report "$RES/small.json" --format json -o "$TMP/links/dangling.json" 2>"$TMP/link.err" \
  || fail "report -o DANGLING: exit $?: $(cat "$TMP/link.err")"
[ -L "$TMP/links/dangling.json" ] && json_ok "$TMP/links/real/new.json" \
  || fail "report -o DANGLING: the link's target was not made (or the link replaced)"

# ---- a socket: refused ----------------------------------------------------------------
checks=$((checks + 1))
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/sock"
set +e; "$DBGAUGE" report "$RES/small.json" -o "$TMP/sock" >/dev/null 2>"$TMP/sock.err"; rc=$?; set -e
[ $rc = 1 ] && grep -q "cannot write report '$TMP/sock': it is a socket" "$TMP/sock.err" && [ -S "$TMP/sock" ] \
  || fail "report -o SOCKET: exit $rc: $(cat "$TMP/sock.err")"
machine_ok "the writes"

# ---- an output that is an input: refused, nothing written ------------------------------
mkdir "$TMP/in"
cp "$RES/small.json" "$TMP/in/a.json"
cp "$RES/compare/b1.json" "$TMP/in/b.json"
cp -r "$RES/sweep" "$TMP/in/sweep"
ln "$TMP/in/a.json" "$TMP/in/hard.json"
ln -s a.json "$TMP/in/soft.json"
sum_before=$(cd "$TMP/in" && md5sum a.json b.json sweep/*)
refused() { # OUTPUT INPUT COMMAND...: exit 1, the message, the inputs unchanged
  local out=$1 in=$2; shift 2
  checks=$((checks + 1))
  set +e; (cd "$TMP/in" && "$DBGAUGE" "$@") >"$TMP/self.out" 2>"$TMP/self.err"; local rc=$?; set -e
  [ $rc = 1 ] || fail "dbgauge $*: exit $rc, wanted 1 (output is an input)"
  grep -qF "dbgauge: error: output '$out' is the input '$in': the report would overwrite it" "$TMP/self.err" \
    || fail "dbgauge $*: $(cat "$TMP/self.err")"
  [ "$(cd "$TMP/in" && md5sum a.json b.json sweep/*)" = "$sum_before" ] || fail "dbgauge $*: an input changed"
}
refused a.json a.json report a.json -o a.json
refused ./a.json a.json report a.json --format json -o ./a.json
refused soft.json a.json report a.json -o soft.json
refused hard.json a.json report a.json -o hard.json
refused a.json a.json report b.json a.json -o a.json
refused b.json b.json compare a.json b.json -o b.json
refused a.json a.json compare a.json b.json --format json -o a.json
refused sweep/experiment.json sweep/experiment.json report sweep -o sweep/experiment.json
p=$(cd "$TMP/in" && ls sweep | grep -m1 '^p001')
refused "sweep/$p" "sweep/$p" compare sweep sweep -o "sweep/$p"
# standard output appended to an input
checks=$((checks + 1))
set +e; (cd "$TMP/in" && "$DBGAUGE" report a.json >>a.json 2>"$TMP/self.err"); rc=$?; set -e
[ $rc = 1 ] && grep -qF "dbgauge: error: standard output is the input 'a.json'" "$TMP/self.err" \
  || fail "report a.json >> a.json: exit $rc: $(cat "$TMP/self.err")"
[ "$(cd "$TMP/in" && md5sum a.json b.json sweep/*)" = "$sum_before" ] || fail "report a.json >> a.json changed a.json"

# ---- result formats 0 and -1 -----------------------------------------------------------
for f in format-0 format-minus-1; do
  checks=$((checks + 1))
  v=${f#format-}; v=${v/minus-/-}
  set +e; "$DBGAUGE" report "$DG_FIXTURES/refused/$f.json" >"$TMP/fmt.out" 2>"$TMP/fmt.err"; rc=$?; set -e
  [ $rc = 1 ] && grep -qF "$DG_FIXTURES/refused/$f.json: dbgauge.format $v is not a result format (this dbgauge reads formats 1 to 2, an integer)" "$TMP/fmt.err" \
    && [ ! -s "$TMP/fmt.out" ] || fail "report $f.json: exit $rc: $(cat "$TMP/fmt.err")"
  checks=$((checks + 1))
  set +e; "$DBGAUGE" compare "$RES/small.json" "$DG_FIXTURES/refused/$f.json" -o "$TMP/fmt.txt" 2>"$TMP/fmt.err"; rc=$?; set -e
  [ $rc = 1 ] && [ ! -e "$TMP/fmt.txt" ] && grep -qF "dbgauge.format $v is not a result format" "$TMP/fmt.err" \
    || fail "compare with $f.json: exit $rc: $(cat "$TMP/fmt.err")"
done
machine_ok "the end"
finish
