#!/usr/bin/env bash
# firebird.sh - a throwaway Firebird 3 server for dbgauge's tests and benchmarks.
#
#   scripts/servers/firebird.sh start|stop|status|env|restart|clean
#
# The server lives in ${DG_SERVER_DIR:-/tmp/dbgauge-servers}/firebird and listens on
# 127.0.0.1 port ${DG_FIREBIRD_PORT:-30509} only, beside (not instead of) any system
# instance on 3050. It has its own root directory (root/: our firebird.conf and
# databases.conf, links to the installed plugins, messages and charsets), its own security
# database (data/security3.fdb: SYSDBA with a random password kept in sysdba.password, and
# the user dbgauge, password dbgauge), its own lock directory (lock/), and the database
# data/dbgauge.fdb owned by dbgauge (the owner may create tables and read every MON$ row;
# a plain Firebird 3 user could do neither). Debian's Firebird logs to
# /var/log/firebird/firebird3.0.log whatever the root directory.
#
# Everything is prepared with the embedded engine (no password needed) before the server
# starts, as user firebird when this runs as root (so the server can open the files), as
# the current user otherwise. No systemd: the guardian (fbguard -daemon) starts the server
# and restarts it should it crash (in Classic mode, which the guardian refuses, the server
# is started directly and forks a process per connection). `start` is idempotent, `stop` stops the guardian, then
# the server (SIGTERM, a clean shutdown), `status` exits 0 when running and 3 when not,
# `env` prints the URL the integration tests read, `clean` stops and deletes everything.
#
# Settings (environment, read by `start` when it writes firebird.conf):
#   DG_FIREBIRD_MODE       ServerMode: Super (default), SuperClassic or Classic
#   DG_FIREBIRD_PAGE_SIZE  page size of a new dbgauge.fdb (default 8192; the published
#                          TPC-C studies used 16384)
# The database keeps Firebird's defaults otherwise: forced writes on, sweep interval
# 20000, the page cache from DefaultDbCachePages (2048 pages in Super) unless a client
# asks for more with ?buffers=N.
set -euo pipefail

PORT=${DG_FIREBIRD_PORT:-30509}
BASE=${DG_SERVER_DIR:-/tmp/dbgauge-servers}
DIR=$BASE/firebird
ROOT=$DIR/root
DATA=$DIR/data
LOCKDIR=$DIR/lock
PIDF=$DIR/firebird.pid
# Debian's build writes its log to /var/log/firebird (shared with the system instance)
LOG=$ROOT/firebird.log
for f in /var/log/firebird/firebird3.0.log /var/log/firebird/firebird.log; do
  [ -f "$f" ] && { LOG=$f; break; }
done
DB=$DATA/dbgauge.fdb
SEC=$DATA/security3.fdb
MODE=${DG_FIREBIRD_MODE:-Super}
PAGE_SIZE=${DG_FIREBIRD_PAGE_SIZE:-8192}
URL="firebird://dbgauge:dbgauge@127.0.0.1:$PORT/$DB"

die() { echo "firebird.sh: $*" >&2; exit 1; }

# The installed Firebird: its root (plugins, messages) and programs.
FBHOME=""
for d in /usr/lib/*/firebird/3.0 /usr/lib/firebird/3.0 /opt/firebird; do
  if [ -f "$d/firebird.msg" ] && [ -d "$d/plugins" ]; then FBHOME=$d; break; fi
done
[ -n "$FBHOME" ] || die "no Firebird 3 installation found (scripts/deps.sh test installs firebird3.0-server)"
find_bin() {
  local b
  for b in "$@"; do
    if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return; fi
    for d in /usr/sbin "$FBHOME/bin"; do
      [ -x "$d/$b" ] && { echo "$d/$b"; return; }
    done
  done
  die "none of $* found (scripts/deps.sh test installs firebird3.0-server and firebird3.0-utils)"
}
GUARD=$(find_bin fbguard)
SERVER=$(find_bin firebird)
ISQL=$(find_bin isql-fb isql)

case "$MODE" in
  Super|SuperClassic|Classic) ;;
  *) die "DG_FIREBIRD_MODE must be Super, SuperClassic or Classic (not '$MODE')" ;;
esac

as_owner() { # runs a command as the user the server runs as
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u firebird -- env FIREBIRD="$ROOT" FIREBIRD_LOCK="$LOCKDIR" "$@"
  else
    env FIREBIRD="$ROOT" FIREBIRD_LOCK="$LOCKDIR" "$@"
  fi
}

# The embedded engine, on our root and lock directory (only while the server is down:
# SuperServer opens its databases exclusively).
embedded_sql() { # embedded_sql USER DATABASE|"" < SQL
  local user=$1 db=$2
  if [ -n "$db" ]; then
    as_owner "$ISQL" -q -bail -user "$user" "$db"
  else
    as_owner "$ISQL" -q -bail -user "$user"
  fi
}

# proc_field PID N: field N after the command name in /proc/PID/stat (1 = state, 2 = ppid);
# /proc rather than ps, which a minimal system may lack
proc_field() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f"$2"; }

# alive PID: the process exists and is not a zombie (without an init system to reap it, a
# stopped guardian may linger as one)
alive() {
  [ -e "/proc/$1" ] || return 1
  [ "$(proc_field "$1" 1)" != Z ]
}

server_pid() {
  local pid
  [ -f "$PIDF" ] || return 1
  pid=$(cat "$PIDF" 2>/dev/null || true)
  [ -n "$pid" ] && alive "$pid" && echo "$pid"
}

guard_pid() {
  local pid ppid
  pid=$(server_pid) || return 1
  ppid=$(proc_field "$pid" 2)
  [ -n "$ppid" ] && [ "$(cat "/proc/$ppid/comm" 2>/dev/null)" = fbguard ] && echo "$ppid"
}

ready() {
  echo "SELECT 1 FROM RDB\$DATABASE;" |
    "$ISQL" -q -user dbgauge -password dbgauge "127.0.0.1/$PORT:$DB" >/dev/null 2>&1
}

write_conf() {
  mkdir -p "$ROOT"
  local f
  for f in firebird.msg intl lib plugins plugins.conf fbtrace.conf UDF; do
    [ -e "$FBHOME/$f" ] && ln -sfn "$FBHOME/$f" "$ROOT/$f"
  done
  cat >"$ROOT/firebird.conf" <<EOF
# dbgauge test server (scripts/servers/firebird.sh); everything else at its default
ServerMode = $MODE
RemoteServicePort = $PORT
RemoteBindAddress = 127.0.0.1
SecurityDatabase = $SEC
UdfAccess = None
EOF
  cat >"$ROOT/databases.conf" <<EOF
# dbgauge test server: the security database under its usual alias
security.db = $SEC
EOF
}

own() { [ "$(id -u)" -eq 0 ] && chown -R firebird:firebird "$@"; return 0; }

init_security() {
  mkdir -p "$DATA" "$LOCKDIR"
  own "$DIR"
  local src=""
  for f in /var/lib/firebird/3.0/system/security3.fdb "$FBHOME/security3.fdb"; do
    [ -r "$f" ] && { src=$f; break; }
  done
  [ -n "$src" ] || die "no readable security3.fdb to start from (run as root?)"
  cp "$src" "$SEC.tmp"
  chmod 600 "$SEC.tmp"
  own "$SEC.tmp"
  mv "$SEC.tmp" "$SEC"
  local pw
  pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  (umask 077; echo "ISC_USER=SYSDBA" >"$DIR/sysdba.password"; echo "ISC_PASSWORD=$pw" >>"$DIR/sysdba.password")
  embedded_sql SYSDBA "$SEC" >"$DIR/init.log" 2>&1 <<EOF || { cat "$DIR/init.log" >&2; die "cannot set up the security database"; }
CREATE OR ALTER USER SYSDBA PASSWORD '$pw';
CREATE OR ALTER USER DBGAUGE PASSWORD 'dbgauge';
COMMIT;
EOF
}

init_database() {
  rm -f "$DB"
  embedded_sql DBGAUGE "" >"$DIR/init.log" 2>&1 <<EOF || { cat "$DIR/init.log" >&2; die "cannot create $DB"; }
CREATE DATABASE '$DB' USER 'DBGAUGE' PAGE_SIZE $PAGE_SIZE DEFAULT CHARACTER SET UTF8;
COMMIT;
EOF
}

start() {
  if server_pid >/dev/null && ready; then return 0; fi
  if server_pid >/dev/null; then stop; fi # up but not answering: start over
  mkdir -p "$BASE"
  chmod 755 "$BASE" 2>/dev/null || true
  mkdir -p "$DIR" "$DATA" "$LOCKDIR"
  write_conf
  own "$DIR"
  [ -f "$SEC" ] || init_security
  [ -f "$DB" ] || init_database
  rm -f "$PIDF"
  if [ "$MODE" = Classic ]; then
    # The guardian refuses Classic; the server started by hand listens and forks a process
    # per connection. It records its own pid (setsid does not fork: sh execs the server).
    as_owner setsid sh -c 'echo $$ >"$1"; exec "$2"' sh "$PIDF" "$SERVER" </dev/null \
      >>"$DIR/server.log" 2>&1 &
  else
    as_owner "$GUARD" -daemon -forever -pidfile "$PIDF" </dev/null >>"$DIR/guard.log" 2>&1
  fi
  local i
  for i in $(seq 1 400); do # up to 20 s
    ready && return 0
    sleep 0.05
  done
  tail -n 20 "$LOG" >&2 2>/dev/null || true
  die "the server did not start (log: $LOG)"
}

stop() {
  local pid gpid i
  pid=$(server_pid) || { rm -f "$PIDF"; return 0; }
  # the guardian first, or it would start the server again
  if gpid=$(guard_pid); then
    kill -TERM "$gpid" 2>/dev/null || true
  fi
  kill -TERM "$pid" 2>/dev/null || true
  # Classic (as the server was started): the listener's children serve the connections
  if grep -q '^ServerMode = Classic' "$ROOT/firebird.conf" 2>/dev/null; then
    local kids
    kids=$(awk -v p="$pid" '$4 == p {print $1}' /proc/[0-9]*/stat 2>/dev/null || true)
    [ -n "$kids" ] && kill -TERM $kids 2>/dev/null || true
  fi
  for i in $(seq 1 600); do # up to 30 s
    if ! alive "$pid" && { [ -z "${gpid:-}" ] || ! alive "$gpid"; }; then
      rm -f "$PIDF"
      return 0
    fi
    sleep 0.05
  done
  die "the server (pid $pid) did not stop within 30 s"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  status)
    if server_pid >/dev/null && ready; then
      echo "firebird: running ($(sed -n 's/^ServerMode = //p' "$ROOT/firebird.conf")) on 127.0.0.1:$PORT (database $DB; SYSDBA password in $DIR/sysdba.password)"
      exit 0
    fi
    echo "firebird: not running"; exit 3 ;;
  env) echo "export DG_TEST_FIREBIRD_URL=$URL" ;;
  clean) stop; rm -rf "$DIR" ;;
  *) echo "usage: $0 start|stop|status|env|restart|clean" >&2; exit 1 ;;
esac
