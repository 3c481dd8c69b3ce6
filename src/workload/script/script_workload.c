/*
 * script_workload.c - the "script" workload: pgbench-style script files given with
 * -f FILE[@WEIGHT], each file one transaction type. The engine is script.h; this file
 * adapts it to the workload interface. Script workloads bring no schema of their own:
 * they run against whatever the database holds (load it with another workload or your
 * own SQL), so load() refuses with a clear message.
 */
#include "workload/script/script.h"

#include "core/xalloc.h"
#include "workload/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct script_wl {
    dg_script_set *set;
    uint64_t seed;
} script_wl;

typedef struct script_term {
    dg_script_vm *vm;
} script_term;

static int sw_load(dg_workload *wl, dg_loader *ld, dg_err *err)
{
    (void)ld;
    return dg_err_fail(err, DG_E_UNSUPPORTED,
                       "script workloads have no loader: create the tables first (e.g. "
                       "'dbgauge load --workload tpcb') or with your own SQL");
}

static int sw_drop(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    return 0;
}

static int sw_attach(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    /* :scale is --scale, else pgbench's rule: the number of branches when present */
    if (wl->scale_given)
        return 0;
    bool exists = false;
    int rc = dg_table_exists(conn, "pgbench_branches", &exists, err);
    if (rc || !exists)
        return rc;
    int64_t n = 0;
    bool found = false;
    rc = dg_query_int(conn, "SELECT count(*) FROM pgbench_branches", NULL, 0, &n, &found, err);
    if (rc == 0 && found && n > 0)
        wl->scale = n;
    return rc;
}

static int sw_term_open(dg_workload *wl, const dg_term *t, void **state, dg_err *err)
{
    script_wl *p = wl->priv;
    script_term *st = xcalloc(1, sizeof *st);
    int rc = dg_script_vm_new(p->set, t->conn, t->rng, wl->scale, t->id, p->seed, &st->vm, err);
    if (rc) {
        free(st);
        return rc;
    }
    *state = st;
    return 0;
}

static int sw_tx_run(void *state, int type, int *outcome, dg_err *err)
{
    script_term *st = state;
    *outcome = DG_TX_COMMITTED;
    return dg_script_vm_run(st->vm, type, err);
}

static void sw_term_close(void *state)
{
    script_term *st = state;
    if (!st)
        return;
    dg_script_vm_free(st->vm);
    free(st);
}

static void sw_free(dg_workload *wl)
{
    script_wl *p = wl->priv;
    if (p) {
        dg_script_set_free(p->set);
        free(p);
    }
}

static const dg_workload_ops script_ops = {
    .load = sw_load,
    .drop = sw_drop,
    .attach = sw_attach,
    .term_open = sw_term_open,
    .tx_run = sw_tx_run,
    .term_close = sw_term_close,
    .check = NULL,
    .free = sw_free,
};

typedef struct hash_acc {
    uint64_t h;
} hash_acc;

static void hash_feed(void *arg, const char *p, size_t n)
{
    hash_acc *a = arg;
    for (size_t i = 0; i < n; i++) {
        a->h ^= (unsigned char)p[i];
        a->h *= 0x100000001b3ULL;
    }
}

static int sw_open(const dg_workload_def *def, const dg_wl_config *cfg, dg_workload **out,
                   dg_err *err)
{
    if (cfg->nscripts == 0)
        return dg_err_fail(err, DG_E_INVAL,
                           "the script workload needs at least one -f FILE[@WEIGHT]");
    dg_script_set *set = dg_script_set_new();
    int rc = 0;
    for (int i = 0; i < cfg->nscripts && rc == 0; i++)
        rc = dg_script_set_add_file(set, cfg->scripts[i].path, cfg->scripts[i].weight, err);
    for (int i = 0; i < cfg->nvars && rc == 0; i++)
        rc = dg_script_set_define(set, cfg->vars[i].name, cfg->vars[i].value, err);
    if (rc == 0)
        rc = dg_script_set_finish(set, err);
    if (rc) {
        dg_script_set_free(set);
        return rc;
    }
    dg_workload *wl = xcalloc(1, sizeof *wl);
    script_wl *p = xcalloc(1, sizeof *p);
    p->set = set;
    p->seed = cfg->seed;
    wl->def = def;
    wl->ops = &script_ops;
    wl->name = xstrdup("script");
    wl->scale = cfg->scale > 0 ? cfg->scale : 1;
    wl->scale_given = cfg->scale > 0;
    wl->ntx = dg_script_set_count(set);
    wl->tx = xcalloc((size_t)wl->ntx, sizeof *wl->tx);
    for (int i = 0; i < wl->ntx; i++) {
        wl->tx[i].name = dg_script_set_name(set, i);
        wl->tx[i].weight = dg_script_set_weight(set, i);
        wl->tx[i].reads_only = dg_script_set_readonly(set, i);
    }
    wl->tables = NULL;
    wl->bytes_per_scale = 0;
    wl->scale_unit = "unit";
    wl->pipeline_ok = dg_script_set_pipelinable(set);
    wl->priv = p;
    hash_acc h = {0xcbf29ce484222325ULL};
    dg_script_set_hash_text(set, hash_feed, &h);
    snprintf(wl->hash, sizeof wl->hash, "%016llx", (unsigned long long)h.h);
    *out = wl;
    return 0;
}

const dg_workload_def dg_workload_script = {
    .name = "script",
    .summary = "pgbench-style SQL scripts given with -f FILE[@WEIGHT] (\\set, \\if, \\gset, \\sleep)",
    .variants = NULL,
    .default_scale = 1,
    .open = sw_open,
};
