/*
 * tpcc.c - the built-in TPC-C workload: descriptor, options, attach (load-time facts from
 * tpcc_meta, run-time NURand constants), terminals, keying/think times and metrics.
 *
 * Terminals: terminal i has home warehouse (i % W) + 1, so terminals spread evenly over
 * the warehouses, and the fixed Stock-Level district ((i / W) % 10) + 1, which gives each
 * of the first 10 W terminals its own (warehouse, district) as Clause 2.8.1.1 asks. A part
 * of a run split over processes (--part K/N) does the same over its range of warehouses
 * (dg_part_share, as DBT-2 and go-tpc partition them), i counted from its first terminal. Each
 * transaction draws its inputs from the terminal's generator at the start of tx_run, so a
 * retry after a RETRY-class error (the runner restores the generator) repeats them.
 *
 * Options (--wl-opt NAME=VALUE): check=full (run C10 at any scale), gen_only=1 (loader
 * writes to a null sink; for bench/tpcc-gen), procedures=1 (each transaction one call of a
 * stored procedure, procs.c; created for the run and dropped after it; run.execution
 * says so). --keying-think turns on Clause 5.2.5's
 * keying and think times through ops->pause_ns.
 *
 * The transactions themselves are in txn.c, the schema in schema.c, the loader in load.c,
 * the consistency checks in check.c (see tpcc.h).
 */
#include "workload/tpcc/tpcc.h"

#include "core/part.h"
#include "core/xalloc.h"
#include "stats/txstats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Size model for --size: database bytes per warehouse. Measured on SQLite 3.40: 90.1 MB at
 * scale 1, 336.9 MB at scale 4 (82.3 MB per warehouse + 8 MB of ITEM once); PostgreSQL,
 * MariaDB and Firebird take 10-25% more (see docs/workload-tpcc.md). */
#define BYTES_PER_WAREHOUSE UINT64_C(85000000)

/* Clause 5.2.5.7: keying time (fixed) and mean think time per type, in seconds. */
static const double keying_s[TPCC_NTX] = {18, 3, 2, 2, 2};
static const double think_mean_s[TPCC_NTX] = {12, 12, 10, 5, 5};

static const char *const tx_names[TPCC_NTX] = {"new_order", "payment", "order_status",
                                               "delivery", "stock_level"};
static const double tx_weights[TPCC_NTX] = {45, 43, 4, 4, 4};

/* ---- attach / drop ------------------------------------------------------------------------ */

static int tpcc_attach(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    dg_tpcc *p = wl->priv;
    int64_t v[4] = {0, 0, 0, 0};
    bool have = false;
    int rc = dg_query_ints(conn, "SELECT mt_warehouses, mt_c_last, mt_c_id, mt_c_ol_i_id FROM tpcc_meta",
                           NULL, 0, v, 4, &have, err);
    if (rc)
        return rc;
    if (!have || v[0] <= 0)
        return dg_err_fail(err, DG_E_INVAL, "tpcc_meta is empty: the database is not loaded "
                                            "(run 'dbgauge load --workload tpcc --drop')");
    int64_t n = 0;
    bool found = false;
    if ((rc = dg_query_int(conn, "SELECT COUNT(*) FROM warehouse", NULL, 0, &n, &found, err)) != 0)
        return rc;
    if (n != v[0])
        return dg_err_fail(err, DG_E_INVAL,
                           "tpcc_meta says %lld warehouses but the warehouse table holds %lld (an "
                           "interrupted load? run 'dbgauge load --workload tpcc --drop')",
                           (long long)v[0], (long long)n);
    if (wl->nparts > v[0])
        return dg_err_fail(err, DG_E_INVAL,
                           "tpcc: %d parts need at least %d warehouses, one home range each "
                           "(the database has %lld)",
                           wl->nparts, wl->nparts, (long long)v[0]);
    wl->scale = v[0];
    p->c.c_last_load = v[1];
    p->c.c_id = v[2];
    p->c.c_ol_i_id = v[3];
    /* one run constant for all terminals, from the run seed (2.1.6.1) */
    dg_prng g;
    dg_prng_seed(&g, p->run_seed ^ UINT64_C(0x435f52554e000000)); /* "C_RUN" */
    p->c.c_last_run = dg_tpcc_c_run(&g, p->c.c_last_load);
    p->attached = true;
    return 0;
}

/* procedures=1: the run's procedures exist while it runs */
static int tpcc_run_begin(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    dg_tpcc *p = wl->priv;
    return p->procedures ? dg_tpcc_procs_install(conn, err) : 0;
}

static int tpcc_run_end(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    dg_tpcc *p = wl->priv;
    return p->procedures ? dg_tpcc_procs_drop(conn, err) : 0;
}

static int tpcc_drop(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    int rc = dg_tpcc_procs_drop(conn, err);
    return rc ? rc : dg_workload_drop_tables(wl, conn, err);
}

/* ---- terminals ------------------------------------------------------------------------------ */

static void tpcc_term_close(void *state)
{
    dg_tpcc_term *t = state;
    if (!t)
        return;
    if (t->owner) {
        atomic_fetch_add(&t->owner->deliveries, t->deliveries);
        atomic_fetch_add(&t->owner->delivery_skips, t->delivery_skips);
        atomic_fetch_add(&t->owner->delivery_races, t->delivery_races);
    }
    dg_tpcc_term_fini(t);
    free(t);
}

static int tpcc_term_open(dg_workload *wl, const dg_term *tm, void **state, dg_err *err)
{
    dg_tpcc *p = wl->priv;
    if (!p->attached)
        return dg_err_fail(err, DG_E_INVAL, "tpcc: terminal opened before attach()");
    /* a part of a run split over processes takes its range of home warehouses (its
       terminals numbered from the part's first) */
    int64_t wfirst, wcount, tfirst, tcount;
    dg_part_share(wl->scale, wl->part, wl->nparts, &wfirst, &wcount);
    dg_part_share(tm->nterminals, wl->part, wl->nparts, &tfirst, &tcount);
    if (wcount < 1)
        return dg_err_fail(err, DG_E_INVAL,
                           "tpcc: part %d of %d has no home warehouse: %d parts need at least %d "
                           "warehouses (the database has %lld)",
                           wl->part, wl->nparts, wl->nparts, wl->nparts, (long long)wl->scale);
    int64_t local = tm->id - tfirst;
    dg_tpcc_term *t = xaligned_zalloc(64, sizeof *t);
    t->rng = tm->rng;
    t->warehouses = wl->scale;
    t->w_id = wfirst + local % wcount + 1;
    t->sl_d_id = (local / wcount) % TPCC_DISTRICTS + 1;
    t->c = p->c;
    t->keying_think = p->keying_think;
    t->owner = p;
    int rc = p->procedures ? dg_tpcc_procs_term_init(t, tm->conn, err)
                           : dg_tpcc_term_init(t, tm->conn, err);
    if (rc) {
        free(t);
        return rc;
    }
    *state = t;
    return 0;
}

static int tpcc_tx_run(void *state, int type, int *outcome, dg_err *err)
{
    dg_tpcc_term *t = state;
    int rc;
    *outcome = DG_TX_COMMITTED;
    switch (type) {
    case TPCC_NEW_ORDER: {
        dg_tpcc_no_in in;
        dg_tpcc_no_out out;
        dg_tpcc_gen_new_order(t, &in);
        rc = (t->procs ? dg_tpcc_proc_new_order : dg_tpcc_new_order)(t, &in, &out, err);
        if (rc == 0 && out.rolled_back)
            *outcome = DG_TX_ROLLED_BACK;
        return rc;
    }
    case TPCC_PAYMENT: {
        dg_tpcc_pay_in in;
        dg_tpcc_pay_out out;
        dg_tpcc_gen_payment(t, &in);
        return (t->procs ? dg_tpcc_proc_payment : dg_tpcc_payment)(t, &in, &out, err);
    }
    case TPCC_ORDER_STATUS: {
        dg_tpcc_os_in in;
        dg_tpcc_os_out out;
        dg_tpcc_gen_order_status(t, &in);
        return (t->procs ? dg_tpcc_proc_order_status : dg_tpcc_order_status)(t, &in, &out, err);
    }
    case TPCC_DELIVERY: {
        dg_tpcc_dl_in in;
        dg_tpcc_dl_out out;
        dg_tpcc_gen_delivery(t, &in);
        rc = (t->procs ? dg_tpcc_proc_delivery : dg_tpcc_delivery)(t, &in, &out, err);
        if (rc == 0) {
            t->deliveries++;
            t->delivery_skips += (uint64_t)out.skipped;
            t->delivery_races += (uint64_t)out.races;
        }
        return rc;
    }
    case TPCC_STOCK_LEVEL: {
        dg_tpcc_sl_in in;
        dg_tpcc_sl_out out;
        dg_tpcc_gen_stock_level(t, &in);
        return (t->procs ? dg_tpcc_proc_stock_level : dg_tpcc_stock_level)(t, &in, &out, err);
    }
    }
    return dg_err_fail(err, DG_E_INVAL, "tpcc: unknown transaction type %d", type);
}

static int64_t tpcc_pause_ns(void *state, int type, int when)
{
    dg_tpcc_term *t = state;
    if (!t->keying_think || type < 0 || type >= TPCC_NTX)
        return 0;
    if (when == DG_PAUSE_KEYING)
        return (int64_t)(keying_s[type] * 1e9);
    /* Tt = -ln(r) * mean, r uniform in (0, 1], truncated at 10 * mean (5.2.5.4) */
    double x = -log(1.0 - dg_prng_double(t->rng));
    if (x > 10.0)
        x = 10.0;
    return (int64_t)(x * think_mean_s[type] * 1e9);
}

/* ---- metrics ---------------------------------------------------------------------------------- */

static int tpcc_metrics(dg_workload *wl, const struct dg_txstats *per_type, double measured_s,
                        dg_metric *out, int max)
{
    dg_tpcc *p = wl->priv;
    const dg_txstats *no = &per_type[TPCC_NEW_ORDER];
    uint64_t all = 0, retries = 0, errors = 0;
    for (int i = 0; i < wl->ntx; i++) {
        all += per_type[i].count;
        retries += per_type[i].retries;
        errors += per_type[i].errors;
    }
    double secs = measured_s > 0 ? measured_s : NAN;
    uint64_t deliveries = atomic_load(&p->deliveries);
    uint64_t skips = atomic_load(&p->delivery_skips);
    dg_metric m[] = {
        {"tpmC", (double)(no->count - no->rollbacks) / secs * 60.0, "New-Orders committed/min"},
        {"business_ops_per_s", (double)all / secs, "transactions/s incl. expected rollbacks"},
        {"new_orders_committed", (double)(no->count - no->rollbacks), "transactions"},
        {"new_order_rollbacks", (double)no->rollbacks, "transactions"},
        {"new_order_rollback_pct",
         no->count ? 100.0 * (double)no->rollbacks / (double)no->count : NAN, "%"},
        {"retries", (double)retries, "attempts"},
        {"errors", (double)errors, "transactions"},
        {"delivery_skipped_districts", (double)skips, "districts (whole run incl. warmup)"},
        {"delivery_skipped_pct",
         deliveries ? 100.0 * (double)skips / (double)(deliveries * TPCC_DISTRICTS) : NAN,
         "% of districts (whole run incl. warmup)"},
        {"delivery_races", (double)atomic_load(&p->delivery_races),
         "new orders taken by a concurrent Delivery (whole run)"},
        {"warehouses", (double)wl->scale, "warehouses"},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof m / sizeof m[0] && n < max; i++)
        out[n++] = m[i];
    return n;
}

/* ---- open / free ------------------------------------------------------------------------------- */

static void tpcc_free(dg_workload *wl)
{
    free(wl->priv);
}

static int tpcc_load_op(dg_workload *wl, dg_loader *ld, dg_err *err)
{
    return dg_tpcc_load(wl, ld, err);
}

static const dg_workload_ops tpcc_ops = {
    .load = tpcc_load_op,
    .drop = tpcc_drop,
    .attach = tpcc_attach,
    .run_begin = tpcc_run_begin,
    .run_end = tpcc_run_end,
    .term_open = tpcc_term_open,
    .tx_run = tpcc_tx_run,
    .term_close = tpcc_term_close,
    .check = dg_tpcc_check,
    .pause_ns = tpcc_pause_ns,
    .metrics = tpcc_metrics,
    .free = tpcc_free,
};

static int tpcc_open(const dg_workload_def *def, const dg_wl_config *cfg, dg_workload **out,
                     dg_err *err)
{
    const char *colon = cfg->name ? strchr(cfg->name, ':') : NULL;
    if (colon)
        return dg_err_fail(err, DG_E_INVAL, "workload tpcc has no variants ('%s')", cfg->name);
    bool gen_only = false, full_check = false, procedures = false;
    for (int i = 0; i < cfg->noptions; i++) {
        const char *n = cfg->options[i].name, *v = cfg->options[i].value;
        if (!strcmp(n, "check") && (!strcmp(v, "full") || !strcmp(v, "basic")))
            full_check = !strcmp(v, "full");
        else if (!strcmp(n, "gen_only") && (!strcmp(v, "0") || !strcmp(v, "1")))
            gen_only = !strcmp(v, "1");
        else if (!strcmp(n, "procedures") && (!strcmp(v, "0") || !strcmp(v, "1")))
            procedures = !strcmp(v, "1");
        else
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid --wl-opt '%s=%s' for tpcc (known: check=full|basic, "
                               "gen_only=0|1, procedures=0|1)",
                               n, v);
    }
    dg_workload *wl = xcalloc(1, sizeof *wl);
    dg_tpcc *p = xcalloc(1, sizeof *p);
    p->run_seed = cfg->seed;
    p->keying_think = cfg->keying_think;
    p->gen_only = gen_only;
    p->full_check = full_check;
    p->procedures = procedures;
    atomic_init(&p->deliveries, 0);
    atomic_init(&p->delivery_skips, 0);
    atomic_init(&p->delivery_races, 0);
    wl->def = def;
    wl->ops = &tpcc_ops;
    wl->name = xstrdup("tpcc");
    wl->scale = cfg->scale > 0 ? cfg->scale : def->default_scale;
    wl->scale_given = cfg->scale > 0;
    wl->ntx = TPCC_NTX;
    wl->tx = xcalloc(TPCC_NTX, sizeof *wl->tx);
    for (int i = 0; i < TPCC_NTX; i++) {
        wl->tx[i].name = tx_names[i];
        wl->tx[i].weight = tx_weights[i];
        wl->tx[i].reads_only = i == TPCC_ORDER_STATUS || i == TPCC_STOCK_LEVEL;
    }
    wl->tables = dg_tpcc_tables;
    wl->bytes_per_scale = BYTES_PER_WAREHOUSE;
    wl->scale_unit = "warehouse";
    wl->priv = p;
    char desc[64];
    snprintf(desc, sizeof desc, "tpcc/1 keying_think=%d%s", cfg->keying_think ? 1 : 0,
             procedures ? " procedures=1" : "");
    wl->execution = procedures ? "procedures" : NULL;
    dg_workload_set_hash(wl, desc, strlen(desc));
    *out = wl;
    return 0;
}

static const char *const tpcc_options[] = {"check", "gen_only", "procedures", NULL};

const dg_workload_def dg_workload_tpcc = {
    .name = "tpcc",
    .summary = "TPC-C: 9 tables per warehouse, New-Order/Payment/Order-Status/Delivery/"
               "Stock-Level (45/43/4/4/4), tpmC",
    .variants = NULL,
    .options = tpcc_options,
    .default_scale = 1,
    .open = tpcc_open,
};
