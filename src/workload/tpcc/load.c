/*
 * load.c - the TPC-C loader: the initial population of Clause 4.3.3.1, deterministic
 * from --seed and independent of --jobs.
 *
 * Every load unit (a chunk of ITEM, the WAREHOUSE rows, the DISTRICT rows, a tenth of a
 * warehouse's STOCK, one district's CUSTOMER / HISTORY / ORDERS / NEW_ORDER / ORDER_LINE
 * rows) draws from its own generator seeded from (seed, table, warehouse, district or
 * chunk) alone, never from shared state, so the data are the same whatever job runs the
 * unit. ORDERS and ORDER_LINE are separate steps: the ORDER_LINE units re-draw the
 * district's order stream (the o_c_id permutation, carriers and line counts), which costs
 * far less than the database work.
 *
 * Order of the load: tables (no keys); ITEM, WAREHOUSE, DISTRICT, STOCK, CUSTOMER,
 * HISTORY, ORDERS, NEW_ORDER, ORDER_LINE, each a timed step whose units run on ld->jobs
 * connections through the backend's bulk path; tpcc_meta; then primary keys and the
 * secondary indexes, each its own timed step; then ANALYZE where the dialect has it.
 *
 * The hidden option gen_only (bench/tpcc-gen) sends every row to a null sink instead of
 * the database, creating nothing, to show that generation is not what limits a load.
 *
 * Timestamps (c_since, h_date, o_entry_d, ol_delivery_d of delivered orders) are the load's
 * start time (UTC, whole seconds): the only part of the data that differs between two
 * loads with the same seed.
 */
#include "workload/tpcc/tpcc.h"

#include "gen/random.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define ITEM_CHUNK 10000
#define STOCK_CHUNK 10000
#define PROGRESS_ROWS 4096

enum { T_META = 1, T_ITEM, T_WAREHOUSE, T_DISTRICT, T_STOCK, T_CUSTOMER, T_HISTORY, T_ORDERS,
       T_ORDER_LINE };

void dg_tpcc_unit_rng(dg_prng *g, uint64_t seed, int table, int64_t w, int64_t d)
{
    uint64_t x = seed ^ UINT64_C(0x7470636300000000); /* "tpcc" */
    uint64_t h = dg_splitmix64(&x);
    x = h ^ ((uint64_t)table << 56) ^ ((uint64_t)w << 12) ^ (uint64_t)d;
    dg_prng_seed(g, dg_splitmix64(&x));
}

void dg_tpcc_load_consts(uint64_t seed, dg_tpcc_consts *c)
{
    dg_prng g;
    dg_tpcc_unit_rng(&g, seed, T_META, 0, 0);
    c->c_last_load = dg_prng_range(&g, 0, TPCC_A_C_LAST);
    c->c_id = dg_prng_range(&g, 0, TPCC_A_C_ID);
    c->c_ol_i_id = dg_prng_range(&g, 0, TPCC_A_OL_I_ID);
    c->c_last_run = -1;
}

/* ---- the load context and the sink ------------------------------------------------------- */

typedef struct load_ctx {
    dg_tpcc *p;
    uint64_t seed;
    int64_t warehouses;
    dg_tpcc_consts c;
    char now[20];          /* 'YYYY-MM-DD HH:MM:SS' */
    bool null_sink;
    atomic_ullong rows, bytes; /* of the current step */
} load_ctx;

/* Where a unit's rows go: the backend's bulk load, or nowhere (gen_only). */
typedef struct sink {
    dg_loader *ld;
    load_ctx *lc;
    dg_bulk *b;
    int ncols;
    uint64_t rows, bytes;          /* this unit */
    uint64_t shown_rows, shown_bytes; /* already reported as progress */
} sink;

static uint64_t value_bytes(const dg_value *v)
{
    return v->type == DG_V_TEXT ? v->u.s.len + 1 : v->type == DG_V_NULL ? 1 : 8;
}

static int sink_open(sink *s, dg_loader *ld, load_ctx *lc, dg_conn *conn, const char *table,
                     const char *const *cols, int ncols, dg_err *err)
{
    memset(s, 0, sizeof *s);
    s->ld = ld;
    s->lc = lc;
    s->ncols = ncols;
    if (lc->null_sink)
        return 0;
    return dg_bulk_begin(conn, table, cols, ncols, &s->b, err);
}

static void sink_progress(sink *s)
{
    dg_loader_progress(s->ld, s->rows - s->shown_rows, s->bytes - s->shown_bytes);
    s->shown_rows = s->rows;
    s->shown_bytes = s->bytes;
}

static int sink_row(sink *s, const dg_value *v, dg_err *err)
{
    if (s->b) {
        int rc = dg_bulk_row(s->b, v, err);
        if (rc)
            return rc;
        s->rows = s->b->rows;
        s->bytes = s->b->bytes;
    } else {
        for (int i = 0; i < s->ncols; i++)
            s->bytes += value_bytes(&v[i]);
        s->rows++;
    }
    if (s->rows - s->shown_rows >= PROGRESS_ROWS) {
        sink_progress(s);
        return dg_loader_check_stop(err); /* warehouse and district: one unit for all */
    }
    return 0;
}

/* Finishes the unit (commit when rc == 0) and adds its counts to the step. */
static int sink_close(sink *s, int rc, dg_err *err)
{
    if (s->b) {
        int rc2 = dg_bulk_end(s->b, rc == 0, rc ? NULL : err);
        s->b = NULL;
        if (rc == 0)
            rc = rc2;
    }
    if (rc == 0) {
        sink_progress(s);
        atomic_fetch_add(&s->lc->rows, s->rows);
        atomic_fetch_add(&s->lc->bytes, s->bytes);
    }
    return rc;
}

static dg_value money(int64_t cents)
{
    return dg_vnumeric(cents, 2);
}

static dg_value rate4(int64_t v)
{
    return dg_vnumeric(v, 4);
}

static dg_value txt(const char *p, size_t n)
{
    return dg_vtext(p, n);
}

/* An address: street 1, street 2, city a-string [10..20], state, zip. */
typedef struct address {
    char street_1[21], street_2[21], city[21], state[3], zip[10];
    size_t n1, n2, nc;
} address;

static void gen_address(dg_prng *g, address *a)
{
    a->n1 = dg_tpcc_astring(g, 10, 20, a->street_1);
    a->n2 = dg_tpcc_astring(g, 10, 20, a->street_2);
    a->nc = dg_tpcc_astring(g, 10, 20, a->city);
    dg_tpcc_state(g, a->state);
    dg_tpcc_zip(g, a->zip);
}

/* ---- ITEM, WAREHOUSE, DISTRICT, STOCK ---------------------------------------------------- */

static int item_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"i_id", "i_im_id", "i_name", "i_price", "i_data"};
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "item", cols, 5, err);
    if (rc)
        return rc;
    dg_prng g;
    dg_tpcc_unit_rng(&g, lc->seed, T_ITEM, 0, unit);
    char name[25], data[51];
    int64_t first = (int64_t)unit * ITEM_CHUNK + 1;
    for (int64_t i = first; i < first + ITEM_CHUNK && rc == 0; i++) {
        int64_t im = dg_prng_range(&g, 1, 10000);
        size_t nn = dg_tpcc_astring(&g, 14, 24, name);
        int64_t price = dg_prng_range(&g, 100, 10000);
        size_t nd = dg_tpcc_data(&g, 26, 50, data, NULL);
        dg_value v[5] = {dg_vint(i), dg_vint(im), txt(name, nn), money(price), txt(data, nd)};
        rc = sink_row(&s, v, err);
    }
    return sink_close(&s, rc, err);
}

static int warehouse_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"w_id",    "w_name",  "w_street_1", "w_street_2", "w_city",
                                       "w_state", "w_zip",   "w_tax",      "w_ytd"};
    (void)unit;
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "warehouse", cols, 9, err);
    if (rc)
        return rc;
    for (int64_t w = 1; w <= lc->warehouses && rc == 0; w++) {
        dg_prng g;
        dg_tpcc_unit_rng(&g, lc->seed, T_WAREHOUSE, w, 0);
        char name[11];
        size_t nn = dg_tpcc_astring(&g, 6, 10, name);
        address a;
        gen_address(&g, &a);
        int64_t tax = dg_prng_range(&g, 0, 2000);
        dg_value v[9] = {dg_vint(w),          txt(name, nn),          txt(a.street_1, a.n1),
                         txt(a.street_2, a.n2), txt(a.city, a.nc),     txt(a.state, 2),
                         txt(a.zip, 9),       rate4(tax),             money(30000000)};
        rc = sink_row(&s, v, err);
    }
    return sink_close(&s, rc, err);
}

static int district_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"d_id",    "d_w_id", "d_name", "d_street_1", "d_street_2",
                                       "d_city",  "d_state", "d_zip", "d_tax",      "d_ytd",
                                       "d_next_o_id"};
    (void)unit;
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "district", cols, 11, err);
    if (rc)
        return rc;
    for (int64_t w = 1; w <= lc->warehouses && rc == 0; w++) {
        for (int64_t d = 1; d <= TPCC_DISTRICTS && rc == 0; d++) {
            dg_prng g;
            dg_tpcc_unit_rng(&g, lc->seed, T_DISTRICT, w, d);
            char name[11];
            size_t nn = dg_tpcc_astring(&g, 6, 10, name);
            address a;
            gen_address(&g, &a);
            int64_t tax = dg_prng_range(&g, 0, 2000);
            dg_value v[11] = {dg_vint(d),          dg_vint(w),        txt(name, nn),
                              txt(a.street_1, a.n1), txt(a.street_2, a.n2), txt(a.city, a.nc),
                              txt(a.state, 2),     txt(a.zip, 9),     rate4(tax),
                              money(3000000),      dg_vint(TPCC_ORDERS + 1)};
            rc = sink_row(&s, v, err);
        }
    }
    return sink_close(&s, rc, err);
}

#define STOCK_UNITS_PER_W (TPCC_STOCK / STOCK_CHUNK)

static int stock_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"s_i_id",    "s_w_id",    "s_quantity", "s_dist_01",
                                       "s_dist_02", "s_dist_03", "s_dist_04",  "s_dist_05",
                                       "s_dist_06", "s_dist_07", "s_dist_08",  "s_dist_09",
                                       "s_dist_10", "s_ytd",     "s_order_cnt", "s_remote_cnt",
                                       "s_data"};
    int64_t w = unit / STOCK_UNITS_PER_W + 1;
    int chunk = unit % STOCK_UNITS_PER_W;
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "stock", cols, 17, err);
    if (rc)
        return rc;
    dg_prng g;
    dg_tpcc_unit_rng(&g, lc->seed, T_STOCK, w, chunk);
    char dist[TPCC_DISTRICTS * 24], data[51];
    int64_t first = (int64_t)chunk * STOCK_CHUNK + 1;
    for (int64_t i = first; i < first + STOCK_CHUNK && rc == 0; i++) {
        int64_t q = dg_prng_range(&g, 10, 100);
        dg_tpcc_fill_alnum(&g, dist, sizeof dist);
        size_t nd = dg_tpcc_data(&g, 26, 50, data, NULL);
        dg_value v[17];
        v[0] = dg_vint(i);
        v[1] = dg_vint(w);
        v[2] = dg_vint(q);
        for (int k = 0; k < TPCC_DISTRICTS; k++)
            v[3 + k] = txt(dist + 24 * k, 24);
        v[13] = dg_vint(0);
        v[14] = dg_vint(0);
        v[15] = dg_vint(0);
        v[16] = txt(data, nd);
        rc = sink_row(&s, v, err);
    }
    return sink_close(&s, rc, err);
}

/* ---- CUSTOMER and HISTORY (units = districts) -------------------------------------------- */

static void unit_wd(int unit, int64_t *w, int64_t *d)
{
    *w = unit / TPCC_DISTRICTS + 1;
    *d = unit % TPCC_DISTRICTS + 1;
}

static int customer_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {
        "c_id",       "c_d_id",       "c_w_id",      "c_first",       "c_middle",
        "c_last",     "c_street_1",   "c_street_2",  "c_city",        "c_state",
        "c_zip",      "c_phone",      "c_since",     "c_credit",      "c_credit_lim",
        "c_discount", "c_balance",    "c_ytd_payment", "c_payment_cnt", "c_delivery_cnt",
        "c_data"};
    int64_t w, d;
    unit_wd(unit, &w, &d);
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "customer", cols, 21, err);
    if (rc)
        return rc;
    dg_prng g;
    dg_tpcc_unit_rng(&g, lc->seed, T_CUSTOMER, w, d);
    char first[17], last[DG_TPCC_LAST_MAX + 1], phone[17], data[501];
    address a;
    for (int64_t c = 1; c <= TPCC_CUSTOMERS && rc == 0; c++) {
        size_t nf = dg_tpcc_astring(&g, 8, 16, first);
        int num = c <= 1000 ? (int)(c - 1)
                            : (int)dg_nurand(&g, TPCC_A_C_LAST, 0, 999, lc->c.c_last_load);
        size_t nl = dg_tpcc_last_name(num, last);
        gen_address(&g, &a);
        dg_tpcc_nstring(&g, 16, 16, phone);
        bool bad = dg_prng_range(&g, 1, 10) == 1;
        int64_t discount = dg_prng_range(&g, 0, 5000);
        size_t nd = dg_tpcc_astring(&g, 300, 500, data);
        dg_value v[21] = {dg_vint(c),           dg_vint(d),
                          dg_vint(w),           txt(first, nf),
                          txt("OE", 2),         txt(last, nl),
                          txt(a.street_1, a.n1), txt(a.street_2, a.n2),
                          txt(a.city, a.nc),    txt(a.state, 2),
                          txt(a.zip, 9),        txt(phone, 16),
                          txt(lc->now, 19),     txt(bad ? "BC" : "GC", 2),
                          money(5000000),       rate4(discount),
                          money(-1000),         money(1000),
                          dg_vint(1),           dg_vint(0),
                          txt(data, nd)};
        rc = sink_row(&s, v, err);
    }
    return sink_close(&s, rc, err);
}

static int history_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id",
                                       "h_w_id", "h_date",   "h_amount", "h_data"};
    int64_t w, d;
    unit_wd(unit, &w, &d);
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "history", cols, 8, err);
    if (rc)
        return rc;
    dg_prng g;
    dg_tpcc_unit_rng(&g, lc->seed, T_HISTORY, w, d);
    char data[25];
    for (int64_t c = 1; c <= TPCC_CUSTOMERS && rc == 0; c++) {
        size_t nd = dg_tpcc_astring(&g, 12, 24, data);
        dg_value v[8] = {dg_vint(c), dg_vint(d),       dg_vint(w), dg_vint(d),
                         dg_vint(w), txt(lc->now, 19), money(1000), txt(data, nd)};
        rc = sink_row(&s, v, err);
    }
    return sink_close(&s, rc, err);
}

/* ---- ORDERS, NEW_ORDER, ORDER_LINE (units = districts) ----------------------------------- */

/* A district's order stream: o_c_id a random permutation of 1..3000, carriers of the
 * delivered orders, line counts. Drawn identically by the ORDERS and ORDER_LINE units. */
typedef struct dist_orders {
    int16_t c_id[TPCC_ORDERS + 1];   /* [o_id] */
    int8_t carrier[TPCC_ORDERS + 1]; /* 0 = NULL */
    int8_t ol_cnt[TPCC_ORDERS + 1];
} dist_orders;

static void gen_dist_orders(uint64_t seed, int64_t w, int64_t d, dist_orders *o)
{
    dg_prng g;
    dg_tpcc_unit_rng(&g, seed, T_ORDERS, w, d);
    for (int i = 1; i <= TPCC_ORDERS; i++)
        o->c_id[i] = (int16_t)i;
    for (int i = TPCC_ORDERS; i > 1; i--) { /* Fisher-Yates over positions 1..i */
        int j = (int)dg_prng_range(&g, 1, i);
        int16_t tmp = o->c_id[i];
        o->c_id[i] = o->c_id[j];
        o->c_id[j] = tmp;
    }
    for (int i = 1; i <= TPCC_ORDERS; i++) {
        o->carrier[i] = i < TPCC_FIRST_NEW_ORDER ? (int8_t)dg_prng_range(&g, 1, 10) : 0;
        o->ol_cnt[i] = (int8_t)dg_prng_range(&g, TPCC_MIN_OL, TPCC_MAX_OL);
    }
}

static int orders_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"o_id",         "o_d_id",   "o_w_id",     "o_c_id",
                                       "o_entry_d",    "o_carrier_id", "o_ol_cnt", "o_all_local"};
    int64_t w, d;
    unit_wd(unit, &w, &d);
    dist_orders o;
    gen_dist_orders(lc->seed, w, d, &o);
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "orders", cols, 8, err);
    if (rc)
        return rc;
    for (int i = 1; i <= TPCC_ORDERS && rc == 0; i++) {
        dg_value v[8] = {dg_vint(i),
                         dg_vint(d),
                         dg_vint(w),
                         dg_vint(o.c_id[i]),
                         txt(lc->now, 19),
                         o.carrier[i] ? dg_vint(o.carrier[i]) : dg_vnull(),
                         dg_vint(o.ol_cnt[i]),
                         dg_vint(1)};
        rc = sink_row(&s, v, err);
    }
    return sink_close(&s, rc, err);
}

static int new_order_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"no_o_id", "no_d_id", "no_w_id"};
    int64_t w, d;
    unit_wd(unit, &w, &d);
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "new_order", cols, 3, err);
    if (rc)
        return rc;
    for (int i = TPCC_FIRST_NEW_ORDER; i <= TPCC_ORDERS && rc == 0; i++) {
        dg_value v[3] = {dg_vint(i), dg_vint(d), dg_vint(w)};
        rc = sink_row(&s, v, err);
    }
    return sink_close(&s, rc, err);
}

static int order_line_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"ol_o_id",       "ol_d_id",       "ol_w_id",
                                       "ol_number",     "ol_i_id",       "ol_supply_w_id",
                                       "ol_delivery_d", "ol_quantity",   "ol_amount",
                                       "ol_dist_info"};
    int64_t w, d;
    unit_wd(unit, &w, &d);
    dist_orders o;
    gen_dist_orders(lc->seed, w, d, &o);
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "order_line", cols, 10, err);
    if (rc)
        return rc;
    dg_prng g;
    dg_tpcc_unit_rng(&g, lc->seed, T_ORDER_LINE, w, d);
    char dist[24];
    for (int i = 1; i <= TPCC_ORDERS && rc == 0; i++) {
        bool delivered = i < TPCC_FIRST_NEW_ORDER;
        for (int n = 1; n <= o.ol_cnt[i] && rc == 0; n++) {
            int64_t item = dg_prng_range(&g, 1, TPCC_ITEMS);
            int64_t amount = delivered ? 0 : dg_prng_range(&g, 1, 999999);
            dg_tpcc_fill_alnum(&g, dist, sizeof dist);
            dg_value v[10] = {dg_vint(i),
                              dg_vint(d),
                              dg_vint(w),
                              dg_vint(n),
                              dg_vint(item),
                              dg_vint(w),
                              delivered ? txt(lc->now, 19) : dg_vnull(),
                              dg_vint(5),
                              money(amount),
                              txt(dist, 24)};
            rc = sink_row(&s, v, err);
        }
    }
    return sink_close(&s, rc, err);
}

static int meta_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    static const char *const cols[] = {"mt_warehouses", "mt_c_last", "mt_c_id", "mt_c_ol_i_id",
                                       "mt_seed",       "mt_loaded_at"};
    (void)unit;
    sink s;
    int rc = sink_open(&s, ld, lc, conn, "tpcc_meta", cols, 6, err);
    if (rc)
        return rc;
    dg_value v[6] = {dg_vint(lc->warehouses), dg_vint(lc->c.c_last_load), dg_vint(lc->c.c_id),
                     dg_vint(lc->c.c_ol_i_id), dg_vint((int64_t)(lc->seed & INT64_MAX)),
                     txt(lc->now, 19)};
    rc = sink_row(&s, v, err);
    return sink_close(&s, rc, err);
}

/* ---- the load --------------------------------------------------------------------------------- */

/* One table: its units in parallel, as one timed step. */
static int load_table(dg_loader *ld, load_ctx *lc, const char *table, int nunits,
                      int (*fn)(dg_loader *, dg_conn *, int, void *, dg_err *), dg_err *err)
{
    atomic_store(&lc->rows, 0);
    atomic_store(&lc->bytes, 0);
    dg_loader_step_begin(ld, "table", "table %s", table);
    int rc = dg_loader_parallel(ld, nunits, fn, lc, table, err);
    if (rc) {
        dg_err_prefix(err, "loading table %s", table);
        return rc;
    }
    dg_loader_step_end(ld, atomic_load(&lc->rows), atomic_load(&lc->bytes));
    return 0;
}

int dg_tpcc_load(dg_workload *wl, dg_loader *ld, dg_err *err)
{
    dg_tpcc *p = wl->priv;
    if (wl->scale > INT32_MAX / (TPCC_DISTRICTS * STOCK_UNITS_PER_W))
        return dg_err_fail(err, DG_E_INVAL, "tpcc: scale %lld is too large", (long long)wl->scale);
    load_ctx lc;
    memset(&lc, 0, sizeof lc);
    lc.p = p;
    lc.seed = ld->seed;
    lc.warehouses = wl->scale;
    lc.null_sink = p->gen_only;
    dg_tpcc_load_consts(ld->seed, &lc.c);
    atomic_init(&lc.rows, 0);
    atomic_init(&lc.bytes, 0);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(lc.now, sizeof lc.now, "%Y-%m-%d %H:%M:%S", &tm);

    int rc;
    if (!lc.null_sink) {
        dg_loader_step_begin(ld, "schema", "create tables");
        if ((rc = dg_tpcc_create_tables(ld->conn, err)) != 0)
            return rc;
        dg_loader_step_end(ld, 0, 0);
    }
    int64_t W = wl->scale;
    int nd = (int)(W * TPCC_DISTRICTS);
    /* order lines: 10 per order on average */
    ld->rows_total = TPCC_ITEMS + (uint64_t)W * (1 + TPCC_DISTRICTS + TPCC_STOCK +
                                                  TPCC_DISTRICTS * (3 * TPCC_CUSTOMERS + 900 +
                                                                    10 * TPCC_ORDERS));
    if ((rc = load_table(ld, &lc, "item", TPCC_ITEMS / ITEM_CHUNK, item_unit, err)) ||
        (rc = load_table(ld, &lc, "warehouse", 1, warehouse_unit, err)) ||
        (rc = load_table(ld, &lc, "district", 1, district_unit, err)) ||
        (rc = load_table(ld, &lc, "stock", (int)W * STOCK_UNITS_PER_W, stock_unit, err)) ||
        (rc = load_table(ld, &lc, "customer", nd, customer_unit, err)) ||
        (rc = load_table(ld, &lc, "history", nd, history_unit, err)) ||
        (rc = load_table(ld, &lc, "orders", nd, orders_unit, err)) ||
        (rc = load_table(ld, &lc, "new_order", nd, new_order_unit, err)) ||
        (rc = load_table(ld, &lc, "order_line", nd, order_line_unit, err)))
        return rc;
    if (lc.null_sink)
        return 0;
    if ((rc = load_table(ld, &lc, "tpcc_meta", 1, meta_unit, err)) != 0)
        return rc;
    if ((rc = dg_tpcc_create_indexes(NULL, ld, err)) != 0)
        return rc;
    return dg_loader_analyze(ld, dg_tpcc_tables, err);
}
