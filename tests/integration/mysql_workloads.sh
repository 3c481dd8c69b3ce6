#!/usr/bin/env bash
# The workload body (workloads.bash) against mysql: tpcc load + run + check with exact row
# counts, a script workload with \gset and \if, and the loaded tables' options.
source "$(dirname "$0")/common.bash"
url=$(need_server mysql)
source "$(dirname "$0")/workloads.bash"

# Loaded tables recompute no statistics while loading (STATS_AUTO_RECALC=0 at CREATE); the
# load's ANALYZE step sets every one back to the server's default.
"$DBGAUGE" load --db "$url" -w tpcc --scale 1 --drop -j 2 --seed 5 -q 2> "$TMP/load.err" > /dev/null \
  || { cat "$TMP/load.err"; fail "tpcc load"; }
left=$(db_count "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = database() AND lower(create_options) LIKE '%stats_auto_recalc%'")
[ "$left" = 0 ] || fail "$left tables keep STATS_AUTO_RECALC after the load"
# units that collide on an empty table (InnoDB's bulk insert locks it whole) run again
if grep -q "running it again" "$TMP/load.err"; then note "$(grep -c 'running it again' "$TMP/load.err") load unit(s) ran again after a deadlock"; fi
