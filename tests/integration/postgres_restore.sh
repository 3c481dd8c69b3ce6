#!/usr/bin/env bash
# dbgauge restore with pg_restore and psql: a custom-format dump (pg_dump -Fc) of the
# tpcb tables plus an extra index, restored into an empty database of its own by
# `dbgauge restore -- pg_restore --verbose -d DB DUMP` with the password only in the URL
# (pg_restore gets it from PGPASSWORD): a step per table's data, per primary key and per
# index; the growth is the database's size change as the test reads it; the recorded
# command holds no password. Then the same with -j 2 (items side by side), a plain dump
# through psql -f, and a restore that fails (exit 1 with pg_restore's message, a result
# marked failed).
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
server="$DG_SRC/scripts/servers/postgres.sh"
env_out=$("$server" env 2>/dev/null || true)
if ! grep -qxF "export DG_TEST_POSTGRES_URL=$url" <<<"$env_out"; then
  # a database of its own takes the superuser, which only the test server's script has
  [ "${DG_REQUIRE_SERVERS:-0}" = 1 ] && fail "the PostgreSQL test server is not scripts/servers/postgres.sh's"
  echo "skip: not the scripts/servers/postgres.sh server" >&2
  exit 77
fi
db=dgtest_restore
rurl=${url%/*}/$db
export PGCONNECT_TIMEOUT=10
q() { psql "$1" -XAtq -v ON_ERROR_STOP=1 -c "$2"; }
fresh_db() {
  "$server" admin "DROP DATABASE IF EXISTS $db" >/dev/null
  "$server" admin "CREATE DATABASE $db OWNER dbgauge" >/dev/null
}
trap '"$server" admin "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT

"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -q --no-results
q "$url" "CREATE INDEX dgtest_acc_bid ON pgbench_accounts (bid)"
pg_dump -Fc -f "$TMP/dump.fc" -t 'pgbench_*' "$url"
pg_dump -f "$TMP/dump.sql" -t 'pgbench_*' "$url"
q "$url" "DROP INDEX dgtest_acc_bid"
pw=$(python3 -c "import sys, urllib.parse as u; print(u.urlsplit(sys.argv[1]).password or '')" "$url")
[ -n "$pw" ] || fail "the test URL has no password"

# the restore, as DBAs run it
fresh_db
before=$(q "$rurl" "SELECT pg_database_size(current_database())")
env -u PGPASSWORD "$DBGAUGE" restore --db "$rurl" --json "$TMP/r.json" -- pg_restore --verbose -d "$db" "$TMP/dump.fc" \
  >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "dbgauge restore with pg_restore exited $?"; }
after=$(q "$rurl" "SELECT pg_database_size(current_database())")
python3 - "$TMP/r.json" "$before" "$after" "$pw" <<'PY' || fail "the pg_restore result file"
import json, sys
d = json.load(open(sys.argv[1]))
before, after, pw = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
assert d["kind"] == "load" and d["run"]["complete"] is True and d["run"]["backend"] == "postgres", d["run"]
l = d["load"]
r = l["restore"]
assert r["tool"] == "pg_restore" and r["exit_status"] == 0, r
assert r["steps_from"] == "the times its lines arrived", r
assert all(pw not in a for a in r["command"]) and pw not in d["run"]["restore_command"], r["command"]
steps = {s["name"]: s for s in l["steps"]}
for t in ("pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history"):
    s = steps["public." + t]
    assert s["kind"] == "table" and s["seconds"] >= 0 and s["elapsed_s"] <= l["seconds"] + 1e-6, s
    assert steps["TABLE public." + t]["kind"] == "ddl"
    if t != "pgbench_history":
        assert steps["CONSTRAINT public.%s %s_pkey" % (t, t)]["kind"] == "constraint", t
assert steps["INDEX public.dgtest_acc_bid"]["kind"] == "index", steps.keys()
# the growth: the database's size change (its size read again right after: the same,
# give or take what the server writes on its own)
assert l["bytes_measure"] == "growth", l["bytes_measure"]
assert abs(l["bytes"] - (after - before)) <= 0.02 * (after - before), (l["bytes"], after - before)
assert r["size_before_bytes"] == before or abs(r["size_before_bytes"] - before) <= 65536, (r, before)
assert l["db_size_bytes"] > 0 and l["mb_per_s"] > 0, l
# the server is on this machine: its host's figures, per second and for the whole restore
sh = l["server_host"]
assert sh["source"] == "local" and sh["status"] == "ok" and sh["server_procs"] >= 1, sh
assert all(t["server_host"]["status"] in ("ok", "late") for t in l["timeline"]), l["timeline"]
rows = {o["name"]: o for o in l["objects"] if o["kind"] == "table"}
assert "pgbench_accounts" in rows and rows["pgbench_accounts"]["bytes"] > 1e6, rows
print("ok: pg_restore: %d steps, grew %.1f MB (the server says %.1f MB)"
      % (len(l["steps"]), l["bytes"] / 1e6, (after - before) / 1e6))
PY
[ "$(q "$rurl" "SELECT count(*) FROM pgbench_accounts")" = 100000 ] || fail "the restored table is not whole"

# -j 2: items side by side, from "launching item" to "finished item"
fresh_db
env -u PGPASSWORD "$DBGAUGE" restore --db "$rurl" --json "$TMP/j.json" -- pg_restore --verbose -j 2 -d "$db" "$TMP/dump.fc" \
  >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "pg_restore -j 2 exited $?"; }
python3 - "$TMP/j.json" <<'PY' || fail "the pg_restore -j 2 result file"
import json, sys
l = json.load(open(sys.argv[1]))["load"]
names = [s["name"] for s in l["steps"]]
for t in ("pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history"):
    assert names.count("TABLE DATA " + t) == 1, names
assert "INDEX dgtest_acc_bid" in names, names
assert not any(n.startswith("public.") for n in names), names  # the workers' own lines are no steps
print("ok: pg_restore -j 2: %d steps" % len(names))
PY

# a plain dump through psql: the command tags
fresh_db
env -u PGPASSWORD "$DBGAUGE" restore --db "$rurl" --json "$TMP/p.json" -- psql -X -v ON_ERROR_STOP=1 -f "$TMP/dump.sql" \
  >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "psql -f exited $?"; }
[ "$(json "$TMP/p.json" "sorted(s['rows'] for s in d['load']['steps'] if s['name'].startswith('COPY'))")" = "[0, 1, 10, 100000]" ] ||
  fail "psql's COPY steps: $(json "$TMP/p.json" "[s['name'] for s in d['load']['steps']]")"

# a restore that fails: pg_restore's message, exit 1, a result marked failed
set +e
env -u PGPASSWORD "$DBGAUGE" restore --db "$rurl" --json "$TMP/f.json" -- pg_restore --verbose -d "$db" "$TMP/missing.fc" \
  >"$TMP/out" 2>"$TMP/err"
got=$?
set -e
[ "$got" = 1 ] || { cat "$TMP/err" >&2; fail "a failing pg_restore exited $got, expected 1"; }
grep -q "missing.fc" "$TMP/err" || fail "pg_restore's message is not shown: $(cat "$TMP/err")"
[ "$(json "$TMP/f.json" "d['run']['complete'], d['load']['restore']['exit_status']")" = "False 1" ] ||
  fail "the failed restore's result file is not marked failed"
! grep -qF ":$pw@" "$TMP"/*.json "$TMP/out" "$TMP/err" || fail "the password is in an output"
echo "ok: pg_restore (serial and -j 2) and psql -f timed with their steps; a failed restore exits 1"
