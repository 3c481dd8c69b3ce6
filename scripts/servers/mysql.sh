#!/usr/bin/env bash
# mysql.sh - a throwaway MariaDB (or MySQL) server for dbgauge's tests and benchmarks.
#
#   scripts/servers/mysql.sh start|stop|status|env|restart|clean
#
# The server lives in ${DG_SERVER_DIR:-/tmp/dbgauge-servers}/mysql (data/, my.cnf,
# error.log, the pid file and the unix socket mysqld.sock), listens on 127.0.0.1 port
# ${DG_MYSQL_PORT:-33069} only, and has a user dbgauge (password dbgauge; @127.0.0.1 and
# @localhost) with all privileges on database dbgauge. No systemd: mariadbd is detached
# with setsid and runs as user mysql when this script runs as root (as the current user
# otherwise). `start` is idempotent (a running server is left alone; the data directory
# is created on first use), `stop` sends SIGTERM (a clean shutdown) and waits, `status`
# exits 0 when running and 3 when not, `env` prints the URL the integration tests read,
# `clean` stops the server and deletes the directory.
#
# Settings changed from the defaults, and why (the server reads only our my.cnf:
# --defaults-file, so /etc/mysql does not leak in):
#   bind-address = 127.0.0.1, port, socket      loopback-only, own socket
#   local-infile = 1                            LOAD DATA LOCAL INFILE (dbgauge's bulk path)
#   skip-name-resolve                           no DNS lookups per connection
#   innodb-buffer-pool-dump-at-shutdown = 0     faster, more repeatable stop/start (no
#   innodb-buffer-pool-load-at-startup = 0        warm-cache dump and reload)
# Durability stays at the defaults (innodb_flush_log_at_trx_commit = 1, binlog off).
set -euo pipefail
cd / # the server user may not be allowed into the caller's directory

PORT=${DG_MYSQL_PORT:-33069}
BASE=${DG_SERVER_DIR:-/tmp/dbgauge-servers}
DIR=$BASE/mysql
DATA=$DIR/data
CNF=$DIR/my.cnf
SOCK=$DIR/mysqld.sock
PIDF=$DIR/mysqld.pid
LOG=$DIR/error.log
URL="mysql://dbgauge:dbgauge@127.0.0.1:$PORT/dbgauge"

die() { echo "mysql.sh: $*" >&2; exit 1; }

find_bin() {
  local b
  for b in "$@"; do
    if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return; fi
    [ -x "/usr/sbin/$b" ] && { echo "/usr/sbin/$b"; return; }
  done
  die "none of $* found (scripts/deps.sh test installs mariadb-server)"
}
SERVER=$(find_bin mariadbd mysqld)
INSTALL_DB=$(find_bin mariadb-install-db mysql_install_db)
CLIENT=$(find_bin mariadb mysql)

server_pid() {
  local pid
  [ -f "$PIDF" ] || return 1
  pid=$(cat "$PIDF" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

ready() { "$CLIENT" --no-defaults -S "$SOCK" -u root -e 'SELECT 1' >/dev/null 2>&1; }

admin_sql() { "$CLIENT" --no-defaults -S "$SOCK" -u root "$@"; }

write_cnf() {
  local user_line=""
  [ "$(id -u)" -eq 0 ] && user_line="user = mysql"
  cat >"$CNF" <<EOF
# dbgauge test server (scripts/servers/mysql.sh)
[mariadbd]
$user_line
datadir = $DATA
socket = $SOCK
pid-file = $PIDF
log-error = $LOG
port = $PORT
bind-address = 127.0.0.1
local-infile = 1
skip-name-resolve
innodb-buffer-pool-dump-at-shutdown = 0
innodb-buffer-pool-load-at-startup = 0
EOF
}

init_datadir() {
  mkdir -p "$BASE"
  chmod 755 "$BASE" 2>/dev/null || true
  rm -rf "$DIR"
  mkdir -p "$DIR"
  write_cnf
  local auth=normal
  if [ "$(id -u)" -eq 0 ]; then
    chown mysql:mysql "$DIR"
    auth=socket # the OS root user logs in as MariaDB root over the socket
  fi
  "$INSTALL_DB" --defaults-file="$CNF" --auth-root-authentication-method=$auth \
    --skip-test-db >"$DIR/install-db.log" 2>&1 \
    || { cat "$DIR/install-db.log" >&2; die "mariadb-install-db failed"; }
}

provision() {
  admin_sql <<'EOF'
CREATE USER IF NOT EXISTS 'dbgauge'@'127.0.0.1' IDENTIFIED BY 'dbgauge';
CREATE USER IF NOT EXISTS 'dbgauge'@'localhost' IDENTIFIED BY 'dbgauge';
CREATE DATABASE IF NOT EXISTS dbgauge;
GRANT ALL PRIVILEGES ON dbgauge.* TO 'dbgauge'@'127.0.0.1';
GRANT ALL PRIVILEGES ON dbgauge.* TO 'dbgauge'@'localhost';
EOF
}

start() {
  if server_pid >/dev/null && ready; then return 0; fi
  if [ ! -d "$DATA/mysql" ]; then
    init_datadir
  fi
  write_cnf
  [ "$(id -u)" -eq 0 ] && chown mysql:mysql "$DIR"
  rm -f "$PIDF"
  setsid -f "$SERVER" --defaults-file="$CNF" </dev/null >>"$LOG" 2>&1
  local i
  for i in $(seq 1 600); do # up to 30 s
    if ready; then
      if [ ! -f "$DIR/provisioned" ]; then
        provision
        touch "$DIR/provisioned"
      fi
      return 0
    fi
    sleep 0.05
  done
  tail -n 20 "$LOG" >&2
  die "the server did not start (log: $LOG)"
}

stop() {
  local pid i
  pid=$(server_pid) || return 0
  kill -TERM "$pid"
  for i in $(seq 1 1200); do # up to 60 s
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.05
  done
  die "the server (pid $pid) did not stop within 60 s"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  status)
    if server_pid >/dev/null && ready; then
      echo "mysql: running on 127.0.0.1:$PORT (data $DATA)"; exit 0
    fi
    echo "mysql: not running"; exit 3 ;;
  env) echo "export DG_TEST_MYSQL_URL=$URL" ;;
  clean) stop; rm -rf "$DIR" ;;
  *) echo "usage: $0 start|stop|status|env|restart|clean" >&2; exit 1 ;;
esac
