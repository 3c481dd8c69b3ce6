/*
 * txn.c - the five TPC-C transaction profiles (Clause 2.4-2.8) over explicit inputs,
 * the statements they use, and the terminal's prepared-statement set.
 *
 * Each statement is written once as a dialect template; where dialects differ in what
 * they can do (UPDATE/DELETE ... RETURNING) the terminal prepares both shapes' statements
 * as needed and picks by the dialect's facts, never by database name:
 *   - New-Order takes the district's next order id with UPDATE ... RETURNING where the
 *     dialect has it, else SELECT ... {for_update} then UPDATE;
 *   - Delivery takes the oldest new order with DELETE ... WHERE no_o_id = (SELECT MIN ...)
 *     RETURNING, else SELECT ... ORDER BY ... {limit 1}{for_update} then DELETE; in both
 *     shapes an order taken by a concurrent Delivery is noticed (no row deleted while
 *     the district still has new orders) and the step is repeated.
 * Locking reads ({for_update}) guard stock, the customer paid for, and the district, and
 * read the order a Delivery takes (the latest version, like the new_order row it deleted).
 * New-Order touches stock in (supply warehouse, item) order, keeping each line's
 * OL_NUMBER, so that concurrent New-Orders do not deadlock on stock rows.
 *
 * Nothing here allocates on the measured path except the grow-only buffer of a last-name
 * lookup; text read from a row is copied into fixed buffers before the next statement.
 */
#include "workload/tpcc/tpcc.h"

#include "backend/dialect.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "gen/random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RACES 1000 /* Delivery: give up (RETRY) after this many lost races per district */

static const dg_txopts tx_write = {.write = true};
static const dg_txopts tx_read = {.read_only = true};
static const dg_txopts tx_read_committed = {.read_only = true,
                                            .isolation = DG_ISO_READ_COMMITTED};
const dg_txopts *const dg_tpcc_tx_opts[TPCC_NTX] = {
    [TPCC_NEW_ORDER] = &tx_write,   [TPCC_PAYMENT] = &tx_write,
    [TPCC_ORDER_STATUS] = &tx_read, [TPCC_DELIVERY] = &tx_write,
    [TPCC_STOCK_LEVEL] = &tx_read_committed,
};

/* ---- values ---------------------------------------------------------------------------------- */


/* Divides by 10^k rounding half away from zero. */
static int64_t div_round(int64_t x, int k)
{
    int64_t p = dg_pow10[k];
    int64_t q = x / p, r = x % p;
    if (2 * (r < 0 ? -r : r) >= p)
        q += x < 0 ? -1 : 1;
    return q;
}

bool dg_tpcc_scaled(const dg_value *v, int scale, int64_t *out)
{
    if (scale < 0 || scale > 18)
        return false;
    switch (v->type) {
    case DG_V_NULL:
        return false;
    case DG_V_INT:
        *out = v->u.i * dg_pow10[scale];
        return true;
    case DG_V_DOUBLE:
        *out = llround(v->u.d * (double)dg_pow10[scale]);
        return true;
    case DG_V_NUMERIC: {
        int s = v->u.n.scale;
        if (s == scale)
            *out = v->u.n.unscaled;
        else if (s < scale)
            *out = v->u.n.unscaled * dg_pow10[scale - s];
        else
            *out = div_round(v->u.n.unscaled, s - scale);
        return true;
    }
    case DG_V_TEXT: {
        /* exact decimal text ("-123.4567"); anything else through strtod */
        const char *p = v->u.s.ptr, *end = p + v->u.s.len;
        while (p < end && *p == ' ')
            p++;
        bool neg = false;
        if (p < end && (*p == '-' || *p == '+'))
            neg = *p++ == '-';
        int64_t ip = 0, frac = 0;
        int nfrac = 0, ndig = 0;
        bool round_up = false;
        for (; p < end && *p >= '0' && *p <= '9'; p++, ndig++)
            ip = ip * 10 + (*p - '0');
        if (p < end && *p == '.') {
            for (p++; p < end && *p >= '0' && *p <= '9'; p++, ndig++) {
                if (nfrac < scale) {
                    frac = frac * 10 + (*p - '0');
                    nfrac++;
                } else if (nfrac == scale) {
                    round_up = *p >= '5';
                    nfrac++;
                }
            }
        }
        while (p < end && *p == ' ')
            p++;
        if (p != end || ndig == 0 || ndig > 18) {
            char buf[64];
            size_t n = v->u.s.len < sizeof buf - 1 ? v->u.s.len : sizeof buf - 1;
            memcpy(buf, v->u.s.ptr, n);
            buf[n] = '\0';
            char *e;
            double d = strtod(buf, &e);
            if (e == buf)
                return false;
            *out = llround(d * (double)dg_pow10[scale]);
            return true;
        }
        int kept = nfrac > scale ? scale : nfrac;
        int64_t x = ip * dg_pow10[scale] + frac * dg_pow10[scale - kept] + (round_up ? 1 : 0);
        *out = neg ? -x : x;
        return true;
    }
    }
    return false;
}

static dg_value money(int64_t cents)
{
    return dg_vnumeric(cents, 2);
}

static int64_t col_int(dg_stmt *s, int i)
{
    dg_value v;
    dg_column(s, i, &v);
    int64_t x = 0;
    if (!dg_value_as_int(&v, &x))
        x = 0;
    return x;
}

static bool col_null(dg_stmt *s, int i)
{
    dg_value v;
    dg_column(s, i, &v);
    return v.type == DG_V_NULL;
}

static int64_t col_scaled(dg_stmt *s, int i, int scale)
{
    dg_value v;
    dg_column(s, i, &v);
    int64_t x = 0;
    if (!dg_tpcc_scaled(&v, scale, &x))
        x = 0;
    return x;
}

/* Copies column i as text into buf (cap bytes incl. the NUL); returns the length. */
static size_t col_text(dg_stmt *s, int i, char *buf, size_t cap)
{
    dg_value v;
    dg_column(s, i, &v);
    size_t n = 0;
    if (v.type == DG_V_TEXT) {
        n = v.u.s.len < cap - 1 ? v.u.s.len : cap - 1;
        memcpy(buf, v.u.s.ptr, n);
    } else if (v.type != DG_V_NULL) {
        dg_value_format(&v, buf, cap);
        return strlen(buf);
    }
    buf[n] = '\0';
    return n;
}

/* True when column i is text containing "ORIGINAL". */
static bool col_original(dg_stmt *s, int i)
{
    dg_value v;
    dg_column(s, i, &v);
    if (v.type != DG_V_TEXT)
        return false;
    for (size_t k = 0; k + 8 <= v.u.s.len; k++)
        if (v.u.s.ptr[k] == 'O' && !memcmp(v.u.s.ptr + k, "ORIGINAL", 8))
            return true;
    return false;
}

/* ---- statement helpers -------------------------------------------------------------------- */

/* Executes s and steps to its first row (*found). On success with a row, the caller reads
 * columns and then calls dg_stmt_reset(s). On error s is reset. */
static int query_row(dg_stmt *s, const dg_value *p, int n, bool *found, dg_err *err)
{
    int rc = dg_execute(s, p, n, err);
    if (rc) {
        dg_stmt_reset(s);
        return rc;
    }
    int r = dg_fetch(s, err);
    if (r < 0) {
        dg_stmt_reset(s);
        return r;
    }
    *found = r == 1;
    if (!*found)
        dg_stmt_reset(s);
    return 0;
}

/* Executes a DML statement; *affected (NULL allowed) gets the rows it changed. */
static int run_dml(dg_stmt *s, const dg_value *p, int n, int64_t *affected, dg_err *err)
{
    int rc = dg_execute(s, p, n, err);
    if (rc == 0 && affected)
        *affected = dg_affected(s);
    dg_stmt_reset(s);
    return rc;
}

/* A row the profile requires is missing: the database does not hold a valid TPC-C. */
static int missing(dg_err *err, const char *what, int64_t a, int64_t b, int64_t c)
{
    return dg_err_set(err, DG_E_DB, DG_EC_USER, 0, NULL,
                      "tpcc: %s (%lld, %lld, %lld) not found: the database is not a complete "
                      "TPC-C load (dbgauge check --workload tpcc)",
                      what, (long long)a, (long long)b, (long long)c);
}

/* Customer id of the ceil(n/2)-th of the namesakes sorted by c_first; *n gets the count. */
static int customer_by_name(dg_tpcc_term *t, int64_t w, int64_t d, const char *last,
                            int64_t *c_id, int *n, dg_err *err)
{
    dg_value p[3] = {dg_vint(w), dg_vint(d), dg_vstr(last)};
    int rc = dg_execute(t->cust_by_name, p, 3, err);
    if (rc) {
        dg_stmt_reset(t->cust_by_name);
        return rc;
    }
    int count = 0, r;
    while ((r = dg_fetch(t->cust_by_name, err)) == 1) {
        if (count == t->ids_cap) { /* grow-only; rare after the first few lookups */
            t->ids_cap = t->ids_cap ? 2 * t->ids_cap : 64;
            t->ids = xrealloc(t->ids, (size_t)t->ids_cap * sizeof *t->ids);
        }
        t->ids[count++] = col_int(t->cust_by_name, 0);
    }
    dg_stmt_reset(t->cust_by_name);
    if (r < 0)
        return r;
    *n = count;
    if (count == 0)
        return dg_err_set(err, DG_E_DB, DG_EC_USER, 0, NULL,
                          "tpcc: no customer named %s in warehouse %lld, district %lld", last,
                          (long long)w, (long long)d);
    *c_id = t->ids[dg_tpcc_name_index(count)];
    return 0;
}

/* ---- New-Order (2.4) ------------------------------------------------------------------------ */

void dg_tpcc_line_order(const dg_tpcc_no_in *in, int idx[TPCC_MAX_OL])
{
    for (int i = 0; i < in->ol_cnt; i++) { /* insertion sort: 5..15 lines */
        int j = i;
        const dg_tpcc_line_in *li = &in->line[i];
        while (j > 0) {
            const dg_tpcc_line_in *lj = &in->line[idx[j - 1]];
            if (lj->supply_w_id < li->supply_w_id ||
                (lj->supply_w_id == li->supply_w_id && lj->i_id <= li->i_id))
                break;
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
}

int dg_tpcc_new_order(dg_tpcc_term *t, const dg_tpcc_no_in *in, dg_tpcc_no_out *out, dg_err *err)
{
    memset(out, 0, sizeof *out);
    bool found;
    int rc = dg_begin(t->conn, &tx_write, err);
    if (rc)
        return rc;
    dg_value pw = dg_vint(in->w_id);
    if ((rc = query_row(t->no_wh, &pw, 1, &found, err)) != 0)
        return rc;
    if (!found)
        return missing(err, "warehouse", in->w_id, 0, 0);
    out->w_tax = col_scaled(t->no_wh, 0, 4);
    dg_stmt_reset(t->no_wh);

    dg_value pwd[2] = {dg_vint(in->w_id), dg_vint(in->d_id)};
    if (t->update_returning) {
        if ((rc = query_row(t->no_dist_upd_ret, pwd, 2, &found, err)) != 0)
            return rc;
        if (!found)
            return missing(err, "district", in->w_id, in->d_id, 0);
        out->d_tax = col_scaled(t->no_dist_upd_ret, 0, 4);
        out->o_id = col_int(t->no_dist_upd_ret, 1) - 1; /* RETURNING gives the new value */
        dg_stmt_reset(t->no_dist_upd_ret);
    } else {
        if ((rc = query_row(t->no_dist_sel, pwd, 2, &found, err)) != 0)
            return rc;
        if (!found)
            return missing(err, "district", in->w_id, in->d_id, 0);
        out->d_tax = col_scaled(t->no_dist_sel, 0, 4);
        out->o_id = col_int(t->no_dist_sel, 1);
        dg_stmt_reset(t->no_dist_sel);
        if ((rc = run_dml(t->no_dist_upd, pwd, 2, NULL, err)) != 0)
            return rc;
    }

    dg_value pc[3] = {dg_vint(in->w_id), dg_vint(in->d_id), dg_vint(in->c_id)};
    if ((rc = query_row(t->no_cust, pc, 3, &found, err)) != 0)
        return rc;
    if (!found)
        return missing(err, "customer", in->w_id, in->d_id, in->c_id);
    out->c_discount = col_scaled(t->no_cust, 0, 4);
    col_text(t->no_cust, 1, out->c_last, sizeof out->c_last);
    col_text(t->no_cust, 2, out->c_credit, sizeof out->c_credit);
    dg_stmt_reset(t->no_cust);

    bool all_local = true;
    for (int i = 0; i < in->ol_cnt; i++)
        all_local = all_local && in->line[i].supply_w_id == in->w_id;
    dg_value po[6] = {dg_vint(out->o_id), dg_vint(in->d_id),     dg_vint(in->w_id),
                      dg_vint(in->c_id),  dg_vint(in->ol_cnt), dg_vint(all_local ? 1 : 0)};
    if ((rc = run_dml(t->no_ins_o, po, 6, NULL, err)) != 0)
        return rc;
    dg_value pn[3] = {dg_vint(out->o_id), dg_vint(in->d_id), dg_vint(in->w_id)};
    if ((rc = run_dml(t->no_ins_no, pn, 3, NULL, err)) != 0)
        return rc;

    int idx[TPCC_MAX_OL];
    dg_tpcc_line_order(in, idx);
    dg_stmt *stock = t->no_stock[in->d_id - 1];
    int64_t sum = 0;
    for (int k = 0; k < in->ol_cnt; k++) {
        int n = idx[k];
        const dg_tpcc_line_in *li = &in->line[n];
        dg_value pi = dg_vint(li->i_id);
        if ((rc = query_row(t->no_item, &pi, 1, &found, err)) != 0)
            return rc;
        if (!found) {
            /* "item number is not valid": the expected 1% rollback */
            if ((rc = dg_rollback(t->conn, err)) != 0)
                return rc;
            out->rolled_back = true;
            return 0;
        }
        int64_t price = col_scaled(t->no_item, 0, 2);
        bool i_orig = col_original(t->no_item, 2);
        dg_stmt_reset(t->no_item);

        dg_value ps[2] = {dg_vint(li->i_id), dg_vint(li->supply_w_id)};
        if ((rc = query_row(stock, ps, 2, &found, err)) != 0)
            return rc;
        if (!found)
            return missing(err, "stock (item, warehouse)", li->i_id, li->supply_w_id, 0);
        int64_t q = col_int(stock, 0);
        bool s_orig = col_original(stock, 1);
        char dist[25];
        size_t dist_len = col_text(stock, 2, dist, sizeof dist);
        dg_stmt_reset(stock);
        q = q >= li->quantity + 10 ? q - li->quantity : q - li->quantity + 91;
        bool remote = li->supply_w_id != in->w_id;
        dg_value pu[5] = {dg_vint(q), dg_vint(li->quantity), dg_vint(remote ? 1 : 0),
                          dg_vint(li->i_id), dg_vint(li->supply_w_id)};
        if ((rc = run_dml(t->no_stock_upd, pu, 5, NULL, err)) != 0)
            return rc;

        int64_t amount = li->quantity * price;
        dg_value pl[9] = {dg_vint(out->o_id),       dg_vint(in->d_id),     dg_vint(in->w_id),
                          dg_vint(n + 1),           dg_vint(li->i_id),     dg_vint(li->supply_w_id),
                          dg_vint(li->quantity),    money(amount),         dg_vtext(dist, dist_len)};
        if ((rc = run_dml(t->no_ins_ol, pl, 9, NULL, err)) != 0)
            return rc;
        out->amount_cents[n] = amount;
        out->s_quantity[n] = q;
        out->brand_generic[n] = i_orig && s_orig ? 'B' : 'G';
        sum += amount;
    }
    if ((rc = dg_commit(t->conn, err)) != 0)
        return rc;
    /* display only: cents * (1 - discount) * (1 + w_tax + d_tax), rates in 1/10000 */
    out->total_cents = (int64_t)llround((double)sum * (double)(10000 - out->c_discount) *
                                        (double)(10000 + out->w_tax + out->d_tax) / 1e8);
    return 0;
}

/* ---- Payment (2.5) --------------------------------------------------------------------------- */

int dg_tpcc_payment(dg_tpcc_term *t, const dg_tpcc_pay_in *in, dg_tpcc_pay_out *out, dg_err *err)
{
    memset(out, 0, sizeof *out);
    bool found;
    int rc = dg_begin(t->conn, &tx_write, err);
    if (rc)
        return rc;
    dg_value pwu[2] = {money(in->amount_cents), dg_vint(in->w_id)};
    if ((rc = run_dml(t->pay_wh_upd, pwu, 2, NULL, err)) != 0)
        return rc;
    dg_value pw = dg_vint(in->w_id);
    if ((rc = query_row(t->pay_wh_sel, &pw, 1, &found, err)) != 0)
        return rc;
    if (!found)
        return missing(err, "warehouse", in->w_id, 0, 0);
    char h_data[32];
    size_t hn = col_text(t->pay_wh_sel, 0, h_data, 11);
    dg_stmt_reset(t->pay_wh_sel);
    memcpy(h_data + hn, "    ", 4);
    hn += 4;

    dg_value pdu[3] = {money(in->amount_cents), dg_vint(in->w_id), dg_vint(in->d_id)};
    if ((rc = run_dml(t->pay_d_upd, pdu, 3, NULL, err)) != 0)
        return rc;
    dg_value pwd[2] = {dg_vint(in->w_id), dg_vint(in->d_id)};
    if ((rc = query_row(t->pay_d_sel, pwd, 2, &found, err)) != 0)
        return rc;
    if (!found)
        return missing(err, "district", in->w_id, in->d_id, 0);
    hn += col_text(t->pay_d_sel, 0, h_data + hn, 11);
    dg_stmt_reset(t->pay_d_sel);

    int64_t c_id = in->c_id;
    if (in->by_name &&
        (rc = customer_by_name(t, in->c_w_id, in->c_d_id, in->c_last, &c_id, &out->name_matches,
                               err)) != 0)
        return rc;
    out->c_id = c_id;
    dg_value pc[3] = {dg_vint(in->c_w_id), dg_vint(in->c_d_id), dg_vint(c_id)};
    if ((rc = query_row(t->pay_cust_sel, pc, 3, &found, err)) != 0)
        return rc;
    if (!found)
        return missing(err, "customer", in->c_w_id, in->c_d_id, c_id);
    col_text(t->pay_cust_sel, 10, out->c_credit, sizeof out->c_credit);
    out->c_balance_cents = col_scaled(t->pay_cust_sel, 13, 2) - in->amount_cents;
    dg_stmt_reset(t->pay_cust_sel);

    if (!strcmp(out->c_credit, "BC")) {
        if ((rc = query_row(t->pay_cust_data, pc, 3, &found, err)) != 0)
            return rc;
        if (!found)
            return missing(err, "customer", in->c_w_id, in->c_d_id, c_id);
        /* the new history goes in front; what is pushed past 500 characters is dropped */
        int n = snprintf(t->c_data, sizeof t->c_data, "%lld %lld %lld %lld %lld %lld.%02lld ",
                         (long long)c_id, (long long)in->c_d_id, (long long)in->c_w_id,
                         (long long)in->d_id, (long long)in->w_id,
                         (long long)(in->amount_cents / 100), (long long)(in->amount_cents % 100));
        col_text(t->pay_cust_data, 0, t->c_data + n, 501 - (size_t)n);
        dg_stmt_reset(t->pay_cust_data);
        dg_value pu[6] = {money(in->amount_cents), money(in->amount_cents), dg_vstr(t->c_data),
                          pc[0], pc[1], pc[2]};
        if ((rc = run_dml(t->pay_cust_upd_bc, pu, 6, NULL, err)) != 0)
            return rc;
    } else {
        dg_value pu[5] = {money(in->amount_cents), money(in->amount_cents), pc[0], pc[1], pc[2]};
        if ((rc = run_dml(t->pay_cust_upd, pu, 5, NULL, err)) != 0)
            return rc;
    }
    dg_value ph[7] = {dg_vint(c_id),     dg_vint(in->c_d_id),      dg_vint(in->c_w_id),
                      dg_vint(in->d_id), dg_vint(in->w_id),        money(in->amount_cents),
                      dg_vtext(h_data, hn)};
    if ((rc = run_dml(t->pay_ins_h, ph, 7, NULL, err)) != 0)
        return rc;
    return dg_commit(t->conn, err);
}

/* ---- Order-Status (2.6) ------------------------------------------------------------------------ */

int dg_tpcc_order_status(dg_tpcc_term *t, const dg_tpcc_os_in *in, dg_tpcc_os_out *out,
                         dg_err *err)
{
    memset(out, 0, sizeof *out);
    bool found;
    int rc = dg_begin(t->conn, &tx_read, err);
    if (rc)
        return rc;
    int64_t c_id = in->c_id;
    int n;
    if (in->by_name &&
        (rc = customer_by_name(t, in->w_id, in->d_id, in->c_last, &c_id, &n, err)) != 0)
        return rc;
    out->c_id = c_id;
    dg_value pc[3] = {dg_vint(in->w_id), dg_vint(in->d_id), dg_vint(c_id)};
    if ((rc = query_row(t->os_cust, pc, 3, &found, err)) != 0)
        return rc;
    if (!found)
        return missing(err, "customer", in->w_id, in->d_id, c_id);
    out->c_balance_cents = col_scaled(t->os_cust, 0, 2);
    dg_stmt_reset(t->os_cust);

    if ((rc = query_row(t->os_order, pc, 3, &found, err)) != 0)
        return rc;
    if (found) {
        out->o_id = col_int(t->os_order, 0);
        out->o_carrier_id = col_null(t->os_order, 2) ? 0 : col_int(t->os_order, 2);
        dg_stmt_reset(t->os_order);
        dg_value po[3] = {dg_vint(in->w_id), dg_vint(in->d_id), dg_vint(out->o_id)};
        if ((rc = dg_execute(t->os_lines, po, 3, err)) != 0) {
            dg_stmt_reset(t->os_lines);
            return rc;
        }
        int r;
        while ((r = dg_fetch(t->os_lines, err)) == 1) {
            out->ol_count++;
            out->ol_amount_cents += col_scaled(t->os_lines, 3, 2);
        }
        dg_stmt_reset(t->os_lines);
        if (r < 0)
            return r;
    }
    return dg_commit(t->conn, err);
}

/* ---- Delivery (2.7) ----------------------------------------------------------------------------- */

/* Takes the district's oldest new order; *o_id = 0 when it has none. */
static int take_oldest(dg_tpcc_term *t, int64_t w, int64_t d, int64_t *o_id, int *races,
                       dg_err *err)
{
    bool found;
    int rc;
    *o_id = 0;
    for (int attempt = 0; attempt < MAX_RACES; attempt++) {
        dg_value pwd[2] = {dg_vint(w), dg_vint(d)};
        if (t->delete_returning) {
            dg_value p4[4] = {pwd[0], pwd[1], pwd[0], pwd[1]};
            if ((rc = query_row(t->dl_no_del_ret, p4, 4, &found, err)) != 0)
                return rc;
            if (found) {
                *o_id = col_int(t->dl_no_del_ret, 0);
                dg_stmt_reset(t->dl_no_del_ret);
                return 0;
            }
            /* none deleted: an empty district, or another Delivery took the row */
            if ((rc = query_row(t->dl_no_min, pwd, 2, &found, err)) != 0)
                return rc;
            bool empty = !found || col_null(t->dl_no_min, 0);
            if (found)
                dg_stmt_reset(t->dl_no_min);
            if (empty)
                return 0;
        } else {
            if ((rc = query_row(t->dl_no_first, pwd, 2, &found, err)) != 0)
                return rc;
            if (!found)
                return 0;
            int64_t o = col_int(t->dl_no_first, 0);
            dg_stmt_reset(t->dl_no_first);
            dg_value p3[3] = {pwd[0], pwd[1], dg_vint(o)};
            int64_t n = 0;
            if ((rc = run_dml(t->dl_no_del, p3, 3, &n, err)) != 0)
                return rc;
            if (n == 1) {
                *o_id = o;
                return 0;
            }
        }
        (*races)++;
    }
    return dg_err_set(err, DG_E_DB, DG_EC_RETRY, 0, NULL,
                      "tpcc: delivery lost %d races for the oldest new order of warehouse %lld, "
                      "district %lld",
                      MAX_RACES, (long long)w, (long long)d);
}

int dg_tpcc_delivery(dg_tpcc_term *t, const dg_tpcc_dl_in *in, dg_tpcc_dl_out *out, dg_err *err)
{
    memset(out, 0, sizeof *out);
    bool found;
    int rc = dg_begin(t->conn, &tx_write, err);
    if (rc)
        return rc;
    for (int64_t d = 1; d <= TPCC_DISTRICTS; d++) {
        int64_t o_id;
        if ((rc = take_oldest(t, in->w_id, d, &o_id, &out->races, err)) != 0)
            return rc;
        if (o_id == 0) {
            out->skipped++;
            continue;
        }
        int64_t c_id;
        dg_value p4[4] = {dg_vint(in->carrier_id), dg_vint(in->w_id), dg_vint(d), dg_vint(o_id)};
        if (t->update_returning) {
            if ((rc = query_row(t->dl_o_upd_ret, p4, 4, &found, err)) != 0)
                return rc;
            if (!found)
                return missing(err, "order", in->w_id, d, o_id);
            c_id = col_int(t->dl_o_upd_ret, 0);
            dg_stmt_reset(t->dl_o_upd_ret);
        } else {
            if ((rc = query_row(t->dl_o_sel, p4 + 1, 3, &found, err)) != 0)
                return rc;
            if (!found)
                return missing(err, "order", in->w_id, d, o_id);
            c_id = col_int(t->dl_o_sel, 0);
            dg_stmt_reset(t->dl_o_sel);
            if ((rc = run_dml(t->dl_o_upd, p4, 4, NULL, err)) != 0)
                return rc;
        }
        if ((rc = run_dml(t->dl_ol_upd, p4 + 1, 3, NULL, err)) != 0)
            return rc;
        if ((rc = query_row(t->dl_ol_sum, p4 + 1, 3, &found, err)) != 0)
            return rc;
        int64_t sum = 0;
        if (found) {
            sum = col_scaled(t->dl_ol_sum, 0, 2);
            dg_stmt_reset(t->dl_ol_sum);
        }
        dg_value pc[4] = {money(sum), dg_vint(in->w_id), dg_vint(d), dg_vint(c_id)};
        if ((rc = run_dml(t->dl_c_upd, pc, 4, NULL, err)) != 0)
            return rc;
        out->o_id[d - 1] = o_id;
        out->amount_cents[d - 1] = sum;
    }
    return dg_commit(t->conn, err);
}

/* ---- Stock-Level (2.8) ------------------------------------------------------------------------ */

int dg_tpcc_stock_level(dg_tpcc_term *t, const dg_tpcc_sl_in *in, dg_tpcc_sl_out *out,
                        dg_err *err)
{
    memset(out, 0, sizeof *out);
    bool found;
    int rc = dg_begin(t->conn, &tx_read_committed, err);
    if (rc)
        return rc;
    dg_value pwd[2] = {dg_vint(in->w_id), dg_vint(in->d_id)};
    if ((rc = query_row(t->sl_dist, pwd, 2, &found, err)) != 0)
        return rc;
    if (!found)
        return missing(err, "district", in->w_id, in->d_id, 0);
    int64_t next = col_int(t->sl_dist, 0);
    dg_stmt_reset(t->sl_dist);
    dg_value pq[6] = {dg_vint(in->w_id), dg_vint(in->d_id), dg_vint(next),
                      dg_vint(next - 20), dg_vint(in->w_id), dg_vint(in->threshold)};
    if ((rc = query_row(t->sl_count, pq, 6, &found, err)) != 0)
        return rc;
    if (found) {
        out->low_stock = col_int(t->sl_count, 0);
        dg_stmt_reset(t->sl_count);
    }
    return dg_commit(t->conn, err);
}

/* ---- the terminal's statements ----------------------------------------------------------------- */

static const char sql_cust_cols[] =
    "c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, "
    "c_since, c_credit, c_credit_lim, c_discount, c_balance";

static int prep(dg_tpcc_term *t, const char *tmpl, dg_stmt **out, dg_err *err)
{
    char *sql = dg_sql_renderx(t->conn->dialect, tmpl);
    int rc = dg_prepare(t->conn, sql, out, err);
    if (rc)
        dg_err_prefix(err, "preparing \"%.80s\"", sql);
    free(sql);
    return rc;
}

void dg_tpcc_term_fini(dg_tpcc_term *t)
{
    dg_stmt **all[] = {
        &t->no_wh,          &t->no_dist_upd_ret, &t->no_dist_sel,  &t->no_dist_upd,
        &t->no_cust,        &t->no_ins_o,        &t->no_ins_no,    &t->no_item,
        &t->no_stock_upd,   &t->no_ins_ol,       &t->pay_wh_upd,   &t->pay_wh_sel,
        &t->pay_d_upd,      &t->pay_d_sel,       &t->cust_by_name, &t->pay_cust_sel,
        &t->pay_cust_data,  &t->pay_cust_upd,    &t->pay_cust_upd_bc, &t->pay_ins_h,
        &t->os_cust,        &t->os_order,        &t->os_lines,     &t->dl_no_del_ret,
        &t->dl_no_min,      &t->dl_no_first,     &t->dl_no_del,    &t->dl_o_upd_ret,
        &t->dl_o_sel,       &t->dl_o_upd,        &t->dl_ol_upd,    &t->dl_ol_sum,
        &t->dl_c_upd,       &t->sl_dist,         &t->sl_count,
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        dg_stmt_free(*all[i]);
        *all[i] = NULL;
    }
    for (int d = 0; d < TPCC_DISTRICTS; d++) {
        dg_stmt_free(t->no_stock[d]);
        t->no_stock[d] = NULL;
    }
    for (int i = 0; i < TPCC_NTX; i++) {
        dg_stmt_free(t->pr[i]);
        t->pr[i] = NULL;
    }
    free(t->ids);
    t->ids = NULL;
    t->ids_cap = 0;
}

int dg_tpcc_term_init(dg_tpcc_term *t, dg_conn *conn, dg_err *err)
{
    t->conn = conn;
    t->update_returning = conn->dialect->update_returning;
    t->delete_returning = conn->dialect->delete_returning;
    char buf[1024];
    int rc = 0;
#define P(tmpl, st)                                                                             \
    do {                                                                                        \
        if (rc == 0)                                                                            \
            rc = prep(t, tmpl, &t->st, err);                                                    \
    } while (0)
    /* New-Order */
    P("SELECT w_tax FROM warehouse WHERE w_id = ?", no_wh);
    if (t->update_returning)
        P("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ? "
          "RETURNING d_tax, d_next_o_id",
          no_dist_upd_ret);
    else {
        P("SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?{for_update}",
          no_dist_sel);
        P("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?",
          no_dist_upd);
    }
    P("SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND "
      "c_id = ?",
      no_cust);
    P("INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
      "o_all_local) VALUES (?, ?, ?, ?, {now}, NULL, ?, ?)",
      no_ins_o);
    P("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)", no_ins_no);
    P("SELECT i_price, i_name, i_data FROM item WHERE i_id = ?", no_item);
    for (int d = 1; d <= TPCC_DISTRICTS && rc == 0; d++) {
        snprintf(buf, sizeof buf,
                 "SELECT s_quantity, s_data, s_dist_%02d FROM stock WHERE s_i_id = ? AND "
                 "s_w_id = ?{for_update}",
                 d);
        rc = prep(t, buf, &t->no_stock[d - 1], err);
    }
    P("UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, "
      "s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?",
      no_stock_upd);
    P("INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
      "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, "
      "?, ?)",
      no_ins_ol);
    /* Payment */
    P("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?", pay_wh_upd);
    P("SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE "
      "w_id = ?",
      pay_wh_sel);
    P("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?", pay_d_upd);
    P("SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE "
      "d_w_id = ? AND d_id = ?",
      pay_d_sel);
    P("SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
      cust_by_name);
    if (rc == 0) {
        snprintf(buf, sizeof buf,
                 "SELECT %s FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?{for_update}",
                 sql_cust_cols);
        rc = prep(t, buf, &t->pay_cust_sel, err);
    }
    P("SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", pay_cust_data);
    P("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
      "c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
      pay_cust_upd);
    P("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
      "c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND "
      "c_id = ?",
      pay_cust_upd_bc);
    P("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, "
      "h_data) VALUES (?, ?, ?, ?, ?, {now}, ?, ?)",
      pay_ins_h);
    /* Order-Status */
    P("SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND "
      "c_d_id = ? AND c_id = ?",
      os_cust);
    P("SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND "
      "o_c_id = ? ORDER BY o_id DESC{limit 1}",
      os_order);
    P("SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line "
      "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?",
      os_lines);
    /* Delivery */
    if (t->delete_returning) {
        P("DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = (SELECT "
          "MIN(no_o_id) FROM new_order WHERE no_w_id = ? AND no_d_id = ?) RETURNING no_o_id",
          dl_no_del_ret);
        P("SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = ? AND no_d_id = ?", dl_no_min);
    } else {
        P("SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY "
          "no_o_id{limit 1}{for_update}",
          dl_no_first);
        P("DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?", dl_no_del);
    }
    if (t->update_returning) {
        P("UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? "
          "RETURNING o_c_id",
          dl_o_upd_ret);
    } else {
        /* a locking read: under MariaDB's REPEATABLE READ a plain read sees the snapshot
         * of the transaction's first plain read (an earlier district's), which lacks an
         * order committed since, whose new_order row the locking read above does see */
        P("SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?{for_update}",
          dl_o_sel);
        P("UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?",
          dl_o_upd);
    }
    P("UPDATE order_line SET ol_delivery_d = {now} WHERE ol_w_id = ? AND ol_d_id = ? AND "
      "ol_o_id = ?",
      dl_ol_upd);
    P("SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?",
      dl_ol_sum);
    P("UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 "
      "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
      dl_c_upd);
    /* Stock-Level */
    P("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?", sl_dist);
    P("SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? "
      "AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND "
      "s_quantity < ?",
      sl_count);
#undef P
    if (rc)
        dg_tpcc_term_fini(t);
    return rc;
}

/* ---- input generation -------------------------------------------------------------------------- */

/* A warehouse other than home, uniform; home itself when there is only one. */
static int64_t other_warehouse(dg_tpcc_term *t)
{
    if (t->warehouses <= 1)
        return t->w_id;
    int64_t o = dg_prng_range(t->rng, 1, t->warehouses - 1);
    return o >= t->w_id ? o + 1 : o;
}

void dg_tpcc_gen_new_order(dg_tpcc_term *t, dg_tpcc_no_in *in)
{
    dg_prng *g = t->rng;
    in->w_id = t->w_id;
    in->d_id = dg_prng_range(g, 1, TPCC_DISTRICTS);
    in->c_id = dg_nurand(g, TPCC_A_C_ID, 1, TPCC_CUSTOMERS, t->c.c_id);
    in->ol_cnt = (int)dg_prng_range(g, TPCC_MIN_OL, TPCC_MAX_OL);
    bool rbk = dg_prng_range(g, 1, 100) == 1;
    for (int i = 0; i < in->ol_cnt; i++) {
        dg_tpcc_line_in *l = &in->line[i];
        l->i_id = dg_nurand(g, TPCC_A_OL_I_ID, 1, TPCC_ITEMS, t->c.c_ol_i_id);
        if (rbk && i == in->ol_cnt - 1)
            l->i_id = TPCC_UNUSED_ITEM;
        l->supply_w_id = dg_prng_range(g, 1, 100) > 1 ? t->w_id : other_warehouse(t);
        l->quantity = (int)dg_prng_range(g, 1, 10);
    }
}

static void gen_last_name(dg_tpcc_term *t, char *out)
{
    dg_tpcc_last_name((int)dg_nurand(t->rng, TPCC_A_C_LAST, 0, 999, t->c.c_last_run), out);
}

void dg_tpcc_gen_payment(dg_tpcc_term *t, dg_tpcc_pay_in *in)
{
    dg_prng *g = t->rng;
    memset(in, 0, sizeof *in);
    in->w_id = t->w_id;
    in->d_id = dg_prng_range(g, 1, TPCC_DISTRICTS);
    if (dg_prng_range(g, 1, 100) <= 85) {
        in->c_w_id = in->w_id;
        in->c_d_id = in->d_id;
    } else {
        in->c_d_id = dg_prng_range(g, 1, TPCC_DISTRICTS);
        in->c_w_id = other_warehouse(t);
    }
    in->by_name = dg_prng_range(g, 1, 100) <= 60;
    if (in->by_name)
        gen_last_name(t, in->c_last);
    else
        in->c_id = dg_nurand(g, TPCC_A_C_ID, 1, TPCC_CUSTOMERS, t->c.c_id);
    in->amount_cents = dg_prng_range(g, 100, 500000);
}

void dg_tpcc_gen_order_status(dg_tpcc_term *t, dg_tpcc_os_in *in)
{
    dg_prng *g = t->rng;
    memset(in, 0, sizeof *in);
    in->w_id = t->w_id;
    in->d_id = dg_prng_range(g, 1, TPCC_DISTRICTS);
    in->by_name = dg_prng_range(g, 1, 100) <= 60;
    if (in->by_name)
        gen_last_name(t, in->c_last);
    else
        in->c_id = dg_nurand(g, TPCC_A_C_ID, 1, TPCC_CUSTOMERS, t->c.c_id);
}

void dg_tpcc_gen_delivery(dg_tpcc_term *t, dg_tpcc_dl_in *in)
{
    in->w_id = t->w_id;
    in->carrier_id = dg_prng_range(t->rng, 1, 10);
}

void dg_tpcc_gen_stock_level(dg_tpcc_term *t, dg_tpcc_sl_in *in)
{
    in->w_id = t->w_id;
    in->d_id = t->sl_d_id;
    in->threshold = (int)dg_prng_range(t->rng, 10, 20);
}
