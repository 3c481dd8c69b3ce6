/*
 * check.c - the TPC-C consistency conditions (Clause 3.3.2.1-3.3.2.12).
 *
 * Two kinds of checks:
 *   - conditions that compare a row with rows it owns (C1, C2, C3, C5, C6, C7) are one
 *     counting query each, prepared once and run per warehouse, so that every query stays
 *     bounded by one warehouse's rows and follows the primary-key indexes;
 *   - conditions that compare two aggregates (C4, C8, C9, C10, C12) run two plain grouped
 *     queries and compare the groups in C. Joining grouped derived tables in SQL would be
 *     shorter, but some optimizers (Firebird 3) evaluate such a derived table once per
 *     outer row, which turns a check of seconds into hours.
 * Money is compared in cents after rounding (dg_tpcc_scaled), which is exact for the
 * NUMERIC columns of server databases and absorbs the REAL rounding of SQLite; in SQL the
 * same rule reads ABS(x - y) > 0.005.
 *
 * C10 sums each customer's HISTORY rows: with no index on history that is a scan of the
 * table per warehouse, so above DEFAULT_FULL_W warehouses it is skipped (with a reason)
 * unless --wl-opt check=full. C11 holds only until a district's first Delivery: it is
 * checked on the districts where no order beyond the initial 2100 was delivered and the
 * others are reported as skipped.
 */
#include "workload/tpcc/tpcc.h"

#include "core/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FULL_W 50

/* A per-warehouse condition: its query takes the warehouse id `nparams` times. */
typedef struct cond {
    const char *name;
    const char *sql;
    int nparams;
} cond;

static const cond per_w[] = {
    {"C1  W_YTD = sum(D_YTD)",
     "SELECT COUNT(*) FROM warehouse w WHERE w.w_id = ? AND ABS(w.w_ytd - COALESCE((SELECT "
     "SUM(d.d_ytd) FROM district d WHERE d.d_w_id = w.w_id), 0)) > 0.005",
     1},
    {"C2  D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)",
     "SELECT COUNT(*) FROM district d WHERE d.d_w_id = ? AND (d.d_next_o_id - 1 <> "
     "COALESCE((SELECT MAX(o.o_id) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = "
     "d.d_id), 0) OR d.d_next_o_id - 1 <> COALESCE((SELECT MAX(n.no_o_id) FROM new_order n "
     "WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id), d.d_next_o_id - 1))",
     1},
    {"C3  max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW_ORDER)",
     "SELECT COUNT(*) FROM (SELECT no_d_id FROM new_order WHERE no_w_id = ? GROUP BY no_d_id "
     "HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*)) x",
     1},
    {"C5  O_CARRIER_ID is NULL <=> a NEW_ORDER row exists",
     "SELECT COUNT(*) FROM orders o LEFT JOIN new_order n ON n.no_w_id = o.o_w_id AND "
     "n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id WHERE o.o_w_id = ? AND ((o.o_carrier_id IS "
     "NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL))",
     1},
    {"C6  O_OL_CNT = order lines of the order",
     "SELECT COUNT(*) FROM orders o WHERE o.o_w_id = ? AND o.o_ol_cnt <> (SELECT COUNT(*) FROM "
     "order_line ol WHERE ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = "
     "o.o_id)",
     1},
    {"C7  OL_DELIVERY_D is NULL <=> O_CARRIER_ID is NULL",
     "SELECT COUNT(*) FROM orders o JOIN order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id "
     "= o.o_d_id AND ol.ol_o_id = o.o_id WHERE o.o_w_id = ? AND ((ol.ol_delivery_d IS NULL AND "
     "o.o_carrier_id IS NOT NULL) OR (ol.ol_delivery_d IS NOT NULL AND o.o_carrier_id IS "
     "NULL))",
     1},
};

static const char c11_name[] = "C11 count(ORDERS) - count(NEW_ORDER) = 2100 per district";
static const char c11_sql[] =
    "SELECT d.d_id, (SELECT COUNT(*) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = "
    "d.d_id), (SELECT COUNT(*) FROM new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = "
    "d.d_id), (SELECT COUNT(*) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id "
    "AND o.o_id >= 2101 AND o.o_carrier_id IS NOT NULL) FROM district d WHERE d.d_w_id = ?";

/* Runs a counting condition for warehouses 1..W (or once when nparams == 0). */
static int count_cond(dg_conn *conn, const cond *c, int64_t warehouses, int64_t *bad, dg_err *err)
{
    dg_stmt *s = NULL;
    int rc = dg_prepare(conn, c->sql, &s, err);
    *bad = 0;
    int64_t last = c->nparams ? warehouses : 1;
    for (int64_t w = 1; rc == 0 && w <= last; w++) {
        dg_value p[3] = {dg_vint(w), dg_vint(w), dg_vint(w)};
        rc = dg_execute(s, p, c->nparams, err);
        if (rc)
            break;
        int r = dg_fetch(s, err);
        if (r < 0) {
            rc = r;
            break;
        }
        if (r == 1) {
            dg_value v;
            dg_column(s, 0, &v);
            int64_t n = 0;
            dg_value_as_int(&v, &n);
            *bad += n;
        }
        dg_stmt_reset(s);
    }
    if (rc)
        dg_err_prefix(err, "%.3s", c->name);
    dg_stmt_free(s);
    return rc;
}

/* Grouped sums read into an array: each row of sql is (key0[, key1], value); value (scaled
 * by 10^scale and rounded) is added to sums[key0] or sums[key0 * n1 + key1]. Rows whose keys
 * fall outside [0, n0) x [0, n1) are counted in *stray. Parameters: p[0..np). */
static int sum_groups(dg_conn *conn, const char *sql, const dg_value *p, int np, int nkeys,
                      int64_t n0, int64_t n1, int scale, int64_t *sums, int64_t *stray,
                      dg_err *err)
{
    dg_stmt *s = NULL;
    int rc = dg_prepare(conn, sql, &s, err);
    if (rc == 0)
        rc = dg_execute(s, p, np, err);
    int r = 0;
    while (rc == 0 && (r = dg_fetch(s, err)) == 1) {
        dg_value v;
        int64_t k0 = -1, k1 = 0, x = 0;
        dg_column(s, 0, &v);
        dg_value_as_int(&v, &k0);
        if (nkeys == 2) {
            dg_column(s, 1, &v);
            dg_value_as_int(&v, &k1);
        }
        dg_column(s, nkeys, &v);
        if (!dg_tpcc_scaled(&v, scale, &x))
            x = 0; /* NULL sum: no rows */
        if (k0 < 0 || k0 >= n0 || k1 < 0 || k1 >= n1)
            (*stray)++;
        else
            sums[k0 * n1 + k1] += x;
    }
    if (rc == 0 && r < 0)
        rc = r;
    if (s) {
        dg_stmt_reset(s);
        dg_stmt_free(s);
    }
    return rc;
}

#define NDIST (TPCC_DISTRICTS + 1) /* arrays indexed by d_id 1..10 */
#define NCUST (TPCC_CUSTOMERS + 1) /* by c_id 1..3000 */

/* C4: sum(O_OL_CNT) = count(ORDER_LINE) per district. */
static int check_c4(dg_conn *conn, int64_t warehouses, int64_t *bad, dg_err *err)
{
    *bad = 0;
    for (int64_t w = 1; w <= warehouses; w++) {
        int64_t a[NDIST] = {0}, b[NDIST] = {0};
        dg_value p = dg_vint(w);
        int rc = sum_groups(conn, "SELECT o_d_id, SUM(o_ol_cnt) FROM orders WHERE o_w_id = ? "
                                  "GROUP BY o_d_id",
                            &p, 1, 1, NDIST, 1, 0, a, bad, err);
        if (rc == 0)
            rc = sum_groups(conn, "SELECT ol_d_id, COUNT(*) FROM order_line WHERE ol_w_id = ? "
                                  "GROUP BY ol_d_id",
                            &p, 1, 1, NDIST, 1, 0, b, bad, err);
        if (rc) {
            dg_err_prefix(err, "C4");
            return rc;
        }
        for (int d = 1; d < NDIST; d++)
            *bad += a[d] != b[d];
    }
    return 0;
}

/* C8 (W_YTD = sum(H_AMOUNT) by h_w_id) and C9 (D_YTD = sum(H_AMOUNT) by h_w_id, h_d_id):
 * one grouped pass over HISTORY each. */
static int check_c8_c9(dg_conn *conn, int64_t warehouses, int64_t *bad8, int64_t *bad9,
                       dg_err *err)
{
    int64_t nw = warehouses + 1;
    int64_t *hw = xcalloc((size_t)nw, sizeof *hw), *yw = xcalloc((size_t)nw, sizeof *yw);
    int64_t *hd = xcalloc((size_t)(nw * NDIST), sizeof *hd);
    int64_t *yd = xcalloc((size_t)(nw * NDIST), sizeof *yd);
    *bad8 = *bad9 = 0;
    int rc = sum_groups(conn, "SELECT h_w_id, SUM(h_amount) FROM history GROUP BY h_w_id", NULL,
                        0, 1, nw, 1, 2, hw, bad8, err);
    if (rc == 0)
        rc = sum_groups(conn, "SELECT w_id, w_ytd FROM warehouse", NULL, 0, 1, nw, 1, 2, yw, bad8,
                        err);
    if (rc == 0)
        rc = sum_groups(conn, "SELECT h_w_id, h_d_id, SUM(h_amount) FROM history GROUP BY h_w_id, "
                              "h_d_id",
                        NULL, 0, 2, nw, NDIST, 2, hd, bad9, err);
    if (rc == 0)
        rc = sum_groups(conn, "SELECT d_w_id, d_id, d_ytd FROM district", NULL, 0, 2, nw, NDIST, 2,
                        yd, bad9, err);
    if (rc == 0) {
        for (int64_t w = 1; w < nw; w++) {
            *bad8 += hw[w] != yw[w];
            for (int d = 1; d < NDIST; d++)
                *bad9 += hd[w * NDIST + d] != yd[w * NDIST + d];
        }
    } else {
        dg_err_prefix(err, "C8/C9");
    }
    free(hw);
    free(yw);
    free(hd);
    free(yd);
    return rc;
}

/* C12 (C_BALANCE + C_YTD_PAYMENT = sum of delivered OL_AMOUNT) and, when with_history,
 * C10 (C_BALANCE = sum of delivered OL_AMOUNT - sum of H_AMOUNT) per customer. */
static int check_c10_c12(dg_conn *conn, int64_t warehouses, bool with_history, int64_t *bad10,
                         int64_t *bad12, dg_err *err)
{
    size_t n = (size_t)NDIST * NCUST;
    int64_t *del = xmalloc(n * sizeof *del), *hist = xmalloc(n * sizeof *hist);
    int64_t *bal = xmalloc(n * sizeof *bal), *ytd = xmalloc(n * sizeof *ytd);
    int rc = 0;
    *bad10 = *bad12 = 0;
    for (int64_t w = 1; w <= warehouses && rc == 0; w++) {
        memset(del, 0, n * sizeof *del);
        memset(hist, 0, n * sizeof *hist);
        memset(bal, 0, n * sizeof *bal);
        memset(ytd, 0, n * sizeof *ytd);
        int64_t stray = 0;
        dg_value p = dg_vint(w);
        rc = sum_groups(conn,
                        "SELECT o.o_d_id, o.o_c_id, SUM(ol.ol_amount) FROM orders o JOIN "
                        "order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND "
                        "ol.ol_o_id = o.o_id WHERE o.o_w_id = ? AND ol.ol_delivery_d IS NOT NULL "
                        "GROUP BY o.o_d_id, o.o_c_id",
                        &p, 1, 2, NDIST, NCUST, 2, del, &stray, err);
        if (rc == 0)
            rc = sum_groups(conn, "SELECT c_d_id, c_id, c_balance FROM customer WHERE c_w_id = ?",
                            &p, 1, 2, NDIST, NCUST, 2, bal, &stray, err);
        if (rc == 0)
            rc = sum_groups(conn,
                            "SELECT c_d_id, c_id, c_ytd_payment FROM customer WHERE c_w_id = ?", &p,
                            1, 2, NDIST, NCUST, 2, ytd, &stray, err);
        if (rc == 0 && with_history)
            rc = sum_groups(conn,
                            "SELECT h_c_d_id, h_c_id, SUM(h_amount) FROM history WHERE h_c_w_id = ? "
                            "GROUP BY h_c_d_id, h_c_id",
                            &p, 1, 2, NDIST, NCUST, 2, hist, &stray, err);
        if (rc)
            break;
        for (size_t i = 0; i < n; i++) {
            *bad12 += bal[i] + ytd[i] != del[i];
            *bad10 += with_history && bal[i] != del[i] - hist[i];
        }
        *bad12 += stray;
    }
    if (rc)
        dg_err_prefix(err, "C10/C12");
    free(del);
    free(hist);
    free(bal);
    free(ytd);
    return rc;
}

static void emit(void (*report)(void *, const dg_check_result *), void *arg, const char *name,
                 int64_t bad, const char *detail, bool *all_ok)
{
    dg_check_result r;
    memset(&r, 0, sizeof r);
    r.name = name;
    r.passed = bad == 0;
    r.offending = bad;
    if (detail)
        snprintf(r.detail, sizeof r.detail, "%s", detail);
    report(arg, &r);
    *all_ok = *all_ok && r.passed;
}

/* C11 over the districts with no delivery beyond the initial orders. */
static int check_c11(dg_conn *conn, int64_t warehouses, int64_t *bad, int64_t *checked,
                     int64_t *skipped, dg_err *err)
{
    dg_stmt *s = NULL;
    int rc = dg_prepare(conn, c11_sql, &s, err);
    *bad = *checked = *skipped = 0;
    for (int64_t w = 1; rc == 0 && w <= warehouses; w++) {
        dg_value p = dg_vint(w);
        if ((rc = dg_execute(s, &p, 1, err)) != 0)
            break;
        int r;
        while ((r = dg_fetch(s, err)) == 1) {
            int64_t v[4] = {0, 0, 0, 0};
            for (int i = 0; i < 4; i++) {
                dg_value x;
                dg_column(s, i, &x);
                dg_value_as_int(&x, &v[i]);
            }
            if (v[3] > 0) {
                (*skipped)++;
                continue;
            }
            (*checked)++;
            if (v[1] - v[2] != TPCC_FIRST_NEW_ORDER - 1)
                (*bad)++;
        }
        dg_stmt_reset(s);
        if (r < 0)
            rc = r;
    }
    if (rc)
        dg_err_prefix(err, "C11");
    dg_stmt_free(s);
    return rc;
}

int dg_tpcc_check(dg_workload *wl, dg_conn *conn,
                  void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err)
{
    dg_tpcc *p = wl->priv;
    int64_t W = wl->scale;
    bool all_ok = true;
    int64_t bad, bad2;
    int rc;
    char detail[200];
    static const char *const names[] = {
        "C4  sum(O_OL_CNT) = count(ORDER_LINE)",
        "C8  W_YTD = sum(H_AMOUNT) by warehouse",
        "C9  D_YTD = sum(H_AMOUNT) by district",
        "C10 C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT)",
        "C12 C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT)",
    };
    for (size_t i = 0; i < sizeof per_w / sizeof per_w[0]; i++) {
        if ((rc = count_cond(conn, &per_w[i], W, &bad, err)) != 0)
            return rc;
        emit(report, arg, per_w[i].name, bad, NULL, &all_ok);
        if (i == 2) { /* C4 goes after C3 */
            if ((rc = check_c4(conn, W, &bad, err)) != 0)
                return rc;
            emit(report, arg, names[0], bad, NULL, &all_ok);
        }
    }
    if ((rc = check_c8_c9(conn, W, &bad, &bad2, err)) != 0)
        return rc;
    emit(report, arg, names[1], bad, NULL, &all_ok);
    emit(report, arg, names[2], bad2, NULL, &all_ok);

    bool with_history = W <= DEFAULT_FULL_W || p->full_check;
    int64_t bad10, bad12;
    if ((rc = check_c10_c12(conn, W, with_history, &bad10, &bad12, err)) != 0)
        return rc;
    if (with_history) {
        emit(report, arg, names[3], bad10, NULL, &all_ok);
    } else {
        snprintf(detail, sizeof detail,
                 "skipped: %lld warehouses > %d, and each needs a scan of HISTORY "
                 "(--wl-opt check=full runs it)",
                 (long long)W, DEFAULT_FULL_W);
        emit(report, arg, names[3], 0, detail, &all_ok);
    }

    int64_t checked, skipped;
    if ((rc = check_c11(conn, W, &bad, &checked, &skipped, err)) != 0)
        return rc;
    if (checked == 0)
        snprintf(detail, sizeof detail,
                 "skipped: Delivery has run in every district (it holds only before the first)");
    else if (skipped)
        snprintf(detail, sizeof detail,
                 "%lld districts checked, %lld skipped (Delivery ran there: it holds only "
                 "before the first)",
                 (long long)checked, (long long)skipped);
    else
        detail[0] = '\0';
    emit(report, arg, c11_name, bad, detail[0] ? detail : NULL, &all_ok);
    emit(report, arg, names[4], bad12, NULL, &all_ok);
    return all_ok ? 0 : DG_E_CHECK;
}
