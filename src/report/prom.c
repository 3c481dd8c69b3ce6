/* prom.c - a run's state as Prometheus text exposition: see prom.h. */
#include "report/prom.h"

#include "core/err.h"
#include "core/xalloc.h"
#include "results/result.h"
#include "stats/hdr_codec.h"
#include "stats/hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct tx_total {
    char *name;
    uint64_t count;
    double sum_s;
} tx_total;

struct dg_prom {
    char *labels; /* workload="...",backend="..."[,part="K"] */
    char *version, *commit;
    tx_total *tx;
    int ntx, cap;
    uint64_t transactions, errors, retries, rollbacks, reconnects;
    double sum_s;
    dg_hist h;
    dg_hdr_coder *coder;
};

/* A label value with \, " and newlines escaped, as the text format wants. */
static void add_label_value(dg_strbuf *sb, const char *v)
{
    for (; *v; v++) {
        if (*v == '\\' || *v == '"')
            dg_sb_addc(sb, '\\'), dg_sb_addc(sb, *v);
        else if (*v == '\n')
            dg_sb_add(sb, "\\n");
        else
            dg_sb_addc(sb, *v);
    }
}

dg_prom *dg_prom_new(const char *workload, const char *backend, int part, const char *version,
                     const char *commit)
{
    dg_prom *p = xcalloc(1, sizeof *p);
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_add(&sb, "workload=\"");
    add_label_value(&sb, workload ? workload : "?");
    dg_sb_add(&sb, "\",backend=\"");
    add_label_value(&sb, backend ? backend : "?");
    dg_sb_addc(&sb, '"');
    if (part >= 0)
        dg_sb_printf(&sb, ",part=\"%d\"", part);
    p->labels = dg_sb_take(&sb);
    p->version = xstrdup(version ? version : "?");
    p->commit = xstrdup(commit ? commit : "?");
    p->coder = dg_hdr_coder_new();
    if (dg_hist_init(&p->h) != 0) {
        dg_prom_free(p);
        return NULL;
    }
    return p;
}

void dg_prom_free(dg_prom *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->ntx; i++)
        free(p->tx[i].name);
    free(p->tx);
    free(p->labels);
    free(p->version);
    free(p->commit);
    dg_hist_destroy(&p->h);
    dg_hdr_coder_free(p->coder);
    free(p);
}

static tx_total *tx_of(dg_prom *p, const char *name)
{
    for (int i = 0; i < p->ntx; i++)
        if (!strcmp(p->tx[i].name, name))
            return &p->tx[i];
    if (p->ntx == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 8;
        p->tx = xrealloc(p->tx, (size_t)p->cap * sizeof *p->tx);
    }
    p->tx[p->ntx] = (tx_total){.name = xstrdup(name)};
    return &p->tx[p->ntx++];
}

static void head(dg_strbuf *o, const char *name, const char *type, const char *help)
{
    dg_sb_printf(o, "# HELP dbgauge_%s %s\n# TYPE dbgauge_%s %s\n", name, help, name, type);
}

/* name{labels[,extra]} value; nothing for a value that was not measured */
static void sample(dg_strbuf *o, const dg_prom *p, const char *name, const char *extra, double v)
{
    if (!isfinite(v))
        return;
    dg_sb_printf(o, "dbgauge_%s{%s%s%s} %.15g\n", name, p->labels, extra ? "," : "", extra ? extra : "", v);
}

static void gauge(dg_strbuf *o, const dg_prom *p, const char *name, const char *help, double v)
{
    if (!isfinite(v))
        return;
    head(o, name, "gauge", help);
    sample(o, p, name, NULL, v);
}

static double num(const json_t *o, const char *path)
{
    return dg_res_num(o, path, NAN);
}

/* A transaction label: transaction="NAME" */
static char *tx_label(const char *name, const char *quantile)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_add(&sb, "transaction=\"");
    add_label_value(&sb, name);
    dg_sb_addc(&sb, '"');
    if (quantile)
        dg_sb_printf(&sb, ",quantile=\"%s\"", quantile);
    return dg_sb_take(&sb);
}

static void quantiles(dg_strbuf *o, const dg_prom *p, const char *name, const double q_s[3])
{
    static const char *const qs[] = {"0.5", "0.95", "0.99"};
    for (int i = 0; i < 3; i++) {
        char *l = tx_label(name, qs[i]);
        sample(o, p, "latency_seconds", l, q_s[i]);
        free(l);
    }
}

int dg_prom_interval(dg_prom *p, const json_t *iv, bool warmup, int64_t end_wall_ns, dg_strbuf *out)
{
    int rc = 0;
    dg_sb_reset(out);
    uint64_t n = (uint64_t)fmax(0, num(iv, "transactions"));
    p->transactions += n;
    p->errors += (uint64_t)fmax(0, num(iv, "errors"));
    p->retries += (uint64_t)fmax(0, num(iv, "retries"));
    p->rollbacks += (uint64_t)fmax(0, num(iv, "rollbacks"));
    p->reconnects += (uint64_t)fmax(0, num(iv, "reconnects"));
    if (n && isfinite(num(iv, "latency_ms.avg")))
        p->sum_s += num(iv, "latency_ms.avg") / 1000 * (double)n;

    head(out, "info", "gauge", "The dbgauge that writes these metrics (always 1).");
    char *extra = xasprintf("version=\"%s\",commit=\"%s\"", p->version, p->commit);
    sample(out, p, "info", extra, 1);
    free(extra);
    gauge(out, p, "interval_end_timestamp_seconds", "When the last interval ended (Unix time).",
          (double)end_wall_ns / 1e9);
    gauge(out, p, "measuring", "1 in the measured phase, 0 in the warmup.", warmup ? 0 : 1);
    gauge(out, p, "interval_seconds", "The last interval's length.", num(iv, "dur_s"));
    gauge(out, p, "tps", "Transactions per second in the last interval.", num(iv, "tps"));
    gauge(out, p, "active_terminals", "Terminals still running.", num(iv, "active_terminals"));
    gauge(out, p, "schedule_lag_p99_seconds",
          "99th percentile of how late transactions started against their schedule (--rate).",
          num(iv, "schedule_lag_ms_p99") / 1000);
    gauge(out, p, "client_cpu_percent", "The client host's CPU use in the last interval.", num(iv, "cpu_pct"));
    gauge(out, p, "self_cpu_percent", "dbgauge's own CPU use, in percent of one core.", num(iv, "self_cpu_pct"));
    if (!strcmp(dg_res_str(iv, "server_host.status") ? dg_res_str(iv, "server_host.status") : "", "ok")) {
        gauge(out, p, "server_cpu_percent", "The database server host's CPU use in the last interval.",
              num(iv, "server_host.cpu_pct"));
        gauge(out, p, "server_process_cpu_percent",
              "The database server processes' CPU use, in percent of one core.",
              num(iv, "server_host.server_cpu_pct"));
    }
    gauge(out, p, "cache_hit_percent", "The database's cache hit ratio in the last interval.",
          num(iv, "cache_hit_pct"));
    gauge(out, p, "database_size_bytes", "The database's size.", num(iv, "db_size_bytes"));

    /* counters since the run began */
    head(out, "transactions_total", "counter", "Transactions completed since the run began, by type.");
    const json_t *tx = json_object_get(iv, "tx");
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)tx, name, v)
    {
        tx_total *t = tx_of(p, name);
        t->count += (uint64_t)fmax(0, json_number_value(v));
    }
    for (int i = 0; i < p->ntx; i++) {
        char *l = tx_label(p->tx[i].name, NULL);
        sample(out, p, "transactions_total", l, (double)p->tx[i].count);
        free(l);
    }
    struct {
        const char *name, *help;
        uint64_t v;
    } counters[] = {
        {"errors_total", "Transactions that failed since the run began.", p->errors},
        {"retries_total", "Retries of transactions (deadlocks, serialization failures) since the run began.", p->retries},
        {"rollbacks_total", "Transactions rolled back by the workload's own logic since the run began.", p->rollbacks},
        {"reconnects_total", "Terminal reconnections since the run began.", p->reconnects},
    };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
        head(out, counters[i].name, "counter", counters[i].help);
        sample(out, p, counters[i].name, NULL, (double)counters[i].v);
    }

    /* latency: the last interval's quantiles, the run's count and sum */
    head(out, "latency_seconds", "summary",
         "Transaction latency: the last interval's quantiles, the count and sum since the run began.");
    const double all[3] = {num(iv, "latency_ms.p50") / 1000, num(iv, "latency_ms.p95") / 1000,
                           num(iv, "latency_ms.p99") / 1000};
    if (n)
        quantiles(out, p, "all", all);
    char *l = tx_label("all", NULL);
    sample(out, p, "latency_seconds_sum", l, p->sum_s);
    sample(out, p, "latency_seconds_count", l, (double)p->transactions);
    free(l);
    const json_t *hists = json_object_get(iv, "histograms");
    for (int i = 0; i < p->ntx; i++) {
        tx_total *t = &p->tx[i];
        const json_t *hs = json_object_get(hists, t->name);
        if (json_is_string(hs)) {
            dg_hist_reset(&p->h);
            dg_err err = DG_ERR_INIT;
            if (dg_hdr_decode(p->coder, json_string_value(hs), json_string_length(hs), &p->h, &err) == 0) {
                const double q[3] = {(double)dg_hist_percentile(&p->h, 50) / 1e9,
                                     (double)dg_hist_percentile(&p->h, 95) / 1e9,
                                     (double)dg_hist_percentile(&p->h, 99) / 1e9};
                if (p->h.total)
                    quantiles(out, p, t->name, q);
                t->sum_s += (double)p->h.sum_ns / 1e9;
            } else {
                rc = DG_E_PARSE;
            }
        }
        l = tx_label(t->name, NULL);
        sample(out, p, "latency_seconds_sum", l, t->sum_s);
        sample(out, p, "latency_seconds_count", l, (double)t->count);
        free(l);
    }
    gauge(out, p, "latency_max_seconds", "The longest transaction of the last interval.",
          num(iv, "latency_ms.max") / 1000);
    return rc;
}
