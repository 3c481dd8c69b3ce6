/*
 * tpcb.c - the built-in TPC-B-like workload, compatible with pgbench.
 *
 * Tables and scale as pgbench -i: per scale unit 1 branch, 10 tellers, 100,000 accounts;
 * history starts empty. Transactions as pgbench's built-in scripts:
 *   tpcb (default)  update account, read it back, update teller and branch, insert history
 *   simple-update   update account, read it back, insert history      (pgbench -N)
 *   select-only     read one account's balance, no explicit transaction (pgbench -S)
 * Random inputs as pgbench: aid uniform over 1..100000*scale, bid over 1..scale, tid over
 * 1..10*scale, delta over -5000..5000, drawn from the terminal's generator.
 *
 * Layout: schema and loader (data first, then primary keys, then ANALYZE), attach
 * (scale = number of branches), terminal state with prepared statements, the three
 * transactions, and the balance check.
 */
#include "workload/workload.h"

#include "backend/dialect.h"
#include "core/hot.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "workload/loader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACCOUNTS_PER_BRANCH 100000
#define TELLERS_PER_BRANCH 10
#define ACCOUNT_CHUNK 100000 /* rows per load unit */

enum { V_TPCB, V_SIMPLE_UPDATE, V_SELECT_ONLY };

static const char *const tables[] = {"pgbench_accounts", "pgbench_branches", "pgbench_history",
                                     "pgbench_tellers", NULL};

/* The tables and their primary keys (NULL: none). Rows are loaded in key order, so where
 * the key is the storage order (InnoDB) it is declared here instead of after the load. */
static const struct {
    const char *sql, *pk;
} ddl[] = {
    {"CREATE TABLE pgbench_history (tid {int}, bid {int}, aid {int}, delta {int}, "
     "mtime {timestamp}, filler {char 22})",
     NULL},
    {"CREATE TABLE pgbench_tellers (tid {int} NOT NULL, bid {int}, tbalance {int}, filler {char 84})",
     "tid"},
    {"CREATE TABLE pgbench_accounts (aid {int} NOT NULL, bid {int}, abalance {int}, filler {char 84})",
     "aid"},
    {"CREATE TABLE pgbench_branches (bid {int} NOT NULL, bbalance {int}, filler {char 88})",
     "bid"},
};

typedef struct tpcb {
    int variant;
} tpcb;

/* ---- loader ----------------------------------------------------------------------------- */

static int load_simple(dg_loader *ld, const char *table, const char *const *cols, int ncols,
                       int64_t n, int64_t per_branch, dg_err *err)
{
    dg_bulk *b = NULL;
    dg_loader_step_begin(ld, "table", "table %s", table);
    int rc = dg_bulk_begin_whole(ld->conn, table, cols, ncols, &b, err);
    if (rc)
        return rc;
    for (int64_t i = 1; i <= n && rc == 0; i++) {
        dg_value v[3] = {dg_vint(i), dg_vint(0), dg_vint(0)};
        if (ncols == 3) /* tellers: tid, bid, tbalance */
            v[1] = dg_vint((i - 1) / per_branch + 1);
        rc = dg_bulk_row(b, v, err);
        if ((i & 8191) == 0 && rc == 0) /* a huge scale makes these tables long too */
            rc = dg_loader_check_stop(err);
    }
    uint64_t rows = b->rows, bytes = b->bytes;
    int rc2 = dg_bulk_end(b, rc == 0, rc ? NULL : err);
    if (rc == 0)
        rc = rc2;
    if (rc == 0) {
        dg_loader_progress(ld, rows, bytes);
        dg_loader_step_end(ld, rows, bytes);
    }
    return rc;
}

typedef struct acc_job {
    int64_t naccounts;
    int64_t chunk;  /* accounts per unit: the whole table with one job (a whole-table load,
                       COPY FREEZE on PostgreSQL, as pgbench -i), else ACCOUNT_CHUNK */
    atomic_ullong rows, bytes;
} acc_job;

static int load_accounts_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    acc_job *aj = arg;
    static const char *const cols[] = {"aid", "bid", "abalance", "filler"};
    int64_t first = (int64_t)unit * aj->chunk + 1;
    int64_t last = first + aj->chunk - 1;
    if (last > aj->naccounts)
        last = aj->naccounts;
    dg_bulk *b = NULL;
    bool whole = aj->chunk >= aj->naccounts;
    int rc = whole ? dg_bulk_begin_whole(conn, "pgbench_accounts", cols, 4, &b, err)
                   : dg_bulk_begin(conn, "pgbench_accounts", cols, 4, &b, err);
    if (rc)
        return rc;
    uint64_t prev_rows = 0, prev_bytes = 0;
    for (int64_t aid = first; aid <= last && rc == 0; aid++) {
        dg_value v[4] = {dg_vint(aid), dg_vint((aid - 1) / ACCOUNTS_PER_BRANCH + 1), dg_vint(0),
                         dg_vtext("", 0)};
        rc = dg_bulk_row(b, v, err);
        if ((aid & 8191) == 0 && rc == 0) {
            rc = dg_loader_check_stop(err);
            dg_loader_progress(ld, b->rows - prev_rows, b->bytes - prev_bytes);
            prev_rows = b->rows;
            prev_bytes = b->bytes;
        }
    }
    uint64_t rows = b->rows, bytes = b->bytes;
    int rc2 = dg_bulk_end(b, rc == 0, rc ? NULL : err);
    if (rc == 0)
        rc = rc2;
    if (rc == 0) {
        dg_loader_progress(ld, rows - prev_rows, bytes - prev_bytes);
        atomic_fetch_add(&aj->rows, rows);
        atomic_fetch_add(&aj->bytes, bytes);
    }
    return rc;
}

static int tpcb_load(dg_workload *wl, dg_loader *ld, dg_err *err)
{
    const dg_dialect *d = ld->conn->dialect;
    int64_t scale = wl->scale;
    int rc;
    dg_loader_step_begin(ld, "schema", "create tables");
    for (size_t i = 0; i < sizeof ddl / sizeof ddl[0]; i++) {
        char *sql = dg_sql_create_table(d, ddl[i].sql, ddl[i].pk);
        rc = dg_exec(ld->conn, sql, err);
        free(sql);
        if (rc)
            return rc;
    }
    dg_loader_step_end(ld, 0, 0);
    ld->rows_total = (uint64_t)scale * (1 + TELLERS_PER_BRANCH + ACCOUNTS_PER_BRANCH);

    static const char *const bcols[] = {"bid", "bbalance"};
    static const char *const tcols[] = {"tid", "bid", "tbalance"};
    if ((rc = load_simple(ld, "pgbench_branches", bcols, 2, scale, 1, err)) != 0 ||
        (rc = load_simple(ld, "pgbench_tellers", tcols, 3, scale * TELLERS_PER_BRANCH,
                          TELLERS_PER_BRANCH, err)) != 0)
        return rc;

    acc_job aj = {.naccounts = scale * ACCOUNTS_PER_BRANCH,
                  .chunk = ld->jobs > 1 ? ACCOUNT_CHUNK : scale * ACCOUNTS_PER_BRANCH};
    atomic_init(&aj.rows, 0);
    atomic_init(&aj.bytes, 0);
    int nunits = (int)((aj.naccounts + aj.chunk - 1) / aj.chunk);
    dg_loader_step_begin(ld, "table", "table pgbench_accounts");
    rc = dg_loader_parallel(ld, nunits, load_accounts_unit, &aj, "pgbench_accounts", err);
    if (rc)
        return rc;
    dg_loader_step_end(ld, atomic_load(&aj.rows), atomic_load(&aj.bytes));

    static const struct {
        const char *table, *name, *cols;
    } keys[] = {
        {"pgbench_branches", "pgbench_branches_pkey", "bid"},
        {"pgbench_tellers", "pgbench_tellers_pkey", "tid"},
        {"pgbench_accounts", "pgbench_accounts_pkey", "aid"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && dg_sql_pk_after_load(d); i++) {
        if ((rc = dg_loader_check_stop(err)) != 0)
            return rc;
        dg_strbuf sb = DG_STRBUF_INIT;
        dg_sql_add_pk(d, keys[i].table, keys[i].name, keys[i].cols, &sb);
        dg_loader_step_begin(ld, "index", "index %s", keys[i].name);
        rc = dg_exec(ld->conn, dg_sb_str(&sb), err);
        dg_sb_free(&sb);
        if (rc)
            return rc;
        dg_loader_step_end(ld, 0, 0);
    }
    /* with one job every table was a whole-table load (written frozen on PostgreSQL) */
    return dg_loader_analyze_cols(ld, tables, NULL, ld->jobs == 1, err);
}

static int tpcb_drop(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    return dg_workload_drop_tables(wl, conn, err);
}

static int tpcb_attach(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    int64_t n = 0;
    bool found = false;
    int rc = dg_query_int(conn, "SELECT count(*) FROM pgbench_branches", NULL, 0, &n, &found, err);
    if (rc)
        return rc;
    if (n <= 0)
        return dg_err_fail(err, DG_E_INVAL, "pgbench_branches is empty: the database is not loaded "
                                            "(run 'dbgauge load --workload tpcb --drop')");
    wl->scale = n;
    return 0;
}

/* ---- terminals -------------------------------------------------------------------------- */

typedef struct term {
    int variant;
    dg_conn *conn;
    dg_prng *rng;
    int64_t scale;
    dg_stmt *upd_acc, *sel_acc, *upd_tel, *upd_br, *ins_hist;
} term;

static void tpcb_term_close(void *state)
{
    term *t = state;
    if (!t)
        return;
    dg_stmt_free(t->upd_acc);
    dg_stmt_free(t->sel_acc);
    dg_stmt_free(t->upd_tel);
    dg_stmt_free(t->upd_br);
    dg_stmt_free(t->ins_hist);
    free(t);
}

static int tpcb_term_open(dg_workload *wl, const dg_term *tm, void **state, dg_err *err)
{
    tpcb *p = wl->priv;
    term *t = xcalloc(1, sizeof *t);
    t->variant = p->variant;
    t->conn = tm->conn;
    t->rng = tm->rng;
    t->scale = wl->scale;
    int rc = dg_prepare(t->conn, "SELECT abalance FROM pgbench_accounts WHERE aid = ?", &t->sel_acc, err);
    if (rc == 0 && p->variant != V_SELECT_ONLY) {
        rc = dg_prepare(t->conn, "UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?",
                        &t->upd_acc, err);
        if (rc == 0)
            rc = dg_prepare(t->conn,
                            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
                            "VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)",
                            &t->ins_hist, err);
    }
    if (rc == 0 && p->variant == V_TPCB) {
        rc = dg_prepare(t->conn, "UPDATE pgbench_tellers SET tbalance = tbalance + ? WHERE tid = ?",
                        &t->upd_tel, err);
        if (rc == 0)
            rc = dg_prepare(t->conn, "UPDATE pgbench_branches SET bbalance = bbalance + ? WHERE bid = ?",
                            &t->upd_br, err);
    }
    if (rc) {
        tpcb_term_close(t);
        return rc;
    }
    *state = t;
    return 0;
}

/* Executes a statement and discards its rows. */
static DG_HOT int run(dg_stmt *s, const dg_value *p, int n, dg_err *err)
{
    int rc = dg_execute(s, p, n, err);
    if (rc)
        return rc;
    int r;
    while ((r = dg_fetch(s, err)) == 1)
        ;
    return r < 0 ? r : 0;
}

/* Executes a point query, reads its one row (if any) and resets the statement without
 * stepping the cursor to its end: the row is all there is, and on SQLite the extra step
 * would cost as much as the rest of the driver's work per transaction. */
static DG_HOT int run1(dg_stmt *s, const dg_value *p, int n, dg_err *err)
{
    int rc = dg_execute(s, p, n, err);
    if (rc)
        return rc;
    int r = dg_fetch(s, err);
    if (r < 0)
        return r;
    dg_stmt_reset(s);
    return 0;
}

/* select-only: a function of its own, so that the one-statement transaction saves and
 * restores no more registers than it uses (the run loop calls it back to back). */
static DG_HOT int select_tx_run(void *state, int type, int *outcome, dg_err *err)
{
    term *t = state;
    (void)type;
    dg_value p = dg_vint(dg_prng_range(t->rng, 1, ACCOUNTS_PER_BRANCH * t->scale));
    *outcome = DG_TX_COMMITTED;
    return run1(t->sel_acc, &p, 1, err);
}

static DG_HOT int tpcb_tx_run(void *state, int type, int *outcome, dg_err *err)
{
    term *t = state;
    (void)type;
    int64_t aid = dg_prng_range(t->rng, 1, ACCOUNTS_PER_BRANCH * t->scale);
    *outcome = DG_TX_COMMITTED;
    int64_t bid = dg_prng_range(t->rng, 1, t->scale);
    int64_t tid = dg_prng_range(t->rng, 1, TELLERS_PER_BRANCH * t->scale);
    int64_t delta = dg_prng_range(t->rng, -5000, 5000);
    static const dg_txopts wtx = {.write = true};
    int rc = dg_begin(t->conn, &wtx, err);
    if (rc)
        return rc;
    dg_value p2[2] = {dg_vint(delta), dg_vint(aid)};
    dg_value pa = dg_vint(aid);
    if ((rc = run(t->upd_acc, p2, 2, err)) != 0 || (rc = run1(t->sel_acc, &pa, 1, err)) != 0)
        return rc;
    if (t->variant == V_TPCB) {
        dg_value pt[2] = {dg_vint(delta), dg_vint(tid)};
        dg_value pb[2] = {dg_vint(delta), dg_vint(bid)};
        if ((rc = run(t->upd_tel, pt, 2, err)) != 0 || (rc = run(t->upd_br, pb, 2, err)) != 0)
            return rc;
    }
    dg_value ph[4] = {dg_vint(tid), dg_vint(bid), dg_vint(aid), dg_vint(delta)};
    if ((rc = run(t->ins_hist, ph, 4, err)) != 0)
        return rc;
    return dg_commit(t->conn, err);
}

/* ---- check ------------------------------------------------------------------------------ */

static int tpcb_check(dg_workload *wl, dg_conn *conn,
                      void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err)
{
    static const char *const sums[] = {
        "SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts",
        "SELECT coalesce(sum(tbalance), 0) FROM pgbench_tellers",
        "SELECT coalesce(sum(bbalance), 0) FROM pgbench_branches",
        "SELECT coalesce(sum(delta), 0) FROM pgbench_history",
    };
    int64_t v[4];
    for (int i = 0; i < 4; i++) {
        bool found;
        int rc = dg_query_int(conn, sums[i], NULL, 0, &v[i], &found, err);
        if (rc)
            return rc;
    }
    bool all_ok = true;
    dg_check_result r;
    memset(&r, 0, sizeof r);
    r.name = "sum(abalance) = sum(delta) of history";
    r.passed = v[0] == v[3];
    r.offending = r.passed ? 0 : 1;
    snprintf(r.detail, sizeof r.detail, "%" PRId64 " vs %" PRId64, v[0], v[3]);
    report(arg, &r);
    all_ok &= r.passed;
    tpcb *p = wl->priv;
    if (p->variant != V_SIMPLE_UPDATE) {
        r.name = "sum(abalance) = sum(tbalance) = sum(bbalance)";
        r.passed = v[0] == v[1] && v[1] == v[2];
        r.offending = r.passed ? 0 : 1;
        snprintf(r.detail, sizeof r.detail, "%" PRId64 ", %" PRId64 ", %" PRId64, v[0], v[1], v[2]);
        report(arg, &r);
        all_ok &= r.passed;
    }
    return all_ok ? 0 : DG_E_CHECK;
}

static void tpcb_free(dg_workload *wl)
{
    free(wl->priv);
}

/* The variants differ only in their transaction function. */
#define TPCB_OPS(tx_fn)                                                                       \
    {                                                                                         \
        .load = tpcb_load, .drop = tpcb_drop, .attach = tpcb_attach,                          \
        .term_open = tpcb_term_open, .tx_run = tx_fn, .term_close = tpcb_term_close,         \
        .check = tpcb_check, .free = tpcb_free,                                               \
    }
static const dg_workload_ops tpcb_ops = TPCB_OPS(tpcb_tx_run);
static const dg_workload_ops tpcb_select_ops = TPCB_OPS(select_tx_run);

static int tpcb_open(const dg_workload_def *def, const dg_wl_config *cfg, dg_workload **out,
                     dg_err *err)
{
    const char *colon = cfg->name ? strchr(cfg->name, ':') : NULL;
    int variant = V_TPCB;
    if (colon && !strcmp(colon + 1, "simple-update"))
        variant = V_SIMPLE_UPDATE;
    else if (colon && !strcmp(colon + 1, "select-only"))
        variant = V_SELECT_ONLY;
    else if (colon && strcmp(colon + 1, "tpcb-like") != 0)
        return dg_err_fail(err, DG_E_INVAL, "unknown tpcb variant '%s'", colon + 1);
    static const char *const names[] = {"tpcb", "simple_update", "select_only"};
    dg_workload *wl = xcalloc(1, sizeof *wl);
    tpcb *p = xcalloc(1, sizeof *p);
    p->variant = variant;
    wl->def = def;
    wl->ops = variant == V_SELECT_ONLY ? &tpcb_select_ops : &tpcb_ops;
    wl->name = xstrdup(variant == V_TPCB ? "tpcb" : cfg->name);
    wl->scale = cfg->scale > 0 ? cfg->scale : def->default_scale;
    wl->scale_given = cfg->scale > 0;
    wl->ntx = 1;
    wl->tx = xcalloc(1, sizeof *wl->tx);
    wl->tx[0].name = names[variant];
    wl->tx[0].weight = 1;
    wl->tx[0].reads_only = variant == V_SELECT_ONLY;
    wl->tables = tables;
    wl->bytes_per_scale = 15000000; /* ~15 MB per 100,000 accounts, as pgbench -i */
    wl->scale_unit = "branch";
    /* the SELECT's balance is read and dropped, as pgbench does: every statement can go
     * before the one ahead has answered (select-only is one statement, no transaction) */
    wl->pipeline_ok = variant != V_SELECT_ONLY;
    wl->priv = p;
    char desc[64];
    snprintf(desc, sizeof desc, "tpcb/1 variant=%d", variant);
    dg_workload_set_hash(wl, desc, strlen(desc));
    *out = wl;
    return 0;
}

static const char *const variants[] = {"tpcb-like", "simple-update", "select-only", NULL};

const dg_workload_def dg_workload_tpcb = {
    .name = "tpcb",
    .summary = "TPC-B-like bank transactions, compatible with pgbench (variants: simple-update, "
               "select-only)",
    .variants = variants,
    .default_scale = 1,
    .open = tpcb_open,
};
