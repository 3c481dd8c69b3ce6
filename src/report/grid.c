/*
 * grid.c - the sweep section of a report (grid.h).
 *
 * Layout: the parameters (their distinct values, numeric or not) and the groups of runs
 * at each point; the medians of a metric over a group's runs; one chart per varied
 * parameter and metric, throughput against CPU, the pivot tables of the medians, the
 * table of the points; the section that puts them in order; the public functions.
 */
#include "report/grid.h"

#include "core/strbuf.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "stats/ci.h"
#include "report/numfmt.h"
#include "results/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 64

static double num(const json_t *o, const char *path)
{
    return dg_res_num(o, path, NAN);
}

static const char *str_or(const json_t *o, const char *path, const char *dflt)
{
    const char *s = dg_res_str(o, path);
    return s ? s : dflt;
}

typedef struct param {
    const char *name;
    char **vals;  /* distinct values, in display order (owned) */
    int nvals;
    bool numeric; /* every value is a number */
    bool axis;    /* ... and they read well on a numeric axis (see sweep_params) */
    bool integer; /* ... all integers */
} param;

typedef struct group {
    int *vi;   /* value index per varied parameter (-1: the run lacks it) */
    int *runs; /* indices into the set */
    int n;
} group;

typedef struct dg_rep_grid {
    const dg_rep_set *s;
    const dg_rep_summary *sums;
    param p[MAX_PARAMS];
    int np;
    group *g;
    int ng;
    bool server_cpu; /* every run has its server host's CPU: "CPU" is the server's */
    bool by_workload; /* one size measure for the whole sweep: the workload's own tables
                         and indexes when every run with a size has them (a reused
                         Firebird file, a PostgreSQL database holding other tables: the
                         database's size would mix measures or count others' data), else
                         the database's size everywhere */
    double *size;     /* [run]: its size in that measure (a run that did not load: its
                         scale's load's) */
    const char *wmetric; /* M_WORKLOAD: the workload metric's name */
} sweep;

static bool is_number(const char *v, double *out)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !isfinite(d))
        return false;
    if (out)
        *out = d;
    return true;
}

static int cmp_num_str(const void *a, const void *b)
{
    double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);
    return x < y ? -1 : x > y;
}

static int value_index(const param *p, const char *v)
{
    for (int i = 0; v && i < p->nvals; i++)
        if (!strcmp(p->vals[i], v))
            return i;
    return -1;
}

/* The varied parameters with their values: the index's order when it lists them,
 * numeric order for numbers, else order of appearance. */
static void sweep_params(sweep *w)
{
    const char *names[MAX_PARAMS];
    bool varies[MAX_PARAMS];
    int n = dg_rep_set_params(w->s, names, varies, MAX_PARAMS);
    for (int k = 0; k < n; k++) {
        if (!varies[k])
            continue;
        param *p = &w->p[w->np++];
        p->name = names[k];
        p->vals = xcalloc((size_t)w->s->nruns + 1, sizeof *p->vals);
        const json_t *decl = NULL;
        size_t i;
        json_t *pd;
        json_array_foreach(json_object_get(w->s->experiment, "parameters"), i, pd)
        {
            if (!strcmp(str_or(pd, "name", ""), p->name))
                decl = json_object_get(pd, "values");
        }
        /* declared values that some run has, in the declared order */
        json_t *v;
        json_array_foreach(decl, i, v)
        {
            const char *sv = json_string_value(v);
            for (int r = 0; sv && r < w->s->nruns; r++) {
                char buf[64];
                const char *rv = dg_rep_param(&w->s->runs[r], p->name, buf, sizeof buf);
                if (rv && !strcmp(rv, sv) && value_index(p, sv) < 0) {
                    p->vals[p->nvals++] = xstrdup(sv);
                    break;
                }
            }
        }
        bool from_index = p->nvals > 0;
        for (int r = 0; r < w->s->nruns; r++) {
            char buf[64];
            const char *rv = dg_rep_param(&w->s->runs[r], p->name, buf, sizeof buf);
            if (rv && value_index(p, rv) < 0)
                p->vals[p->nvals++] = xstrdup(rv);
        }
        p->numeric = p->nvals > 0;
        for (int j = 0; j < p->nvals; j++)
            p->numeric = p->numeric && is_number(p->vals[j], NULL);
        if (p->numeric && !from_index)
            qsort(p->vals, (size_t)p->nvals, sizeof *p->vals, cmp_num_str);
        /* a numeric axis when the values are all positive (log scale if they span 10x),
         * or close in magnitude; values like 0, 10, 1000 or SQLite's negative cache sizes
         * -100 ... -100000 read better as ordered categories */
        double lo = INFINITY, hi = 0, x = 0;
        bool positive = true;
        p->integer = p->numeric;
        for (int j = 0; p->numeric && j < p->nvals; j++) {
            is_number(p->vals[j], &x);
            positive = positive && x > 0;
            p->integer = p->integer && x == floor(x);
            if (x != 0) {
                lo = fmin(lo, fabs(x));
                hi = fmax(hi, fabs(x));
            }
        }
        p->axis = p->numeric && (positive || !(hi >= 10 * lo) || lo == INFINITY);
    }
}

static void sweep_groups(sweep *w)
{
    w->g = xcalloc((size_t)w->s->nruns + 1, sizeof *w->g);
    for (int r = 0; r < w->s->nruns; r++) {
        int vi[MAX_PARAMS];
        for (int k = 0; k < w->np; k++) {
            char buf[64];
            vi[k] = value_index(&w->p[k], dg_rep_param(&w->s->runs[r], w->p[k].name, buf,
                                                       sizeof buf));
        }
        int g = 0;
        while (g < w->ng && memcmp(w->g[g].vi, vi, (size_t)w->np * sizeof *vi) != 0)
            g++;
        if (g == w->ng) {
            w->g[g].vi = xmalloc((size_t)(w->np ? w->np : 1) * sizeof *vi);
            memcpy(w->g[g].vi, vi, (size_t)w->np * sizeof *vi);
            w->g[g].runs = xcalloc((size_t)w->s->nruns, sizeof(int));
            w->ng++;
        }
        w->g[g].runs[w->g[g].n++] = r;
    }
}

static void sweep_free(sweep *w)
{
    for (int k = 0; k < w->np; k++) {
        for (int j = 0; j < w->p[k].nvals; j++)
            free(w->p[k].vals[j]);
        free(w->p[k].vals);
    }
    for (int g = 0; g < w->ng; g++) {
        free(w->g[g].vi);
        free(w->g[g].runs);
    }
    free(w->g);
    free(w->size);
}

typedef enum metric {
    M_TPS, M_P95, M_CPU, M_LOAD_MBPS, M_SIZE, M_CONFLICTS, M_LOCK_WAIT, M_WORKLOAD, M_CACHE_TOTAL, M_TPMC
} metric;

/* "CPU" in a sweep: the server host's when every run has it, else the client's. */
static const char *cpu_name(const sweep *w)
{
    return w->server_cpu ? "server CPU" : "client CPU";
}

/* The sweep's size measure, as its charts and tables name it. */
static const char *size_name(const sweep *w)
{
    return w->by_workload ? "workload size" : "database size";
}

static double metric_of(const sweep *w, const dg_rep_summary *s, metric m)
{
    switch (m) {
    case M_TPS: return s->tps;
    case M_P95: return s->p95_ms;
    case M_CPU: return w->server_cpu ? s->server_cpu_pct : s->cpu_pct;
    case M_LOAD_MBPS: return s->load_mb_per_s;
    case M_SIZE: return w->size[s - w->sums];
    case M_TPMC: return s->tpmc;
    case M_CONFLICTS: return s->conflicts_per_tx;
    case M_LOCK_WAIT: return s->lock_wait_pct;
    case M_CACHE_TOTAL: return s->cache_total_bytes / 1e6;
    case M_WORKLOAD: {
        char *path = xasprintf("workload_metrics.%s", w->wmetric);
        double v = dg_res_num(w->s->runs[s - w->sums].doc, path, NAN);
        free(path);
        return v;
    }
    }
    return NAN;
}

/* Median, min and max of a metric over runs (indices into the set). */
static void runs_stat(const sweep *w, const int *runs, int n, metric m, double *med, double *lo,
                      double *hi)
{
    double *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        v[i] = metric_of(w, &w->sums[runs[i]], m);
        if (isfinite(v[i])) {
            *lo = fmin(*lo, v[i]);
            *hi = fmax(*hi, v[i]);
        }
    }
    *med = dg_ci_median(v, n);
    if (!isfinite(*lo))
        *lo = *hi = NAN;
    free(v);
}

static void group_stat(const sweep *w, const group *g, metric m, double *med, double *lo,
                       double *hi)
{
    runs_stat(w, g->runs, g->n, m, med, lo, hi);
}

/* The runs whose parameter k has value index vi; returns the count (runs: room for all). */
static int runs_with(const sweep *w, int k, int vi, int *runs)
{
    int n = 0;
    for (int g = 0; g < w->ng; g++)
        if (w->g[g].vi[k] == vi)
            for (int i = 0; i < w->g[g].n; i++)
                runs[n++] = w->g[g].runs[i];
    return n;
}

/* The size of a scale value in the sweep's one measure: the workload's tables and
 * indexes as loaded, or the database as loaded (the smallest load.db_size_bytes of its
 * runs), else the smallest size a run started with; the database grows while runs write,
 * but a point of the curve needs one size. NaN when no run has one. */
static double scale_size(const sweep *w, int k, int vi)
{
    int *runs = xmalloc((size_t)w->s->nruns * sizeof *runs);
    int n = runs_with(w, k, vi, runs);
    double loaded = INFINITY, before = INFINITY;
    for (int i = 0; i < n; i++) {
        const json_t *d = w->s->runs[runs[i]].doc;
        double a = num(d, "load.db_size_bytes"), b = num(d, "monitor.db_size_before_bytes");
        if (w->by_workload) {
            a = w->size[runs[i]];
            b = NAN;
        }
        if (a > 0)
            loaded = fmin(loaded, a);
        if (b > 0)
            before = fmin(before, b);
    }
    free(runs);
    return isfinite(loaded) ? loaded : isfinite(before) ? before : NAN;
}

/* The smallest of a figure over the sweep's runs (NaN: none has it): the machine's RAM
 * (host.ram_bytes) or the engine's cache (server.cache_bytes). */
static double runs_min(const sweep *w, const char *path)
{
    double v = INFINITY;
    for (int i = 0; i < w->s->nruns; i++) {
        double x = num(w->s->runs[i].doc, path);
        if (x > 0)
            v = fmin(v, x);
    }
    return isfinite(v) ? v : NAN;
}

/* On a size axis, the regime's bounds: the engine's cache and the machine's RAM as
 * vertical marks where they lie among the sizes; outside them, a note says where (the
 * growth study asks whether the database outgrew memory). */
static void size_bounds(const sweep *w, dg_rep_chart *c, double minsize, double maxsize,
                        double div)
{
    const struct {
        const char *path, *what;
    } b[] = {{"server.cache_bytes", "the server's cache"},
             /* caches per connection: what the terminals hold together */
             {"server.cache_total_bytes", "the connections' caches together"},
             {"host.ram_bytes", "this machine's RAM"}};
    dg_strbuf note = DG_STRBUF_INIT;
    if (c->note)
        dg_sb_printf(&note, "%s ", c->note);
    bool said = false;
    double prev = NAN;
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        double v = runs_min(w, b[i].path);
        if (!isfinite(v) || v == prev)
            continue; /* the caches together of one terminal are its one cache */
        prev = v;
        char sz[32];
        dg_format_size((uint64_t)v, sz, sizeof sz);
        if (v >= minsize && v <= maxsize) {
            char *label = xasprintf("%s (%s)", b[i].what, sz);
            dg_rep_mark_add(c, v / div, label);
            free(label);
            continue;
        }
        dg_sb_printf(&note, "%s%s (%s) is %s every size drawn", said ? "; " : "",
                     b[i].what, sz, v > maxsize ? "above" : "below");
        said = true;
    }
    double ram = runs_min(w, "host.ram_bytes");
    if (said && ram > maxsize)
        dg_sb_add(&note, ": every point's data fits in memory");
    if (said) {
        dg_sb_add(&note, ".");
        free(c->note);
        c->note = dg_sb_take(&note);
    }
    dg_sb_free(&note);
}

static bool is_cache_param(const char *name)
{
    return strstr(name, "cache") || strstr(name, "buffer") || strstr(name, "pool");
}

/* Lexicographic order of groups by the value indices of all parameters but `skip`. */
static int line_cmp(const sweep *w, const group *a, const group *b, int skip)
{
    for (int k = 0; k < w->np; k++)
        if (k != skip && a->vi[k] != b->vi[k])
            return a->vi[k] < b->vi[k] ? -1 : 1;
    return 0;
}

/* Sorts group indices by the other parameters' values, then by parameter kx. */
static void sort_groups(const sweep *w, int kx, int *order)
{
    for (int g = 0; g < w->ng; g++)
        order[g] = g;
    for (int a = 1; a < w->ng; a++)
        for (int b = a; b > 0; b--) {
            const group *p = &w->g[order[b - 1]], *q = &w->g[order[b]];
            int c = line_cmp(w, p, q, kx);
            if (c < 0 || (c == 0 && p->vi[kx] <= q->vi[kx]))
                break;
            int tmp = order[b];
            order[b] = order[b - 1];
            order[b - 1] = tmp;
        }
}

/* The unit of the workload metric w->wmetric as the first run that has it states it, up
 * to its remark in parentheses ("documents/s (measured phase)": "documents/s"); NULL
 * when no run states one. */
static char *workload_unit(const sweep *w)
{
    char *path = xasprintf("workload_metric_units.%s", w->wmetric);
    const char *u = NULL;
    for (int r = 0; r < w->s->nruns && !u; r++)
        u = dg_res_str(w->s->runs[r].doc, path);
    free(path);
    if (!u)
        return NULL;
    const char *paren = strstr(u, " (");
    return paren ? xasprintf("%.*s", (int)(paren - u), u) : xstrdup(u);
}

/* The sizes of the databases the sweep ran on, a bar per point (the growth study's first
 * figure): when it varies the scale and some point has a size. */
static void sweep_size_bars(dg_rep_section *sec, const sweep *w, int index)
{
    bool scale = false;
    for (int k = 0; k < w->np; k++)
        scale |= !strcmp(w->p[k].name, "scale");
    double maxsize = 0;
    for (int r = 0; r < w->s->nruns; r++)
        if (isfinite(w->size[r]))
            maxsize = fmax(maxsize, w->size[r]);
    if (!scale || maxsize <= 0)
        return;
    double div = 1;
    const char *unit = dg_rep_size_unit(maxsize, &div);
    char *cid = xasprintf("sweep-%d", index);
    char *title = xasprintf("%s of each point", w->by_workload ? "Workload size" : "Database size");
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, title, DG_CHART_BAR);
    free(cid);
    free(title);
    c->tabled = true; /* the points table has the sizes */
    dg_rep_axis_set(&c->x, "point", NULL);
    dg_rep_axis_set(&c->y, w->by_workload ? "workload size after loading (its tables and indexes)"
                                          : "database size after loading",
                    unit);
    c->y.zero = true;
    dg_rep_series *s = dg_rep_series_add(c, size_name(w));
    int x = 0;
    for (int g = 0; g < w->ng; g++) {
        double med, lo, hi;
        group_stat(w, &w->g[g], M_SIZE, &med, &lo, &hi);
        if (!isfinite(med))
            continue;
        dg_strbuf sb = DG_STRBUF_INIT;
        for (int k = 0; k < w->np; k++)
            dg_sb_printf(&sb, "%s%s=%s", k ? ", " : "", w->p[k].name,
                         w->g[g].vi[k] >= 0 ? w->p[k].vals[w->g[g].vi[k]] : "-");
        dg_rep_axis_cat(&c->x, dg_sb_str(&sb));
        dg_sb_free(&sb);
        dg_rep_point_add(s, x++, med / div, NAN, NAN);
    }
}

/* One chart: metric m against parameter kx, one line per combination of the other
 * parameters (load speed: one line, since a sweep loads once per scale). */
static void sweep_chart(dg_rep_section *sec, const sweep *w, int kx, metric m, int index)
{
    const param *px = &w->p[kx];
    bool by_size = !strcmp(px->name, "scale");
    double maxsize = 0;
    double *sizes = xcalloc((size_t)px->nvals + 1, sizeof *sizes);
    for (int j = 0; j < px->nvals && by_size; j++) {
        sizes[j] = scale_size(w, kx, j);
        by_size = isfinite(sizes[j]);
        maxsize = fmax(maxsize, sizes[j]);
    }
    const char *const what[] = {"Throughput", "95th percentile latency",
                                w->server_cpu ? "Server CPU use" : "Client CPU use", "Load speed",
                                w->by_workload ? "Workload size" : "Database size", "Cluster conflicts per transaction",
                                "Lock manager mutex waits", w->wmetric ? w->wmetric : "",
                                "Cache memory of all connections"};
    const char *xname = by_size ? size_name(w) : px->name;
    char *title;
    if (m == M_TPS && by_size)
        title = xasprintf("Business operations per second vs %s", size_name(w));
    else if (m == M_TPS && is_cache_param(px->name))
        title = xasprintf("Score (transactions per second) vs %s", px->name);
    else
        title = xasprintf("%s vs %s", what[m], xname);
    /* one line per series (the other parameters' values) on every chart, load speed too:
     * a series without a load of its own has no points and is left out below. A single
     * series over named values (db=sata,ssd; a power plan) is a bar chart. */
    bool cat = !px->axis && !by_size;
    bool one_line = w->np == 1;
    bool bar = cat && !px->numeric && one_line;
    char *cid = xasprintf("sweep-%d", index);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, title, bar ? DG_CHART_BAR : DG_CHART_LINE);
    free(cid);
    free(title);
    double div = 1;
    const char *sunit = by_size ? dg_rep_size_unit(maxsize, &div) : NULL;
    dg_rep_axis_set(&c->x,
                    !by_size         ? xname
                    : w->by_workload ? "workload size after loading (its tables and indexes)"
                                     : "database size after loading",
                    sunit);
    char *wunit = m == M_WORKLOAD ? workload_unit(w) : NULL;
    const char *const ylabel[] = {"throughput", "p95 latency", cpu_name(w), "load speed", "",
                                  "conflicts", "lock table mutex acquires that waited",
                                  w->wmetric ? w->wmetric : "",
                                  "the engine's caches, one per connection, together"};
    const char *const yunit[] = {"tx/s", "ms", "%", "MB/s", "", "per transaction", "%", wunit, "MB"};
    dg_rep_axis_set(&c->y, ylabel[m], yunit[m]);
    c->y.zero = true;
    c->x.integer = !by_size && px->integer;
    c->lo_name = xstrdup("min");
    c->hi_name = xstrdup("max");
    if (cat)
        for (int j = 0; j < px->nvals; j++)
            dg_rep_axis_cat(&c->x, px->vals[j]);
    c->x.ordered = cat && px->numeric;
    int *runs = xmalloc((size_t)w->s->nruns * sizeof *runs);
    int *order = xmalloc((size_t)(w->ng ? w->ng : 1) * sizeof *order);
    sort_groups(w, kx, order);
    dg_rep_series *ser = NULL;
    const group *prev = NULL;
    for (int oi = 0; oi < (one_line ? px->nvals : w->ng); oi++) {
        const group *g = one_line ? NULL : &w->g[order[oi]];
        int vi = one_line ? oi : g->vi[kx];
        if (vi < 0)
            continue;
        if (!ser || (!one_line && line_cmp(w, prev, g, kx) != 0)) {
            dg_strbuf sb = DG_STRBUF_INIT;
            for (int k = 0; k < w->np && !one_line; k++)
                if (k != kx)
                    dg_sb_printf(&sb, "%s%s=%s", sb.len ? ", " : "", w->p[k].name,
                                 g->vi[k] >= 0 ? w->p[k].vals[g->vi[k]] : "-");
            ser = dg_rep_series_add(c, sb.len ? dg_sb_str(&sb) : ylabel[m]);
            dg_sb_free(&sb);
        }
        prev = g;
        double x = by_size ? sizes[vi] / div : cat ? vi : strtod(px->vals[vi], NULL);
        double med, lo, hi;
        int n = one_line ? runs_with(w, kx, vi, runs) : g->n;
        runs_stat(w, one_line ? runs : g->runs, n, m, &med, &lo, &hi);
        if (n < 2 || lo == hi)
            lo = hi = NAN;
        if (isfinite(med))
            dg_rep_point_add(ser, x, med, lo, hi);
    }
    /* a line without a single value (e.g. no run of it loaded) would be an empty legend entry */
    for (int i = c->nseries - 1; i >= 0; i--)
        if (c->series[i].n == 0) {
            free(c->series[i].name);
            free(c->series[i].pts);
            memmove(&c->series[i], &c->series[i + 1],
                    (size_t)(c->nseries - i - 1) * sizeof *c->series);
            c->nseries--;
        }
    free(order);
    free(runs);
    if (by_size) {
        double minsize = INFINITY;
        for (int j = 0; j < px->nvals; j++)
            minsize = fmin(minsize, sizes[j]);
        size_bounds(w, c, minsize, maxsize, div);
    }
    free(sizes);
    free(wunit);
    if (!cat)
        dg_rep_chart_autolog(c, true, 10);
    if (m == M_P95)
        dg_rep_chart_autolog(c, false, 10);
}

/* A line chart "sweep-INDEX" of something against the one parameter px: its values on
 * the x axis (named values as ordered categories), whiskers named min and max. */
static dg_rep_chart *param_chart(dg_rep_section *sec, int index, const char *title,
                                 const param *px, const char *ylabel, const char *yunit)
{
    char *cid = xasprintf("sweep-%d", index);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, title, DG_CHART_LINE);
    free(cid);
    dg_rep_axis_set(&c->x, px->name, NULL);
    dg_rep_axis_set(&c->y, ylabel, yunit);
    c->x.integer = px->integer;
    c->lo_name = xstrdup("min");
    c->hi_name = xstrdup("max");
    if (!px->axis)
        for (int j = 0; j < px->nvals; j++)
            dg_rep_axis_cat(&c->x, px->vals[j]);
    c->x.ordered = !px->axis;
    return c;
}

/* Throughput (left axis) and host CPU (right axis) against a numeric parameter, on one
 * chart: the users curves of the TPoX and CUBRID/MySQL studies, where throughput
 * flattens when CPU reaches its ceiling. One series each; the caller checks that the
 * sweep varies only this parameter. */
static void sweep_tps_cpu(dg_rep_section *sec, const sweep *w, int kx, int index)
{
    const param *px = &w->p[kx];
    char *title = xasprintf("Throughput and %s vs %s", cpu_name(w), px->name);
    dg_rep_chart *c = param_chart(sec, index, title, px, "throughput", "tx/s");
    free(title);
    dg_rep_axis_set(&c->y2, cpu_name(w), "%");
    c->y.zero = true;
    bool cat = !px->axis;
    dg_rep_series_add(c, "throughput");
    char *cpu_series = xasprintf("%s (right axis)", cpu_name(w));
    dg_rep_series_add(c, cpu_series); /* may move the first: pointers after */
    free(cpu_series);
    dg_rep_series *s[2] = {&c->series[0], &c->series[1]};
    s[1]->right = true;
    int *runs = xmalloc((size_t)(w->s->nruns ? w->s->nruns : 1) * sizeof *runs);
    for (int vi = 0; vi < px->nvals; vi++) {
        int n = runs_with(w, kx, vi, runs);
        double x = cat ? vi : strtod(px->vals[vi], NULL);
        for (int k = 0; k < 2; k++) {
            double med, lo, hi;
            runs_stat(w, runs, n, k ? M_CPU : M_TPS, &med, &lo, &hi);
            if (n < 2 || lo == hi)
                lo = hi = NAN;
            if (isfinite(med))
                dg_rep_point_add(s[k], x, med, lo, hi);
        }
    }
    free(runs);
    if (!cat)
        dg_rep_chart_autolog(c, true, 10);
}

/* The cache hit ratio of each part the engine tells apart (monitor.cache_parts: Db2's
 * buffer pools, the XML study's per-pool curves; PostgreSQL's tables, indexes and TOAST)
 * against parameter kx, one line per part, the median of each point's runs (min to max).
 * Only when kx is the one varied parameter (else the lines would mix). false: no run has
 * the parts. */
#define MAX_PART_LINES 6
static bool sweep_cache_parts(dg_rep_section *sec, const sweep *w, int kx, int index)
{
    const char *names[MAX_PART_LINES];
    int np = 0;
    for (int r = 0; r < w->s->nruns; r++) {
        const char *name;
        json_t *p;
        json_object_foreach((json_t *)dg_res_get(w->s->runs[r].doc, "monitor.cache_parts"), name, p)
        {
            bool seen = !isfinite(dg_res_num(p, "hit_pct", NAN)); /* unused: no line */
            for (int k = 0; k < np && !seen; k++)
                seen = !strcmp(names[k], name);
            if (!seen && np < MAX_PART_LINES)
                names[np++] = name;
        }
    }
    if (!np)
        return false;
    const param *px = &w->p[kx];
    char *title = xasprintf("Cache hit ratio by part vs %s", px->name);
    dg_rep_chart *c = param_chart(sec, index, title, px, "cache hits", "%");
    free(title);
    bool cat = !px->axis;
    int *runs = xmalloc((size_t)(w->s->nruns ? w->s->nruns : 1) * sizeof *runs);
    double *v = xmalloc((size_t)(w->s->nruns ? w->s->nruns : 1) * sizeof *v);
    for (int k = 0; k < np; k++) {
        dg_rep_series *s = dg_rep_series_add(c, names[k]);
        char *path = xasprintf("monitor.cache_parts.%s.hit_pct", names[k]);
        for (int vi = 0; vi < px->nvals; vi++) {
            int n = runs_with(w, kx, vi, runs), m = 0;
            double lo = INFINITY, hi = -INFINITY;
            for (int i = 0; i < n; i++) {
                double h = dg_res_num(w->s->runs[runs[i]].doc, path, NAN);
                if (isfinite(h)) {
                    v[m++] = h;
                    lo = fmin(lo, h);
                    hi = fmax(hi, h);
                }
            }
            if (!m)
                continue;
            if (m < 2 || lo == hi)
                lo = hi = NAN;
            dg_rep_point_add(s, cat ? vi : strtod(px->vals[vi], NULL), dg_ci_median(v, m), lo, hi);
        }
        free(path);
    }
    free(v);
    free(runs);
    return true;
}

/* A pivot table of metric m: one row per value of the first varied parameter (the one
 * the first charts are drawn against), one column per series of the charts (a
 * combination of the other varied parameters, named as their lines are; a single column
 * named after the metric when there is no other), each cell the median of the point's
 * repeats ("-" for a combination without a run). */
static void sweep_pivot(dg_rep_section *sec, const sweep *w, metric m)
{
    static const struct {
        metric m;
        const char *id, *what, *col, *unit, *note;
        int prec;
    } defs[] = {
        {M_TPS, "sweep-pivot-tps", "Throughput", "throughput", "tx/s", NULL, DG_PREC_AUTO},
        {M_P95, "sweep-pivot-p95", "95th percentile latency", "p95 latency", "ms",
         "over all transaction types, from the merged histograms", DG_PREC_EACH},
        {M_TPMC, "sweep-pivot-tpmc", "tpmC", "New-Orders per minute", "tpmC",
         "the workload's tpmC: New-Orders committed per minute", 1},
    };
    size_t d = 0;
    while (d + 1 < sizeof defs / sizeof defs[0] && defs[d].m != m)
        d++;
    const int kx = 0;
    const param *px = &w->p[kx];
    dg_strbuf sb = DG_STRBUF_INIT;
    for (int k = 1; k < w->np; k++)
        dg_sb_printf(&sb, "%s%s", k == 1 ? "" : k + 1 < w->np ? ", " : " and ", w->p[k].name);
    char *title = xasprintf("%s by %s%s%s (medians over repeats)", defs[d].what, px->name,
                            w->np > 2 ? ", " : w->np == 2 ? " and " : "", dg_sb_str(&sb));
    dg_sb_free(&sb);
    dg_rep_table *t = dg_rep_table_add(sec, defs[d].id, title, DG_TABLE_GRID);
    free(title);
    t->row_head = true;
    if (defs[d].note)
        t->note = xstrdup(defs[d].note);
    dg_rep_col_add(t, px->name, NULL, DG_PREC_AUTO);
    /* the columns: the groups in the charts' order, a new column where the other
     * parameters' values change; col[g] is group g's column */
    int *order = xmalloc((size_t)(w->ng ? w->ng : 1) * sizeof *order);
    int *col = xmalloc((size_t)(w->ng ? w->ng : 1) * sizeof *col);
    sort_groups(w, kx, order);
    const group *prev = NULL;
    for (int oi = 0; oi < w->ng; oi++) {
        const group *g = &w->g[order[oi]];
        col[order[oi]] = -1;
        if (g->vi[kx] < 0)
            continue;
        if (!prev || line_cmp(w, prev, g, kx) != 0) {
            dg_strbuf name = DG_STRBUF_INIT;
            for (int k = 0; k < w->np; k++)
                if (k != kx)
                    dg_sb_printf(&name, "%s%s=%s", name.len ? ", " : "", w->p[k].name,
                                 g->vi[k] >= 0 ? w->p[k].vals[g->vi[k]] : "-");
            dg_rep_col_add(t, name.len ? dg_sb_str(&name) : defs[d].col, defs[d].unit,
                           defs[d].prec);
            dg_sb_free(&name);
        }
        col[order[oi]] = t->ncols - 1;
        prev = g;
    }
    for (int vi = 0; vi < px->nvals; vi++) {
        dg_rep_row(t);
        dg_rep_str(t, 0, px->vals[vi]);
        for (int g = 0; g < w->ng; g++) {
            if (w->g[g].vi[kx] != vi || col[g] < 0)
                continue;
            double med, lo, hi;
            group_stat(w, &w->g[g], m, &med, &lo, &hi);
            dg_rep_num(t, col[g], med);
        }
    }
    free(col);
    free(order);
}

static void sweep_table(dg_rep_section *sec, const sweep *w, bool repeats)
{
    double maxsize = 0;
    for (int r = 0; r < w->s->nruns; r++)
        if (isfinite(metric_of(w, &w->sums[r], M_SIZE)))
            maxsize = fmax(maxsize, metric_of(w, &w->sums[r], M_SIZE));
    double div = 1;
    const char *sunit = dg_rep_size_unit(maxsize, &div);
    dg_rep_table *t = dg_rep_table_add(sec, "sweep-points",
                                       "Points: size, load and score (medians over repeats)",
                                       DG_TABLE_GRID);
    dg_rep_col_add(t, "point", NULL, DG_PREC_AUTO);
    for (int k = 0; k < w->np; k++)
        dg_rep_col_add(t, w->p[k].name, NULL, DG_PREC_AUTO);
    int c0 = 1 + w->np;
    bool scale_varied = false;
    for (int k = 0; k < w->np; k++)
        scale_varied |= !strcmp(w->p[k].name, "scale");
    if (!scale_varied)
        dg_rep_col_add(t, "scale", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, size_name(w), sunit, 2);
    dg_rep_col_add(t, "load time", "s", 2);
    dg_rep_col_add(t, "load speed", "MB/s", 1);
    dg_rep_col_add(t, "throughput", "tx/s", DG_PREC_AUTO);
    if (repeats) {
        dg_rep_col_add(t, "throughput min", "tx/s", DG_PREC_AUTO);
        dg_rep_col_add(t, "throughput max", "tx/s", DG_PREC_AUTO);
    }
    dg_rep_col_add(t, "p95 latency", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, cpu_name(w), "%", 0);
    if (repeats)
        dg_rep_col_add(t, "runs", NULL, 0);
    for (int gi = 0; gi < w->ng; gi++) {
        const group *g = &w->g[gi];
        const dg_rep_run *first = &w->s->runs[g->runs[0]];
        dg_rep_row(t);
        dg_strbuf ids = DG_STRBUF_INIT;
        for (int i = 0; i < g->n; i++) {
            const char *p = w->s->runs[g->runs[i]].point;
            dg_sb_printf(&ids, "%s%s", ids.len ? "," : "", p ? p : "-");
        }
        dg_rep_str(t, 0, dg_sb_str(&ids));
        dg_sb_free(&ids);
        for (int k = 0; k < w->np; k++)
            dg_rep_str(t, 1 + k, g->vi[k] >= 0 ? w->p[k].vals[g->vi[k]] : "-");
        double med, lo, hi;
        int c = c0;
        if (!scale_varied)
            dg_rep_num(t, c++, num(first->doc, "run.scale"));
        group_stat(w, g, M_SIZE, &med, &lo, &hi);
        dg_rep_num(t, c++, med / div);
        double *v = xmalloc((size_t)g->n * sizeof *v);
        for (int i = 0; i < g->n; i++)
            v[i] = w->sums[g->runs[i]].load_s;
        dg_rep_num(t, c++, dg_ci_median(v, g->n));
        free(v);
        group_stat(w, g, M_LOAD_MBPS, &med, &lo, &hi);
        dg_rep_num(t, c++, med);
        group_stat(w, g, M_TPS, &med, &lo, &hi);
        dg_rep_num(t, c++, med);
        if (repeats) {
            dg_rep_num(t, c++, lo);
            dg_rep_num(t, c++, hi);
        }
        group_stat(w, g, M_P95, &med, &lo, &hi);
        dg_rep_num(t, c++, med);
        group_stat(w, g, M_CPU, &med, &lo, &hi);
        dg_rep_num(t, c++, med);
        if (repeats)
            dg_rep_num(t, c++, g->n);
    }
}

/* The workload metrics of the sweep's runs that are rates (dg_rep_metric_is_rate), tpmC
 * aside (its pivot follows), in first-seen order; names borrowed. Returns the count. */
static int workload_rates(const sweep *w, const char **out, int max)
{
    int n = 0;
    for (int r = 0; r < w->s->nruns; r++) {
        const char *name;
        json_t *v;
        json_object_foreach((json_t *)dg_res_get(w->s->runs[r].doc, "workload_metrics"), name, v)
        {
            if (!dg_rep_metric_is_rate(name) || !strcmp(name, "tpmC") || !json_is_number(v))
                continue;
            bool seen = false;
            for (int i = 0; i < n && !seen; i++)
                seen = !strcmp(out[i], name);
            if (!seen && n < max)
                out[n++] = name;
        }
    }
    return n;
}

static void sweep_section(dg_report *rep, const sweep *w)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    for (int k = 0; k < w->np; k++)
        dg_sb_printf(&sb, "%s%s", k ? " x " : "", w->p[k].name);
    char *title = xasprintf("Sweep over %s", dg_sb_str(&sb));
    dg_rep_section *sec = dg_report_section(rep, "sweep", title);
    free(title);
    dg_sb_reset(&sb);
    bool repeats = false;
    for (int g = 0; g < w->ng; g++)
        repeats |= w->g[g].n > 1;
    for (int k = 0; k < w->np; k++) {
        dg_sb_printf(&sb, "%s%s (", k ? "; " : "", w->p[k].name);
        for (int j = 0; j < w->p[k].nvals; j++)
            dg_sb_printf(&sb, "%s%s", j ? ", " : "", w->p[k].vals[j]);
        dg_sb_add(&sb, ")");
    }
    dg_rep_text(sec, "%d points, %d runs. Varied: %s.%s", w->ng, w->s->nruns, dg_sb_str(&sb),
                repeats ? " Repeats are aggregated: points show the median, whiskers the "
                          "minimum and maximum."
                        : "");
    dg_sb_free(&sb);
    const char *cmd = dg_res_str(w->s->experiment, "command");
    if (cmd)
        dg_rep_text(sec, "Sweep command: %s", cmd);
    bool any_load = false;
    for (int r = 0; r < w->s->nruns; r++)
        any_load |= isfinite(w->sums[r].load_mb_per_s);
    bool any_tps = false;
    for (int r = 0; r < w->s->nruns; r++)
        any_tps |= isfinite(w->sums[r].tps);
    bool any_conflicts = false; /* a cluster's: on Galera, rising with the nodes written to */
    for (int r = 0; r < w->s->nruns; r++)
        any_conflicts |= isfinite(w->sums[r].conflicts_per_tx);
    bool any_locks = false; /* Firebird's lock manager (the page-buffer study's Classic) */
    for (int r = 0; r < w->s->nruns; r++)
        any_locks |= isfinite(w->sums[r].lock_wait_pct);
    /* caches per connection (SQLite, Firebird Classic): their sum, when it varies */
    double cache_lo = INFINITY, cache_hi = -INFINITY;
    for (int r = 0; r < w->s->nruns; r++)
        if (isfinite(w->sums[r].cache_total_bytes)) {
            cache_lo = fmin(cache_lo, w->sums[r].cache_total_bytes);
            cache_hi = fmax(cache_hi, w->sums[r].cache_total_bytes);
        }
    bool cache_total = cache_hi > cache_lo;
    int index = 0;
    if (!any_tps && any_load) { /* a sweep of loads or restores: their speed, no runs */
        for (int k = 0; k < w->np; k++)
            sweep_chart(sec, w, k, M_LOAD_MBPS, ++index);
        sweep_table(sec, w, repeats);
        return;
    }
    for (int k = 0; k < w->np; k++) {
        sweep_chart(sec, w, k, M_TPS, ++index);
        if (!strcmp(w->p[k].name, "scale") && any_load)
            sweep_chart(sec, w, k, M_LOAD_MBPS, ++index);
        sweep_chart(sec, w, k, M_P95, ++index);
        sweep_chart(sec, w, k, M_CPU, ++index);
        if (any_conflicts)
            sweep_chart(sec, w, k, M_CONFLICTS, ++index);
        if (any_locks)
            sweep_chart(sec, w, k, M_LOCK_WAIT, ++index);
        if (cache_total)
            sweep_chart(sec, w, k, M_CACHE_TOTAL, ++index);
        /* one numeric parameter other than the size: throughput and CPU on one chart */
        if (w->np == 1 && w->p[k].numeric && strcmp(w->p[k].name, "scale") != 0)
            sweep_tps_cpu(sec, w, k, ++index);
        if (w->np == 1 && sweep_cache_parts(sec, w, k, index + 1))
            index++;
        /* the workload's own rates (the insert-only test's documents/s and GB/h) */
        const char *rates[8];
        int nr = workload_rates(w, rates, 8);
        for (int i = 0; i < nr; i++) {
            sweep one = *w;
            one.wmetric = rates[i];
            sweep_chart(sec, &one, k, M_WORKLOAD, ++index);
        }
    }
    sweep_size_bars(sec, w, ++index);
    /* the medians behind the charts, as a grid to read them from */
    sweep_pivot(sec, w, M_TPS);
    sweep_pivot(sec, w, M_P95);
    bool any_tpmc = false;
    for (int r = 0; r < w->s->nruns; r++)
        any_tpmc |= isfinite(w->sums[r].tpmc);
    if (any_tpmc)
        sweep_pivot(sec, w, M_TPMC);
    sweep_table(sec, w, repeats);
}

/* ---- the public side ---------------------------------------------------------------------- */

dg_rep_grid *dg_rep_grid_new(const dg_rep_set *s, const dg_rep_summary *sums)
{
    sweep *w = xcalloc(1, sizeof *w);
    w->s = s;
    w->sums = sums;
    w->server_cpu = s->nruns > 0;
    for (int r = 0; r < s->nruns; r++)
        w->server_cpu &= isfinite(sums[r].server_cpu_pct);
    /* the workload's size when every load of the sweep measured its tables and indexes */
    bool any = false, all = true;
    for (int r = 0; r < s->nruns; r++) {
        any |= isfinite(sums[r].workload_bytes);
        all &= isfinite(sums[r].workload_bytes) || !isfinite(sums[r].load_s);
    }
    w->by_workload = any && all;
    w->size = xcalloc((size_t)s->nruns + 1, sizeof *w->size);
    for (int r = 0; r < s->nruns; r++) {
        w->size[r] = w->by_workload ? sums[r].workload_bytes : sums[r].database_bytes;
        double scale = num(s->runs[r].doc, "run.scale");
        for (int q = 0; q < s->nruns && w->by_workload && !isfinite(w->size[r]); q++)
            if (num(s->runs[q].doc, "run.scale") == scale)
                w->size[r] = sums[q].workload_bytes;
    }
    sweep_params(w);
    sweep_groups(w);
    return w;
}

int dg_rep_grid_nparams(const dg_rep_grid *g)
{
    return g->np;
}

void dg_rep_grid_section(dg_report *rep, const dg_rep_grid *g)
{
    sweep_section(rep, g);
}

void dg_rep_grid_free(dg_rep_grid *g)
{
    if (!g)
        return;
    sweep_free(g);
    free(g);
}
