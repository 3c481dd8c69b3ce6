#!/usr/bin/env bash
# postgres.sh - a throwaway PostgreSQL server for dbgauge's tests and benchmarks.
#
#   scripts/servers/postgres.sh start|stop|status|env|restart|clean
#   scripts/servers/postgres.sh standby|standby-stop|standby-clean
#   scripts/servers/postgres.sh set NAME VALUE | unset NAME | reset | settings
#   scripts/servers/postgres.sh admin SQL   (one statement as the superuser postgres)
#
# The cluster lives in ${DG_SERVER_DIR:-/tmp/dbgauge-servers}/postgres (data/, server.log
# and the unix socket), listens on 127.0.0.1 port ${DG_PG_PORT:-54329} only, and has a
# login role dbgauge (password dbgauge) owning database dbgauge. No systemd: the server is
# run with pg_ctl as user postgres when this script runs as root (as the current user
# otherwise). `start` is idempotent (a running server is left alone; the cluster is
# created on first use), `stop` is fast (-m fast) and idempotent, `status` exits 0 when
# running and 3 when not, `env` prints the URL the integration tests read, `clean` stops
# the server and deletes the directory.
#
# `standby` makes a hot standby of the running server (pg_basebackup -R -X stream, into
# ${DG_SERVER_DIR}/postgres-standby, the first time) and starts it on port
# ${DG_PG_STANDBY_PORT:-primary's + 1}; `env` names it DG_TEST_POSTGRES_STANDBY_URL.
# `stop` stops it first; `standby-stop` stops it alone, `standby-clean` deletes it.
#
# DG_PG_OPTIONS adds server options for this start (e.g. "-c shared_buffers=16MB": a test
# that needs a small buffer cache runs its own cluster with DG_SERVER_DIR and DG_PG_PORT).
# Settings changed from initdb's defaults, and why (everything else is stock):
#   listen_addresses = 127.0.0.1, port, unix_socket_directories   loopback-only, own socket
#   autovacuum = off        autovacuum workers run transactions in the database, which
#                           would make the tests' exact commit counts (xact_commit) drift;
#                           `dbgauge load` runs VACUUM ANALYZE itself
#   lc_messages = C         English server messages (the tests match a few)
#   initdb --no-sync        a throwaway cluster need not be fsynced at creation (fsync
#                           itself stays on: commits are durable as on a real server)
# Authentication: TCP connections use scram-sha-256 (so a wrong password is refused);
# the unix socket trusts local users (the superuser postgres administers through it).
#
# Recorded settings: the server-control contract of `dbgauge ... --server-ctl CMD`, which
# runs `CMD set NAME VALUE` (once per setting), then `CMD restart`.
#   set NAME VALUE  records the postgresql.conf parameter NAME = VALUE (e.g.
#                   shared_buffers 16MB, work_mem 4MB) in postgres/settings, replacing an
#                   earlier value of NAME; it takes effect at the next start or restart
#                   (set itself restarts nothing, and works whether the server runs or
#                   not). NAME must match ^[A-Za-z_][A-Za-z0-9_.]*$ and VALUE
#                   ^[A-Za-z0-9_.:+-]+$ (ASCII: no spaces, no quotes), or set fails with
#                   exit status 1. port, listen_addresses, unix_socket_directories and
#                   the file locations belong to this script.
#   unset NAME      forgets NAME; reset forgets every setting (back to the defaults above
#                   at the next start); settings prints the recorded NAME=VALUE lines.
# `start` passes them to the server as -c NAME=VALUE after DG_PG_OPTIONS (so they win;
# names compared ignoring case, as PostgreSQL does). The server refuses to start on an
# unknown name or a bad value: `unset` it. `clean` deletes them with the rest of $DIR.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd / # the server user may not be allowed into the caller's directory

PORT=${DG_PG_PORT:-54329}
BASE=${DG_SERVER_DIR:-/tmp/dbgauge-servers}
DIR=$BASE/postgres
DATA=$DIR/data
LOG=$DIR/server.log
SETTINGS=$DIR/settings
URL="postgres://dbgauge:dbgauge@127.0.0.1:$PORT/dbgauge"
# the hot standby (`standby`): a streaming replica of this server, on its own port
SPORT=${DG_PG_STANDBY_PORT:-$((PORT + 1))}
SDIR=$BASE/postgres-standby
SDATA=$SDIR/data
SURL="postgres://dbgauge:dbgauge@127.0.0.1:$SPORT/dbgauge"

die() { echo "postgres.sh: $*" >&2; exit 1; }

# owned_setting NAME VALUE AT (settings.bash): what postgres.sh itself controls
owned_setting() {
  case "${1,,}" in
    port|listen_addresses|unix_socket_directories|data_directory|config_file|hba_file|ident_file)
      die "$3$1 is set by postgres.sh itself (DG_PG_PORT, DG_SERVER_DIR)" ;;
  esac
}
SETTINGS_FOLD=1
source "$HERE/settings.bash"

# The server binaries: Debian keeps them out of PATH, in /usr/lib/postgresql/<major>/bin.
bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return; fi
  d=$(dirname "$(command -v pg_ctl 2>/dev/null || echo /nonexistent/x)")
  [ -x "$d/pg_ctl" ] || die "PostgreSQL server binaries not found (scripts/deps.sh test installs them)"
  echo "$d"
}
BIN=$(bindir)

# as_owner CMD...: runs CMD as the cluster's owner (postgres when we are root). setpriv
# rather than runuser/su: no PAM session, 40 ms instead of 150 ms per call.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    setpriv --reuid=postgres --regid=postgres --init-groups env HOME=/tmp "$@"
  else
    "$@"
  fi
}

running() { [ -f "$DATA/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

admin_psql() {
  as_owner psql -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U postgres -d postgres "$@"
}

init_cluster() {
  mkdir -p "$BASE"
  chmod 755 "$BASE" 2>/dev/null || true
  # a new cluster keeps the settings recorded before it existed
  local recs=""
  [ -f "$SETTINGS" ] && recs=$(cat "$SETTINGS")
  rm -rf "$DIR"
  mkdir -p "$DIR"
  [ -z "$recs" ] || printf '%s\n' "$recs" >"$SETTINGS"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR"
  chmod 700 "$DIR"
  as_owner "$BIN/initdb" -D "$DATA" -U postgres -E UTF8 --locale=C --no-sync \
    --auth-local=trust --auth-host=scram-sha-256 >"$DIR/initdb.log" 2>&1 \
    || { cat "$DIR/initdb.log" >&2; die "initdb failed"; }
  cat >>"$DATA/postgresql.conf" <<EOF

# ---- dbgauge test server (scripts/servers/postgres.sh) ----
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DIR'
autovacuum = off
lc_messages = 'C'
EOF
}

create_role_and_db() {
  admin_psql <<'EOF'
SELECT 'CREATE ROLE dbgauge LOGIN PASSWORD ''dbgauge'''
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'dbgauge') \gexec
SELECT 'CREATE DATABASE dbgauge OWNER dbgauge'
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'dbgauge') \gexec
-- to read data_directory: the result files then name the disk the server writes to
GRANT pg_read_all_settings TO dbgauge;
-- to read pg_stat_replication's positions: a standby's lag behind this server
GRANT pg_read_all_stats TO dbgauge;
EOF
}

start() {
  if running; then return 0; fi
  local fresh=0 recs line opts=""
  recs=$(recorded_settings)
  while IFS= read -r line; do
    [ -z "$line" ] || opts="$opts -c $line"
  done <<<"$recs"
  if [ ! -f "$DATA/PG_VERSION" ]; then
    init_cluster
    fresh=1
  fi
  # the socket directory must be reachable by the server user
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR"
  # port and socket directory on the command line too, so DG_PG_PORT applies to an
  # existing cluster; the recorded settings last, so they win
  as_owner "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 -o "-p $PORT -k $DIR ${DG_PG_OPTIONS:-}$opts" start >/dev/null \
    || { tail -n 20 "$LOG" >&2; die "the server did not start (log: $LOG)"; }
  if [ $fresh = 1 ] || [ ! -f "$DIR/provisioned" ]; then
    create_role_and_db
    touch "$DIR/provisioned"
  fi
}

stop() {
  standby_stop
  if running; then
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop >/dev/null
  fi
}

standby_running() { [ -f "$SDATA/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$SDATA" status >/dev/null 2>&1; }

# A hot standby of the running server: pg_basebackup -R (streaming replication, the
# connection settings written for it) into $SDIR the first time, then started on SPORT.
standby_start() {
  running || die "standby: the primary is not running (start it first)"
  standby_running && return 0
  if [ ! -f "$SDATA/PG_VERSION" ]; then
    rm -rf "$SDIR"
    mkdir -p "$SDIR"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$SDIR"
    chmod 700 "$SDIR"
    as_owner "$BIN/pg_basebackup" -h "$DIR" -p "$PORT" -U postgres -D "$SDATA" -R -X stream -c fast \
      >"$SDIR/basebackup.log" 2>&1 || { cat "$SDIR/basebackup.log" >&2; die "pg_basebackup failed"; }
  fi
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$SDIR"
  # the standby starts while other tests run: a client connection of theirs may hold its
  # port for a moment as its own (the port lies in Linux's ephemeral range), and the
  # server then cannot listen ("Address already in use"): wait until the port is free to
  # listen on, and start again when a connection took it in between
  local try waited
  for try in 1 2 3 4 5; do
    waited=0
    until port_free "$SPORT"; do
      [ $((waited += 1)) -lt 300 ] || break
      sleep 0.1
    done
    if as_owner "$BIN/pg_ctl" -D "$SDATA" -l "$SDIR/server.log" -w -t 60 -o "-p $SPORT -k $SDIR" start >/dev/null; then
      return 0
    fi
    tail -n 5 "$SDIR/server.log" | grep -q "Address already in use" || break
  done
  tail -n 20 "$SDIR/server.log" >&2
  die "the standby did not start (log: $SDIR/server.log)"
}

# port_free PORT: nothing holds 127.0.0.1:PORT, so a server can listen on it
port_free() {
  python3 -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}

standby_stop() {
  if standby_running; then
    as_owner "$BIN/pg_ctl" -D "$SDATA" -m fast -w -t 60 stop >/dev/null
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) recorded_settings >/dev/null; stop; start ;; # bad settings: still running
  status)
    if running; then echo "postgres: running on 127.0.0.1:$PORT (data $DATA)"; exit 0; fi
    echo "postgres: not running"; exit 3 ;;
  env) echo "export DG_TEST_POSTGRES_URL=$URL"
       echo "export DG_TEST_POSTGRES_STANDBY_URL=$SURL" ;;
  clean) stop; rm -rf "$DIR" "$SDIR" ;;
  standby) standby_start ;;
  standby-stop) standby_stop ;;
  standby-clean) standby_stop; rm -rf "$SDIR" ;;
  set|unset|reset|settings) settings_command "$@" ;;
  admin) shift; running || die "not running"; admin_psql -c "$*" ;; # as the superuser (tests)
  *)
    echo "usage: $0 start|stop|status|env|restart|clean" >&2
    echo "       $0 set NAME VALUE | unset NAME | reset | settings | admin SQL" >&2
    echo "       $0 standby | standby-stop | standby-clean" >&2
    exit 1 ;;
esac
