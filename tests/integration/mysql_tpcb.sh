#!/usr/bin/env bash
# tpcb on MariaDB/MySQL: load scale 1 (LOAD DATA LOCAL when the server allows it), run 2
# terminals x 5 s, and check every count dbgauge reports against the server: history rows
# = committed transactions (exact), the balance sums agree, and the server's Com_commit
# (COMMIT statements; what monitor.server_commits reports on this backend) grew by exactly
# the committed transactions: dbgauge's bookkeeping (table checks, statistics, server
# facts) runs in autocommit mode and issues no COMMIT.
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
source "$(dirname "$0")/mysql.bash"   # q QUERY through the mariadb client

# the multi-row INSERT bulk path first (what servers without local_infile get), then the
# LOAD DATA LOCAL path the test server allows: the same rows either way
sep=$(case "$url" in *\?*) echo '&' ;; *) echo '?' ;; esac)
"$DBGAUGE" load --db "$url${sep}local_infile=0" --workload tpcb --scale 1 --drop --seed 7 -q > /dev/null
[ "$(q 'SELECT count(*), sum(aid), sum(bid), count(filler) FROM pgbench_accounts')" = "$(printf '100000\t5000050000\t100000\t100000')" ] || fail "accounts (INSERT path)"
"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop --seed 7 -q --json "$TMP/load.json" > /dev/null
check_tpcb_load "$TMP/load.json" 1 yes no no
[ "$(q 'SELECT count(*), sum(aid), sum(bid), count(filler) FROM pgbench_accounts')" = "$(printf '100000\t5000050000\t100000\t100000')" ] || fail "accounts (LOAD DATA path)"
[ "$(q 'SELECT count(*) FROM pgbench_accounts')" = 100000 ] || fail "accounts"
[ "$(q 'SELECT count(*) FROM pgbench_tellers')" = 10 ] || fail "tellers"
[ "$(q 'SELECT count(*) FROM pgbench_history')" = 0 ] || fail "history not empty after load"
q "SHOW INDEX FROM pgbench_accounts WHERE Key_name = 'PRIMARY'" | grep -q aid || fail "primary key"
expect_exit 1 "$DBGAUGE" load --db "$url" --workload tpcb
grep -q -- "--drop" "$TMP/err" || fail "load without --drop should mention --drop"

"$DBGAUGE" run --db "$url" --workload tpcb --terminals 2 --duration 5s --warmup 1s \
  --report-interval 1s --json "$TMP/r.json" --seed 11 > "$TMP/run.out"
committed=$(json "$TMP/r.json" "d['totals']['transactions'] + d['warmup']['transactions'] + d['drain']['transactions']")
history=$(q 'SELECT count(*) FROM pgbench_history')
note "committed=$committed history=$history"
[ "$committed" = "$history" ] || fail "history rows $history != committed transactions $committed"
[ "$committed" -gt 100 ] || fail "too few transactions: $committed"
json "$TMP/r.json" "d['totals']['errors'] == 0 and d['run']['complete'] and d['run']['backend'] == 'mysql'" | grep -q True || fail "run section"
"$DBGAUGE" check --db "$url" --workload tpcb > "$TMP/check.out" || { cat "$TMP/check.out"; fail "balances disagree"; }
# monitor.server_commits spans the run from the first statistics reading to the last
monitor=$(json "$TMP/r.json" "d['monitor']['server_commits']")
note "Com_commit grew by $monitor"
[ "$monitor" = "$committed" ] || fail "server Com_commit delta $monitor != committed $committed"

# a server on this machine: its host's figures from the local /proc, its own process the
# one its pid file names (@@pid_file), not every mariadbd on the host
json "$TMP/r.json" "d['monitor']['server_host']['source'] == 'local' and d['monitor']['server_host']['status'] == 'ok' and d['monitor']['server_host']['server_cpu_pct'] > 0 and all(i['server_host']['server_procs'] >= 1 for i in d['intervals'])" | grep -q True \
  || fail "server host figures: $(json "$TMP/r.json" "d['monitor'].get('server_host')")"
root=$(json "$TMP/r.json" "d['monitor']['server_host']['root_pid']")
[ "${root:-0}" -gt 0 ] && [ "$root" = "$(q 'SELECT @@pid_file' | xargs cat)" ] \
  || fail "the server process is not the one its pid file names: root_pid $root"
# the same over ssh (to this host here): the pid file the server names is read there, so
# the server's processes are this instance's, not every mariadbd on that host by name
source "$(dirname "$0")/sshd.bash"
command -v /usr/sbin/sshd >/dev/null || fail "no sshd (package openssh-server)"
trap 'stop_sshd; rm -rf "$TMP"' EXIT
start_sshd
"$DBGAUGE" run --db "$url" -w tpcb -c 1 -T 2 -P 1 -q --server-host "$SSH_TARGET" --json "$TMP/ssh.json" > /dev/null 2>&1 \
  || fail "a run with --server-host over ssh"
sroot=$(json "$TMP/ssh.json" "d['monitor']['server_host']['root_pid']")
[ "$sroot" = "$root" ] || fail "over ssh, the server process is $sroot, not $root (its pid file's)"
json "$TMP/ssh.json" "d['monitor']['server_host']['server_cpu_pct'] > 0 and d['monitor']['server_host']['server_write_mb_s'] > 0" | grep -q True \
  || fail "server processes' figures over ssh: $(json "$TMP/ssh.json" "d['monitor']['server_host']")"
stop_sshd
json "$TMP/r.json" "d['server']['version'].startswith(('MariaDB', 'MySQL')) and all(k in d['server']['settings'] for k in ('innodb_buffer_pool_size', 'innodb_flush_log_at_trx_commit', 'sync_binlog', 'innodb_log_file_size', 'max_connections', 'local_infile', 'bulk_path')) and any(k in d['server']['settings'] for k in ('tx_isolation', 'transaction_isolation'))" | grep -q True || fail "server settings"
json "$TMP/r.json" "d['monitor']['cache_hit_pct'] > 50 and d['monitor']['db_size_after_bytes'] > 5e6" | grep -q True || fail "cache hits / size"

# select-only and simple-update on the same database
"$DBGAUGE" run --db "$url" --workload tpcb:select-only -c 2 -T 2s -q --json "$TMP/s.json" > /dev/null
json "$TMP/s.json" "d['totals']['transactions'] > 100 and d['totals']['errors'] == 0" | grep -q True || fail "select-only"
before=$(q 'SELECT count(*) FROM pgbench_history')
"$DBGAUGE" run --db "$url" --workload tpcb:simple-update -t 500 -c 2 -q --json "$TMP/u.json" > /dev/null
after=$(q 'SELECT count(*) FROM pgbench_history')
[ $((after - before)) = 1000 ] || fail "simple-update: $((after - before)) history rows for 2x500 transactions"

# the bulk path reported is the one this server gets
path=$(json "$TMP/r.json" "d['server']['settings']['bulk_path']")
infile=$(q 'SELECT @@local_infile')
case "$infile:$path" in 1:LOAD*|0:multi*) ;; *) fail "bulk_path '$path' but local_infile=$infile" ;; esac
