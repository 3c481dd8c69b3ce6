/*
 * model.c - what `dbgauge report` shows, built from result documents (model.h).
 *
 * Layout: formatting helpers, the per-run section (facts, headline figures, time series,
 * transactions, load, errors), the overview of several runs, and dg_report_build which
 * puts them in order after the sweep section (grid.c). Per-run figures are summary.c's.
 */
#include "report/model.h"
#include "report/study.h"

#include "core/stop.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "report/grid.h"
#include "report/numfmt.h"
#include "report/summary.h"
#include "results/result.h"
#include "results/verdict.h"

#include <inttypes.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OVERLAY 12 /* more lines than this make an unreadable chart */

static double num(const json_t *o, const char *path)
{
    return dg_res_num(o, path, NAN);
}

/* ---- helpers ------------------------------------------------------------------------------ */

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
    double cb = num(doc, "server.cache_bytes"), total = num(doc, "server.cache_total_bytes");
    if (cb > 0) { /* the engine's cache: shared, or one per connection and their sum */
        char one[32], all[32];
        dg_format_size((uint64_t)cb, one, sizeof one);
        if (total > 0) {
            dg_format_size((uint64_t)total, all, sizeof all);
            s = xasprintf("%s per connection x %.0f terminals = %s", one, num(r, "terminals"), all);
        } else {
            s = xasprintf("%s, shared by every connection", one);
        }
        dg_rep_fact(t, "engine's cache", s);
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
    const json_t *rst = dg_res_get(run->doc, "load.restore");
    if (json_is_object(rst))
        s = xasprintf("a restore by %s (steps from %s)", str_or(r, "restore_command", "?"),
                      str_or(rst, "steps_from", "none"));
    else if (kind_is_load(run->doc))
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
    if (dg_res_str(doc, "dbgauge.commit") && dg_res_str(doc, "dbgauge.version")) {
        char *v = xasprintf("%s (commit %s)", dg_res_str(doc, "dbgauge.version"),
                            dg_res_str(doc, "dbgauge.commit"));
        dg_rep_fact(t, "dbgauge", v);
        free(v);
    } else {
        dg_rep_fact(t, "dbgauge", dg_res_str(doc, "dbgauge.version"));
    }
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

/* The workload's rates that share a unit, a bar each (the docs workload's documents/s of
 * all inserts, custacc and order: the XML study's custacc-against-order bars); one chart
 * per unit that at least two rates share. */
#define MAX_RATES 8
static void run_rate_bars(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *wm = dg_res_get(doc, "workload_metrics"), *units = dg_res_get(doc, "workload_metric_units");
    const char *name[MAX_RATES];
    char *unit[MAX_RATES];
    double val[MAX_RATES];
    int n = 0;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)wm, k, v)
    {
        const char *u = json_string_value(json_object_get(units, k));
        if (n == MAX_RATES || !json_is_number(v) || !u || !dg_rep_metric_is_rate(k) || !strcmp(k, "tpmC"))
            continue;
        const char *paren = strstr(u, " (");
        name[n] = k;
        unit[n] = paren ? xasprintf("%.*s", (int)(paren - u), u) : xstrdup(u);
        val[n++] = json_number_value(v);
    }
    int charts = 0;
    for (int i = 0; i < n; i++) {
        int same = 0;
        for (int j = 0; j < n; j++)
            same += !strcmp(unit[i], unit[j]);
        bool first = true; /* the first rate of its unit draws the chart */
        for (int j = 0; j < i && first; j++)
            first = strcmp(unit[i], unit[j]) != 0;
        if (same < 2 || !first)
            continue;
        char *cid = xasprintf("%s-rates-%d", id, ++charts);
        char *title = xasprintf("The workload's rates in %s", unit[i]);
        dg_rep_chart *c = dg_rep_chart_add(sec, cid, title, DG_CHART_BAR);
        free(cid);
        free(title);
        c->tabled = true; /* the run's facts hold the values */
        dg_rep_axis_set(&c->x, "workload metric", NULL);
        dg_rep_axis_set(&c->y, "measured phase", unit[i]);
        c->y.zero = true;
        dg_rep_series *ser = dg_rep_series_add(c, unit[i]);
        int x = 0;
        for (int j = i; j < n; j++)
            if (!strcmp(unit[i], unit[j])) {
                dg_rep_axis_cat(&c->x, name[j]);
                dg_rep_point_add(ser, x++, val[j], NAN, NAN);
            }
    }
    for (int i = 0; i < n; i++)
        free(unit[i]);
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
    dg_rep_col_add(t, "client CPU", "%", 0);
    bool server = isfinite(sum->server_cpu_pct);
    if (server) {
        dg_rep_col_add(t, "server CPU", "%", 0);
        dg_rep_col_add(t, "server processes", "% of a core", 0);
    }
    dg_rep_col_add(t, "errors", NULL, 0);
    if (isfinite(sum->tpmc))
        dg_rep_col_add(t, "tpmC", NULL, 1);
    dg_rep_row(t);
    int c = 0;
    dg_rep_num(t, c++, sum->tps);
    dg_rep_num(t, c++, sum->p50_ms);
    dg_rep_num(t, c++, sum->p95_ms);
    dg_rep_num(t, c++, sum->p99_ms);
    dg_rep_num(t, c++, sum->cpu_pct);
    if (server) {
        dg_rep_num(t, c++, sum->server_cpu_pct);
        dg_rep_num(t, c++, sum->server_procs_cpu_pct);
    }
    dg_rep_num(t, c++, sum->errors);
    if (isfinite(sum->tpmc))
        dg_rep_num(t, c, sum->tpmc);
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
    {"cpu_pct", "client CPU", "%", 1},
    {"self_cpu_pct", "dbgauge CPU", "%", 1},
    {"cpu_iowait_pct", "client I/O wait", "%", 1},
    {"server_host.cpu_pct", "server CPU", "%", 1},
    {"server_host.server_cpu_pct", "server processes", "%", 1},
    {"server_host.cpu_iowait_pct", "server I/O wait", "%", 1},
    {"server_host.iops", "server disk ops", "IOPS", 0},
    {"read_iops", "client reads", "IOPS", 0},
    {"write_iops", "client writes", "IOPS", 0},
    {"iops", "client disk ops", "IOPS", 0},
    {"cache_hit_pct", "cache hits", "%", 2},
    {"lock_table.mutex_wait_pct", "lock mutex waits", "%", 2},
    {"lock_table.blocks", "lock requests that waited", NULL, 0},
    {"lock_table.deadlocks", "deadlocks", NULL, 0},
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

/* A run on several nodes: one series per node of the intervals' nodes[].KEY (per second
 * when per_s), as a time chart; NULL when no interval has it. */
static dg_rep_chart *node_chart(dg_rep_section *sec, const json_t *ivs, const char *id,
                                const char *title, const char *ylabel, const char *unit,
                                const char *key, const char *key2, bool per_s)
{
    const json_t *first = json_object_get(json_array_get(ivs, 0), "nodes");
    size_t nn = json_array_size(first);
    if (nn == 0)
        return NULL;
    bool have = false;
    dg_rep_chart *c = NULL;
    for (size_t k = 0; k < nn; k++) {
        dg_rep_series *ser = NULL;
        size_t i;
        json_t *iv;
        json_array_foreach(ivs, i, iv)
        {
            const json_t *nd = json_array_get(json_object_get(iv, "nodes"), k);
            double v = num(nd, key);
            if (key2)
                v += num(nd, key2);
            if (per_s)
                v = num(iv, "dur_s") > 0 ? v / num(iv, "dur_s") : NAN;
            if (!c) {
                c = dg_rep_chart_add(sec, id, title, DG_CHART_LINE);
                dg_rep_axis_set(&c->x, "time since the measured phase began", "s");
                dg_rep_axis_set(&c->y, ylabel, unit);
                c->x.zero = c->y.zero = true;
            }
            if (!ser)
                ser = dg_rep_series_add(c, dg_res_str(nd, "node") ? dg_res_str(nd, "node") : "?");
            dg_rep_point_add(ser, ival(iv, "t_s"), v, NAN, NAN);
            have |= isfinite(v);
        }
    }
    if (c && !have)
        c->note = xstrdup("the nodes reported none of these figures");
    return c;
}

/* True when some interval has a node with a number under key. */
static bool any_node_val(const json_t *ivs, const char *key)
{
    size_t i, k;
    json_t *iv, *nd;
    json_array_foreach(ivs, i, iv)
    {
        json_array_foreach(json_object_get(iv, "nodes"), k, nd)
        {
            if (isfinite(num(nd, key)))
                return true;
        }
    }
    return false;
}

/* Per-node charts of a run on several nodes: throughput, and on Galera the conflicts and
 * the time flow control held writes. */
static void run_node_charts(dg_rep_section *sec, const json_t *doc, const json_t *ivs, const char *id)
{
    if (!json_array_size(json_object_get(json_array_get(ivs, 0), "nodes")))
        return;
    char *cid = xasprintf("%s-node-tps", id);
    node_chart(sec, ivs, cid, "Throughput per node over time", "throughput", "tx/s", "transactions",
               NULL, true);
    free(cid);
    if (!dg_res_get(doc, "totals.conflicts")) {
        cid = xasprintf("%s-node-replay", id);
        if (any_node_val(ivs, "replay_delay_ms"))
            node_chart(sec, ivs, cid, "Replica replay delay over time (since the last "
                       "transaction a standby replayed was committed)", "replay delay", "ms",
                       "replay_delay_ms", NULL, false);
        free(cid);
        return;
    }
    cid = xasprintf("%s-node-conflicts", id);
    node_chart(sec, ivs, cid, "Cluster conflicts per node over time (certification failures and "
                              "brute-force aborts)", "conflicts", "per s", "cert_failures",
               "bf_aborts", true);
    free(cid);
    cid = xasprintf("%s-node-flow", id);
    node_chart(sec, ivs, cid, "Flow control per node over time (writes held by replication)",
               "paused", "%", "flow_paused_pct", NULL, false);
    free(cid);
}

/* The run's --event commands: marks on every time chart added since item `from`, and a
 * line each. */
static void run_events(dg_rep_section *sec, const json_t *doc, int from)
{
    const json_t *evs = dg_res_get(doc, "events");
    if (!json_array_size(evs))
        return;
    size_t i;
    json_t *ev;
    json_array_foreach(evs, i, ev)
    {
        const char *cmd = dg_res_str(ev, "command") ? dg_res_str(ev, "command") : "?";
        char *label = xasprintf("%g s: %s", num(ev, "at_s"), cmd);
        for (int k = from; k < sec->nitems; k++)
            if (sec->items[k].kind == DG_ITEM_CHART && sec->items[k].chart->kind == DG_CHART_LINE &&
                isfinite(num(ev, "started_s")))
                dg_rep_mark_add(sec->items[k].chart, num(ev, "started_s"), label);
        free(label);
        double ex = num(ev, "exit");
        dg_rep_text(sec, "Event at %g s: %s (%s%s%s)", num(ev, "at_s"), cmd,
                    dg_res_str(ev, "status") ? dg_res_str(ev, "status") : "?",
                    isfinite(ex) ? ", exit " : "", isfinite(ex) ? (ex == 0 ? "0" : "not 0") : "");
    }
}

/* The wait profile's classes, by their share of all the sampled time, largest first. */
static int wait_classes(const json_t *doc, const char **out, int max)
{
    return dg_res_ranked(dg_res_get(doc, "wait_profile.all.classes"), out, max);
}

#define MAX_WAIT_CLASSES 16

/* --wait-profile: each wait class's share of the sampled sessions' time, per interval. */
static void wait_time_chart(dg_rep_section *sec, const json_t *doc, const json_t *ivs, const char *id)
{
    const char *cls[MAX_WAIT_CLASSES];
    int nc = wait_classes(doc, cls, MAX_WAIT_CLASSES);
    if (!nc)
        return;
    char *cid = xasprintf("%s-waits", id);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "Server wait classes over time (share of the "
                                       "sampled sessions' time in a transaction)", DG_CHART_LINE);
    free(cid);
    dg_rep_axis_set(&c->x, "time since the measured phase began", "s");
    dg_rep_axis_set(&c->y, "share", "%");
    c->x.zero = c->y.zero = true;
    for (int k = 0; k < nc; k++) {
        dg_rep_series *ser = dg_rep_series_add(c, cls[k]);
        size_t i;
        json_t *iv;
        json_array_foreach(ivs, i, iv)
        {
            const json_t *ic = dg_res_get(iv, "waits.classes");
            if (!ic)
                continue;
            double v = num(ic, cls[k]);
            dg_rep_point_add(ser, ival(iv, "t_s"), 100 * (isfinite(v) ? v : 0), NAN, NAN);
        }
    }
}

/* The cache hit ratio of each part the engine tells apart (monitor.cache_parts: PostgreSQL's
 * tables, indexes and TOAST; Db2's buffer pools), over time, and the measured phase's in
 * words; with PostgreSQL's block size and the server processes' storage reads, how much of
 * what missed shared buffers the OS page cache answered. */
#define MAX_PARTS 6
static void cache_parts_chart(dg_rep_section *sec, const json_t *doc, const json_t *ivs, const char *id)
{
    const json_t *parts = dg_res_get(doc, "monitor.cache_parts");
    if (!json_is_object(parts))
        return;
    dg_strbuf sb = DG_STRBUF_INIT;
    char *keys[MAX_PARTS];
    const char *names[MAX_PARTS];
    int n = 0;
    const char *name;
    json_t *p;
    json_object_foreach((json_t *)parts, name, p)
    {
        double hit = num(p, "hit_pct"), r = num(p, "reads");
        if (isfinite(hit))
            dg_sb_printf(&sb, "%s%s %.2f%% (%.0f blocks read)", sb.len ? ", " : "", name, hit, r);
        else
            dg_sb_printf(&sb, "%s%s: not used", sb.len ? ", " : "", name);
        if (n < MAX_PARTS) {
            keys[n] = xasprintf("cache_parts.%s.hit_pct", name);
            names[n] = name;
            n++;
        }
    }
    dg_rep_text(sec, "Cache hits by part, over the measured phase: %s.", dg_sb_str(&sb));
    dg_sb_free(&sb);
    /* what missed the engine's cache and was not read from storage came from the OS's */
    const char *bs = dg_res_str(doc, "server.settings.block_size"); /* PostgreSQL's, as text */
    double block = bs ? strtod(bs, NULL) : NAN;
    double mbs = num(doc, "monitor.server_host.server_read_mb_s");
    double secs = num(doc, "monitor.server_host.seconds");
    double all_reads = num(doc, "monitor.physical_reads_per_tx") * num(doc, "totals.transactions");
    if (block > 0 && isfinite(mbs) && secs > 0 && all_reads > 0) {
        double asked = all_reads * block, storage = mbs * 1e6 * secs;
        double os = 100.0 * (1.0 - storage / asked);
        dg_rep_text(sec, "Of the %.1f MB the server read past its own cache (%.0f blocks of %.0f "
                         "bytes), its processes read %.1f MB from storage: the OS page cache "
                         "answered about %.0f%% of them (an estimate: the storage reads also "
                         "count other files the server read).",
                    asked / 1e6, all_reads, block, storage / 1e6, os < 0 ? 0.0 : os > 100 ? 100.0 : os);
    }
    char *cid = xasprintf("%s-cache-parts", id);
    dg_rep_chart *c = time_chart(sec, ivs, cid, "Cache hit ratio by part over time", "cache hits",
                                 "%", (const char *const *)keys, names, n);
    if (c)
        c->y.zero = false;
    free(cid);
    for (int k = 0; k < n; k++)
        free(keys[k]);
}

static void run_intervals(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *ivs = dg_res_get(doc, "intervals");
    if (json_array_size(ivs) == 0) {
        dg_rep_text(sec, "No intervals were recorded (the run had no report interval).");
        return;
    }
    int from = sec->nitems;
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
        const char *k[] = {"cpu_pct", "self_cpu_pct", "cpu_iowait_pct", "server_host.cpu_pct",
                           "server_host.server_cpu_pct", "server_host.cpu_iowait_pct"};
        const char *n[] = {"client host CPU (all cores)", "dbgauge (% of one core)",
                           "client host I/O wait", "server host CPU (all cores)",
                           "server processes (% of one core)", "server host I/O wait"};
        cid = xasprintf("%s-cpu", id);
        time_chart(sec, ivs, cid, "CPU use over time", "CPU", "%", k, n, 6);
        free(cid);
    }
    {
        cid = xasprintf("%s-iops", id);
        if (any_ival(ivs, "read_iops") || any_ival(ivs, "write_iops")) {
            const char *k[] = {"read_iops", "write_iops", "server_host.iops"};
            const char *n[] = {"client reads", "client writes", "server data device"};
            time_chart(sec, ivs, cid, "Disk I/O operations per second over time", "disk operations",
                       "IOPS", k, n, 3);
        } else {
            const char *k[] = {"iops", "server_host.iops"};
            const char *n[] = {"client disk operations", "server data device"};
            time_chart(sec, ivs, cid, "Disk I/O operations per second over time", "disk operations",
                       "IOPS", k, n, 2);
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
    cache_parts_chart(sec, doc, ivs, id);
    const json_t *pc = dg_res_get(doc, "monitor.cache_per_connection");
    if (pc)
        dg_rep_text(sec, "Cache hits per connection (%.0f connections, each since it connected, "
                         "warmup included): lowest %.2f%%, median %.2f%%, highest %.2f%%.",
                    num(pc, "connections"), num(pc, "hit_pct_min"), num(pc, "hit_pct_median"),
                    num(pc, "hit_pct_max"));
    wait_time_chart(sec, doc, ivs, id);
    run_node_charts(sec, doc, ivs, id);
    run_events(sec, doc, from);
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

/* --wait-profile: where each transaction type's sessions spent their time in the server
 * (a stacked bar per type), and the events that took the most of it. */
static void run_waits(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *wp = dg_res_get(doc, "wait_profile");
    if (!wp)
        return;
    if (!json_is_true(json_object_get(wp, "available"))) {
        dg_rep_text(sec, "Server wait profile: none (%s).", str_or(wp, "reason", "not sampled"));
        return;
    }
    dg_rep_text(sec, "Server wait profile: %s sampled every %g ms (%.0f samples, %.0f late; the "
                     "sampler kept a server session busy %.1f%% of the time).",
                str_or(wp, "source", "?"), num(wp, "interval_ms"), num(wp, "samples"),
                num(wp, "late"), num(wp, "busy_pct"));
    if (dg_res_str(wp, "note"))
        dg_rep_text(sec, "Note: %s.", dg_res_str(wp, "note"));
    if (dg_res_str(wp, "interval_note"))
        dg_rep_text(sec, "Note: %s.", dg_res_str(wp, "interval_note"));
    const char *cls[MAX_WAIT_CLASSES];
    int nc = wait_classes(doc, cls, MAX_WAIT_CLASSES);
    const json_t *types = json_object_get(wp, "types");
    if (!nc || !json_object_size(types))
        return;
    char *cid = xasprintf("%s-wait-profile", id);
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "Where each transaction type spent its time in "
                                       "the server", DG_CHART_STACK);
    free(cid);
    dg_rep_axis_set(&c->x, "transaction type", NULL);
    dg_rep_axis_set(&c->y, "share of the sampled time", "%");
    const char *name;
    json_t *t;
    json_object_foreach((json_t *)types, name, t) dg_rep_axis_cat(&c->x, name);
    bool several = json_object_size(types) > 1;
    if (several)
        dg_rep_axis_cat(&c->x, "all types");
    for (int k = 0; k < nc; k++) {
        dg_rep_series *ser = dg_rep_series_add(c, cls[k]);
        int x = 0;
        json_object_foreach((json_t *)types, name, t)
        {
            double v = num(json_object_get(t, "classes"), cls[k]);
            if (num(t, "samples") > 0)
                dg_rep_point_add(ser, x, 100 * (isfinite(v) ? v : 0), NAN, NAN);
            x++;
        }
        if (several)
            dg_rep_point_add(ser, x, 100 * num(dg_res_get(wp, "all.classes"), cls[k]), NAN, NAN);
    }
    /* the events behind the bars: each type's largest */
    char *tid = xasprintf("%s-wait-events", id);
    dg_rep_table *tb = dg_rep_table_add(sec, tid, "Server wait events per transaction type (the "
                                        "largest five)", DG_TABLE_GRID);
    free(tid);
    dg_rep_col_add(tb, "transaction", NULL, 0);
    dg_rep_col_add(tb, "event", NULL, 0);
    dg_rep_col_add(tb, "share", "%", 1);
    dg_rep_col_add(tb, "samples", NULL, 0);
    json_object_foreach((json_t *)types, name, t)
    {
        const json_t *ev = json_object_get(t, "events");
        const char *top[5];
        int nt = dg_res_ranked(ev, top, 5);
        for (int r = 0; r < nt; r++) {
            dg_rep_row(tb);
            dg_rep_str(tb, 0, name);
            dg_rep_str(tb, 1, top[r]);
            dg_rep_num(tb, 2, 100 * num(ev, top[r]));
            dg_rep_num(tb, 3, r == 0 ? num(t, "samples") : NAN);
        }
    }
}

/* Firebird's lock manager (monitor.lock_table): the measured phase's figures, and its
 * mutex waits over time (the page-buffer study's explanation of Classic's curve). */
static void run_lock_table(dg_rep_section *sec, const json_t *doc, const char *id)
{
    const json_t *lt = dg_res_get(doc, "monitor.lock_table");
    if (!lt)
        return;
    if (!json_is_true(json_object_get(lt, "available"))) {
        dg_rep_text(sec, "Lock table: not read (%s).", str_or(lt, "reason", "?"));
        return;
    }
    const json_t *m = json_object_get(lt, "measured");
    if (!json_is_object(m)) {
        dg_rep_text(sec, "Lock table (%s): no two readings of one table span the measured "
                         "phase (%.0f readings, %.0f failed, %.0f tables created anew).",
                    str_or(lt, "source", "?"), num(lt, "readings"), num(lt, "failed"),
                    num(lt, "resets"));
        return;
    }
    double waits = num(m, "mutex_wait_pct");
    char *mutex = isfinite(waits) ? xasprintf("%.2f%% of them after a wait", waits)
                                  : xstrdup("never by a lock request");
    dg_rep_text(sec, "Lock table (%s, over the measured phase): %.0f lock requests, %.0f of "
                     "them waited for another owner, %.0f refused, %.0f deadlocks in %.0f "
                     "scans; the table's mutex taken %.0f times, %s; %.0f hash slots, the "
                     "longest chain %.0f.",
                str_or(lt, "source", "?"), num(m, "enqueues"), num(m, "blocks"),
                num(m, "rejects"), num(m, "deadlocks"), num(m, "deadlock_scans"),
                num(m, "acquires"), mutex, num(m, "hash_slots"), num(m, "hash_max"));
    free(mutex);
    const json_t *ivs = dg_res_get(doc, "intervals");
    const char *k[] = {"lock_table.mutex_wait_pct"}, *n[] = {"lock table mutex"};
    char *cid = xasprintf("%s-lock-table", id);
    time_chart(sec, ivs, cid, "Lock manager: mutex acquires that waited, "
               "over time", "acquires that waited", "%", k, n, 1);
    free(cid);
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
    dg_rep_chart *c = dg_rep_chart_add(sec, cid, "Load speed and client CPU over time", DG_CHART_LINE);
    free(cid);
    c->note = xstrdup(json_is_object(json_object_get(load, "restore"))
                          ? "the database's growth per second (none where its size is not read "
                            "during the restore); index builds grow it little, their work shows "
                            "in CPU"
                          : "data sent per second; index builds send none, their work shows in CPU");
    dg_rep_axis_set(&c->x, "time since the load began", "s");
    dg_rep_axis_set(&c->y, "load speed", "MB/s");
    dg_rep_axis_set(&c->y2, "client CPU", "%");
    c->x.zero = c->y.zero = true;
    dg_rep_series_add(c, "load speed");
    dg_rep_series_add(c, "client CPU (right axis)");
    c->series[1].right = true;
    size_t i;
    json_t *k;
    bool server = false; /* a restore with the server host's figures: its processes' CPU */
    json_array_foreach(tl, i, k)
    server |= isfinite(num(k, "server_host.server_cpu_pct"));
    if (server) {
        dg_rep_series_add(c, "server processes' CPU (right axis, % of a core)");
        c->series[2].right = true;
        free(c->title);
        c->title = xstrdup("Restore speed, client CPU and the server's CPU over time");
        dg_rep_axis_set(&c->y2, "CPU", "%");
    }
    json_array_foreach(tl, i, k)
    {
        double t = num(k, "t_s");
        if (num(k, "dur_s") < 0.25) /* the end of the load: too short for a rate */
            continue;
        dg_rep_point_add(&c->series[0], t, num(k, "mb_per_s"), NAN, NAN);
        dg_rep_point_add(&c->series[1], t, num(k, "cpu_pct"), NAN, NAN);
        if (server)
            dg_rep_point_add(&c->series[2], t, num(k, "server_host.server_cpu_pct"), NAN, NAN);
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

/* A restore's steps shown in the report, at most (the rest are in the result file). */
#define MAX_RESTORE_STEPS 30

static const json_t *sort_steps; /* qsort's context: by_time_desc's steps */

static int by_time_desc(const void *a, const void *b)
{
    double x = num(json_array_get(sort_steps, *(const size_t *)a), "seconds"),
           y = num(json_array_get(sort_steps, *(const size_t *)b), "seconds");
    if (!isfinite(x))
        x = -1;
    if (!isfinite(y))
        y = -1;
    return x < y ? 1 : x > y ? -1 : (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* What ran the restore, how it ended, and each kind's total as the study read gbak's log:
 * the last step's elapsed time minus the first's. */
static void restore_text(dg_rep_section *sec, const json_t *rst)
{
    const json_t *ex = json_object_get(rst, "exit_status");
    const char *sig = dg_res_str(rst, "signal");
    char status[96];
    if (json_is_integer(ex))
        snprintf(status, sizeof status, "exit status %lld", (long long)json_integer_value(ex));
    else
        snprintf(status, sizeof status, "killed by %s", sig ? sig : "a signal");
    const char *tool = str_or(rst, "tool", "none");
    dg_rep_text(sec, "The restore command ended with %s; %s.", status,
                !strcmp(tool, "none")      ? "dbgauge does not know its tool's output: no steps"
                : !strcmp(tool, "mariadb") ? "the mariadb client tells nothing per table: the "
                                             "whole restore's time and growth only"
                                           : "its steps are read from the tool's verbose output");
    const json_t *tot = json_object_get(rst, "step_totals");
    const char *k;
    const json_t *t;
    json_object_foreach((json_t *)tot, k, t)
        dg_rep_text(sec, "%s steps: %.0f; from the first one's end (%.3f s) to the last one's "
                         "(%.3f s): %.3f s (last minus first elapsed, as a restore log is read; "
                         "the steps' own times add up to %.3f s).",
                    k, num(t, "steps"), num(t, "first_elapsed_s"), num(t, "last_elapsed_s"),
                    num(t, "seconds"), num(t, "sum_of_steps_s"));
    const json_t *tail = json_object_get(rst, "stderr_tail");
    if (json_is_false(json_object_get(rst, "ok")) || (json_is_integer(ex) && json_integer_value(ex) != 0)) {
        size_t n = json_array_size(tail);
        for (size_t i = n > 5 ? n - 5 : 0; i < n; i++)
            dg_rep_text(sec, "stderr: %s", json_string_value(json_array_get(tail, i)));
    }
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
    bool replaced = measure && !strcmp(measure, "size");
    dg_rep_text(sec, "%s %s in %.2f s, %.1f MB/s of %s (%zu steps, %.0f job%s).",
                json_is_object(json_object_get(load, "restore")) ? "Restored"
                : kind_is_load(doc)                              ? "Loaded"
                                                                 : "The database was loaded first:",
                size,
                num(load, "seconds"), num(load, "mb_per_s"),
                sent ? "data sent (the database reused free space: its growth does not measure "
                       "the load)"
                : objects ? "loaded tables and indexes (the database reused free space: their "
                            "size on disk after the load measures it, not the file's growth)"
                : replaced ? "the database's size (the restore replaced a database of about that "
                             "size: its growth does not measure it)"
                          : "database growth",
                json_array_size(steps),
                num(load, "jobs"), num(load, "jobs") == 1 ? "" : "s");
    const json_t *rst = json_object_get(load, "restore");
    if (json_is_object(rst))
        restore_text(sec, rst);
    if (json_array_size(steps) == 0) { /* a restore by a tool dbgauge does not read */
        run_load_objects(sec, load, id);
        run_load_timeline(sec, load, id);
        return;
    }
    bool pages = false; /* a restore log's page columns, where the engine told them */
    size_t i;
    json_t *st;
    json_array_foreach(steps, i, st)
    pages |= json_is_integer(json_object_get(st, "page_reads")) ||
             json_is_integer(json_object_get(st, "page_writes"));
    /* a load's steps in their order; a restore's (a tool's log: many) largest first */
    size_t nsteps = json_array_size(steps), shown = nsteps;
    size_t *order = xcalloc(nsteps, sizeof *order);
    for (i = 0; i < nsteps; i++)
        order[i] = i;
    if (json_is_object(rst)) {
        sort_steps = steps;
        qsort(order, nsteps, sizeof *order, by_time_desc);
        sort_steps = NULL;
        if (shown > MAX_RESTORE_STEPS)
            shown = MAX_RESTORE_STEPS;
    }
    char *tid = xasprintf("%s-load", id);
    dg_rep_table *t = dg_rep_table_add(sec, tid,
                                       json_is_object(rst) ? "Restore steps, largest first"
                                                           : "Load steps",
                                       DG_TABLE_GRID);
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
    dg_rep_chart *c = dg_rep_chart_add(sec, cid,
                                       json_is_object(rst)
                                           ? "Restore time per step, largest first"
                                           : "Load time per step (tables, then indexes)",
                                       DG_CHART_BAR);
    free(cid);
    c->tabled = true;
    dg_rep_axis_set(&c->x, "step", NULL);
    dg_rep_axis_set(&c->y, "time", "s");
    c->y.zero = true;
    dg_rep_series *s = dg_rep_series_add(c, "time");
    double elapsed = 0;
    for (size_t j = 0; j < shown; j++)
    {
        i = order[j];
        st = json_array_get(steps, i);
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
        dg_rep_point_add(s, (double)j, secs, NAN, NAN);
    }
    free(order);
    if (shown < nsteps)
        dg_rep_text(sec, "%zu more steps, each shorter, are in the result file (load.steps).",
                    nsteps - shown);
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
    char *title = xasprintf("%s: %s",
                            json_is_object(dg_res_get(run->doc, "load.restore")) ? "Restore"
                            : load_only                                          ? "Load"
                                                                                 : "Run",
                            run->label);
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
    const json_t *vd = dg_res_get(run->doc, "verdict");
    if (vd)
        dg_rep_text(sec, "Limited by: %s. %c%s (confidence %s; the figures are under "
                         "\"verdict\" in the result file.)",
                    dg_verdict_words(dg_res_str(vd, "limited_by")),
                    dg_res_str(vd, "why") ? (char)toupper((unsigned char)dg_res_str(vd, "why")[0]) : ' ',
                    dg_res_str(vd, "why") ? dg_res_str(vd, "why") + 1 : "",
                    dg_res_str(vd, "confidence") ? dg_res_str(vd, "confidence") : "?");
    size_t wi;
    json_t *wj;
    json_array_foreach(dg_res_get(run->doc, "warnings"), wi, wj)
    {
        if (json_is_string(wj))
            dg_rep_text(sec, "Warning: %s.", json_string_value(wj));
    }
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
    run_rate_bars(sec, run->doc, id);
    run_intervals(sec, run->doc, id);
    run_transactions(sec, run->doc, id);
    run_waits(sec, run->doc, id);
    run_lock_table(sec, run->doc, id);
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
    dg_rep_col_add(t, "client CPU", "%", 0);
    bool server = false;
    for (int i = 0; i < s->nruns; i++)
        server |= isfinite(sums[i].server_cpu_pct);
    if (server)
        dg_rep_col_add(t, "server CPU", "%", 0);
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
        int c = 11;
        if (server)
            dg_rep_num(t, c++, sums[i].server_cpu_pct);
        dg_rep_num(t, c++, sums[i].errors);
        dg_rep_str(t, c, sums[i].complete ? "complete" : "INCOMPLETE");
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

/* ---- the report ------------------------------------------------------------------------ */

dg_report *dg_report_build(const dg_rep_set *s)
{
    dg_rep_summary *sums = xcalloc((size_t)s->nruns + 1, sizeof *sums);
    /* a stop request (SIGINT, SIGTERM) cuts the work short: the caller then writes nothing */
    for (int i = 0; i < s->nruns && !dg_stop_requested(); i++)
        dg_rep_summarize(s->runs[i].doc, &sums[i]);
    dg_rep_grid *w = dg_rep_grid_new(s, sums);
    dg_report *rep;
    if (s->nruns == 1) {
        const json_t *d = s->runs[0].doc;
        char *t = xasprintf("dbgauge report: %s on %s", str_or(d, "run.workload", "?"),
                            str_or(d, "run.backend", "?"));
        rep = dg_report_new(t);
        free(t);
    } else if (dg_rep_grid_nparams(w) > 0) {
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
    if (dg_rep_grid_nparams(w) > 0)
        dg_rep_grid_section(rep, w);
    if (s->nruns > 1) {
        dg_rep_study_sections(rep, s);
        overview_section(rep, s, sums);
    }
    for (int i = 0; i < s->nruns && !dg_stop_requested(); i++)
        run_section(rep, &s->runs[i], i, s->nruns > 1);
    dg_rep_grid_free(w);
    free(sums);
    return rep;
}
