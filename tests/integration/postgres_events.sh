#!/usr/bin/env bash
# The events engine on PostgreSQL (libpq's non-blocking mode): the checks of events.bash
# on a throwaway server with max_connections raised.
source "$(dirname "$0")/common.bash"
need_server postgres >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without PostgreSQL
command -v psql >/dev/null || fail "psql not found"
own_server postgres DG_PG_PORT 31800 max_connections=400
url=$OWN_URL
q() { psql "$url" -XAtq -c "$1"; }
TRUE=t
source "$(dirname "$0")/events.bash"
echo ok
