/*
 * session.c - dg_session_run: prepare the database, run the terminals with interval
 * collection and monitoring, and build the result document (DESIGN §6, docs/file-formats.md).
 *
 * The collector (the runner's calling thread) calls on_interval at each boundary: it
 * samples /proc and the database's statistics, builds the interval record and hands it
 * to the UI. Cache figures come from the server's counters when the backend has
 * database-wide ones, else from the terminals' per-connection counters
 * (DG_CAP_CONN_CACHE_STATS). Servers publish counters late, so an interval whose
 * transactions left no trace in them gets null and is counted for the note in "monitor".
 *
 * Layout: interval collection, document parts (phase totals, transactions, host, server),
 * warnings and notes, the session.
 */
#include "session/session.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/signals.h"
#include "monitor/host.h"
#include "monitor/sysstat.h"
#include "results/result.h"
#include "runner/runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* ---- interval collection (collector thread) ---------------------------------------------- */

typedef struct run_ctx {
    const dg_session_config *cfg;
    dg_conn *mon;            /* monitor connection: database statistics between intervals */
    char block_device[64];
    json_t *intervals;       /* measured */
    json_t *warm_intervals;
    dg_sysample sys_prev, sys_start[2];
    bool sys_started[2];
    dg_dbstats db_prev, db_phase_start[2];
    bool db_ok;
    int64_t cache_prev_hits, cache_prev_misses;
    int64_t cache_phase_hits[2], cache_phase_misses[2];
    int64_t measure_start_ns; /* t_end of the last warmup interval */
    int cache_unpublished;    /* measured intervals with transactions but no new server
                                 cache counters (see the note in the result's monitor) */
} run_ctx;

static double pct_or_nan(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : NAN;
}

static void all_unknown(dg_dbstats *s)
{
    memset(s, 0xff, sizeof *s); /* every counter -1 */
}

static void on_start(void *arg)
{
    run_ctx *c = arg;
    dg_sysample_take(c->block_device, &c->sys_prev);
    c->sys_start[0] = c->sys_prev;
    c->sys_started[0] = true;
    c->db_ok = dg_stats(c->mon, &c->db_prev, NULL) == 0;
    c->db_phase_start[0] = c->db_prev;
    c->cache_prev_hits = c->cache_prev_misses = -1;
}

/* Cache hit ratio and physical reads between two database samples (database-wide
 * counters) or the summed per-connection counters. */
static void cache_delta(const run_ctx *c, const dg_dbstats *a, const dg_dbstats *b,
                        int64_t conn_hits, int64_t conn_misses, int64_t conn_prev_hits,
                        int64_t conn_prev_misses, double *hit_pct, double *misses)
{
    *hit_pct = NAN;
    *misses = NAN;
    if (c->db_ok && a->cache_hits >= 0 && b->cache_hits >= 0 && a->cache_misses >= 0 &&
        b->cache_misses >= 0) {
        double h = (double)(b->cache_hits - a->cache_hits);
        double m = (double)(b->cache_misses - a->cache_misses);
        *hit_pct = pct_or_nan(h, h + m);
        *misses = m;
    } else if (conn_hits >= 0 && conn_prev_hits >= 0) {
        double h = (double)(conn_hits - conn_prev_hits);
        double m = (double)(conn_misses - conn_prev_misses);
        if (h >= 0 && m >= 0) {
            *hit_pct = pct_or_nan(h, h + m);
            *misses = m;
        }
    }
}

static json_t *interval_json(const dg_session_config *cfg, const dg_interval_report *iv,
                             double t_s, const dg_sysdelta *sd, const dg_dbstats *db,
                             double hit_pct, double misses)
{
    double secs = (double)iv->dur_ns / DG_NS_PER_S;
    double tps = secs > 0 ? (double)iv->all->count / secs : 0;
    json_t *j = json_object();
    json_object_set_new(j, "t_s", dg_json_real(round(t_s * 1000) / 1000));
    json_object_set_new(j, "dur_s", dg_json_real(secs));
    json_object_set_new(j, "transactions", json_integer((json_int_t)iv->all->count));
    json_object_set_new(j, "tps", dg_json_real(tps));
    json_object_set_new(j, "errors", json_integer((json_int_t)iv->all->errors));
    json_object_set_new(j, "retries", json_integer((json_int_t)iv->all->retries));
    json_object_set_new(j, "rollbacks", json_integer((json_int_t)iv->all->rollbacks));
    const dg_hist *lat = &iv->all->lat;
    json_object_set_new(
        j, "latency_ms",
        iv->all->count
            ? json_pack("{s:o, s:o, s:o, s:o, s:o}", "p50",
                        dg_json_real((double)dg_hist_percentile(lat, 50) / 1e6), "p95",
                        dg_json_real((double)dg_hist_percentile(lat, 95) / 1e6), "p99",
                        dg_json_real((double)dg_hist_percentile(lat, 99) / 1e6), "avg",
                        dg_json_real(dg_hist_mean(lat) / 1e6), "max",
                        dg_json_real((double)lat->max_ns / 1e6))
            : json_pack("{s:n, s:n, s:n, s:n, s:n}", "p50", "p95", "p99", "avg", "max"));
    json_t *txc = json_object();
    for (int i = 0; i < iv->ntx; i++)
        json_object_set_new(txc, cfg->wl->tx[i].name, json_integer((json_int_t)iv->tx[i].count));
    json_object_set_new(j, "tx", txc);
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
    json_object_set_new(j, "cache_hit_pct", dg_json_real(hit_pct));
    json_object_set_new(j, "physical_reads_per_tx",
                        dg_json_real(iv->all->count ? misses / (double)iv->all->count : NAN));
    json_object_set_new(j, "db_size_bytes",
                        db->db_size_bytes >= 0 ? json_integer(db->db_size_bytes) : json_null());
    json_object_set_new(j, "reconnects", json_integer((json_int_t)iv->reconnects));
    json_object_set_new(j, "downtime_s", dg_json_real((double)iv->downtime_ns / DG_NS_PER_S));
    json_object_set_new(j, "active_terminals", json_integer(iv->active_terminals));
    if (cfg->rate_tps > 0)
        json_object_set_new(j, "schedule_lag_ms_p99",
                            dg_json_real((double)dg_hist_percentile(iv->lag, 99) / 1e6));
    return j;
}

static void on_interval(void *arg, const dg_interval_report *iv)
{
    run_ctx *c = arg;
    dg_sysample now;
    dg_sysample_take(c->block_device, &now);
    dg_sysdelta sd;
    dg_sysample_delta(&c->sys_prev, &now, &sd);
    c->sys_prev = now;
    dg_dbstats db;
    all_unknown(&db);
    if (c->db_ok && dg_stats(c->mon, &db, NULL) != 0)
        all_unknown(&db);
    double hit_pct, misses;
    cache_delta(c, &c->db_prev, &db, iv->cache_hits, iv->cache_misses, c->cache_prev_hits,
                c->cache_prev_misses, &hit_pct, &misses);
    bool warm = iv->phase == DG_PHASE_WARMUP;
    if (!warm && iv->all->count > 0 && isnan(hit_pct) && db.cache_hits >= 0)
        c->cache_unpublished++;
    c->db_prev = db;
    c->cache_prev_hits = iv->cache_hits;
    c->cache_prev_misses = iv->cache_misses;

    double t_s = warm ? (double)iv->t_end_ns / DG_NS_PER_S
                      : (double)(iv->t_end_ns - c->measure_start_ns) / DG_NS_PER_S;
    if (warm) {
        c->measure_start_ns = iv->t_end_ns;
        /* the measured phase starts here: remember the counters for phase totals */
        c->sys_start[1] = now;
        c->sys_started[1] = true;
        c->db_phase_start[1] = db;
        c->cache_phase_hits[1] = iv->cache_hits;
        c->cache_phase_misses[1] = iv->cache_misses;
    }
    json_t *j = interval_json(c->cfg, iv, t_s, &sd, &db, hit_pct, misses);
    const dg_session_ui *ui = c->cfg->ui;
    if (ui && ui->interval)
        ui->interval(ui->arg, j, warm);
    json_array_append_new(warm ? c->warm_intervals : c->intervals, j);
}

/* ---- document parts ------------------------------------------------------------------------ */

static json_t *phase_totals(const dg_run_stats *st, int phase)
{
    double secs = (double)st->phase_ns[phase] / DG_NS_PER_S;
    const dg_txstats *a = &st->all[phase];
    return json_pack("{s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:o}", "transactions", (json_int_t)a->count,
                     "tps", dg_json_real(secs > 0 ? (double)a->count / secs : NAN), "errors",
                     (json_int_t)a->errors, "retries", (json_int_t)a->retries, "retried",
                     (json_int_t)a->retried, "rollbacks", (json_int_t)a->rollbacks,
                     "unknown_outcome", (json_int_t)a->unknown, "duration_s", dg_json_real(secs));
}

static json_t *tx_array(const dg_run_stats *st, const dg_workload *wl, int phase, bool hist)
{
    json_t *arr = json_array();
    for (int i = 0; i < st->ntx; i++) {
        const dg_txstats *t = &st->tx[phase][i];
        json_t *j = json_pack("{s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:o}", "name", wl->tx[i].name,
                              "weight", dg_json_real(wl->tx[i].weight), "count", (json_int_t)t->count,
                              "errors", (json_int_t)t->errors, "retries", (json_int_t)t->retries,
                              "retried", (json_int_t)t->retried, "rollbacks",
                              (json_int_t)t->rollbacks, "latency_ms", dg_result_latency(&t->lat));
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
        json_array_append_new(arr, j);
    }
    return arr;
}

/* The machine's facts, with the filesystem and disk of the connection's data file (a
 * server's data directory is not known from the client). */
static json_t *host_json(const dg_conn *conn)
{
    dg_hostinfo h;
    dg_host_info(conn->data_path, &h);
    return json_pack("{s:s, s:s, s:i, s:I, s:s, s:s, s:s, s:s, s:s, s:s}", "hostname", h.hostname,
                     "cpu_model", h.cpu_model, "cores", h.cores, "ram_bytes", (json_int_t)h.ram_bytes,
                     "kernel", h.kernel, "arch", h.arch, "filesystem", h.fs_type, "fs_device",
                     h.fs_device, "mount_point", h.mount_point, "block_device", h.block_device);
}

static json_t *server_json(const dg_server_info *si)
{
    json_t *settings = json_object();
    for (int i = 0; i < si->nsettings; i++)
        json_object_set_new(settings, si->settings[i].name, json_string(si->settings[i].value));
    return json_pack("{s:s, s:o}", "version", si->version, "settings", settings);
}

/* "run": what was asked, and (when st is not NULL) how it ended. */
static json_t *run_json(const dg_session_config *cfg, const dg_conn *conn, const dg_run_stats *st)
{
    const dg_workload *wl = cfg->wl;
    json_t *run = json_pack(
        "{s:s, s:s, s:I, s:s, s:s, s:I, s:o, s:I, s:o, s:o, s:I, s:s, s:o, s:o, s:b, s:I}",
        "workload", wl->name, "workload_hash", wl->hash, "scale", (json_int_t)wl->scale, "backend",
        conn->be->name, "db", conn->url_redacted, "terminals", (json_int_t)cfg->terminals,
        "duration_s",
        cfg->transactions ? json_null() : dg_json_real((double)cfg->duration_ns / DG_NS_PER_S),
        "transactions_per_terminal", (json_int_t)cfg->transactions, "warmup_s",
        dg_json_real((double)cfg->warmup_ns / DG_NS_PER_S), "interval_s",
        dg_json_real((double)cfg->interval_ns / DG_NS_PER_S), "seed", (json_int_t)cfg->seed,
        "command", cfg->command_line ? cfg->command_line : "", "rate_tps",
        cfg->rate_tps > 0 ? dg_json_real(cfg->rate_tps) : json_null(), "think_time_ms",
        cfg->think_ns > 0 ? dg_json_real((double)cfg->think_ns / 1e6) : json_null(),
        "think_time_exponential", cfg->think_exponential, "max_tries", (json_int_t)cfg->max_tries);
    if (st) {
        char started[32];
        dg_format_iso8601(st->started_wall_ns, started, sizeof started);
        json_object_set_new(run, "started_at", json_string(started));
        json_object_set_new(run, "complete", json_boolean(st->complete));
        json_object_set_new(run, "stop_reason", json_string(st->stop_reason));
        json_object_set_new(run, "aborted_terminals", json_integer(st->aborted_terminals));
    }
    json_object_set_new(run, "scale_unit", json_string(wl->scale_unit));
    json_object_set_new(run, "keying_think", json_boolean(cfg->keying_think));
    json_t *settings = json_object();
    for (int i = 0; i < cfg->nsettings; i++)
        json_object_set_new(settings, cfg->settings[i].name, json_string(cfg->settings[i].value));
    json_object_set_new(run, "conn_settings", settings);
    json_t *mix = json_object();
    for (int i = 0; i < wl->ntx; i++)
        json_object_set_new(mix, wl->tx[i].name, dg_json_real(wl->tx[i].weight));
    json_object_set_new(run, "mix", mix);
    return run;
}

static json_t *monitor_json(const run_ctx *ctx, const dg_run_stats *st, const dg_dbstats *db_before,
                            const dg_dbstats *db_after)
{
    dg_sysample end;
    dg_sysample_take(ctx->block_device, &end);
    int ph = ctx->sys_started[1] ? 1 : 0;
    dg_sysdelta sd;
    dg_sysample_delta(&ctx->sys_start[ph], &end, &sd);
    const dg_dbstats *dbs = &ctx->db_phase_start[ph];
    double hit, misses;
    int64_t ph_hits = ph ? ctx->cache_phase_hits[1] : 0, ph_misses = ph ? ctx->cache_phase_misses[1] : 0;
    cache_delta(ctx, dbs, db_after, st->cache_hits, st->cache_misses, ph_hits, ph_misses, &hit,
                &misses);
    double n = (double)st->all[DG_PHASE_MEASURE].count;
    json_t *m = json_object();
    json_object_set_new(m, "cpu_pct", dg_json_real(sd.cpu_pct));
    json_object_set_new(m, "cpu_user_pct", dg_json_real(sd.user_pct));
    json_object_set_new(m, "cpu_sys_pct", dg_json_real(sd.sys_pct));
    json_object_set_new(m, "cpu_iowait_pct", dg_json_real(sd.iowait_pct));
    json_object_set_new(m, "self_cpu_pct", dg_json_real(sd.self_cpu_pct));
    json_object_set_new(m, "self_cpu_us_per_tx",
                        dg_json_real(n > 0 ? sd.self_cpu_pct / 100.0 * sd.seconds * 1e6 / n : NAN));
    json_object_set_new(m, "disk_reads", dg_json_real(sd.disk_reads));
    json_object_set_new(m, "disk_writes", dg_json_real(sd.disk_writes));
    json_object_set_new(m, "iops", dg_json_real(sd.iops));
    json_object_set_new(m, "cache_hit_pct", dg_json_real(hit));
    json_object_set_new(m, "physical_reads_per_tx", dg_json_real(n > 0 ? misses / n : NAN));
    json_object_set_new(m, "db_size_before_bytes",
                        db_before->db_size_bytes >= 0 ? json_integer(db_before->db_size_bytes) : json_null());
    json_object_set_new(m, "db_size_after_bytes",
                        db_after->db_size_bytes >= 0 ? json_integer(db_after->db_size_bytes) : json_null());
    if (db_before->commits >= 0 && db_after->commits >= 0)
        json_object_set_new(m, "server_commits", json_integer(db_after->commits - db_before->commits));
    json_object_set_new(m, "reconnects", json_integer((json_int_t)st->reconnects));
    json_object_set_new(m, "downtime_s", dg_json_real((double)st->downtime_ns / DG_NS_PER_S));
    json_object_set_new(m, "block_device", json_string(ctx->block_device));
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) /* ru_maxrss is in KiB on Linux */
        json_object_set_new(m, "self_max_rss_bytes", json_integer((json_int_t)ru.ru_maxrss * 1024));
    /* Servers publish their counters late (PostgreSQL: each backend at most once a
     * second), so a short interval can see none of its own reads: its figure is null,
     * never a guess. The run-level figure is the whole phase's delta. */
    json_object_set_new(m, "cache_hit_null_intervals", json_integer(ctx->cache_unpublished));
    json_t *notes = json_array();
    if (ctx->cache_unpublished > 0)
        json_array_append_new(
            notes, json_sprintf("cache_hit_pct is null in %d interval%s: the server published no "
                                "new cache counters during %s (servers update their statistics "
                                "with a delay; monitor.cache_hit_pct covers the whole run)",
                                ctx->cache_unpublished, ctx->cache_unpublished == 1 ? "" : "s",
                                ctx->cache_unpublished == 1 ? "it" : "them"));
    json_object_set_new(m, "notes", notes);
    return m;
}

/* ---- warnings ------------------------------------------------------------------------------ */

/* Signs that the driver, not the database, limited the run. An embedded database runs
 * inside dbgauge's process, so its CPU is not the driver's: no CPU warning then. */
static json_t *driver_warnings(const json_t *doc, const dg_conn *conn, const dg_session_config *cfg)
{
    json_t *w = json_array();
    double self = dg_res_num(doc, "monitor.self_cpu_pct", NAN);
    double per_term = self / (double)cfg->terminals;
    if (!dg_has_cap(conn, DG_CAP_EMBEDDED) && isfinite(per_term) && per_term > 80)
        json_array_append_new(
            w, json_sprintf("dbgauge itself used %.0f%% of a core per terminal: the driver may have "
                            "limited the throughput (fewer terminals per core, or a faster client "
                            "machine)",
                            per_term));
    const json_t *iv = dg_res_get(doc, "intervals");
    size_t n = json_array_size(iv);
    if (cfg->rate_tps > 0 && n >= 3) {
        size_t third = n / 3;
        double first = 0, last = 0;
        for (size_t i = 0; i < third; i++) {
            first = fmax(first, dg_res_num(json_array_get(iv, i), "schedule_lag_ms_p99", 0));
            last = fmax(last, dg_res_num(json_array_get(iv, n - 1 - i), "schedule_lag_ms_p99", 0));
        }
        if (last > 10 && last > 2 * first)
            json_array_append_new(
                w, json_sprintf("the schedule lag grew from %.1f ms to %.1f ms (p99): the terminals "
                                "could not keep the rate of %.0f tps; latency includes the backlog",
                                first, last, cfg->rate_tps));
    }
    return w;
}

/* ---- the session ----------------------------------------------------------------------------- */

static void on_signal(int signo)
{
    dg_run_request_stop(signo);
}

int dg_session_run(const dg_session_config *cfg, json_t **doc_out, dg_session_stage *stage,
                   dg_err *err)
{
    dg_workload *wl = cfg->wl;
    *doc_out = NULL;
    *stage = DG_STAGE_SETUP;
    if (cfg->keying_think && !wl->ops->pause_ns)
        return dg_err_fail(err, DG_E_INVAL, "workload '%s' has no keying and think times (--keying-think)",
                           wl->name);
    dg_conn *conn = NULL;
    json_t *load = NULL, *doc = NULL;
    run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    dg_run_stats st;
    memset(&st, 0, sizeof st);
    bool have_stats = false;
    int rc = dg_session_connect(cfg, false, &conn, err);
    if (rc)
        goto out;
    int64_t wanted_scale = wl->scale;
    if ((rc = dg_session_prepare(cfg, conn, DG_PREPARE_RUN, &load, stage, err)) != 0)
        goto out;
    if (wl->scale_given && wanted_scale != wl->scale && wl->tables)
        dg_log_warn("--scale %lld ignored: the database holds scale %lld", (long long)wanted_scale,
                    (long long)wl->scale);

    dg_server_info si;
    memset(&si, 0, sizeof si);
    dg_err e = DG_ERR_INIT;
    if (dg_server_info_get(conn, &si, &e))
        dg_log_warn("cannot read server settings: %s", e.msg);
    dg_dbstats db_before;
    if (dg_stats(conn, &db_before, NULL))
        all_unknown(&db_before);

    ctx.cfg = cfg;
    ctx.mon = conn;
    ctx.intervals = json_array();
    ctx.warm_intervals = json_array();
    doc = dg_result_new();
    json_t *host = host_json(conn);
    snprintf(ctx.block_device, sizeof ctx.block_device, "%s", dg_res_str(host, "block_device"));
    json_object_set_new(doc, "run", run_json(cfg, conn, NULL));
    json_object_set_new(doc, "server", server_json(&si));
    json_object_set_new(doc, "host", host);
    if (cfg->ui && cfg->ui->begin)
        cfg->ui->begin(cfg->ui->arg, doc);

    dg_connopts co = {.settings = cfg->settings, .nsettings = cfg->nsettings,
                      .application_name = "dbgauge"};
    dg_run_config rcfg = {
        .url = cfg->db,
        .connopts = &co,
        .terminals = cfg->terminals,
        .duration_ns = cfg->transactions ? 0 : cfg->duration_ns,
        .transactions = cfg->transactions,
        .warmup_ns = cfg->warmup_ns,
        .interval_ns = cfg->interval_ns,
        .rate_tps = cfg->rate_tps,
        .think_ns = cfg->think_ns,
        .think_exponential = cfg->think_exponential,
        .max_tries = cfg->max_tries,
        .seed = cfg->seed,
        .on_interval = on_interval,
        .on_start = on_start,
        .arg = &ctx,
    };
    dg_sigsave saved;
    dg_signals_catch(on_signal, &saved);
    dg_run_clear_stop();
    rc = dg_run(&rcfg, wl, &st, err);
    dg_signals_restore(&saved);
    have_stats = true;
    if (rc) {
        *stage = DG_STAGE_RUN;
        dg_err_prefix(err, "cannot start the run");
        goto out;
    }

    /* ---- the result document ---- */
    dg_dbstats db_after;
    if (dg_stats(conn, &db_after, NULL))
        all_unknown(&db_after);
    json_object_set_new(doc, "run", run_json(cfg, conn, &st));
    if (load)
        json_object_set_new(doc, "load", json_incref(load));
    json_object_set_new(doc, "totals", phase_totals(&st, DG_PHASE_MEASURE));
    json_object_set_new(doc, "warmup", phase_totals(&st, DG_PHASE_WARMUP));
    json_object_set_new(doc, "transactions", tx_array(&st, wl, DG_PHASE_MEASURE, true));
    if (wl->ops->metrics) { /* tpmC and the like, from the measured phase */
        dg_metric wm[DG_MAX_METRICS];
        int nm = wl->ops->metrics(wl, st.tx[DG_PHASE_MEASURE],
                                  (double)st.phase_ns[DG_PHASE_MEASURE] / DG_NS_PER_S, wm,
                                  DG_MAX_METRICS);
        json_t *vals = json_object(), *units = json_object();
        for (int i = 0; i < nm; i++) {
            json_object_set_new(vals, wm[i].name, dg_json_real(wm[i].value));
            json_object_set_new(units, wm[i].name, json_string(wm[i].unit));
        }
        json_object_set_new(doc, "workload_metrics", vals);
        json_object_set_new(doc, "workload_metric_units", units);
    }
    if (cfg->warmup_ns > 0)
        json_object_set_new(doc, "warmup_transactions", tx_array(&st, wl, DG_PHASE_WARMUP, false));
    json_object_set_new(doc, "intervals", json_incref(ctx.intervals));
    json_object_set_new(doc, "warmup_intervals", json_incref(ctx.warm_intervals));
    if (cfg->rate_tps > 0)
        json_object_set_new(doc, "schedule_lag_ms", dg_result_latency(&st.lag[DG_PHASE_MEASURE]));
    json_object_set_new(doc, "monitor", monitor_json(&ctx, &st, &db_before, &db_after));
    json_t *errs = json_array();
    for (int i = 0; i < st.nerrors; i++)
        json_array_append_new(errs, json_pack("{s:s, s:s, s:s, s:I}", "message", st.errors[i].msg,
                                              "transaction", st.errors[i].tx, "class",
                                              dg_errclass_name(st.errors[i].cls), "count",
                                              (json_int_t)st.errors[i].count));
    json_object_set_new(doc, "errors", errs);
    json_object_set_new(doc, "warnings", driver_warnings(doc, conn, cfg));
    if (cfg->extra)
        json_object_update(doc, (json_t *)cfg->extra);
    *doc_out = doc;
    doc = NULL;
    rc = 0;
out:
    if (have_stats)
        dg_run_stats_free(&st);
    json_decref(ctx.intervals);
    json_decref(ctx.warm_intervals);
    json_decref(doc);
    json_decref(load);
    dg_conn_close(conn);
    return rc;
}
