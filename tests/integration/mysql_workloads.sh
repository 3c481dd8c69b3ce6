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

# Delivery against orders committed while it runs: with the loaded new orders gone, each
# Delivery takes orders that New-Orders committed after its transaction's first plain
# read, and under REPEATABLE READ a plain read of such an order finds nothing ("order not
# found" aborted terminals in a CI run). The order is read with a lock (its latest
# version), through client statements and through the stored procedure alike.
printf 'DELETE FROM new_order;\n' > "$TMP/empty_no.sql"
"$DBGAUGE" run --db "$url" -f "$TMP/empty_no.sql" -t 1 -q --no-results > /dev/null 2>&1 || fail "emptying new_order"
[ "$(db_count "SELECT count(*) AS n FROM new_order")" = 0 ] || fail "new_order not emptied"
for procs in 0 1; do
  "$DBGAUGE" run --db "$url" -w tpcc --wl-opt procedures=$procs -c 8 -T 4s \
    --mix new_order=50,payment=0,order_status=0,delivery=50,stock_level=0 -q \
    --json "$TMP/race$procs.json" > "$TMP/race$procs.out" 2>&1 \
    || { cat "$TMP/race$procs.out"; fail "Delivery racing New-Orders (procedures=$procs)"; }
  json "$TMP/race$procs.json" "d['run']['complete'] and d['totals']['errors'] == 0 and d['run']['aborted_terminals'] == 0" | grep -q True \
    || { cat "$TMP/race$procs.out"; fail "Delivery racing New-Orders (procedures=$procs): $(json "$TMP/race$procs.json" "d['totals']")"; }
  note "Delivery racing New-Orders, procedures=$procs: $(json "$TMP/race$procs.json" "d['totals']['transactions']") transactions, none failed"
done
