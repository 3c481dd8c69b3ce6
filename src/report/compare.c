/*
 * compare.c - B against A, metric by metric, with confidence intervals (compare.h).
 *
 * Layout: the metric table (what is compared, where its per-run value and per-interval
 * samples come from, which direction is better), samples and one comparison row, one
 * section per matched point, point matching, dg_compare_build.
 */
#include "report/compare.h"

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "stats/ci.h"
#include "report/summary.h"
#include "results/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEVEL 0.95
/* the fewest result files a side whose per-file values make a confidence interval: with 2,
 * Welch has about one degree of freedom */
#define MIN_REPEATS 3
#define MAX_PARAMS 64
#define MAX_WMETRICS 64

/* NEUTRAL: neither direction is better (a count, a size): the verdict says which side is
 * higher. */
typedef enum better { HIGHER, LOWER, LESS_CPU, NEUTRAL } better;

typedef enum value_kind { V_TPS, V_P50, V_P95, V_P99, V_CPU, V_PATH, V_TX_P95 } value_kind;

typedef struct cmetric {
    const char *name, *unit;
    value_kind kind;
    const char *ival_key; /* interval field for samples, NULL if none */
    better dir;
    const char *id;       /* its --metric name */
    const char *path;     /* V_PATH: the result file field */
} cmetric;

/* The run-level metrics; a workload's own (workload_metrics) follow them. */
static const cmetric metrics[] = {
    {"throughput", "tx/s", V_TPS, "tps", HIGHER, "tps", NULL},
    {"p50 latency", "ms", V_P50, "p50", LOWER, "p50", NULL},
    {"p95 latency", "ms", V_P95, "p95", LOWER, "p95", NULL},
    {"p99 latency", "ms", V_P99, "p99", LOWER, "p99", NULL},
    {"client CPU", "%", V_CPU, "cpu_pct", LESS_CPU, "cpu", NULL},
    {"server CPU", "%", V_PATH, "server_host.cpu_pct", LESS_CPU, "server_cpu",
     "monitor.server_host.cpu_pct"},
    {"lock mutex waits", "%", V_PATH, "lock_table.mutex_wait_pct", NEUTRAL, "lock_mutex_wait",
     "monitor.lock_table.measured.mutex_wait_pct"},
    {"load speed", "MB/s", V_PATH, NULL, HIGHER, "load_speed", "load.mb_per_s"},
    {"load time", "s", V_PATH, NULL, LOWER, "load_seconds", "load.seconds"},
};

#define TX_P95_ID "tx_p95" /* --metric name of the per-transaction p95 rows */

/* The runs of one side that take part in a comparison. */
typedef struct side {
    const dg_rep_set *s;
    int *idx;
    int n;
} side;

static const json_t *find_tx(const json_t *doc, const char *name)
{
    size_t i;
    json_t *tx;
    json_array_foreach(dg_res_get(doc, "transactions"), i, tx)
    {
        const char *n = dg_res_str(tx, "name");
        if (n && !strcmp(n, name))
            return tx;
    }
    return NULL;
}

static double run_value(const json_t *doc, value_kind k, const char *tx)
{
    static const double pct[3] = {50, 95, 99};
    double v[3];
    switch (k) {
    case V_TPS: return dg_res_num(doc, "totals.tps", NAN);
    case V_P50:
    case V_P95:
    case V_P99:
        dg_rep_latency(doc, pct, 3, v);
        return v[k - V_P50];
    case V_CPU: return dg_res_num(doc, "monitor.cpu_pct", NAN);
    case V_PATH: return dg_res_num(doc, tx, NAN); /* tx: the field's path */
    case V_TX_P95: return dg_res_num(find_tx(doc, tx), "latency_ms.p95", NAN);
    }
    return NAN;
}

/* ---- the workload's metrics ---------------------------------------------------------- */

/* Which way a workload metric is better, from its name: rates and tpmC up, times and
 * latencies down, anything else (counts, sizes, ratios) neither. */
static better metric_dir(const char *name)
{
    size_t n = strlen(name);
#define ENDS(s) (n >= sizeof(s) - 1 && !strcmp(name + n - (sizeof(s) - 1), s))
    if (dg_rep_metric_is_rate(name))
        return HIGHER;
    if (ENDS("_ms") || ENDS("_seconds") || ENDS("_us"))
        return LOWER;
    return NEUTRAL;
#undef ENDS
}

/* The workload metrics that some run of either side has, in first-seen order (A first);
 * names borrowed from the documents. Returns the count. */
static int workload_metric_names(const dg_rep_set *a, const dg_rep_set *b, const char **out,
                                 int max)
{
    int n = 0;
    const dg_rep_set *sides[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < sides[k]->nruns; r++) {
            const char *key;
            json_t *v;
            json_object_foreach(dg_res_get(sides[k]->runs[r].doc, "workload_metrics"), key, v)
            {
                if (!json_is_number(v))
                    continue;
                bool seen = false;
                for (int i = 0; i < n && !seen; i++)
                    seen = !strcmp(out[i], key);
                if (!seen && n < max)
                    out[n++] = key;
            }
        }
    return n;
}

/* The unit a side's documents give a workload metric ("" when none does). */
static const char *metric_unit(const dg_rep_set *s, const char *name)
{
    for (int r = 0; r < s->nruns; r++) {
        const char *u = json_string_value(
            json_object_get(dg_res_get(s->runs[r].doc, "workload_metric_units"), name));
        if (u)
            return u;
    }
    return "";
}

/* True when `list` (comma-separated --metric names; NULL = the defaults) asks for id.
 * dflt: whether the metric is shown without --metric. */
static bool wanted(const char *list, const char *id, bool dflt)
{
    if (!list)
        return dflt;
    size_t n = strlen(id);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && !strncmp(p, id, n))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

static double interval_value(const json_t *iv, const char *key)
{
    if (key[0] == 'p')
        return dg_res_num(json_object_get(iv, "latency_ms"), key, NAN);
    return dg_res_num(iv, key, NAN);
}

/* Samples of one side into a new array: per-run values (repeats) or batch means of the
 * concatenated interval series. Returns the count; *batch_len is 0 for repeats. */
static int samples(const side *sd, const cmetric *m, const char *tx, bool repeats,
                   double **out, int *batch_len)
{
    *batch_len = 0;
    if (repeats) {
        double *v = xmalloc((size_t)sd->n * sizeof *v);
        for (int i = 0; i < sd->n; i++)
            v[i] = run_value(sd->s->runs[sd->idx[i]].doc, m->kind, tx);
        *out = v;
        return sd->n;
    }
    size_t total = 0;
    for (int i = 0; i < sd->n; i++)
        total += json_array_size(dg_res_get(sd->s->runs[sd->idx[i]].doc, "intervals"));
    double *raw = xmalloc((total ? total : 1) * sizeof *raw);
    int n = 0;
    for (int i = 0; m->ival_key && i < sd->n; i++) {
        size_t k;
        json_t *iv;
        json_array_foreach(dg_res_get(sd->s->runs[sd->idx[i]].doc, "intervals"), k, iv)
        {
            /* intervals without the figure (none measured, or too short for a rate) */
            double v = interval_value(iv, m->ival_key);
            if (isfinite(v))
                raw[n++] = v;
        }
    }
    int nb = dg_ci_batch_means(raw, n, raw, batch_len);
    *out = raw;
    return nb;
}

static double side_value(const side *sd, value_kind k, const char *tx)
{
    if (sd->n == 1)
        return run_value(sd->s->runs[sd->idx[0]].doc, k, tx);
    double *v = xmalloc((size_t)sd->n * sizeof *v);
    for (int i = 0; i < sd->n; i++)
        v[i] = run_value(sd->s->runs[sd->idx[i]].doc, k, tx);
    dg_ci_sample smp;
    dg_ci_describe(v, sd->n, &smp);
    free(v);
    return smp.mean;
}

/* One row of the comparison table (nothing when neither side has the metric). */
static void compare_row(dg_rep_table *t, const side *a, const side *b,
                        const cmetric *m, const char *tx, const char *label)
{
    double va = side_value(a, m->kind, tx), vb = side_value(b, m->kind, tx);
    if (!isfinite(va) && !isfinite(vb))
        return;
    /* with an interval, A and B are the means of its samples, so that A, B, B/A and the
     * interval agree; without one, the runs' own figures */
    bool repeats = a->n >= 2 && b->n >= 2;
    double *xa = NULL, *xb = NULL;
    int la, lb;
    int na = samples(a, m, tx, repeats, &xa, &la), nb = samples(b, m, tx, repeats, &xb, &lb);
    dg_ci_sample sa, sb;
    dg_ci_describe(xa, na, &sa);
    dg_ci_describe(xb, nb, &sb);
    free(xa);
    free(xb);
    dg_ci_result ci;
    dg_ci_welch(&sa, &sb, LEVEL, &ci);
    if (ci.ok) {
        va = sa.mean;
        vb = sb.mean;
    }
    /* two runs a side leave one degree of freedom or so: t is about 12.7 and the interval
     * is too wide to say anything (an 11x gain read "no significant difference") */
    bool too_few = ci.ok && repeats && (sa.n < MIN_REPEATS || sb.n < MIN_REPEATS);
    if (too_few)
        ci.ok = false;
    /* a ratio of values that cannot be negative has no negative bound */
    if (ci.ok && va >= 0 && vb >= 0 && ci.ratio_lo < 0)
        ci.ratio_lo = 0;
    dg_rep_row(t);
    dg_rep_str(t, 0, label);
    dg_rep_str(t, 1, m->unit);
    dg_rep_num(t, 2, va);
    dg_rep_num(t, 3, vb);
    double ratio = va != 0 ? vb / va : NAN;
    dg_rep_num(t, 4, ratio);
    dg_rep_num(t, 5, ci.ok ? ci.ratio_lo : NAN);
    dg_rep_num(t, 6, ci.ok ? ci.ratio_hi : NAN);
    const char *verdict = "n/a";
    if (ci.ok && !ci.significant) {
        verdict = "no significant difference";
    } else if (ci.ok) {
        bool up = ci.diff > 0;
        if (m->dir == LESS_CPU)
            verdict = up ? "more CPU" : "less CPU";
        else if (m->dir == NEUTRAL)
            verdict = up ? "B higher" : "B lower";
        else
            verdict = (m->dir == HIGHER) == up ? "faster" : "slower";
    }
    dg_rep_str(t, 7, verdict);
    /* the ratio interval is unbounded when A's mean is not clearly away from 0: the
     * difference's interval is then what supports the verdict */
    char diff[96] = "";
    if (ci.ok && isnan(ci.ratio_lo))
        snprintf(diff, sizeof diff, "; B-A %.4g to %.4g %s (ratio interval unbounded)", ci.diff_lo,
                 ci.diff_hi, m->unit);
    if (too_few)
        dg_rep_strf(t, 8, "too few repeats: %d vs %d; use --repeat %d or more", sa.n, sb.n,
                    MIN_REPEATS);
    else if (!ci.ok)
        dg_rep_str(t, 8, repeats ? "too few values" : m->ival_key ? "too few intervals"
                                                                  : "needs repeats");
    else if (repeats)
        dg_rep_strf(t, 8, "repeats: %d vs %d runs%s", sa.n, sb.n, diff);
    else if (la > 1 || lb > 1)
        dg_rep_strf(t, 8, "batch means: %d x %d vs %d x %d intervals%s", sa.n, la, sb.n, lb, diff);
    else
        dg_rep_strf(t, 8, "intervals: %d vs %d%s", sa.n, sb.n, diff);
}

/* ---- sections ------------------------------------------------------------------------------ */

static const char *run_label(const side *sd)
{
    return sd->s->runs[sd->idx[0]].label;
}

static void tps_overlay(dg_rep_section *sec, const side *a, const side *b, const char *id)
{
    if (a->n != 1 || b->n != 1)
        return;
    const side *sides[2] = {a, b};
    char *cid = xasprintf("%s-tps", id);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "Throughput over time: A and B", DG_CHART_LINE);
    free(cid);
    c->tabled = true;
    dg_rep_axis_set(&c->x, "time since the measured phase began", "s");
    dg_rep_axis_set(&c->y, "throughput", "tx/s");
    c->x.zero = c->y.zero = true;
    for (int k = 0; k < 2; k++) {
        char *name = xasprintf("%s: %s", k ? "B" : "A", run_label(sides[k]));
        dg_rep_series *s = dg_rep_series_add(c, name);
        free(name);
        size_t i;
        json_t *iv;
        json_array_foreach(dg_res_get(sides[k]->s->runs[sides[k]->idx[0]].doc, "intervals"), i, iv)
        {
            dg_rep_point_add(s, dg_res_num(iv, "t_s", NAN), dg_res_num(iv, "tps", NAN), NAN, NAN);
        }
    }
}

/* A and B side by side as bars, one chart per headline figure both sides have (throughput,
 * tpmC, load speed): the studies' categorical comparisons (engine x device, one power plan
 * against another) drawn as they drew them. The values are the table's A and B columns. */
static void headline_bars(dg_rep_section *sec, const dg_rep_table *t, const char *id,
                          const side *a, const side *b)
{
    static const struct { const char *metric, *slug, *title; } heads[] = {
        {"throughput", "tps", "Throughput: A and B"},
        {"tpmC", "tpmc", "tpmC: A and B"},
        {"load speed", "load", "Load speed: A and B"},
    };
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        for (int r = 0; r < t->nrows; r++) {
            const dg_rep_cell *row = &t->cells[r * t->ncols];
            if (strcmp(row[0].str, heads[h].metric) || !isfinite(row[2].num) ||
                !isfinite(row[3].num))
                continue;
            char *cid = xasprintf("%s-bars-%s", id, heads[h].slug);
            dg_rep_chart *c = dg_rep_chart_add(sec, cid, heads[h].title, DG_CHART_BAR);
            free(cid);
            c->tabled = true;
            dg_rep_axis_set(&c->x, "side", NULL);
            dg_rep_axis_set(&c->y, heads[h].metric, row[1].str && *row[1].str ? row[1].str : NULL);
            c->y.zero = true;
            dg_rep_series *s = dg_rep_series_add(c, heads[h].metric);
            const side *sides[2] = {a, b};
            for (int k = 0; k < 2; k++) {
                char *cat = sides[k]->n == 1
                                ? xasprintf("%s: %s", k ? "B" : "A", run_label(sides[k]))
                                : xasprintf("%s: %d runs", k ? "B" : "A", sides[k]->n);
                dg_rep_axis_cat(&c->x, cat);
                free(cat);
                dg_rep_point_add(s, c->x.ncats - 1, row[2 + k].num, NAN, NAN);
            }
            break;
        }
    }
}

static void compare_section(dg_report *rep, const side *a, const side *b, const char *id,
                            const char *title, const char *want)
{
    dg_rep_section *sec = dg_report_section(rep, id, title);
    if (a->n == 1 && b->n == 1)
        dg_rep_text(sec, "A: %s. B: %s.", run_label(a), run_label(b));
    else
        dg_rep_text(sec, "A: %d run%s. B: %d run%s.", a->n, a->n == 1 ? "" : "s", b->n,
                    b->n == 1 ? "" : "s");
    char *tid = xasprintf("%s-metrics", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "B compared with A", DG_TABLE_GRID);
    free(tid);
    dg_rep_col_add(t, "metric", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "unit", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "A", NULL, DG_PREC_EACH);
    dg_rep_col_add(t, "B", NULL, DG_PREC_EACH);
    dg_rep_col_add(t, "B/A", NULL, 3);
    dg_rep_col_add(t, "95% CI low", NULL, 3);
    dg_rep_col_add(t, "95% CI high", NULL, 3);
    dg_rep_col_add(t, "verdict", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "CI from", NULL, DG_PREC_AUTO);
    for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++)
        if (wanted(want, metrics[k].id, true))
            compare_row(t, a, b, &metrics[k], metrics[k].path, metrics[k].name);
    /* the workload's own figures: by default those with a better direction (tpmC,
     * documents/s, per-query latencies); any of them by name */
    const char *wm[MAX_WMETRICS];
    int nwm = workload_metric_names(a->s, b->s, wm, MAX_WMETRICS);
    for (int k = 0; k < nwm; k++) {
        better dir = metric_dir(wm[k]);
        if (!wanted(want, wm[k], dir != NEUTRAL))
            continue;
        const char *unit = metric_unit(a->s, wm[k]);
        cmetric m = {wm[k], *unit ? unit : metric_unit(b->s, wm[k]), V_PATH, NULL, dir, wm[k], NULL};
        char *path = xasprintf("workload_metrics.%s", wm[k]);
        compare_row(t, a, b, &m, path, wm[k]);
        free(path);
    }
    /* per transaction type: p95 of the types both sides ran */
    static const cmetric txm = {"p95", "ms", V_TX_P95, NULL, LOWER, TX_P95_ID, NULL};
    size_t i;
    json_t *tx;
    const json_t *txs = dg_res_get(a->s->runs[a->idx[0]].doc, "transactions");
    if (json_array_size(txs) < 2 || !wanted(want, TX_P95_ID, true))
        txs = NULL; /* one type: the same as the overall p95 */
    json_array_foreach(txs, i, tx)
    {
        const char *name = dg_res_str(tx, "name");
        if (!name || !find_tx(b->s->runs[b->idx[0]].doc, name))
            continue;
        char *label = xasprintf("p95 %s", name);
        compare_row(t, a, b, &txm, name, label);
        free(label);
    }
    /* the ratios with their intervals, as a dot chart around 1 */
    char *cid = xasprintf("%s-ratios", id);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "B relative to A, with 95% confidence intervals",
                                       DG_CHART_DOT);
    free(cid);
    c->tabled = true;
    c->note = xstrdup("1 = no change; above 1: B is higher (better for throughput, worse for "
                      "latency and CPU)");
    dg_rep_axis_set(&c->x, "metric", NULL);
    dg_rep_axis_set(&c->y, "B / A", NULL);
    c->y.ref = 1;
    c->lo_name = xstrdup("CI low");
    c->hi_name = xstrdup("CI high");
    dg_rep_series *s = dg_rep_series_add(c, "B/A");
    for (int r = 0; r < t->nrows; r++) {
        const dg_rep_cell *row = &t->cells[r * t->ncols];
        if (!isfinite(row[4].num))
            continue;
        dg_rep_axis_cat(&c->x, row[0].str);
        dg_rep_point_add(s, c->x.ncats - 1, row[4].num, row[5].num, row[6].num);
    }
    headline_bars(sec, t, id, a, b);
    tps_overlay(sec, a, b, id);
}

/* ---- matching ------------------------------------------------------------------------------- */

/* "k=v k=v" of a run over the key parameters; caller frees. */
static char *run_key(const dg_rep_run *r, const char **names, int n)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    for (int k = 0; k < n; k++) {
        char buf[64];
        const char *v = dg_rep_param(r, names[k], buf, sizeof buf);
        dg_sb_printf(&sb, "%s%s=%s", k ? " " : "", names[k], v ? v : "-");
    }
    return dg_sb_take(&sb);
}

static int key_params(const dg_rep_set *a, const dg_rep_set *b, const char **out)
{
    const char *na[MAX_PARAMS], *nb[MAX_PARAMS];
    bool va[MAX_PARAMS], vb[MAX_PARAMS];
    int ca = dg_rep_set_params(a, na, va, MAX_PARAMS), cb = dg_rep_set_params(b, nb, vb, MAX_PARAMS);
    int n = 0;
    for (int i = 0; i < ca; i++)
        if (va[i])
            out[n++] = na[i];
    for (int i = 0; i < cb; i++) {
        if (!vb[i])
            continue;
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup |= !strcmp(out[k], nb[i]);
        if (!dup && n < MAX_PARAMS)
            out[n++] = nb[i];
    }
    return n;
}

static void explain(dg_report *rep, const char *name_a, const char *name_b)
{
    dg_rep_section *sec = dg_report_section(rep, "method", "How to read this comparison");
    dg_rep_text(sec, "A is %s, B is %s. B/A above 1 means B has the higher value.", name_a,
                name_b);
    dg_rep_text(sec, "The 95%% confidence interval of B/A comes from repeats when both sides have "
                     "several result files (the per-file values are the samples); otherwise from "
                     "the per-interval values of the measured phase, averaged into %d batches of "
                     "consecutive intervals (batch means; series shorter than %d intervals are "
                     "used as they are), because neighbouring intervals are correlated. A Welch "
                     "t-interval is computed for the difference of the means, and Fieller's "
                     "interval for their ratio.",
                DG_CI_BATCHES, 2 * DG_CI_BATCHES);
    dg_rep_text(sec, "Verdict: when the interval of the difference excludes 0 (equivalently, the "
                     "ratio interval excludes 1), B is 'faster' if it is better (higher "
                     "throughput or load speed, lower latency) and 'slower' if it is worse; CPU "
                     "use is 'less CPU' or 'more CPU'. Otherwise: 'no significant difference'. "
                     "'n/a': not enough samples (per-transaction latency and load speed need "
                     "repeats; repeats need at least %d result files a side: with 2, the "
                     "interval is too wide to tell even a tenfold change from noise).",
                MIN_REPEATS);
}

/* The one value of a run field shared by every run of a side, or NULL when they differ
 * (or none has it). */
static const char *side_common(const dg_rep_set *s, const char *path)
{
    const char *v = NULL;
    for (int i = 0; i < s->nruns; i++) {
        const char *x = dg_res_str(s->runs[i].doc, path);
        if (!x || (v && strcmp(v, x) != 0))
            return NULL;
        v = x;
    }
    return v;
}

/* The one number at path shared by every run of a side, or NaN when they differ or one
 * lacks it; with `none` (the field's meaning of null, e.g. "no rate"), a null or missing
 * value counts as 0 (and 0 is shown as `none`). */
static double side_common_num(const dg_rep_set *s, const char *path, const char *none)
{
    double v = NAN;
    for (int i = 0; i < s->nruns; i++) {
        json_t *j = dg_res_get(s->runs[i].doc, path);
        double x = json_is_number(j) ? json_number_value(j) : none && (!j || json_is_null(j)) ? 0 : NAN;
        if (isnan(x) || (!isnan(v) && v != x))
            return NAN;
        v = x;
    }
    return v;
}

int dg_compare_check(const dg_rep_set *a, const dg_rep_set *b, const char *want, dg_err *err)
{
    /* every --metric name must be one of the run metrics or a workload metric of a side */
    const char *wm[MAX_WMETRICS];
    int nwm = workload_metric_names(a, b, wm, MAX_WMETRICS);
    for (const char *p = want; p && *p;) {
        size_t len = strcspn(p, ",");
        bool known = len == strlen(TX_P95_ID) && !strncmp(p, TX_P95_ID, len);
        for (size_t k = 0; !known && k < sizeof metrics / sizeof metrics[0]; k++)
            known = len == strlen(metrics[k].id) && !strncmp(p, metrics[k].id, len);
        for (int k = 0; !known && k < nwm; k++)
            known = len == strlen(wm[k]) && !strncmp(p, wm[k], len);
        if (!known) {
            dg_strbuf sb = DG_STRBUF_INIT;
            for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++)
                dg_sb_printf(&sb, "%s, ", metrics[k].id);
            dg_sb_add(&sb, TX_P95_ID);
            for (int k = 0; k < nwm; k++)
                dg_sb_printf(&sb, ", %s", wm[k]);
            dg_err_fail(err, DG_E_INVAL, "unknown --metric '%.*s' (known here: %s)", (int)len, p,
                        dg_sb_str(&sb));
            dg_sb_free(&sb);
            return DG_E_INVAL;
        }
        p += len + (p[len] == ',');
    }
    const char *wa = side_common(a, "run.workload"), *wb = side_common(b, "run.workload");
    /* variants of one workload ("tpcb", "tpcb:select-only") are noted, not refused */
    size_t la = wa ? strcspn(wa, ":") : 0, lb = wb ? strcspn(wb, ":") : 0;
    if (wa && wb && (la != lb || strncmp(wa, wb, la) != 0))
        return dg_err_fail(err, DG_E_INVAL,
                           "A ran workload '%s' and B ran '%s': their transactions are not the same "
                           "work, so no verdict would mean anything (compare runs of one workload)",
                           wa, wb);
    return 0;
}

/* Differences between the sides that change what the verdict is about. */
static void difference_notes(dg_report *rep, const dg_rep_set *a, const dg_rep_set *b)
{
    static const struct {
        const char *path, *what;
    } fields[] = {
        {"run.workload", "workload variants"},
        {"run.backend", "databases"},
        {"server.version", "server versions"},
        {"host.hostname", "machines"},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *va = side_common(a, fields[i].path), *vb = side_common(b, fields[i].path);
        if (va && vb && strcmp(va, vb) != 0)
            dg_report_note(rep, "A and B ran on different %s (%s vs %s): the verdicts compare those "
                                "too, not only what you changed",
                           fields[i].what, va, vb);
    }
    /* how the transactions reached the database: absent means statement by statement */
    const char *ea = side_common(a, "run.execution"), *eb = side_common(b, "run.execution");
    bool all_a = true, all_b = true; /* every run of the side has the field */
    for (int i = 0; i < a->nruns; i++)
        all_a = all_a && dg_res_str(a->runs[i].doc, "run.execution");
    for (int i = 0; i < b->nruns; i++)
        all_b = all_b && dg_res_str(b->runs[i].doc, "run.execution");
    ea = ea ? ea : all_a ? NULL : "statements";
    eb = eb ? eb : all_b ? NULL : "statements";
    if (ea && eb && strcmp(ea, eb) != 0)
        dg_report_note(rep, "A and B sent their transactions differently (%s vs %s): one round "
                            "trip a statement or one a transaction, a labelled mode each",
                       ea, eb);
    /* run parameters that change what is measured: the load offered (terminals, pacing)
     * and how it is driven */
    static const struct {
        const char *path, *what, *none;
    } params[] = {
        {"run.terminals", "terminal counts", NULL},
        {"run.rate_tps", "target rates", "none"},
        {"run.think_time_ms", "think times", "none"},
        {"run.engine.workers", "worker threads", NULL},
    };
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        double va = side_common_num(a, params[i].path, params[i].none);
        double vb = side_common_num(b, params[i].path, params[i].none);
        if (isnan(va) || isnan(vb) || va == vb)
            continue;
        char ta[32], tb[32];
        snprintf(ta, sizeof ta, "%g", va);
        snprintf(tb, sizeof tb, "%g", vb);
        dg_report_note(rep, "A and B ran with different %s (%s %s vs %s): the verdicts compare "
                            "that too, not only what you changed",
                       params[i].what, params[i].path,
                       va == 0 && params[i].none ? params[i].none : ta,
                       vb == 0 && params[i].none ? params[i].none : tb);
    }
    if (a->nruns == 1 && b->nruns == 1) {
        double sa = dg_res_num(a->runs[0].doc, "run.scale", NAN);
        double sb = dg_res_num(b->runs[0].doc, "run.scale", NAN);
        if (isfinite(sa) && isfinite(sb) && sa != sb)
            dg_report_note(rep, "A and B hold different database sizes (scale %g vs %g)", sa, sb);
    }
}

dg_report *dg_compare_build(const dg_rep_set *a, const dg_rep_set *b, const char *name_a,
                            const char *name_b, const char *want)
{
    char *title = xasprintf("dbgauge compare: %s vs %s", name_a, name_b);
    dg_report *rep = dg_report_new(title);
    free(title);
    for (int i = 0; i < a->nruns; i++)
        dg_report_source(rep, a->runs[i].path);
    for (int i = 0; i < b->nruns; i++)
        dg_report_source(rep, b->runs[i].path);
    for (int i = 0; i < a->nnotes; i++)
        dg_report_note(rep, "A: %s", a->notes[i]);
    for (int i = 0; i < b->nnotes; i++)
        dg_report_note(rep, "B: %s", b->notes[i]);
    difference_notes(rep, a, b);
    const char *names[MAX_PARAMS];
    int np = key_params(a, b, names);
    int *ia = xmalloc((size_t)a->nruns * sizeof *ia), *ib = xmalloc((size_t)b->nruns * sizeof *ib);
    bool *done = xcalloc((size_t)a->nruns, sizeof *done);
    bool *used_b = xcalloc((size_t)b->nruns, sizeof *used_b);
    int matched = 0;
    for (int i = 0; np > 0 && i < a->nruns; i++) {
        if (done[i])
            continue;
        char *key = run_key(&a->runs[i], names, np);
        side sa = {a, ia, 0}, sb = {b, ib, 0};
        for (int j = i; j < a->nruns; j++) {
            char *k2 = run_key(&a->runs[j], names, np);
            if (!strcmp(key, k2)) {
                done[j] = true;
                ia[sa.n++] = j;
            }
            free(k2);
        }
        for (int j = 0; j < b->nruns; j++) {
            char *k2 = run_key(&b->runs[j], names, np);
            if (!strcmp(key, k2)) {
                used_b[j] = true;
                ib[sb.n++] = j;
            }
            free(k2);
        }
        if (sb.n == 0) {
            dg_report_note(rep, "point %s is only in A", key);
        } else {
            char *id = xasprintf("cmp%d", ++matched);
            char *t = xasprintf("Comparison: %s", key);
            compare_section(rep, &sa, &sb, id, t, want);
            free(id);
            free(t);
        }
        free(key);
    }
    for (int j = 0; matched > 0 && j < b->nruns; j++)
        if (!used_b[j]) {
            char *key = run_key(&b->runs[j], names, np);
            dg_report_note(rep, "point %s is only in B", key);
            free(key);
        }
    if (matched == 0) {
        if (np > 0)
            dg_report_note(rep, "no sweep point matches between A and B: all runs of each side "
                                "are compared as repeats");
        side sa = {a, ia, a->nruns}, sb = {b, ib, b->nruns};
        for (int i = 0; i < a->nruns; i++)
            ia[i] = i;
        for (int j = 0; j < b->nruns; j++)
            ib[j] = j;
        compare_section(rep, &sa, &sb, "cmp1", "Comparison", want);
    }
    explain(rep, name_a, name_b);
    free(ia);
    free(ib);
    free(done);
    free(used_b);
    return rep;
}
