/*
 * schema.c - the TPC-C tables (Clause 1.3) written once as dialect templates
 * (backend/dialect.h), their primary keys and the two secondary indexes.
 *
 * Types follow the specification: identifiers {int}, money and rates {numeric P,S}
 * (exact where the database has exact decimals; SQLite stores REAL), fixed text
 * {char N}, variable text {varchar N}, dates {timestamp}. The ORDER table is "orders"
 * (ORDER is reserved). HISTORY has no key, as the specification allows. Key columns are
 * NOT NULL so that keys can be added after the load on every database (Firebird requires
 * it). tpcc_meta holds one row of load-time facts: the warehouse count and the NURand C
 * constants used at load, from which runs derive theirs.
 *
 * Layout: table templates, key and index list, the two functions.
 */
#include "workload/tpcc/tpcc.h"

#include "backend/dialect.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const dg_tpcc_tables[] = {"warehouse", "district", "customer", "history",
                                      "new_order", "orders",   "order_line", "item",
                                      "stock",     "tpcc_meta", NULL};

static const char *const ddl[] = {
    "CREATE TABLE warehouse (w_id {int} NOT NULL, w_name {varchar 10}, w_street_1 {varchar 20}, "
    "w_street_2 {varchar 20}, w_city {varchar 20}, w_state {char 2}, w_zip {char 9}, "
    "w_tax {numeric 4,4}, w_ytd {numeric 12,2})",

    "CREATE TABLE district (d_id {int} NOT NULL, d_w_id {int} NOT NULL, d_name {varchar 10}, "
    "d_street_1 {varchar 20}, d_street_2 {varchar 20}, d_city {varchar 20}, d_state {char 2}, "
    "d_zip {char 9}, d_tax {numeric 4,4}, d_ytd {numeric 12,2}, d_next_o_id {int})",

    "CREATE TABLE customer (c_id {int} NOT NULL, c_d_id {int} NOT NULL, c_w_id {int} NOT NULL, "
    "c_first {varchar 16}, c_middle {char 2}, c_last {varchar 16}, c_street_1 {varchar 20}, "
    "c_street_2 {varchar 20}, c_city {varchar 20}, c_state {char 2}, c_zip {char 9}, "
    "c_phone {char 16}, c_since {timestamp}, c_credit {char 2}, c_credit_lim {numeric 12,2}, "
    "c_discount {numeric 4,4}, c_balance {numeric 12,2}, c_ytd_payment {numeric 12,2}, "
    "c_payment_cnt {numeric 4,0}, c_delivery_cnt {numeric 4,0}, c_data {varchar 500})",

    "CREATE TABLE history (h_c_id {int}, h_c_d_id {int}, h_c_w_id {int}, h_d_id {int}, "
    "h_w_id {int}, h_date {timestamp}, h_amount {numeric 6,2}, h_data {varchar 24})",

    "CREATE TABLE new_order (no_o_id {int} NOT NULL, no_d_id {int} NOT NULL, "
    "no_w_id {int} NOT NULL)",

    "CREATE TABLE orders (o_id {int} NOT NULL, o_d_id {int} NOT NULL, o_w_id {int} NOT NULL, "
    "o_c_id {int}, o_entry_d {timestamp}, o_carrier_id {int}, o_ol_cnt {numeric 2,0}, "
    "o_all_local {numeric 1,0})",

    "CREATE TABLE order_line (ol_o_id {int} NOT NULL, ol_d_id {int} NOT NULL, "
    "ol_w_id {int} NOT NULL, ol_number {int} NOT NULL, ol_i_id {int}, ol_supply_w_id {int}, "
    "ol_delivery_d {timestamp}, ol_quantity {numeric 2,0}, ol_amount {numeric 6,2}, "
    "ol_dist_info {char 24})",

    "CREATE TABLE item (i_id {int} NOT NULL, i_im_id {int}, i_name {varchar 24}, "
    "i_price {numeric 5,2}, i_data {varchar 50})",

    "CREATE TABLE stock (s_i_id {int} NOT NULL, s_w_id {int} NOT NULL, s_quantity {numeric 4,0}, "
    "s_dist_01 {char 24}, s_dist_02 {char 24}, s_dist_03 {char 24}, s_dist_04 {char 24}, "
    "s_dist_05 {char 24}, s_dist_06 {char 24}, s_dist_07 {char 24}, s_dist_08 {char 24}, "
    "s_dist_09 {char 24}, s_dist_10 {char 24}, s_ytd {numeric 8,0}, s_order_cnt {numeric 4,0}, "
    "s_remote_cnt {numeric 4,0}, s_data {varchar 50})",

    "CREATE TABLE tpcc_meta (mt_warehouses {int} NOT NULL, mt_c_last {int} NOT NULL, "
    "mt_c_id {int} NOT NULL, mt_c_ol_i_id {int} NOT NULL, mt_seed {bigint}, "
    "mt_loaded_at {timestamp})",
};

/* Primary keys first (in the order the tables were loaded), then secondary indexes. */
static const struct {
    const char *table, *name, *cols;
    bool pk;
} keys[] = {
    {"item", "item_pkey", "i_id", true},
    {"warehouse", "warehouse_pkey", "w_id", true},
    {"district", "district_pkey", "d_w_id, d_id", true},
    {"stock", "stock_pkey", "s_w_id, s_i_id", true},
    {"customer", "customer_pkey", "c_w_id, c_d_id, c_id", true},
    {"orders", "orders_pkey", "o_w_id, o_d_id, o_id", true},
    {"new_order", "new_order_pkey", "no_w_id, no_d_id, no_o_id", true},
    {"order_line", "order_line_pkey", "ol_w_id, ol_d_id, ol_o_id, ol_number", true},
    {"customer", "customer_idx", "c_w_id, c_d_id, c_last, c_first", false},
    {"orders", "orders_idx", "o_w_id, o_d_id, o_c_id, o_id", false},
};

/* The primary key columns of the table a CREATE TABLE template makes (NULL: none). */
static const char *pk_of(const char *tmpl)
{
    const char *name = tmpl + strlen("CREATE TABLE ");
    size_t n = strcspn(name, " (");
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].pk && strlen(keys[i].table) == n && !strncmp(keys[i].table, name, n))
            return keys[i].cols;
    return NULL;
}

int dg_tpcc_create_tables(dg_conn *conn, dg_err *err)
{
    /* every unit of the loader writes its rows in key order: where the key is the storage
     * order (InnoDB), it is declared here rather than rebuilt after the load */
    for (size_t i = 0; i < sizeof ddl / sizeof ddl[0]; i++) {
        char *sql = dg_sql_create_table(conn->dialect, ddl[i], pk_of(ddl[i]));
        int rc = dg_exec(conn, sql, err);
        free(sql);
        if (rc)
            return rc;
    }
    return 0;
}

int dg_tpcc_create_indexes(dg_conn *conn, dg_loader *ld, dg_err *err)
{
    if (ld)
        conn = ld->conn;
    int rc = 0;
    dg_strbuf sb = DG_STRBUF_INIT;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && rc == 0; i++) {
        if (keys[i].pk && !dg_sql_pk_after_load(conn->dialect))
            continue; /* declared by CREATE TABLE */
        dg_sb_reset(&sb);
        if (keys[i].pk)
            dg_sql_add_pk(conn->dialect, keys[i].table, keys[i].name, keys[i].cols, &sb);
        else
            dg_sb_printf(&sb, "CREATE INDEX %s ON %s (%s)", keys[i].name, keys[i].table,
                         keys[i].cols);
        if (ld)
            dg_loader_step_begin(ld, "index", "index %s", keys[i].name);
        if (ld && (rc = dg_loader_check_stop(err)) != 0)
            break;
        rc = dg_exec(conn, dg_sb_str(&sb), err);
        if (rc)
            dg_err_prefix(err, "index %s", keys[i].name);
        else if (ld)
            dg_loader_step_end(ld, 0, 0);
    }
    dg_sb_free(&sb);
    return rc;
}
