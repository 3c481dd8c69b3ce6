/*
 * check.c - `dbgauge check -w docs`: every side key row says what its document says.
 *
 *   security keys   each security row's symbol, name, type, sector, industry, PE and
 *                   yield are its document's (read back with libxml2)
 *   customer keys   each custacc row's country, postal code and state are its document's,
 *                   and its custacc_account rows are exactly the document's accounts (no
 *                   account row without its customer either)
 *   order keys      each orders row's account, symbol, side and cash are its document's
 *
 * Document counts against a run's reported inserts and deletes are the integration
 * tests' part: they read them from the result file.
 */
#include "workload/docs/docs.h"

#include "core/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_SEC = 0, C_CUST, C_ACCT, C_ORDER, C_N };

static const char *const check_names[C_N] = {
    "security side keys match their documents",
    "custacc side keys match their documents",
    "custacc_account rows are exactly the documents' accounts",
    "orders side keys match their documents",
};

typedef struct tally {
    int64_t bad[C_N], rows[C_N];
    char detail[C_N][256];
} tally;

static void note_bad(tally *ty, int c, int64_t id, const char *what)
{
    if (ty->bad[c]++ == 0)
        snprintf(ty->detail[c], sizeof ty->detail[c], "id %" PRId64 ": %s", id, what);
}

static bool text_is(const dg_value *v, const char *s)
{
    size_t n = strlen(s);
    if (v->type == DG_V_NULL)
        return n == 0;
    /* CHAR(n) columns come back padded on some engines */
    if (v->type != DG_V_TEXT || v->u.s.len < n || memcmp(v->u.s.ptr, s, n) != 0)
        return false;
    for (size_t i = n; i < v->u.s.len; i++)
        if (v->u.s.ptr[i] != ' ')
            return false;
    return true;
}

static bool cents_is(const dg_value *v, int64_t cents)
{
    double d = 0;
    if (!dg_value_as_double(v, &d))
        return false;
    return (int64_t)(d * 100 + (d >= 0 ? 0.5 : -0.5)) == cents;
}

static bool int_of(const dg_value *v, int64_t *out) { return dg_value_as_int(v, out); }

/* Runs sql and calls row(s, arg) for each row; stops at the first error. */
static int scan(dg_conn *conn, const char *sql, int (*row)(dg_stmt *s, void *arg, dg_err *err),
                void *arg, dg_err *err)
{
    dg_stmt *s = NULL;
    int rc = dg_prepare(conn, sql, &s, err);
    if (rc)
        return rc;
    rc = dg_execute(s, NULL, 0, err);
    int r = 0;
    while (rc == 0 && (r = dg_fetch(s, err)) == 1)
        rc = row(s, arg, err);
    if (rc == 0 && r < 0)
        rc = r;
    dg_stmt_reset(s);
    dg_stmt_free(s);
    return rc;
}

/* ---- securities ------------------------------------------------------------------------ */

static int sec_row(dg_stmt *s, void *arg, dg_err *err)
{
    (void)err;
    tally *ty = arg;
    dg_value v[9];
    for (int i = 0; i < 9; i++)
        dg_column(s, i, &v[i]);
    int64_t id = 0;
    int_of(&v[0], &id);
    ty->rows[C_SEC]++;
    docs_sec_keys k;
    dg_err e = {0};
    if (v[8].type != DG_V_TEXT || docs_read_security(v[8].u.s.ptr, v[8].u.s.len, &k, &e) != 0) {
        note_bad(ty, C_SEC, id, v[8].type == DG_V_TEXT ? e.msg : "no document");
        return 0;
    }
    const char *what = k.id != id ? "Security/@id"
                       : !text_is(&v[1], k.symbol) ? "symbol"
                       : !text_is(&v[2], k.name) ? "name"
                       : !text_is(&v[3], k.type) ? "sec_type"
                       : !text_is(&v[4], k.sector) ? "sector"
                       : !text_is(&v[5], k.industry) ? "industry"
                       : !cents_is(&v[6], k.pe_cents) ? "pe"
                       : !cents_is(&v[7], k.yield_cents) ? "yield_pct"
                                                         : NULL;
    if (what) {
        char m[96];
        snprintf(m, sizeof m, "column %s differs from the document", what);
        note_bad(ty, C_SEC, id, m);
    }
    return 0;
}

/* ---- customers and accounts --------------------------------------------------------- */

typedef struct acct_pair {
    int64_t cust, acct;
} acct_pair;

typedef struct cust_ctx {
    tally *ty;
    acct_pair *a;
    size_t n, cap, next; /* next: the first pair not yet matched with a customer */
} cust_ctx;

static int acct_row(dg_stmt *s, void *arg, dg_err *err)
{
    (void)err;
    cust_ctx *cc = arg;
    dg_value v[2];
    dg_column(s, 0, &v[0]);
    dg_column(s, 1, &v[1]);
    if (cc->n == cc->cap) {
        cc->cap = cc->cap ? cc->cap * 2 : 4096;
        cc->a = xrealloc(cc->a, cc->cap * sizeof *cc->a);
    }
    acct_pair *p = &cc->a[cc->n++];
    p->cust = p->acct = -1;
    int_of(&v[0], &p->cust);
    int_of(&v[1], &p->acct);
    return 0;
}

static int cmp_pair(const void *x, const void *y)
{
    const acct_pair *a = x, *b = y;
    if (a->cust != b->cust)
        return a->cust < b->cust ? -1 : 1;
    return a->acct < b->acct ? -1 : a->acct > b->acct;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Account pairs of customers before `cust` that no customer claimed: orphans. */
static void skip_orphans(cust_ctx *cc, int64_t cust)
{
    while (cc->next < cc->n && cc->a[cc->next].cust < cust) {
        note_bad(cc->ty, C_ACCT, cc->a[cc->next].acct, "account row of a customer that does not exist");
        cc->next++;
    }
}

static int cust_row(dg_stmt *s, void *arg, dg_err *err)
{
    (void)err;
    cust_ctx *cc = arg;
    tally *ty = cc->ty;
    dg_value v[5];
    for (int i = 0; i < 5; i++)
        dg_column(s, i, &v[i]);
    int64_t id = 0;
    int_of(&v[0], &id);
    ty->rows[C_CUST]++;
    skip_orphans(cc, id);
    size_t first = cc->next;
    while (cc->next < cc->n && cc->a[cc->next].cust == id)
        cc->next++;
    size_t nrows = cc->next - first;
    ty->rows[C_ACCT] += (int64_t)nrows;
    docs_cust_keys *k = xmalloc(sizeof *k);
    dg_err e = {0};
    if (v[4].type != DG_V_TEXT || docs_read_custacc(v[4].u.s.ptr, v[4].u.s.len, k, &e) != 0) {
        note_bad(ty, C_CUST, id, v[4].type == DG_V_TEXT ? e.msg : "no document");
        free(k);
        return 0;
    }
    const char *what = k->id != id ? "Customer/@id"
                       : !text_is(&v[1], k->country) ? "country"
                       : !text_is(&v[2], k->postal_code) ? "postal_code"
                       : !text_is(&v[3], k->state) ? "state"
                                                    : NULL;
    if (what) {
        char m[96];
        snprintf(m, sizeof m, "column %s differs from the document", what);
        note_bad(ty, C_CUST, id, m);
    }
    qsort(k->acct, (size_t)k->nacct, sizeof k->acct[0], cmp_i64);
    bool same = nrows == (size_t)k->nacct;
    for (size_t i = 0; same && i < nrows; i++)
        same = cc->a[first + i].acct == k->acct[i];
    if (!same) {
        char m[128];
        snprintf(m, sizeof m, "%zu account rows, the document has %d accounts (or other ids)", nrows,
                 k->nacct);
        note_bad(ty, C_ACCT, id, m);
    }
    free(k);
    return 0;
}

/* ---- orders ------------------------------------------------------------------------------ */

static int order_row(dg_stmt *s, void *arg, dg_err *err)
{
    (void)err;
    tally *ty = arg;
    dg_value v[6];
    for (int i = 0; i < 6; i++)
        dg_column(s, i, &v[i]);
    int64_t id = 0, acct = 0;
    int_of(&v[0], &id);
    ty->rows[C_ORDER]++;
    docs_order_keys k;
    dg_err e = {0};
    if (v[5].type != DG_V_TEXT || docs_read_order(v[5].u.s.ptr, v[5].u.s.len, &k, &e) != 0) {
        note_bad(ty, C_ORDER, id, v[5].type == DG_V_TEXT ? e.msg : "no document");
        return 0;
    }
    char side[2] = {k.side, '\0'};
    const char *what = k.id != id ? "Order/@ID"
                       : !int_of(&v[1], &acct) || acct != k.acct ? "acct_id"
                       : !text_is(&v[2], k.symbol) ? "symbol"
                       : !text_is(&v[3], side) ? "side"
                       : !cents_is(&v[4], k.cash_cents) ? "cash"
                                                        : NULL;
    if (what) {
        char m[96];
        snprintf(m, sizeof m, "column %s differs from the document", what);
        note_bad(ty, C_ORDER, id, m);
    }
    return 0;
}

int dg_docs_check(dg_workload *wl, dg_conn *conn,
                  void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err)
{
    (void)wl;
    tally ty;
    memset(&ty, 0, sizeof ty);
    cust_ctx cc = {.ty = &ty};
    int rc = scan(conn,
                  "SELECT sec_id, symbol, name, sec_type, sector, industry, pe, yield_pct, doc "
                  "FROM security",
                  sec_row, &ty, err);
    if (rc == 0)
        rc = scan(conn, "SELECT cust_id, acct_id FROM custacc_account", acct_row, &cc, err);
    if (rc == 0) {
        qsort(cc.a, cc.n, sizeof *cc.a, cmp_pair);
        rc = scan(conn,
                  "SELECT cust_id, country, postal_code, state, doc FROM custacc ORDER BY cust_id",
                  cust_row, &cc, err);
        skip_orphans(&cc, INT64_MAX);
    }
    free(cc.a);
    if (rc == 0)
        rc = scan(conn, "SELECT order_id, acct_id, symbol, side, cash, doc FROM orders", order_row,
                  &ty, err);
    if (rc)
        return rc;
    bool all = true;
    for (int c = 0; c < C_N; c++) {
        dg_check_result r = {.name = check_names[c], .passed = ty.bad[c] == 0, .offending = ty.bad[c]};
        if (ty.bad[c])
            snprintf(r.detail, sizeof r.detail, "%" PRId64 " of %" PRId64 " rows; first: %s", ty.bad[c],
                     ty.rows[c], ty.detail[c]);
        else
            snprintf(r.detail, sizeof r.detail, "%" PRId64 " rows", ty.rows[c]);
        report(arg, &r);
        all &= r.passed;
    }
    return all ? 0 : DG_E_CHECK;
}
