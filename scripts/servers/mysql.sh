#!/usr/bin/env bash
# mysql.sh - a throwaway MariaDB (or MySQL) server for dbgauge's tests and benchmarks.
#
#   scripts/servers/mysql.sh start|stop|status|env|restart|clean
#   scripts/servers/mysql.sh set NAME VALUE | unset NAME | reset | settings
#   scripts/servers/mysql.sh admin           SQL on standard input, run as the server's root
#                                            (tests that need a second user or a grant)
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
#
# Recorded settings: the server-control contract of `dbgauge ... --server-ctl CMD`, which
# runs `CMD set NAME VALUE` (once per setting), then `CMD restart`.
#   set NAME VALUE  records the mariadbd option NAME = VALUE (e.g.
#                   innodb_buffer_pool_size 256M, innodb_flush_log_at_trx_commit 2) in
#                   mysql/settings, replacing an earlier value of NAME; it takes effect at
#                   the next start or restart (set itself restarts nothing, and works
#                   whether the server runs or not). NAME must match
#                   ^[A-Za-z_][A-Za-z0-9_.]*$ (so the underscore spelling of an option)
#                   and VALUE ^[A-Za-z0-9_.:+-]+$ (ASCII: no spaces, no quotes), or set
#                   fails with exit status 1. datadir, socket, pid_file, log_error, port,
#                   bind_address and user belong to this script.
#   unset NAME      forgets NAME; reset forgets every setting (back to the defaults above
#                   at the next start); settings prints the recorded NAME=VALUE lines.
# `start` (and mariadb-install-db, for a new data directory) reads them at the end of
# my.cnf's [mariadbd] section, after (so over) the settings above. The server refuses to
# start on an unknown option or a bad value: `unset` it. `clean` deletes them with the
# rest of $DIR.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd / # the server user may not be allowed into the caller's directory

PORT=${DG_MYSQL_PORT:-33069}
BASE=${DG_SERVER_DIR:-/tmp/dbgauge-servers}
DIR=$BASE/mysql
DATA=$DIR/data
CNF=$DIR/my.cnf
SOCK=$DIR/mysqld.sock
PIDF=$DIR/mysqld.pid
LOG=$DIR/error.log
SETTINGS=$DIR/settings
URL="mysql://dbgauge:dbgauge@127.0.0.1:$PORT/dbgauge"

die() { echo "mysql.sh: $*" >&2; exit 1; }

# owned_setting NAME VALUE AT (settings.bash): what mysql.sh itself controls
owned_setting() {
  case "$1" in
    datadir|socket|pid_file|log_error|port|bind_address|user)
      die "$3$1 is set by mysql.sh itself (DG_MYSQL_PORT, DG_SERVER_DIR)" ;;
  esac
}
SETTINGS_FOLD=0
source "$HERE/settings.bash"

source "$HERE/mariadb.bash"

server_pid() {
  local pid
  [ -f "$PIDF" ] || return 1
  pid=$(cat "$PIDF" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

ready() { "$CLIENT" --no-defaults -S "$SOCK" -u root -e 'SELECT 1' >/dev/null 2>&1; }

admin_sql() { "$CLIENT" --no-defaults -S "$SOCK" -u root "$@"; }

write_cnf() {
  local user_line="" recs name value
  [ "$(id -u)" -eq 0 ] && user_line="user = mysql"
  recs=$(recorded_settings)
  {
    cat <<EOF
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
    if [ -n "$recs" ]; then
      echo "# recorded with mysql.sh set (dbgauge --server-ctl)"
      while IFS='=' read -r name value; do
        echo "$name = $value"
      done <<<"$recs"
    fi
  } >"$CNF"
}

init_datadir() {
  mkdir -p "$BASE"
  chmod 755 "$BASE" 2>/dev/null || true
  # a new data directory keeps the settings recorded before it existed
  local recs=""
  [ -f "$SETTINGS" ] && recs=$(cat "$SETTINGS")
  rm -rf "$DIR"
  mkdir -p "$DIR"
  [ -z "$recs" ] || printf '%s\n' "$recs" >"$SETTINGS"
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

provision() { provision_sql | admin_sql; }

start() {
  if server_pid >/dev/null && ready; then return 0; fi
  if [ ! -d "$DATA/mysql" ]; then
    init_datadir
  fi
  write_cnf
  [ "$(id -u)" -eq 0 ] && chown mysql:mysql "$DIR"
  rm -f "$PIDF"
  local i logsize=0
  [ -f "$LOG" ] && logsize=$(stat -c %s "$LOG")
  setsid -f "$SERVER" --defaults-file="$CNF" </dev/null >>"$LOG" 2>&1
  for i in $(seq 1 600); do # up to 30 s
    if ready; then
      if [ ! -f "$DIR/provisioned" ]; then
        provision
        touch "$DIR/provisioned"
      fi
      return 0
    fi
    # a bad option (say a recorded setting) aborts the server: no need to wait 30 s
    tail -c +$((logsize + 1)) "$LOG" 2>/dev/null | grep '\[ERROR\] Aborting' >/dev/null && break
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
  restart) recorded_settings >/dev/null; stop; start ;; # bad settings: still running
  status)
    if server_pid >/dev/null && ready; then
      echo "mysql: running on 127.0.0.1:$PORT (data $DATA)"; exit 0
    fi
    echo "mysql: not running"; exit 3 ;;
  env) echo "export DG_TEST_MYSQL_URL=$URL" ;;
  clean) stop; rm -rf "$DIR" ;;
  admin) admin_sql ;;
  set|unset|reset|settings) settings_command "$@" ;;
  *)
    echo "usage: $0 start|stop|status|env|restart|clean" >&2
    echo "       $0 set NAME VALUE | unset NAME | reset | settings" >&2
    exit 1 ;;
esac
