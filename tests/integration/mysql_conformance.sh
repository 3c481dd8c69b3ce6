#!/usr/bin/env bash
# The backend conformance body against MariaDB/MySQL (DG_TEST_MYSQL_URL; scripts/check
# starts the server with scripts/servers/mysql.sh), then the bulk-load checks again over
# the multi-row INSERT path (?local_infile=0), which servers without local_infile get.
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
"$DG_CONFORMANCE" "$url"
case "$url" in *\?*) sep='&' ;; *) sep='?' ;; esac
"$DG_CONFORMANCE" "$url${sep}local_infile=0" test_bulk_and_stats
