#!/usr/bin/env bash
# The workload body (workloads.bash) against postgres: tpcc load + run + check with exact row
# counts, a script workload with \gset and \if, and binary against text COPY.
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
source "$(dirname "$0")/workloads.bash"

# The bulk path's binary COPY and ?copy=text load the same rows (tpcc: numerics, fixed and
# variable text, timestamps; timestamps are the load's time, so they are left out).
pg_dump_rows() {
  local t
  for t in warehouse district customer history orders new_order order_line item stock; do
    psql "$url" -XAtq -c "COPY (SELECT * FROM $t) TO STDOUT" | sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}/TS/g' | sort | md5sum
  done
}
for f in binary text; do
  "$DBGAUGE" load --db "$url?copy=$f" -w tpcc --scale 1 --drop --seed 5 -j 2 -q
  pg_dump_rows > "$TMP/rows.$f"
done
cmp -s "$TMP/rows.binary" "$TMP/rows.text" || fail "binary and text COPY loaded different rows: $(diff "$TMP/rows.binary" "$TMP/rows.text")"
note "tpcc scale 1: binary and text COPY loaded the same rows"

# docs with --wl-opt storage=shredded-keys on PostgreSQL: text documents, everything on
# the client, every transaction still right; a run asking for the other storage is refused
"$DBGAUGE" load --db "$url" -w docs --scale 0.0004 --wl-opt securities=300 --wl-opt storage=shredded-keys --drop --seed 7 -q > /dev/null
[ "$(psql "$url" -XAtqc "SELECT data_type FROM information_schema.columns WHERE table_name = 'custacc' AND column_name = 'doc'")" = text ] || fail "shredded-keys: doc is not text"
if [ -n "${DG_DOCS_TX:-}" ]; then
  "$DG_DOCS_TX" "$url" 7 > "$TMP/tx.out" || { cat "$TMP/tx.out"; fail "docs transactions, shredded-keys"; }
fi
expect_exit 1 "$DBGAUGE" run --db "$url" -w docs --wl-opt storage=xml-type -t 1 -q --no-results
grep -q "stored as shredded-keys, not the xml-type" "$TMP/err" || { cat "$TMP/err"; fail "storage mismatch"; }
"$DBGAUGE" load --db "$url" -w docs --scale 0.0004 --wl-opt securities=300 --drop --seed 7 -q > /dev/null
[ "$(psql "$url" -XAtqc "SELECT data_type FROM information_schema.columns WHERE table_name = 'custacc' AND column_name = 'doc'")" = xml ] || fail "native storage: doc is not xml"
note "docs: shredded-keys and xml-type storage on PostgreSQL"
