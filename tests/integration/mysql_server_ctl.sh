#!/usr/bin/env bash
# Server settings as sweep parameters on MariaDB: --vary server.innodb_buffer_pool_size
# and server.innodb_flush_log_at_trx_commit through --server-ctl (scripts/servers/mysql.sh
# set/restart) on a throwaway server of its own (own directory and port; the shared test
# server is never restarted). Each point's result records what was asked and what the
# server's global variables show after the restart (sizes in bytes); at the end the sweep
# puts the settings back as they were (none recorded) and restarts the server, and says so.
source "$(dirname "$0")/common.bash"
need_server mysql >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without MariaDB

own_server mysql DG_MYSQL_PORT 31400
url=$OWN_URL
ctl=$CTL_CMD
"$DBGAUGE" sweep --db "$url" -w tpcb:select-only --scale 1 -c 2 -T 1s --seed 3 \
  --vary server.innodb_buffer_pool_size=32M,64M --vary server.innodb_flush_log_at_trx_commit=2 \
  --server-ctl "$ctl" -o "$TMP/sw" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "sweep failed"; }
cat "$TMP/out" >&2
n=0
for f in "$TMP"/sw/p*.json; do
  n=$((n + 1))
  pool=$(json "$f" "d['server']['requested']['innodb_buffer_pool_size']")
  got=$(json "$f" "d['server']['effective']['innodb_buffer_pool_size']")
  note "$(basename "$f"): buffer pool asked $pool, server shows $got"
  [ "$got" = $(( ${pool%M} * 1024 * 1024 )) ] || fail "$(basename "$f"): buffer pool $pool, the server runs $got"
  [ "$(json "$f" "d['server']['effective']['innodb_flush_log_at_trx_commit']")" = 2 ] || fail "flush_log_at_trx_commit"
done
[ "$n" = 2 ] || fail "expected 2 points, found $n"
[ -z "$("$CTL" settings)" ] || fail "settings after the sweep: $("$CTL" settings)"
grep -qx "server settings as before the sweep: innodb_buffer_pool_size (not set: the server's default), innodb_flush_log_at_trx_commit (not set: the server's default); server restarted" "$TMP/out" ||
  fail "the sweep did not say it restored the settings: $(cat "$TMP/out")"
"$CTL" reset
[ -z "$("$CTL" settings)" ] || fail "reset left settings"
echo ok
