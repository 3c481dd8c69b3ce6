#!/usr/bin/env bash
# run --drivers over a real ssh (a private OpenSSH server on loopback, keys made here; the
# two "driver hosts" are both this machine, reached as ssh://USER@127.0.0.1:PORT):
# - two parts, one merged result: its committed count is the sum of the parts' and the
#   server's own xact_commit grew by exactly that plus each part's known bookkeeping
#   (postgres_tpcb.sh's accounting, per part); the hosts' clock offsets are recorded;
#   only part 0 read the server host; the password never reached a command line;
# - a host lost mid-run: exit 2, the part that came back merged into a result marked
#   incomplete (run.missing_parts), the message names the lost part;
# - bad input: a host that cannot be reached, a host with another dbgauge, --drivers with
#   --part, one host: exit 1, nothing written.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/sshd.bash"
url=$(need_server postgres)
command -v psql >/dev/null || fail "psql not found"
command -v /usr/sbin/sshd >/dev/null || fail "no sshd (package openssh-server)"
trap 'stop_sshd; rm -rf "$TMP"' EXIT
start_sshd
export DBGAUGE_REMOTE=$DBGAUGE PGCONNECT_TIMEOUT=10

coproc PSQL { exec psql "$url" -XAtq -v ON_ERROR_STOP=1 2>&1; }
sql() {
  echo "$1;" >&"${PSQL[1]}"
  IFS= read -r -t 30 REPLY <&"${PSQL[0]}" || fail "the psql session did not answer: $1"
}
read_commits() { # as postgres_tpcb.sh: a reading costs the counter 2
  sql "SELECT 'flushed' FROM pg_stat_force_next_flush(), pg_catalog.pg_database WHERE datname = current_database()"
  sql "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
  COMMITS=$REPLY
}

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results > /dev/null
hosts="$SSH_TARGET,$SSH_TARGET"
# the password goes over the sessions' standard input: the URL on the command line has
# none, and DBGAUGE_PASSWORD gives it (as a user would keep it off the command line)
pw=$(python3 -c "import sys, urllib.parse as u; print(u.urlsplit(sys.argv[1]).password or '')" "$url")
bare=$(python3 -c "import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(p._replace(netloc=p.netloc.replace(':' + (p.password or '') + '@', '@')).geturl())" "$url")

read_commits; before=$COMMITS
# --max-clock-offset 1s: the parts' starts may differ that much too (a busy machine may
# wake a part late; the clocks here are one clock)
DBGAUGE_PASSWORD=$pw "$DBGAUGE" run --db "$bare" -w tpcb -c 4 -T 3 -P 1 --warmup 1 --drivers "$hosts" --max-clock-offset 1s \
  --json merged.json > run.out 2> run.err || { cat run.out run.err; fail "run --drivers"; }
read_commits; after=$COMMITS
grep -q '^\[0 127.0.0.1\] ' run.out && grep -q '^\[1 127.0.0.1\] ' run.out || fail "no live lines prefixed with the part and host"
python3 - merged.json $((after - before - 2)) <<'PY' || fail "merged result"
import json, sys
d = json.load(open(sys.argv[1]))
server_delta = int(sys.argv[2])
r = d["run"]
assert r["complete"] and r["merged_parts"] == 2 and r["terminals"] == 4, r
assert len(r["drivers"]) == 2 and all(abs(x["clock_offset_ms"]) < 100 and x["exit_status"] == 0 for x in r["drivers"]), r["drivers"]
assert "--drivers" in r["command"], r["command"]
parts = d["parts"]
assert [p["index"] for p in parts] == [0, 1], parts
measured = [p["totals"]["transactions"] for p in parts]
assert d["totals"]["transactions"] == sum(measured), (d["totals"]["transactions"], measured)
# what the server saw: the measured phase, the warmup and the drain, all merged
total = d["totals"]["transactions"] + d["warmup"]["transactions"] + d.get("drain", {}).get("transactions", 0)
# each part: 12 of its own + 2 per statistics reading, 7 per terminal (postgres_tpcb.sh)
book = sum(12 + 2 * p["monitor"]["stats_readings"] for p in parts) + 7 * 4
assert server_delta == total + book, ("xact_commit grew by", server_delta, "committed", total, "bookkeeping", book)
assert d["monitor"]["server_host"]["source"] == "local", d["monitor"].get("server_host")
assert "server_host" not in parts[1]["monitor"], "part 1 read the server host too"
print("# merged: %d measured (%s), %d committed in all, xact_commit +%d = committed + %d bookkeeping; clock offsets %s ms"
      % (d["totals"]["transactions"], "+".join(map(str, measured)), total, server_delta, book,
         ", ".join("%.1f" % x["clock_offset_ms"] for x in r["drivers"])))
PY
# (the test server's password is "dbgauge" too: look for it where a password would be)
! grep -rqF -e ":$pw@" -e "password=$pw" merged.json run.out run.err || fail "the password is in the output"
json merged.json "all('--db' not in p['command'] for p in d['parts'])" | grep -q True \
  || fail "a part's command line carries the database URL"

# part1_line NAME: waits (a state: the line, not a time) until the run $pid has printed an
# interval line of part 1 into NAME.out
part1_line() {
  local waited=0 n
  while n=$(grep -c '^\[1 .* tps ' "$1.out" 2>/dev/null); [ "${n:-0}" -lt 1 ]; do
    kill -0 "$pid" 2>/dev/null || { cat "$1.out" "$1.err"; fail "$1: the run ended before part 1 printed a line"; }
    [ $((waited += 1)) -lt 600 ] || fail "$1: no interval line of part 1 in 60 s"
    sleep 0.1
  done
}

# --- a host lost mid-run ------------------------------------------------------------------
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 6 -P 1 --drivers "$hosts" --max-clock-offset 1s --json lost.json > lost.out 2> lost.err &
pid=$!
part1_line lost
# part 1's session: the newer of dbgauge's two ssh children
victim=$(pgrep -n -P "$pid" -x ssh) || fail "no ssh process under dbgauge"
kill -9 "$victim"
set +e; wait $pid; rc=$?; set -e
[ "$rc" = 2 ] || { cat lost.out lost.err; fail "a lost host: exit $rc, expected 2"; }
grep -q "part 1/2 (ssh://.*) ended without a result" lost.err || { cat lost.err; fail "the lost part is not named"; }
grep -q "the run is incomplete: 1 of 2 parts merged" lost.err || { cat lost.err; fail "the merge does not say it is incomplete"; }
[ ! -e lost.part0.json ] || fail "part 0's result written apart although it merged"
python3 - lost.json <<'PY' || fail "the lost run's merged result"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["run"]
assert r["complete"] is False, r["complete"]
assert [g["index"] for g in r["missing_parts"]] == [1], r["missing_parts"]
assert "ssh://" in r["missing_parts"][0]["why"], r["missing_parts"][0]
assert r["stop_reason"].startswith("part 1/2 ended without a result"), r["stop_reason"]
assert r["merged_parts"] == 1 and r["terminals"] == 1, (r["merged_parts"], r["terminals"])
assert [p["index"] for p in d["parts"]] == [0], d["parts"]
assert d["totals"]["transactions"] == d["parts"][0]["totals"]["transactions"] > 0
assert r["drivers"][0]["exit_status"] == 0, r["drivers"]
print("# lost host: part 0's %d transactions merged, part 1 missing (%s)"
      % (d["totals"]["transactions"], r["missing_parts"][0]["why"]))
PY

# --- Ctrl-C at the launcher: every part stops there, their partial results merged ---------
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 60 -P 1 --drivers "$hosts" --max-clock-offset 1s --json stopped.json > stop.out 2> stop.err &
pid=$!
part1_line stop
t0=$(date +%s)
kill -INT "$pid"
set +e; wait $pid; rc=$?; set -e
took=$(( $(date +%s) - t0 ))
[ "$rc" = 2 ] || { cat stop.out stop.err; fail "a stopped --drivers run: exit $rc, expected 2"; }
[ "$took" -le 10 ] || fail "the parts took $took s to stop"
python3 - stopped.json <<'PY' || fail "the stopped run's merged result"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["run"]
assert r["complete"] is False and "SIGINT" in r["stop_reason"], r
assert r["merged_parts"] == 2 and d["totals"]["transactions"] > 0, r
print("# stopped: %s, %d transactions merged" % (r["stop_reason"], d["totals"]["transactions"]))
PY
! pgrep -f -- "--part 1/2 --start-at" > /dev/null || fail "a part still runs after the stop"

# --- bad input ------------------------------------------------------------------------------
user=$(id -un)
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 2 --drivers "ssh://$user@127.0.0.1:1,$SSH_TARGET" --json no.json
grep -q "driver ssh://$user@127.0.0.1:1" "$TMP/err" || { cat "$TMP/err"; fail "unreachable driver: no clear error"; }
printf '#!/bin/sh\necho "dbgauge 0.0.1"\n' > old-dbgauge && chmod +x old-dbgauge
DBGAUGE_REMOTE=$TMP/old-dbgauge expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 2 --drivers "$hosts" --json no.json
grep -q "runs 'dbgauge 0.0.1'" "$TMP/err" || { cat "$TMP/err"; fail "another version: no clear error"; }
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 2 --drivers "$hosts" --part 0/2 --seed 1
grep -q "leave out --part" "$TMP/err" || fail "--drivers with --part"
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 2 --drivers "$SSH_TARGET"
grep -q "two hosts or more" "$TMP/err" || fail "one driver"
[ ! -e no.json ] || fail "a result file for a run that never started"
note "drivers: ok"
