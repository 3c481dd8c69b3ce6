#!/usr/bin/env bash
# galera.sh - a throwaway 3-node MariaDB Galera cluster on loopback, for dbgauge's cluster
# tests and the cluster recipes.
#
#   scripts/servers/galera.sh start|stop|status|env|clean
#   scripts/servers/galera.sh start-node I | stop-node I | kill-node I     (I = 0, 1, 2)
#
# Each node lives in ${DG_SERVER_DIR:-/tmp/dbgauge-servers}/galera/nodeI (data/, my.cnf,
# error.log, pid file, socket) and listens on 127.0.0.1 only: SQL on DG_GALERA_PORT+I
# (default 24306, 24307, 24308), group communication on +100, IST on +200, SST on +300.
# Node 0 starts the cluster (--wsrep-new-cluster), the others join it by SST (rsync) and
# `start` returns when all three are Synced (about a minute on a 2-core machine). The user
# dbgauge (password dbgauge) has all privileges on database dbgauge, replicated to every
# node. No systemd: each mariadbd is detached with setsid and runs as user mysql when this
# script runs as root.
#
#   start        idempotent: running nodes are left alone, missing ones are started
#   stop         SIGTERM to the joiners, then node 0 (a clean shutdown), and waits
#   status       exits 0 when all three nodes are Synced, 3 otherwise
#   env          DG_TEST_GALERA_URL (one URL naming the three nodes) and
#                DG_TEST_GALERA_NODE0_URL ... NODE2_URL (one node each)
#   clean        stops the cluster and deletes its directory
#   stop-node I  stops node I cleanly;  kill-node I  kills it (SIGKILL, as a crash)
#   start-node I starts node I again (it rejoins by IST, or SST) and waits until Synced
#
# Settings beyond MariaDB's defaults, and why: what Galera requires (binlog_format=ROW,
# innodb_autoinc_lock_mode=2, the wsrep provider and addresses), a small buffer pool and
# redo log (96M, 16M: three nodes on one small machine, and a quick SST), loopback-only
# ports and sockets of its own, no name resolution, and a dead node suspected after 2 s
# and evicted after 3 s (evs.suspect_timeout, evs.inactive_timeout; Galera's defaults are
# 5 s and 15 s), so a failover test sees the cluster carry on within a short run.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd / # the server user may not be allowed into the caller's directory

PORT=${DG_GALERA_PORT:-24306}
BASE=${DG_SERVER_DIR:-/tmp/dbgauge-servers}
TOP=$BASE/galera
PROVIDER=${DG_GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}
N=3
LOGSIZE=(0 0 0)

die() { echo "galera.sh: $*" >&2; exit 1; }

source "$HERE/mariadb.bash"
[ -f "$PROVIDER" ] || die "no Galera provider at $PROVIDER (scripts/deps.sh test installs galera-4)"
command -v rsync >/dev/null 2>&1 || die "rsync (the state transfer) is missing: scripts/deps.sh test installs it"

dir() { echo "$TOP/node$1"; }
sock() { echo "$(dir "$1")/mysqld.sock"; }
pidf() { echo "$(dir "$1")/mysqld.pid"; }
sql_port() { echo $((PORT + $1)); }
gcomm_port() { echo $((PORT + 100 + $1)); }
url_of() { echo "mysql://dbgauge:dbgauge@127.0.0.1:$(sql_port "$1")/dbgauge"; }

check_node() { case "${1:-}" in 0|1|2) ;; *) die "expected a node number 0, 1 or 2, not '${1:-}'" ;; esac; }

node_pid() {
  local pid f
  f=$(pidf "$1")
  [ -f "$f" ] || return 1
  pid=$(cat "$f" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

sql() { local i=$1; shift; "$CLIENT" --no-defaults -S "$(sock "$i")" -u root -N -B "$@"; }

# status_of I NAME: a wsrep status value of node I ("" when it does not answer)
status_of() { sql "$1" -e "SHOW STATUS LIKE '$2'" 2>/dev/null | cut -f2 || true; }

synced() { [ "$(status_of "$1" wsrep_local_state_comment)" = Synced ]; }

write_cnf() {
  local i=$1 d user_line="" addr=""
  d=$(dir "$i")
  [ "$(id -u)" -eq 0 ] && user_line="user = mysql"
  for k in $(seq 0 $((N - 1))); do addr+="${addr:+,}127.0.0.1:$(gcomm_port "$k")"; done
  cat >"$d/my.cnf" <<EOF
# dbgauge test cluster node $i (scripts/servers/galera.sh)
[mariadbd]
$user_line
datadir = $d/data
socket = $d/mysqld.sock
pid-file = $d/mysqld.pid
log-error = $d/error.log
port = $(sql_port "$i")
bind-address = 127.0.0.1
skip-name-resolve
local-infile = 1
innodb-buffer-pool-size = 96M
innodb-log-file-size = 16M
innodb-buffer-pool-dump-at-shutdown = 0
innodb-buffer-pool-load-at-startup = 0
binlog-format = ROW
default-storage-engine = InnoDB
innodb-autoinc-lock-mode = 2
wsrep-on = ON
wsrep-provider = $PROVIDER
wsrep-cluster-name = dbgauge
wsrep-cluster-address = gcomm://$addr
wsrep-node-address = 127.0.0.1:$(gcomm_port "$i")
wsrep-node-name = node$i
wsrep-provider-options = "gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$i");ist.recv_addr=127.0.0.1:$((PORT + 200 + i));gcache.size=64M;evs.keepalive_period=PT0.5S;evs.inactive_check_period=PT0.5S;evs.suspect_timeout=PT2S;evs.inactive_timeout=PT3S;evs.install_timeout=PT3S"
wsrep-sst-method = rsync
wsrep-sst-receive-address = 127.0.0.1:$((PORT + 300 + i))
EOF
}

# The three data directories: node 0's made by mariadb-install-db, the others copies of it
# (they are replaced by the state transfer when they join, but mariadbd wants one to start).
init_all() {
  rm -rf "$TOP"
  mkdir -p "$BASE" "$TOP"
  chmod 755 "$BASE" "$TOP" 2>/dev/null || true
  local i auth=normal
  [ "$(id -u)" -eq 0 ] && auth=socket
  for i in 0 1 2; do mkdir -p "$(dir "$i")"; write_cnf "$i"; done
  "$INSTALL_DB" --defaults-file="$(dir 0)/my.cnf" --auth-root-authentication-method=$auth \
    --skip-test-db --wsrep-on=OFF >"$(dir 0)/install-db.log" 2>&1 \
    || { cat "$(dir 0)/install-db.log" >&2; die "mariadb-install-db failed"; }
  for i in 1 2; do cp -a "$(dir 0)/data" "$(dir "$i")/data"; done
  if [ "$(id -u)" -eq 0 ]; then
    for i in 0 1 2; do chown -R mysql:mysql "$(dir "$i")"; done
  fi
}

# launch I [ARGS]: starts node I's mariadbd in the background
launch() {
  local i=$1; shift
  local d
  d=$(dir "$i")
  write_cnf "$i"
  [ "$(id -u)" -eq 0 ] && chown mysql:mysql "$d"
  rm -f "$(pidf "$i")"
  LOGSIZE[$i]=$(stat -c %s "$d/error.log" 2>/dev/null || echo 0)
  setsid -f "$SERVER" --defaults-file="$d/my.cnf" "$@" </dev/null >>"$d/error.log" 2>&1
}

# wait_synced I SECONDS [LOGSIZE]: until node I is Synced, or its log since LOGSIZE says
# it aborted (the pid file appears only after a joiner's state transfer)
wait_synced() {
  local i=$1 s=$2 from=${3:-0} k
  for k in $(seq 1 $((s * 10))); do
    synced "$i" && return 0
    if tail -c +$((from + 1)) "$(dir "$i")/error.log" 2>/dev/null | grep '\[ERROR\] Aborting' >/dev/null; then
      tail -n 30 "$(dir "$i")/error.log" >&2
      die "node $i stopped while starting (log: $(dir "$i")/error.log)"
    fi
    sleep 0.1
  done
  tail -n 30 "$(dir "$i")/error.log" >&2
  die "node $i was not Synced within $s s (log: $(dir "$i")/error.log)"
}

provision() { provision_sql | sql 0; }

start_all() {
  local i any=0
  for i in 0 1 2; do node_pid "$i" >/dev/null && any=1; done
  [ -d "$(dir 0)/data/mysql" ] || { [ "$any" = 0 ] || die "nodes run without data: clean first"; init_all; }
  if [ "$any" = 0 ]; then
    # the whole cluster is down: node 0 starts it again, whatever its last state
    local g
    g="$(dir 0)/data/grastate.dat"
    [ -f "$g" ] && sed -i 's/^safe_to_bootstrap:.*/safe_to_bootstrap: 1/' "$g"
    launch 0 --wsrep-new-cluster
    wait_synced 0 60 "${LOGSIZE[0]}"
    [ -f "$TOP/provisioned" ] || { provision; touch "$TOP/provisioned"; }
  elif ! node_pid 0 >/dev/null; then
    launch 0
    wait_synced 0 120 "${LOGSIZE[0]}"
  fi
  for i in 1 2; do node_pid "$i" >/dev/null || launch "$i"; done
  for i in 1 2; do wait_synced "$i" 180 "${LOGSIZE[$i]:-0}"; done
}

stop_node() {
  local i=$1 sig=${2:-TERM} pid k
  pid=$(node_pid "$i") || return 0
  kill -"$sig" "$pid"
  for k in $(seq 1 1200); do # up to 60 s
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.05
  done
  die "node $i (pid $pid) did not stop within 60 s"
}

case "${1:-}" in
  start) start_all ;;
  stop) stop_node 2; stop_node 1; stop_node 0 ;;
  status)
    ok=1
    for i in 0 1 2; do
      if node_pid "$i" >/dev/null && synced "$i"; then
        echo "galera node $i: Synced on 127.0.0.1:$(sql_port "$i")"
      else
        echo "galera node $i: not running or not Synced"; ok=0
      fi
    done
    [ "$ok" = 1 ] && exit 0; exit 3 ;;
  env)
    echo "export DG_TEST_GALERA_URL=mysql://dbgauge:dbgauge@127.0.0.1:$(sql_port 0),127.0.0.1:$(sql_port 1),127.0.0.1:$(sql_port 2)/dbgauge"
    for i in 0 1 2; do echo "export DG_TEST_GALERA_NODE${i}_URL=$(url_of "$i")"; done ;;
  clean) for i in 2 1 0; do stop_node "$i"; done; rm -rf "$TOP" ;;
  start-node)
    check_node "${2:-}"
    node_pid "$2" >/dev/null || launch "$2"
    wait_synced "$2" 180 "${LOGSIZE[$2]:-0}" ;;
  stop-node) check_node "${2:-}"; stop_node "$2" ;;
  kill-node) check_node "${2:-}"; stop_node "$2" KILL ;;
  *)
    echo "usage: $0 start|stop|status|env|clean" >&2
    echo "       $0 start-node I | stop-node I | kill-node I   (I = 0, 1, 2)" >&2
    exit 1 ;;
esac
