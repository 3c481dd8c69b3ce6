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
