# common.bash - shared helpers of the integration tests (sourced).
#
# Environment from ctest: DBGAUGE (the binary), DG_CONFORMANCE, DG_SRC, DG_BUILD, DG_FIXTURES.
# Server URLs come from scripts/check (DG_TEST_POSTGRES_URL, DG_TEST_MYSQL_URL,
# DG_TEST_FIREBIRD_URL); a test whose server is not configured skips (exit 77) unless
# DG_REQUIRE_SERVERS=1, when it fails instead, so CI can never pass by skipping.
set -euo pipefail

: "${DBGAUGE:?run through ctest}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dgtest.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

# need_server NAME: the URL of a configured test server, or skip/fail.
need_server() {
  local var="DG_TEST_$(echo "$1" | tr a-z A-Z)_URL"
  local url="${!var:-}"
  if [ -z "$url" ]; then
    if [ "${DG_REQUIRE_SERVERS:-0}" = 1 ]; then
      fail "$var is not set but DG_REQUIRE_SERVERS=1"
    fi
    echo "skip: $var not set (scripts/check starts the test servers)" >&2
    exit 77
  fi
  echo "$url"
}

# json FILE EXPR: evaluates a Python expression over the parsed result file `d`.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# completed FILE: the measured transactions and those in flight at the end (the drain): what
# the database saw after the warmup
completed() { json "$1" "d['totals']['transactions'] + d.get('drain', {}).get('transactions', 0)"; }

# expect_exit CODE CMD...: runs CMD, checks its exit status.
expect_exit() {
  local want=$1; shift
  set +e; "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?; set -e
  [ "$got" = "$want" ] || { cat "$TMP/out" "$TMP/err" >&2; fail "'$*' exited $got, expected $want"; }
}

# check_tpcb_load FILE SCALE PAGES EXACT [INDEXES]: `dbgauge load`'s result file for tpcb
# at SCALE.
# The steps read like a restore log (elapsed cumulative and non-decreasing; page reads and
# writes numbers when PAGES=yes, null otherwise), and the tables and indexes after the
# load hold every tpcb table with its rows (exactly when EXACT=yes: statistics that
# count, not estimate; within 10% otherwise) and a size on disk, and the primary key
# indexes unless INDEXES=no (InnoDB: the primary key is the table).
check_tpcb_load() {
  python3 - "$@" <<'PY' || fail "load result file $1"
import json, sys
f, scale, pages, exact = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "yes", sys.argv[4] == "yes"
indexes = len(sys.argv) < 6 or sys.argv[5] == "yes"
d = json.load(open(f))
assert d["kind"] == "load" and d["run"]["complete"] is True and d["run"]["scale"] == scale, d["run"]
l = d["load"]
last = 0
for s in l["steps"]:
    assert s["elapsed_s"] >= last - 1e-9 and abs(s["elapsed_s"] - s["start_s"] - s["seconds"]) < 1e-6, s
    last = s["elapsed_s"]
    for k in ("page_reads", "page_writes"):
        assert (isinstance(s[k], int) and s[k] >= 0) if pages else s[k] is None, (k, s)
assert last <= l["seconds"] + 1e-6, (last, l["seconds"])
objs = {(o["table"], o["kind"]): o for o in l["objects"]}
want = {"pgbench_branches": scale, "pgbench_tellers": 10 * scale, "pgbench_accounts": 100000 * scale,
        "pgbench_history": 0}
for t, n in want.items():
    o = objs[(t, "table")]
    assert o["bytes"] > 0 or (n == 0 and o["bytes"] == 0), o
    assert (o["rows"] == n) if exact else abs(o["rows"] - n) <= 0.1 * n, (o, n)
assert l["objects_bytes"] == sum(o["bytes"] or 0 for o in l["objects"]), l["objects_bytes"]
idx = [o for o in l["objects"] if o["kind"] == "index"]
assert all(o["bytes"] > 0 for o in idx), idx
if indexes:
    assert {o["table"] for o in idx} == set(want) - {"pgbench_history"}, idx
print("load file ok: %d steps, %d objects, %.1f MB" % (len(l["steps"]), len(l["objects"]), l["objects_bytes"] / 1e6))
PY
}

# own_server SCRIPT PORTVAR BASEPORT [NAME=VALUE ...]: starts a throwaway server of its
# own with scripts/servers/SCRIPT.sh in $TMP/servers, with these settings, on port
# the first port from BASEPORT + (pid % 400) on, within its 400, that nothing holds (a
# port per run: closed connections may hold a port for a minute), cleaned up at exit. Each
# test has its own 400 ports, all below the kernel's ephemeral range (32768-60999): there
# the client side of any connection on the machine (a test's 300 terminals) may hold the
# port the server wants to bind (seen: MariaDB, "Bind on TCP/IP port ... Address already
# in use"). Used: firebird_storage 28200, mysql_stop 28600, postgres_stop 29000,
# postgres_tables 30000, firebird_server_ctl 30540, postgres_server_ctl 31000,
# mysql_server_ctl 31400, postgres_events 31800, mysql_events 32200. Sets CTL
# (the script), CTL_CMD (the script with its environment: a --server-ctl command) and
# OWN_URL (the URL its `env` prints).
own_server() {
  local script=$1 portvar=$2 base=$3 kv
  shift 3
  chmod 755 "$TMP" # the server runs as its own user
  # a port of the test's range that nothing holds now: the ranges lie in Linux's ephemeral
  # range (32768-60999), where a client connection's own port may sit on the first pick
  local port
  port=$(python3 - "$base" "$$" <<'PY'
import socket, sys
base, pid = int(sys.argv[1]), int(sys.argv[2])
for i in range(400):
    p = base + (pid + i) % 400
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
    except OSError:
        continue
    finally:
        s.close()
    print(p)
    break
PY
)
  [ -n "$port" ] || fail "no free port in $base-$((base + 399))"
  export DG_SERVER_DIR="$TMP/servers" "$portvar=$port"
  CTL="$DG_SRC/scripts/servers/$script.sh"
  trap '"$CTL" clean >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
  for kv in "$@"; do # settings it starts with (no restart: a port just closed may linger)
    "$CTL" set "${kv%%=*}" "${kv#*=}" >/dev/null
  done
  "$CTL" start >/dev/null
  OWN_URL=$("$CTL" env | sed -n 's/^export DG_TEST_[A-Z]*_URL=//p') # other lines: other facts
  CTL_CMD="env DG_SERVER_DIR=$DG_SERVER_DIR $portvar=${!portvar} $CTL"
}

# check_conn_client_settings URL: the client's own settings mean the same with --conn as in
# the URL (URL with user:password@): a password and a connect timeout go to the client
# library, never to the server as session settings; a wrong one is refused, not shown
check_conn_client_settings() {
  local url=$1 nopw pw
  nopw=$(printf '%s' "$url" | sed -E 's#//([^:/@]+):[^@]*@#//\1@#')
  pw=$(printf '%s' "$url" | sed -nE 's#^[a-z]+://[^:/@]+:([^@]*)@.*#\1#p')
  [ "$nopw" != "$url" ] || fail "test URL has no password to take out: $url"
  "$DBGAUGE" run --db "$nopw" -w tpcb:select-only -t 3 -q --no-results --conn "password=$pw" \
    --conn connect_timeout=30 > /dev/null 2> "$TMP/err" || { cat "$TMP/err"; fail "--conn password/connect_timeout"; }
  expect_exit 1 "$DBGAUGE" run --db "$nopw" -w tpcb:select-only -t 1 -q --no-results --conn password=wrong-SECRET
  if grep -q SECRET "$TMP/out" "$TMP/err"; then fail "a --conn password was shown: $(cat "$TMP/err")"; fi
}
