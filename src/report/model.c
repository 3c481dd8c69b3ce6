/*
 * model.c - what `dbgauge report` shows, built from result documents (model.h).
 *
 * Layout: per-run figures (summaries, merged latency percentiles), formatting helpers,
 * the per-run section (facts, headline figures, time series, transactions, load, errors),
 * the overview of several runs, the sweep section (points grouped by their declared
 * parameters, one chart per varied parameter and metric, the pivot tables of the medians,
 * the study table), and dg_report_build which puts them in order.
 */
#include "report/model.h"

#include "core/strbuf.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "report/ci.h"
#include "results/result.h"
#include "stats/hist.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 64
#define MAX_OVERLAY 12 /* more lines than this make an unreadable chart */

static double num(const json_t *o, const char *path)
{
    return dg_res_num(o, path, NAN);
}

/* ---- per-run figures ------------------------------------------------------------------ */

void dg_rep_latency(const json_t *doc, const double *pct, int n, double *out_ms)
{
    for (int i = 0; i < n; i++)
        out_ms[i] = NAN;
    const json_t *txs = dg_res_get(doc, "transactions");
    size_t ntx = json_array_size(txs);
    if (ntx == 0)
        return;
    /* each histogram is read on its own (reading sets exact min/max) and merged */
    dg_hist all, one;
    bool ok_all = dg_hist_init(&all) == 0, ok_one = dg_hist_init(&one) == 0;
    bool ok = ok_all && ok_one;
    size_t i;
    json_t *tx;
    json_array_foreach(txs, i, tx)
    {
        json_t *hj = json_object_get(tx, "histogram");
        if (!ok || !hj)
            break;
        dg_hist_reset(&one);
        ok = dg_result_hist_read(hj, &one) == 0;
        if (ok)
            dg_hist_merge(&all, &one);
    }
    ok = ok && i == ntx;
    if (ok && all.total > 0)
        for (int k = 0; k < n; k++)
            out_ms[k] = (double)dg_hist_percentile(&all, pct[k]) / 1e6;
    if (ok_all)
        dg_hist_destroy(&all);
    if (ok_one)
        dg_hist_destroy(&one);
    if (ok || ntx != 1)
        return;
    /* a single type without a histogram: its own summary */
    for (int k = 0; k < n; k++) {
        const char *key = pct[k] == 50 ? "p50" : pct[k] == 90 ? "p90" : pct[k] == 95 ? "p95"
                        : pct[k] == 99 ? "p99" : pct[k] == 99.9 ? "p999" : NULL;
        if (key)
            out_ms[k] = num(json_object_get(json_array_get(txs, 0), "latency_ms"), key);
    }
}

void dg_rep_summarize(const json_t *doc, dg_rep_summary *out)
{
    static const double pct[3] = {50, 95, 99};
    double v[3];
    dg_rep_latency(doc, pct, 3, v);
    out->tps = num(doc, "totals.tps");
    out->p50_ms = v[0];
    out->p95_ms = v[1];
    out->p99_ms = v[2];
    out->cpu_pct = num(doc, "monitor.cpu_pct");
    out->self_cpu_pct = num(doc, "monitor.self_cpu_pct");
    out->errors = num(doc, "totals.errors");
    out->db_size_bytes = num(doc, "monitor.db_size_before_bytes");
    if (!isfinite(out->db_size_bytes))
        out->db_size_bytes = num(doc, "load.db_size_bytes");
    const char *m = dg_res_str(doc, "load.bytes_measure");
    if (m && !strcmp(m, "objects")) /* the file kept a dropped table's pages: see scale_size */
        out->db_size_bytes = num(doc, "load.objects_bytes");
    out->load_s = num(doc, "load.seconds");
    out->load_mb_per_s = num(doc, "load.mb_per_s");
    out->tpmc = num(doc, "workload_metrics.tpmC");
    out->complete = !json_is_false(dg_res_get(doc, "run.complete"));
}

/* ---- helpers ------------------------------------------------------------------------------ */

/* A unit for sizes up to max_bytes: its name and divisor. */
static const char *size_unit(double max_bytes, double *div)
{
    static const struct {
        const char *name;
        double div;
    } u[] = {{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (max_bytes >= u[i].div) {
            *div = u[i].div;
            return u[i].name;
        }
    *div = 1;
    return "B";
}

/* Short number text for facts ("12", "0.5", "1234.6", "176.544"). */
static char *fmt_g(double v)
{
    return isfinite(v) ? xasprintf("%.6g", v) : xstrdup("-");
}

static const char *str_or(const json_t *o, const char *path, const char *dflt)
{
    const char *s = dg_res_str(o, path);
    return s ? s : dflt;
}

/* "k=v, k=v" of an object's members (strings as they are, other values as JSON). */
static char *kv_list(const json_t *obj, const char *sep)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)obj, k, v)
    {
        char *val = json_is_string(v)   ? xstrdup(json_string_value(v))
                    : json_is_number(v) ? xasprintf("%.10g", json_number_value(v))
                                        : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        dg_sb_printf(&sb, "%s%s=%s", sb.len ? sep : "", k, val ? val : "?");
        free(val);
    }
    return sb.len ? dg_sb_take(&sb) : NULL;
}

/* Interval value; "read_iops"/"write_iops" are computed from the counts. */
static double ival(const json_t *iv, const char *key)
{
    if (!strcmp(key, "read_iops") || !strcmp(key, "write_iops")) {
        double n = num(iv, key[0] == 'r' ? "disk_reads" : "disk_writes");
        double d = num(iv, "dur_s");
        return d > 0 ? n / d : NAN;
    }
    if (!strncmp(key, "latency_ms.", 11))
        return num(json_object_get(iv, "latency_ms"), key + 11);
    return num(iv, key);
}

static bool any_ival(const json_t *ivs, const char *key)
{
    size_t i;
    json_t *iv;
    json_array_foreach(ivs, i, iv)
    {
        if (isfinite(ival(iv, key)))
            return true;
    }
    return false;
}

/* ---- one run ------------------------------------------------------------------------------ */

static bool kind_is_load(const json_t *doc)
{
    const char *k = dg_res_str(doc, "kind");
    return k && !strcmp(k, "load");
}

static void run_facts(dg_rep_section *sec, const dg_rep_run *run, const char *id)
{
    const json_t *doc = run->doc, *r = dg_res_get(doc, "run");
    char *tid = xasprintf("%s-facts", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "Run facts", DG_TABLE_FACTS);
    free(tid);
    char *s;
    dg_rep_fact(t, "file", run->path);
    const char *reason = dg_res_str(r, "stop_reason");
    double aborted = num(r, "aborted_terminals");
    if (json_is_false(dg_res_get(r, "complete"))) {
        char ab[64] = "";
        if (aborted > 0)
            snprintf(ab, sizeof ab, ", %.0f terminal%s aborted", aborted, aborted == 1 ? "" : "s");
        s = xasprintf("INCOMPLETE: %s%s", reason ? reason : "unknown reason", ab);
    } else
        s = xasprintf("complete%s%s%s", reason ? " (stopped by " : "", reason ? reason : "",
                      reason ? ")" : "");
    dg_rep_fact(t, "status", s);
    free(s);
    const char *hash = dg_res_str(r, "workload_hash");
    s = xasprintf("%s%s%s%s", str_or(r, "workload", "?"), hash ? " (hash " : "", hash ? hash : "",
                  hash ? ")" : "");
    dg_rep_fact(t, "workload", s);
    free(s);
    if (dg_res_str(r, "execution")) /* a labelled mode, e.g. stored procedures */
        dg_rep_fact(t, "execution", dg_res_str(r, "execution"));
    if ((s = kv_list(dg_res_get(r, "mix"), ", "))) {
        dg_rep_fact(t, "transaction mix", s);
        free(s);
    }
    if (isfinite(num(r, "scale"))) {
        const char *unit = dg_res_str(r, "scale_unit");
        s = xasprintf("%.10g%s%s%s", num(r, "scale"), unit ? " (unit: " : "", unit ? unit : "",
                      unit ? ")" : "");
        dg_rep_fact(t, "scale", s);
        free(s);
    }
    const char *backend = dg_res_str(r, "backend");
    s = xasprintf("%s%s%s%s", str_or(r, "db", "?"), backend ? " (" : "", backend ? backend : "",
                  backend ? ")" : "");
    dg_rep_fact(t, "database", s);
    free(s);
    dg_rep_fact(t, "server", dg_res_str(doc, "server.version"));
    if ((s = kv_list(dg_res_get(doc, "server.settings"), ", "))) {
        dg_rep_fact(t, "server settings", s);
        free(s);
    }
    if ((s = kv_list(dg_res_get(r, "conn_settings"), ", "))) {
        dg_rep_fact(t, "connection settings", s);
        free(s);
    }
    if (isfinite(num(r, "terminals"))) {
        s = fmt_g(num(r, "terminals"));
        dg_rep_fact(t, "terminals", s);
        free(s);
    }
    double dur = num(doc, "totals.duration_s"), step = num(r, "interval_s");
    size_t nint = json_array_size(dg_res_get(doc, "intervals"));
    if (isfinite(dur)) {
        s = step > 0 && nint ? xasprintf("%.1f s (%zu intervals of %.10g s)", dur, nint, step)
                             : xasprintf("%.1f s", dur);
        dg_rep_fact(t, "measured", s);
        free(s);
    }
    double tpt = num(r, "transactions_per_terminal");
    if (tpt > 0) {
        s = xasprintf("%.0f transactions per terminal", tpt);
        dg_rep_fact(t, "run length", s);
        free(s);
    }
    double warm = num(r, "warmup_s");
    if (warm > 0) {
        s = xasprintf("%.10g s, reported apart", warm);
        dg_rep_fact(t, "warmup", s);
        free(s);
    }
    double rate = num(r, "rate_tps"), think = num(r, "think_time_ms");
    if (kind_is_load(run->doc))
        s = xasprintf("a load with %.0f job%s", num(r, "jobs"), num(r, "jobs") == 1 ? "" : "s");
    else if (rate > 0)
        s = xasprintf("target rate %.10g tx/s (Poisson arrivals; latency from the scheduled start)",
                      rate);
    else if (think > 0)
        s = xasprintf("think time %.10g ms%s", think,
                      json_is_true(dg_res_get(r, "think_time_exponential")) ? " (exponential)" : "");
    else if (json_is_true(dg_res_get(r, "keying_think")))
        s = xstrdup("the workload's keying and think times");
    else
        s = xstrdup("closed loop, no think time");
    dg_rep_fact(t, "pacing", s);
    free(s);
    json_t *seed = dg_res_get(r, "seed");
    if (json_is_integer(seed)) {
        s = xasprintf("%" PRId64, (int64_t)json_integer_value(seed));
        dg_rep_fact(t, "seed", s);
        free(s);
    }
    dg_rep_fact(t, "started", dg_res_str(r, "started_at"));
    dg_rep_fact(t, "command", dg_res_str(r, "command"));
    const json_t *h = dg_res_get(doc, "host");
    if (h) {
        dg_strbuf sb = DG_STRBUF_INIT;
        dg_sb_printf(&sb, "%s: %s", str_or(h, "hostname", "?"), str_or(h, "cpu_model", "?"));
        if (isfinite(num(h, "cores")))
            dg_sb_printf(&sb, ", %.0f cores", num(h, "cores"));
        if (isfinite(num(h, "ram_bytes"))) {
            char b[32];
            dg_format_size((uint64_t)num(h, "ram_bytes"), b, sizeof b);
            dg_sb_printf(&sb, ", %s RAM", b);
        }
        if (dg_res_str(h, "kernel"))
            dg_sb_printf(&sb, ", %s", dg_res_str(h, "kernel"));
        if (dg_res_str(h, "arch"))
            dg_sb_printf(&sb, " %s", dg_res_str(h, "arch"));
        if (dg_res_str(h, "filesystem"))
            dg_sb_printf(&sb, ", %s on %s", dg_res_str(h, "filesystem"),
                         str_or(h, "fs_device", "?"));
        if (dg_res_str(h, "cpu_governor")) /* the power plan of the study on power plans */
            dg_sb_printf(&sb, ", CPU governor %s", dg_res_str(h, "cpu_governor"));
        if (dg_res_str(h, "cpu_epp"))
            dg_sb_printf(&sb, " (%s)", dg_res_str(h, "cpu_epp"));
        dg_rep_fact(t, "host", dg_sb_str(&sb));
        dg_sb_free(&sb);
    }
    dg_rep_fact(t, "dbgauge", dg_res_str(doc, "dbgauge.version"));
    if (run->params || run->point) {
        char *p = kv_list(run->params, " ");
        s = xasprintf("%s, repeat %d: %s", run->point ? run->point : "?", run->repeat,
                      p ? p : "");
        dg_rep_fact(t, "sweep point", s);
        free(s);
        free(p);
    }
    const char *k;
    json_t *v;
    json_object_foreach(dg_res_get(doc, "workload_metrics"), k, v)
    {
        if (!json_is_number(v))
            continue;
        s = fmt_g(json_number_value(v));
        dg_rep_fact(t, k, s);
        free(s);
    }
}

static void run_figures(dg_rep_section *sec, const dg_rep_summary *sum, const char *id)
{
    char *tid = xasprintf("%s-figures", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "Headline figures", DG_TABLE_FIGURES);
    free(tid);
    dg_rep_col_add(t, "throughput", "tx/s", DG_PREC_AUTO);
    dg_rep_col_add(t, "p50 latency", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, "p95 latency", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, "p99 latency", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, "host CPU", "%", 0);
    dg_rep_col_add(t, "errors", NULL, 0);
    if (isfinite(sum->tpmc))
        dg_rep_col_add(t, "tpmC", NULL, 1);
    dg_rep_row(t);
    dg_rep_num(t, 0, sum->tps);
    dg_rep_num(t, 1, sum->p50_ms);
    dg_rep_num(t, 2, sum->p95_ms);
    dg_rep_num(t, 3, sum->p99_ms);
    dg_rep_num(t, 4, sum->cpu_pct);
    dg_rep_num(t, 5, sum->errors);
    if (isfinite(sum->tpmc))
        dg_rep_num(t, 6, sum->tpmc);
}

typedef struct ival_col {
    const char *key, *name, *unit;
    int prec;
} ival_col;

static const ival_col ival_cols[] = {
    {"t_s", "time", "s", 1},
    {"tps", "throughput", "tx/s", DG_PREC_AUTO},
    {"latency_ms.p50", "p50", "ms", DG_PREC_EACH},
    {"latency_ms.p95", "p95", "ms", DG_PREC_EACH},
    {"latency_ms.p99", "p99", "ms", DG_PREC_EACH},
    {"errors", "errors", NULL, 0},
    {"cpu_pct", "host CPU", "%", 1},
    {"self_cpu_pct", "dbgauge CPU", "%", 1},
    {"cpu_iowait_pct", "I/O wait", "%", 1},
    {"read_iops", "reads", "IOPS", 0},
    {"write_iops", "writes", "IOPS", 0},
    {"iops", "disk ops", "IOPS", 0},
    {"cache_hit_pct", "cache hits", "%", 2},
};

/* A time-series chart of interval values; NULL (nothing added) when no series has data. */
static dg_rep_chart *time_chart(dg_rep_section *sec, const json_t *ivs, const char *id,
                                const char *title, const char *ylabel, const char *unit,
                                const char *const *keys, const char *const *names, int n)
{
    int have = 0;
    for (int k = 0; k < n; k++)
        have += any_ival(ivs, keys[k]);
    if (!have)
        return NULL;
    dg_rep_chart *c = dg_rep_chart_add(sec, id, title, DG_CHART_LINE);
    dg_rep_axis_set(&c->x, "time since the measured phase began", "s");
    dg_rep_axis_set(&c->y, ylabel, unit);
    c->x.zero = c->y.zero = true;
    c->tabled = true;
    for (int k = 0; k < n; k++) {
        if (!any_ival(ivs, keys[k]))
            continue;
        dg_rep_series *s = dg_rep_series_add(c, names[k]);
        size_t i;
        json_t *iv;
        json_array_foreach(ivs, i, iv)
        {
            dg_rep_point_add(s, ival(iv, "t_s"), ival(iv, keys[k]), NAN, NAN);
        }
    }
    return c;
}

static void run_intervals(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *ivs = dg_res_get(doc, "intervals");
    if (json_array_size(ivs) == 0) {
        dg_rep_text(sec, "No intervals were recorded (the run had no report interval).");
        return;
    }
    char *cid;
    {
        const char *k[] = {"tps"}, *n[] = {"throughput"};
        cid = xasprintf("%s-tps", id);
        time_chart(sec, ivs, cid, "Throughput over time", "throughput", "tx/s", k, n, 1);
        free(cid);
    }
    {
        const char *k[] = {"latency_ms.p50", "latency_ms.p95", "latency_ms.p99"};
        const char *n[] = {"p50", "p95", "p99"};
        cid = xasprintf("%s-latency", id);
        dg_rep_chart *c = time_chart(sec, ivs, cid, "Latency percentiles over time", "latency",
                                     "ms", k, n, 3);
        if (c)
            dg_rep_chart_autolog(c, false, 10);
        free(cid);
    }
    {
        const char *k[] = {"cpu_pct", "self_cpu_pct", "cpu_iowait_pct"};
        const char *n[] = {"host CPU (all cores)", "dbgauge (% of one core)", "host I/O wait"};
        cid = xasprintf("%s-cpu", id);
        time_chart(sec, ivs, cid, "CPU use over time", "CPU", "%", k, n, 3);
        free(cid);
    }
    {
        cid = xasprintf("%s-iops", id);
        if (any_ival(ivs, "read_iops") || any_ival(ivs, "write_iops")) {
            const char *k[] = {"read_iops", "write_iops"}, *n[] = {"reads", "writes"};
            time_chart(sec, ivs, cid, "Disk I/O operations per second over time", "disk operations",
                       "IOPS", k, n, 2);
        } else {
            const char *k[] = {"iops"}, *n[] = {"disk operations"};
            time_chart(sec, ivs, cid, "Disk I/O operations per second over time", "disk operations",
                       "IOPS", k, n, 1);
        }
        free(cid);
    }
    {
        const char *k[] = {"cache_hit_pct"}, *n[] = {"cache hits"};
        cid = xasprintf("%s-cache", id);
        dg_rep_chart *c = time_chart(sec, ivs, cid, "Cache hit ratio over time", "cache hits", "%",
                                     k, n, 1);
        if (c)
            c->y.zero = false;
        free(cid);
    }
    /* the numbers behind the charts */
    char *tid = xasprintf("%s-intervals", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "Intervals of the measured phase", DG_TABLE_GRID);
    free(tid);
    t->folded = true;
    int cols[sizeof ival_cols / sizeof ival_cols[0]], nc = 0;
    bool rw = any_ival(ivs, "read_iops") || any_ival(ivs, "write_iops");
    for (size_t c = 0; c < sizeof ival_cols / sizeof ival_cols[0]; c++) {
        if (!strcmp(ival_cols[c].key, "iops") && rw)
            continue;
        if (c > 1 && !any_ival(ivs, ival_cols[c].key))
            continue;
        dg_rep_col_add(t, ival_cols[c].name, ival_cols[c].unit, ival_cols[c].prec);
        cols[nc++] = (int)c;
    }
    size_t i;
    json_t *iv;
    json_array_foreach(ivs, i, iv)
    {
        dg_rep_row(t);
        for (int c = 0; c < nc; c++)
            dg_rep_num(t, c, ival(iv, ival_cols[cols[c]].key));
    }
}

static void run_transactions(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *txs = dg_res_get(doc, "transactions");
    if (json_array_size(txs) == 0)
        return;
    static const char *const keys[] = {"avg", "p50", "p90", "p95", "p99", "p999", "max"};
    static const char *const names[] = {"avg", "p50", "p90", "p95", "p99", "p99.9", "max"};
    char *tid = xasprintf("%s-transactions", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "Transactions (latency in ms)", DG_TABLE_GRID);
    free(tid);
    dg_rep_col_add(t, "transaction", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "count", NULL, 0);
    dg_rep_col_add(t, "errors", NULL, 0);
    dg_rep_col_add(t, "retries", NULL, 0);
    dg_rep_col_add(t, "rollbacks", NULL, 0);
    for (int k = 0; k < 7; k++)
        dg_rep_col_add(t, names[k], "ms", DG_PREC_EACH);
    size_t i;
    json_t *tx;
    json_array_foreach(txs, i, tx)
    {
        const json_t *l = json_object_get(tx, "latency_ms");
        dg_rep_row(t);
        dg_rep_str(t, 0, str_or(tx, "name", "?"));
        dg_rep_num(t, 1, num(tx, "count"));
        dg_rep_num(t, 2, num(tx, "errors"));
        dg_rep_num(t, 3, num(tx, "retries"));
        dg_rep_num(t, 4, num(tx, "rollbacks"));
        for (int k = 0; k < 7; k++)
            dg_rep_num(t, 5 + k, num(l, keys[k]));
    }
    if (num(doc, "run.rate_tps") > 0)
        t->note = xstrdup("latency counts from the scheduled start of each transaction");
    char *cid = xasprintf("%s-txlat", id);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "Latency percentiles per transaction type",
                                       DG_CHART_DOT);
    free(cid);
    c->tabled = true;
    dg_rep_axis_set(&c->x, "transaction", NULL);
    dg_rep_axis_set(&c->y, "latency", "ms");
    json_array_foreach(txs, i, tx)
    {
        dg_rep_axis_cat(&c->x, str_or(tx, "name", "?"));
    }
    for (int k = 1; k < 6; k++) {
        dg_rep_series *s = dg_rep_series_add(c, names[k]);
        json_array_foreach(txs, i, tx)
        {
            dg_rep_point_add(s, (double)i, num(json_object_get(tx, "latency_ms"), keys[k]), NAN,
                             NAN);
        }
    }
    c->y.zero = true;
    dg_rep_chart_autolog(c, false, 10);
}

/* The load second by second: data sent (MB/s) and host CPU on a right-hand axis, the
 * growth study's load-speed-over-time figure. Only for loads of two seconds or more. */
static void run_load_timeline(dg_rep_section *sec, const json_t *load, const char *id)
{
    const json_t *tl = json_object_get(load, "timeline");
    if (json_array_size(tl) < 2)
        return;
    char *cid = xasprintf("%s-loadtime", id);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "Load speed and host CPU over time", DG_CHART_LINE);
    free(cid);
    c->note = xstrdup("data sent per second; index builds send none, their work shows in CPU");
    dg_rep_axis_set(&c->x, "time since the load began", "s");
    dg_rep_axis_set(&c->y, "load speed", "MB/s");
    dg_rep_axis_set(&c->y2, "host CPU", "%");
    c->x.zero = c->y.zero = true;
    dg_rep_series_add(c, "load speed");
    dg_rep_series_add(c, "host CPU (right axis)");
    c->series[1].right = true;
    size_t i;
    json_t *k;
    json_array_foreach(tl, i, k)
    {
        double t = num(k, "t_s");
        if (num(k, "dur_s") < 0.25) /* the end of the load: too short for a rate */
            continue;
        dg_rep_point_add(&c->series[0], t, num(k, "mb_per_s"), NAN, NAN);
        dg_rep_point_add(&c->series[1], t, num(k, "cpu_pct"), NAN, NAN);
    }
}

static int object_cmp(const void *a, const void *b)
{
    double x = num(*(json_t *const *)a, "bytes"), y = num(*(json_t *const *)b, "bytes");
    x = isfinite(x) ? x : -1;
    y = isfinite(y) ? y : -1;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The tables and indexes after the load, largest first (the growth study's table from
 * IBAnalyst): rows, size on disk, share of the whole, index depth. */
static void run_load_objects(dg_rep_section *sec, const json_t *load, const char *id)
{
    const json_t *objs = json_object_get(load, "objects");
    size_t n = json_array_size(objs);
    if (n == 0)
        return;
    json_t **v = xmalloc(n * sizeof *v);
    double total = 0;
    bool depth = false;
    for (size_t i = 0; i < n; i++) {
        v[i] = json_array_get(objs, i);
        double b = num(v[i], "bytes");
        total += isfinite(b) ? b : 0;
        depth |= json_is_integer(json_object_get(v[i], "depth"));
    }
    qsort(v, n, sizeof *v, object_cmp);
    char *tid = xasprintf("%s-objects", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "Tables and indexes after the load, largest first",
                                       DG_TABLE_GRID);
    free(tid);
    dg_rep_col_add(t, "object", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "kind", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "table", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "rows", NULL, 0);
    dg_rep_col_add(t, "size", "MB", 2);
    dg_rep_col_add(t, "share", "%", 1);
    if (depth)
        dg_rep_col_add(t, "depth", NULL, 0);
    for (size_t i = 0; i < n; i++) {
        double b = num(v[i], "bytes");
        dg_rep_row(t);
        dg_rep_str(t, 0, str_or(v[i], "name", "?"));
        dg_rep_str(t, 1, str_or(v[i], "kind", ""));
        dg_rep_str(t, 2, str_or(v[i], "table", ""));
        dg_rep_num(t, 3, num(v[i], "rows"));
        dg_rep_num(t, 4, isfinite(b) ? b / 1e6 : NAN);
        dg_rep_num(t, 5, isfinite(b) && total > 0 ? 100 * b / total : NAN);
        if (depth)
            dg_rep_num(t, 6, num(v[i], "depth"));
    }
    free(v);
    dg_rep_text(sec, "Sizes and rows as the engine's statistics tell them after the load (read in %.2f s).",
                num(load, "objects_seconds"));
}

static void run_load(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *load = dg_res_get(doc, "load");
    if (!json_is_object(load))
        return;
    char size[32];
    double bytes = num(load, "bytes");
    dg_format_size(bytes > 0 ? (uint64_t)bytes : 0, size, sizeof size);
    const json_t *steps = json_object_get(load, "steps");
    const char *measure = dg_res_str(load, "bytes_measure");
    bool sent = measure && !strcmp(measure, "sent");
    bool objects = measure && !strcmp(measure, "objects");
    dg_rep_text(sec, "%s %s in %.2f s, %.1f MB/s of %s (%zu steps, %.0f job%s).",
                kind_is_load(doc) ? "Loaded" : "The database was loaded first:", size,
                num(load, "seconds"), num(load, "mb_per_s"),
                sent ? "data sent (the database reused free space: its growth does not measure "
                       "the load)"
                : objects ? "loaded tables and indexes (the database reused free space: their "
                            "size on disk after the load measures it, not the file's growth)"
                          : "database growth",
                json_array_size(steps),
                num(load, "jobs"), num(load, "jobs") == 1 ? "" : "s");
    if (json_array_size(steps) == 0)
        return;
    bool pages = false; /* a restore log's page columns, where the engine told them */
    size_t i;
    json_t *st;
    json_array_foreach(steps, i, st)
    pages |= json_is_integer(json_object_get(st, "page_reads")) ||
             json_is_integer(json_object_get(st, "page_writes"));
    char *tid = xasprintf("%s-load", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "Load steps", DG_TABLE_GRID);
    free(tid);
    dg_rep_col_add(t, "step", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "kind", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "elapsed", "s", 3);
    dg_rep_col_add(t, "time", "s", 3);
    dg_rep_col_add(t, "rows", NULL, 0);
    dg_rep_col_add(t, "data", "MB", 2);
    dg_rep_col_add(t, "speed", "MB/s", 1);
    if (pages) {
        dg_rep_col_add(t, "page reads", NULL, 0);
        dg_rep_col_add(t, "page writes", NULL, 0);
    }
    char *cid = xasprintf("%s-loadsteps", id);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "Load time per step (tables, then indexes)",
                                       DG_CHART_BAR);
    free(cid);
    c->tabled = true;
    dg_rep_axis_set(&c->x, "step", NULL);
    dg_rep_axis_set(&c->y, "time", "s");
    c->y.zero = true;
    dg_rep_series *s = dg_rep_series_add(c, "time");
    double elapsed = 0;
    json_array_foreach(steps, i, st)
    {
        double secs = num(st, "seconds"), b = num(st, "bytes");
        /* cumulative: where the load stood when the step ended (older files: the sum) */
        elapsed = isfinite(num(st, "elapsed_s")) ? num(st, "elapsed_s") : elapsed + secs;
        dg_rep_row(t);
        dg_rep_str(t, 0, str_or(st, "name", "?"));
        dg_rep_str(t, 1, str_or(st, "kind", ""));
        dg_rep_num(t, 2, elapsed);
        dg_rep_num(t, 3, secs);
        dg_rep_num(t, 4, num(st, "rows"));
        dg_rep_num(t, 5, b > 0 ? b / 1e6 : NAN);
        dg_rep_num(t, 6, b > 0 && secs > 0 ? b / 1e6 / secs : NAN);
        if (pages) {
            dg_rep_num(t, 7, num(st, "page_reads"));
            dg_rep_num(t, 8, num(st, "page_writes"));
        }
        dg_rep_axis_cat(&c->x, str_or(st, "name", "?"));
        dg_rep_point_add(s, (double)i, secs, NAN, NAN);
    }
    run_load_objects(sec, load, id);
    run_load_timeline(sec, load, id);
}

static void run_errors(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *errs = dg_res_get(doc, "errors");
    if (json_array_size(errs) == 0)
        return;
    char *tid = xasprintf("%s-errors", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid, "Errors", DG_TABLE_GRID);
    free(tid);
    dg_rep_col_add(t, "count", NULL, 0);
    dg_rep_col_add(t, "class", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "transaction", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "message", NULL, DG_PREC_AUTO);
    size_t i;
    json_t *e;
    json_array_foreach(errs, i, e)
    {
        dg_rep_row(t);
        dg_rep_num(t, 0, num(e, "count"));
        dg_rep_str(t, 1, str_or(e, "class", ""));
        dg_rep_str(t, 2, str_or(e, "transaction", ""));
        dg_rep_str(t, 3, str_or(e, "message", ""));
    }
}

static void run_section(dg_report *rep, const dg_rep_run *run, int index, bool folded)
{
    char *id = xasprintf("run%d", index + 1);
    bool load_only = kind_is_load(run->doc);
    char *title = xasprintf("%s: %s", load_only ? "Load" : "Run", run->label);
    dg_rep_section *sec = dg_report_section(rep, id, title);
    free(title);
    sec->folded = folded;
    if (load_only) { /* `dbgauge load`'s result file: a restore log, no transactions */
        run_facts(sec, run, id);
        run_load(sec, run->doc, id);
        free(id);
        return;
    }
    dg_rep_summary sum;
    dg_rep_summarize(run->doc, &sum);
    run_figures(sec, &sum, id);
    run_facts(sec, run, id);
    const json_t *w = dg_res_get(run->doc, "warmup");
    if (num(w, "duration_s") > 0)
        dg_rep_text(sec, "Warmup: %.1f s, %.0f transactions (%.1f per second), not included in "
                         "the figures.",
                    num(w, "duration_s"), num(w, "transactions"), num(w, "tps"));
    const json_t *dr = dg_res_get(run->doc, "drain");
    if (num(dr, "transactions") + num(dr, "errors") > 0)
        dg_rep_text(sec, "In flight at the end: %.0f transactions completed in the %.2f s after "
                         "it, not included in the figures.",
                    num(dr, "transactions"), num(dr, "duration_s"));
    run_intervals(sec, run->doc, id);
    run_transactions(sec, run->doc, id);
    run_load(sec, run->doc, id);
    run_errors(sec, run->doc, id);
    free(id);
}

/* ---- several runs ---------------------------------------------------------------------- */

static void overview_section(dg_report *rep, const dg_rep_set *s, const dg_rep_summary *sums)
{
    dg_rep_section *sec = dg_report_section(rep, "overview", "Runs side by side");
    dg_rep_table *t = dg_rep_table_add(sec, "runs", "Runs", DG_TABLE_GRID);
    dg_rep_col_add(t, "run", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "workload", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "database", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "scale", NULL, DG_PREC_AUTO);
    dg_rep_col_add(t, "terminals", NULL, 0);
    dg_rep_col_add(t, "duration", "s", 1);
    dg_rep_col_add(t, "throughput", "tx/s", DG_PREC_AUTO);
    dg_rep_col_add(t, "p50", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, "p95", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, "p99", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, "host CPU", "%", 0);
    dg_rep_col_add(t, "errors", NULL, 0);
    dg_rep_col_add(t, "status", NULL, DG_PREC_AUTO);
    for (int i = 0; i < s->nruns; i++) {
        const json_t *d = s->runs[i].doc;
        dg_rep_row(t);
        dg_rep_str(t, 0, s->runs[i].label);
        dg_rep_str(t, 1, str_or(d, "run.workload", "?"));
        dg_rep_str(t, 2, str_or(d, "run.backend", "?"));
        dg_rep_num(t, 3, num(d, "run.scale"));
        dg_rep_num(t, 4, num(d, "run.terminals"));
        dg_rep_num(t, 5, num(d, "totals.duration_s"));
        dg_rep_num(t, 6, sums[i].tps);
        dg_rep_num(t, 7, sums[i].p50_ms);
        dg_rep_num(t, 8, sums[i].p95_ms);
        dg_rep_num(t, 9, sums[i].p99_ms);
        dg_rep_num(t, 10, sums[i].cpu_pct);
        dg_rep_num(t, 11, sums[i].errors);
        dg_rep_str(t, 12, sums[i].complete ? "complete" : "INCOMPLETE");
    }
    int with = 0;
    for (int i = 0; i < s->nruns; i++)
        with += json_array_size(dg_res_get(s->runs[i].doc, "intervals")) > 0;
    if (with == 0)
        return;
    if (with > MAX_OVERLAY) {
        dg_rep_text(sec, "Throughput over time is shown per run below (%d runs are too many to "
                         "overlay in one chart).", with);
        return;
    }
    dg_rep_chart *c = dg_rep_chart_add(sec, "overlay-tps", "Throughput over time, all runs",
                                       DG_CHART_LINE);
    c->tabled = true;
    dg_rep_axis_set(&c->x, "time since the measured phase began", "s");
    dg_rep_axis_set(&c->y, "throughput", "tx/s");
    c->x.zero = c->y.zero = true;
    for (int i = 0; i < s->nruns; i++) {
        const json_t *ivs = dg_res_get(s->runs[i].doc, "intervals");
        if (json_array_size(ivs) == 0)
            continue;
        dg_rep_series *ser = dg_rep_series_add(c, s->runs[i].label);
        size_t k;
        json_t *iv;
        json_array_foreach(ivs, k, iv)
        {
            dg_rep_point_add(ser, ival(iv, "t_s"), ival(iv, "tps"), NAN, NAN);
        }
    }
}

/* ---- sweeps -------------------------------------------------------------------------------- */

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

typedef struct sweep {
    const dg_rep_set *s;
    const dg_rep_summary *sums;
    param p[MAX_PARAMS];
    int np;
    group *g;
    int ng;
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
}

typedef enum metric { M_TPS, M_P95, M_CPU, M_LOAD_MBPS, M_SIZE, M_TPMC } metric;

static double metric_of(const dg_rep_summary *s, metric m)
{
    switch (m) {
    case M_TPS: return s->tps;
    case M_P95: return s->p95_ms;
    case M_CPU: return s->cpu_pct;
    case M_LOAD_MBPS: return s->load_mb_per_s;
    case M_SIZE: return s->db_size_bytes;
    case M_TPMC: return s->tpmc;
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
        v[i] = metric_of(&w->sums[runs[i]], m);
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

/* The database size of a scale value: as loaded (the smallest load.db_size_bytes of its
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
        /* a file that kept a dropped table's pages (Firebird) overstates a reload: its
         * tables and indexes measure it (load.bytes_measure "objects") */
        const char *m = dg_res_str(d, "load.bytes_measure");
        if (m && !strcmp(m, "objects")) {
            a = num(d, "load.objects_bytes");
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
    static const char *const what[] = {"Throughput", "95th percentile latency", "Host CPU use",
                                       "Load speed", "Database size"};
    const char *xname = by_size ? "database size" : px->name;
    char *title;
    if (m == M_TPS && by_size)
        title = xasprintf("Business operations per second vs database size");
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
    const char *sunit = by_size ? size_unit(maxsize, &div) : NULL;
    dg_rep_axis_set(&c->x, by_size ? "database size after loading" : xname, sunit);
    static const char *const ylabel[] = {"throughput", "p95 latency", "host CPU", "load speed", ""};
    static const char *const yunit[] = {"tx/s", "ms", "%", "MB/s", ""};
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
    free(sizes);
    if (!cat)
        dg_rep_chart_autolog(c, true, 10);
    if (m == M_P95)
        dg_rep_chart_autolog(c, false, 10);
}

/* Throughput (left axis) and host CPU (right axis) against a numeric parameter, on one
 * chart: the users curves of the TPoX and CUBRID/MySQL studies, where throughput
 * flattens when CPU reaches its ceiling. One series each; the caller checks that the
 * sweep varies only this parameter. */
static void sweep_tps_cpu(dg_rep_section *sec, const sweep *w, int kx, int index)
{
    const param *px = &w->p[kx];
    char *cid = xasprintf("sweep-%d", index);
    char *title = xasprintf("Throughput and host CPU vs %s", px->name);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, title, DG_CHART_LINE);
    free(cid);
    free(title);
    dg_rep_axis_set(&c->x, px->name, NULL);
    dg_rep_axis_set(&c->y, "throughput", "tx/s");
    dg_rep_axis_set(&c->y2, "host CPU", "%");
    c->y.zero = true;
    c->x.integer = px->integer;
    c->lo_name = xstrdup("min");
    c->hi_name = xstrdup("max");
    bool cat = !px->axis;
    if (cat)
        for (int j = 0; j < px->nvals; j++)
            dg_rep_axis_cat(&c->x, px->vals[j]);
    c->x.ordered = cat;
    dg_rep_series_add(c, "throughput");
    dg_rep_series_add(c, "host CPU (right axis)"); /* may move the first: pointers after */
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
        if (isfinite(w->sums[r].db_size_bytes))
            maxsize = fmax(maxsize, w->sums[r].db_size_bytes);
    double div = 1;
    const char *sunit = size_unit(maxsize, &div);
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
    dg_rep_col_add(t, "database size", sunit, 2);
    dg_rep_col_add(t, "load time", "s", 2);
    dg_rep_col_add(t, "load speed", "MB/s", 1);
    dg_rep_col_add(t, "throughput", "tx/s", DG_PREC_AUTO);
    if (repeats) {
        dg_rep_col_add(t, "throughput min", "tx/s", DG_PREC_AUTO);
        dg_rep_col_add(t, "throughput max", "tx/s", DG_PREC_AUTO);
    }
    dg_rep_col_add(t, "p95 latency", "ms", DG_PREC_EACH);
    dg_rep_col_add(t, "host CPU", "%", 0);
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

static void sweep_section(dg_report *rep, sweep *w)
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
    int index = 0;
    for (int k = 0; k < w->np; k++) {
        sweep_chart(sec, w, k, M_TPS, ++index);
        if (!strcmp(w->p[k].name, "scale") && any_load)
            sweep_chart(sec, w, k, M_LOAD_MBPS, ++index);
        sweep_chart(sec, w, k, M_P95, ++index);
        sweep_chart(sec, w, k, M_CPU, ++index);
        /* one numeric parameter other than the size: throughput and CPU on one chart */
        if (w->np == 1 && w->p[k].numeric && strcmp(w->p[k].name, "scale") != 0)
            sweep_tps_cpu(sec, w, k, ++index);
    }
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

/* ---- the report ------------------------------------------------------------------------ */

dg_report *dg_report_build(const dg_rep_set *s)
{
    dg_rep_summary *sums = xcalloc((size_t)s->nruns + 1, sizeof *sums);
    for (int i = 0; i < s->nruns; i++)
        dg_rep_summarize(s->runs[i].doc, &sums[i]);
    sweep w = {.s = s, .sums = sums};
    sweep_params(&w);
    sweep_groups(&w);
    dg_report *rep;
    if (s->nruns == 1) {
        const json_t *d = s->runs[0].doc;
        char *t = xasprintf("dbgauge report: %s on %s", str_or(d, "run.workload", "?"),
                            str_or(d, "run.backend", "?"));
        rep = dg_report_new(t);
        free(t);
    } else if (w.np > 0) {
        char *t = xasprintf("dbgauge report: sweep of %d runs", s->nruns);
        rep = dg_report_new(t);
        free(t);
    } else {
        char *t = xasprintf("dbgauge report: %d runs", s->nruns);
        rep = dg_report_new(t);
        free(t);
    }
    for (int i = 0; i < s->nruns; i++)
        dg_report_source(rep, s->runs[i].path);
    for (int i = 0; i < s->nnotes; i++)
        dg_report_note(rep, "%s", s->notes[i]);
    for (int i = 0; i < s->nruns; i++)
        if (!sums[i].complete) {
            const char *reason = dg_res_str(s->runs[i].doc, "run.stop_reason");
            dg_report_note(rep, "run %s is incomplete: %s", s->runs[i].label,
                           reason ? reason : "unknown reason");
        }
    if (w.np > 0)
        sweep_section(rep, &w);
    if (s->nruns > 1)
        overview_section(rep, s, sums);
    for (int i = 0; i < s->nruns; i++)
        run_section(rep, &s->runs[i], i, s->nruns > 1);
    sweep_free(&w);
    free(sums);
    return rep;
}
