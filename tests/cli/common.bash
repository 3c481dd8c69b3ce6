# common.bash - helpers of the CLI tests (sourced). No database server needed.
set -euo pipefail
: "${DBGAUGE:?run through ctest}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dgcli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
failures=0
checks=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [ "$failures" = 0 ]
}
