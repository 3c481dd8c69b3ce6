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
 * Every field of the document is named in results/doc.c, the top level included: this
 * file gathers the figures into doc.h's structs and hands over the parts doc.c built
 * (the intervals, the load), and reads none back.
 *
 * Layout: interval collection, document figures (mix, drain, run, monitor), warnings,
 * the session (a load's document; a run's steps: check modes, set up, begin the
 * document, run the terminals, judge the run, close the monitor, finish the document).
 */
#include "session/session.h"

#include "backend/dialect.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/signals.h"
#include "core/stop.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "monitor/host.h"
#include "monitor/sysstat.h"
#include "results/doc.h"
#include "runner/runner.h"
#include "session/load.h"
#include "session/sampler.h"
#include "monitor/locktab.h"
#include "monitor/srvhost.h"
#include "session/cluster.h"
#include "session/events.h"
#include "session/waits.h"
#include "results/verdict.h"

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
    double db_phase_late_s;   /* > 0: the statistics at the measured phase's start came
                                 late; its database figures count from this far into it */
    uint64_t measured_tx;     /* transactions of the measured intervals so far */
    uint64_t db_phase_late_tx; /* those before that reading */
    dg_srvhost *srv;          /* the server host's sampler (NULL: none) */
    dg_locktab_mon *locks;    /* the lock manager's table (NULL: none) */
    char *locks_why;          /* why there is none, for an engine that has one (NULL) */
    dg_cluster *cluster;      /* each node's monitor, for a URL with several hosts (NULL) */
    dg_events *events;        /* --event's commands, from the clock's start (NULL: none) */
    dg_waits *waits;          /* --wait-profile's sampler (NULL: none) */
    int srv_late;             /* measured intervals whose server sample was late */
    double *lag_p99_ms;       /* each measured interval's schedule lag, p99 (rate-paced runs) */
    int nlag, cap_lag;
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
    c->events = dg_events_start(c->cfg->events, c->cfg->nevents, dg_now_ns() + c->cfg->warmup_ns);
    dg_waits_begin(c->waits);
    dg_sysample_take(c->block_device, &c->sys_prev);
    c->sys_start[0] = c->sys_prev;
    c->sys_started[0] = true;
    if (c->srv) { /* the phase starts at this sample */
        dg_srvdelta ignored;
        dg_srvhost_sample(c->srv, dg_now_ns() + c->sample_wait_ns, &ignored);
        dg_srvhost_mark(c->srv);
    }
    if (c->locks) {
        json_decref(dg_locktab_sample(c->locks, dg_now_ns() + c->sample_wait_ns));
        dg_locktab_mark(c->locks);
    }
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

/* lag_p99_ms: NaN when the run is not rate-paced. */
static json_t *interval_json(const dg_session_config *cfg, const dg_interval_report *iv,
                             double t_s, const dg_sysdelta *sd, const dg_dbstats *db_prev,
                             const dg_dbstats *db,
                             double hit_pct, double misses, double lag_p99_ms,
                             dg_doc_server_status srv_status, const dg_srvdelta *srv)
{
    const dg_hist *lat = &iv->all->lat;
    bool any = iv->all->count > 0;
    int ntx = iv->ntx;
    uint64_t *counts = xcalloc((size_t)ntx + 1, sizeof *counts);
    const char **names = xcalloc((size_t)ntx + 1, sizeof *names);
    const dg_hist **hists = xcalloc((size_t)ntx + 1, sizeof *hists);
    for (int i = 0; i < ntx; i++) {
        names[i] = cfg->wl->tx[i].name;
        counts[i] = iv->tx[i].count;
        hists[i] = &iv->tx[i].lat;
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
        .tx_hists = hists,
        .sys = *sd,
        .cache_hit_pct = hit_pct,
        .physical_reads = misses,
        .db_size_bytes = db->db_size_bytes,
        .reconnects = iv->reconnects,
        .downtime_s = (double)iv->downtime_ns / DG_NS_PER_S,
        .active_terminals = iv->active_terminals,
        .lag_p99_ms = lag_p99_ms,
        .server_status = srv_status,
        .server = *srv,
        .db_prev = db_prev,
        .db_now = db,
    };
    json_t *j = dg_doc_interval_json(&d);
    free(counts);
    free(names);
    free(hists);
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
    bool warm = iv->phase == DG_PHASE_WARMUP;
    dg_srvdelta srv;
    memset(&srv, 0, sizeof srv);
    dg_doc_server_status srv_status = DG_DOC_SERVER_NONE;
    if (c->srv) {
        int r = dg_srvhost_sample(c->srv, dg_now_ns() + c->sample_wait_ns, &srv);
        srv_status = r > 0 ? DG_DOC_SERVER_OK : r == 0 ? DG_DOC_SERVER_LATE : DG_DOC_SERVER_LOST;
        if (r == 0 && !warm)
            c->srv_late++;
        if (warm)
            dg_srvhost_mark(c->srv); /* the measured phase starts here */
    }
    dg_dbstats db;
    all_unknown(&db);
    bool have = c->db_ok && dg_sampler_take(c->sampler, dg_now_ns() + c->sample_wait_ns, &db);
    double hit_pct, misses;
    cache_delta(c, &c->db_prev, &db, iv->cache_hits, iv->cache_misses, c->cache_prev_hits,
                c->cache_prev_misses, &hit_pct, &misses);
    if (!warm && c->db_ok && (!have || !c->prev_ok))
        c->stats_late++;
    else if (!warm && iv->all->count > 0 && isnan(hit_pct) && (db.cache_hits >= 0 || iv->cache_hits >= 0))
        c->cache_unpublished++;
    dg_dbstats db_prev = c->db_prev; /* the interval's cache parts are from it to db */
    bool parts = have && c->prev_ok;
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
    /* The terminals read their connections' cache counters once an interval, after seeing
     * a report: the values reported at the first measured interval are those at the
     * measured start, when the warmup ended too soon for any to be read. */
    if (!warm && c->sys_started[1] && c->cache_phase_hits[1] < 0 && iv->cache_hits >= 0) {
        c->cache_phase_hits[1] = iv->cache_hits;
        c->cache_phase_misses[1] = iv->cache_misses;
    }
    /* The server did not answer the reading at the measured phase's start in time (a
     * stall, or a busy machine): the phase's database figures start from its first reading
     * that came back, and the result says from when, rather than having none. */
    if (!warm)
        c->measured_tx += iv->all->count;
    if (!warm && c->sys_started[1] && have && db.cache_hits >= 0 &&
        c->db_phase_start[1].cache_hits < 0 && c->db_phase_late_s == 0) {
        c->db_phase_start[1] = db;
        c->db_phase_late_s = t_s;
        c->db_phase_late_tx = c->measured_tx;
    }
    double lag = c->cfg->rate_tps > 0 ? (double)dg_hist_percentile(iv->lag, 99) / 1e6 : NAN;
    if (!warm && !isnan(lag)) { /* for the warning about a growing lag */
        if (c->nlag == c->cap_lag) {
            c->cap_lag = c->cap_lag ? 2 * c->cap_lag : 64;
            c->lag_p99_ms = xrealloc(c->lag_p99_ms, (size_t)c->cap_lag * sizeof *c->lag_p99_ms);
        }
        c->lag_p99_ms[c->nlag++] = isfinite(lag) ? lag : 0;
    }
    json_t *j = interval_json(c->cfg, iv, t_s, &sd, parts ? &db_prev : NULL, &db, hit_pct, misses,
                              lag, srv_status, &srv);
    if (c->cluster)
        json_object_set_new(j, "nodes",
                            dg_cluster_interval(c->cluster, iv, dg_now_ns() + c->sample_wait_ns));
    if (c->locks) {
        json_t *lt = dg_locktab_sample(c->locks, dg_now_ns() + c->sample_wait_ns);
        if (lt)
            json_object_set_new(j, "lock_table", lt);
        if (warm)
            dg_locktab_mark(c->locks); /* the measured phase starts here */
    }
    json_t *waits = dg_waits_interval(c->waits, warm);
    if (waits)
        json_object_set_new(j, "waits", waits);
    const dg_session_ui *ui = c->cfg->ui;
    if (ui && ui->interval) /* the end on the wall clock: now, less the time since the end */
        ui->interval(ui->arg, j, warm, dg_wall_ns() - (dg_now_ns() - iv->end_mono_ns));
    json_array_append_new(warm ? c->warm_intervals : c->intervals, j);
}

/* ---- document parts ------------------------------------------------------------------------ */

/* The mix as the document lists it: names and weights in the workload's order. */
static void mix_arrays(const dg_workload *wl, const char ***names_out, double **weights_out)
{
    const char **names = xcalloc((size_t)wl->ntx + 1, sizeof *names);
    double *weights = xcalloc((size_t)wl->ntx + 1, sizeof *weights);
    for (int i = 0; i < wl->ntx; i++) {
        names[i] = wl->tx[i].name;
        weights[i] = wl->tx[i].weight;
    }
    *names_out = names;
    *weights_out = weights;
}

/* "drain": what completed after the deadline, by type; the caller frees the array. */
static dg_doc_drain_tx *drain_tx(const dg_run_stats *st, const dg_workload *wl)
{
    dg_doc_drain_tx *tx = xcalloc((size_t)st->ntx + 1, sizeof *tx);
    for (int i = 0; i < st->ntx; i++)
        tx[i] = (dg_doc_drain_tx){.name = wl->tx[i].name,
                                  .count = st->drain[i].count,
                                  .rollbacks = st->drain[i].rollbacks,
                                  .errors = st->drain[i].errors,
                                  .unknown = st->drain[i].unknown};
    return tx;
}

/* "run": what was asked, and (when st is not NULL) how it ended. started (32 bytes)
 * receives the start time the record points to; names and weights are the mix. */
static dg_doc_run run_figures(const dg_session_config *cfg, const dg_conn *conn,
                              const dg_run_stats *st, const char *const *names,
                              const double *weights, char *started)
{
    const dg_workload *wl = cfg->wl;
    started[0] = '\0';
    if (st)
        dg_format_iso8601(st->started_wall_ns, started, 32);
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
        .part_k = cfg->part_k,
        .part_n = cfg->part_n,
        .part_from = cfg->part_from,
        .first_terminal = cfg->first_terminal,
        .whole_terminals = cfg->whole_terminals,
        .start_at = cfg->start_at,
        .start_late_ms = st && cfg->start_at_ns
                             ? (double)(st->clock_wall_ns + cfg->warmup_ns - cfg->start_at_ns) / 1e6
                             : NAN,
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
        .ntx = wl->ntx,
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
    return r;
}

static dg_doc_monitor monitor_figures(const run_ctx *ctx, const dg_run_stats *st,
                                      const dg_dbstats *db_before, const dg_dbstats *db_after)
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
    bool counters = (ctx->db_ok && db_after->cache_hits >= 0) || st->cache_hits >= 0;
    if (isnan(hit) && n > 0)
        m.cache_null_reason = !counters ? "the database reports no cache counters"
                              : ph && ph_hits < 0 && !(ctx->db_ok && db_after->cache_hits >= 0)
                                  ? "the connections' counters were not read at the measured phase's start"
                                  : "no page was read or found in the cache during the measured phase";
    /* over the transactions of the window the misses cover (see db_phase_late_s) */
    double n_db = ph && ctx->db_phase_late_s > 0 ? n - (double)ctx->db_phase_late_tx : n;
    m.physical_reads_per_tx = n_db > 0 ? misses / n_db : NAN;
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
    m.db_phase_late_s = ph ? ctx->db_phase_late_s : 0;
    m.stats_readings = ctx->sampler_calls;
    if (ctx->db_ok) {
        m.parts_from = &ctx->db_phase_start[ph];
        m.parts_to = db_after;
    }
    m.conn_hit_n = st->conn_hit_n;
    m.conn_hit_min = st->conn_hit_min;
    m.conn_hit_median = st->conn_hit_median;
    m.conn_hit_max = st->conn_hit_max;
    return m;
}

/* "monitor.server_host": the sampler's facts and the measured phase's figures. */
static void server_host_figures(run_ctx *ctx, const dg_run_stats *st, dg_doc_server_host *out)
{
    dg_srvhost_facts f;
    dg_srvhost_facts_get(ctx->srv, &f);
    *out = (dg_doc_server_host){
        .source = f.source,
        .device = f.device,
        .data_dir = f.data_dir,
        .root_pid = f.root_pid,
        .procs = f.procs,
        .late_intervals = ctx->srv_late,
        .lost = f.lost != 0,
        .transactions = st->all[DG_PHASE_MEASURE].count,
    };
    out->have_totals = dg_srvhost_since_mark(ctx->srv, &out->totals);
}

/* ---- warnings ------------------------------------------------------------------------------ */

#define MAX_WARNINGS 4

/* The run's warnings, in the document's order; each message is the caller's to free. */
typedef struct warnings {
    int n;
    char *msg[MAX_WARNINGS];
} warnings;

static void warn_add(warnings *w, char *msg)
{
    if (w->n < MAX_WARNINGS)
        w->msg[w->n++] = msg;
    else
        free(msg);
}

/* Signs that the driver, not the database, limited the run. An embedded database runs
 * inside dbgauge's process, so its CPU is not the driver's: no CPU warning then. The lag
 * is the measured intervals' p99 (rate-paced runs). */
static void lag_warning(warnings *w, const run_ctx *c, const dg_session_config *cfg)
{
    /* dbgauge's own CPU is the verdict's (results/verdict.h: "driver"), not a warning */
    size_t n = (size_t)c->nlag;
    if (cfg->rate_tps > 0 && n >= 3) {
        size_t third = n / 3;
        double first = 0, last = 0;
        for (size_t i = 0; i < third; i++) {
            first = fmax(first, c->lag_p99_ms[i]);
            last = fmax(last, c->lag_p99_ms[n - 1 - i]);
        }
        if (last > 10 && last > 2 * first)
            warn_add(w, xasprintf("the schedule lag grew from %.1f ms to %.1f ms (p99): the terminals "
                                  "could not keep the rate of %.0f tps; latency includes the backlog",
                                  first, last, cfg->rate_tps));
    }
}

/* Terminals the end had to interrupt, and a long drain after a duration run's deadline. */
static void end_warnings(warnings *w, const dg_run_stats *st, double overrun_s, bool embedded,
                         const dg_session_config *cfg)
{
    int nint = st->interrupted_terminals;
    if (nint > 0)
        warn_add(w, xasprintf("%d terminal%s still inside a database call 2 s after the end: "
                              "%s interrupted (%s); the measured window is whole, the "
                              "transaction%s in flight after it %s not counted",
                              nint, nint == 1 ? " was" : "s were", nint == 1 ? "it was" : "they were",
                              embedded ? "waiting for the database's lock"
                                       : "the database did not answer",
                              nint == 1 ? "" : "s", nint == 1 ? "is" : "are"));
    if (overrun_s > 1.0 && overrun_s > 0.1 * (double)cfg->duration_ns / DG_NS_PER_S)
        warn_add(w, xasprintf("transactions in flight at the end took %.1f s more to finish "
                              "(%s): their %" PRIu64 " completions are under \"drain\", not "
                              "in the rates",
                              overrun_s,
                              embedded ? "terminals queued on the database's lock"
                                       : "the database was slow to answer",
                              st->drain_all.count + st->drain_all.errors));
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

/* The server settings a sweep had --server-ctl set, read back: effective[i] (a buffer of
 * SETTING_BYTES each) what the server shows for each, *eff_ptr[i] NULL when the engine
 * cannot tell a client. A value shown differently (16MB set, 2048 pages shown...) is not
 * judged here: a differing value is warned about only when neither side is a number with
 * a unit, where the spelling is the server's own. */
#define SETTING_BYTES 256
static void read_server_settings(dg_conn *conn, const dg_server_info *si, const dg_session_config *cfg,
                                 char (*effective)[SETTING_BYTES], const char **eff_ptr)
{
    for (int i = 0; i < cfg->nserver_settings; i++) {
        const dg_setting *s = &cfg->server_settings[i];
        char *v = effective[i];
        dg_err e = DG_ERR_INIT;
        eff_ptr[i] = NULL;
        int rc = dg_server_setting(conn, si, s->name, v, SETTING_BYTES, &e);
        if (rc != 0) {
            if (rc != DG_E_UNSUPPORTED)
                dg_log_warn("cannot read back server setting %s: %s", s->name, e.msg);
            else
                dg_log_info("server setting %s=%s: applied, not verified (%s tells no client "
                            "its value; server.verified.%s is false)",
                            s->name, s->value, conn->be->name, s->name);
            continue;
        }
        eff_ptr[i] = v;
        bool words = !isdigit((unsigned char)v[0]) && !isdigit((unsigned char)s->value[0]);
        if (words && strcasecmp(v, s->value))
            dg_log_warn("server setting %s was set to %s but the server runs with %s", s->name,
                        s->value, v);
    }
}

static void on_signal(int signo)
{
    dg_run_request_stop(signo);
}

void dg_session_server_ctl_json(dg_conn *conn, const dg_server_info *si,
                                const dg_session_config *cfg, json_t *server)
{
    int nss = cfg->nserver_settings;
    if (nss <= 0 || !conn)
        return;
    char (*effective)[SETTING_BYTES] = xcalloc((size_t)nss, sizeof *effective);
    const char **eff_ptr = xcalloc((size_t)nss, sizeof *eff_ptr);
    read_server_settings(conn, si, cfg, effective, eff_ptr);
    dg_doc_server_ctl ctl = {.n = nss, .requested = cfg->server_settings, .effective = eff_ptr};
    dg_doc_server_ctl_add(server, &ctl);
    free(eff_ptr);
    free(effective);
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
    dg_doc_load_run run = {
        .workload = wl->name,
        .workload_hash = wl->hash,
        .scale_unit = wl->scale_unit,
        .scale = wl->scale,
        .backend = conn->be->name,
        .db = conn->url_redacted,
        .seed = cfg->seed,
        .jobs = load && json_integer_value(json_object_get(load, "jobs")) > 0
                    ? (int)json_integer_value(json_object_get(load, "jobs"))
                    : cfg->jobs > 0 ? cfg->jobs : 1,
        .started_at = started,
        .stop_reason = reason,
        .command = cfg->command_line,
        .storage = wl->storage,
    };
    dg_hostinfo h;
    dg_host_info(conn->data_path, &h);
    json_t *doc = dg_doc_load_document(&run, &si, &h, load, cfg->extra);
    if (!reason)
        dg_session_server_ctl_json(conn, &si, cfg, json_object_get(doc, "server"));
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

/* A run session's state, from connecting to the finished document (dg_session_run's
 * steps share it; session_end releases it). */
typedef struct session_run {
    const dg_session_config *cfg;
    dg_conn *conn;
    json_t *load;            /* the load the session made first (NULL: none) */
    json_t *doc;             /* from the start of the run */
    run_ctx ctx;
    dg_run_stats st;
    bool have_stats;         /* st holds dg_run's (to free) */
    dg_nodelist nodes;       /* the URL's hosts (one, or a cluster's) */
    dg_nodelist read_nodes;  /* --db-read's replicas (n 0: none) */
    dg_termwait *termwaits;  /* --wait-profile: what the terminals publish [terminals] */
    json_t *wait_profile;    /* the profile, or why there is none (NULL: not asked for) */
    bool conn_abandoned;     /* a stuck statistics call keeps the connection */
    bool conn_free;          /* the sampler stopped: the connection is the session's again */
    bool run_begun;          /* wl->ops->run_begin succeeded: run_end is owed */
    const char **tx_names;   /* the mix, for the document */
    double *tx_weights;
    dg_dbstats db_before, db_after;
    double overrun_s;        /* the drain after a duration run's deadline */
} session_run;

/* What --workers and --pipeline need of the backend and the workload, from their facts. */
static int check_modes(const dg_session_config *cfg, const dg_conn *conn, dg_err *err)
{
    const dg_workload *wl = cfg->wl;
    if (cfg->workers > 0 && !dg_has_cap(conn, DG_CAP_NONBLOCKING)) {
        /* a blocking call would stop every terminal of its worker */
        char which[128];
        int k = dg_backend_names_with(DG_CAP_NONBLOCKING, which, sizeof which);
        return dg_err_fail(err, DG_E_INVAL,
                           "--workers: %s's client library blocks its thread in every call, so it "
                           "runs a thread per terminal (leave out --workers); the events engine "
                           "serves %s", conn->be->name, k ? which : "no backend built here");
    }
    if (cfg->pipeline && !dg_has_cap(conn, DG_CAP_PIPELINE)) {
        char which[128];
        int k = dg_backend_names_with(DG_CAP_PIPELINE, which, sizeof which);
        return dg_err_fail(err, DG_E_INVAL, "--pipeline: %s cannot send a transaction's statements "
                           "before the answers (%s can)", conn->be->name, k ? which : "no backend built here");
    }
    if (cfg->pipeline && !wl->pipeline_ok)
        return dg_err_fail(err, DG_E_INVAL, "--pipeline: %s's statements need each other's results "
                           "(or there is no transaction to pipeline); tpcb, tpcb:simple-update "
                           "and scripts with BEGIN and no \\gset or \\aset can be pipelined",
                           wl->name);
    return 0;
}

/* The preamble (load when empty) and the workload's own set-up for the run. */
static int set_up(session_run *s, dg_session_stage *stage, dg_err *err)
{
    dg_workload *wl = s->cfg->wl;
    int64_t wanted_scale = wl->scale;
    int rc = dg_session_prepare(s->cfg, s->conn, DG_PREPARE_RUN, &s->load, stage, err);
    if (rc)
        return rc;
    if (wl->ops->run_begin) {
        if ((rc = wl->ops->run_begin(wl, s->conn, err)) != 0) {
            dg_err_prefix(err, "cannot set the run up");
            return rc;
        }
        s->run_begun = true;
    }
    if (wl->scale_given && wanted_scale != wl->scale && wl->tables)
        dg_log_warn("--scale %lld ignored: the database holds scale %lld", (long long)wanted_scale,
                    (long long)wl->scale);
    return 0;
}

/* The server host's sampler: --server-host's, or this machine's /proc when the server
 * runs here (its own processes apart from dbgauge's); none for an engine inside dbgauge
 * or a server elsewhere without --server-host. A host named but not reachable is an
 * error before anything runs. */
static int open_server_host(session_run *s, dg_err *err)
{
    const dg_session_config *cfg = s->cfg;
    const dg_conn *c = s->conn;
    const char *target = cfg->server_host;
    if (target && !strcmp(target, "none"))
        return 0;
    if (!c->be->server_comms || dg_has_cap(c, DG_CAP_EMBEDDED)) {
        if (target)
            dg_log_warn("--server-host %s ignored: %s runs inside dbgauge's process (its CPU is "
                        "dbgauge's own)", target, c->be->name);
        return 0;
    }
    if (!target && !c->server_local)
        return 0;
    int pid = c->server_pid;
    if (pid <= 0 && c->be->server_pid_sql) { /* the process serving us, as the server says */
        int64_t v = 0;
        bool found = false;
        dg_err ignored = DG_ERR_INIT;
        if (dg_query_int(s->conn, c->be->server_pid_sql, NULL, 0, &v, &found, &ignored) == 0 &&
            found && v > 0 && v <= INT32_MAX)
            pid = (int)v;
    }
    dg_srvhost_spec spec = {.target = target ? target : "local",
                            .data_dir = c->server_dir,
                            .server_pid = pid,
                            .pid_file = c->server_pid_file,
                            .comms = c->be->server_comms};
    int rc = dg_srvhost_open(&spec, dg_now_ns() + 20 * DG_NS_PER_S, &s->ctx.srv, err);
    if (rc && !target) { /* this machine's /proc: a missing figure, never a failed run */
        dg_log_warn("no server host figures: %s", err->msg);
        dg_err_clear(err);
        return 0;
    }
    return rc;
}

/* The lock manager's table, for an engine whose table can be read from a database file on
 * this machine (a server here, or embedded): a missing table is a note in the result,
 * never a failed run. */
static void open_lock_table(session_run *s)
{
    const dg_conn *c = s->conn;
    if (!c->be->lock_table || !c->data_path)
        return;
    int pid = c->server_pid;
    if (s->ctx.srv) {
        dg_srvhost_facts f;
        dg_srvhost_facts_get(s->ctx.srv, &f);
        if (f.root_pid > 0)
            pid = f.root_pid;
    }
    s->ctx.locks = dg_locktab_open(c->data_path, dg_has_cap(c, DG_CAP_EMBEDDED) ? 0 : pid,
                                   dg_now_ns() + 5 * DG_NS_PER_S, &s->ctx.locks_why);
}

/* Before the terminals start: the server's facts, the database's first statistics, the
 * sampler, and the document's start (run, server, host), shown to the UI. */
static void begin_document(session_run *s)
{
    const dg_session_config *cfg = s->cfg;
    run_ctx *ctx = &s->ctx;
    dg_server_info si;
    memset(&si, 0, sizeof si);
    dg_err e = DG_ERR_INIT;
    if (dg_server_info_get(s->conn, &si, &e))
        dg_log_warn("cannot read server settings: %s", e.msg);
    const dg_locktab *lt = ctx->locks ? dg_locktab_first(ctx->locks) : NULL;
    if (lt && lt->hash_slots > 0) { /* firebird.conf's lock settings, as the table has them */
        char v[32];
        snprintf(v, sizeof v, "%lld", (long long)lt->hash_slots);
        dg_server_info_add(&si, "lock_hash_slots", v);
        if (lt->length > 0) {
            snprintf(v, sizeof v, "%lld", (long long)lt->length);
            dg_server_info_add(&si, "lock_table_bytes", v);
        }
    }
    if (dg_stats(s->conn, &s->db_before, NULL))
        all_unknown(&s->db_before);
    dg_connopts co = {.settings = cfg->settings, .nsettings = cfg->nsettings,
                      .application_name = "dbgauge"};
    if ((s->ctx.cluster = dg_cluster_open(&s->nodes, s->read_nodes.n ? &s->read_nodes : NULL, &co)) != NULL)
        dg_cluster_begin(s->ctx.cluster, dg_now_ns() + 10 * DG_NS_PER_S);

    ctx->cfg = cfg;
    /* statistics come from their own thread, so a stalled server cannot stall the
     * interval clock: an interval waits a quarter of itself (0.1 to 1 s) for them */
    ctx->sampler = dg_sampler_start(s->conn);
    ctx->sample_wait_ns = cfg->interval_ns / 4;
    if (ctx->sample_wait_ns < 100 * DG_NS_PER_MS)
        ctx->sample_wait_ns = 100 * DG_NS_PER_MS;
    if (ctx->sample_wait_ns > DG_NS_PER_S)
        ctx->sample_wait_ns = DG_NS_PER_S;
    ctx->intervals = json_array();
    ctx->warm_intervals = json_array();
    /* the machine's facts, with the filesystem and disk of the connection's data file (a
     * server's data directory is not known from the client) */
    dg_hostinfo h;
    dg_host_info(s->conn->data_path, &h);
    snprintf(ctx->block_device, sizeof ctx->block_device, "%s", h.block_device);
    mix_arrays(cfg->wl, &s->tx_names, &s->tx_weights);
    char started[32];
    dg_doc_run run = run_figures(cfg, s->conn, NULL, s->tx_names, s->tx_weights, started);
    s->doc = dg_doc_run_document(&run, &si, NULL, &h);
    json_t *server = json_object_get(s->doc, "server");
    dg_session_server_ctl_json(s->conn, &si, cfg, server); /* what --server-ctl set, read back */
    const json_t *set = json_object_get(server, "settings");
    const char *cname = s->conn->dialect->cache_setting;
    double cb = dg_cache_bytes(cname, cname ? json_string_value(json_object_get(set, cname)) : NULL,
                               json_string_value(json_object_get(set, "page_size")));
    if (cb > 0) { /* the engine's cache in bytes: what reports set sizes against */
        json_object_set_new(server, "cache_bytes", json_integer((json_int_t)cb));
        /* a cache per connection: each terminal's, and their sum (the page-buffer study's
           memory per connection against the OS's page cache) */
        const char *pc = json_string_value(json_object_get(set, "page_cache"));
        bool per_conn = s->conn->dialect->cache_per_connection || (pc && !strncmp(pc, "per ", 4));
        json_object_set_new(server, "cache_scope", json_string(per_conn ? "connection" : "shared"));
        if (per_conn)
            json_object_set_new(server, "cache_total_bytes",
                                json_integer((json_int_t)(cb * cfg->terminals)));
    }
    if (cfg->ui && cfg->ui->begin)
        cfg->ui->begin(cfg->ui->arg, s->doc);
}

/* --wait-profile: the sampler of the server's waits, on a connection of its own, and where
 * the terminals publish their sessions and types; NULL (and why, in the document) when the
 * engine or the server cannot tell. */
static dg_termwait *open_waits(session_run *s, const dg_connopts *co)
{
    const dg_session_config *cfg = s->cfg;
    size_t bytes = (size_t)cfg->terminals * sizeof(dg_termwait);
    s->termwaits = xaligned_zalloc(alignof(dg_termwait), bytes);
    dg_connopts wco = *co;
    wco.pipeline = false;
    wco.application_name = "dbgauge waits";
    dg_waits_spec spec = {.url = cfg->db, .connopts = &wco, .types = s->tx_names,
                          .ntypes = cfg->wl->ntx, .terms = s->termwaits,
                          .nterms = cfg->terminals, .interval_ns = cfg->wait_interval_ns};
    char *why = NULL;
    s->ctx.waits = dg_waits_open(&spec, s->conn->be, &why);
    if (!s->ctx.waits) {
        dg_log_warn("--wait-profile: %s; the run goes on without it", why);
        s->wait_profile = dg_waits_missing(why);
        free(why);
        return NULL;
    }
    if (dg_waits_note(s->ctx.waits))
        dg_log_warn("--wait-profile: %s", dg_waits_note(s->ctx.waits));
    if (dg_waits_interval_note(s->ctx.waits))
        dg_log_warn("--wait-profile: %s", dg_waits_interval_note(s->ctx.waits));
    return s->termwaits;
}

/* The terminals, with the collector on this thread (on_start, on_interval). */
static int run_terminals(session_run *s, dg_session_stage *stage, dg_err *err)
{
    const dg_session_config *cfg = s->cfg;
    dg_connopts co = {.settings = cfg->settings, .nsettings = cfg->nsettings,
                      .application_name = "dbgauge", .pipeline = cfg->pipeline};
    dg_run_config rcfg = {
        .url = cfg->db,
        .nodes = &s->nodes,
        .read_nodes = s->read_nodes.n ? &s->read_nodes : NULL,
        .connopts = &co,
        .terminals = cfg->terminals,
        .first_terminal = cfg->first_terminal,
        .whole_terminals = cfg->whole_terminals,
        .start_at_wall_ns = cfg->start_at_ns,
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
        .arg = &s->ctx,
    };
    raise_nofile(cfg->terminals * (s->read_nodes.n ? 2 : 1), dg_has_cap(s->conn, DG_CAP_EMBEDDED));
    if (cfg->wait_interval_ns > 0)
        rcfg.waits = open_waits(s, &co);
    int rc = dg_run(&rcfg, cfg->wl, &s->st, err);
    s->have_stats = true;
    if (rc) {
        *stage = DG_STAGE_RUN;
        if (dg_stop_signal()) /* while the terminals connected: nothing was measured */
            dg_err_fail(err, DG_E_STOPPED, "%s while the terminals connected", stop_reason());
        else
            dg_err_prefix(err, "cannot start the run");
    }
    return rc;
}

/* The measured phase ends at the deadline; transactions in flight then finish in the
 * drain. A terminal still inside a call past the grace is interrupted: its transaction
 * after the end is not counted, which the warnings say (end_warnings), but the measured
 * window was whole, so the run stands (exit 0; pgbench's too). Only a run that lost
 * measured time (a stop, aborted terminals) is incomplete. */
static void judge_run(session_run *s)
{
    dg_run_stats *st = &s->st;
    if (st->workers > 0 && st->sched.timers > 0 &&
        st->sched.lag_sum_ns / (int64_t)st->sched.timers > SATURATED_LAG_NS)
        dg_log_warn("the events engine's %d worker%s could not keep up: timers fired %.1f ms late "
                    "on average (at most %.1f ms), so think times and --rate arrivals ran late; "
                    "give it more --workers or fewer terminals",
                    st->workers, st->workers == 1 ? "" : "s",
                    (double)st->sched.lag_sum_ns / (double)st->sched.timers / 1e6,
                    (double)st->sched.lag_max_ns / 1e6);
    s->overrun_s = (double)st->drain_ns / DG_NS_PER_S;
}

/* The database's closing statistics, and the sampler's end. After a stop signal they
 * share what is left of the shutdown's one deadline (the terminals had their part of it). */
static void close_monitor(session_run *s)
{
    run_ctx *ctx = &s->ctx;
    if (ctx->waits) {
        s->wait_profile = dg_waits_finish(ctx->waits, closing_deadline(DG_NS_PER_S));
        ctx->waits = NULL;
    }
    if (!ctx->sampler ||
        !dg_sampler_take_fresh(ctx->sampler, closing_deadline(2 * DG_NS_PER_S), &s->db_after))
        all_unknown(&s->db_after);
    ctx->sampler_calls = ctx->sampler ? (int64_t)dg_sampler_calls(ctx->sampler) : -1;
    if (ctx->sampler) {
        s->conn_free = dg_sampler_stop(ctx->sampler, closing_deadline(DG_NS_PER_S));
        ctx->sampler = NULL;
        if (!s->conn_free) {
            dg_log_warn("the database has not answered its statistics query for seconds: the "
                        "monitor connection is left behind");
            s->conn_abandoned = true;
        }
    }
}

/* The workload's own figures (tpmC and the like, from the measured phase, and those it
 * reads from the database while the connection is free); their number. */
static int workload_metrics(session_run *s, dg_doc_metric *out)
{
    dg_workload *wl = s->cfg->wl;
    const dg_run_stats *st = &s->st;
    dg_metric wm[DG_MAX_METRICS];
    int nm = wl->ops->metrics(wl, st->tx[DG_PHASE_MEASURE],
                              (double)st->phase_ns[DG_PHASE_MEASURE] / DG_NS_PER_S, wm,
                              DG_MAX_METRICS);
    if (wl->ops->db_metrics && s->conn_free && nm < DG_MAX_METRICS) {
        dg_err me = DG_ERR_INIT;
        int k = wl->ops->db_metrics(wl, s->conn, wm + nm, DG_MAX_METRICS - nm, &me);
        if (k < 0)
            dg_log_warn("cannot read the workload's figures from the database: %s", me.msg);
        else
            nm += k;
    }
    for (int i = 0; i < nm; i++)
        out[i] = (dg_doc_metric){wm[i].name, wm[i].value, wm[i].unit};
    return nm;
}

/* The engine's cache as its server facts show it (the dialect names the entry), "NAME
 * VALUE" into buf ("" when none is recorded). */
static void cache_setting(const session_run *s, char *buf, size_t len)
{
    const char *name = s->conn->dialect->cache_setting;
    const json_t *v = name ? json_object_get(json_object_get(json_object_get(s->doc, "server"),
                                                             "settings"),
                                             name)
                           : NULL;
    buf[0] = '\0';
    if (json_is_string(v))
        snprintf(buf, len, "%s %s", name, json_string_value(v));
}

/* The regime the workload claims (dg_workload.regime) against the engine's cache hits in
 * the measured phase: the result's "regime", and a warning when they contradict it (the
 * study's point, I/O-bound being slower, cannot show on a run that never read the disk). */
static json_t *regime_check(warnings *w, const session_run *s, const dg_doc_monitor *mon)
{
    const char *claim = s->cfg->wl->regime;
    if (!claim)
        return NULL;
    bool io = !strcmp(claim, "io_bound");
    double hit = mon->cache_hit_pct;
    char cache[160], size[32] = "?";
    cache_setting(s, cache, sizeof cache);
    if (mon->db_size_before_bytes >= 0)
        dg_format_size((uint64_t)mon->db_size_before_bytes, size, sizeof size);
    json_t *r = json_object();
    json_object_set_new(r, "claimed", json_string(claim));
    json_object_set_new(r, "cache_hit_pct", isfinite(hit) ? json_real(hit) : json_null());
    json_object_set_new(r, "physical_reads_per_tx", isfinite(mon->physical_reads_per_tx)
                                                        ? json_real(mon->physical_reads_per_tx)
                                                        : json_null());
    json_object_set_new(r, "cache", cache[0] ? json_string(cache) : json_null());
    if (!isfinite(hit)) {
        json_object_set_new(r, "held", json_null());
        json_object_set_new(r, "why", json_string("the engine's cache hits were not measured"));
        return r;
    }
    bool held = io ? hit < 99 : hit >= 90;
    json_object_set_new(r, "held", json_boolean(held));
    if (held)
        return r;
    char *msg =
        io ? xasprintf("the run was meant to be I/O-bound (selects over all keys) but ran "
                       "CPU-bound: %.1f%% of page reads hit the engine's cache (%s of data%s%s): "
                       "make the data larger than the cache (--rows) or the cache smaller",
                       hit, size, cache[0] ? "; " : "", cache)
           : xasprintf("the run was meant to be CPU-bound (the hot keys) but %.1f%% of page "
                       "reads missed the engine's cache: warm it up (--warmup) or give the "
                       "engine more cache",
                       100 - hit);
    json_object_set_new(r, "why", json_string(msg));
    warn_add(w, msg);
    return r;
}

/* A run on several nodes: their parts of the document (session/cluster.h). On one node
 * of a Galera cluster: its conflicts, and the commit count Com_commit gets wrong (it
 * counts the COMMITs the cluster refused) as the cluster's sequence counts it. */
static void cluster_parts(session_run *s)
{
    if (s->ctx.cluster) {
        dg_url u;
        dg_place place = DG_PLACE_TERMINAL;
        if (dg_url_parse(s->cfg->db, &u, NULL) == 0) {
            place = u.place;
            dg_url_free(&u);
        }
        dg_cluster_finish(s->ctx.cluster, &s->st, place, closing_deadline(10 * DG_NS_PER_S), s->doc);
        return;
    }
    const dg_clusterstats *a = &s->db_before.cluster, *b = &s->db_after.cluster;
    json_t *conf = dg_cluster_conflicts_json(a, b);
    if (!conf)
        return;
    json_object_set_new(json_object_get(s->doc, "totals"), "conflicts", conf);
    json_t *mon = json_object_get(s->doc, "monitor");
    if (mon && a->cert_failures >= 0 && b->cert_failures >= 0)
        json_object_set_new(mon, "server_commits",
                            json_integer(b->seqno - a->seqno - (b->cert_failures - a->cert_failures)));
}

/* The finished run's figures into the document (results/doc.c names them). */
static void finish_document(session_run *s)
{
    const dg_session_config *cfg = s->cfg;
    const dg_workload *wl = cfg->wl;
    const dg_run_stats *st = &s->st;
    char started[32];
    dg_doc_run run = run_figures(cfg, s->conn, st, s->tx_names, s->tx_weights, started);
    dg_doc_drain_tx *drain = cfg->transactions ? NULL : drain_tx(st, wl);
    dg_doc_metric metrics[DG_MAX_METRICS];
    int nmetrics = wl->ops->metrics ? workload_metrics(s, metrics) : 0;
    dg_doc_monitor mon = monitor_figures(&s->ctx, st, &s->db_before, &s->db_after);
    dg_doc_server_host srv;
    if (s->ctx.srv) {
        server_host_figures(&s->ctx, st, &srv);
        mon.server_host = &srv;
    }
    dg_doc_error errors[DG_RUN_MAX_ERRORS];
    for (int i = 0; i < st->nerrors; i++)
        errors[i] = (dg_doc_error){st->errors[i].msg, st->errors[i].tx, st->errors[i].cls,
                                   st->errors[i].count};
    warnings w = {0};
    bool embedded = dg_has_cap(s->conn, DG_CAP_EMBEDDED);
    lag_warning(&w, &s->ctx, cfg);
    end_warnings(&w, st, s->overrun_s, embedded, cfg);
    json_t *regime = regime_check(&w, s, &mon);
    dg_doc_result r = {
        .run = &run,
        .load = s->load,
        .totals = &st->all[DG_PHASE_MEASURE],
        .totals_s = (double)st->phase_ns[DG_PHASE_MEASURE] / DG_NS_PER_S,
        .warmup = &st->all[DG_PHASE_WARMUP],
        .warmup_s = (double)st->phase_ns[DG_PHASE_WARMUP] / DG_NS_PER_S,
        .ntx = st->ntx,
        .tx_names = s->tx_names,
        .tx_weights = s->tx_weights,
        .tx = st->tx[DG_PHASE_MEASURE],
        .warmup_tx = cfg->warmup_ns > 0 ? st->tx[DG_PHASE_WARMUP] : NULL,
        .drain_tx = drain,
        .drain_s = (double)st->drain_ns / DG_NS_PER_S,
        .metrics = wl->ops->metrics != NULL,
        .nmetrics = nmetrics,
        .metric = metrics,
        .intervals = s->ctx.intervals,
        .warmup_intervals = s->ctx.warm_intervals,
        .schedule_lag = cfg->rate_tps > 0 ? &st->lag[DG_PHASE_MEASURE] : NULL,
        .monitor = &mon,
        .nerrors = st->nerrors,
        .errors = errors,
        .nwarnings = w.n,
        .warnings = (const char *const *)w.msg,
        .extra = cfg->extra,
    };
    dg_doc_run_finish(s->doc, &r);
    if (regime)
        json_object_set_new(s->doc, "regime", regime);
    if (s->ctx.locks || s->ctx.locks_why) {
        json_t *mon_doc = json_object_get(s->doc, "monitor");
        json_t *lt = s->ctx.locks ? dg_locktab_finish(s->ctx.locks) : dg_locktab_missing(s->ctx.locks_why);
        s->ctx.locks = NULL;
        if (mon_doc)
            json_object_set_new(mon_doc, "lock_table", lt);
        else
            json_decref(lt);
    }
    cluster_parts(s);
    if (s->wait_profile) {
        json_object_set_new(s->doc, "wait_profile", s->wait_profile);
        s->wait_profile = NULL;
    }
    dg_verdict_annotate(s->doc); /* last: it weighs the figures above */
    if (s->ctx.events) {
        json_object_set_new(s->doc, "events",
                            dg_events_finish(s->ctx.events, closing_deadline(5 * DG_NS_PER_S)));
        s->ctx.events = NULL;
    }
    for (int i = 0; i < w.n; i++)
        free(w.msg[i]);
    free(drain);
}

/* Releases what the session holds: the sampler (a stuck one keeps the connection), the
 * workload's run set-up, the statistics, the connection. */
static void session_end(session_run *s)
{
    const dg_workload *wl = s->cfg->wl;
    run_ctx *ctx = &s->ctx;
    if (ctx->sampler && !dg_sampler_stop(ctx->sampler, closing_deadline(DG_NS_PER_S))) {
        dg_log_warn("the database has not answered its statistics query for seconds: the "
                    "monitor connection is left behind");
        s->conn_abandoned = true;
    }
    if (s->conn_abandoned)
        s->conn = NULL; /* the sampler's thread still uses it */
    if (s->run_begun && s->conn && wl->ops->run_end) {
        dg_err e_end = DG_ERR_INIT;
        if (wl->ops->run_end(s->cfg->wl, s->conn, &e_end))
            dg_log_warn("cannot remove what the run made in the database: %s", e_end.msg);
    }
    if (s->have_stats)
        dg_run_stats_free(&s->st);
    dg_srvhost_close(ctx->srv);
    json_decref(dg_locktab_finish(ctx->locks));
    free(ctx->locks_why);
    dg_cluster_close(ctx->cluster);
    json_decref(dg_events_finish(ctx->events, closing_deadline(DG_NS_PER_S)));
    json_decref(dg_waits_finish(ctx->waits, closing_deadline(DG_NS_PER_S)));
    json_decref(s->wait_profile);
    free(s->termwaits);
    json_decref(ctx->intervals);
    json_decref(ctx->warm_intervals);
    free(ctx->lag_p99_ms);
    free(s->tx_names);
    free(s->tx_weights);
    json_decref(s->doc);
    json_decref(s->load);
    dg_conn_close(s->conn);
    dg_nodelist_free(&s->nodes);
    dg_nodelist_free(&s->read_nodes);
}

/* The URL's hosts and --db-read's replicas, which must be the same engine's. */
static int split_nodes(session_run *s, dg_err *err)
{
    const dg_session_config *cfg = s->cfg;
    int rc = dg_url_nodes(cfg->db, &s->nodes, err);
    if (rc || !cfg->db_read)
        return rc;
    if ((rc = dg_url_nodes_list(cfg->db_read, &s->read_nodes, err)) != 0) {
        dg_err_prefix(err, "--db-read");
        return rc;
    }
    dg_url w, r;
    if (dg_url_parse(cfg->db, &w, err))
        return DG_E_INVAL;
    for (int i = 0; i < s->read_nodes.n && rc == 0; i++) {
        if ((rc = dg_url_parse(s->read_nodes.urls[i], &r, err)) != 0)
            break;
        if (strcmp(r.scheme, w.scheme))
            rc = dg_err_fail(err, DG_E_INVAL, "--db-read: %s is a %s URL, and --db a %s one: the "
                             "replicas must be the same database's", r.redacted, r.scheme, w.scheme);
        dg_url_free(&r);
    }
    dg_url_free(&w);
    return rc;
}

int dg_session_run(const dg_session_config *cfg, json_t **doc_out, dg_session_stage *stage,
                   dg_err *err)
{
    *doc_out = NULL;
    *stage = DG_STAGE_SETUP;
    if (cfg->keying_think && !cfg->wl->ops->pause_ns)
        return dg_err_fail(err, DG_E_INVAL, "workload '%s' has no keying and think times (--keying-think)",
                           cfg->wl->name);
    session_run s;
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    /* SIGINT and SIGTERM stop whatever phase is under way (the load, the run, the closing
     * statistics), for the whole session, within one shared deadline (core/stop.h) */
    dg_sigsave saved;
    dg_run_clear_stop();
    dg_signals_catch(on_signal, &saved);
    char started[32];
    dg_format_iso8601(dg_wall_ns(), started, sizeof started);
    int rc = split_nodes(&s, err);
    if (rc || (rc = dg_session_connect(cfg, false, &s.conn, err)) != 0 ||
        (rc = check_modes(cfg, s.conn, err)) != 0)
        goto out;
    if ((rc = set_up(&s, stage, err)) != 0) {
        if (rc == DG_E_STOPPED && s.load) {
            /* stopped while loading first: the partial load is the session's result */
            *doc_out = load_document(cfg, s.conn, s.load, started, stop_reason());
            rc = 0;
        }
        goto out;
    }
    if ((rc = open_server_host(&s, err)) != 0)
        goto out;
    open_lock_table(&s);
    begin_document(&s);
    if ((rc = run_terminals(&s, stage, err)) != 0)
        goto out;
    judge_run(&s);
    close_monitor(&s);
    finish_document(&s);
    *doc_out = s.doc;
    s.doc = NULL;
out:
    session_end(&s);
    dg_signals_restore(&saved);
    return rc;
}
