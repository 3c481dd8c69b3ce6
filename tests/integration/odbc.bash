# odbc.bash - helpers of the ODBC tests (sourced after common.bash): the same engines as the
# native tests, reached through Debian's ODBC drivers (scripts/deps.sh test installs them).
#
#   odbc_need DRIVER        skips (exit 77) when this dbgauge has no ODBC backend; fails
#                           unless unixODBC knows DRIVER (an installed driver's name, as
#                           `odbcinst -q -d` lists it)
#   odbc_from_url URL DRIVER  the odbc: URL of a postgres:// or mysql:// test URL
#   odbc_tpcb URL COUNT-CMD   loads tpcb at scale 1 through URL, runs 2 terminals for 3 s and
#                           checks the committed count against the history rows COUNT-CMD
#                           prints (exact) and the balance checks
#   odbc_server_figures ENGINE  the last odbc_tpcb's result names ENGINE (server.version's
#                           first word), shows the URL redacted, and has the server's cache
#                           hit ratio and database size
odbc_need() {
  "$DBGAUGE" list >"$TMP/list" 2>&1
  if grep -q "^  odbc .*not built" "$TMP/list"; then
    # a build without the backend (scripts/check's minimal one): nothing to test; the main
    # build asks for it with -DDG_WITH_ODBC=ON, which fails when unixodbc-dev is missing
    echo "skip: this dbgauge was built without the ODBC backend" >&2
    exit 77
  fi
  grep -q "^odbc drivers:.* $1\(,\|$\)" "$TMP/list" ||
    fail "the ODBC driver '$1' is not installed ($(grep '^odbc drivers' "$TMP/list"))"
}

odbc_from_url() {
  python3 - "$1" "$2" <<'PY'
import sys, urllib.parse as up
p = up.urlsplit(sys.argv[1])
attrs = ["DRIVER={%s}" % sys.argv[2], "SERVER=" + (p.hostname or "127.0.0.1")]
if p.port: attrs.append("PORT=%d" % p.port)
attrs.append("DATABASE=" + p.path.lstrip("/"))
if p.username: attrs.append("UID=" + up.unquote(p.username))
if p.password: attrs.append("PWD=" + up.unquote(p.password))
print("odbc:" + ";".join(attrs))
PY
}

odbc_tpcb() {
  local url=$1; shift
  "$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results
  "$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 3s --warmup 1s -P 1s --json "$TMP/tpcb.json" >"$TMP/tpcb.out" 2>&1 ||
    { cat "$TMP/tpcb.out" >&2; fail "tpcb through ODBC exited $?"; }
  local committed history
  committed=$(json "$TMP/tpcb.json" "d['totals']['transactions'] + d['warmup']['transactions'] + d['drain']['transactions']")
  history=$("$@")
  [ "$history" = "$committed" ] || fail "history rows $history != committed transactions $committed"
  [ "$committed" -gt 100 ] || fail "only $committed transactions through ODBC"
  [ "$(json "$TMP/tpcb.json" "d['run']['backend'], d['totals']['errors']")" = "odbc 0" ] ||
    fail "run.backend / errors: $(json "$TMP/tpcb.json" "d['run']['backend'], d['totals']['errors']")"
  "$DBGAUGE" check --db "$url" -w tpcb >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "check through ODBC"; }
  note "tpcb through ODBC: $committed committed = $history history rows"
}

odbc_server_figures() {
  python3 - "$TMP/tpcb.json" "$1" <<'PY' || fail "$1 through ODBC: the result's server figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["server"]["version"].split()[0] == sys.argv[2], d["server"]["version"]
assert "PWD=***" in d["run"]["db"], d["run"]["db"]
m = d["monitor"]
assert m["cache_hit_pct"] is not None and m["db_size_after_bytes"] > 1e6, m
PY
}
