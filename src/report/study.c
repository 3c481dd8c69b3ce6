/*
 * study.c - the studies' own summaries (study.h).
 */
#include "report/study.h"

#include "core/xalloc.h"
#include "results/result.h"
#include "stats/ci.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the 40-table study: CPU-bound vs I/O-bound ---------------------------------------- */

#define MAX_DBS 8
enum { T_INSERT, T_CPU, T_IO, NTESTS };

static const char *const test_names[NTESTS] = {"insert", "select, CPU-bound (hot keys)",
                                               "select, I/O-bound (all keys)"};

/* One database's runs of each test. */
typedef struct tdb {
    const char *url;   /* run.db (passwords redacted in result files) */
    int n[NTESTS];
    double *tps[NTESTS], *hit[NTESTS];
    int not_held[NTESTS]; /* runs whose regime did not hold */
} tdb;

static int test_of(const json_t *doc)
{
    const char *wl = dg_res_str(doc, "run.workload");
    if (!wl || strncmp(wl, "tables:", 7))
        return -1;
    if (!strcmp(wl + 7, "insert"))
        return T_INSERT;
    const char *claim = dg_res_str(doc, "regime.claimed");
    if (!claim)
        return -1;
    return !strcmp(claim, "cpu_bound") ? T_CPU : !strcmp(claim, "io_bound") ? T_IO : -1;
}

static double median_of(double *v, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[m++] = v[i];
    return m ? dg_ci_median(v, m) : NAN;
}

static void tables_study(dg_report *rep, const dg_rep_set *s)
{
    tdb dbs[MAX_DBS];
    int ndb = 0;
    memset(dbs, 0, sizeof dbs);
    for (int r = 0; r < s->nruns; r++) {
        const json_t *doc = s->runs[r].doc;
        int t = test_of(doc);
        const char *url = dg_res_str(doc, "run.db");
        if (t < 0 || !url || !dg_res_get(doc, "totals.tps"))
            continue;
        int d = 0;
        while (d < ndb && strcmp(dbs[d].url, url))
            d++;
        if (d == ndb) {
            if (ndb == MAX_DBS)
                continue;
            dbs[ndb++].url = url;
        }
        tdb *b = &dbs[d];
        b->tps[t] = xrealloc(b->tps[t], (size_t)(b->n[t] + 1) * sizeof *b->tps[t]);
        b->hit[t] = xrealloc(b->hit[t], (size_t)(b->n[t] + 1) * sizeof *b->hit[t]);
        b->tps[t][b->n[t]] = dg_res_num(doc, "totals.tps", NAN);
        b->hit[t][b->n[t]] = dg_res_num(doc, "monitor.cache_hit_pct", NAN);
        b->n[t]++;
        const json_t *held = dg_res_get(doc, "regime.held");
        if (t != T_INSERT && json_is_false(held))
            b->not_held[t]++;
    }
    int both = 0; /* databases with both select tests: the study's question */
    for (int d = 0; d < ndb; d++)
        both += dbs[d].n[T_CPU] > 0 && dbs[d].n[T_IO] > 0;
    if (both == 0)
        goto out;

    double tps[MAX_DBS][NTESTS], hit[MAX_DBS][NTESTS];
    for (int d = 0; d < ndb; d++)
        for (int t = 0; t < NTESTS; t++) {
            tps[d][t] = median_of(dbs[d].tps[t], dbs[d].n[t]);
            hit[d][t] = median_of(dbs[d].hit[t], dbs[d].n[t]);
        }
    dg_rep_section *sec = dg_report_section(rep, "study-tables", "CPU-bound vs I/O-bound throughput");
    dg_rep_text(sec, "The 40-table study's summary: per database, the insert test and the select "
                     "tests over the hot key range (its pages stay cached: CPU-bound) and over all "
                     "keys (I/O-bound when the data is larger than the engine's cache); the median "
                     "of each test's runs, the CPU-bound / I/O-bound ratio, and the cache hit "
                     "ratio that shows which regime each test ran in.");
    dg_rep_table *tb = dg_rep_table_add(sec, "study-tables-summary", "CPU-bound vs I/O-bound throughput",
                                        DG_TABLE_GRID);
    dg_rep_col_add(tb, "database", NULL, DG_PREC_AUTO);
    dg_rep_col_add(tb, "URL", NULL, DG_PREC_AUTO);
    dg_rep_col_add(tb, "insert", "tx/s", DG_PREC_AUTO);
    dg_rep_col_add(tb, "select, CPU-bound", "tx/s", DG_PREC_AUTO);
    dg_rep_col_add(tb, "select, I/O-bound", "tx/s", DG_PREC_AUTO);
    dg_rep_col_add(tb, "CPU-bound / I/O-bound", NULL, 2);
    dg_rep_col_add(tb, "cache hits, CPU-bound", "%", 2);
    dg_rep_col_add(tb, "cache hits, I/O-bound", "%", 2);
    dg_rep_col_add(tb, "runs a test", NULL, 0);
    for (int d = 0; d < ndb; d++) {
        char name[32];
        snprintf(name, sizeof name, "database %d", d + 1);
        dg_rep_row(tb);
        dg_rep_str(tb, 0, name);
        dg_rep_str(tb, 1, dbs[d].url);
        for (int t = 0; t < NTESTS; t++)
            dg_rep_num(tb, 2 + t, tps[d][t]);
        dg_rep_num(tb, 5, tps[d][T_IO] > 0 ? tps[d][T_CPU] / tps[d][T_IO] : NAN);
        dg_rep_num(tb, 6, hit[d][T_CPU]);
        dg_rep_num(tb, 7, hit[d][T_IO]);
        int most = 0;
        for (int t = 0; t < NTESTS; t++)
            most = dbs[d].n[t] > most ? dbs[d].n[t] : most;
        dg_rep_num(tb, 8, most);
    }
    /* the regime each test claimed, checked: a ratio from runs that did not hold it is not
       the study's */
    for (int d = 0; d < ndb; d++)
        for (int t = T_CPU; t <= T_IO; t++)
            if (dbs[d].not_held[t])
                dg_rep_text(sec, "Warning: database %d's %s ran %s in %d of %d runs (cache hits "
                                 "%.1f%%): its ratio does not show the study's regimes.",
                            d + 1, test_names[t], t == T_IO ? "CPU-bound" : "with cache misses",
                            dbs[d].not_held[t], dbs[d].n[t], hit[d][t]);
    if (ndb > 1) {
        dg_rep_table *rt = dg_rep_table_add(sec, "study-tables-vs-first",
                                            "Each database against database 1 (throughput ratio)",
                                            DG_TABLE_GRID);
        dg_rep_col_add(rt, "database", NULL, DG_PREC_AUTO);
        for (int t = 0; t < NTESTS; t++)
            dg_rep_col_add(rt, test_names[t], NULL, 2);
        for (int d = 1; d < ndb; d++) {
            char name[48];
            snprintf(name, sizeof name, "database %d / database 1", d + 1);
            dg_rep_row(rt);
            dg_rep_str(rt, 0, name);
            for (int t = 0; t < NTESTS; t++)
                dg_rep_num(rt, 1 + t, tps[0][t] > 0 ? tps[d][t] / tps[0][t] : NAN);
        }
    }
    /* the study's bar chart: every test of every database, one bar each */
    dg_rep_chart *c = dg_rep_chart_add(sec, "study-tables-tps", "CPU-bound vs I/O-bound throughput",
                                       DG_CHART_BAR);
    c->tabled = true; /* the summary table holds its numbers */
    dg_rep_axis_set(&c->x, "database and test", NULL);
    dg_rep_axis_set(&c->y, "throughput (median of the runs)", "tx/s");
    c->y.zero = true;
    dg_rep_series *ser = dg_rep_series_add(c, "throughput");
    int x = 0;
    for (int d = 0; d < ndb; d++)
        for (int t = 0; t < NTESTS; t++) {
            if (!isfinite(tps[d][t]))
                continue;
            char *cat = xasprintf("database %d: %s", d + 1, test_names[t]);
            dg_rep_axis_cat(&c->x, cat);
            free(cat);
            dg_rep_point_add(ser, x++, tps[d][t], NAN, NAN);
        }
out:
    for (int d = 0; d < ndb; d++)
        for (int t = 0; t < NTESTS; t++) {
            free(dbs[d].tps[t]);
            free(dbs[d].hit[t]);
        }
}

void dg_rep_study_sections(dg_report *rep, const dg_rep_set *s)
{
    tables_study(rep, s);
}
