/*
 * tables.c - the built-in `tables` workload: descriptor, options, attach, terminals, the
 * two transactions and the metrics (see tables.h for the data layout).
 *
 *   insert  one row with the next free key of a random table, in its own transaction.
 *           Keys: ids after the loaded ones (and after any a previous run inserted:
 *           attach reads max(id) of each table); a terminal reserves 64 ids of a table
 *           at a time from a shared atomic counter, so terminals never collide.
 *   select  three queries on one random table, in autocommit: by primary key
 *           (id, seq), by iuk_tbl (id, col3, col4, col5), and by ind1 (id ORDER BY col9
 *           DESC, 10 rows). Keys come from the first key_pct % of the table's loaded
 *           ids (--key-range: hot = 1%, all = 100%, or P%). Each query must return the
 *           rows the generator says (1, 1, min(rows of the id, 10)); anything else
 *           aborts the terminal with a message: the database is not what was loaded.
 *
 * Per-query latencies of the measured phase are recorded per terminal (no lock; the
 * histograms are made at term_open) and merged at term_close, for the metrics.
 */
#include "workload/tables/tables.h"

#include "backend/dialect.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "stats/txstats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Size model for --size: database bytes per row with its three indexes. Measured on
 * SQLite 3.40 and PostgreSQL 15 (docs/workload-tables.md). */
#define BYTES_PER_ROW UINT64_C(1250)
#define ID_BLOCK 64

enum { V_MIXED = 0, V_INSERT, V_SELECT };

static const char *const q_names[TABLES_NQ] = {"pk", "iuk", "ind1"};

/* ---- names, meta, attach ----------------------------------------------------------------- */

static void set_count(dg_tables *p, int n)
{
    for (int t = 0; t < p->ntables; t++)
        free(p->names[t]);
    free(p->names);
    free(p->shape);
    free(p->next_id);
    p->ntables = n;
    p->names = xcalloc((size_t)n, sizeof *p->names);
    p->shape = xcalloc((size_t)n, sizeof *p->shape);
    p->next_id = xcalloc((size_t)n, sizeof *p->next_id);
    for (int t = 0; t < n; t++) {
        p->names[t] = xasprintf("tbl_%d", TABLES_FIRST_NUMBER + t);
        atomic_init(&p->next_id[t], 0);
    }
}

int dg_tables_read_meta(dg_conn *conn, int *ntables, int64_t *rows, uint64_t *seed, bool *found,
                        dg_err *err)
{
    int64_t v[3] = {0, 0, 0};
    int rc = dg_query_ints(conn, "SELECT mt_tables, mt_rows, mt_seed FROM tables_meta", NULL, 0, v,
                           3, found, err);
    if (rc)
        return rc;
    *ntables = (int)v[0];
    *rows = v[1];
    *seed = (uint64_t)v[2];
    return 0;
}

char *dg_tables_query_sql(const dg_dialect *d, int q, const char *name)
{
    char tmpl[256];
    if (q == Q_PK)
        snprintf(tmpl, sizeof tmpl, "SELECT * FROM %s WHERE id = ? AND seq = ?", name);
    else if (q == Q_IUK)
        snprintf(tmpl, sizeof tmpl,
                 "SELECT * FROM %s WHERE id = ? AND col3 = ? AND col4 = ? AND col5 = ?", name);
    else
        snprintf(tmpl, sizeof tmpl, "SELECT * FROM %s WHERE id = ? ORDER BY col9 DESC{limit %d}",
                 name, TABLES_IND1_LIMIT);
    return dg_sql_renderx(d, tmpl);
}

static int tables_attach(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    dg_tables *p = wl->priv;
    int n = 0;
    int64_t rows = 0;
    uint64_t seed = 0;
    bool found = false;
    int rc = dg_tables_read_meta(conn, &n, &rows, &seed, &found, err);
    if (rc)
        return rc;
    if (!found || n < 1 || n > TABLES_MAX_COUNT || rows < n)
        return dg_err_fail(err, DG_E_INVAL, "tables_meta is empty: the database is not loaded "
                                            "(run 'dbgauge load --workload tables --drop')");
    if (p->ntables_given && n != p->ntables)
        return dg_err_fail(err, DG_E_INVAL,
                           "the database holds %d tables, not the %d of --tables (reload with "
                           "'dbgauge load --workload tables --tables %d --drop', or leave "
                           "--tables out)",
                           n, p->ntables, p->ntables);
    if (n != p->ntables)
        set_count(p, n);
    p->seed = seed;
    for (int t = 0; t < n; t++) {
        dg_tables_shape_of(seed, t, dg_tables_rows_share(rows, n, t), &p->shape[t]);
        /* inserts continue after the highest id in the table */
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT max(id) FROM %s", p->names[t]);
        dg_stmt *s = NULL;
        if ((rc = dg_prepare(conn, sql, &s, err)) != 0)
            return rc;
        int64_t next = p->shape[t].ids;
        rc = dg_execute(s, NULL, 0, err);
        int r = rc ? rc : dg_fetch(s, err);
        if (r == 1) {
            dg_value x;
            dg_column(s, 0, &x);
            if (x.type == DG_V_TEXT) {
                int64_t k = dg_tables_key_index(x.u.s.ptr, x.u.s.len);
                if (k + 1 > next)
                    next = k + 1;
            }
        }
        dg_stmt_reset(s);
        dg_stmt_free(s);
        if (r < 0)
            return r;
        if (wl->nparts > 1) {
            /* a part of a run split over processes: its blocks are the part-th of every
               nparts, from a boundary every part rounds up to alike, so parts that attach
               before or after another's first inserts still never take the same id */
            int64_t stride = (int64_t)ID_BLOCK * wl->nparts;
            next = (next + stride - 1) / stride * stride + (int64_t)wl->part * ID_BLOCK;
        }
        atomic_store(&p->next_id[t], next);
    }
    wl->scale = rows;
    p->attached = true;
    return 0;
}

static int tables_drop(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    return dg_tables_drop(wl, conn, err);
}

static int tables_load(dg_workload *wl, dg_loader *ld, dg_err *err)
{
    return dg_tables_load(wl, ld, err);
}

/* ---- terminals ------------------------------------------------------------------------- */

typedef struct term {
    dg_tables *p;
    dg_conn *conn;
    dg_prng *rng;
    const atomic_int *phase;
    int n;
    dg_stmt **ins;             /* [n] or NULL */
    dg_stmt *(*sel)[TABLES_NQ]; /* [n] or NULL */
    int64_t (*ids)[2];         /* [n]: reserved ids next, end */
    int64_t *hot;              /* [n]: ids selects draw from */
    dg_hist q[TABLES_NQ];      /* over qblock: one memory map per terminal */
    uint64_t *qblock;
    bool q_ok;
    uint64_t inserted;
} term;

static void tables_term_close(void *state)
{
    term *t = state;
    if (!t)
        return;
    dg_tables *p = t->p;
    pthread_mutex_lock(&p->lock);
    p->inserted += t->inserted;
    if (t->q_ok && p->q_ok)
        for (int k = 0; k < TABLES_NQ; k++)
            dg_hist_merge(&p->q[k], &t->q[k]);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < t->n; i++) {
        if (t->ins)
            dg_stmt_free(t->ins[i]);
        if (t->sel)
            for (int k = 0; k < TABLES_NQ; k++)
                dg_stmt_free(t->sel[i][k]);
    }
    for (int k = 0; k < TABLES_NQ; k++)
        dg_hist_destroy(&t->q[k]);
    dg_hist_block_unmap(t->qblock, TABLES_NQ);
    free(t->ins);
    free(t->sel);
    free(t->ids);
    free(t->hot);
    free(t);
}

static int tables_term_open(dg_workload *wl, const dg_term *tm, void **state, dg_err *err)
{
    dg_tables *p = wl->priv;
    if (!p->attached)
        return dg_err_fail(err, DG_E_INVAL, "tables: terminal opened before attach()");
    term *t = xcalloc(1, sizeof *t);
    t->p = p;
    t->conn = tm->conn;
    t->rng = tm->rng;
    t->phase = tm->phase;
    t->n = p->ntables;
    t->ids = xcalloc((size_t)t->n, sizeof *t->ids);
    t->hot = xcalloc((size_t)t->n, sizeof *t->hot);
    t->qblock = dg_hist_block_map(TABLES_NQ);
    t->q_ok = t->qblock != NULL;
    for (int k = 0; k < TABLES_NQ && t->q_ok; k++)
        dg_hist_init_in(&t->q[k], t->qblock, k);
    for (int i = 0; i < t->n; i++) {
        int64_t h = (int64_t)ceil((double)p->shape[i].ids * p->key_pct / 100.0);
        t->hot[i] = h < 1 ? 1 : h > p->shape[i].ids ? p->shape[i].ids : h;
    }
    bool want_ins = wl->tx[TABLES_INSERT].weight > 0, want_sel = wl->tx[TABLES_SELECT].weight > 0;
    if (want_ins)
        t->ins = xcalloc((size_t)t->n, sizeof *t->ins);
    if (want_sel)
        t->sel = xcalloc((size_t)t->n, sizeof *t->sel);
    int rc = 0;
    char sql[512];
    for (int i = 0; i < t->n && rc == 0; i++) {
        if (want_ins) {
            snprintf(sql, sizeof sql,
                     "INSERT INTO %s (id, seq, col3, col4, col5, col6, col7, col8, col9, col10, "
                     "col11, col12, col13, col14) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     p->names[i]);
            rc = dg_prepare(t->conn, sql, &t->ins[i], err);
        }
        for (int k = 0; want_sel && k < TABLES_NQ && rc == 0; k++) {
            char *q = dg_tables_query_sql(t->conn->dialect, k, p->names[i]);
            rc = dg_prepare(t->conn, q, &t->sel[i][k], err);
            free(q);
        }
    }
    if (rc) {
        tables_term_close(t);
        return rc;
    }
    *state = t;
    return 0;
}

static bool measuring(const term *t)
{
    return !t->phase || atomic_load_explicit(t->phase, memory_order_relaxed) == 1;
}

static int wrong_rows(dg_err *err, const term *t, int table, const char *id, int q, int64_t got,
                      int64_t want)
{
    (void)t;
    return dg_err_set(err, DG_E_CHECK, DG_EC_FATAL, 0, NULL,
                      "tables: the %s query on %s for id %s returned %lld rows, expected %lld: "
                      "the data are not what dbgauge loaded (reload with 'dbgauge load "
                      "--workload tables --drop')",
                      q_names[q], t->p->names[table], id, (long long)got, (long long)want);
}

/* Runs one query, counting its rows (a unique lookup stops after its row). */
static int query(term *t, int q, dg_stmt *s, const dg_value *v, int n, bool unique, int64_t *rows,
                 dg_err *err)
{
    int64_t t0 = dg_now_ns();
    int rc = dg_execute(s, v, n, err);
    if (rc)
        return rc;
    int64_t got = 0;
    int r;
    while ((r = dg_fetch(s, err)) == 1) {
        got++;
        if (unique)
            break;
    }
    if (r < 0)
        return r;
    if (r == 1)
        dg_stmt_reset(s);
    if (t->q_ok && measuring(t))
        dg_hist_record(&t->q[q], dg_now_ns() - t0);
    *rows = got;
    return 0;
}

static int tx_select(term *t, dg_err *err)
{
    dg_tables *p = t->p;
    int tb = (int)dg_prng_range(t->rng, 0, t->n - 1);
    int64_t i = dg_prng_range(t->rng, 0, t->hot[tb] - 1);
    int k = dg_tables_rows_of_id(p->seed, tb, &p->shape[tb], i);
    int64_t seq = dg_prng_range(t->rng, 1, k);
    dg_tables_row r;
    dg_tables_row_gen(p->seed, tb, i, seq, false, &r);
    dg_value v[4] = {dg_vtext(r.id, 13), dg_vint(seq), dg_vtext(r.col3, (size_t)r.n3),
                     dg_vtext(r.col4, (size_t)r.n4)};
    int64_t got = 0;
    int rc = query(t, Q_PK, t->sel[tb][Q_PK], v, 2, true, &got, err);
    if (rc)
        return rc;
    if (got != 1)
        return wrong_rows(err, t, tb, r.id, Q_PK, got, 1);
    dg_value vi[4] = {v[0], v[2], v[3], dg_vtext(r.col5, (size_t)r.n5)};
    if ((rc = query(t, Q_IUK, t->sel[tb][Q_IUK], vi, 4, true, &got, err)) != 0)
        return rc;
    if (got != 1)
        return wrong_rows(err, t, tb, r.id, Q_IUK, got, 1);
    if ((rc = query(t, Q_IND1, t->sel[tb][Q_IND1], v, 1, false, &got, err)) != 0)
        return rc;
    int64_t want = k < TABLES_IND1_LIMIT ? k : TABLES_IND1_LIMIT;
    if (got != want)
        return wrong_rows(err, t, tb, r.id, Q_IND1, got, want);
    return 0;
}

static int tx_insert(term *t, dg_err *err)
{
    dg_tables *p = t->p;
    int tb = (int)dg_prng_range(t->rng, 0, t->n - 1);
    if (t->ids[tb][0] >= t->ids[tb][1]) {
        int64_t base = atomic_fetch_add(&p->next_id[tb], p->id_stride);
        t->ids[tb][0] = base;
        t->ids[tb][1] = base + ID_BLOCK;
    }
    int64_t i = t->ids[tb][0]++;
    if (i > TABLES_MAX_IDS)
        return dg_err_fail(err, DG_E_INVAL, "tables: %s has no free keys left", p->names[tb]);
    dg_tables_row r;
    dg_tables_row_gen(p->seed, tb, i, 1, true, &r);
    dg_value v[14];
    dg_tables_row_values(&r, v);
    static const dg_txopts wtx = {.write = true};
    int rc = dg_begin(t->conn, &wtx, err);
    if (rc)
        return rc;
    if ((rc = dg_execute(t->ins[tb], v, 14, err)) != 0)
        return rc;
    dg_stmt_reset(t->ins[tb]);
    if ((rc = dg_commit(t->conn, err)) != 0)
        return rc;
    t->inserted++;
    return 0;
}

static int tables_tx_run(void *state, int type, int *outcome, dg_err *err)
{
    term *t = state;
    *outcome = DG_TX_COMMITTED;
    if (type == TABLES_INSERT)
        return tx_insert(t, err);
    return tx_select(t, err);
}

/* ---- metrics ---------------------------------------------------------------------------- */

static int tables_metrics(dg_workload *wl, const struct dg_txstats *per_type, double measured_s,
                          dg_metric *out, int max)
{
    dg_tables *p = wl->priv;
    (void)per_type;
    (void)measured_s;
    static const char *const names[TABLES_NQ][3] = {
        {"select_pk_avg_ms", "select_pk_p95_ms", "select_pk_p99_ms"},
        {"select_iuk_avg_ms", "select_iuk_p95_ms", "select_iuk_p99_ms"},
        {"select_ind1_avg_ms", "select_ind1_p95_ms", "select_ind1_p99_ms"},
    };
    int n = 0;
    for (int k = 0; k < TABLES_NQ && p->q_ok; k++) {
        const dg_hist *h = &p->q[k];
        bool any = h->total > 0;
        double v[3] = {any ? dg_hist_mean(h) / 1e6 : NAN,
                       any ? (double)dg_hist_percentile(h, 95) / 1e6 : NAN,
                       any ? (double)dg_hist_percentile(h, 99) / 1e6 : NAN};
        for (int j = 0; j < 3 && n < max; j++)
            out[n++] = (dg_metric){names[k][j], v[j], "ms (one query, measured phase)"};
    }
    dg_metric m[] = {
        {"tables", (double)p->ntables, "tables"},
        {"rows_loaded", (double)wl->scale, "rows"},
        {"key_range_pct", p->key_pct, "% of each table's ids that selects draw from"},
        {"rows_inserted", (double)p->inserted, "rows (whole run incl. warmup)"},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0] && n < max; i++)
        out[n++] = m[i];
    return n;
}

/* ---- open / free ----------------------------------------------------------------------- */

static void tables_free(dg_workload *wl)
{
    dg_tables *p = wl->priv;
    if (!p)
        return;
    for (int t = 0; t < p->ntables; t++)
        free(p->names[t]);
    free(p->names);
    free(p->shape);
    free(p->next_id);
    for (int k = 0; k < TABLES_NQ; k++)
        dg_hist_destroy(&p->q[k]);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static const dg_workload_ops tables_ops = {
    .load = tables_load,
    .drop = tables_drop,
    .attach = tables_attach,
    .term_open = tables_term_open,
    .tx_run = tables_tx_run,
    .term_close = tables_term_close,
    .check = dg_tables_check,
    .metrics = tables_metrics,
    .free = tables_free,
};

/* "hot", "all" or "P%" with 0 < P <= 100. */
static int parse_key_range(const char *s, double *pct, dg_err *err)
{
    if (!s || !strcmp(s, "all")) {
        *pct = 100;
        return 0;
    }
    if (!strcmp(s, "hot")) {
        *pct = TABLES_HOT_PCT;
        return 0;
    }
    char *end = NULL;
    double v = strtod(s, &end);
    if (end && end != s && !strcmp(end, "%") && v > 0 && v <= 100) {
        *pct = v;
        return 0;
    }
    return dg_err_fail(err, DG_E_INVAL,
                       "invalid --key-range '%s': expected hot (the first %g%% of each table's "
                       "ids), all, or a percentage such as 5%%",
                       s, TABLES_HOT_PCT);
}

static const char *const tx_names[TABLES_NTX] = {"insert", "select"};

static int tables_open(const dg_workload_def *def, const dg_wl_config *cfg, dg_workload **out,
                       dg_err *err)
{
    /* dg_workload_open has checked the variant against the list */
    const char *colon = cfg->name ? strchr(cfg->name, ':') : NULL;
    int variant = !colon ? V_MIXED : !strcmp(colon + 1, "insert") ? V_INSERT : V_SELECT;
    double pct = 100;
    if (parse_key_range(cfg->key_range, &pct, err))
        return DG_E_INVAL;
    if (cfg->tables < 0 || cfg->tables > TABLES_MAX_COUNT)
        return dg_err_fail(err, DG_E_INVAL, "--tables: 1 to %d", TABLES_MAX_COUNT);

    dg_tables *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->ntables_given = cfg->tables > 0;
    set_count(p, cfg->tables > 0 ? cfg->tables : TABLES_DEFAULT_COUNT);
    p->key_pct = pct;
    snprintf(p->key_range, sizeof p->key_range, "%s", cfg->key_range ? cfg->key_range : "all");
    p->variant = variant;
    p->run_seed = cfg->seed;
    p->id_stride = (int64_t)ID_BLOCK * (cfg->nparts > 1 ? cfg->nparts : 1);
    p->q_ok = true;
    for (int k = 0; k < TABLES_NQ; k++)
        p->q_ok &= dg_hist_init(&p->q[k]) == 0;
    p->exist_tables[0] = "tbl_200";
    p->exist_tables[1] = "tables_meta";
    p->exist_tables[2] = NULL;

    dg_workload *wl = xcalloc(1, sizeof *wl);
    wl->def = def;
    wl->ops = &tables_ops;
    wl->name = xstrdup(variant == V_INSERT ? "tables:insert" : variant == V_SELECT ? "tables:select" : "tables");
    wl->scale = cfg->scale > 0 ? cfg->scale : def->default_scale;
    wl->scale_given = cfg->scale > 0;
    wl->ntx = TABLES_NTX;
    wl->tx = xcalloc(TABLES_NTX, sizeof *wl->tx);
    for (int i = 0; i < TABLES_NTX; i++) {
        wl->tx[i].name = tx_names[i];
        wl->tx[i].weight = variant == V_MIXED ? 1 : (variant == V_INSERT) == (i == TABLES_INSERT);
        wl->tx[i].reads_only = i != TABLES_INSERT;
    }
    wl->tables = p->exist_tables;
    /* the study's two select regimes: all keys (I/O-bound), the hot 1 % (CPU-bound) */
    if (variant != V_INSERT)
        wl->regime = pct >= 100 ? "io_bound" : pct <= 1 ? "cpu_bound" : NULL;
    wl->bytes_per_scale = BYTES_PER_ROW;
    wl->scale_unit = "row";
    wl->priv = p;
    /* the definition: what runs and on which keys; the table count, like the rows, is the
     * database's shape (run.scale, workload_metrics.tables), not the workload's */
    char desc[96];
    snprintf(desc, sizeof desc, "tables/1 variant=%d key_pct=%.6g", variant, pct);
    dg_workload_set_hash(wl, desc, strlen(desc));
    *out = wl;
    return 0;
}

static const char *const variants[] = {"insert", "select", NULL};

const dg_workload_def dg_workload_tables = {
    .name = "tables",
    .summary = "40 tables of ~1 KB rows: insert / 3-query select (PK, unique, ordered index); "
               "--tables, --rows, --key-range hot|all|P%",
    .variants = variants,
    .options = NULL,
    .default_scale = 40000,
    .open = tables_open,
};
