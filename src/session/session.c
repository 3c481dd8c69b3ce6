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
 * The document's fields are named in results/doc.c; this file gathers the figures.
 *
 * Layout: interval collection, document parts (transactions, host, run, monitor),
 * warnings, the session.
 */
#include "session/session.h"

#include "session/load.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/signals.h"
#include "core/stop.h"
#include "core/xalloc.h"
#include "monitor/host.h"
#include "monitor/sysstat.h"
#include "results/doc.h"
#include "results/result.h"
#include "runner/runner.h"
#include "session/sampler.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

/* ---- interval collection (collector thread) ---------------------------------------------- */

typedef struct run_ctx {
    const dg_session_config *cfg;
    dg_sampler *sampler;     /* reads the monitor connection's statistics on its own thread */
    int64_t sampler_calls;   /* its readings, counted when it stopped (-1: none) */
    int64_t sample_wait_ns;  /* how long an interval waits for its sample */
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
    int stats_late;           /* intervals whose statistics the server did not return in
                                 time (a stalled server), or that follow one (their delta
                                 has no start) */
    bool prev_ok;             /* the previous interval's sample came back */
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
    c->db_ok = c->sampler && dg_sampler_take(c->sampler, dg_now_ns() + 5 * DG_NS_PER_S, &c->db_prev);
    c->prev_ok = c->db_ok;
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
    const dg_hist *lat = &iv->all->lat;
    bool any = iv->all->count > 0;
    int ntx = iv->ntx;
    uint64_t *counts = xcalloc((size_t)ntx + 1, sizeof *counts);
    const char **names = xcalloc((size_t)ntx + 1, sizeof *names);
    for (int i = 0; i < ntx; i++) {
        names[i] = cfg->wl->tx[i].name;
        counts[i] = iv->tx[i].count;
    }
    dg_doc_interval d = {
        .t_s = t_s,
        .dur_s = (double)iv->dur_ns / DG_NS_PER_S,
        .transactions = iv->all->count,
        .errors = iv->all->errors,
        .retries = iv->all->retries,
        .rollbacks = iv->all->rollbacks,
        .p50_ms = any ? (double)dg_hist_percentile(lat, 50) / 1e6 : NAN,
        .p95_ms = any ? (double)dg_hist_percentile(lat, 95) / 1e6 : NAN,
        .p99_ms = any ? (double)dg_hist_percentile(lat, 99) / 1e6 : NAN,
        .avg_ms = any ? dg_hist_mean(lat) / 1e6 : NAN,
        .max_ms = any ? (double)lat->max_ns / 1e6 : NAN,
        .ntx = ntx,
        .tx_names = names,
        .tx_counts = counts,
        .sys = *sd,
        .cache_hit_pct = hit_pct,
        .physical_reads = misses,
        .db_size_bytes = db->db_size_bytes,
        .reconnects = iv->reconnects,
        .downtime_s = (double)iv->downtime_ns / DG_NS_PER_S,
        .active_terminals = iv->active_terminals,
        .lag_p99_ms = cfg->rate_tps > 0 ? (double)dg_hist_percentile(iv->lag, 99) / 1e6 : NAN,
    };
    json_t *j = dg_doc_interval_json(&d);
    free(counts);
    free(names);
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
    bool have = c->db_ok && dg_sampler_take(c->sampler, dg_now_ns() + c->sample_wait_ns, &db);
    double hit_pct, misses;
    cache_delta(c, &c->db_prev, &db, iv->cache_hits, iv->cache_misses, c->cache_prev_hits,
                c->cache_prev_misses, &hit_pct, &misses);
    bool warm = iv->phase == DG_PHASE_WARMUP;
    if (!warm && c->db_ok && (!have || !c->prev_ok))
        c->stats_late++;
    else if (!warm && iv->all->count > 0 && isnan(hit_pct) && db.cache_hits >= 0)
        c->cache_unpublished++;
    c->prev_ok = have;
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

static json_t *tx_array(const dg_run_stats *st, const dg_workload *wl, int phase, bool hist)
{
    json_t *arr = json_array();
    for (int i = 0; i < st->ntx; i++)
        json_array_append_new(arr, dg_doc_tx_json(wl->tx[i].name, wl->tx[i].weight, &st->tx[phase][i], hist));
    return arr;
}

/* "drain": what completed after the deadline, by type. */
static json_t *drain_json(const dg_run_stats *st, const dg_workload *wl)
{
    dg_doc_drain_tx *tx = xcalloc((size_t)st->ntx + 1, sizeof *tx);
    for (int i = 0; i < st->ntx; i++)
        tx[i] = (dg_doc_drain_tx){.name = wl->tx[i].name,
                                  .count = st->drain[i].count,
                                  .rollbacks = st->drain[i].rollbacks,
                                  .errors = st->drain[i].errors,
                                  .unknown = st->drain[i].unknown};
    json_t *j = dg_doc_drain_json((double)st->drain_ns / DG_NS_PER_S, st->ntx, tx);
    free(tx);
    return j;
}

/* The machine's facts, with the filesystem and disk of the connection's data file (a
 * server's data directory is not known from the client). */
static json_t *host_json(const dg_conn *conn)
{
    dg_hostinfo h;
    dg_host_info(conn->data_path, &h);
    return dg_doc_host_json(&h);
}

/* "run": what was asked, and (when st is not NULL) how it ended. */
static json_t *run_json(const dg_session_config *cfg, const dg_conn *conn, const dg_run_stats *st)
{
    const dg_workload *wl = cfg->wl;
    int ntx = wl->ntx;
    const char **names = xcalloc((size_t)ntx + 1, sizeof *names);
    double *weights = xcalloc((size_t)ntx + 1, sizeof *weights);
    for (int i = 0; i < ntx; i++) {
        names[i] = wl->tx[i].name;
        weights[i] = wl->tx[i].weight;
    }
    char started[32] = "";
    if (st)
        dg_format_iso8601(st->started_wall_ns, started, sizeof started);
    dg_doc_run r = {
        .workload = wl->name,
        .workload_hash = wl->hash,
        .scale_unit = wl->scale_unit,
        .storage = wl->storage,
        .execution = wl->execution,
        .scale = wl->scale,
        .backend = conn->be->name,
        .db = conn->url_redacted,
        .terminals = cfg->terminals,
        .duration_s = cfg->transactions ? NAN : (double)cfg->duration_ns / DG_NS_PER_S,
        .transactions_per_terminal = cfg->transactions,
        .warmup_s = (double)cfg->warmup_ns / DG_NS_PER_S,
        .interval_s = (double)cfg->interval_ns / DG_NS_PER_S,
        .seed = cfg->seed,
        .command = cfg->command_line,
        .rate_tps = cfg->rate_tps,
        .think_time_ms = (double)cfg->think_ns / 1e6,
        .think_time_exponential = cfg->think_exponential,
        .max_tries = cfg->max_tries,
        .keying_think = cfg->keying_think,
        .conn_settings = cfg->settings,
        .nconn_settings = cfg->nsettings,
        .ntx = ntx,
        .tx_names = names,
        .tx_weights = weights,
        .finished = st != NULL,
        .started_at = started,
        .complete = st && st->complete,
        .stop_reason = st ? st->stop_reason : NULL,
        .aborted_terminals = st ? st->aborted_terminals : 0,
        .interrupted_terminals = st ? st->interrupted_terminals : 0,
        .overrun_s = st ? (double)st->drain_ns / DG_NS_PER_S : 0,
        .connect_s = st ? (double)st->connect_ns / DG_NS_PER_S : NAN,
        .workers = cfg->workers,
        .pipeline = cfg->pipeline,
        .engine_timers = st ? st->sched.timers : 0,
        .engine_lag_avg_ms = st && st->sched.timers
                                 ? (double)st->sched.lag_sum_ns / (double)st->sched.timers / 1e6
                                 : NAN,
        .engine_lag_max_ms = st && st->sched.timers ? (double)st->sched.lag_max_ns / 1e6 : NAN,
        .close_s = st ? (double)st->close_ns / DG_NS_PER_S : NAN,
    };
    json_t *j = dg_doc_run_json(&r);
    free(names);
    free(weights);
    return j;
}

static json_t *monitor_json(const run_ctx *ctx, const dg_run_stats *st, const dg_dbstats *db_before,
                            const dg_dbstats *db_after)
{
    dg_sysample end;
    dg_sysample_take(ctx->block_device, &end);
    int ph = ctx->sys_started[1] ? 1 : 0;
    dg_doc_monitor m = {.block_device = ctx->block_device, .self_max_rss_bytes = -1};
    dg_sysample_delta(&ctx->sys_start[ph], &end, &m.sys);
    double hit, misses;
    int64_t ph_hits = ph ? ctx->cache_phase_hits[1] : 0, ph_misses = ph ? ctx->cache_phase_misses[1] : 0;
    cache_delta(ctx, &ctx->db_phase_start[ph], db_after, st->cache_hits, st->cache_misses, ph_hits,
                ph_misses, &hit, &misses);
    double n = (double)st->all[DG_PHASE_MEASURE].count;
    m.self_cpu_us_per_tx = n > 0 ? m.sys.self_cpu_pct / 100.0 * m.sys.seconds * 1e6 / n : NAN;
    m.cache_hit_pct = hit;
    m.physical_reads_per_tx = n > 0 ? misses / n : NAN;
    m.db_size_before_bytes = db_before->db_size_bytes;
    m.db_size_after_bytes = db_after->db_size_bytes;
    m.server_commits = db_before->commits >= 0 && db_after->commits >= 0
                           ? db_after->commits - db_before->commits
                           : -1;
    m.reconnects = st->reconnects;
    m.downtime_s = (double)st->downtime_ns / DG_NS_PER_S;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) /* ru_maxrss is in KiB on Linux */
        m.self_max_rss_bytes = (int64_t)ru.ru_maxrss * 1024;
    m.cache_hit_null_intervals = ctx->cache_unpublished;
    m.stats_late_intervals = ctx->stats_late;
    m.stats_readings = ctx->sampler_calls;
    return dg_doc_monitor_json(&m);
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

/* Every terminal holds a connection (a socket; an engine in the process opens files of
 * its own: SQLite's database, WAL and shared memory, with room for a temporary file):
 * raise the soft open-files limit towards the hard one when the default (often 1024) is
 * too low for the terminals asked, as pgbench does; warn when even the hard limit is too
 * low. */
static void raise_nofile(int terminals, bool embedded)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    rlim_t want = (rlim_t)terminals * (embedded ? 4 : 1) + 64;
    if (rl.rlim_cur >= want)
        return;
    rlim_t cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ? want : rl.rlim_max;
    struct rlimit nr = {.rlim_cur = cur, .rlim_max = rl.rlim_max};
    if (setrlimit(RLIMIT_NOFILE, &nr) != 0 || cur < want)
        dg_log_warn("%d terminals may need %llu open files, but the limit is %llu (ulimit -n): "
                    "some may fail to connect",
                    terminals, (unsigned long long)want,
                    (unsigned long long)(cur < rl.rlim_cur ? rl.rlim_cur : cur));
}

/* server.requested: what --server-ctl set; server.effective: what the server shows for
 * each (null when the engine cannot tell a client). A value shown differently (16MB
 * set, 2048 pages shown...) is not judged here: a differing value is warned about only
 * when neither side is a number with a unit, where the spelling is the server's own. */
static void server_settings_json(dg_conn *conn, const dg_server_info *si, const dg_session_config *cfg,
                                 json_t *server)
{
    json_t *req = json_object(), *eff = json_object();
    for (int i = 0; i < cfg->nserver_settings; i++) {
        const dg_setting *s = &cfg->server_settings[i];
        char v[256];
        dg_err e = DG_ERR_INIT;
        json_object_set_new(req, s->name, json_string(s->value));
        int rc = dg_server_setting(conn, si, s->name, v, sizeof v, &e);
        if (rc != 0) {
            if (rc != DG_E_UNSUPPORTED)
                dg_log_warn("cannot read back server setting %s: %s", s->name, e.msg);
            json_object_set_new(eff, s->name, json_null());
            continue;
        }
        json_object_set_new(eff, s->name, json_string(v));
        bool words = !isdigit((unsigned char)v[0]) && !isdigit((unsigned char)s->value[0]);
        if (words && strcasecmp(v, s->value))
            dg_log_warn("server setting %s was set to %s but the server runs with %s", s->name,
                        s->value, v);
    }
    json_object_set_new(server, "requested", req);
    json_object_set_new(server, "effective", eff);
}

static void on_signal(int signo)
{
    dg_run_request_stop(signo);
}

/* The document of a load (kind "load"): the server, the host and the "load" object
 * (borrowed: a reference is taken); reason NULL: complete, else why it is not. */
static json_t *load_document(const dg_session_config *cfg, dg_conn *conn, json_t *load,
                             const char *started, const char *reason)
{
    dg_server_info si;
    memset(&si, 0, sizeof si);
    dg_err e = DG_ERR_INIT;
    if (!reason && dg_server_info_get(conn, &si, &e)) /* stopped: the server may not answer */
        dg_log_warn("cannot read server settings: %s", e.msg);
    const dg_workload *wl = cfg->wl;
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "kind", json_string("load"));
    json_t *run = json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:I, s:i, s:s, s:b}", "workload", wl->name,
                            "workload_hash", wl->hash, "scale_unit", wl->scale_unit,
                            "scale", (json_int_t)wl->scale, "backend", conn->be->name, "db",
                            conn->url_redacted, "seed", (json_int_t)cfg->seed, "jobs",
                            cfg->jobs > 0 ? cfg->jobs : 1, "started_at", started, "complete", !reason);
    if (reason)
        json_object_set_new(run, "stop_reason", json_string(reason));
    json_object_set_new(run, "command", cfg->command_line ? json_string(cfg->command_line) : json_null());
    json_object_set_new(run, "storage", wl->storage ? json_string(wl->storage) : json_null());
    json_object_set_new(doc, "run", run);
    json_object_set_new(doc, "server", dg_doc_server_json(&si));
    json_object_set_new(doc, "host", host_json(conn));
    json_object_set_new(doc, "load", load ? json_incref(load) : json_null());
    if (cfg->extra)
        json_object_update(doc, (json_t *)cfg->extra);
    return doc;
}

static const char *stop_reason(void)
{
    int sig = dg_stop_signal();
    return sig == SIGINT ? "interrupted (SIGINT)" : sig == SIGTERM ? "interrupted (SIGTERM)"
                                                                   : "interrupted";
}

int dg_session_load_doc(const dg_session_config *cfg, json_t **doc_out, dg_session_stage *stage,
                        dg_err *err)
{
    *doc_out = NULL;
    *stage = DG_STAGE_SETUP;
    dg_conn *conn = NULL;
    json_t *load = NULL;
    /* SIGINT and SIGTERM stop whatever phase is under way, for the whole session */
    dg_sigsave saved;
    dg_run_clear_stop();
    dg_signals_catch(on_signal, &saved);
    int rc = dg_session_connect(cfg, true, &conn, err);
    if (rc)
        goto out;
    char started[32];
    dg_format_iso8601(dg_wall_ns(), started, sizeof started);
    rc = dg_session_prepare(cfg, conn, DG_PREPARE_LOAD, &load, stage, err);
    if (rc == DG_E_STOPPED && load) { /* what was loaded, marked incomplete */
        *doc_out = load_document(cfg, conn, load, started, stop_reason());
        rc = 0;
    } else if (rc == 0) {
        *doc_out = load_document(cfg, conn, load, started, NULL);
    }
out:
    dg_signals_restore(&saved);
    json_decref(load);
    dg_conn_close(conn);
    return rc;
}

/* When a closing wait (statistics, the sampler's end) gives up: wait_ns from now, or after
 * a stop signal what is left of the shutdown's one deadline, but never less than a short
 * moment, which a server that answers needs and a stuck one does not make longer by much
 * (without it a sampler that was not stuck would be called stuck). */
#define CLOSING_MIN_NS (100 * DG_NS_PER_MS)
static int64_t closing_deadline(int64_t wait_ns)
{
    int64_t now = dg_now_ns(), d = dg_stop_cap_ns(now + wait_ns);
    return d > now + CLOSING_MIN_NS ? d : now + CLOSING_MIN_NS;
}

/* The events engine's timers firing later than this on average: its workers are saturated. */
#define SATURATED_LAG_NS (5 * DG_NS_PER_MS)

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
    bool conn_abandoned = false; /* a stuck statistics call keeps the connection */
    bool run_begun = false;      /* wl->ops->run_begin succeeded: run_end is owed */
    /* SIGINT and SIGTERM stop whatever phase is under way (the load, the run, the closing
     * statistics), for the whole session, within one shared deadline (core/stop.h) */
    dg_sigsave saved;
    dg_run_clear_stop();
    dg_signals_catch(on_signal, &saved);
    char started[32];
    dg_format_iso8601(dg_wall_ns(), started, sizeof started);
    int rc = dg_session_connect(cfg, false, &conn, err);
    if (rc)
        goto out;
    if (cfg->workers > 0 && !dg_has_cap(conn, DG_CAP_NONBLOCKING)) {
        /* a blocking call would stop every terminal of its worker */
        char which[128];
        int k = dg_backend_names_with(DG_CAP_NONBLOCKING, which, sizeof which);
        rc = dg_err_fail(err, DG_E_INVAL,
                         "--workers: %s's client library blocks its thread in every call, so it "
                         "runs a thread per terminal (leave out --workers); the events engine "
                         "serves %s", conn->be->name, k ? which : "no backend built here");
        goto out;
    }
    if (cfg->pipeline && !dg_has_cap(conn, DG_CAP_PIPELINE)) {
        char which[128];
        int k = dg_backend_names_with(DG_CAP_PIPELINE, which, sizeof which);
        rc = dg_err_fail(err, DG_E_INVAL, "--pipeline: %s cannot send a transaction's statements "
                         "before the answers (%s can)", conn->be->name, k ? which : "no backend built here");
        goto out;
    }
    if (cfg->pipeline && !wl->pipeline_ok) {
        rc = dg_err_fail(err, DG_E_INVAL, "--pipeline: %s's statements need each other's results "
                         "(or there is no transaction to pipeline); tpcb, tpcb:simple-update "
                         "and scripts with BEGIN and no \\gset or \\aset can be pipelined",
                         wl->name);
        goto out;
    }
    int64_t wanted_scale = wl->scale;
    if ((rc = dg_session_prepare(cfg, conn, DG_PREPARE_RUN, &load, stage, err)) != 0) {
        if (rc == DG_E_STOPPED && load) {
            /* stopped while loading first: the partial load is the session's result */
            *doc_out = load_document(cfg, conn, load, started, stop_reason());
            rc = 0;
        }
        goto out;
    }
    if (wl->ops->run_begin) {
        if ((rc = wl->ops->run_begin(wl, conn, err)) != 0) {
            dg_err_prefix(err, "cannot set the run up");
            goto out;
        }
        run_begun = true;
    }
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
    /* statistics come from their own thread, so a stalled server cannot stall the
     * interval clock: an interval waits a quarter of itself (0.1 to 1 s) for them */
    ctx.sampler = dg_sampler_start(conn);
    ctx.sample_wait_ns = cfg->interval_ns / 4;
    if (ctx.sample_wait_ns < 100 * DG_NS_PER_MS)
        ctx.sample_wait_ns = 100 * DG_NS_PER_MS;
    if (ctx.sample_wait_ns > DG_NS_PER_S)
        ctx.sample_wait_ns = DG_NS_PER_S;
    ctx.intervals = json_array();
    ctx.warm_intervals = json_array();
    doc = dg_result_new();
    json_t *host = host_json(conn);
    snprintf(ctx.block_device, sizeof ctx.block_device, "%s", dg_res_str(host, "block_device"));
    json_object_set_new(doc, "run", run_json(cfg, conn, NULL));
    json_t *server = dg_doc_server_json(&si);
    if (cfg->nserver_settings)
        server_settings_json(conn, &si, cfg, server);
    json_object_set_new(doc, "server", server);
    json_object_set_new(doc, "host", host);
    if (cfg->ui && cfg->ui->begin)
        cfg->ui->begin(cfg->ui->arg, doc);

    dg_connopts co = {.settings = cfg->settings, .nsettings = cfg->nsettings,
                      .application_name = "dbgauge", .pipeline = cfg->pipeline};
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
        .workers = cfg->workers,
        .seed = cfg->seed,
        .on_interval = on_interval,
        .on_start = on_start,
        .arg = &ctx,
    };
    raise_nofile(cfg->terminals, dg_has_cap(conn, DG_CAP_EMBEDDED));
    rc = dg_run(&rcfg, wl, &st, err);
    have_stats = true;
    if (rc) {
        *stage = DG_STAGE_RUN;
        if (dg_stop_signal()) /* while the terminals connected: nothing was measured */
            dg_err_fail(err, DG_E_STOPPED, "%s while the terminals connected", stop_reason());
        else
            dg_err_prefix(err, "cannot start the run");
        goto out;
    }

    /* The measured phase ends at the deadline; transactions in flight then finish in the
     * drain. A server that left a terminal inside a call past the grace (interrupted) held
     * the run: it is not complete, and says why. An embedded engine's terminals queue on
     * its lock at the end (SQLite with many writers): that is said in a warning, the run
     * stands. */
    if (st.workers > 0 && st.sched.timers > 0 &&
        st.sched.lag_sum_ns / (int64_t)st.sched.timers > SATURATED_LAG_NS)
        dg_log_warn("the events engine's %d worker%s could not keep up: timers fired %.1f ms late "
                    "on average (at most %.1f ms), so think times and --rate arrivals ran late; "
                    "give it more --workers or fewer terminals",
                    st.workers, st.workers == 1 ? "" : "s",
                    (double)st.sched.lag_sum_ns / (double)st.sched.timers / 1e6,
                    (double)st.sched.lag_max_ns / 1e6);
    double overrun_s = (double)st.drain_ns / DG_NS_PER_S;
    bool embedded = dg_has_cap(conn, DG_CAP_EMBEDDED);
    if (st.complete && st.interrupted_terminals > 0 && !embedded) {
        st.complete = false;
        snprintf(st.stop_reason, sizeof st.stop_reason, "overran its duration by %.1f s", overrun_s);
    }

    /* ---- the result document ---- */
    /* after a stop signal the closing statistics and the sampler's end share what is left
     * of the shutdown's one deadline (the terminals had their part of it) */
    dg_dbstats db_after;
    if (!ctx.sampler ||
        !dg_sampler_take_fresh(ctx.sampler, closing_deadline(2 * DG_NS_PER_S), &db_after))
        all_unknown(&db_after);
    /* the connection is the session's again once the sampler stops */
    bool conn_free = false;
    ctx.sampler_calls = ctx.sampler ? (int64_t)dg_sampler_calls(ctx.sampler) : -1;
    if (ctx.sampler) {
        conn_free = dg_sampler_stop(ctx.sampler, closing_deadline(DG_NS_PER_S));
        ctx.sampler = NULL;
        if (!conn_free) {
            dg_log_warn("the database has not answered its statistics query for seconds: the "
                        "monitor connection is left behind");
            conn_abandoned = true;
        }
    }
    json_object_set_new(doc, "run", run_json(cfg, conn, &st));
    if (load)
        json_object_set_new(doc, "load", json_incref(load));
    json_object_set_new(doc, "totals", dg_doc_totals_json(&st.all[DG_PHASE_MEASURE],
                                                          (double)st.phase_ns[DG_PHASE_MEASURE] / DG_NS_PER_S));
    json_object_set_new(doc, "warmup", dg_doc_totals_json(&st.all[DG_PHASE_WARMUP],
                                                          (double)st.phase_ns[DG_PHASE_WARMUP] / DG_NS_PER_S));
    json_object_set_new(doc, "transactions", tx_array(&st, wl, DG_PHASE_MEASURE, true));
    if (!cfg->transactions)
        json_object_set_new(doc, "drain", drain_json(&st, wl));
    if (wl->ops->metrics) { /* tpmC and the like, from the measured phase */
        dg_metric wm[DG_MAX_METRICS];
        int nm = wl->ops->metrics(wl, st.tx[DG_PHASE_MEASURE],
                                  (double)st.phase_ns[DG_PHASE_MEASURE] / DG_NS_PER_S, wm,
                                  DG_MAX_METRICS);
        if (wl->ops->db_metrics && conn_free && nm < DG_MAX_METRICS) {
            dg_err me = DG_ERR_INIT;
            int k = wl->ops->db_metrics(wl, conn, wm + nm, DG_MAX_METRICS - nm, &me);
            if (k < 0)
                dg_log_warn("cannot read the workload's figures from the database: %s", me.msg);
            else
                nm += k;
        }
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
        json_array_append_new(errs, dg_doc_error_json(st.errors[i].msg, st.errors[i].tx,
                                                      st.errors[i].cls, st.errors[i].count));
    json_object_set_new(doc, "errors", errs);
    json_t *warnings = driver_warnings(doc, conn, cfg);
    int nint = st.interrupted_terminals;
    if (nint > 0)
        json_array_append_new(
            warnings, json_sprintf("%d terminal%s still inside a database call 2 s after the end: "
                                   "%s interrupted (%s)",
                                   nint, nint == 1 ? " was" : "s were", nint == 1 ? "it was" : "they were",
                                   embedded ? "waiting for the database's lock"
                                            : "the database did not answer"));
    if (overrun_s > 1.0 && overrun_s > 0.1 * (double)cfg->duration_ns / DG_NS_PER_S)
        json_array_append_new(
            warnings, json_sprintf("transactions in flight at the end took %.1f s more to finish "
                                   "(%s): their %" PRIu64 " completions are under \"drain\", not "
                                   "in the rates",
                                   overrun_s,
                                   embedded ? "terminals queued on the database's lock"
                                            : "the database was slow to answer",
                                   st.drain_all.count + st.drain_all.errors));
    json_object_set_new(doc, "warnings", warnings);
    if (cfg->extra)
        json_object_update(doc, (json_t *)cfg->extra);
    *doc_out = doc;
    doc = NULL;
    rc = 0;
out:
    if (ctx.sampler && !dg_sampler_stop(ctx.sampler, closing_deadline(DG_NS_PER_S))) {
        dg_log_warn("the database has not answered its statistics query for seconds: the "
                    "monitor connection is left behind");
        conn_abandoned = true;
    }
    if (conn_abandoned)
        conn = NULL; /* the sampler's thread still uses it */
    if (run_begun && conn && wl->ops->run_end) {
        dg_err e_end = DG_ERR_INIT;
        if (wl->ops->run_end(wl, conn, &e_end))
            dg_log_warn("cannot remove what the run made in the database: %s", e_end.msg);
    }
    if (have_stats)
        dg_run_stats_free(&st);
    json_decref(ctx.intervals);
    json_decref(ctx.warm_intervals);
    json_decref(doc);
    json_decref(load);
    dg_conn_close(conn);
    dg_signals_restore(&saved);
    return rc;
}
