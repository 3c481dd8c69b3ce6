#!/usr/bin/env bash
# firebird.sh - a throwaway Firebird 3 server for dbgauge's tests and benchmarks.
#
#   scripts/servers/firebird.sh start|stop|status|env|restart|clean
#   scripts/servers/firebird.sh set NAME VALUE | unset NAME | reset | settings
#
# The server lives in ${DG_SERVER_DIR:-/tmp/dbgauge-servers}/firebird and listens on
# 127.0.0.1 port ${DG_FIREBIRD_PORT:-30509} only, beside (not instead of) any system
# instance on 3050. It has its own root directory (root/: our firebird.conf and
# databases.conf, links to the installed plugins, messages and charsets), its own security
# database (data/security3.fdb: SYSDBA with a random password kept in sysdba.password, and
# the user dbgauge, password dbgauge), its own lock directory (lock/), and the database
# data/dbgauge.fdb owned by dbgauge (the owner may create tables and read every MON$ row;
# a plain Firebird 3 user could do neither). Debian's Firebird logs to
# /var/log/firebird/firebird3.0.log whatever the root directory. The server may read
# external files from ext/ only (ExternalFileAccess = Restrict .../ext; mode 1777, so
# dbgauge may write its load files there as any user): dbgauge's ?external_dir= bulk path.
#
# Everything is prepared with the embedded engine (no password needed) before the server
# starts, as user firebird when this runs as root (so the server can open the files), as
# the current user otherwise. No systemd: the guardian (fbguard -daemon) starts the server
# and restarts it should it crash (in Classic mode, which the guardian refuses, the server
# is started directly and forks a process per connection). `start` is idempotent, `stop`
# stops the guardian, then the server (SIGTERM, a clean shutdown; in Classic mode the
# listener's whole process group, and a KILL after 5 s for what is left), `status` exits 0
# when running and 3 when not, `env` prints the URL the integration tests read
# (DG_TEST_FIREBIRD_URL) and the external-file directory (DG_TEST_FIREBIRD_EXTERNAL_DIR), `clean`
# stops and deletes everything. Starting in or after Classic mode may wait up to a minute
# for the port's last connections to finish closing (Classic binds without SO_REUSEADDR).
#
# Settings (environment, read by `start` when it writes firebird.conf):
#   DG_FIREBIRD_MODE       ServerMode: Super (default), SuperClassic or Classic (a
#                          ServerMode recorded with `set`, below, overrides it)
#   DG_FIREBIRD_PAGE_SIZE  page size of a new dbgauge.fdb (default 8192; the published
#                          TPC-C studies used 16384)
# The database keeps Firebird's defaults otherwise: forced writes on, sweep interval
# 20000, the page cache from DefaultDbCachePages (2048 pages in Super) unless a client
# asks for more with ?buffers=N.
#
# Recorded settings: the server-control contract of `dbgauge ... --server-ctl CMD`, which
# runs `CMD set NAME VALUE` (once per setting), then `CMD restart`.
#   set NAME VALUE  records the firebird.conf parameter NAME = VALUE (e.g. ServerMode,
#                   DefaultDbCachePages, LockHashSlots, LockMemSize) in firebird/settings,
#                   replacing an earlier value of NAME; it takes effect at the next
#                   start or restart (set itself restarts nothing, and works whether the
#                   server runs or not). NAME must match ^[A-Za-z_][A-Za-z0-9_.]*$ and
#                   VALUE ^[A-Za-z0-9_.:+-]+$ (ASCII: no spaces, no quotes), or set fails
#                   with exit status 1. A recorded ServerMode (Super, SuperClassic or
#                   Classic) overrides DG_FIREBIRD_MODE; RemoteServicePort,
#                   RemoteBindAddress and SecurityDatabase belong to this script.
#   unset NAME      forgets NAME; reset forgets every setting (back to the defaults above
#                   at the next start); settings prints the recorded NAME=VALUE lines.
# `start` writes them at the end of root/firebird.conf (names compared ignoring case);
# `clean` deletes them with the rest of $DIR.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

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
SETTINGS=$DIR/settings
# the directory the server may read external files from (dbgauge's ?external_dir= bulk path)
EXTDIR=$DIR/ext
PAGE_SIZE=${DG_FIREBIRD_PAGE_SIZE:-8192}
URL="firebird://dbgauge:dbgauge@127.0.0.1:$PORT/$DB"

die() { echo "firebird.sh: $*" >&2; exit 1; }

# owned_setting NAME VALUE AT (settings.bash): what firebird.sh itself controls
owned_setting() {
  case "${1,,}" in
    remoteserviceport|remotebindaddress|securitydatabase)
      die "$3$1 is set by firebird.sh itself (DG_FIREBIRD_PORT, DG_SERVER_DIR)" ;;
    servermode)
      case "$2" in
        Super|SuperClassic|Classic) ;;
        *) die "$3ServerMode must be Super, SuperClassic or Classic (not '$2')" ;;
      esac ;;
  esac
}
SETTINGS_FOLD=1
source "$HERE/settings.bash"

# The server mode the next start uses: a recorded ServerMode, else DG_FIREBIRD_MODE
# (checked by start: a bad one must not stop stop, clean or unset from working).
MODE=$(recorded_value ServerMode 2>/dev/null || echo "${DG_FIREBIRD_MODE:-Super}")

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

# session_pids SID: the live processes of session SID (a Classic server: the listener
# and the processes serving the connections)
session_pids() {
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } |
    awk -v s="$1" '{ pid = $1; sub(/^.*\) /, ""); if ($4 == s && $1 != "Z") print pid }'
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

# port_lingering: a TCP socket other than a listener still holds our port (a connection
# the server closed first lingers in FIN_WAIT2 or TIME_WAIT for up to 60 s)
port_lingering() {
  { cat /proc/net/tcp /proc/net/tcp6 2>/dev/null || true; } |
    awk -v p="$(printf ':%04X' "$PORT")" '
      substr($2, length($2) - 4) == p && $4 != "0A" { f = 1 }
      END { exit !f }'
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
  local recs name value
  recs=$(recorded_settings)
  {
    cat <<EOF
# dbgauge test server (scripts/servers/firebird.sh); everything else at its default
ServerMode = $MODE
RemoteServicePort = $PORT
RemoteBindAddress = 127.0.0.1
SecurityDatabase = $SEC
EOF
    recorded_value UdfAccess >/dev/null || echo "UdfAccess = None"
    recorded_value ExternalFileAccess >/dev/null || echo "ExternalFileAccess = Restrict $EXTDIR"
    if [ -n "$recs" ]; then
      echo "# recorded with firebird.sh set (dbgauge --server-ctl); ServerMode is above"
      while IFS='=' read -r name value; do
        # one ServerMode line: stop and status read it
        [ "${name,,}" = servermode ] || echo "$name = $value"
      done <<<"$recs"
    fi
  } >"$ROOT/firebird.conf"
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

check_mode() {
  case "$MODE" in
    Super|SuperClassic|Classic) ;;
    *)
      if recorded_value ServerMode >/dev/null; then
        die "the recorded ServerMode must be Super, SuperClassic or Classic (not '$MODE')"
      fi
      die "DG_FIREBIRD_MODE must be Super, SuperClassic or Classic (not '$MODE')" ;;
  esac
}

start() {
  if server_pid >/dev/null && ready; then return 0; fi
  check_mode
  if server_pid >/dev/null; then stop; fi # up but not answering: start over
  mkdir -p "$BASE"
  chmod 755 "$BASE" 2>/dev/null || true
  mkdir -p "$DIR" "$DATA" "$LOCKDIR" "$EXTDIR"
  local i prev # the mode of the last start
  prev=$(sed -n 's/^ServerMode = //p' "$ROOT/firebird.conf" 2>/dev/null || true)
  write_conf
  own "$DIR"
  # dbgauge (any user) writes its load files here and the server reads them; sticky, as /tmp
  chmod 1777 "$EXTDIR"
  [ -f "$SEC" ] || init_security
  [ -f "$DB" ] || init_database
  rm -f "$PIDF"
  # Only Super and SuperClassic bind their port with SO_REUSEADDR: Classic's listener cannot
  # bind while a connection of the port is still closing (TIME_WAIT, FIN_WAIT2: up to 60 s
  # after the server closed it), and no server can while one of a Classic server's is; the
  # server's own bind retries (50 s; the guardian waits 15) may not be enough. Wait here.
  if { [ "$MODE" = Classic ] || [ "$prev" = Classic ]; } && port_lingering; then
    echo "firebird.sh: waiting (up to 65 s) for the connections of port $PORT to finish closing" >&2
    for i in $(seq 1 325); do
      port_lingering || break
      sleep 0.2
    done
  fi
  if [ "$MODE" = Classic ]; then
    # The guardian refuses Classic; the server started by hand listens and forks a process
    # per connection. It records its own pid (setsid does not fork: sh execs the server).
    as_owner setsid sh -c 'echo $$ >"$1"; exec "$2"' sh "$PIDF" "$SERVER" </dev/null \
      >>"$DIR/server.log" 2>&1 &
  else
    as_owner "$GUARD" -daemon -forever -pidfile "$PIDF" </dev/null >>"$DIR/guard.log" 2>&1
  fi
  for i in $(seq 1 400); do # up to 20 s
    ready && return 0
    sleep 0.05
  done
  tail -n 20 "$LOG" >&2 2>/dev/null || true
  die "the server did not start (log: $LOG)"
}

stop() {
  local pid gpid i classic=0 left=""
  pid=$(server_pid) || { rm -f "$PIDF"; return 0; }
  # Classic (as the server was started: the firebird.conf of the last start): the listener
  # leads a session and process group (setsid) whose other processes serve a connection
  # each
  grep -q '^ServerMode = Classic' "$ROOT/firebird.conf" 2>/dev/null && classic=1
  # the guardian first, or it would start the server again
  if gpid=$(guard_pid); then
    kill -TERM "$gpid" 2>/dev/null || true
  fi
  # Classic: the whole group at once (children whose listener is gone have another parent)
  [ $classic = 0 ] || kill -TERM -- "-$pid" 2>/dev/null || true
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 600); do # up to 30 s
    [ $classic = 0 ] || left=$(session_pids "$pid")
    if [ -z "$left" ] && ! alive "$pid" && { [ -z "${gpid:-}" ] || ! alive "$gpid"; }; then
      rm -f "$PIDF"
      return 0
    fi
    if [ "$i" = 100 ] && [ -n "$left" ]; then # 5 s: what TERM did not end gets a KILL
      echo "firebird.sh: killing Classic server processes that ignored SIGTERM:" $left >&2
      kill -KILL $left 2>/dev/null || true
    fi
    sleep 0.05
  done
  die "the server (pid $pid${left:+; session: $left}) did not stop within 30 s"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) check_mode; recorded_settings >/dev/null; stop; start ;; # bad settings: still running
  status)
    if server_pid >/dev/null && ready; then
      echo "firebird: running ($(sed -n 's/^ServerMode = //p' "$ROOT/firebird.conf")) on 127.0.0.1:$PORT (database $DB; SYSDBA password in $DIR/sysdba.password)"
      exit 0
    fi
    echo "firebird: not running"; exit 3 ;;
  env)
    echo "export DG_TEST_FIREBIRD_URL=$URL"
    echo "export DG_TEST_FIREBIRD_EXTERNAL_DIR=$EXTDIR" ;;
  clean) stop; rm -rf "$DIR" ;;
  set|unset|reset|settings) settings_command "$@" ;;
  *)
    echo "usage: $0 start|stop|status|env|restart|clean" >&2
    echo "       $0 set NAME VALUE | unset NAME | reset | settings" >&2
    exit 1 ;;
esac
