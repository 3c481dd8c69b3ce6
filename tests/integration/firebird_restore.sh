#!/usr/bin/env bash
# dbgauge restore with Firebird's gbak: a backup of a database of its own (tpcb, with an
# extra index) restored by `dbgauge restore -- gbak -c -v -st tdrw ...` as SYSDBA, whose
# password is only in the URL (gbak gets it from ISC_PASSWORD). gbak is run through a
# wrapper named gbak that keeps a copy of what gbak printed, so the steps can be checked
# against gbak's own lines: every index of the restored database is a step with gbak's
# elapsed, delta, reads and writes exactly, every table a step with its rows, and the
# index total is last minus first elapsed. Then a restore that fails (no backup file):
# exit 1 with gbak's message, a result file marked failed; and SYSDBA's password in no
# output.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/firebird.bash"
fb_url
GBAK=$(command -v gbak || true)
[ -n "$GBAK" ] || fail "gbak not found (scripts/deps.sh test installs firebird3.0-utils)"
sysdba=${DG_SERVER_DIR:-/tmp/dbgauge-servers}/firebird/sysdba.password
if ! fb_own_server || [ ! -r "$sysdba" ]; then
  # creating a database takes SYSDBA, whose password only the test server's script knows
  [ "${DG_REQUIRE_SERVERS:-0}" = 1 ] && fail "the Firebird test server is not scripts/servers/firebird.sh's"
  echo "skip: not the scripts/servers/firebird.sh server (SYSDBA's password unknown)" >&2
  exit 77
fi
pw=$(sed -n 's/^ISC_PASSWORD=//p' "$sysdba")
[ ${#pw} -ge 8 ] || fail "no SYSDBA password in $sysdba"
data=$(dirname "$FB_PATH")
target=$data/dgtest_restore_$$.fdb
source=$data/dgtest_rsource_$$.fdb
trap 'rm -f "$target" "$source"; rm -rf "$TMP"' EXIT
chmod 755 "$TMP"

# the backup: a database of its own with tpcb and an extra index (small: a quick restore)
sys() { # SQL as SYSDBA on database $1
  printf '%s\n' "$2" | "$FB_ISQL" -q -bail -user SYSDBA -password "$pw" "$FB_HOST/$FB_PORT:$1" >"$TMP/isql.out" 2>&1 ||
    fail "isql on $1: $(cat "$TMP/isql.out")"
}
printf "CREATE DATABASE '%s' USER 'SYSDBA' PASSWORD '%s' DEFAULT CHARACTER SET UTF8;\nCOMMIT;\n" \
  "$FB_HOST/$FB_PORT:$source" "$pw" | "$FB_ISQL" -q -bail >"$TMP/isql.out" 2>&1 ||
  fail "cannot create $source: $(cat "$TMP/isql.out")"
"$DBGAUGE" load --db "firebird://SYSDBA:$pw@$FB_HOST:$FB_PORT/$source" -w tpcb --scale 1 -q --no-results
sys "$source" "CREATE INDEX dgtest_acc_bid ON pgbench_accounts (bid); COMMIT;"
ISC_USER=SYSDBA ISC_PASSWORD=$pw "$GBAK" -b "$FB_HOST/$FB_PORT:$source" "$TMP/b.fbk"

# gbak by another path: the same program, its output also kept in gbak.log
mkdir "$TMP/bin"
cat >"$TMP/bin/gbak" <<EOF
#!/usr/bin/env bash
set -o pipefail
"$GBAK" "\$@" 2>&1 | tee "$TMP/gbak.log"
EOF
chmod +x "$TMP/bin/gbak"

url="firebird://SYSDBA:$pw@$FB_HOST:$FB_PORT/$target"
env -u ISC_USER -u ISC_PASSWORD "$DBGAUGE" restore --db "$url" --json "$TMP/r.json" \
  -- "$TMP/bin/gbak" -c -v -st tdrw "$TMP/b.fbk" "$FB_HOST/$FB_PORT:$target" \
  >"$TMP/console.out" 2>"$TMP/console.err" || { cat "$TMP/console.err" >&2; fail "dbgauge restore exited $?"; }
grep -q "restored .* with gbak" "$TMP/console.out" || fail "no restore line: $(cat "$TMP/console.out")"

# the restored database's indexes, as its owner sees them
printf 'SET HEADING OFF;\nSELECT TRIM(RDB$INDEX_NAME) FROM RDB$INDICES WHERE COALESCE(RDB$SYSTEM_FLAG, 0) = 0;\n' |
  "$FB_ISQL" -q -bail -user SYSDBA -password "$pw" "$FB_HOST/$FB_PORT:$target" | awk 'NF { print $1 }' \
  >"$TMP/indexes"
grep -qx DGTEST_ACC_BID "$TMP/indexes" || fail "the restored database lacks the extra index"

python3 - "$TMP/r.json" "$TMP/gbak.log" "$TMP/indexes" <<'PY' || fail "the restore's result file"
import json, re, sys
d = json.load(open(sys.argv[1]))
log = open(sys.argv[2]).read().splitlines()
indexes = set(open(sys.argv[3]).read().split())
assert d["kind"] == "load" and d["run"]["complete"] is True, d["run"]
l = d["load"]
r = l["restore"]
assert r["tool"] == "gbak" and r["exit_status"] == 0 and r["steps_from"] == "the tool's own times", r
assert r["command"][1:4] == ["-c", "-v", "-st"], r["command"]
steps = {s["name"]: s for s in l["steps"]}
# gbak's own lines: TIME DELTA READS WRITES TEXT
line = re.compile(r"^gbak:\s+([0-9.]+)\s+([0-9.]+)\s+(\d+)\s+(\d+)\s+(.*)$")
acts = []
for ln in log:
    m = line.match(ln)
    if m and m.group(5).strip().startswith("activating and creating deferred index "):
        acts.append((m.group(5).strip().split()[-1], float(m.group(1)), float(m.group(2)),
                     int(m.group(3)), int(m.group(4))))
assert acts, "gbak printed no index activation"
assert {a[0] for a in acts} == indexes, (sorted(indexes - {a[0] for a in acts}), sorted({a[0] for a in acts} - indexes))
for name, t, delta, reads, writes in acts:
    s = steps[name]
    assert s["kind"] == "index", s
    assert abs(s["elapsed_s"] - t) < 1e-9 and abs(s["seconds"] - delta) < 1e-9, (s, t, delta)
    assert s["page_reads"] == reads and s["page_writes"] == writes, (s, reads, writes)
tot = r["step_totals"]["index"]
assert tot["steps"] == len(acts), tot
assert abs(tot["seconds"] - (acts[-1][1] - acts[0][1])) < 1e-6, (tot, acts[0], acts[-1])
tables = {s["name"]: s for s in l["steps"] if s["kind"] == "table"}
for t, n in {"PGBENCH_BRANCHES": 1, "PGBENCH_TELLERS": 10, "PGBENCH_ACCOUNTS": 100000}.items():
    assert tables[t]["rows"] == n, (t, tables[t])
assert l["bytes"] > 1e6 and l["db_size_bytes"] >= l["bytes"] and l["seconds"] > 0, l
assert len(l["timeline"]) >= 1 and l["objects"], "no timeline or no table statistics"
sh = l["server_host"]  # the server is on this machine: its processes found by name
assert sh["source"] == "local" and sh["status"] == "ok" and sh["server_procs"] >= 1, sh
assert sh["server_cpu_pct"] > 0, sh
objs = {(o["table"], o["kind"]) for o in l["objects"]}
assert ("PGBENCH_ACCOUNTS", "table") in objs, objs
print("ok: %d steps, %d index activations as gbak printed them, index total %.3f s"
      % (len(l["steps"]), len(acts), tot["seconds"]))
PY
for fmt in text html; do
  "$DBGAUGE" report --format "$fmt" "$TMP/r.json" >"$TMP/report.$fmt" || fail "report --format $fmt"
done
grep -q "Restore steps, largest first" "$TMP/report.text" || fail "the report has no restore steps"
grep -q "index steps: " "$TMP/report.text" || fail "the report has no index total"

# a restore that fails: no backup file
rm -f "$target"
set +e
env -u ISC_USER -u ISC_PASSWORD "$DBGAUGE" restore --db "$url" --json "$TMP/f.json" \
  -- gbak -c -v "$TMP/missing.fbk" "$FB_HOST/$FB_PORT:$target" >"$TMP/f.out" 2>"$TMP/f.err"
got=$?
set -e
[ "$got" = 1 ] || { cat "$TMP/f.err" >&2; fail "a failing restore exited $got, expected 1"; }
grep -q "cannot open backup file" "$TMP/f.err" || fail "gbak's message is not shown: $(cat "$TMP/f.err")"
[ "$(json "$TMP/f.json" "d['run']['complete'], d['load']['restore']['exit_status']")" = "False 1" ] ||
  fail "the failed restore's result file is not marked failed"

leaks=$(grep -lF -- "$pw" "$TMP"/console.* "$TMP"/f.* "$TMP"/r.json "$TMP"/report.* || true)
[ -z "$leaks" ] || fail "SYSDBA's password in: $leaks"
echo "ok: gbak restore timed, its steps as gbak printed them; a failed restore exits 1 with its message"
