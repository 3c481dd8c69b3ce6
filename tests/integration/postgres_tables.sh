#!/usr/bin/env bash
# The tables workload's two select regimes on PostgreSQL, as the study means them: on a
# database about three times the buffer cache (a throwaway cluster of this test with
# shared_buffers = 16MB, next to the shared test server), selects over the hot key range
# (the first 1% of ids) are served from the cache, selects over all keys are not: the hot
# run's cache hit ratio is higher and its physical reads per transaction lower.
source "$(dirname "$0")/common.bash"
need_server postgres >/dev/null # skip (or fail under DG_REQUIRE_SERVERS) without PostgreSQL
# its own port below the ephemeral range: a port next to the shared server's (54330 ...)
# may be the source port of any client connection open at that moment
own_server postgres DG_PG_PORT 30000 shared_buffers=16MB
small=$OWN_URL

"$DBGAUGE" load --db "$small" -w tables --rows 40000 --seed 2 -q > /dev/null
"$DBGAUGE" run --db "$small" -w tables:select --key-range hot -c 2 -T 3s -P 1s -q --json "$TMP/hot.json" > /dev/null
"$DBGAUGE" run --db "$small" -w tables:select --key-range all -c 2 -T 3s -P 1s -q --json "$TMP/all.json" > /dev/null
fig() { json "$1" "d['monitor']['$2']"; }
note "buffers $(json "$TMP/all.json" "d['server']['settings']['shared_buffers']"), database $(json "$TMP/all.json" "round(d['monitor']['db_size_after_bytes'] / 1e6)") MB"
note "hot: cache hits $(fig "$TMP/hot.json" cache_hit_pct)%, physical reads/tx $(fig "$TMP/hot.json" physical_reads_per_tx), tps $(json "$TMP/hot.json" "d['totals']['tps']")"
note "all: cache hits $(fig "$TMP/all.json" cache_hit_pct)%, physical reads/tx $(fig "$TMP/all.json" physical_reads_per_tx), tps $(json "$TMP/all.json" "d['totals']['tps']")"
for f in hot all; do
  json "$TMP/$f.json" "d['totals']['errors'] == 0 and d['totals']['transactions'] > 100" | grep -q True || fail "$f run"
done
python3 - "$TMP/hot.json" "$TMP/all.json" <<'PY' || fail "the key ranges did not make a CPU-bound and an I/O-bound run"
import json, sys
hot, all_ = (json.load(open(p))['monitor'] for p in sys.argv[1:])
assert hot['cache_hit_pct'] > 98, hot['cache_hit_pct']
assert all_['cache_hit_pct'] < hot['cache_hit_pct'] - 5, (hot['cache_hit_pct'], all_['cache_hit_pct'])
assert all_['physical_reads_per_tx'] > 5 * hot['physical_reads_per_tx'] + 0.1, (hot['physical_reads_per_tx'], all_['physical_reads_per_tx'])
PY
"$CTL" stop >/dev/null
echo "1 passed, 0 failed"
