# firebird.bash - helpers of the Firebird integration tests (sourced after common.bash).
#
#   fb_url                 the test server's URL (DG_TEST_FIREBIRD_URL), or skip/fail
#   fbsql SQL              runs SQL with isql-fb on that database; prints the values of the
#                          result rows, one per line, blanks trimmed
#   fb_own_server          true when scripts/servers/firebird.sh runs that very server (so
#                          a test may stop and start it)
#   FB_SERVER              the server script
FB_SERVER="$DG_SRC/scripts/servers/firebird.sh"

fb_url() {
  FB_URL=$(need_server firebird)
  # firebird://USER:PASS@HOST:PORT/PATH (PATH is /abs/file.fdb or an alias)
  if [[ $FB_URL =~ ^firebird://([^:@/]+):([^@/]*)@([^:/]+)(:([0-9]+))?/([^?]*) ]]; then
    FB_USER=${BASH_REMATCH[1]}
    FB_PASS=${BASH_REMATCH[2]}
    FB_HOST=${BASH_REMATCH[3]}
    FB_PORT=${BASH_REMATCH[5]:-3050}
    FB_PATH=${BASH_REMATCH[6]}
  else
    fail "DG_TEST_FIREBIRD_URL must look like firebird://user:pass@host:port//abs/path.fdb"
  fi
  FB_ISQL=$(command -v isql-fb || command -v isql || true)
  [ -n "$FB_ISQL" ] || fail "isql-fb not found (scripts/deps.sh test installs firebird3.0-utils)"
}

fbsql() {
  printf 'SET HEADING OFF;\n%s\n' "$1" |
    "$FB_ISQL" -q -bail -user "$FB_USER" -password "$FB_PASS" "$FB_HOST/$FB_PORT:$FB_PATH" |
    awk 'NF { $1 = $1; print }'
}

fb_own_server() {
  # read whole, then searched: `env | grep -q` would end env early (SIGPIPE) under pipefail
  local env
  [ -x "$FB_SERVER" ] && env=$("$FB_SERVER" env 2>/dev/null) &&
    grep -qxF "export DG_TEST_FIREBIRD_URL=$FB_URL" <<<"$env"
}
