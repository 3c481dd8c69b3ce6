# workloads.bash - one body of workload tests run against every server (sourced after
# common.bash with $url set): the built-in tpcc and a script workload with \gset and \if
# must run unchanged on every database, with counts that match the rows written.
#
# Row counts are read through dbgauge itself (a one-line script whose debug() prints the
# value), so the body needs no database-specific client.

# db_count SQL: the integer the query returns
db_count() {
  printf '%s \\gset\n\\set n debug(:n)\n' "$1" > "$TMP/count.sql"
  "$DBGAUGE" run --db "$url" -f "$TMP/count.sql" -t 1 -q --no-results 2>&1 >/dev/null |
    sed -n 's/^debug(.*): int \(-\{0,1\}[0-9]*\)$/\1/p'
}

# tpcc scale 1: load, run 2 terminals, New-Orders committed (minus business rollbacks)
# equal the orders added, payments equal the history rows added, and check passes
"$DBGAUGE" load --db "$url" -w tpcc --scale 1 --drop -j 2 --seed 5 -q > /dev/null
orders0=$(db_count "SELECT count(*) AS n FROM orders")
hist0=$(db_count "SELECT count(*) AS n FROM history")
[ "$orders0" = 30000 ] || fail "tpcc load: $orders0 orders, expected 30000"
"$DBGAUGE" run --db "$url" -w tpcc -c 2 -T "${TPCC_SECONDS:-8s}" -P 2s -q --json "$TMP/tpcc.json" > /dev/null
orders1=$(db_count "SELECT count(*) AS n FROM orders")
hist1=$(db_count "SELECT count(*) AS n FROM history")
# counted: the measured phase and the drain (transactions in flight at the end)
no=$(json "$TMP/tpcc.json" "[t['count'] - t['rollbacks'] for t in d['transactions'] if t['name'] == 'new_order'][0] + d['drain']['by_transaction']['new_order']['count'] - d['drain']['by_transaction']['new_order']['rollbacks']")
pay=$(json "$TMP/tpcc.json" "[t['count'] for t in d['transactions'] if t['name'] == 'payment'][0] + d['drain']['by_transaction']['payment']['count']")
unknown=$(json "$TMP/tpcc.json" "d['totals']['unknown_outcome'] + d['drain']['unknown_outcome']")
note "tpcc: new orders $no, orders added $((orders1 - orders0)); payments $pay, history added $((hist1 - hist0))"
[ "$unknown" = 0 ] || fail "unknown commit outcomes on a healthy server"
[ $((orders1 - orders0)) = "$no" ] || fail "orders added $((orders1 - orders0)) != committed New-Orders $no"
[ $((hist1 - hist0)) = "$pay" ] || fail "history added $((hist1 - hist0)) != committed Payments $pay"
[ "$no" -gt 10 ] || fail "too few New-Orders: $no"
json "$TMP/tpcc.json" "d['workload_metrics']['tpmC'] > 0 and d['run']['complete']" | grep -q True || fail "tpcc result"
"$DBGAUGE" check --db "$url" -w tpcc > "$TMP/check.out" || { cat "$TMP/check.out"; fail "tpcc check"; }

# tpcc as stored procedures (--wl-opt procedures=1), one call a transaction (every server
# dbgauge has procedures for): 3 terminals (Deliveries race), the same exact counts (a
# rolled-back New-Order adds no order), the run labelled, the check passes
backend=$(json "$TMP/tpcc.json" "d['run']['backend']")
routines="SELECT count(*) AS n FROM information_schema.routines WHERE routine_name LIKE 'dg_tpcc%'"
[ "$backend" = firebird ] && routines="SELECT count(*) AS n FROM rdb\$procedures WHERE rdb\$procedure_name STARTING WITH 'DG_TPCC'"
case "$backend" in
postgres|mysql|firebird)
  orders0=$(db_count "SELECT count(*) AS n FROM orders")
  hist0=$(db_count "SELECT count(*) AS n FROM history")
  "$DBGAUGE" run --db "$url" -w tpcc --wl-opt procedures=1 -c 3 -T "${TPCC_SECONDS:-8s}" -P 2s -q --json "$TMP/tpccp.json" > /dev/null
  orders1=$(db_count "SELECT count(*) AS n FROM orders")
  hist1=$(db_count "SELECT count(*) AS n FROM history")
  no=$(json "$TMP/tpccp.json" "[t['count'] - t['rollbacks'] for t in d['transactions'] if t['name'] == 'new_order'][0] + d['drain']['by_transaction']['new_order']['count'] - d['drain']['by_transaction']['new_order']['rollbacks']")
  pay=$(json "$TMP/tpccp.json" "[t['count'] for t in d['transactions'] if t['name'] == 'payment'][0] + d['drain']['by_transaction']['payment']['count']")
  note "tpcc procedures: new orders $no, orders added $((orders1 - orders0)); payments $pay, history added $((hist1 - hist0)); $(json "$TMP/tpccp.json" "d['totals']['tps']") tps"
  # errors: only conflicts that outlived their retries (Firebird's update conflicts on
  # the one warehouse row, as with statements)
  json "$TMP/tpccp.json" "d['run']['execution'] == 'procedures' and all(e['class'] == 'retry' for e in d['errors']) and d['totals']['unknown_outcome'] == 0 and d['workload_metrics']['tpmC'] > 0 and all(t['count'] > 0 for t in d['transactions'])" | grep -q True || fail "tpcc procedures run: $(json "$TMP/tpccp.json" "d['run'], d['totals']")"
  json "$TMP/tpcc.json" "'execution' not in d['run'] and d['run']['workload_hash'] != '$(json "$TMP/tpccp.json" "d['run']['workload_hash']")'" | grep -q True || fail "the statement run is labelled like the procedures run"
  [ $((orders1 - orders0)) = "$no" ] || fail "procedures: orders added $((orders1 - orders0)) != committed New-Orders $no"
  [ $((hist1 - hist0)) = "$pay" ] || fail "procedures: history added $((hist1 - hist0)) != committed Payments $pay"
  [ "$(db_count "$routines")" = 0 ] || fail "the run left its procedures behind"
  "$DBGAUGE" check --db "$url" -w tpcc > "$TMP/check.out" || { cat "$TMP/check.out"; fail "tpcc check after the procedures"; }
  ;;
*)
  expect_exit 1 "$DBGAUGE" run --db "$url" -w tpcc --wl-opt procedures=1 -t 1 -q --no-results
  grep -q "dbgauge has no stored procedures for $backend (this build has them for " "$TMP/err" || { cat "$TMP/err"; fail "procedures refusal"; }
  ;;
esac

# a script workload with \gset and \if, read-only on the tpcc tables
cat > "$TMP/district.sql" <<'SQL'
\set d random(1, 10)
SELECT d_next_o_id AS next, d_w_id AS w FROM district WHERE d_w_id = 1 AND d_id = :d \gset
\if :next > 3000
  SELECT count(*) AS recent FROM orders WHERE o_w_id = :w AND o_d_id = :d AND o_id >= 3000 \gset
  \set ok debug(:recent >= 0)
\elif :next = 3001
  \set ok debug(1)
\else
  SELECT o_id FROM orders WHERE o_w_id = :w AND o_d_id = :d AND o_id = -1;
\endif
SQL
"$DBGAUGE" run --db "$url" -f "$TMP/district.sql" -t 25 -c 2 -q --json "$TMP/script.json" > /dev/null 2> "$TMP/script.err"
json "$TMP/script.json" "d['totals']['transactions'] == 50 and d['totals']['errors'] == 0" | grep -q True || fail "script workload"
[ "$(grep -c 'debug(.*): boolean true\|debug(.*): int 1' "$TMP/script.err")" = 50 ] || { head "$TMP/script.err"; fail "script branches"; }

# tables: 4 tables of 4,000 rows in all (2 jobs): exact rows per table; a mixed run whose
# selects all find their rows (no errors) and whose inserts are exactly the rows added; a
# second insert run takes fresh keys; the check passes
"$DBGAUGE" load --db "$url" -w tables --tables 4 --rows 4000 --drop -j 2 --seed 3 -q > /dev/null
for t in 200 201 202 203; do
  [ "$(db_count "SELECT count(*) AS n FROM tbl_$t")" = 1000 ] || fail "tables load: tbl_$t"
done
tables_rows() { db_count "SELECT count(*) AS n FROM (SELECT id FROM tbl_200 UNION ALL SELECT id FROM tbl_201 UNION ALL SELECT id FROM tbl_202 UNION ALL SELECT id FROM tbl_203) u"; }
r0=$(tables_rows)
"$DBGAUGE" run --db "$url" -w tables -c 2 -T 3s -P 1s -q --json "$TMP/tables.json" > /dev/null
"$DBGAUGE" run --db "$url" -w tables:insert -c 2 -t 50 -q --json "$TMP/tables2.json" > /dev/null
r1=$(tables_rows)
ins=$(json "$TMP/tables.json" "[t['count'] for t in d['transactions'] if t['name'] == 'insert'][0] + d['drain']['by_transaction']['insert']['count']")
sel=$(json "$TMP/tables.json" "[t['count'] for t in d['transactions'] if t['name'] == 'select'][0]")
note "tables: $ins + 100 inserts, $sel selects; rows added $((r1 - r0))"
json "$TMP/tables.json" "d['totals']['errors'] == 0 and d['totals']['unknown_outcome'] == 0 and d['workload_metrics']['select_ind1_p99_ms'] > 0" | grep -q True || fail "tables run"
json "$TMP/tables2.json" "d['totals']['errors'] == 0 and d['totals']['transactions'] == 100" | grep -q True || fail "second tables insert run"
[ "$sel" -gt 10 ] && [ "$ins" -gt 10 ] || fail "too few tables transactions: $ins inserts, $sel selects"
[ $((r1 - r0)) = $((ins + 100)) ] || fail "tables: rows added $((r1 - r0)) != inserts $((ins + 100))"
"$DBGAUGE" check --db "$url" -w tables > "$TMP/check.out" || { cat "$TMP/check.out"; fail "tables check"; }

# docs (TPoX-style XML): 120 customers, 600 orders, 400 securities loaded on 2 jobs; the
# side keys match their documents (check); each of the 17 transactions against the
# generator (dg_docs_tx); a mixed run whose inserts and deletes change the document counts
# by exactly what it reports, with no errors; the insert-only variant's figures
"$DBGAUGE" load --db "$url" -w docs --scale 0.0012 --wl-opt securities=400 --drop -j 2 --seed 6 -q > /dev/null
[ "$(db_count "SELECT count(*) AS n FROM orders")" = 600 ] || fail "docs load: orders"
[ "$(db_count "SELECT count(*) AS n FROM security")" = 400 ] || fail "docs load: securities"
"$DBGAUGE" check --db "$url" -w docs > "$TMP/check.out" || { cat "$TMP/check.out"; fail "docs check after load"; }
if [ -n "${DG_DOCS_TX:-}" ]; then
  "$DG_DOCS_TX" "$url" 6 > "$TMP/tx.out" || { cat "$TMP/tx.out"; fail "docs transactions"; }
fi
docs_counts() { echo "$(db_count "SELECT count(*) AS n FROM custacc") $(db_count "SELECT count(*) AS n FROM orders")"; }
read -r c0 o0 <<< "$(docs_counts)"
"$DBGAUGE" run --db "$url" -w docs -c 2 -T 4s -P 1s -q --json "$TMP/docs.json" > /dev/null
read -r c1 o1 <<< "$(docs_counts)"
dm() { json "$TMP/docs.json" "int(d['workload_metrics']['$1'])"; }
note "docs: $(json "$TMP/docs.json" "d['totals']['transactions']") transactions; customers $c0 -> $c1 (+$(dm custacc_inserted) -$(dm custacc_deleted)), orders $o0 -> $o1 (+$(dm orders_inserted) -$(dm orders_deleted))"
json "$TMP/docs.json" "d['totals']['errors'] == 0 and d['totals']['unknown_outcome'] == 0 and d['run']['storage'] == {'postgres': 'xml-type', 'mysql': 'text-extractvalue'}.get(d['run']['backend'], 'shredded-keys') and d['totals']['transactions'] > 100" | grep -q True || fail "docs run"
[ $((c1 - c0)) = $(( $(dm custacc_inserted) - $(dm custacc_deleted) )) ] || fail "docs: customers changed by $((c1 - c0))"
# the server runs here: the result file names the file system that holds its data
json "$TMP/docs.json" "d['host']['filesystem'] not in ('', None)" | grep -q True || fail "no disk for a local server: $(json "$TMP/docs.json" "d['host']")"
[ $((o1 - o0)) = $(( $(dm orders_inserted) - $(dm orders_deleted) )) ] || fail "docs: orders changed by $((o1 - o0))"
"$DBGAUGE" run --db "$url" -w docs:insert-only -c 2 -t 20 -q --json "$TMP/docsins.json" > /dev/null
json "$TMP/docsins.json" "(lambda w: w['custacc_inserted'] + w['orders_inserted'] == 40 and w['GB_per_h'] > 0 and d['totals']['errors'] == 0 and w['custacc_xml_bytes'] > 100000)(d['workload_metrics'])" | grep -q True || fail "docs insert-only"
# sizes on disk where the engine tells them in SQL (not Firebird's: gstat's)
json "$TMP/docsins.json" "(lambda w: (w['orders_disk_bytes'] or 0) > 0 or d['run']['backend'] == 'firebird')(d['workload_metrics'])" | grep -q True || fail "docs storage figures"
"$DBGAUGE" check --db "$url" -w docs > "$TMP/check.out" || { cat "$TMP/check.out"; fail "docs check after the runs"; }
