#!/usr/bin/env bash
# The storage recipe exactly as docs/backend-firebird.md documents it: two Firebird
# databases created by SYSDBA, given to experiments/storage as DB1 and DB2 with
# SYSDBA's password in their URLs and a label each (the labelled --vary db=L1:URL1,L2:URL2
# form). That password must appear in no output: the recipe's console (sweep, compare,
# report), experiment.json, every result file and every report format. SYSDBA's password
# is the random one of a throwaway server started for this test, so it can be searched
# for. The
# workload is tpcb rather than the documented tpcc only to keep the loads short: the URLs
# take the same path through the recipe either way.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/firebird.bash"
fb_url >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) where Firebird is not set up
# a server of its own, whose SYSDBA password is known (sysdba.password) and never shared
own_server firebird DG_FIREBIRD_PORT 28200 # 28200-28599: no other test's range
DG_TEST_FIREBIRD_URL=$OWN_URL fb_url
data=$(dirname "$FB_PATH")
pw=$(sed -n 's/^ISC_PASSWORD=//p' "$DG_SERVER_DIR/firebird/sysdba.password")
[ ${#pw} -ge 8 ] || fail "no SYSDBA password in the server's sysdba.password"

on=$data/fw_on.fdb
off=$data/fw_off.fdb
for f in "$on" "$off"; do
  printf "CREATE DATABASE '%s' USER 'SYSDBA' PASSWORD '%s' DEFAULT CHARACTER SET UTF8;\nCOMMIT;\n" \
    "$FB_HOST/$FB_PORT:$f" "$pw" | "$FB_ISQL" -q -bail >"$TMP/isql.out" 2>&1 ||
    fail "cannot create $f: $(cat "$TMP/isql.out")"
done

set +e
DBGAUGE=$DBGAUGE OUT=$TMP/storage \
  DB1="firebird://SYSDBA:$pw@$FB_HOST:$FB_PORT/$on" LABEL1=forced_writes \
  DB2="firebird://SYSDBA:$pw@$FB_HOST:$FB_PORT/$off" LABEL2=async_writes \
  WORKLOAD=tpcb SCALE=1 DURATION=1s REPEAT=2 "$DG_SRC/experiments/storage" >"$TMP/console.out" 2>"$TMP/console.err"
got=$?
set -e
[ "$got" = 0 ] || { tail -20 "$TMP/console.err" >&2; fail "experiments/storage exited $got"; }
n=$(ls "$TMP"/storage/p00*.json | wc -l)
[ "$n" = 4 ] || fail "experiments/storage wrote $n result files, expected 2 points x 2 repeats"
grep -q "^A: 2 runs. B: 2 runs.$" "$TMP/console.out" ||
  fail "compare did not set each database's repeats side by side: $(grep -n 'runs' "$TMP/console.out")"
grep -q forced_writes "$TMP/storage/experiment.json" && grep -q async_writes "$TMP/storage/experiment.json" ||
  fail "the labels are not in experiment.json"
for fmt in text markdown csv json html; do
  "$DBGAUGE" report --format "$fmt" "$TMP/storage" >"$TMP/report.$fmt" 2>&1 || fail "report --format $fmt"
done
leaks=$(grep -rlF -- "$pw" "$TMP/console.out" "$TMP/console.err" "$TMP/storage" "$TMP"/report.* || true)
[ -z "$leaks" ] || fail "SYSDBA's password in: $leaks"
grep -qF "firebird://SYSDBA:***@" "$TMP/storage/experiment.json" ||
  fail "experiment.json does not show the URLs redacted"
echo "ok: experiments/storage on Firebird, $n points, no password in $(find "$TMP/storage" -type f | wc -l) files, the console or 5 report formats"
