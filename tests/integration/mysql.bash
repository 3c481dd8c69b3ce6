# mysql.bash - the mariadb command-line client for the MariaDB integration tests (sourced
# with $url set): q QUERY prints the result rows, tab-separated, no headers.
command -v mariadb >/dev/null || command -v mysql >/dev/null || fail "no mariadb/mysql client"
client=$(command -v mariadb || command -v mysql)
# the client's arguments for the test URL
mapfile -t MYARGS < <(python3 - "$url" <<'PY'
import sys, urllib.parse as up
p = up.urlsplit(sys.argv[1])
q = dict(up.parse_qsl(p.query))
print("--no-defaults")
if p.username: print("--user=" + up.unquote(p.username))
if p.password: print("--password=" + up.unquote(p.password))
if "socket" in q: print("--socket=" + q["socket"])
else:
    print("--host=" + (p.hostname or "localhost"))
    if p.port: print("--port=%d" % p.port)
print("--database=" + p.path.lstrip("/"))
PY
)
q() { "$client" "${MYARGS[@]}" -N -B -e "$1"; }
