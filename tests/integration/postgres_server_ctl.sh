#!/usr/bin/env bash
# Server settings as sweep parameters on PostgreSQL: --vary server.work_mem and
# server.shared_buffers through --server-ctl (scripts/servers/postgres.sh set/restart) on
# a throwaway cluster of its own (own directory and port; the shared test server is never
# restarted). Each point's result records what was asked and what current_setting()
# showed after the restart; at the end the sweep puts the settings back as they were
# (work_mem recorded before it, shared_buffers not) and restarts the server, and says so.
source "$(dirname "$0")/common.bash"
need_server postgres >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without PostgreSQL

own_server postgres DG_PG_PORT 31000
url=$OWN_URL
ctl=$CTL_CMD
"$CTL" set work_mem 5MB
"$DBGAUGE" sweep --db "$url" -w tpcb:select-only --scale 1 -c 2 -T 1s --seed 3 \
  --vary server.shared_buffers=16MB,32MB --vary server.work_mem=6MB \
  --server-ctl "$ctl" -o "$TMP/sw" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "sweep failed"; }
cat "$TMP/out" >&2
n=0
for f in "$TMP"/sw/p*.json; do
  n=$((n + 1))
  for s in shared_buffers work_mem; do
    want=$(json "$f" "d['server']['requested']['$s']")
    got=$(json "$f" "d['server']['effective']['$s']")
    note "$(basename "$f"): $s asked $want, server shows $got"
    [ "$got" = "$want" ] || fail "$(basename "$f"): $s asked $want, the server runs $got"
    [ "$(json "$f" "d['server']['verified']['$s']")" = True ] || fail "$(basename "$f"): $s not verified"
  done
done
[ "$n" = 2 ] || fail "expected 2 points, found $n"
[ "$("$CTL" settings)" = "work_mem=5MB" ] || fail "settings after the sweep: $("$CTL" settings)"
grep -qx "server settings as before the sweep: shared_buffers (not set: the server's default), work_mem 5MB; server restarted" "$TMP/out" ||
  fail "the sweep did not say it restored the settings: $(cat "$TMP/out")"
[ "$(psql "$url" -XAtqc "SELECT current_setting('work_mem') || ' ' || current_setting('shared_buffers')")" = "5MB 128MB" ] ||
  fail "the restarted server runs $(psql "$url" -XAtqc "SELECT current_setting('work_mem') || ' ' || current_setting('shared_buffers')")"
"$CTL" reset
"$CTL" restart >/dev/null
[ -z "$("$CTL" settings)" ] || fail "reset left settings"
echo ok
