#!/usr/bin/env bash
# The server host's figures, over a real ssh (a private OpenSSH server on loopback, keys
# made here) and from the local /proc:
# - the two sources read the same kernel: each ssh reading lies between the local
#   readings taken just before and after it, and a window's figures agree within 1 %;
# - `run --server-host ssh://...` records server CPU, the server processes' own CPU, the
#   data device's I/O, memory and load in every interval and for the run, with the
#   device of PostgreSQL's data_directory; a local server gets them with no option;
# - the ssh session killed mid-run: the run completes, the intervals after say "lost",
#   the result notes it;
# - a host that cannot be reached, or whose key is refused: exit 1 before anything runs,
#   ssh's message, no result file.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/sshd.bash"
url=$(need_server postgres)
command -v /usr/sbin/sshd >/dev/null || fail "no sshd (package openssh-server)"
trap 'stop_sshd; rm -rf "$TMP"' EXIT
start_sshd
note "sshd on 127.0.0.1:$SSH_PORT"

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results > /dev/null

# --- the two sources, side by side (the server's data directory for the device) ---------
"$DBGAUGE" run --db "$url" -w tpcb -c 1 -T 1 -P 1 --json base.json > /dev/null 2>&1
data_dir=$(json base.json "d['monitor']['server_host']['data_dir']")
[ -n "$data_dir" ] || fail "no data directory in a local run's monitor.server_host"
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 6 -P 1 --no-results > /dev/null 2>&1 & # something to see
load=$!
"$DG_SRVPROBE" "$SSH_TARGET" "$data_dir" "postgres postmaster" 4 > probe.out
wait $load
python3 - probe.out <<'PY' || fail "the ssh and local readings disagree"
import math, sys
rows = [l.split() for l in open(sys.argv[1])]
reads = [r for r in rows if r[0] in ("local", "ssh")]
for i in range(0, len(reads), 3):
    before, remote, after = reads[i:i + 3]
    assert before[0] == "local" and remote[0] == "ssh" and after[0] == "local", (before, remote, after)
    for k in range(1, 5):  # uptime, busy ticks, all ticks, disk I/Os: the same counters
        b, r, a = float(before[k]), float(remote[k]), float(after[k])
        assert b <= r <= a, (k, b, r, a)
deltas = {r[1]: r for r in rows if r[0] == "delta"}
loc, ssh = deltas["local"], deltas["ssh"]
assert loc[6] == ssh[6], ("device", loc[6], ssh[6])
for k, name in ((2, "cpu_pct"), (3, "iops")):
    l, s = float(loc[k]), float(ssh[k])
    if name == "iops" and ssh[6] == "-":  # the data directory is on no block device here
        assert math.isnan(l) and math.isnan(s), (name, l, s)
        continue
    assert abs(l - s) <= max(1.0, 0.01 * max(l, s)), (name, l, s)
assert int(loc[5]) >= 3 and int(ssh[5]) >= 3, ("server processes", loc[5], ssh[5])  # found by name
print("# sources agree: cpu %s%% vs %s%%, %s vs %s IOPS, %s processes, device %s" % (loc[2], ssh[2], loc[3], ssh[3], ssh[5], ssh[6]))
PY

# --- a run over ssh -------------------------------------------------------------------------
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 3 -P 1 --server-host "$SSH_TARGET" --json ssh.json > ssh.out 2>&1 \
  || { cat ssh.out; fail "run --server-host"; }
python3 - ssh.json "$SSH_TARGET" "$data_dir" <<'PY' || fail "server host figures over ssh"
import json, math, sys
d = json.load(open(sys.argv[1]))
sh = d["monitor"]["server_host"]
assert sh["source"] == sys.argv[2] and sh["data_dir"] == sys.argv[3], sh
assert sh["status"] == "ok" and not sh["lost"] and sh["late_intervals"] == 0, sh
assert sh["root_pid"] > 0 and sh["server_cpu_pct"] > 1, sh
assert 0 < sh["cpu_pct"] <= 100.5 and 0 < sh["mem_used_pct"] < 100 and sh["load1"] >= 0, sh
if sh["device"]:  # the data directory is on a block device here: its writes are seen
    assert sh["disk_writes"] > 0 and sh["io_per_tx"] > 0, sh
ivs = d["intervals"]
assert len(ivs) >= 3, len(ivs)
for iv in ivs:
    s = iv["server_host"]
    assert s["status"] == "ok" and abs(s["seconds"] - iv["dur_s"]) < 0.2, (s, iv["dur_s"])
    assert s["server_procs"] >= 3 and s["server_cpu_pct"] > 0, s
# the server's own storage writes (WAL at each commit), read over ssh as the test's user:
# root, or the server's own user, may read the processes' io
assert sh["server_write_mb_s"] is not None and sh["server_write_mb_s"] > 0, sh
assert sh["server_read_mb_s"] is not None and sh["server_read_mb_s"] >= 0, sh
# the processes' CPU over the run is the sum of the intervals'
tot = sum(iv["server_host"]["server_cpu_pct"] * iv["server_host"]["seconds"] for iv in ivs)
assert abs(tot - sh["server_cpu_pct"] * sh["seconds"]) <= 0.02 * tot + 2, (tot, sh)
print("# over ssh: server CPU %.0f%%, server processes %.0f%% of a core, device %s, %.2f I/O per tx"
      % (sh["cpu_pct"], sh["server_cpu_pct"], sh["device"] or "-", sh["io_per_tx"] or 0))
PY
grep -q "^  server host ($SSH_TARGET): CPU [0-9]*%, server processes [0-9]*% of a core" ssh.out \
  || { cat ssh.out; fail "no server host line in the summary"; }
grep -q "client cpu .* server cpu " ssh.out || fail "live lines do not say client and server cpu"
json base.json "d['monitor']['server_host']['source']" | grep -qx local || fail "a local server's figures are not from local"

# --- the ssh session lost mid-run -----------------------------------------------------------
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 5 -P 1 --server-host "$SSH_TARGET" --json lost.json > lost.out 2> lost.err &
pid=$!
waited=0
while n=$(grep -c ' tps ' lost.out 2>/dev/null); [ "${n:-0}" -lt 1 ]; do
  kill -0 "$pid" 2>/dev/null || { cat lost.err; fail "the run ended before the ssh session was killed"; }
  [ $((waited += 1)) -lt 300 ] || fail "no interval line in 30 s"
  sleep 0.1
done
sshpid=$(pgrep -P "$pid" -x ssh) || fail "no ssh process under dbgauge"
kill -9 "$sshpid"
set +e; wait $pid; rc=$?; set -e
[ "$rc" = 0 ] || { cat lost.err; fail "a lost ssh session ended the run (exit $rc)"; }
python3 - lost.json <<'PY' || fail "the lost session is not reported"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["complete"], d["run"]
st = [iv["server_host"]["status"] for iv in d["intervals"]]
assert st[0] == "ok" and st[-1] == "lost" and "late" not in st, st
sh = d["monitor"]["server_host"]
assert sh["lost"] is True, sh
assert any("ssh session" in n for n in d["monitor"]["notes"]), d["monitor"]["notes"]
print("# lost session: intervals", st)
PY

# --- hosts that cannot be used: exit 1 before anything runs, no file ------------------------
user=$(id -un)
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -T 2 --server-host "ssh://$user@127.0.0.1:1" --json unreach.json
grep -q "server host ssh://$user@127.0.0.1:1" "$TMP/err" || { cat "$TMP/err"; fail "unreachable host: no clear error"; }
[ ! -e unreach.json ] || fail "a result file for a run that never started"
ssh-keygen -q -t ed25519 -N '' -f other_key
sed "s|IdentityFile .*|IdentityFile $TMP/other_key|" "$SSH_DIR/ssh_config" > other_config
DBGAUGE_SSH="ssh -F $TMP/other_config" \
  expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -T 2 --server-host "$SSH_TARGET" --json refused.json
grep -qi "permission denied" "$TMP/err" || { cat "$TMP/err"; fail "refused key: ssh's message missing"; }
[ ! -e refused.json ] || fail "a result file for a run that never started"
expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcb -T 2 --server-host "ssh://$user:secret@127.0.0.1"
grep -q "no password" "$TMP/err" && ! grep -q secret "$TMP/err" || fail "a password in the ssh URL"
note "server host: ok"
