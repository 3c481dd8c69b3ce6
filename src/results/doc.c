/*
 * doc.c - the parts of a result document (see doc.h). Field order follows
 * docs/file-formats.md, so files read top to bottom as the documentation does.
 *
 * Layout: run, server and host, phase totals and transactions, intervals, monitor, load,
 * errors, whole documents (a load's; a run's at its start and at its end).
 */
#include "results/doc.h"

#include "results/result.h"
#include "stats/hdr_codec.h"

#include <math.h>

static json_t *num_or_null(double v, bool present)
{
    return present ? dg_json_real(v) : json_null();
}

static json_t *size_or_null(int64_t v)
{
    return v >= 0 ? json_integer(v) : json_null();
}

/* ---- run, server, host ------------------------------------------------------------------- */

json_t *dg_doc_run_json(const dg_doc_run *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "workload", json_string(r->workload));
    json_object_set_new(j, "workload_hash", json_string(r->workload_hash ? r->workload_hash : ""));
    json_object_set_new(j, "scale", json_integer(r->scale));
    json_object_set_new(j, "backend", json_string(r->backend));
    json_object_set_new(j, "db", json_string(r->db));
    if (r->finished)
        json_object_set_new(j, "started_at", json_string(r->started_at ? r->started_at : ""));
    json_object_set_new(j, "terminals", json_integer(r->terminals));
    if (r->part_n > 1) {
        json_t *part = json_object();
        json_object_set_new(part, "index", json_integer(r->part_k));
        json_object_set_new(part, "count", json_integer(r->part_n));
        json_object_set_new(part, "from", json_string(r->part_from ? r->part_from : "--part"));
        json_object_set_new(part, "first_terminal", json_integer(r->first_terminal));
        json_object_set_new(part, "whole_terminals", json_integer(r->whole_terminals));
        json_object_set_new(j, "part", part);
    }
    if (r->start_at) {
        json_object_set_new(j, "start_at", json_string(r->start_at));
        if (r->finished)
            json_object_set_new(j, "start_late_ms", dg_json_real(r->start_late_ms));
    }
    json_object_set_new(j, "duration_s", dg_json_real(r->duration_s));
    json_object_set_new(j, "transactions_per_terminal", json_integer(r->transactions_per_terminal));
    json_object_set_new(j, "warmup_s", dg_json_real(r->warmup_s));
    json_object_set_new(j, "interval_s", dg_json_real(r->interval_s));
    json_object_set_new(j, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(j, "command", json_string(r->command ? r->command : ""));
    json_object_set_new(j, "rate_tps", num_or_null(r->rate_tps, r->rate_tps > 0));
    json_object_set_new(j, "think_time_ms", num_or_null(r->think_time_ms, r->think_time_ms > 0));
    json_object_set_new(j, "think_time_exponential", json_boolean(r->think_time_exponential));
    json_object_set_new(j, "max_tries", json_integer(r->max_tries));
    json_t *eng = json_object();
    json_object_set_new(eng, "kind", json_string(r->workers > 0 ? "events" : "threads"));
    json_object_set_new(eng, "workers", json_integer(r->workers));
    if (r->finished && r->workers > 0) {
        json_object_set_new(eng, "timers", json_integer((json_int_t)r->engine_timers));
        json_object_set_new(eng, "timer_lag_avg_ms", dg_json_real(r->engine_lag_avg_ms));
        json_object_set_new(eng, "timer_lag_max_ms", dg_json_real(r->engine_lag_max_ms));
    }
    json_object_set_new(j, "engine", eng);
    json_object_set_new(j, "pipeline", json_boolean(r->pipeline));
    if (r->finished) {
        json_object_set_new(j, "complete", json_boolean(r->complete));
        json_object_set_new(j, "stop_reason", json_string(r->stop_reason ? r->stop_reason : ""));
        json_object_set_new(j, "aborted_terminals", json_integer(r->aborted_terminals));
        json_object_set_new(j, "interrupted_terminals", json_integer(r->interrupted_terminals));
        json_object_set_new(j, "overrun_s", dg_json_real(r->overrun_s));
        json_object_set_new(j, "connect_s", dg_json_real(r->connect_s));
        json_object_set_new(j, "close_s", dg_json_real(r->close_s));
    }
    json_object_set_new(j, "scale_unit", json_string(r->scale_unit ? r->scale_unit : ""));
    if (r->storage)
        json_object_set_new(j, "storage", json_string(r->storage));
    if (r->execution)
        json_object_set_new(j, "execution", json_string(r->execution));
    json_object_set_new(j, "keying_think", json_boolean(r->keying_think));
    json_t *settings = json_object();
    for (int i = 0; i < r->nconn_settings; i++)
        json_object_set_new(settings, r->conn_settings[i].name, json_string(r->conn_settings[i].value));
    json_object_set_new(j, "conn_settings", settings);
    json_t *mix = json_object();
    for (int i = 0; i < r->ntx; i++)
        json_object_set_new(mix, r->tx_names[i], dg_json_real(r->tx_weights[i]));
    json_object_set_new(j, "mix", mix);
    return j;
}

json_t *dg_doc_server_json(const dg_server_info *si)
{
    json_t *settings = json_object();
    for (int i = 0; i < si->nsettings; i++)
        json_object_set_new(settings, si->settings[i].name, json_string(si->settings[i].value));
    return json_pack("{s:s, s:o}", "version", si->version, "settings", settings);
}

json_t *dg_doc_host_json(const dg_hostinfo *h)
{
    json_t *j = json_pack("{s:s, s:s, s:i, s:I, s:s, s:s, s:s, s:s, s:s, s:s}", "hostname", h->hostname,
                          "cpu_model", h->cpu_model, "cores", h->cores, "ram_bytes",
                          (json_int_t)h->ram_bytes, "kernel", h->kernel, "arch", h->arch, "filesystem",
                          h->fs_type, "fs_device", h->fs_device, "mount_point", h->mount_point,
                          "block_device", h->block_device);
    /* null: the kernel exposes no frequency policy (no cpufreq, as in most VMs) */
    json_object_set_new(j, "cpu_governor", h->cpu_governor[0] ? json_string(h->cpu_governor) : json_null());
    json_object_set_new(j, "cpu_epp", h->cpu_epp[0] ? json_string(h->cpu_epp) : json_null());
    return j;
}

/* ---- phase totals and transactions --------------------------------------------------------- */

json_t *dg_doc_totals_json(const dg_txstats *a, double secs)
{
    return json_pack("{s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:o}", "transactions", (json_int_t)a->count,
                     "tps", dg_json_real(secs > 0 ? (double)a->count / secs : NAN), "errors",
                     (json_int_t)a->errors, "retries", (json_int_t)a->retries, "retried",
                     (json_int_t)a->retried, "rollbacks", (json_int_t)a->rollbacks,
                     "unknown_outcome", (json_int_t)a->unknown, "duration_s", dg_json_real(secs));
}

json_t *dg_doc_drain_json(double secs, int ntx, const dg_doc_drain_tx *tx)
{
    uint64_t count = 0, rollbacks = 0, errors = 0, unknown = 0;
    json_t *by = json_object();
    for (int i = 0; i < ntx; i++) {
        count += tx[i].count;
        rollbacks += tx[i].rollbacks;
        errors += tx[i].errors;
        unknown += tx[i].unknown;
        json_object_set_new(by, tx[i].name,
                            json_pack("{s:I, s:I, s:I, s:I}", "count", (json_int_t)tx[i].count,
                                      "rollbacks", (json_int_t)tx[i].rollbacks, "errors",
                                      (json_int_t)tx[i].errors, "unknown_outcome",
                                      (json_int_t)tx[i].unknown));
    }
    return json_pack("{s:I, s:I, s:I, s:I, s:o, s:o}", "transactions", (json_int_t)count,
                     "rollbacks", (json_int_t)rollbacks, "errors", (json_int_t)errors,
                     "unknown_outcome", (json_int_t)unknown, "duration_s", dg_json_real(secs),
                     "by_transaction", by);
}

json_t *dg_doc_tx_json(const char *name, double weight, const dg_txstats *t, bool hist)
{
    json_t *j = json_pack("{s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:o}", "name", name, "weight",
                          dg_json_real(weight), "count", (json_int_t)t->count, "errors",
                          (json_int_t)t->errors, "retries", (json_int_t)t->retries, "retried",
                          (json_int_t)t->retried, "rollbacks", (json_int_t)t->rollbacks,
                          "latency_ms", dg_result_latency(&t->lat));
    if (t->unknown)
        json_object_set_new(j, "unknown_outcome", json_integer((json_int_t)t->unknown));
    if (t->errors) {
        json_t *ec = json_object();
        for (int k = DG_EC_NONE + 1; k < DG_EC_COUNT; k++)
            if (t->err_class[k])
                json_object_set_new(ec, dg_errclass_name((dg_errclass)k),
                                    json_integer((json_int_t)t->err_class[k]));
        json_object_set_new(j, "errors_by_class", ec);
    }
    if (hist)
        json_object_set_new(j, "histogram", dg_result_hist(&t->lat));
    return j;
}

/* ---- intervals ------------------------------------------------------------------------------ */

json_t *dg_doc_srvdelta_json(dg_doc_server_status st, const dg_srvdelta *d)
{
    json_t *j = json_object();
    json_object_set_new(j, "status", json_string(st == DG_DOC_SERVER_OK     ? "ok"
                                                 : st == DG_DOC_SERVER_LATE ? "late"
                                                                            : "lost"));
    if (st != DG_DOC_SERVER_OK)
        return j;
    json_object_set_new(j, "seconds", dg_json_real(d->seconds));
    json_object_set_new(j, "cpu_pct", dg_json_real(d->cpu_pct));
    json_object_set_new(j, "cpu_user_pct", dg_json_real(d->user_pct));
    json_object_set_new(j, "cpu_sys_pct", dg_json_real(d->sys_pct));
    json_object_set_new(j, "cpu_iowait_pct", dg_json_real(d->iowait_pct));
    json_object_set_new(j, "cpu_steal_pct", dg_json_real(d->steal_pct));
    json_object_set_new(j, "server_cpu_pct", dg_json_real(d->procs_cpu_pct));
    json_object_set_new(j, "server_procs", json_integer(d->procs));
    json_object_set_new(j, "disk_reads", dg_json_real(d->disk_reads));
    json_object_set_new(j, "disk_writes", dg_json_real(d->disk_writes));
    json_object_set_new(j, "iops", dg_json_real(d->iops));
    json_object_set_new(j, "read_mb_s", dg_json_real(d->read_mb_s));
    json_object_set_new(j, "write_mb_s", dg_json_real(d->write_mb_s));
    json_object_set_new(j, "disk_util_pct", dg_json_real(d->util_pct));
    /* the server processes' own storage I/O (any device), beside the data device's */
    double s = d->seconds > 0 ? d->seconds : NAN;
    json_object_set_new(j, "server_read_mb_s", dg_json_real(d->procs_read_bytes / 1e6 / s));
    json_object_set_new(j, "server_write_mb_s", dg_json_real(d->procs_write_bytes / 1e6 / s));
    json_object_set_new(j, "mem_used_pct", dg_json_real(d->mem_used_pct));
    json_object_set_new(j, "mem_available_bytes", dg_json_real(d->mem_available_bytes));
    json_object_set_new(j, "load1", dg_json_real(d->load1));
    return j;
}

json_t *dg_doc_interval_json(const dg_doc_interval *iv)
{
    json_t *j = json_object();
    json_object_set_new(j, "t_s", dg_json_real(round(iv->t_s * 1000) / 1000));
    json_object_set_new(j, "dur_s", dg_json_real(iv->dur_s));
    json_object_set_new(j, "transactions", json_integer((json_int_t)iv->transactions));
    /* a rate from a sliver of an interval (the last one of a run, one cut short by a stall)
     * would be an extrapolation: null instead; the counts stay */
    json_object_set_new(j, "tps", dg_json_real(iv->dur_s >= DG_DOC_MIN_RATE_S
                                                   ? (double)iv->transactions / iv->dur_s
                                                   : NAN));
    json_object_set_new(j, "errors", json_integer((json_int_t)iv->errors));
    json_object_set_new(j, "retries", json_integer((json_int_t)iv->retries));
    json_object_set_new(j, "rollbacks", json_integer((json_int_t)iv->rollbacks));
    json_object_set_new(j, "latency_ms",
                        json_pack("{s:o, s:o, s:o, s:o, s:o}", "p50", dg_json_real(iv->p50_ms), "p95",
                                  dg_json_real(iv->p95_ms), "p99", dg_json_real(iv->p99_ms), "avg",
                                  dg_json_real(iv->avg_ms), "max", dg_json_real(iv->max_ms)));
    json_t *txc = json_object();
    for (int i = 0; i < iv->ntx; i++)
        json_object_set_new(txc, iv->tx_names[i], json_integer((json_int_t)iv->tx_counts[i]));
    json_object_set_new(j, "tx", txc);
    if (iv->tx_hists) { /* exact per-type latencies, for merging parts and re-reading */
        json_t *hj = json_object();
        dg_strbuf sb = DG_STRBUF_INIT;
        dg_hdr_coder *coder = dg_hdr_coder_new(); /* one zlib setup for the interval's types */
        for (int i = 0; i < iv->ntx; i++) {
            if (!iv->tx_hists[i] || !iv->tx_hists[i]->total)
                continue;
            dg_sb_reset(&sb);
            if (dg_hdr_encode(coder, iv->tx_hists[i], &sb) == 0)
                json_object_set_new(hj, iv->tx_names[i], json_string(dg_sb_str(&sb)));
        }
        dg_hdr_coder_free(coder);
        dg_sb_free(&sb);
        json_object_set_new(j, "histograms", hj);
    }
    const dg_sysdelta *sd = &iv->sys;
    json_object_set_new(j, "cpu_pct", dg_json_real(sd->cpu_pct));
    json_object_set_new(j, "cpu_user_pct", dg_json_real(sd->user_pct));
    json_object_set_new(j, "cpu_sys_pct", dg_json_real(sd->sys_pct));
    json_object_set_new(j, "cpu_iowait_pct", dg_json_real(sd->iowait_pct));
    json_object_set_new(j, "self_cpu_pct", dg_json_real(sd->self_cpu_pct));
    json_object_set_new(j, "disk_reads", dg_json_real(sd->disk_reads));
    json_object_set_new(j, "disk_writes", dg_json_real(sd->disk_writes));
    json_object_set_new(j, "disk_read_bytes", dg_json_real(sd->read_bytes));
    json_object_set_new(j, "disk_write_bytes", dg_json_real(sd->write_bytes));
    json_object_set_new(j, "iops", dg_json_real(sd->iops));
    json_object_set_new(j, "cache_hit_pct", dg_json_real(iv->cache_hit_pct));
    json_t *parts = dg_doc_cache_parts_json(iv->db_prev, iv->db_now);
    if (parts)
        json_object_set_new(j, "cache_parts", parts);
    json_object_set_new(j, "physical_reads_per_tx",
                        dg_json_real(iv->transactions ? iv->physical_reads / (double)iv->transactions : NAN));
    json_object_set_new(j, "db_size_bytes", size_or_null(iv->db_size_bytes));
    json_object_set_new(j, "reconnects", json_integer((json_int_t)iv->reconnects));
    json_object_set_new(j, "downtime_s", dg_json_real(iv->downtime_s));
    json_object_set_new(j, "active_terminals", json_integer(iv->active_terminals));
    if (!isnan(iv->lag_p99_ms))
        json_object_set_new(j, "schedule_lag_ms_p99", dg_json_real(iv->lag_p99_ms));
    if (iv->server_status != DG_DOC_SERVER_NONE)
        json_object_set_new(j, "server_host", dg_doc_srvdelta_json(iv->server_status, &iv->server));
    return j;
}

/* ---- monitor --------------------------------------------------------------------------------- */

json_t *dg_doc_cache_parts_json(const dg_dbstats *a, const dg_dbstats *b)
{
    if (!a || !b || a->ncache_parts <= 0 || b->ncache_parts <= 0)
        return NULL;
    json_t *o = NULL;
    for (int i = 0; i < b->ncache_parts && i < DG_MAX_CACHE_PARTS; i++) {
        const dg_cachepart *q = &b->cache_parts[i], *p = NULL;
        for (int k = 0; k < a->ncache_parts && k < DG_MAX_CACHE_PARTS && !p; k++)
            if (!strcmp(a->cache_parts[k].name, q->name))
                p = &a->cache_parts[k];
        if (!p || p->hits < 0 || p->misses < 0 || q->hits < p->hits || q->misses < p->misses)
            continue; /* not in both, or its counters were reset (a server restart) */
        int64_t h = q->hits - p->hits, m = q->misses - p->misses;
        json_t *part = json_object();
        json_object_set_new(part, "hits", json_integer(h));
        json_object_set_new(part, "reads", json_integer(m));
        json_object_set_new(part, "hit_pct", h + m > 0 ? json_real(100.0 * (double)h / (double)(h + m))
                                                       : json_null());
        if (!o)
            o = json_object();
        json_object_set_new(o, q->name, part);
    }
    return o;
}

json_t *dg_doc_monitor_json(const dg_doc_monitor *mo)
{
    const dg_sysdelta *sd = &mo->sys;
    json_t *m = json_object();
    json_object_set_new(m, "cpu_pct", dg_json_real(sd->cpu_pct));
    json_object_set_new(m, "cpu_user_pct", dg_json_real(sd->user_pct));
    json_object_set_new(m, "cpu_sys_pct", dg_json_real(sd->sys_pct));
    json_object_set_new(m, "cpu_iowait_pct", dg_json_real(sd->iowait_pct));
    json_object_set_new(m, "self_cpu_pct", dg_json_real(sd->self_cpu_pct));
    json_object_set_new(m, "self_cpu_us_per_tx", dg_json_real(mo->self_cpu_us_per_tx));
    json_object_set_new(m, "disk_reads", dg_json_real(sd->disk_reads));
    json_object_set_new(m, "disk_writes", dg_json_real(sd->disk_writes));
    json_object_set_new(m, "iops", dg_json_real(sd->iops));
    json_object_set_new(m, "cache_hit_pct", dg_json_real(mo->cache_hit_pct));
    json_object_set_new(m, "physical_reads_per_tx", dg_json_real(mo->physical_reads_per_tx));
    json_t *parts = dg_doc_cache_parts_json(mo->parts_from, mo->parts_to);
    if (parts)
        json_object_set_new(m, "cache_parts", parts);
    if (mo->conn_hit_n > 0) { /* each terminal's connection's own ratio, since it connected */
        json_t *c = json_object();
        json_object_set_new(c, "connections", json_integer(mo->conn_hit_n));
        json_object_set_new(c, "hit_pct_min", dg_json_real(mo->conn_hit_min));
        json_object_set_new(c, "hit_pct_median", dg_json_real(mo->conn_hit_median));
        json_object_set_new(c, "hit_pct_max", dg_json_real(mo->conn_hit_max));
        json_object_set_new(m, "cache_per_connection", c);
    }
    json_object_set_new(m, "db_size_before_bytes", size_or_null(mo->db_size_before_bytes));
    json_object_set_new(m, "db_size_after_bytes", size_or_null(mo->db_size_after_bytes));
    if (mo->server_commits >= 0)
        json_object_set_new(m, "server_commits", json_integer(mo->server_commits));
    json_object_set_new(m, "reconnects", json_integer((json_int_t)mo->reconnects));
    json_object_set_new(m, "downtime_s", dg_json_real(mo->downtime_s));
    json_object_set_new(m, "block_device", json_string(mo->block_device ? mo->block_device : ""));
    if (mo->self_max_rss_bytes >= 0)
        json_object_set_new(m, "self_max_rss_bytes", json_integer(mo->self_max_rss_bytes));
    /* Servers publish their counters late (PostgreSQL: each backend at most once a
     * second), so a short interval can see none of its own reads: its figure is null,
     * never a guess. The run-level figure is the whole phase's delta. */
    int n = mo->cache_hit_null_intervals;
    json_object_set_new(m, "cache_hit_null_intervals", json_integer(n));
    json_t *notes = json_array();
    if (n > 0)
        json_array_append_new(
            notes, json_sprintf("cache_hit_pct is null in %d interval%s: no new cache counters "
                                "were published during %s (servers update their statistics "
                                "with a delay, and the terminals read their connections' "
                                "counters once an interval; monitor.cache_hit_pct covers the "
                                "whole run)",
                                n, n == 1 ? "" : "s", n == 1 ? "it" : "them"));
    if (mo->cache_null_reason)
        json_array_append_new(notes, json_sprintf("monitor.cache_hit_pct is null: %s",
                                                  mo->cache_null_reason));
    int late = mo->stats_late_intervals;
    json_object_set_new(m, "stats_late_intervals", json_integer(late));
    if (mo->stats_readings > 0)
        json_object_set_new(m, "stats_readings", json_integer(mo->stats_readings));
    if (late > 0)
        json_array_append_new(
            notes, json_sprintf("the database did not answer its statistics query in time in %d "
                                "interval%s (the server was stalled or slow): %s database figures are null",
                                late, late == 1 ? "" : "s", late == 1 ? "its" : "their"));
    if (mo->db_phase_late_s > 0)
        json_array_append_new(
            notes, json_sprintf("the database's statistics at the measured phase's start came "
                                "late: the phase's cache and physical-read figures count from "
                                "%.3g s into it, its first reading that came back",
                                mo->db_phase_late_s));
    const dg_doc_server_host *sh = mo->server_host;
    if (sh) {
        json_t *j = sh->have_totals ? dg_doc_srvdelta_json(DG_DOC_SERVER_OK, &sh->totals)
                                    : dg_doc_srvdelta_json(sh->lost ? DG_DOC_SERVER_LOST
                                                                : DG_DOC_SERVER_LATE, NULL);
        json_object_set_new(j, "source", json_string(sh->source));
        json_object_set_new(j, "device", json_string(sh->device));
        json_object_set_new(j, "data_dir", json_string(sh->data_dir));
        json_object_set_new(j, "root_pid", json_integer(sh->root_pid));
        json_object_set_new(j, "late_intervals", json_integer(sh->late_intervals));
        json_object_set_new(j, "lost", json_boolean(sh->lost));
        double io = sh->have_totals ? sh->totals.disk_reads + sh->totals.disk_writes : NAN;
        json_object_set_new(j, "io_per_tx",
                            dg_json_real(sh->transactions ? io / (double)sh->transactions : NAN));
        json_object_set_new(m, "server_host", j);
        if (sh->lost)
            json_array_append_new(notes, json_sprintf("the ssh session to the server host %s ended "
                                                      "during the run: server_host figures are "
                                                      "missing from then on",
                                                      sh->source));
        if (sh->late_intervals > 0)
            json_array_append_new(notes, json_sprintf("the server host's sample came back late in "
                                                      "%d interval%s: server_host is \"late\" there",
                                                      sh->late_intervals,
                                                      sh->late_intervals == 1 ? "" : "s"));
    }
    json_object_set_new(m, "notes", notes);
    return m;
}

/* ---- load ------------------------------------------------------------------------------------ */

json_t *dg_doc_load_json(const dg_doc_load *l)
{
    json_t *load = json_object();
    json_object_set_new(load, "workload", json_string(l->workload));
    json_object_set_new(load, "scale", json_integer(l->scale));
    json_object_set_new(load, "jobs", json_integer(l->jobs));
    json_object_set_new(load, "seed", json_integer((json_int_t)l->seed));
    json_object_set_new(load, "bytes", json_integer((json_int_t)l->bytes));
    json_object_set_new(load, "bytes_measure", json_string(l->bytes_measure ? l->bytes_measure : "growth"));
    json_object_set_new(load, "data_bytes_sent", json_integer((json_int_t)l->data_bytes_sent));
    json_object_set_new(load, "db_size_bytes", json_integer(l->db_size_bytes));
    json_object_set_new(load, "seconds", dg_json_real(l->seconds));
    json_object_set_new(load, "mb_per_s",
                        dg_json_real(l->seconds > 0 ? l->bytes / 1e6 / l->seconds : NAN));
    json_t *steps = json_array();
    for (int i = 0; i < l->nsteps; i++) {
        const dg_doc_step *s = &l->steps[i];
        json_t *o = json_pack("{s:s, s:s, s:o, s:I, s:I}", "name", s->name, "kind", s->kind,
                              "seconds", dg_json_real(s->seconds), "rows", (json_int_t)s->rows,
                              "bytes", (json_int_t)s->bytes);
        json_object_set_new(o, "start_s", dg_json_real(s->start_s));
        json_object_set_new(o, "elapsed_s", dg_json_real(s->start_s + s->seconds));
        json_object_set_new(o, "page_reads", s->page_reads >= 0 ? json_integer(s->page_reads) : json_null());
        json_object_set_new(o, "page_writes", s->page_writes >= 0 ? json_integer(s->page_writes) : json_null());
        json_array_append_new(steps, o);
    }
    json_object_set_new(load, "steps", steps);
    if (l->bulk_path && *l->bulk_path)
        json_object_set_new(load, "bulk_path",
                            json_pack("{s:s, s:s?}", "path", l->bulk_path, "why",
                                      l->bulk_why && *l->bulk_why ? l->bulk_why : NULL));
    if (l->objects_read) {
        json_t *objs = json_array();
        double total = 0;
        for (int i = 0; i < l->nobjects; i++) {
            const dg_objstat *ob = &l->objects[i];
            json_t *o = json_pack("{s:s, s:s, s:s}", "table", ob->table, "name", ob->name, "kind",
                                  ob->index ? "index" : "table");
            json_object_set_new(o, "rows", ob->rows >= 0 ? json_integer(ob->rows) : json_null());
            json_object_set_new(o, "bytes", ob->bytes >= 0 ? json_integer(ob->bytes) : json_null());
            json_object_set_new(o, "depth", ob->depth > 0 ? json_integer(ob->depth) : json_null());
            json_array_append_new(objs, o);
            if (ob->bytes > 0)
                total += (double)ob->bytes;
        }
        json_object_set_new(load, "objects", objs);
        json_object_set_new(load, "objects_bytes", json_integer((json_int_t)total));
        json_object_set_new(load, "objects_seconds", dg_json_real(l->objects_seconds));
    } else {
        json_object_set_new(load, "objects", json_null());
    }
    json_t *tl = l->nticks > 0 ? json_array() : NULL;
    for (int i = 0; i < l->nticks; i++) {
        const dg_doc_load_tick *k = &l->ticks[i];
        double d = k->dur_s > 0 ? k->dur_s : NAN;
        json_t *o = json_pack("{s:o, s:o, s:I, s:I, s:o, s:o}", "t_s", dg_json_real(k->t_s),
                              "dur_s", dg_json_real(k->dur_s), "rows", (json_int_t)k->rows,
                              "bytes", (json_int_t)k->bytes, "rows_per_s",
                              dg_json_real((double)k->rows / d), "mb_per_s",
                              dg_json_real((double)k->bytes / 1e6 / d));
        json_object_set_new(o, "cpu_pct", dg_json_real(k->sys.cpu_pct));
        json_object_set_new(o, "self_cpu_pct", dg_json_real(k->sys.self_cpu_pct));
        json_object_set_new(o, "disk_read_bytes", dg_json_real(k->sys.read_bytes));
        json_object_set_new(o, "disk_write_bytes", dg_json_real(k->sys.write_bytes));
        json_object_set_new(o, "iops", dg_json_real(k->sys.iops));
        json_object_set_new(o, "step", k->step >= 0 && k->step < l->nsteps
                                           ? json_string(l->steps[k->step].name)
                                           : json_null());
        json_array_append_new(tl, o);
    }
    if (tl)
        json_object_set_new(load, "timeline", tl);
    return load;
}

/* ---- errors ---------------------------------------------------------------------------------- */

json_t *dg_doc_error_json(const char *message, const char *transaction, dg_errclass cls,
                          uint64_t count)
{
    return json_pack("{s:s, s:s, s:s, s:I}", "message", message, "transaction", transaction,
                     "class", dg_errclass_name(cls), "count", (json_int_t)count);
}

/* ---- whole documents ------------------------------------------------------------------------ */

json_t *dg_doc_load_run_json(const dg_doc_load_run *r)
{
    json_t *run = json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:I, s:i, s:s, s:b}", "workload", r->workload,
                            "workload_hash", r->workload_hash, "scale_unit", r->scale_unit,
                            "scale", (json_int_t)r->scale, "backend", r->backend, "db", r->db,
                            "seed", (json_int_t)r->seed, "jobs", r->jobs, "started_at",
                            r->started_at, "complete", !r->stop_reason);
    if (r->stop_reason)
        json_object_set_new(run, "stop_reason", json_string(r->stop_reason));
    json_object_set_new(run, "command", r->command ? json_string(r->command) : json_null());
    json_object_set_new(run, "storage", r->storage ? json_string(r->storage) : json_null());
    return run;
}

json_t *dg_doc_load_document(const dg_doc_load_run *run, const dg_server_info *si,
                             const dg_hostinfo *host, const json_t *load, const json_t *extra)
{
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "kind", json_string("load"));
    json_object_set_new(doc, "run", dg_doc_load_run_json(run));
    json_object_set_new(doc, "server", dg_doc_server_json(si));
    json_object_set_new(doc, "host", dg_doc_host_json(host));
    json_object_set_new(doc, "load", load ? json_incref((json_t *)load) : json_null());
    if (extra)
        json_object_update(doc, (json_t *)extra);
    return doc;
}

json_t *dg_doc_run_document(const dg_doc_run *run, const dg_server_info *si,
                            const dg_doc_server_ctl *ctl, const dg_hostinfo *host)
{
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "run", dg_doc_run_json(run));
    json_t *server = dg_doc_server_json(si);
    dg_doc_server_ctl_add(server, ctl);
    json_object_set_new(doc, "server", server);
    json_object_set_new(doc, "host", dg_doc_host_json(host));
    return doc;
}

void dg_doc_server_ctl_add(json_t *server, const dg_doc_server_ctl *ctl)
{
    if (ctl && ctl->n) {
        json_t *req = json_object(), *eff = json_object(), *ver = json_object();
        for (int i = 0; i < ctl->n; i++) {
            const char *name = ctl->requested[i].name, *v = ctl->effective[i];
            json_object_set_new(req, name, json_string(ctl->requested[i].value));
            json_object_set_new(eff, name, v ? json_string(v) : json_null());
            /* false: applied through the control command, but the server cannot be asked */
            json_object_set_new(ver, name, json_boolean(v != NULL));
        }
        json_object_set_new(server, "requested", req);
        json_object_set_new(server, "effective", eff);
        json_object_set_new(server, "verified", ver);
    }
}

json_t *dg_doc_sweep_extra(const json_t *point)
{
    json_t *extra = json_object();
    json_object_set_new(extra, "sweep", json_incref((json_t *)point));
    return extra;
}

static json_t *tx_array(const dg_doc_result *r, const dg_txstats *tx, bool hist)
{
    json_t *arr = json_array();
    for (int i = 0; i < r->ntx; i++)
        json_array_append_new(arr, dg_doc_tx_json(r->tx_names[i], r->tx_weights[i], &tx[i], hist));
    return arr;
}

void dg_doc_run_finish(json_t *doc, const dg_doc_result *r)
{
    json_object_set_new(doc, "run", dg_doc_run_json(r->run));
    if (r->load)
        json_object_set_new(doc, "load", json_incref((json_t *)r->load));
    json_object_set_new(doc, "totals", dg_doc_totals_json(r->totals, r->totals_s));
    json_object_set_new(doc, "warmup", dg_doc_totals_json(r->warmup, r->warmup_s));
    json_object_set_new(doc, "transactions", tx_array(r, r->tx, true));
    if (r->drain_tx)
        json_object_set_new(doc, "drain", dg_doc_drain_json(r->drain_s, r->ntx, r->drain_tx));
    if (r->metrics) {
        json_t *vals = json_object(), *units = json_object();
        for (int i = 0; i < r->nmetrics; i++) {
            json_object_set_new(vals, r->metric[i].name, dg_json_real(r->metric[i].value));
            json_object_set_new(units, r->metric[i].name, json_string(r->metric[i].unit));
        }
        json_object_set_new(doc, "workload_metrics", vals);
        json_object_set_new(doc, "workload_metric_units", units);
    }
    if (r->warmup_tx)
        json_object_set_new(doc, "warmup_transactions", tx_array(r, r->warmup_tx, false));
    json_object_set_new(doc, "intervals", json_incref((json_t *)r->intervals));
    json_object_set_new(doc, "warmup_intervals", json_incref((json_t *)r->warmup_intervals));
    if (r->schedule_lag)
        json_object_set_new(doc, "schedule_lag_ms", dg_result_latency(r->schedule_lag));
    json_object_set_new(doc, "monitor", dg_doc_monitor_json(r->monitor));
    json_t *errs = json_array();
    for (int i = 0; i < r->nerrors; i++)
        json_array_append_new(errs, dg_doc_error_json(r->errors[i].message, r->errors[i].transaction,
                                                      r->errors[i].cls, r->errors[i].count));
    json_object_set_new(doc, "errors", errs);
    json_t *warnings = json_array();
    for (int i = 0; i < r->nwarnings; i++)
        json_array_append_new(warnings, json_string(r->warnings[i]));
    json_object_set_new(doc, "warnings", warnings);
    if (r->extra)
        json_object_update(doc, (json_t *)r->extra);
}

void dg_doc_set_drivers(json_t *doc, const dg_doc_driver *d, int n, const char *command)
{
    json_t *run = json_object_get(doc, "run");
    if (!run)
        return;
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:i}", "host", d[i].host,
                                           "clock_offset_ms", dg_json_real(d[i].clock_offset_ms),
                                           "round_trip_ms", dg_json_real(d[i].round_trip_ms),
                                           "exit_status", d[i].exit_status));
    json_object_set_new(run, "drivers", a);
    if (command)
        json_object_set_new(run, "command", json_string(command));
}
