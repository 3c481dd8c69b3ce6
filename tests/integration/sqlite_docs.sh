#!/usr/bin/env bash
# The docs workload (TPoX-style XML) on SQLite: the loaded documents (counts, well-formed
# XML in the right namespaces, references that resolve, side keys that match), determinism
# (--jobs 4 = --jobs 1, another seed differs), each of the 17 transactions against the
# generator (dg_docs_tx), a mixed run whose inserts and deletes change the counts by
# exactly what it reports, the insert-only variant's figures, the check catching damage,
# and bad options.
source "$(dirname "$0")/common.bash" || exit 1
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 shell not installed" >&2; exit 77; }

q() { sqlite3 "$1" "$2"; }
content_hash() { # DB: every document and side row in key order
  sqlite3 "$1" "SELECT * FROM security ORDER BY sec_id; SELECT * FROM custacc ORDER BY cust_id;
    SELECT * FROM custacc_account ORDER BY acct_id; SELECT * FROM orders ORDER BY order_id;
    SELECT dm_seed, dm_customers, dm_securities FROM docs_meta;" | sha256sum | cut -c1-32
}
LOAD=(-w docs --scale 0.002 --wl-opt securities=500) # 200 customers

# ---- load ------------------------------------------------------------------------------------
A="$TMP/a.db"
"$DBGAUGE" load --db "sqlite:$A" "${LOAD[@]}" --seed 4 > "$TMP/load.out"
for step in "table security" "table custacc" "table custacc_account" "table orders" \
            "index security_symbol" "index security_sector" "index custacc_account_cust" \
            "index orders_acct" "index orders_symbol"; do
  grep -q "$step" "$TMP/load.out" || { cat "$TMP/load.out"; fail "load report lacks step '$step'"; }
done
[ "$(q "$A" "SELECT count(*) FROM security")" = 500 ] || fail "securities"
[ "$(q "$A" "SELECT count(*) FROM custacc")" = 200 ] || fail "customers"
[ "$(q "$A" "SELECT count(*) FROM orders")" = 1000 ] || fail "orders"
[ "$(q "$A" "SELECT min(cust_id) || ' ' || max(cust_id) || ' ' || min(order_id) || ' ' || max(order_id) FROM custacc, orders")" = "1002 1201 103282 104281" ] || fail "id ranges are not TPoX's"
accts=$(q "$A" "SELECT count(*) FROM custacc_account")
[ "$accts" -ge 200 ] && [ "$accts" -le 1000 ] || fail "$accts accounts for 200 customers"
[ "$(q "$A" "SELECT dm_seed || ' ' || dm_customers || ' ' || dm_securities FROM docs_meta")" = "4 200 500" ] || fail "docs_meta"
# references resolve: every order's account and symbol exist, every account has its customer
[ "$(q "$A" "SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM custacc_account a WHERE a.acct_id = o.acct_id)")" = 0 ] || fail "an order's @Acct is no account"
[ "$(q "$A" "SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM security s WHERE s.symbol = o.symbol)")" = 0 ] || fail "an order's symbol is no security"
[ "$(q "$A" "SELECT count(*) FROM custacc_account a WHERE NOT EXISTS (SELECT 1 FROM custacc c WHERE c.cust_id = a.cust_id)")" = 0 ] || fail "an account without its customer"
# every document is well-formed XML in its namespace, read by another parser; positions
# name loaded securities
python3 - "$A" <<'PY' || fail "documents"
import sqlite3, sys, xml.etree.ElementTree as ET
db = sqlite3.connect(sys.argv[1])
syms = {r[0] for r in db.execute("SELECT symbol FROM security")}
ns = {"custacc": "{http://tpox-benchmark.com/custacc}", "security": "{http://tpox-benchmark.com/security}",
      "orders": "{http://www.fixprotocol.org/FIXML-4-4}"}
roots = {"custacc": "Customer", "security": "Security", "orders": "FIXML"}
keys = {"custacc": "cust_id", "security": "sec_id", "orders": "order_id"}
sizes = {}
for t in ("custacc", "security", "orders"):
    n = total = 0
    for key, doc in db.execute("SELECT %s, doc FROM %s" % (keys[t], t)):
        root = ET.fromstring(doc.encode())
        assert root.tag == ns[t] + roots[t], (t, key, root.tag)
        if t == "orders":
            o = root.find(ns[t] + "Order")
            assert int(o.get("ID")) == key, (t, key)
        else:
            assert int(root.get("id")) == key, (t, key)
        if t == "custacc":
            for p in root.iter(ns[t] + "Position"):
                assert p.find(ns[t] + "Symbol").text in syms, (key, "position symbol")
        n += 1
        total += len(doc.encode())
    sizes[t] = total // n
print("average document bytes:", sizes)
PY
"$DBGAUGE" check --db "sqlite:$A" -w docs > "$TMP/check.out" || { cat "$TMP/check.out"; fail "check after load"; }

# ---- determinism ------------------------------------------------------------------------
"$DBGAUGE" load --db "sqlite:$TMP/b.db" "${LOAD[@]}" --seed 4 -j 4 -q > /dev/null
"$DBGAUGE" load --db "sqlite:$TMP/c.db" "${LOAD[@]}" --seed 5 -q > /dev/null
hA=$(content_hash "$A"); hB=$(content_hash "$TMP/b.db"); hC=$(content_hash "$TMP/c.db")
[ "$hA" = "$hB" ] || fail "--jobs 4 loaded other documents than --jobs 1"
[ "$hA" != "$hC" ] || fail "seeds 4 and 5 loaded the same documents"

# ---- each transaction against the generator ---------------------------------------------
if [ -n "${DG_DOCS_TX:-}" ]; then
  "$DBGAUGE" load --db "sqlite:$TMP/t.db" -w docs --scale 0.0004 --wl-opt securities=300 --seed 7 -q > /dev/null
  "$DG_DOCS_TX" "sqlite:$TMP/t.db" 7 > "$TMP/tx.out" || { cat "$TMP/tx.out"; fail "transactions"; }
fi

# ---- a mixed run changes the counts by what it reports -----------------------------------
counts() { q "$A" "SELECT (SELECT count(*) FROM custacc) || ' ' || (SELECT count(*) FROM orders)"; }
read -r c0 o0 <<< "$(counts)"
"$DBGAUGE" run --db "sqlite:$A" -w docs -c 2 -t 400 -q --json "$TMP/mix.json" > /dev/null
read -r c1 o1 <<< "$(counts)"
m() { json "$TMP/mix.json" "int(d['workload_metrics']['$1'])"; }
note "customers $c0 -> $c1 (+$(m custacc_inserted) -$(m custacc_deleted)), orders $o0 -> $o1 (+$(m orders_inserted) -$(m orders_deleted))"
[ $((c1 - c0)) = $(( $(m custacc_inserted) - $(m custacc_deleted) )) ] || fail "customers changed by $((c1 - c0))"
[ $((o1 - o0)) = $(( $(m orders_inserted) - $(m orders_deleted) )) ] || fail "orders changed by $((o1 - o0))"
json "$TMP/mix.json" "d['totals']['transactions'] == 800 and d['totals']['errors'] == 0 and d['run']['storage'] == 'shredded-keys' and len(d['transactions']) == 17" | grep -q True || fail "mixed run: $(json "$TMP/mix.json" "d['totals'], d['run']['stop_reason'], len(d['transactions'])")"
json "$TMP/mix.json" "all(t['count'] > 0 for t in d['transactions'])" | grep -q True || fail "a transaction type never ran: $(json "$TMP/mix.json" "[(t['name'], t['count']) for t in d['transactions']]")"
queries=$(json "$TMP/mix.json" "round(100 * sum(t['count'] for t in d['transactions'][:7]) / d['totals']['transactions'])")
[ "$queries" -ge 60 ] && [ "$queries" -le 80 ] || fail "queries are $queries% of the mix, not about 70%"
"$DBGAUGE" check --db "sqlite:$A" -w docs > "$TMP/check.out" || { cat "$TMP/check.out"; fail "check after the mixed run"; }

# ---- insert-only ---------------------------------------------------------------------------
read -r c0 o0 <<< "$(counts)"
"$DBGAUGE" run --db "sqlite:$A" -w docs:insert-only -c 2 -t 100 -q --json "$TMP/ins.json" > /dev/null
read -r c1 o1 <<< "$(counts)"
json "$TMP/ins.json" "(lambda w: w['docs_inserted_per_s'] > 0 and w['GB_per_h'] > 0 and w['xml_bytes_inserted'] > 1000 and w['custacc_inserted'] + w['orders_inserted'] == $((c1 - c0 + o1 - o0)) and d['totals']['errors'] == 0)(d['workload_metrics'])" | grep -q True || fail "insert-only figures: +$((c1 - c0 + o1 - o0)) rows; $(json "$TMP/ins.json" "d['workload_metrics'], d['totals']")"
# the storage figures: raw XML per table equals the documents' bytes; sizes from dbstat
xmlb=$(q "$A" "SELECT sum(length(CAST(doc AS BLOB))) FROM custacc")
json "$TMP/ins.json" "(lambda w: w['custacc_xml_bytes'] == $xmlb and w['custacc_disk_bytes'] > 0 and w['orders_index_bytes'] > 0 and 0.3 < w['custacc_xml_per_disk'] < 1.5)(d['workload_metrics'])" | grep -q True || fail "storage figures: raw XML $xmlb; $(json "$TMP/ins.json" "d['workload_metrics']")"
json "$TMP/ins.json" "(lambda w: abs(w['GB_per_h'] - w['xml_bytes_inserted'] / d['totals']['duration_s'] * 3600 / 1e9) < 1e-6 * w['GB_per_h'] + 1e-9)(d['workload_metrics'])" | grep -q True || fail "GB/h is not the bytes inserted per hour: $(json "$TMP/ins.json" "d['workload_metrics'], d['totals']")"

# each document type's rate (the XML study's custacc against order bars): the committed
# inserts of each type over the measured phase, a bar each beside all documents'
json "$TMP/ins.json" "(lambda w, t: abs(w['custacc_inserted_per_s'] + w['orders_inserted_per_s'] - w['docs_inserted_per_s']) < 1e-9 * w['docs_inserted_per_s'] and abs(w['custacc_inserted_per_s'] * t['insert_order'] - w['orders_inserted_per_s'] * t['insert_custacc']) < 1e-6 * w['docs_inserted_per_s'] * t['insert_custacc'])(d['workload_metrics'], {x['name']: x['count'] for x in d['transactions']})" | grep -q True \
  || fail "rates per document type: $(json "$TMP/ins.json" "d['workload_metrics'], d['transactions']")"
"$DBGAUGE" report "$TMP/ins.json" -o "$TMP/ins.html" > /dev/null || fail "insert-only report"
bars=$(json "$TMP/ins.json" "';'.join(repr(d['workload_metrics'][k]) for k in ('docs_inserted_per_s', 'custacc_inserted_per_s', 'orders_inserted_per_s'))")
python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/ins.html" "bars=~The workload's rates in documents/s:$bars" || fail "insert-only report: the rates' bars ($bars)"

# the insert-only test against users: a sweep's report charts documents/s and GB/h (the
# workload's rates), each point the median of its runs
"$DBGAUGE" sweep --db "sqlite:$A" -w docs:insert-only --vary terminals=1,2 -t 50 -q -o "$TMP/isw" > /dev/null || fail "insert-only sweep"
"$DBGAUGE" report "$TMP/isw" -o "$TMP/isw.html" > /dev/null || fail "insert-only sweep report"
for m in docs_inserted_per_s GB_per_h; do
  pts=$(python3 - "$TMP/isw" "$m" <<'PY'
import glob, json, sys
print(';'.join('%d,%g' % (d['run']['terminals'], d['workload_metrics'][sys.argv[2]])
               for d in (json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + '/p*.json')))))
PY
)
  python3 "$DG_SRC/tests/cli/report_html.py" "$TMP/isw.html" "series=~$m vs terminals:$m:$pts" || fail "insert-only sweep: the $m line ($pts)"
done

# ---- XML Schema validation on the client (TPoX's I2, U2 and U4) ---------------------------
# only NAME...: a --mix with every other transaction at weight 0
only() {
  local all="get_order get_security customer_profile search_securities account_summary get_security_price customer_max_order insert_custacc insert_order delete_custacc delete_order add_account close_account buy_position sell_position update_order_status update_security_price"
  local mix="" t w
  for t in $all; do w=0; for x in "$@"; do [ "$x" = "$t" ] && w=1; done; mix+="${mix:+,}$t=$w"; done
  echo "$mix"
}
# the mixed run validated every order I2 inserted (U2's and U4's documents too, when found)
json "$TMP/mix.json" "(lambda w, n: n['insert_order'] <= w['client_schema_validations'] <= 3 * (n['insert_order'] + n['close_account'] + n['sell_position']) and w['client_schema_validation_us_per_doc'] > 0)(d['workload_metrics'], {t['name']: t['count'] for t in d['transactions']})" | grep -q True \
  || fail "schema validations: $(json "$TMP/mix.json" "{k: v for k, v in d['workload_metrics'].items() if 'valid' in k}")"
# a schema of the user's that every generated order breaks: each insert_order is an error
# of its type, nothing is inserted, the run goes on to its end
mkdir "$TMP/xsd"
cat > "$TMP/xsd/order.xsd" <<'XSD'
<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.fixprotocol.org/FIXML-4-4" elementFormDefault="qualified">
  <xs:element name="FIXML"><xs:complexType>
    <xs:sequence><xs:any processContents="skip" maxOccurs="unbounded"/></xs:sequence>
    <xs:attribute name="Foo" type="xs:string" use="required"/>
    <xs:anyAttribute processContents="skip"/>
  </xs:complexType></xs:element>
</xs:schema>
XSD
read -r c0 o0 <<< "$(counts)"
"$DBGAUGE" run --db "sqlite:$A" -w docs --mix "$(only insert_order)" --wl-opt schemas="$TMP/xsd" -c 1 -t 20 --json "$TMP/xsd.json" > "$TMP/xsd.out" 2>&1 \
  || { cat "$TMP/xsd.out"; fail "a run whose orders break the user's schema"; }
read -r c1 o1 <<< "$(counts)"
[ "$o1" = "$o0" ] || fail "orders that broke their schema were inserted ($o0 -> $o1)"
json "$TMP/xsd.json" "(lambda t: t['errors'] == 20 and t['count'] == 0)({t['name']: t for t in d['transactions']}['insert_order'])" | grep -q True \
  || fail "broken orders not counted as insert_order errors: $(json "$TMP/xsd.json" "[t for t in d['transactions'] if t['name'] == 'insert_order']")"
grep -q "order document breaks its schema ($TMP/xsd/order.xsd).*Foo" "$TMP/xsd.out" || { cat "$TMP/xsd.out"; fail "the schema fault is not named"; }
# stored customers that break the built-in schema: U2 and U4 refuse to write them back
cp "$A" "$TMP/v.db"
q "$TMP/v.db" "UPDATE custacc SET doc = replace(replace(doc, '<Passbook>No<', '<Passbook>Maybe<'), '<Passbook>Yes<', '<Passbook>Maybe<')"
before=$(q "$TMP/v.db" "SELECT count(*), sum(length(doc)) FROM custacc_account JOIN custacc USING (cust_id)")
"$DBGAUGE" run --db "sqlite:$TMP/v.db" -w docs --mix "$(only close_account sell_position)" -c 1 -t 30 -q --json "$TMP/v.json" > /dev/null 2>&1 || fail "a run over broken customers"
[ "$(q "$TMP/v.db" "SELECT count(*), sum(length(doc)) FROM custacc_account JOIN custacc USING (cust_id)")" = "$before" ] || fail "U2/U4 wrote documents that break the schema"
# (each either an error, or a rollback where nothing was to change: no commit)
json "$TMP/v.json" "all(t['errors'] > 0 and t['count'] == t['rollbacks'] for t in d['transactions'] if t['name'] in ('close_account', 'sell_position'))" | grep -q True \
  || fail "U2/U4 over broken documents: $(json "$TMP/v.json" "[(t['name'], t['count'], t['errors']) for t in d['transactions']]")"
# ... and with validation off they do
"$DBGAUGE" run --db "sqlite:$TMP/v.db" -w docs --mix "$(only close_account sell_position)" --wl-opt validate=0 -c 1 -t 30 -q --json "$TMP/v0.json" > /dev/null 2>&1 || fail "validate=0"
json "$TMP/v0.json" "d['totals']['errors'] == 0 and d['workload_metrics']['client_schema_validations'] is None" | grep -q True \
  || fail "validate=0: $(json "$TMP/v0.json" "d['totals'], d['workload_metrics'].get('client_schema_validations')")"
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" -w docs --wl-opt schemas="$TMP/none" -t 1 -q --no-results
grep -q "schemas=$TMP/none: No such file or directory" "$TMP/err" || { cat "$TMP/err"; fail "a missing schema directory"; }
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" -w docs --wl-opt validate=maybe -t 1 -q --no-results

# ---- damage is caught -----------------------------------------------------------------------
cp "$A" "$TMP/d.db"
# an order the mixed run left (it deletes some, picked at random)
oid=$(q "$TMP/d.db" "SELECT min(order_id) FROM orders")
q "$TMP/d.db" "UPDATE orders SET cash = cash + 1 WHERE order_id = $oid"
q "$TMP/d.db" "DELETE FROM custacc_account WHERE acct_id = (SELECT min(acct_id) FROM custacc_account)"
expect_exit 2 "$DBGAUGE" check --db "sqlite:$TMP/d.db" -w docs
grep -q "FAIL.*orders side keys.*id $oid: column cash" "$TMP/out" || { cat "$TMP/out"; fail "check missed the changed cash"; }
grep -q "FAIL.*custacc_account rows" "$TMP/out" || { cat "$TMP/out"; fail "check missed the missing account row"; }

# ---- bad options ----------------------------------------------------------------------------
expect_exit 1 "$DBGAUGE" load --db "sqlite:$TMP/e.db" -w docs --wl-opt securities=0 --scale 0.00005 -q
grep -q "invalid --wl-opt securities=0" "$TMP/err" || { cat "$TMP/err"; fail "securities=0"; }
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" -w docs --wl-opt securities=7 -t 1 -q --no-results
grep -q "holds 500 securities, not the 7" "$TMP/err" || { cat "$TMP/err"; fail "securities mismatch"; }
expect_exit 1 "$DBGAUGE" run --db "sqlite:$A" -w docs --mix get_order=1,nope=2 -t 1 -q --no-results
expect_exit 1 "$DBGAUGE" load --db "sqlite:$TMP/f.db" -w docs --scale 0.0001 --wl-opt storage=xml-type -q
grep -q "storage xml-type needs SQL that sqlite does not have" "$TMP/err" || { cat "$TMP/err"; fail "xml-type on SQLite"; }
echo "docs on SQLite: ok"
