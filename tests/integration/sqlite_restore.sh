#!/usr/bin/env bash
# dbgauge restore on SQLite, with the sqlite3 shell as the restore tool (one dbgauge does
# not read: no steps): the dump fed on dbgauge's standard input; the growth is the file's
# size; usage errors; a command that cannot be started; a stop signal ends the command and
# writes an interrupted result (exit 2) within 3 s; and a sweep that runs the restore at
# each point around a server setting (--server-ctl: here a script that records its calls).
source "$(dirname "$0")/common.bash"
command -v sqlite3 >/dev/null || fail "sqlite3 not found (scripts/deps.sh build installs it)"

"$DBGAUGE" load --db "sqlite:$TMP/src.db" -w tpcb --scale 1 -q --no-results
sqlite3 "$TMP/src.db" .dump >"$TMP/dump.sql"

# the dump on standard input, as `sqlite3 t.db < dump.sql` is run by hand
"$DBGAUGE" restore --db "sqlite:$TMP/t.db" --json "$TMP/r.json" -- sqlite3 "$TMP/t.db" <"$TMP/dump.sql" \
  >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "restore with sqlite3 exited $?"; }
grep -q "a tool dbgauge does not know: no steps" "$TMP/out" || fail "no word on the unknown tool: $(cat "$TMP/out")"
[ "$(sqlite3 "$TMP/t.db" 'SELECT count(*) FROM pgbench_accounts')" = 100000 ] || fail "the restore is not whole"
size=$(stat -c %s "$TMP/t.db")
python3 - "$TMP/r.json" "$size" <<'PY' || fail "the sqlite3 restore's result file"
import json, sys
d = json.load(open(sys.argv[1]))
size = int(sys.argv[2])
assert d["kind"] == "load" and d["run"]["complete"] is True and d["run"]["workload"] == "restore", d["run"]
l = d["load"]
r = l["restore"]
assert r["tool"] == "none" and r["steps_from"] == "none" and r["exit_status"] == 0, r
assert r["size_before_bytes"] is None, r  # no database before
assert l["steps"] == [] and l["bytes"] == size and l["bytes_measure"] == "growth", (l["bytes"], size)
assert l["db_size_bytes"] == size and l["seconds"] > 0 and len(l["timeline"]) >= 1, l
objs = {o["name"]: o for o in l["objects"]}
assert objs["pgbench_accounts"]["rows"] == 100000, objs["pgbench_accounts"]
assert d["run"]["restore_command"] == "sqlite3 %s/t.db" % sys.argv[1].rsplit("/", 1)[0], d["run"]
print("ok: %.1f MB restored in %.2f s" % (l["bytes"] / 1e6, l["seconds"]))
PY
"$DBGAUGE" report --format text "$TMP/r.json" >"$TMP/rep" || fail "report of a restore"
grep "^Restore: r" "$TMP/rep" >/dev/null || fail "the report does not show a restore"

# again over the restored file: it replaced nothing, so it grows by nothing; the size says
"$DBGAUGE" restore --db "sqlite:$TMP/t.db" --json "$TMP/r2.json" -q -- sqlite3 "$TMP/t.db" "SELECT 1" >/dev/null
[ "$(json "$TMP/r2.json" "d['load']['bytes_measure'], d['load']['bytes'] == d['load']['db_size_bytes']")" = "size True" ] ||
  fail "a restore that did not grow the database: $(json "$TMP/r2.json" "d['load']['bytes_measure']")"

# usage errors and a command that cannot start: exit 1, no result file
expect_exit 1 "$DBGAUGE" restore --db "sqlite:$TMP/u.db"
grep -q "restore needs the command to run after '--'" "$TMP/err" || fail "no command: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" restore --db "sqlite:$TMP/u.db" sqlite3 x
grep -q "the restore command goes after '--'" "$TMP/err" || fail "a command without --: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" restore --db "sqlite:$TMP/u.db" --json "$TMP/u.json" -- "$TMP/no-such-tool" a
grep -q "cannot run '$TMP/no-such-tool'" "$TMP/err" || fail "a missing tool: $(cat "$TMP/err")"
[ ! -e "$TMP/u.json" ] && [ ! -e "$TMP/u.db" ] || fail "a restore that never started left files"
expect_exit 1 "$DBGAUGE" restore --db "pg:postgres://u:SECRET@h/db" -- true
! grep -q SECRET "$TMP/err" || fail "a refused URL's password was shown"

# a password on the restore command line all the same: "***" in the result file and the
# console, scrubbed from dbgauge's own /proc/PID/cmdline (read by the command, whose parent
# dbgauge is); the tool's name says which options hold one (gbak -pas[sword] X, the
# mariadb client's -pX, anyone's --password=X)
mkdir -p "$TMP/bin"
for tool in gbak mariadb; do
  printf '#!/bin/sh\ntr "\\000" " " </proc/$PPID/cmdline >"%s"\n' "$TMP/$tool.cmdline" >"$TMP/bin/$tool"
  chmod +x "$TMP/bin/$tool"
done
"$DBGAUGE" restore --db "sqlite:$TMP/pw.db" --json "$TMP/pw1.json" -- "$TMP/bin/gbak" -user SYSDBA -PASSWORD Secret1pw \
  --password=Secret2pw x.fbk >"$TMP/pw.out" 2>&1 || fail "restore with a gbak password"
"$DBGAUGE" restore --db "sqlite:$TMP/pw.db" --json "$TMP/pw2.json" -- "$TMP/bin/mariadb" -u root -pSecret3pw shop \
  >>"$TMP/pw.out" 2>&1 || fail "restore with a mariadb password"
grep -q -- "-PASSWORD \*\*\*\*\*\*\*\*\* --password=\*\*\*\*\*\*\*\*\* x.fbk" "$TMP/gbak.cmdline" ||
  fail "dbgauge's cmdline: $(cat "$TMP/gbak.cmdline")"
grep -q -- "-p\*\*\*\*\*\*\*\*\* shop" "$TMP/mariadb.cmdline" || fail "dbgauge's cmdline: $(cat "$TMP/mariadb.cmdline")"
! grep -l "Secret[123]pw" "$TMP"/pw*.json "$TMP/pw.out" "$TMP"/*.cmdline || fail "a restore command's password was shown"
[ "$(json "$TMP/pw1.json" "d['load']['restore']['command'][4], d['load']['restore']['command'][5]")" = "*** --password=***" ] ||
  fail "the recorded gbak command: $(json "$TMP/pw1.json" "d['load']['restore']['command']")"
[ "$(json "$TMP/pw2.json" "d['load']['restore']['command'][3]")" = "-p***" ] || fail "the recorded mariadb command"

# a failing command: exit 1, its message, the result marked failed
expect_exit 1 "$DBGAUGE" restore --db "sqlite:$TMP/f.db" --json "$TMP/f.json" -- sh -c 'echo "restore: no such backup" >&2; exit 3'
grep -q "the restore command failed (exit status 3): restore: no such backup" "$TMP/err" || fail "a failed command: $(cat "$TMP/err")"
[ "$(json "$TMP/f.json" "d['run']['complete'], d['load']['restore']['exit_status'], d['load']['restore']['stderr_tail']")" = \
  "False 3 ['restore: no such backup']" ] || fail "the failed restore's result file"

# a stop: SIGTERM once the command runs (its child process exists); exit 2 within 3 s
"$DBGAUGE" restore --db "sqlite:$TMP/s.db" --json "$TMP/s.json" -- sleep 60 >"$TMP/s.out" 2>"$TMP/s.err" &
pid=$!
for _ in $(seq 1 300); do pgrep -P "$pid" -x sleep >/dev/null && break; sleep 0.1; done
pgrep -P "$pid" -x sleep >/dev/null || fail "the restore command did not start"
t0=$(date +%s%N)
kill -TERM "$pid"
set +e; wait "$pid"; got=$?; set -e
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$got" = 2 ] || { cat "$TMP/s.err" >&2; fail "a stopped restore exited $got, expected 2"; }
[ "$ms" -lt 3000 ] || fail "a stopped restore took $ms ms to end"
[ "$(json "$TMP/s.json" "d['run']['complete'], d['run']['stop_reason'], d['load']['restore']['signal'] is not None")" = \
  "False interrupted (SIGTERM) True" ] || fail "the stopped restore's result file"

# a sweep of restores around a server setting
cat >"$TMP/ctl.sh" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/ctl.log"
EOF
chmod +x "$TMP/ctl.sh"
"$DBGAUGE" sweep --db "sqlite:$TMP/w.db" --vary server.governor=powersave,performance --server-ctl "$TMP/ctl.sh" \
  --before-each "rm -f $TMP/w.db" --repeat 2 -o "$TMP/sw" -- sqlite3 "$TMP/w.db" ".read $TMP/dump.sql" \
  >"$TMP/sw.out" 2>"$TMP/sw.err" || { cat "$TMP/sw.err" >&2; fail "the restore sweep exited $?"; }
[ "$(grep -c 'restored in' "$TMP/sw.out")" = 4 ] || fail "the sweep's points: $(cat "$TMP/sw.out")"
# SQLite cannot be asked a "governor": applied through the command, not verified
[ "$(json "$TMP/sw/p001-server.governor=powersave-r1.json" "d['server']['requested']['governor'], d['server']['effective']['governor'], d['server']['verified']['governor']")" = "powersave None False" ] ||
  fail "server.verified: $(json "$TMP/sw/p001-server.governor=powersave-r1.json" "d['server']")"
[ "$(cat "$TMP/ctl.log")" = "$(printf 'settings\nset governor powersave\nrestart\nset governor performance\nrestart\nunset governor\nrestart')" ] ||
  fail "--server-ctl calls: $(cat "$TMP/ctl.log")"
"$DBGAUGE" compare --metric load_seconds,load_speed "$TMP"/sw/p001-*-r1.json "$TMP"/sw/p002-*-r1.json >"$TMP/cmp" ||
  fail "compare of two restores"
grep -q "load time" "$TMP/cmp" && grep -q "load speed" "$TMP/cmp" || fail "compare shows no load figures"
"$DBGAUGE" report --format text "$TMP/sw" >"$TMP/swrep" || fail "report of the restore sweep"
grep "Load speed vs server.governor" "$TMP/swrep" >/dev/null || fail "the sweep report"
expect_exit 1 "$DBGAUGE" sweep --db "sqlite:$TMP/w.db" --vary terminals=1,2 -o "$TMP/sw2" -- true
grep -q "a sweep of a restore command" "$TMP/err" || fail "--vary terminals with a restore: $(cat "$TMP/err")"
echo "ok: restore on SQLite (stdin, growth, errors, a stop, a sweep of restores)"
