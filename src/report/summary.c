/*
 * summary.c - per-run figures of a result document (summary.h): the headline numbers and
 * the latency percentiles over all transaction types, from the merged histograms.
 */
#include "report/summary.h"

#include "results/result.h"
#include "stats/hist.h"

#include <math.h>
#include <string.h>

static double num(const json_t *o, const char *path)
{
    return dg_res_num(o, path, NAN);
}

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
    out->server_cpu_pct = num(doc, "monitor.server_host.cpu_pct");
    out->server_procs_cpu_pct = num(doc, "monitor.server_host.server_cpu_pct");
    out->errors = num(doc, "totals.errors");
    out->lock_wait_pct = num(doc, "monitor.lock_table.measured.mutex_wait_pct");
    out->cache_total_bytes = num(doc, "server.cache_total_bytes");
    out->db_size_bytes = num(doc, "monitor.db_size_before_bytes");
    if (!isfinite(out->db_size_bytes))
        out->db_size_bytes = num(doc, "load.db_size_bytes");
    out->database_bytes = out->db_size_bytes;
    out->workload_bytes = num(doc, "load.objects_bytes");
    if (!(out->workload_bytes > 0))
        out->workload_bytes = NAN;
    const char *m = dg_res_str(doc, "load.bytes_measure");
    if (m && !strcmp(m, "objects")) /* the file kept a dropped table's pages: see scale_size */
        out->db_size_bytes = num(doc, "load.objects_bytes");
    out->load_s = num(doc, "load.seconds");
    out->load_mb_per_s = num(doc, "load.mb_per_s");
    out->tpmc = num(doc, "workload_metrics.tpmC");
    double tx = num(doc, "totals.transactions");
    out->conflicts_per_tx = tx > 0 ? (num(doc, "totals.conflicts.cert_failures") +
                                      num(doc, "totals.conflicts.bf_aborts")) / tx
                                   : NAN;
    out->complete = !json_is_false(dg_res_get(doc, "run.complete"));
}

bool dg_rep_metric_is_rate(const char *name)
{
    size_t n = strlen(name);
#define ENDS(s) (n >= sizeof(s) - 1 && !strcmp(name + n - (sizeof(s) - 1), s))
    return !strcmp(name, "tpmC") || ENDS("_per_s") || ENDS("_per_h") || ENDS("_tps");
#undef ENDS
}
