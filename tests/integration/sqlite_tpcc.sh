#!/usr/bin/env bash
# tpcc on SQLite: the loaded population (exact row counts, per-order line counts, value
# rules and statistics: ORIGINAL 10%, bad credit 10%, last names of customers 1001..3000
# distributed as NURand(255) with the stored C_LOAD), determinism (same seed -> same
# content, other seed -> other content, --jobs 4 -> same content as --jobs 1), then a
# 2-terminal run whose reported counts match the database exactly (committed New-Orders =
# rows added to orders), the consistency checks (and that they catch a broken invariant),
# the result-file metrics, loading an empty file from `run`, and --keying-think pacing.
source "$(dirname "$0")/common.bash" || exit 1
cd "$TMP" || exit 1
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 shell not installed" >&2; exit 77; }

q() { sqlite3 "$1" "$2"; }

# Content hash of a loaded database; load-time timestamps (the only non-seeded values) are
# left out, ol_delivery_d only as NULL or not.
content_hash() {
  sqlite3 "$1" "
SELECT w_id,w_name,w_street_1,w_street_2,w_city,w_state,w_zip,w_tax,w_ytd FROM warehouse ORDER BY 1;
SELECT d_w_id,d_id,d_name,d_street_1,d_street_2,d_city,d_state,d_zip,d_tax,d_ytd,d_next_o_id FROM district ORDER BY 1,2;
SELECT c_w_id,c_d_id,c_id,c_first,c_middle,c_last,c_street_1,c_street_2,c_city,c_state,c_zip,c_phone,c_credit,c_credit_lim,c_discount,c_balance,c_ytd_payment,c_payment_cnt,c_delivery_cnt,c_data FROM customer ORDER BY 1,2,3;
SELECT h_w_id,h_d_id,h_c_id,h_c_d_id,h_c_w_id,h_amount,h_data FROM history ORDER BY 1,2,3,4,5,6,7;
SELECT no_w_id,no_d_id,no_o_id FROM new_order ORDER BY 1,2,3;
SELECT o_w_id,o_d_id,o_id,o_c_id,o_carrier_id,o_ol_cnt,o_all_local FROM orders ORDER BY 1,2,3;
SELECT ol_w_id,ol_d_id,ol_o_id,ol_number,ol_i_id,ol_supply_w_id,ol_delivery_d IS NULL,ol_quantity,ol_amount,ol_dist_info FROM order_line ORDER BY 1,2,3,4;
SELECT i_id,i_im_id,i_name,i_price,i_data FROM item ORDER BY 1;
SELECT * FROM stock ORDER BY s_w_id,s_i_id;
SELECT mt_warehouses,mt_c_last,mt_c_id,mt_c_ol_i_id,mt_seed FROM tpcc_meta;" | sha256sum | cut -c1-32
}

# ---- load scale 1 ------------------------------------------------------------------------
A="$TMP/a.db"
"$DBGAUGE" load --db "sqlite:$A" --workload tpcc --scale 1 --seed 1 > "$TMP/load.out"
grep -q "index customer_idx" "$TMP/load.out" || fail "no per-index step in the load report"
grep -q "table order_line" "$TMP/load.out" || fail "no per-table step in the load report"

# exact row counts
for t in "warehouse 1" "district 10" "customer 30000" "history 30000" "orders 30000" \
         "new_order 9000" "item 100000" "stock 100000" "tpcc_meta 1"; do
  set -- $t
  got=$(q "$A" "SELECT COUNT(*) FROM $1")
  [ "$got" = "$2" ] || fail "$1: $got rows, expected $2"
done
[ "$(q "$A" 'SELECT COUNT(*) FROM order_line')" = "$(q "$A" 'SELECT SUM(o_ol_cnt) FROM orders')" ] \
  || fail "order_line rows != sum(o_ol_cnt)"
[ "$(q "$A" 'SELECT COUNT(*) FROM (SELECT COUNT(*) c FROM order_line GROUP BY ol_w_id, ol_d_id, ol_o_id) WHERE c BETWEEN 5 AND 15')" = 30000 ] \
  || fail "every order has 5..15 lines"
[ "$(q "$A" 'SELECT COUNT(*) FROM orders o WHERE o_ol_cnt <> (SELECT COUNT(*) FROM order_line l WHERE l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id)')" = 0 ] \
  || fail "o_ol_cnt != lines of the order"

# value rules of Clause 4.3.3.1
rules=(
  "SELECT COUNT(*) FROM (SELECT o_d_id FROM orders GROUP BY o_w_id, o_d_id HAVING COUNT(DISTINCT o_c_id) = 3000 AND MIN(o_c_id) = 1 AND MAX(o_c_id) = 3000)|10"
  "SELECT COUNT(*) FROM orders WHERE (o_id < 2101) <> (o_carrier_id IS NOT NULL)|0"
  "SELECT MIN(no_o_id) || '-' || MAX(no_o_id) FROM new_order|2101-3000"
  "SELECT COUNT(*) FROM order_line WHERE (ol_o_id < 2101) <> (ol_delivery_d IS NOT NULL)|0"
  "SELECT COUNT(*) FROM order_line WHERE ol_o_id < 2101 AND ol_amount <> 0|0"
  "SELECT COUNT(*) FROM order_line WHERE ol_o_id >= 2101 AND (ol_amount < 0.01 OR ol_amount > 9999.99)|0"
  "SELECT COUNT(*) FROM order_line WHERE ol_quantity <> 5 OR ol_supply_w_id <> ol_w_id OR length(ol_dist_info) <> 24|0"
  "SELECT MIN(d_next_o_id) || ' ' || MAX(d_next_o_id) || ' ' || SUM(d_ytd) || ' ' || (MAX(d_tax) <= 0.2) FROM district|3001 3001 300000 1"
  "SELECT w_ytd FROM warehouse|300000"
  "SELECT COUNT(*) FROM customer WHERE c_balance <> -10 OR c_ytd_payment <> 10 OR c_payment_cnt <> 1 OR c_delivery_cnt <> 0 OR c_credit_lim <> 50000 OR c_middle <> 'OE'|0"
  "SELECT COUNT(*) FROM customer WHERE c_discount < 0 OR c_discount > 0.5 OR length(c_data) NOT BETWEEN 300 AND 500 OR length(c_first) NOT BETWEEN 8 AND 16|0"
  "SELECT COUNT(*) FROM customer WHERE length(c_zip) <> 9 OR substr(c_zip, 5) <> '11111' OR length(c_phone) <> 16 OR c_phone GLOB '*[^0-9]*' OR length(c_state) <> 2|0"
  "SELECT COUNT(*) FROM history WHERE h_amount <> 10 OR length(h_data) NOT BETWEEN 12 AND 24 OR h_c_id IS NULL|0"
  "SELECT MIN(i_price) >= 1 AND MAX(i_price) <= 100 AND MIN(i_im_id) >= 1 AND MAX(i_im_id) <= 10000 AND MIN(length(i_name)) = 14 AND MAX(length(i_name)) = 24 FROM item|1"
  "SELECT MIN(s_quantity) || ' ' || MAX(s_quantity) || ' ' || SUM(s_ytd + s_order_cnt + s_remote_cnt) FROM stock|10 100 0"
  "SELECT COUNT(*) FROM stock WHERE length(s_dist_01) <> 24 OR length(s_dist_10) <> 24 OR length(s_data) NOT BETWEEN 26 AND 50|0"
)
for r in "${rules[@]}"; do
  got=$(q "$A" "${r%|*}")
  [ "$got" = "${r##*|}" ] || fail "rule: ${r%|*} gave '$got', expected '${r##*|}'"
done

# shares: ORIGINAL in i_data and s_data, bad credit: 10% +- 2%
for s in "SELECT AVG(instr(i_data, 'ORIGINAL') > 0) FROM item" \
         "SELECT AVG(instr(s_data, 'ORIGINAL') > 0) FROM stock" \
         "SELECT AVG(c_credit = 'BC') FROM customer"; do
  v=$(q "$A" "$s")
  python3 -c "import sys; v=float(sys.argv[1]); sys.exit(0 if 0.08 <= v <= 0.12 else 1)" "$v" \
    || fail "$s = $v, expected 0.10 +- 0.02"
done

# last names: 1..1000 take c_id - 1; 1001..3000 follow NURand(255, 0, 999) with C_LOAD
q "$A" "SELECT c_id, c_last FROM customer" > "$TMP/names"
q "$A" "SELECT mt_c_last FROM tpcc_meta" > "$TMP/cload"
python3 - "$TMP/names" "$TMP/cload" <<'EOF' || fail "last-name distribution"
import sys, collections, math
syl = "BAR OUGHT ABLE PRI PRES ESE ANTI CALLY ATION EING".split()
name = lambda n: syl[n // 100] + syl[n // 10 % 10] + syl[n % 10]
c_load = int(open(sys.argv[2]).read())
obs = collections.Counter()
for line in open(sys.argv[1]):
    cid, last = line.rstrip("\n").split("|")
    cid = int(cid)
    if cid <= 1000:
        assert last == name(cid - 1), (cid, last)
    else:
        obs[last] += 1
total = sum(obs.values())
assert total == 20000, total
def law(c):
    p = collections.Counter()
    for r1 in range(256):
        for r2 in range(1000):
            p[name(((r1 | r2) + c) % 1000)] += 1
    return {k: v / 256000 for k, v in p.items()}
def chi2(p):
    # pool bins (smallest expectation first) until each expects >= 5
    bins, acc_e, acc_o = [], 0.0, 0
    for k in sorted(set(p) | set(obs), key=lambda k: p.get(k, 0)):
        acc_e += p.get(k, 0) * total
        acc_o += obs.get(k, 0)
        if acc_e >= 5:
            bins.append((acc_o, acc_e)); acc_e, acc_o = 0.0, 0
    if acc_e:
        o, e = bins.pop(); bins.append((o + acc_o, e + acc_e))
    x = sum((o - e) ** 2 / e for o, e in bins) if all(e > 0 for _, e in bins) else float("inf")
    return x, len(bins) - 1
x, dof = chi2(law(c_load))
limit = dof + 6 * math.sqrt(2 * dof)
print(f"# last names: chi2 {x:.0f} on {dof} dof (limit {limit:.0f})", file=sys.stderr)
assert x < limit, "not NURand(255) with C_LOAD"
uniform = {name(n): 1 / 1000 for n in range(1000)}
xu, _ = chi2(uniform)
xw, _ = chi2(law((c_load + 128) % 256))
print(f"# against uniform: chi2 {xu:.0f}; against another C: {xw:.0f}", file=sys.stderr)
assert xu > 3 * limit and xw > 3 * limit, "test has no power"
EOF

# ---- determinism (hashes computed in the background while the next load runs) -------------
content_hash "$A" > "$TMP/hA" &
"$DBGAUGE" load --db "sqlite:$TMP/d.db" --workload tpcc --scale 2 --seed 9 -q > /dev/null
content_hash "$TMP/d.db" > "$TMP/hD" &
"$DBGAUGE" load --db "sqlite:$TMP/e.db" --workload tpcc --scale 2 --seed 9 --jobs 4 -q > /dev/null
content_hash "$TMP/e.db" > "$TMP/hE"
wait
[ "$(cat "$TMP/hD")" = "$(cat "$TMP/hE")" ] || fail "scale 2, same seed: --jobs 4 != --jobs 1"
[ "$(q "$TMP/e.db" 'SELECT COUNT(*) FROM stock')" = 200000 ] || fail "scale 2 stock"
# another seed, other data: ITEM and warehouse 1 exist in both loads (seed 1 and seed 9)
for t in "SELECT * FROM item ORDER BY i_id" \
         "SELECT c_first, c_last, c_credit, c_data FROM customer WHERE c_w_id = 1 ORDER BY c_d_id, c_id" \
         "SELECT o_c_id, o_ol_cnt FROM orders WHERE o_w_id = 1 ORDER BY o_d_id, o_id"; do
  [ "$(q "$A" "$t" | sha256sum)" != "$(q "$TMP/d.db" "$t" | sha256sum)" ] || fail "seeds 1 and 9 agree on: $t"
done
[ "$(cat "$TMP/hA")" != "$(cat "$TMP/hD")" ] || fail "content hashes of seeds 1 and 9 agree"
rm -f "$TMP"/d.db* "$TMP"/e.db*

# ---- run: counts agree with the database ------------------------------------------------
# (a count of transactions, not a duration: a loaded machine runs fewer per second, and the
# rollback-rate and mix tests need a few thousand)
"$DBGAUGE" run --db "sqlite:$A" --workload tpcc -c 2 -t 3000 --seed 5 --json "$TMP/r.json" \
  > "$TMP/run.out"
grep -q "tpmC" "$TMP/run.out" || fail "no tpmC in the summary"
orders=$(q "$A" 'SELECT COUNT(*) FROM orders')
next_sum=$(q "$A" 'SELECT SUM(d_next_o_id) - 30010 FROM district')
history=$(q "$A" 'SELECT COUNT(*) FROM history')
python3 - "$TMP/r.json" "$orders" "$next_sum" "$history" <<'EOF2' || fail "run results"
import json, sys
d = json.load(open(sys.argv[1]))
orders, next_sum, history = map(int, sys.argv[2:5])
tx = {t["name"]: t for t in d["transactions"]}
no, rb = tx["new_order"]["count"], tx["new_order"]["rollbacks"]
added = orders - 30000
print(f"# new_order committed={no} rollbacks={rb} orders added={added}", file=sys.stderr)
def need(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")
# every count reported is what the database holds
need(no - rb == added, f"committed New-Orders {no - rb} != orders added {added}")
need(next_sum == added, "d_next_o_id growth != orders added")
need(history - 30000 == tx["payment"]["count"], "history rows added != payments")
# expected rollbacks: each New-Order rolls back with probability exactly 1%, so rb is
# Binomial(no, 0.01): within 5 sigma always, and within 0.2%..3% over a few thousand
need(no > 300, f"too few New-Orders for the rollback-rate test: {no}")
mu, sd = 0.01 * no, (no * 0.01 * 0.99) ** 0.5
need(mu - 5 * sd <= rb <= mu + 5 * sd, f"rollbacks {rb} of {no}: not ~1%")
need(no < 2000 or 0.002 <= rb / no <= 0.03, f"rollback rate {rb}/{no} outside 0.2%..3%")
need(sum(t["rollbacks"] for t in d["transactions"]) == rb, "rollbacks outside New-Order")
# mix: names, weights and shares 45/43/4/4/4
need(list(tx) == ["new_order", "payment", "order_status", "delivery", "stock_level"], "names")
need(d["run"]["mix"] == {"new_order": 45, "payment": 43, "order_status": 4, "delivery": 4,
                         "stock_level": 4}, "run.mix")
for (name, t), w in zip(tx.items(), (45, 43, 4, 4, 4)):
    need(abs(t["count"] / d["totals"]["transactions"] - w / 100) < 0.03, f"share of {name}")
# metrics
m = d["workload_metrics"]
need(abs(m["tpmC"] - added / d["totals"]["duration_s"] * 60) < 1e-6 * added, "tpmC")
need(abs(m["business_ops_per_s"] - d["totals"]["tps"]) < 1e-6, "business_ops_per_s")
need(m["new_order_rollbacks"] == rb and m["delivery_skipped_districts"] == 0, "rollbacks/skips")
need(m["retries"] == d["totals"]["retries"] and m["errors"] == 0, "retries/errors")
need(d["workload_metric_units"]["tpmC"], "units")
need(d["run"]["scale"] == 1 and d["run"]["scale_unit"] == "warehouse", "scale")
need(d["monitor"]["db_size_after_bytes"] > 80e6, "db size")
EOF2

"$DBGAUGE" check --db "sqlite:$A" --workload tpcc > "$TMP/check.out" || { cat "$TMP/check.out"; fail "check after the run"; }
[ "$(grep -c '^  ok' "$TMP/check.out")" = 12 ] || { cat "$TMP/check.out"; fail "12 conditions"; }
grep -q "C11.*skipped" "$TMP/check.out" || fail "C11 should be skipped after deliveries"

# a broken invariant is caught (exit 2), on a copy
cp "$A" "$TMP/bad.db"
q "$TMP/bad.db" "UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 3"
expect_exit 2 "$DBGAUGE" check --db "sqlite:$TMP/bad.db" --workload tpcc
grep -q "FAIL C1 " "$TMP/out" && grep -q "FAIL C9 " "$TMP/out" || { cat "$TMP/out"; fail "C1/C9 not reported"; }
rm -f "$TMP"/bad.db*

# --mix changes the weights by name
"$DBGAUGE" run --db "sqlite:$A" --workload tpcc -T 1s -q --mix new_order=0,payment=0,delivery=0 --json "$TMP/m.json" > /dev/null
json "$TMP/m.json" "d['transactions'][0]['count'] == 0 and d['transactions'][1]['count'] == 0 and d['transactions'][2]['count'] > 0" | grep -q True || fail "--mix"

# ---- run on an empty file loads scale 1 first -----------------------------------------------
"$DBGAUGE" run --db "sqlite:$TMP/empty.db" --workload tpcc -T 2s -q --json "$TMP/e.json" > /dev/null
[ "$(q "$TMP/empty.db" 'SELECT mt_warehouses FROM tpcc_meta')" = 1 ] || fail "run did not load scale 1"
json "$TMP/e.json" "d['load']['scale'] == 1 and d['totals']['transactions'] > 0" | grep -q True || fail "run after load"
rm -f "$TMP"/empty.db*

# ---- --keying-think: 2 s at least before any transaction, so at most 1 each in 2.5 s ----------
"$DBGAUGE" run --db "sqlite:$A" --workload tpcc -c 4 -T 2500ms --keying-think -q --json "$TMP/k.json" > /dev/null
json "$TMP/k.json" "d['run']['keying_think'] and d['totals']['transactions'] <= 4 and d['run']['complete']" | grep -q True || fail "--keying-think"
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" --workload tpcc --keying-think --think-time 10
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" --workload tpcc --wl-opt nonsense=1
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" --workload tpcb --keying-think -T 1s
# stored procedures: SQLite has none; the refusal says where they are, and no file is left
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" --workload tpcc --wl-opt procedures=1 -t 1 --json "$TMP/procs.json"
grep -q "dbgauge has no stored procedures for sqlite (this build has them for " "$TMP/err" || { cat "$TMP/err"; fail "procedures refusal"; }
[ ! -e "$TMP/procs.json" ] || fail "a refused run left a result file"
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" --workload tpcc --wl-opt procedures=yes -t 1
grep -q "procedures=0|1" "$TMP/err" || { cat "$TMP/err"; fail "procedures=yes"; }

# a stopped load: sqlite_stop.sh
exit 0
