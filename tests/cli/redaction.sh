#!/usr/bin/env bash
# Passwords never leave dbgauge in clear. A table of URL forms, each carrying the word
# SECRET as (or in) its password, against every channel a URL goes out through:
#   - stdout and stderr of `run`, `load` and `check` that fail: a server port nobody
#     listens on (127.0.0.1 port 1) or a backend this build lacks, malformed URLs, the URL
#     given by --db and by DBGAUGE_DB;
#   - a sweep that works (sqlite) whose --vary db list also holds every server URL, with
#     hooks that carry server URLs and {db}: its stdout, stderr, every file of its directory
#     (experiment.json, run.command and run.db of the result files), what the hooks were
#     given, and `dbgauge report` of it in text, markdown, csv, json and html;
#   - the password options: --password-file and DBGAUGE_PASSWORD, whose password is in no
#     output either (and a password file others may read is refused).
# No server is needed: every server URL fails to connect, fast.
source "$(dirname "$0")/common.bash"

# url | what it shows: one row per form (redacted form checked on stderr)
urls=()
shown=()
while IFS='|' read -r url show; do
  url=$(echo "$url" | sed 's/ *$//'); show=$(echo "$show" | sed 's/^ *//')
  [ -z "$url" ] && continue
  case "$url" in \#*) continue ;; esac
  urls+=("$url"); shown+=("$show")
done <<'TABLE'
# URL                                                                | shown on stderr as
postgres://u:SECRET@127.0.0.1:1/db?connect_timeout=1                 | postgres://u:***@127.0.0.1:1/db
postgresql://127.0.0.1:1/db?connect_timeout=1&password=SECRET        | postgresql://127.0.0.1:1/db?connect_timeout=1&password=***
mysql://u:SECRET@127.0.0.1:1/db?connect_timeout=1&password=SECRET    | mysql://u:***@127.0.0.1:1/db?connect_timeout=1&password=***
firebird://u:SECRET@127.0.0.1:1//p.fdb                               | firebird://u:***@127.0.0.1:1//p.fdb
firebird:127.0.0.1/1:/p.fdb?password=SECRET                          | firebird:127.0.0.1/1:/p.fdb?password=***
firebird:/nonexistent-dir/p.fdb?user=u&password=SECRET               | firebird:/nonexistent-dir/p.fdb?user=u&password=***
postgres://127.0.0.1:1/db?connect_timeout=1&pass%77ord=SECRET        | postgres://127.0.0.1:1/db?connect_timeout=1&pass%77ord=***
postgres://u:SECRET@127.0.0.1:1/db?password=SECRET&password=SECRET   | postgres://u:***@127.0.0.1:1/db?password=***&password=***
postgres://127.0.0.1:1/db?mypassword=x&password=SECRET               | mypassword=x&password=***
mysql://u:SECRETpw%40x@127.0.0.1:1/db?connect_timeout=1              | mysql://u:***@127.0.0.1:1/db
# malformed: refused with a clear message, the password still hidden
postgres://u:SECRET/x@127.0.0.1:1/db                                 | '@' after the host
postgres://u:SECRET?x@127.0.0.1:1/db                                 | '@' after the host
postgres://u:SECRET%zz@127.0.0.1:1/db                                | bad %-escape in the password
postgres://[::1/db?password=SECRET                                   | unclosed '['
postgres://[::1]junk/db?password=SECRET                              | unexpected text after ']'
postgres://u:SECRET@h:99999/db                                       | bad port
sqlite:?password=SECRET                                              | missing path
fb:?password=SECRET                                                  | missing path
TABLE

# no_secret WHAT FILE...: SECRET appears in none of the files
no_secret() {
  local what=$1; shift
  checks=$((checks + 1))
  if grep -l SECRET "$@" >/dev/null 2>&1; then
    fail "$what: SECRET in $(grep -l SECRET "$@" | tr '\n' ' ')"
    grep -h SECRET "$@" | head -3 >&2
  fi
}

# ---- failing commands: stdout and stderr ------------------------------------------------------
for i in "${!urls[@]}"; do
  url=${urls[$i]}
  for cmd in "run -T 1s -w tpcb --results-dir res" "load -w tpcb -s 1" "check -w tpcb"; do
    set +e
    # shellcheck disable=SC2086
    "$DBGAUGE" $cmd --db "$url" >"$TMP/out" 2>"$TMP/err"
    got=$?
    set -e
    checks=$((checks + 1))
    [ "$got" = 1 ] || fail "dbgauge $cmd --db '$url': exit $got, expected 1"
    no_secret "dbgauge $cmd --db '$url'" "$TMP/out" "$TMP/err"
    checks=$((checks + 1))
    grep -qF -- "${shown[$i]}" "$TMP/err" ||
      fail "dbgauge $cmd --db '$url': stderr lacks '${shown[$i]}': $(cat "$TMP/err")"
  done
  # the same URL from the environment
  set +e
  DBGAUGE_DB=$url "$DBGAUGE" run -T 1s -w tpcb --results-dir res >"$TMP/out" 2>"$TMP/err"
  set -e
  no_secret "DBGAUGE_DB='$url' dbgauge run" "$TMP/out" "$TMP/err"
done
checks=$((checks + 1))
[ ! -e res ] || fail "a failed connection wrote a result file"

# ---- a sweep that works, with every server URL on its command line ------------------------------
servers=""
for url in "${urls[@]:0:10}"; do # the ones that parse
  servers="$servers,$url"
done
set +e
"$DBGAUGE" sweep --vary "db=sqlite:a.db$servers,sqlite:b.db" -w tpcb -s 1 -t 20 -P 0 \
  --conn cache_size=-2000 \
  --before-each "true 'postgres://v:SECRET@127.0.0.1:1/x' PGPASSWORD=SECRET; echo {db} >>hooks.log" \
  --after-each "echo {db} >>hooks.log; test {point} != p002 || false mysql://u:SECRET@h/db" \
  -o sw >"$TMP/sweep.out" 2>"$TMP/sweep.err"
got=$?
set -e
checks=$((checks + 1))
[ "$got" = 2 ] || fail "sweep: exit $got, expected 2 (the server points fail): $(cat "$TMP/sweep.err")"
checks=$((checks + 1))
n=$(ls sw/p*.json 2>/dev/null | wc -l)
[ "$n" = 2 ] || fail "sweep: $n result files, expected the 2 sqlite points"
checks=$((checks + 1))
grep -q 'after-each hook of p002 failed.*mysql://u:\*\*\*@h/db' "$TMP/sweep.err" ||
  fail "sweep: no redacted message for the failing hook: $(cat "$TMP/sweep.err")"
# {db} is the redacted URL: the hooks never saw a password
checks=$((checks + 1))
grep -qxF 'postgres://u:***@127.0.0.1:1/db?connect_timeout=1' hooks.log &&
  grep -qxF 'sqlite:a.db' hooks.log || fail "sweep: hooks were not given the redacted URLs: $(cat hooks.log)"
checks=$((checks + 1))
python3 - sw <<'PY' || fail "sweep: run.command or experiment.json lost the other arguments"
import json, os, sys
d = sys.argv[1]
exp = json.load(open(os.path.join(d, "experiment.json")))
assert "--vary db=sqlite:a.db,postgres://u:***@127.0.0.1:1/db" in exp["command"], exp["command"]
vals = exp["parameters"][0]["values"]
assert vals[0] == "sqlite:a.db" and vals[1] == "postgres://u:***@127.0.0.1:1/db?connect_timeout=1", vals
for f in os.listdir(d):
    if f.startswith("p"):
        run = json.load(open(os.path.join(d, f)))["run"]
        assert run["command"].startswith(exp["command"]), run["command"]
        assert run["db"].startswith("sqlite:"), run["db"]
PY
no_secret "sweep stdout/stderr" "$TMP/sweep.out" "$TMP/sweep.err" hooks.log
no_secret "sweep directory" -r sw
for fmt in text markdown csv json html; do
  checks=$((checks + 1))
  "$DBGAUGE" report --format "$fmt" sw >"$TMP/report.$fmt" 2>"$TMP/report.err" ||
    fail "report --format $fmt: $(cat "$TMP/report.err")"
  no_secret "report --format $fmt" "$TMP/report.$fmt" "$TMP/report.err"
done
checks=$((checks + 1))
"$DBGAUGE" report -o "$TMP/report.html" sw 2>"$TMP/report.err" || fail "report -o: $(cat "$TMP/report.err")"
no_secret "report -o FILE.html" "$TMP/report.html"

# a single run that works: the result file, its report
checks=$((checks + 1))
DBGAUGE_PASSWORD=SECRET "$DBGAUGE" run --db sqlite:a.db -w tpcb -t 10 -P 0 --json one.json \
  >"$TMP/out" 2>"$TMP/err" || fail "run on sqlite: $(cat "$TMP/err")"
no_secret "run on sqlite" "$TMP/out" "$TMP/err" one.json
for fmt in text json html; do
  "$DBGAUGE" report --format "$fmt" one.json >"$TMP/one.$fmt" 2>&1 || true
  no_secret "report --format $fmt of one run" "$TMP/one.$fmt"
done

# ---- labelled lists, schemes as labels, the process's own command line ----------------------------
# The labelled form the docs recommend (experiments/storage uses it): every URL of the list
# is redacted, not only the first. The hooks read dbgauge's own /proc/PID/cmdline (their
# parent) and their own: the passwords typed on the command line are scrubbed there.
set +e
"$DBGAUGE" sweep -w tpcb -s 1 -t 20 -P 0 -o lab \
  --vary "db=a1:sqlite:la.db,b1:postgres://u:SECRET@127.0.0.1:1/db?connect_timeout=1,c1:mysql://u:SECRET@127.0.0.1:1/db?connect_timeout=1&password=SECRET,d1:firebird:127.0.0.1/1:/p.fdb?password=SECRET" \
  --before-each 'tr "\0" " " </proc/$PPID/cmdline >>cmdline.log; echo >>cmdline.log; tr "\0" " " </proc/$$/cmdline >>cmdline.log; echo >>cmdline.log; echo {db} >>lab-hooks.log' \
  >"$TMP/lab.out" 2>"$TMP/lab.err"
got=$?
set -e
checks=$((checks + 1))
[ "$got" = 2 ] || fail "labelled sweep: exit $got, expected 2: $(cat "$TMP/lab.err")"
checks=$((checks + 1))
grep -q 'dbgauge sweep' cmdline.log && grep -qF 'b1:postgres://u:******@127.0.0.1:1/db' cmdline.log ||
  fail "labelled sweep: the hooks did not see dbgauge's scrubbed command line: $(cat cmdline.log)"
checks=$((checks + 1))
[ "$(wc -l <lab-hooks.log)" = 4 ] || fail "labelled sweep: $(wc -l <lab-hooks.log) hook runs, expected 4"
checks=$((checks + 1))
python3 - lab <<'PY' || fail "labelled sweep: experiment.json or a result file lost a label or a URL"
import json, os, sys
d = sys.argv[1]
exp = json.load(open(os.path.join(d, "experiment.json")))
want = ("db=a1:sqlite:la.db,b1:postgres://u:***@127.0.0.1:1/db?connect_timeout=1,"
        "c1:mysql://u:***@127.0.0.1:1/db?connect_timeout=1&password=***,"
        "d1:firebird:127.0.0.1/1:/p.fdb?password=***")
assert want in exp["command"], exp["command"]
run = json.load(open(os.path.join(d, [f for f in os.listdir(d) if f.startswith("p001")][0])))
assert run["run"]["command"].startswith(exp["command"]), run["run"]["command"]
PY
no_secret "labelled sweep output" "$TMP/lab.out" "$TMP/lab.err" cmdline.log lab-hooks.log
no_secret "labelled sweep directory" -r lab
checks=$((checks + 1))
! find lab sw | grep -q SECRET || fail "a file name holds the password: $(find lab sw | grep SECRET)"
checks=$((checks + 1))
ls lab | grep -q 'p001-db=a1-r1.json' || fail "the point files are not named by their labels: $(ls lab)"
for fmt in text markdown csv json html; do
  "$DBGAUGE" report --format "$fmt" lab >"$TMP/lab.$fmt" 2>&1 || true
  no_secret "report --format $fmt of the labelled sweep" "$TMP/lab.$fmt"
done

# A scheme name or alias is no label: refused before anything runs, the password hidden.
for v in "pg:postgres://u:SECRET@127.0.0.1:1/db" "postgresql:postgres://u:SECRET@127.0.0.1:1/db" \
  "fb:firebird://u:SECRET@127.0.0.1:1//p.fdb" "mariadb:mysql://u:SECRET@127.0.0.1:1/db" \
  "sqlite3:sqlite:x.db?password=SECRET"; do
  label=${v%%:*}
  set +e
  "$DBGAUGE" sweep -w tpcb -t 5 -o "refused-$label" --vary "db=ok:sqlite:a.db,$v" \
    --before-each 'echo ran >>refused.log' >"$TMP/out" 2>"$TMP/err"
  got=$?
  set -e
  checks=$((checks + 1))
  [ "$got" = 1 ] && grep -qF "'$label' in '" "$TMP/err" && grep -qF "is a database scheme, not a label" "$TMP/err" ||
    fail "--vary db=...,$label:URL: exit $got, $(cat "$TMP/err")"
  checks=$((checks + 1))
  [ ! -e refused.log ] && [ ! -e "refused-$label/experiment.json" ] || fail "--vary db=...,$label:URL ran a point"
  no_secret "--vary db=...,$label:URL" "$TMP/out" "$TMP/err"
  # the same glued URL given to --db: refused as a URL, before any connection
  for cmd in "run -T 1s -w tpcb --results-dir res" "load -w tpcb -s 1" "check -w tpcb"; do
    set +e
    # shellcheck disable=SC2086
    "$DBGAUGE" $cmd --db "$v" >"$TMP/out" 2>"$TMP/err"
    got=$?
    set -e
    checks=$((checks + 1))
    [ "$got" = 1 ] && grep -qF "error: invalid database URL '$label:" "$TMP/err" &&
      ! grep -q "connect" "$TMP/err" || fail "dbgauge $cmd --db '$v': exit $got, $(cat "$TMP/err")"
    no_secret "dbgauge $cmd --db '$v'" "$TMP/out" "$TMP/err"
  done
done

# Hook placeholders are shell words: a URL with '&' and '?' reaches the hook whole.
amp='sqlite:amp.db?cache_size=-2000&synchronous=NORMAL'
"$DBGAUGE" sweep -w tpcb -s 1 -t 5 -P 0 -o amp --vary "db=$amp" \
  --before-each 'echo {db} >amp.log; echo {dir} >>amp.log' >"$TMP/out" 2>"$TMP/err" ||
  fail "sweep with '&' in the URL: $(cat "$TMP/err")"
checks=$((checks + 1))
[ "$(cat amp.log)" = "$amp
amp" ] || fail "hook placeholders with '&': got $(cat amp.log)"

# dbgauge's own command line while it runs: the typed password is '*' in /proc/PID/cmdline
echo 'SELECT 1;' >one.sql
"$DBGAUGE" run --db sqlite:cmd.db -f one.sql -D db_password=SECRET -T 600s -P 1 >"$TMP/cmd.out" 2>"$TMP/cmd.err" &
pid=$!
for _ in $(seq 600); do
  grep -q 'tps' "$TMP/cmd.out" "$TMP/cmd.err" 2>/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
tr '\0' ' ' </proc/$pid/cmdline >"$TMP/cmdline" 2>/dev/null || true
kill -INT $pid 2>/dev/null || true
wait $pid || true
checks=$((checks + 1))
grep -qF 'db_password=******' "$TMP/cmdline" ||
  fail "dbgauge's /proc/PID/cmdline: $(cat "$TMP/cmdline")"
no_secret "dbgauge's /proc/PID/cmdline" "$TMP/cmdline"

# ---- the password options -----------------------------------------------------------------------
printf 'SECRET\n' >pw
chmod 600 pw
for cmd in "run -T 1s -w tpcb --json pw-run.json" "check -w tpcb"; do
  for url in "postgres://u@127.0.0.1:1/db?connect_timeout=1" "mysql://u@127.0.0.1:1/db?connect_timeout=1" \
    "firebird:127.0.0.1/1:/p.fdb" "sqlite:a.db"; do
    set +e
    # shellcheck disable=SC2086
    "$DBGAUGE" $cmd --db "$url" --password-file pw >"$TMP/out" 2>"$TMP/err"
    # shellcheck disable=SC2086
    DBGAUGE_PASSWORD=SECRET "$DBGAUGE" $cmd --db "$url" >"$TMP/out2" 2>"$TMP/err2"
    set -e
    no_secret "dbgauge $cmd --db $url with a password" "$TMP/out" "$TMP/err" "$TMP/out2" "$TMP/err2"
  done
done
[ -e pw-run.json ] && no_secret "run --password-file: the result file" pw-run.json
chmod 644 pw
set +e
"$DBGAUGE" check --db sqlite:a.db --password-file pw >"$TMP/out" 2>"$TMP/err"
got=$?
set -e
checks=$((checks + 1))
[ "$got" = 1 ] && grep -qF "password file 'pw' can be read by group or others" "$TMP/err" ||
  fail "a password file others may read: exit $got, $(cat "$TMP/err")"
no_secret "refused password file" "$TMP/out" "$TMP/err"
finish
