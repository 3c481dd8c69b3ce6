#!/usr/bin/env bash
# The external-table bulk path (?external_dir=) against the Firebird test server, whose
# firebird.conf allows its ext/ directory (DG_TEST_FIREBIRD_EXTERNAL_DIR):
#   - the conformance body through that path (the bulk tests load every kind of value:
#     text with tabs, newlines, quotes, backslashes and UTF8, empty text, NULLs, numbers
#     as text, numerics rounded to the column's scale, timestamps, CHAR padding);
#   - tpcc scale 1 loaded once through EXECUTE BLOCK and once through external files, same
#     seed: exact row counts, the same NULLs, the same data (sums of hashes of every text
#     column the generator draws), `dbgauge check` passes, and the result file names the
#     path; nothing is left behind (no DG_EXT_* table, no file);
#   - load_forced_writes=off: off during the load, on again after it;
#   - bulk=auto (the default): external tables on the test server, said in the summary and
#     the result; with the embedded engine under firebird.conf files of the test's own:
#     None, unset, Restrict (a missing directory, then a relative one), a directory dbgauge
#     cannot write to, Full (a directory of its own, removed at the end), and a
#     databases.conf that forbids what firebird.conf allows (the probe finds out);
#   - a directory the server may not read: exit 2, an error naming external_dir and
#     ExternalFileAccess, no result file; and the options checked at connect time.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/firebird.bash"
fb_url
url=$FB_URL
ext=${DG_TEST_FIREBIRD_EXTERNAL_DIR:-}
if [ -z "$ext" ] && fb_own_server; then
  eval "$("$FB_SERVER" env)"
  ext=${DG_TEST_FIREBIRD_EXTERNAL_DIR:-}
fi
if [ -z "$ext" ]; then
  [ "${DG_REQUIRE_SERVERS:-0}" = 1 ] && fail "DG_TEST_FIREBIRD_EXTERNAL_DIR is not set but DG_REQUIRE_SERVERS=1"
  echo "skip: DG_TEST_FIREBIRD_EXTERNAL_DIR not set (scripts/servers/firebird.sh env)" >&2
  exit 77
fi
sep='?'
[[ $url == *\?* ]] && sep='&'
xurl="$url${sep}external_dir=$ext"

leftovers() { # DG_EXT_* tables and dg_ext_* files of the external path
  local t f
  t=$(fbsql "SELECT count(*) FROM RDB\$RELATIONS WHERE RDB\$RELATION_NAME STARTING WITH 'DG_EXT_';")
  f=$(find "$ext" -maxdepth 1 -name 'dg_ext_*' | wc -l)
  [ "$t" = 0 ] && [ "$f" = 0 ] || fail "left behind: $t DG_EXT_* tables, $f files in $ext"
}

"$DG_CONFORMANCE" "$xurl"
leftovers

# the data of a tpcc load, one line per table: rows, NULLs, sums over the drawn values (text through
# hash, modulo a prime so that the sums fit a BIGINT)
fingerprint() {
  fbsql "
SELECT 'item', count(*), sum(i_im_id), sum(i_price), sum(mod(hash(i_name || '|' || i_data), 1000003)) FROM item;
SELECT 'warehouse', count(*), sum(w_tax), sum(w_ytd), sum(mod(hash(w_name || w_street_1 || w_street_2 || w_city || w_state || w_zip), 1000003)) FROM warehouse;
SELECT 'district', count(*), sum(d_tax), sum(d_next_o_id), sum(mod(hash(d_name || d_street_1 || d_street_2 || d_city || d_state || d_zip), 1000003)) FROM district;
SELECT 'stock', count(*), sum(s_quantity), sum(mod(hash(s_dist_01 || s_dist_05 || s_dist_10 || '|' || s_data), 1000003)), sum(s_ytd + s_order_cnt + s_remote_cnt) FROM stock;
SELECT 'customer', count(*), sum(c_discount), sum(c_balance + c_ytd_payment + c_credit_lim), sum(mod(hash(c_first || c_middle || c_last || c_street_1 || c_street_2 || c_city || c_state || c_zip || c_phone || c_credit || '|' || c_data), 1000003)) FROM customer;
SELECT 'history', count(*), sum(h_amount), sum(mod(hash(h_data), 1000003)), sum(h_c_id + h_d_id) FROM history;
SELECT 'orders', count(*), count(o_carrier_id), sum(o_carrier_id), sum(o_c_id * o_ol_cnt) FROM orders;
SELECT 'new_order', count(*), sum(no_o_id), min(no_o_id), max(no_o_id) FROM new_order;
SELECT 'order_line', count(*), count(ol_delivery_d), sum(ol_amount), sum(mod(hash(ol_dist_info), 1000003) + ol_i_id + ol_quantity) FROM order_line;
SELECT 'dates', count(DISTINCT o_entry_d), min(c_since), 0, 0 FROM orders CROSS JOIN (SELECT FIRST 1 c_since FROM customer) c;"
}

"$DBGAUGE" load --db "$url${sep}bulk=block" -w tpcc --scale 1 --drop -j 2 --seed 11 -q --json "$TMP/block.json" > /dev/null
fingerprint > "$TMP/block.fp"
"$DBGAUGE" load --db "$xurl" -w tpcc --scale 1 --drop -j 2 --seed 11 -q --json "$TMP/ext.json" > /dev/null
fingerprint > "$TMP/ext.fp"
note "tpcc through external files: $(sed -n 's/^order_line //p' "$TMP/ext.fp")"
grep -q '^item 100000 ' "$TMP/ext.fp" || fail "item rows: $(grep '^item' "$TMP/ext.fp")"
grep -q '^customer 30000 ' "$TMP/ext.fp" || fail "customer rows"
grep -q '^orders 30000 21000 ' "$TMP/ext.fp" || fail "orders rows / carriers: $(grep '^orders' "$TMP/ext.fp")"
grep -q '^new_order 9000 ' "$TMP/ext.fp" || fail "new_order rows"
# the load time (c_since, o_entry_d, ol_delivery_d) differs between the two loads
diff <(grep -v '^dates' "$TMP/block.fp") <(grep -v '^dates' "$TMP/ext.fp") > "$TMP/fp.diff" ||
  { cat "$TMP/fp.diff" >&2; fail "the external path loaded other data than EXECUTE BLOCK"; }
grep -q '^dates 1 ' "$TMP/ext.fp" || fail "timestamps: $(grep '^dates' "$TMP/ext.fp")"
"$DBGAUGE" check --db "$xurl" -w tpcc > "$TMP/check.out" || { cat "$TMP/check.out"; fail "tpcc check after the external load"; }
json "$TMP/ext.json" "d['server']['settings']['bulk'] == 'external file' and d['server']['settings']['bulk_external_dir'] == '$ext'" |
  grep -q True || fail "result file: bulk $(json "$TMP/ext.json" "d['server']['settings'].get('bulk')")"
json "$TMP/block.json" "d['server']['settings']['bulk'] == 'execute block' and 'bulk_external_dir' not in d['server']['settings']" |
  grep -q True || fail "result file of the EXECUTE BLOCK load: bulk $(json "$TMP/block.json" "d['server']['settings'].get('bulk')")"
leftovers

# load_forced_writes=off: forced writes off during the load (the result file says so, and
# shows them off), on again after it. With a wire setting, which the short attachments
# that switch forced writes and read the tables' sizes (the services manager) pass too:
# they must still work with it (which wire they got is not visible from here)
"$DBGAUGE" load --db "$xurl&load_forced_writes=off&wire_compression=on" -w tpcc --scale 1 --drop -q --json "$TMP/async.json" > /dev/null 2> "$TMP/async.err" ||
  fail "load_forced_writes=off, wire_compression=on: $(cat "$TMP/async.err")"
json "$TMP/async.json" "d['server']['settings']['load_forced_writes'] == 'off during the load' and d['server']['settings']['forced_writes'] == 'off'" |
  grep -q True || fail "load_forced_writes in the result file: $(json "$TMP/async.json" "d['server']['settings']")"
json "$TMP/async.json" "d['load']['bytes_measure'] == 'objects' and d['server']['settings']['wire_compressed'] == 'on'" |
  grep -q True || fail "table sizes or the wire with wire_compression=on: $(json "$TMP/async.json" "d['load']['bytes_measure'], d['server']['settings']")"
[ "$(fbsql "SELECT MON\$FORCED_WRITES FROM MON\$DATABASE;")" = 1 ] || fail "forced writes not on again after the load"
grep -q '^item 100000 ' <(fingerprint) || fail "item rows after the load without forced writes"

# a directory the server may not read (not the one its ExternalFileAccess allows)
mkdir -m 755 "$TMP/elsewhere"
expect_exit 2 "$DBGAUGE" load --db "$url" --conn "external_dir=$TMP/elsewhere" -w tpcc --scale 1 --drop -q --json "$TMP/bad.json"
grep -q "external_dir=$TMP/elsewhere" "$TMP/err" || { cat "$TMP/err" >&2; fail "the error does not name external_dir"; }
grep -q "ExternalFileAccess" "$TMP/err" || { cat "$TMP/err" >&2; fail "the error does not name ExternalFileAccess"; }
[ ! -e "$TMP/bad.json" ] || fail "a failed load wrote a result file"
[ -z "$(ls -A "$TMP/elsewhere")" ] || fail "files left in the refused directory: $(ls "$TMP/elsewhere")"
# checked when connecting
expect_exit 1 "$DBGAUGE" load --db "$url" --conn bulk=external -w tpcc --scale 1 --drop -q
grep -q "bulk=external needs external_dir" "$TMP/err" || { cat "$TMP/err" >&2; fail "bulk=external without a directory"; }
expect_exit 1 "$DBGAUGE" load --db "$url" --conn external_dir=relative/dir -w tpcc --scale 1 --drop -q
grep -q "not an absolute path" "$TMP/err" || { cat "$TMP/err" >&2; fail "relative external_dir"; }
expect_exit 1 "$DBGAUGE" load --db "$url" --conn "external_dir=$TMP/missing" -w tpcc --scale 1 --drop -q
grep -q "external_dir=$TMP/missing: cannot write there" "$TMP/err" || { cat "$TMP/err" >&2; fail "missing external_dir"; }
leftovers

# ---- bulk=auto, the default: the server's firebird.conf allows ext/, so a load takes it --------
"$DBGAUGE" load --db "$url" -w tpcb --scale 1 --drop -j 2 --json "$TMP/auto.json" > "$TMP/auto.out" 2> "$TMP/auto.err" ||
  fail "a load with bulk=auto: $(cat "$TMP/auto.err")"
grep -qF "bulk path: external tables in $ext: ExternalFileAccess in " "$TMP/auto.out" ||
  fail "the load's summary does not say it took external tables: $(cat "$TMP/auto.out")"
json "$TMP/auto.json" "d['load']['bulk_path']['path'] == 'external tables in $ext' and 'firebird.conf allows it, and the server read a test file there' in d['load']['bulk_path']['why'] and d['server']['settings']['bulk'] == 'external file' and d['server']['settings']['bulk_external_dir'] == '$ext' and d['server']['settings']['bulk_why'] == d['load']['bulk_path']['why']" |
  grep -q True || fail "bulk=auto in the result: $(json "$TMP/auto.json" "d['load'].get('bulk_path'), d['server']['settings']")"
[ "$(fbsql "SELECT count(*) FROM pgbench_accounts;")" = 100000 ] || fail "rows after the bulk=auto load"
[ "$(fbsql "SELECT count(*) FROM RDB\$RELATIONS WHERE RDB\$RELATION_NAME STARTING WITH 'DG_PROBE_';")" = 0 ] ||
  fail "the probe table of bulk=auto was left behind"
[ -z "$(find "$ext" -maxdepth 1 -name 'dg_probe_*')" ] || fail "the probe file of bulk=auto was left behind"
leftovers
# a run's result names what its load chose (the run's own connection loads nothing)
"$DBGAUGE" run --db "$url" -w tpcb --scale 1 -T 1s -c 1 --json "$TMP/run.json" > /dev/null 2>&1 || fail "a run after the load"
json "$TMP/run.json" "d['server']['settings']['bulk']" | grep -q 'auto (decided by a load)' ||
  fail "a run's bulk setting: $(json "$TMP/run.json" "d['server']['settings'].get('bulk')")"

# ---- bulk=auto with the embedded engine, whose firebird.conf is FIREBIRD's (a root of the test's
# own, links to the installed one's files): what each ExternalFileAccess makes of a load
installed=$(dirname "$(ls /usr/lib/*/firebird/*/firebird.conf /opt/firebird/firebird.conf 2>/dev/null | tail -n 1)")
root="$TMP/fbroot"
mkdir -p "$root" "$TMP/edb" "$TMP/eext" "$root/rel"
for f in "$installed"/*; do
  case ${f##*/} in firebird.conf | databases.conf) ;; *) ln -s "$f" "$root/${f##*/}" ;; esac
done
: > "$root/databases.conf"
edb="$TMP/edb/e.fdb"
echo "CREATE DATABASE '$edb' USER 'SYSDBA';" | FIREBIRD=$root "$FB_ISQL" -q > /dev/null
eload() { # eload NAME CONF: a load of the embedded database under that firebird.conf
  printf '%s\n' "$2" > "$root/firebird.conf"
  FIREBIRD=$root "$DBGAUGE" load --db "firebird:$edb" -w tpcb --scale 1 --drop --json "$TMP/$1.json" > "$TMP/$1.out" 2>&1 ||
    fail "embedded load ($2): $(cat "$TMP/$1.out")"
  json "$TMP/$1.json" "d['load']['bulk_path']['path'] + ' | ' + d['load']['bulk_path']['why']"
}
got=$(eload none "# nothing allowed
ExternalFileAccess = None")
[ "$got" = "EXECUTE BLOCK | ExternalFileAccess = None in $root/firebird.conf (line 2)" ] || fail "None: $got"
grep -q "ExternalFileAccess = Restrict DIR, makes loads faster" "$TMP/none.out" || fail "no advice with None: $(cat "$TMP/none.out")"
got=$(eload unset "DefaultDbCachePages = 2048")
[ "$got" = "EXECUTE BLOCK | ExternalFileAccess is not set in $root/firebird.conf (None: no external files)" ] || fail "unset: $got"
got=$(eload restrict "ExternalFileAccess = Restrict $TMP/missing-dir; rel")
[ "$got" = "external tables in $root/rel | ExternalFileAccess in $root/firebird.conf allows it, and the engine read a test file there" ] ||
  fail "Restrict, a missing directory then a relative one: $got"
got=$(eload nowrite "ExternalFileAccess = Restrict $TMP/missing-dir")
[ "$got" = "EXECUTE BLOCK | ExternalFileAccess = Restrict $TMP/missing-dir in $root/firebird.conf, and dbgauge cannot write to it" ] ||
  fail "Restrict, a directory dbgauge cannot write to: $got"
got=$(eload full "ExternalFileAccess = Full")
[[ $got == "external tables in /var/tmp/dbgauge-fbext-"* ]] || fail "Full: $got"
made=${got%% |*}; made=${made#external tables in }
[ ! -e "$made" ] || fail "the directory made for Full was left behind: $made"
# databases.conf forbids what firebird.conf allows: the probe finds out, the load goes on
printf 'e = %s\n{\n  ExternalFileAccess = None\n}\n' "$edb" > "$root/databases.conf"
got=$(eload refused "ExternalFileAccess = Restrict $TMP/eext")
[[ $got == "EXECUTE BLOCK | ExternalFileAccess in $root/firebird.conf allows $TMP/eext, but the engine cannot read $TMP/eext/dg_probe_"*".dat: Use of external file at location "*"is not allowed by server configuration"* ]] ||
  fail "refused by databases.conf: $got"
[ -z "$(ls -A "$TMP/eext")" ] || fail "the probe left files: $(ls "$TMP/eext")"
echo "ok: external-table bulk path"
