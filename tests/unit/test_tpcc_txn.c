/*
 * test_tpcc_txn.c - each TPC-C transaction against a tiny hand-made dataset in an
 * in-memory SQLite database, with fixed inputs and exactly known results.
 *
 * The dataset (built by the workload's own DDL and index code, filled by hand):
 *   warehouse 1 (tax 0.1000) and 2 (tax 0.0500), w_ytd 300,000.00 each;
 *   districts (1,1) tax 0.0500 next 4, (1,2) tax 0.0200 next 3, (2,1) next 2;
 *   customers of (1,1): 1 AAA BARBARBAR GC disc 0.1000, 2 CCC BARBARBAR BC, 3 BBB BARBARBAR GC,
 *     4 ZZZ OUGHTOUGHTOUGHT GC; (1,2): 1 GC; (2,1): 1 BC with 495 characters of c_data;
 *   items 1 (10.00, ORIGINAL), 2 (2.50), 3 (99.99);
 *   stock w1: i1 q50 (s_data ORIGINAL), i2 q15, i3 q20; w2: i1 q30 (ORIGINAL), i2 q30, i3 q30;
 *   orders (1,1): 1 c1 carrier 5 (2 lines, delivered), 2 c2 (1 line 7.00), 3 c1 (2 lines);
 *     (1,2): 1 c1 (1 line 4.00), 2 c1 (1 line); (2,1): 1 c1 (delivered); new orders (1,1) 2, 3;
 *     (1,2) 1, 2.
 * The tests run in order on the same database; each asserts the rows it changed. The whole
 * sequence runs twice: with the dialect's UPDATE/DELETE ... RETURNING shapes, then with
 * those facts switched off, so that the SELECT ... {for_update} then UPDATE/DELETE shapes
 * (MySQL's) are exercised on SQLite too.
 */
#include "backend/backend.h"
#include "core/prng.h"
#include "workload/tpcc/tpcc.h"

#include "dgtest.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static dg_conn *conn;
static dg_tpcc_term term;
static dg_prng rng;
static bool no_returning;  /* second pass: dialect without RETURNING */
static dg_dialect plain;   /* the connection's dialect with RETURNING switched off */

static const char *const data_sql[] = {
    "INSERT INTO warehouse VALUES (1, 'W1name', 's1', 's2', 'c', 'ST', '123411111', 0.1000, "
    "300000.00)",
    "INSERT INTO warehouse VALUES (2, 'W2name', 's1', 's2', 'c', 'ST', '123411111', 0.0500, "
    "300000.00)",
    "INSERT INTO district VALUES (1, 1, 'D1', 's1', 's2', 'c', 'ST', '123411111', 0.0500, "
    "30000.00, 4)",
    "INSERT INTO district VALUES (2, 1, 'D2', 's1', 's2', 'c', 'ST', '123411111', 0.0200, "
    "30000.00, 3)",
    "INSERT INTO district VALUES (1, 2, 'D21', 's1', 's2', 'c', 'ST', '123411111', 0.0000, "
    "30000.00, 2)",
    "INSERT INTO customer VALUES (1, 1, 1, 'AAA', 'OE', 'BARBARBAR', 's1', 's2', 'c', 'ST', "
    "'123411111', '0123456789012345', '2024-01-01 00:00:00', 'GC', 50000.00, 0.1000, -10.00, "
    "10.00, 1, 0, 'gc data')",
    "INSERT INTO customer VALUES (2, 1, 1, 'CCC', 'OE', 'BARBARBAR', 's1', 's2', 'c', 'ST', "
    "'123411111', '0123456789012345', '2024-01-01 00:00:00', 'BC', 50000.00, 0.2000, -10.00, "
    "10.00, 1, 0, 'bc data')",
    "INSERT INTO customer VALUES (3, 1, 1, 'BBB', 'OE', 'BARBARBAR', 's1', 's2', 'c', 'ST', "
    "'123411111', '0123456789012345', '2024-01-01 00:00:00', 'GC', 50000.00, 0.0000, -10.00, "
    "10.00, 1, 0, 'gc data')",
    "INSERT INTO customer VALUES (4, 1, 1, 'ZZZ', 'OE', 'OUGHTOUGHTOUGHT', 's1', 's2', 'c', "
    "'ST', '123411111', '0123456789012345', '2024-01-01 00:00:00', 'GC', 50000.00, 0.0000, "
    "-10.00, 10.00, 1, 0, 'gc data')",
    "INSERT INTO customer VALUES (1, 2, 1, 'AAA', 'OE', 'BARBARBAR', 's1', 's2', 'c', 'ST', "
    "'123411111', '0123456789012345', '2024-01-01 00:00:00', 'GC', 50000.00, 0.0000, -10.00, "
    "10.00, 1, 0, 'gc data')",
    "INSERT INTO item VALUES (1, 11, 'item one', 10.00, 'xxORIGINALxxxxxxxxxxxxxxxx')",
    "INSERT INTO item VALUES (2, 22, 'item two', 2.50, 'yyyyyyyyyyyyyyyyyyyyyyyyyy')",
    "INSERT INTO item VALUES (3, 33, 'item three', 99.99, 'zzzzzzzzzzzzzzzzzzzzzzzzzz')",
    "INSERT INTO orders VALUES (1, 1, 1, 1, '2024-01-01 00:00:00', 5, 2, 1)",
    "INSERT INTO orders VALUES (2, 1, 1, 2, '2024-01-01 00:00:00', NULL, 1, 1)",
    "INSERT INTO orders VALUES (3, 1, 1, 1, '2024-01-01 00:00:00', NULL, 2, 1)",
    "INSERT INTO orders VALUES (1, 2, 1, 1, '2024-01-01 00:00:00', NULL, 1, 1)",
    "INSERT INTO orders VALUES (2, 2, 1, 1, '2024-01-01 00:00:00', NULL, 1, 1)",
    "INSERT INTO orders VALUES (1, 1, 2, 1, '2024-01-01 00:00:00', 3, 1, 1)",
    "INSERT INTO new_order VALUES (2, 1, 1)",
    "INSERT INTO new_order VALUES (3, 1, 1)",
    "INSERT INTO new_order VALUES (1, 2, 1)",
    "INSERT INTO new_order VALUES (2, 2, 1)",
    "INSERT INTO order_line VALUES (1, 1, 1, 1, 2, 1, '2024-01-01 00:00:00', 5, 0.00, "
    "'dddddddddddddddddddddddd')",
    "INSERT INTO order_line VALUES (1, 1, 1, 2, 2, 1, '2024-01-01 00:00:00', 5, 0.00, "
    "'dddddddddddddddddddddddd')",
    "INSERT INTO order_line VALUES (2, 1, 1, 1, 1, 1, NULL, 5, 7.00, 'dddddddddddddddddddddddd')",
    "INSERT INTO order_line VALUES (3, 1, 1, 1, 2, 1, NULL, 5, 3.00, 'dddddddddddddddddddddddd')",
    "INSERT INTO order_line VALUES (3, 1, 1, 2, 1, 1, NULL, 5, 4.50, 'dddddddddddddddddddddddd')",
    "INSERT INTO order_line VALUES (1, 2, 1, 1, 3, 1, NULL, 5, 4.00, 'dddddddddddddddddddddddd')",
    "INSERT INTO order_line VALUES (2, 2, 1, 1, 3, 1, NULL, 5, 6.00, 'dddddddddddddddddddddddd')",
    "INSERT INTO order_line VALUES (1, 1, 2, 1, 1, 2, '2024-01-01 00:00:00', 5, 0.00, "
    "'dddddddddddddddddddddddd')",
    "INSERT INTO tpcc_meta VALUES (2, 100, 200, 300, 1, '2024-01-01 00:00:00')",
};

/* One integer (or cents/10^4 value with scale) from a query. */
static int64_t q_int(const char *sql)
{
    int64_t v = -999999;
    bool found = false;
    dg_err e;
    if (dg_query_int(conn, sql, NULL, 0, &v, &found, &e) || !found) {
        fprintf(stderr, "query failed or empty: %s: %s\n", sql, e.msg);
        return -999999;
    }
    return v;
}

/* A numeric column as an integer scaled by 10^scale. */
static int64_t q_scaled(const char *sql, int scale)
{
    dg_stmt *s = NULL;
    dg_err e;
    int64_t x = -999999;
    if (dg_prepare(conn, sql, &s, &e) || dg_execute(s, NULL, 0, &e) || dg_fetch(s, &e) != 1) {
        fprintf(stderr, "query failed: %s: %s\n", sql, e.msg);
    } else {
        dg_value v;
        dg_column(s, 0, &v);
        if (!dg_tpcc_scaled(&v, scale, &x))
            x = -888888;
    }
    dg_stmt_free(s);
    return x;
}

/* A text column into buf. */
static const char *q_text(const char *sql, char *buf, size_t cap)
{
    dg_stmt *s = NULL;
    dg_err e;
    snprintf(buf, cap, "(none)");
    if (dg_prepare(conn, sql, &s, &e) || dg_execute(s, NULL, 0, &e) || dg_fetch(s, &e) != 1) {
        fprintf(stderr, "query failed: %s: %s\n", sql, e.msg);
    } else {
        dg_value v;
        dg_column(s, 0, &v);
        if (v.type == DG_V_TEXT)
            snprintf(buf, cap, "%.*s", (int)v.u.s.len, v.u.s.ptr);
        else if (v.type == DG_V_NULL)
            snprintf(buf, cap, "NULL");
    }
    dg_stmt_free(s);
    return buf;
}

static void setup(void)
{
    dg_err e;
    dg_err_clear(&e);
    dg_connopts co = {0};
    DG_CHECK(dg_connect("sqlite::memory:", &co, &conn, &e) == 0);
    if (!conn)
        return;
    DG_CHECK(dg_tpcc_create_tables(conn, &e) == 0);
    /* stock with distinct s_dist_XX per (warehouse, item, district) */
    for (int w = 1; w <= 2; w++) {
        for (int i = 1; i <= 3; i++) {
            char sql[1024];
            int q = w == 1 ? (i == 1 ? 50 : i == 2 ? 15 : 20) : 30;
            int n = snprintf(sql, sizeof sql, "INSERT INTO stock VALUES (%d, %d, %d", i, w, q);
            for (int d = 1; d <= 10; d++)
                n += snprintf(sql + n, sizeof sql - (size_t)n, ", 'dist-w%d-i%d-d%02d-xxxxxxxx'", w,
                              i, d);
            snprintf(sql + n, sizeof sql - (size_t)n, ", 0, 0, 0, '%s')",
                     i == 1 ? "sORIGINALsssssssssssssssss" : "ssssssssssssssssssssssssss");
            DG_CHECK(dg_exec(conn, sql, &e) == 0);
        }
    }
    for (size_t i = 0; i < sizeof data_sql / sizeof data_sql[0]; i++) {
        int rc = dg_exec(conn, data_sql[i], &e);
        if (rc)
            fprintf(stderr, "%s: %s\n", data_sql[i], e.msg);
        DG_CHECK(rc == 0);
    }
    /* customer (2,1,1): BC with 495 characters of c_data */
    char sql[700];
    snprintf(sql, sizeof sql,
             "INSERT INTO customer VALUES (1, 1, 2, 'AAA', 'OE', 'BARBARBAR', 's1', 's2', 'c', "
             "'ST', '123411111', '0123456789012345', '2024-01-01 00:00:00', 'BC', 50000.00, "
             "0.0000, -10.00, 10.00, 1, 0, '%0495d')",
             7);
    DG_CHECK(dg_exec(conn, sql, &e) == 0);
    DG_CHECK(dg_tpcc_create_indexes(conn, NULL, &e) == 0);
    if (no_returning) {
        plain = *conn->dialect;
        plain.update_returning = false;
        plain.delete_returning = false;
        conn->dialect = &plain;
    }

    memset(&term, 0, sizeof term);
    dg_prng_seed(&rng, 1);
    term.rng = &rng;
    term.warehouses = 2;
    term.w_id = 1;
    term.sl_d_id = 1;
    term.c = (dg_tpcc_consts){.c_last_load = 100, .c_last_run = 170, .c_id = 200, .c_ol_i_id = 300};
    int rc = dg_tpcc_term_init(&term, conn, &e);
    if (rc)
        fprintf(stderr, "term_init: %s\n", e.msg);
    DG_CHECK(rc == 0);
    DG_CHECK(term.update_returning == !no_returning && term.delete_returning == !no_returning);
    DG_CHECK(no_returning ? term.no_dist_sel && term.dl_no_first && !term.no_dist_upd_ret
                          : term.no_dist_upd_ret && term.dl_no_del_ret && !term.no_dist_sel);
}

/* Order 4 of district (1, 1), for customer 1: items 3 (x5), 1 from warehouse 2 (x3) and
 * 2 (x6). Later tests that need it in the database place it first. */
static void place_order_4(dg_tpcc_no_out *out)
{
    dg_tpcc_no_in in = {.w_id = 1, .d_id = 1, .c_id = 1, .ol_cnt = 3};
    in.line[0] = (dg_tpcc_line_in){.i_id = 3, .supply_w_id = 1, .quantity = 5};
    in.line[1] = (dg_tpcc_line_in){.i_id = 1, .supply_w_id = 2, .quantity = 3};
    in.line[2] = (dg_tpcc_line_in){.i_id = 2, .supply_w_id = 1, .quantity = 6};
    dg_err e;
    int rc = dg_tpcc_new_order(&term, &in, out, &e);
    if (rc)
        fprintf(stderr, "new_order: %s\n", e.msg);
    DG_CHECK_INT(rc, 0);
}

static void test_new_order(void)
{
    dg_tpcc_no_out out;
    place_order_4(&out);
    DG_CHECK(!out.rolled_back);
    DG_CHECK_INT(out.o_id, 4);
    DG_CHECK_INT(out.w_tax, 1000);
    DG_CHECK_INT(out.d_tax, 500);
    DG_CHECK_INT(out.c_discount, 1000);
    DG_CHECK_STR(out.c_last, "BARBARBAR");
    DG_CHECK_STR(out.c_credit, "GC");
    DG_CHECK_INT(out.amount_cents[0], 49995); /* 5 x 99.99 */
    DG_CHECK_INT(out.amount_cents[1], 3000);  /* 3 x 10.00 */
    DG_CHECK_INT(out.amount_cents[2], 1500);  /* 6 x 2.50 */
    DG_CHECK_INT(out.s_quantity[0], 15);      /* 20 >= 5 + 10: 20 - 5 */
    DG_CHECK_INT(out.s_quantity[1], 27);      /* 30 - 3 */
    DG_CHECK_INT(out.s_quantity[2], 100);     /* 15 < 6 + 10: 15 - 6 + 91 */
    DG_CHECK(out.brand_generic[0] == 'G' && out.brand_generic[1] == 'B' &&
             out.brand_generic[2] == 'G');
    /* 544.95 x 0.9 x 1.15 = 564.02325 */
    DG_CHECK_INT(out.total_cents, 56402);

    char buf[64];
    DG_CHECK_INT(q_int("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1"), 5);
    DG_CHECK_INT(q_int("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 2"), 3);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 4 "
                       "AND o_c_id = 1 AND o_carrier_id IS NULL AND o_ol_cnt = 3 AND "
                       "o_all_local = 0 AND o_entry_d IS NOT NULL"),
                 1);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND "
                       "no_o_id = 4"),
                 1);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND "
                       "ol_o_id = 4"),
                 3);
    DG_CHECK_STR(q_text("SELECT ol_i_id || '/' || ol_supply_w_id || '/' || ol_quantity || '/' || "
                        "ol_dist_info FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND "
                        "ol_o_id = 4 AND ol_number = 2",
                        buf, sizeof buf),
                 "1/2/3/dist-w2-i1-d01-xxxxxxxx");
    DG_CHECK_INT(q_scaled("SELECT ol_amount FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND "
                          "ol_o_id = 4 AND ol_number = 1",
                          2),
                 49995);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM order_line WHERE ol_o_id = 4 AND "
                       "ol_delivery_d IS NULL"),
                 3);
    /* stock: quantity, ytd, order and remote counts */
    DG_CHECK_STR(q_text("SELECT s_quantity || '/' || s_ytd || '/' || s_order_cnt || '/' || "
                        "s_remote_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 3",
                        buf, sizeof buf),
                 "15/5/1/0");
    DG_CHECK_STR(q_text("SELECT s_quantity || '/' || s_ytd || '/' || s_order_cnt || '/' || "
                        "s_remote_cnt FROM stock WHERE s_w_id = 2 AND s_i_id = 1",
                        buf, sizeof buf),
                 "27/3/1/1");
    DG_CHECK_STR(q_text("SELECT s_quantity || '/' || s_ytd || '/' || s_order_cnt || '/' || "
                        "s_remote_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 2",
                        buf, sizeof buf),
                 "100/6/1/0");
    DG_CHECK_INT(q_int("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 1"), 50);
}

static void test_new_order_rollback(void)
{
    dg_tpcc_no_in in = {.w_id = 1, .d_id = 2, .c_id = 1, .ol_cnt = 2};
    in.line[0] = (dg_tpcc_line_in){.i_id = 2, .supply_w_id = 1, .quantity = 1};
    in.line[1] = (dg_tpcc_line_in){.i_id = TPCC_UNUSED_ITEM, .supply_w_id = 1, .quantity = 1};
    dg_tpcc_no_out out;
    dg_err e;
    DG_CHECK_INT(dg_tpcc_new_order(&term, &in, &out, &e), 0);
    DG_CHECK(out.rolled_back);
    DG_CHECK(!conn->in_tx);
    /* nothing of it stays */
    DG_CHECK_INT(q_int("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 2"), 3);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM orders WHERE o_w_id = 1 AND o_d_id = 2"), 2);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 2"), 2);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2"), 2);
    DG_CHECK_INT(q_int("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 2"), 15);
    DG_CHECK_INT(q_int("SELECT s_order_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 2"), 0);
}

/* 100.00 paid by last name BARBARBAR in district (1, 1): customer 3 pays. */
static void pay_barbarbar(dg_tpcc_pay_in *in, dg_tpcc_pay_out *out)
{
    *in = (dg_tpcc_pay_in){.w_id = 1, .d_id = 1, .c_w_id = 1, .c_d_id = 1, .by_name = true,
                           .amount_cents = 10000};
    snprintf(in->c_last, sizeof in->c_last, "BARBARBAR");
    dg_err e;
    int rc = dg_tpcc_payment(&term, in, out, &e);
    if (rc)
        fprintf(stderr, "payment: %s\n", e.msg);
    DG_CHECK_INT(rc, 0);
}

static void test_payment_by_name(void)
{
    dg_tpcc_pay_in in;
    dg_tpcc_pay_out out;
    dg_err e;
    pay_barbarbar(&in, &out);
    /* namesakes by c_first: AAA (1), BBB (3), CCC (2): ceil(3/2) = 2nd = customer 3 */
    DG_CHECK_INT(out.name_matches, 3);
    DG_CHECK_INT(out.c_id, 3);
    DG_CHECK_INT(out.c_balance_cents, -11000);
    DG_CHECK_STR(out.c_credit, "GC");
    char buf[600];
    DG_CHECK_INT(q_scaled("SELECT w_ytd FROM warehouse WHERE w_id = 1", 2), 30010000);
    DG_CHECK_INT(q_scaled("SELECT w_ytd FROM warehouse WHERE w_id = 2", 2), 30000000);
    DG_CHECK_INT(q_scaled("SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 1", 2), 3010000);
    DG_CHECK_INT(q_scaled("SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND "
                          "c_id = 3",
                          2),
                 -11000);
    DG_CHECK_INT(q_scaled("SELECT c_ytd_payment FROM customer WHERE c_w_id = 1 AND c_d_id = 1 "
                          "AND c_id = 3",
                          2),
                 11000);
    DG_CHECK_INT(q_int("SELECT c_payment_cnt FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND "
                       "c_id = 3"),
                 2);
    DG_CHECK_STR(q_text("SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 3",
                        buf, sizeof buf),
                 "gc data");
    /* other namesakes untouched */
    DG_CHECK_INT(q_scaled("SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND "
                          "c_id = 1",
                          2),
                 -1000);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM history"), 1);
    DG_CHECK_STR(q_text("SELECT h_c_id || '/' || h_c_d_id || '/' || h_c_w_id || '/' || h_d_id || "
                        "'/' || h_w_id || '/' || h_data FROM history",
                        buf, sizeof buf),
                 "3/1/1/1/1/W1name    D1");
    DG_CHECK_INT(q_scaled("SELECT h_amount FROM history", 2), 10000);

    /* a single namesake: customer 4 */
    snprintf(in.c_last, sizeof in.c_last, "OUGHTOUGHTOUGHT");
    in.amount_cents = 1;
    DG_CHECK_INT(dg_tpcc_payment(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.name_matches, 1);
    DG_CHECK_INT(out.c_id, 4);
}

static void test_payment_remote_bc(void)
{
    /* home (1, 2), customer (2, 1, 1) of the other warehouse, bad credit */
    dg_tpcc_pay_in in = {.w_id = 1, .d_id = 2, .c_w_id = 2, .c_d_id = 1, .c_id = 1,
                         .amount_cents = 1234};
    dg_tpcc_pay_out out;
    dg_err e;
    DG_CHECK_INT(dg_tpcc_payment(&term, &in, &out, &e), 0);
    DG_CHECK_STR(out.c_credit, "BC");
    DG_CHECK_INT(out.c_balance_cents, -2234);
    char buf[600];
    q_text("SELECT c_data FROM customer WHERE c_w_id = 2 AND c_d_id = 1 AND c_id = 1", buf,
           sizeof buf);
    /* "1 1 2 2 1 12.34 " (16 characters) in front, the old 495 cut to 484: 500 in all */
    DG_CHECK_INT(strlen(buf), 500);
    DG_CHECK(!strncmp(buf, "1 1 2 2 1 12.34 0000", 20));
    DG_CHECK(buf[499] == '0');
    DG_CHECK_INT(q_scaled("SELECT w_ytd FROM warehouse WHERE w_id = 1", 2), 30000000 + 1234);
    DG_CHECK_INT(q_scaled("SELECT w_ytd FROM warehouse WHERE w_id = 2", 2), 30000000);
    DG_CHECK_INT(q_scaled("SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 2", 2),
                 3000000 + 1234);
    DG_CHECK_STR(q_text("SELECT h_c_id || '/' || h_c_d_id || '/' || h_c_w_id || '/' || h_d_id || "
                        "'/' || h_w_id || '/' || h_data FROM history WHERE h_c_w_id = 2",
                        buf, sizeof buf),
                 "1/1/2/2/1/W1name    D2");
}

static void test_order_status(void)
{
    dg_tpcc_no_out no;
    place_order_4(&no);
    dg_tpcc_pay_in pin;
    dg_tpcc_pay_out pout;
    pay_barbarbar(&pin, &pout);
    dg_tpcc_os_in in = {.w_id = 1, .d_id = 1, .c_id = 1};
    dg_tpcc_os_out out;
    dg_err e;
    DG_CHECK_INT(dg_tpcc_order_status(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.c_id, 1);
    DG_CHECK_INT(out.c_balance_cents, -1000);
    DG_CHECK_INT(out.o_id, 4); /* the newest: the New-Order above */
    DG_CHECK_INT(out.o_carrier_id, 0);
    DG_CHECK_INT(out.ol_count, 3);
    DG_CHECK_INT(out.ol_amount_cents, 49995 + 3000 + 1500);
    DG_CHECK(!conn->in_tx);

    /* by name: customer 3 (BBB) has no order */
    in = (dg_tpcc_os_in){.w_id = 1, .d_id = 1, .by_name = true};
    snprintf(in.c_last, sizeof in.c_last, "BARBARBAR");
    DG_CHECK_INT(dg_tpcc_order_status(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.c_id, 3);
    DG_CHECK_INT(out.c_balance_cents, -11000);
    DG_CHECK_INT(out.o_id, 0);

    /* customer 2's only order, 2 */
    in = (dg_tpcc_os_in){.w_id = 1, .d_id = 1, .c_id = 2};
    DG_CHECK_INT(dg_tpcc_order_status(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.o_id, 2);
    DG_CHECK_INT(out.ol_count, 1);
    DG_CHECK_INT(out.ol_amount_cents, 700);
}

static void test_stock_level(void)
{
    /* district (1,1): next 5, orders 1..4; their items: 2, 1, 2, 1, 3, 1, 2 (w1 stock:
     * i1 50, i2 100, i3 15) */
    dg_tpcc_no_out no;
    place_order_4(&no);
    dg_tpcc_sl_in in = {.w_id = 1, .d_id = 1, .threshold = 20};
    dg_tpcc_sl_out out;
    dg_err e;
    DG_CHECK_INT(dg_tpcc_stock_level(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.low_stock, 1); /* i3 */
    in.threshold = 51;
    DG_CHECK_INT(dg_tpcc_stock_level(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.low_stock, 2); /* i3, i1 (distinct although ordered three times) */
    in.threshold = 10;
    DG_CHECK_INT(dg_tpcc_stock_level(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.low_stock, 0);
}

static void test_delivery(void)
{
    dg_tpcc_no_out no;
    place_order_4(&no);
    dg_tpcc_dl_in in = {.w_id = 1, .carrier_id = 7};
    dg_tpcc_dl_out out;
    dg_err e;
    int rc = dg_tpcc_delivery(&term, &in, &out, &e);
    if (rc)
        fprintf(stderr, "delivery: %s\n", e.msg);
    DG_CHECK_INT(rc, 0);
    DG_CHECK_INT(out.skipped, 8); /* districts 3..10 have no new orders */
    DG_CHECK_INT(out.races, 0);
    DG_CHECK_INT(out.o_id[0], 2);
    DG_CHECK_INT(out.o_id[1], 1);
    DG_CHECK_INT(out.amount_cents[0], 700);
    DG_CHECK_INT(out.amount_cents[1], 400);
    /* district 1: order 2 of customer 2 */
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND "
                       "no_o_id = 2"),
                 0);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 1"), 2);
    DG_CHECK_INT(q_int("SELECT o_carrier_id FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND "
                       "o_id = 2"),
                 7);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM orders WHERE o_carrier_id = 7"), 2);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND "
                       "ol_o_id = 2 AND ol_delivery_d IS NOT NULL"),
                 1);
    DG_CHECK_INT(q_scaled("SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND "
                          "c_id = 2",
                          2),
                 -1000 + 700);
    DG_CHECK_INT(q_int("SELECT c_delivery_cnt FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND "
                       "c_id = 2"),
                 1);
    /* district 2: order 1 of customer 1 */
    DG_CHECK_INT(q_scaled("SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND "
                          "c_id = 1",
                          2),
                 -1000 + 400);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 2"), 1);
    /* the undelivered ones stay */
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND "
                       "ol_o_id = 3 AND ol_delivery_d IS NULL"),
                 2);

    /* again: district 1 order 3, district 2 order 2; then 4 and nothing; then nothing */
    DG_CHECK_INT(dg_tpcc_delivery(&term, &in, &out, &e), 0);
    DG_CHECK(out.o_id[0] == 3 && out.o_id[1] == 2 && out.skipped == 8);
    DG_CHECK_INT(dg_tpcc_delivery(&term, &in, &out, &e), 0);
    DG_CHECK(out.o_id[0] == 4 && out.o_id[1] == 0 && out.skipped == 9);
    DG_CHECK_INT(dg_tpcc_delivery(&term, &in, &out, &e), 0);
    DG_CHECK_INT(out.skipped, 10);
    DG_CHECK_INT(q_int("SELECT COUNT(*) FROM new_order"), 0);
    /* customer 1 of (1,1) received orders 3 (7.50) and 4 (544.95) */
    DG_CHECK_INT(q_scaled("SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND "
                          "c_id = 1",
                          2),
                 -1000 + 750 + 54495);
}

static void test_generated_inputs(void)
{
    /* the generators stay within the profiles' ranges; 1% of New-Orders end on an unused
     * item; 1% of lines come from another warehouse; 60% of Payments go by last name and
     * 15% to a remote customer */
    int unused = 0, lines = 0, remote = 0, by_name = 0, remote_cust = 0;
    const int N = 20000, failed_before = dgt_fail;
    for (int k = 0; k < N; k++) {
        dg_tpcc_no_in no;
        dg_tpcc_gen_new_order(&term, &no);
        unused += no.line[no.ol_cnt - 1].i_id == TPCC_UNUSED_ITEM;
        lines += no.ol_cnt;
        for (int i = 0; i < no.ol_cnt; i++)
            remote += no.line[i].supply_w_id != no.w_id;
        DG_CHECK(no.w_id == 1 && no.d_id >= 1 && no.d_id <= 10 && no.c_id >= 1 && no.c_id <= 3000);
        DG_CHECK(no.ol_cnt >= 5 && no.ol_cnt <= 15);
        for (int i = 0; i < no.ol_cnt; i++) {
            DG_CHECK((no.line[i].i_id >= 1 && no.line[i].i_id <= 100000) ||
                     (no.line[i].i_id == TPCC_UNUSED_ITEM && i == no.ol_cnt - 1));
            DG_CHECK(no.line[i].supply_w_id == 1 || no.line[i].supply_w_id == 2);
            DG_CHECK(no.line[i].quantity >= 1 && no.line[i].quantity <= 10);
        }
        dg_tpcc_pay_in p;
        dg_tpcc_gen_payment(&term, &p);
        DG_CHECK(p.amount_cents >= 100 && p.amount_cents <= 500000);
        DG_CHECK(p.c_w_id == 1 || (p.c_w_id == 2 && p.c_d_id >= 1 && p.c_d_id <= 10));
        DG_CHECK(p.by_name ? strlen(p.c_last) >= 9 : (p.c_id >= 1 && p.c_id <= 3000));
        by_name += p.by_name;
        remote_cust += p.c_w_id != p.w_id;
        dg_tpcc_sl_in s;
        dg_tpcc_gen_stock_level(&term, &s);
        DG_CHECK(s.d_id == 1 && s.threshold >= 10 && s.threshold <= 20);
        if (dgt_fail != failed_before)
            break;
    }
    /* tolerances: 5 standard deviations */
    DG_CHECK_NEAR((double)unused / N, 0.01, 5 * sqrt(0.01 * 0.99 / N));
    DG_CHECK_NEAR((double)remote / lines, 0.01, 5 * sqrt(0.01 * 0.99 / lines));
    DG_CHECK_NEAR((double)by_name / N, 0.60, 5 * sqrt(0.6 * 0.4 / N));
    DG_CHECK_NEAR((double)remote_cust / N, 0.15, 5 * sqrt(0.15 * 0.85 / N));
}

static void teardown(void)
{
    dg_tpcc_term_fini(&term);
    dg_conn_close(conn);
    conn = NULL;
}

/* Every test gets a database of its own, loaded by setup(), so each can run alone:
 * `test_tpcc_txn NAME...` runs only the named tests (e.g. test_delivery). */
int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
#define T(fn) {#fn, fn}
        T(test_new_order),   T(test_new_order_rollback), T(test_payment_by_name),
        T(test_payment_remote_bc), T(test_order_status), T(test_stock_level),
        T(test_delivery),    T(test_generated_inputs),
#undef T
    };
    for (int pass = 0; pass < 2; pass++) {
        no_returning = pass == 1;
        fprintf(stderr, "pass %d: %s\n", pass + 1,
                no_returning ? "SELECT ... FOR UPDATE shapes" : "RETURNING shapes");
        for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
            bool wanted = argc < 2;
            for (int a = 1; a < argc; a++)
                wanted |= !strcmp(argv[a], tests[i].name);
            if (!wanted)
                continue;
            DG_RUN(setup);
            if (!conn)
                break;
            DG_RUN_AS(tests[i].name, tests[i].fn);
            teardown();
        }
    }
    DG_TEST_END();
}
