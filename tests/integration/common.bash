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

# expect_exit CODE CMD...: runs CMD, checks its exit status.
expect_exit() {
  local want=$1; shift
  set +e; "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?; set -e
  [ "$got" = "$want" ] || { cat "$TMP/out" "$TMP/err" >&2; fail "'$*' exited $got, expected $want"; }
}
