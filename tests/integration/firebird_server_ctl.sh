#!/usr/bin/env bash
# Server settings as sweep parameters on Firebird: a sweep over
# server.ServerMode=Super,SuperClassic,Classic through --server-ctl (the test server
# script's set/restart contract) restarts the server in each mode, and each point's
# result records the mode that actually served it (told by the backend from the server's
# processes, not copied from the request), and DefaultDbCachePages read back as the
# attachment's page buffers. The sweep runs on its own throwaway server (own directory
# and port), so the shared test server is never restarted. No file or output holds the
# URL's password, and a bad server parameter is refused before anything runs. This server
# allows an unencrypted wire (WireCrypt = Enabled): wire_crypt=disabled gets one, and the
# result file says so.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/firebird.bash"
fb_url >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) where Firebird is not set up

# a port of its own per run: a Classic server's closed connections hold its port for up
# to a minute (TIME_WAIT), which a switch into or out of Classic must wait out
own_server firebird DG_FIREBIRD_PORT 30540 WireCrypt=Enabled
url=$OWN_URL
ctl=$CTL_CMD

wire() { json "$1" "d['server']['settings']['wire_encrypted']"; }
sep='?'; case $url in *'?'*) sep='&' ;; esac
echo 'SELECT 1 FROM rdb$database;' > "$TMP/one.sql"
"$DBGAUGE" run --db "$url${sep}wire_crypt=disabled" -f "$TMP/one.sql" -t 5 -q --json "$TMP/plain.json" \
  > /dev/null 2> "$TMP/err" || fail "wire_crypt=disabled: $(cat "$TMP/err")"
"$DBGAUGE" run --db "$url" -f "$TMP/one.sql" -t 5 -q --json "$TMP/crypt.json" > /dev/null 2> "$TMP/err" ||
  fail "default wire: $(cat "$TMP/err")"
[ "$(wire "$TMP/plain.json") $(wire "$TMP/crypt.json")" = "off on" ] ||
  fail "wire_encrypted with wire_crypt=disabled, then by default: $(wire "$TMP/plain.json") $(wire "$TMP/crypt.json")"
# the URL's password is "dbgauge": give the sweep one that can be searched for
pass=dbgauge

"$DBGAUGE" sweep --db "$url" -w tpcb --scale 1 -c 2 -T 1s --seed 3 \
  --vary server.ServerMode=Super,SuperClassic,Classic --vary server.DefaultDbCachePages=700 \
  --vary server.LockHashSlots=1009 \
  --server-ctl "$ctl" -o "$TMP/sw" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "sweep failed"; }
cat "$TMP/out" >&2
n=0
for f in "$TMP"/sw/p*.json; do
  n=$((n + 1))
  want=$(json "$f" "d['server']['requested']['ServerMode']")
  got=$(json "$f" "d['server']['effective']['ServerMode']")
  mode=$(json "$f" "d['server']['settings']['server_mode']")
  pages=$(json "$f" "d['server']['requested']['DefaultDbCachePages']")
  buffers=$(json "$f" "d['server']['effective']['DefaultDbCachePages']")
  note "$(basename "$f"): asked $want/$pages, ran $got ($mode)/$buffers"
  [ "$got" = "$want" ] || fail "$(basename "$f"): asked for $want, the server ran $got"
  [ "$mode" = "$want" ] || fail "$(basename "$f"): server.settings.server_mode $mode, expected $want"
  [ "$buffers" = "$pages" ] || fail "$(basename "$f"): DefaultDbCachePages $pages, page buffers $buffers"
  [ "$(json "$f" "d['run']['complete']")" = True ] || fail "$(basename "$f") incomplete"
  # LockHashSlots is read back from the lock table (fb_lock_print: a database on this machine)
  [ "$(json "$f" "d['server']['effective']['LockHashSlots'] == '1009' and d['server']['verified']['LockHashSlots']")" = True ] ||
    fail "$(basename "$f"): LockHashSlots read back: $(json "$f" "d['server'].get('effective'), d['monitor'].get('lock_table')")"
  # a cache per attachment (SuperClassic, Classic): each terminal's own hit ratio, and the
  # terminals' caches together; one shared cache (Super): neither
  if [ "$want" = Super ]; then
    [ "$(json "$f" "d['server']['cache_scope'] == 'shared' and 'cache_total_bytes' not in d['server'] and 'cache_per_connection' not in d['monitor']")" = True ] ||
      fail "$(basename "$f"): Super's shared cache: $(json "$f" "d['server'], d['monitor'].get('cache_per_connection')")"
  else
    [ "$(json "$f" "(lambda c, s: s['cache_scope'] == 'connection' and s['cache_total_bytes'] == 2 * s['cache_bytes'] == 2 * int(s['settings']['page_buffers']) * int(s['settings']['page_size']) and c['connections'] == 2 and 0 <= c['hit_pct_min'] <= c['hit_pct_median'] <= c['hit_pct_max'] <= 100)(d['monitor']['cache_per_connection'], d['server'])")" = True ] ||
      fail "$(basename "$f"): $want's cache per attachment: $(json "$f" "d['server'], d['monitor'].get('cache_per_connection')")"
  fi
  # the lock table is read in every server mode (Classic's processes share it too)
  [ "$(json "$f" "d['monitor']['lock_table']['available'] and d['monitor']['lock_table']['measured']['acquires'] > 0")" = True ] ||
    fail "$(basename "$f"): lock table in $want: $(json "$f" "d['monitor'].get('lock_table')")"
  [ "$(json "$f" "d['sweep']['params']['server.ServerMode']")" = "$want" ] || fail "sweep.params"
done
[ "$n" = 3 ] || fail "expected 3 points, found $n"
# the sweep's report draws the lock manager's mutex waits against the server mode
"$DBGAUGE" report "$TMP/sw" -o "$TMP/sw.html" > /dev/null || fail "report of the sweep"
grep -q "Lock manager mutex waits vs server.ServerMode" "$TMP/sw.html" || fail "no lock table chart in the sweep's report"
# the varied settings are put back as they were before the sweep (not recorded), the one
# recorded before it and not varied stays, the server is restarted, and the sweep says so
[ "$("$CTL" settings)" = "WireCrypt=Enabled" ] || fail "settings after the sweep: $("$CTL" settings)"
grep -qx "server settings as before the sweep: ServerMode (not set: the server's default), DefaultDbCachePages (not set: the server's default), LockHashSlots (not set: the server's default); server restarted" "$TMP/out" ||
  fail "the sweep did not say it restored the settings: $(cat "$TMP/out")"
if grep -rq "$pass@" "$TMP/sw" "$TMP/out" "$TMP/err"; then fail "a password reached the sweep's files"; fi

# refused before anything runs: no --server-ctl, a bad name, a value with a space
expect_exit 1 "$DBGAUGE" sweep --db "$url" -w tpcb -T 1s --vary server.ServerMode=Super -o "$TMP/x1"
grep -q 'needs --server-ctl' "$TMP/err" || fail "no --server-ctl: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" sweep --db "$url" -w tpcb -T 1s --vary 'server.1x=1' --server-ctl true -o "$TMP/x2"
grep -q "setting's name" "$TMP/err" || fail "bad name: $(cat "$TMP/err")"
expect_exit 1 "$DBGAUGE" sweep --db "$url" -w tpcb -T 1s --vary 'server.ServerMode=a b' --server-ctl true -o "$TMP/x3"
grep -q "has ' '" "$TMP/err" || fail "bad value: $(cat "$TMP/err")"
[ ! -e "$TMP/x1" ] && [ ! -e "$TMP/x2" ] && [ ! -e "$TMP/x3" ] || fail "a refused sweep left files"
# a failing control command fails the point, not the sweep's bookkeeping
expect_exit 2 "$DBGAUGE" sweep --db "$url" -w tpcb -T 1s --vary server.ServerMode=Super --server-ctl false -o "$TMP/x4"
grep -q -- '--server-ctl failed' "$TMP/err" || fail "a failing control command: $(cat "$TMP/err")"
[ "$(json "$TMP/x4/experiment.json" "d['points'][0]['status']")" = failed ] || fail "point not failed"
echo ok
