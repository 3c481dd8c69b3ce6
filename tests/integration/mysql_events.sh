#!/usr/bin/env bash
# The events engine on MariaDB (Connector/C's _start/_cont calls): the checks of
# events.bash on a throwaway server with max_connections raised.
source "$(dirname "$0")/common.bash"
need_server mysql >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without MariaDB
own_server mysql DG_MYSQL_PORT 32200 max_connections=400
url=$OWN_URL
source "$(dirname "$0")/mysql.bash"
TRUE=1
source "$(dirname "$0")/events.bash"
echo ok
