#!/usr/bin/env bash
# One run split over processes (--part K/N) on SQLite: two parts run side by side, each
# its share of -c (terminals numbered run-wide, the header and the result say which), the
# tables workload's inserts from both parts never take the same key (every insert lands,
# the tables grow by exactly the sum), tpcc's parts keep to their own range of home
# warehouses (a part run alone writes orders to its warehouses only), --rate is shared
# like the terminals, --part auto reads each launcher's variables, and what a part cannot
# do is refused before anything runs (exit 1, no result file). --start-at: parts started
# apart measure from one wall-clock time (never before it); a time past is refused.
source "$(dirname "$0")/common.bash" || exit 1
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 shell not installed" >&2; exit 77; }
q() { sqlite3 "$1" "$2"; }

# ---- tables: two parts inserting at once -------------------------------------------------
A="$TMP/a.db"
"$DBGAUGE" load --db "sqlite:$A" -w tables --tables 3 --rows 3000 --seed 4 -q --no-results > /dev/null
rows() { q "$A" "SELECT (SELECT count(*) FROM tbl_200) + (SELECT count(*) FROM tbl_201) + (SELECT count(*) FROM tbl_202)"; }
before=$(rows)
for k in 0 1; do
  "$DBGAUGE" run --db "sqlite:$A" -w tables:insert -c 5 -t 40 --part $k/2 --seed 9 \
    --json "$TMP/ins$k.json" > "$TMP/ins$k.out" 2> "$TMP/ins$k.err" &
  eval "pid$k=\$!"
done
wait "$pid0" || { cat "$TMP/ins0.out" "$TMP/ins0.err"; fail "part 0/2 failed"; }
wait "$pid1" || { cat "$TMP/ins1.out" "$TMP/ins1.err"; fail "part 1/2 failed"; }
after=$(rows)
grep -q "part 0/2 (--part): terminals 1-3 of 5" "$TMP/ins0.out" || { head -1 "$TMP/ins0.out"; fail "part 0's header"; }
grep -q "part 1/2 (--part): terminals 4-5 of 5" "$TMP/ins1.out" || { head -1 "$TMP/ins1.out"; fail "part 1's header"; }
json "$TMP/ins0.json" "d['run']['terminals'] == 3 and d['run']['part'] == {'index': 0, 'count': 2, 'from': '--part', 'first_terminal': 0, 'whole_terminals': 5}" \
  | grep -q True || fail "part 0's record: $(json "$TMP/ins0.json" "(d['run']['terminals'], d['run'].get('part'))")"
json "$TMP/ins1.json" "d['run']['terminals'] == 2 and d['run']['part'] == {'index': 1, 'count': 2, 'from': '--part', 'first_terminal': 3, 'whole_terminals': 5}" \
  | grep -q True || fail "part 1's record: $(json "$TMP/ins1.json" "(d['run']['terminals'], d['run'].get('part'))")"
ins0=$(json "$TMP/ins0.json" "int(d['workload_metrics']['rows_inserted'])")
ins1=$(json "$TMP/ins1.json" "int(d['workload_metrics']['rows_inserted'])")
errs=$(json "$TMP/ins0.json" "d['totals']['errors']")+$(json "$TMP/ins1.json" "d['totals']['errors']")
note "two parts inserted $ins0 + $ins1 rows (errors $errs); the tables grew by $((after - before))"
[ "$ins0" = 120 ] && [ "$ins1" = 80 ] || fail "3 x 40 and 2 x 40 inserts reported $ins0 and $ins1"
[ "$errs" = "0+0" ] || fail "errors in the parts (a key taken twice?): $errs"
[ $((after - before)) = 200 ] || fail "the tables grew by $((after - before)), the parts inserted 200"
"$DBGAUGE" check --db "sqlite:$A" -w tables -q > "$TMP/check.out" || { cat "$TMP/check.out"; fail "check after the parts' inserts"; }

# every interval's per-type histograms (HdrHistogram V2 compressed, decoded here from the
# format's description) hold exactly the interval's transactions of that type
hdr_check() { # FILE
  HDR_PY="$DG_SRC/tests/integration" python3 - "$1" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["HDR_PY"])
from hdr_decode import counts as buckets
def counts(b64):
    return sum(buckets(b64).values())
d = json.load(open(sys.argv[1]))
for iv in d["intervals"]:
    h = iv["histograms"]
    for name, n in iv["tx"].items():
        got = counts(h[name]) if name in h else 0
        assert got == n, (iv["t_s"], name, got, n)
print(sum(len(iv["histograms"]) for iv in d["intervals"]))
PY
}
for k in 0 1; do
  nh=$(hdr_check "$TMP/ins$k.json") || fail "part $k/2: interval histograms do not hold the interval's transactions"
  [ "$nh" -gt 0 ] || fail "part $k/2: no interval histograms"
done

# ---- tpcc: a part's home warehouses ------------------------------------------------------
C="$TMP/c.db"
"$DBGAUGE" load --db "sqlite:$C" -w tpcc --scale 2 --seed 3 -q --no-results > /dev/null
orders() { q "$C" "SELECT group_concat(n, ' ') FROM (SELECT count(*) n FROM orders GROUP BY o_w_id ORDER BY o_w_id)"; }
only_new_order=new_order=1,payment=0,order_status=0,delivery=0,stock_level=0
# new orders a part committed (a New-Order rolled back, 1%, writes none)
placed() { json "$1" "[t['count'] - t['rollbacks'] for t in d['transactions'] if t['name'] == 'new_order'][0]"; }
o0=$(orders)
"$DBGAUGE" run --db "sqlite:$C" -w tpcc --mix $only_new_order -c 4 -t 10 --part 1/2 --seed 5 -q \
  --json "$TMP/c1.json" > /dev/null
o1=$(orders)
"$DBGAUGE" run --db "sqlite:$C" -w tpcc --mix $only_new_order -c 4 -t 10 --part 0/2 --seed 5 -q \
  --json "$TMP/c0.json" > /dev/null
o2=$(orders)
n1=$(placed "$TMP/c1.json")
n0=$(placed "$TMP/c0.json")
note "orders per warehouse: $o0, after part 1/2 ($n1 placed): $o1, after part 0/2 ($n0 placed): $o2"
[ "$n1" -gt 0 ] && [ "$n0" -gt 0 ] || fail "no new orders placed"
set -- $o0; w1=$1 w2=$2
set -- $o1; [ "$1" = "$w1" ] && [ "$2" = $((w2 + n1)) ] || fail "part 1/2 (warehouse 2) wrote orders $o0 -> $o1"
set -- $o2; [ "$1" = $((w1 + n0)) ] && [ "$2" = $((w2 + n1)) ] || fail "part 0/2 (warehouse 1) wrote orders $o1 -> $o2"
expect_exit 1 "$DBGAUGE" run --db "sqlite:$C" -w tpcc -c 4 -t 1 --part 0/3 --seed 5 -q --json "$TMP/no.json"
grep -q "3 parts need at least 3 warehouses" "$TMP/err" || { cat "$TMP/err"; fail "3 parts of 2 warehouses"; }

# ---- the rate is shared like the terminals -----------------------------------------------
"$DBGAUGE" run --db "sqlite:$C" -w tpcc -c 3 -T 1s -R 30 --part 0/2 --seed 5 --json "$TMP/r.json" > "$TMP/r.out"
json "$TMP/r.json" "d['run']['rate_tps'] == 20 and d['run']['terminals'] == 2" | grep -q True \
  || fail "part 0/2 of -c 3 -R 30: $(json "$TMP/r.json" "(d['run']['rate_tps'], d['run']['terminals'])")"
grep -q "rate 20.0 of 30.0 tps" "$TMP/r.out" || { head -1 "$TMP/r.out"; fail "the header does not show the rate's share"; }

# ---- --start-at: parts started apart measure from one wall-clock time ----------------------
at=$(date -u -d '+5 seconds' +%Y-%m-%dT%H:%M:%SZ) # room to connect on a busy machine
for k in 0 1; do
  "$DBGAUGE" run --db "sqlite:$C" -w tpcc -c 2 -T 2s -P 1s --part $k/2 --seed 5 --start-at "$at" \
    --json "$TMP/at$k.json" > "$TMP/at$k.out" 2> "$TMP/at$k.err" &
  eval "pid$k=\$!"
done
wait "$pid0" || { cat "$TMP/at0.out" "$TMP/at0.err"; fail "part 0/2 with --start-at failed"; }
wait "$pid1" || { cat "$TMP/at1.out" "$TMP/at1.err"; fail "part 1/2 with --start-at failed"; }
for k in 0 1; do
  grep -q "measuring from $at" "$TMP/at$k.out" || { head -1 "$TMP/at$k.out"; fail "part $k's header lacks the start time"; }
  late=$(json "$TMP/at$k.json" "d['run']['start_late_ms']")
  note "part $k/2: measured from $at, $late ms late"
  json "$TMP/at$k.json" "d['run']['start_at'] == '$at' and 0 <= d['run']['start_late_ms'] < 2000 and d['run']['complete']" \
    | grep -q True || fail "part $k/2: $(json "$TMP/at$k.json" "(d['run']['start_at'], d['run']['start_late_ms'], d['run']['complete'])")"
done

# ---- --part auto: each launcher's variables ----------------------------------------------
auto() { # WANT_FROM WANT_INDEX WANT_COUNT ENV... -- ARGS...
  local from=$1 k=$2 n=$3
  shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" "$DBGAUGE" run --db "sqlite:$C" -w tpcc -c 4 -t 2 --part auto --seed 5 -q \
    --json "$TMP/auto.json" "$@" > /dev/null 2> "$TMP/auto.err" || { cat "$TMP/auto.err"; fail "--part auto with ${envs[*]}"; }
  json "$TMP/auto.json" "(d['run']['part']['from'], d['run']['part']['index'], d['run']['part']['count'])" \
    | grep -qx "('$from', $k, $n)" || fail "--part auto with ${envs[*]}: $(json "$TMP/auto.json" "d['run']['part']")"
}
auto Kubernetes 1 2 JOB_COMPLETION_INDEX=1 -- --parts 2
auto Slurm 0 2 SLURM_PROCID=0 SLURM_NTASKS=2 --
auto MPI 1 2 OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 --
auto MPI 0 2 PMI_RANK=0 PMI_SIZE=2 --

# ---- refused before anything runs: exit 1, no result file --------------------------------
refused() { # MESSAGE ARGS...
  local msg=$1
  shift
  expect_exit 1 "$DBGAUGE" run -t 1 -q --json "$TMP/refused.json" "$@" # tpcc unless -w
  grep -qF -- "$msg" "$TMP/err" || { cat "$TMP/err"; fail "'$*': no '$msg'"; }
  [ ! -e "$TMP/refused.json" ] || fail "'$*': a result file"
}
refused "part 2 of 2 does not exist" --db "sqlite:$C" -c 4 --part 2/2 --seed 1
refused "--part needs --seed N" --db "sqlite:$C" -c 4 --part 0/2
refused "2 parts need at least 2 terminals" --db "sqlite:$C" -c 1 --part 0/2 --seed 1
refused "--reload and --part exclude each other" --db "sqlite:$C" -c 2 --part 0/2 --seed 1 --reload
refused "no launcher's part number" --db "sqlite:$C" -c 2 --part auto --seed 1
JOB_COMPLETION_INDEX=0 refused "add --parts N" --db "sqlite:$C" -c 2 --part auto --seed 1
refused "docs does not run in parts" --db "sqlite:$C" -w docs -c 2 --part 0/2 --seed 1
refused "is already past (now" --db "sqlite:$C" -c 2 --start-at 2020-01-01T00:00:00Z
refused "is already past once --warmup is taken off" --db "sqlite:$C" -c 2 --warmup 1h \
  --start-at "$(date -u -d '+10 minutes' +%Y-%m-%dT%H:%M:%SZ)"
refused "expected an RFC 3339 time" --db "sqlite:$C" -c 2 --start-at "2030-01-01 00:00:00"
refused "a part of a run does not load" --db "sqlite:$TMP/empty.db" -c 2 --part 0/2 --seed 1
echo "7 passed, 0 failed"
