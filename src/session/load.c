/*
 * load.c - the session's database preparation: connecting, the preamble shared by run,
 * load and check (inspect the workload's tables, drop, load, attach), and the timed load
 * with its "load" object (per-step timings, database growth, MB/s).
 *
 * Layout: connect, the load, the preamble.
 */
#include "session/load.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/stop.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "monitor/host.h"
#include "monitor/sysstat.h"
#include "results/doc.h"

#include <math.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void info(const dg_session_config *cfg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void info(const dg_session_config *cfg, const char *fmt, ...)
{
    if (!cfg->ui || !cfg->ui->info)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cfg->ui->info(cfg->ui->arg, msg);
}

static dg_connopts connopts(const dg_session_config *cfg, bool bulk)
{
    dg_connopts co = {
        .settings = cfg->settings,
        .nsettings = cfg->nsettings,
        .application_name = "dbgauge",
        .bulk_session = bulk,
    };
    return co;
}

/* ---- connect -------------------------------------------------------------------------------- */

int dg_load_default_jobs(const dg_conn *conn)
{
    if (!(conn->caps & DG_CAP_CONCURRENT_WRITERS))
        return 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4 ? 4 : (int)n;
}

int dg_session_connect(const dg_session_config *cfg, bool bulk, dg_conn **out, dg_err *err)
{
    dg_connopts co = connopts(cfg, bulk);
    co.local_facts = true; /* the session's connection: host facts, monitor, load timeline */
    int rc = dg_connect(cfg->db, &co, out, err);
    if (rc) {
        char *url = dg_url_redact(cfg->db);
        dg_err_prefix(err, "cannot connect to %s", url);
        free(url);
    }
    return rc;
}

/* ---- the load ------------------------------------------------------------------------------ */

/* The load's timeline: a thread that every second reads the loader's progress counters
 * (atomics) and the host's CPU and the data's disk, until the load ends. */
typedef struct timeline {
    dg_loader *ld;
    char block_device[64];
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;
    int64_t t0;
    int n, cap;
    dg_doc_load_tick *ticks;
    pthread_t thread;
    bool started;
} timeline;

static void *timeline_main(void *arg)
{
    timeline *tl = arg;
    dg_sysample prev;
    dg_sysample_take(tl->block_device, &prev);
    uint64_t rows0 = 0, bytes0 = 0;
    int64_t next = tl->t0 + DG_NS_PER_S;
    pthread_mutex_lock(&tl->lock);
    for (;;) {
        while (!tl->stop && dg_now_ns() < next) {
            /* the condition waits on CLOCK_MONOTONIC, dg_now_ns's clock */
            struct timespec ts = {.tv_sec = next / DG_NS_PER_S, .tv_nsec = next % DG_NS_PER_S};
            pthread_cond_timedwait(&tl->cond, &tl->lock, &ts);
        }
        bool last = tl->stop;
        pthread_mutex_unlock(&tl->lock);
        dg_sysample cur;
        dg_sysample_take(tl->block_device, &cur);
        uint64_t rows = atomic_load(&tl->ld->rows_done), bytes = atomic_load(&tl->ld->bytes_done);
        if (tl->n == tl->cap) {
            tl->cap = tl->cap ? 2 * tl->cap : 64;
            tl->ticks = xrealloc(tl->ticks, (size_t)tl->cap * sizeof *tl->ticks);
        }
        dg_doc_load_tick *k = &tl->ticks[tl->n++];
        memset(k, 0, sizeof *k);
        k->t_s = (double)(cur.t_ns - tl->t0) / DG_NS_PER_S;
        k->dur_s = (double)(cur.t_ns - prev.t_ns) / DG_NS_PER_S;
        k->rows = rows - rows0;
        k->bytes = bytes - bytes0;
        dg_sysample_delta(&prev, &cur, &k->sys);
        k->step = -1;
        prev = cur;
        rows0 = rows;
        bytes0 = bytes;
        next += DG_NS_PER_S;
        pthread_mutex_lock(&tl->lock);
        if (last)
            break;
    }
    pthread_mutex_unlock(&tl->lock);
    return NULL;
}

static void timeline_start(timeline *tl, dg_loader *ld, const char *data_path)
{
    memset(tl, 0, sizeof *tl);
    tl->ld = ld;
    dg_hostinfo h;
    dg_host_info(data_path, &h);
    snprintf(tl->block_device, sizeof tl->block_device, "%s", h.block_device);
    pthread_mutex_init(&tl->lock, NULL);
    dg_cond_init_monotonic(&tl->cond);
    tl->t0 = dg_now_ns();
    tl->started = pthread_create(&tl->thread, NULL, timeline_main, tl) == 0;
}

/* Ends the timeline (its last tick covers the end of the load) and names the step under
 * way at each tick's end. */
static void timeline_stop(timeline *tl)
{
    if (tl->started) {
        pthread_mutex_lock(&tl->lock);
        tl->stop = true;
        pthread_cond_signal(&tl->cond);
        pthread_mutex_unlock(&tl->lock);
        pthread_join(tl->thread, NULL);
    }
    for (int i = 0; i < tl->n; i++) {
        int64_t at = tl->t0 + (int64_t)(tl->ticks[i].t_s * DG_NS_PER_S);
        for (int s = 0; s < tl->ld->nsteps; s++) {
            const dg_load_step *st = &tl->ld->steps[s];
            if (at >= st->start_ns && at <= st->start_ns + (int64_t)(st->seconds * DG_NS_PER_S))
                tl->ticks[i].step = s;
        }
    }
    pthread_cond_destroy(&tl->cond);
    pthread_mutex_destroy(&tl->lock);
}

static void interrupt_conn(void *conn)
{
    dg_interrupt(conn);
}

/* What the loader's callbacks (on its calling thread, one step after another) need: the
 * UI, and a connection of its own that reads the database's page counters at each step's
 * end, so each step gets the reads and writes since the previous one, as a restore log
 * shows them. */
typedef struct load_ctx {
    const dg_session_ui *ui;
    dg_loader *ld;
    dg_conn *mon; /* NULL: no page counters */
    dg_dbstats last;
    int64_t reads[DG_LOAD_MAX_STEPS], writes[DG_LOAD_MAX_STEPS];
} load_ctx;

static void on_step(void *arg, const dg_load_step *s)
{
    load_ctx *lc = arg;
    int i = (int)(s - lc->ld->steps);
    dg_dbstats now;
    if (i >= 0 && i < DG_LOAD_MAX_STEPS) {
        lc->reads[i] = lc->writes[i] = -1;
        if (lc->mon && dg_stats(lc->mon, &now, NULL) == 0) {
            if (now.cache_misses >= 0 && lc->last.cache_misses >= 0)
                lc->reads[i] = now.cache_misses - lc->last.cache_misses;
            if (now.pages_written >= 0 && lc->last.pages_written >= 0)
                lc->writes[i] = now.pages_written - lc->last.pages_written;
            lc->last = now;
        }
    }
    if (lc->ui && lc->ui->load_step)
        lc->ui->load_step(lc->ui->arg, s);
}

static void on_step_begin(void *arg, const char *kind, const char *name)
{
    const load_ctx *lc = arg;
    if (lc->ui && lc->ui->load_step_begin)
        lc->ui->load_step_begin(lc->ui->arg, kind, name);
}

static void on_progress(void *arg, uint64_t rows, uint64_t total, const char *what)
{
    const load_ctx *lc = arg;
    if (lc->ui && lc->ui->load_progress)
        lc->ui->load_progress(lc->ui->arg, rows, total, what);
}

/* The scale --size asks for (*scale), refused when the workload has no size model or the
 * scale is beyond DG_SCALE_MAX: checked before anything is dropped or written. sz and per
 * receive the size and the bytes per scale unit, as shown. */
static int size_scale(const dg_session_config *cfg, double *scale, char *sz, char *per, dg_err *err)
{
    const dg_workload *wl = cfg->wl;
    if (!wl->bytes_per_scale)
        return dg_err_fail(err, DG_E_INVAL,
                           "workload '%s' has no size model: use --scale instead of --size", wl->name);
    *scale = ceil((double)cfg->size_bytes / (double)wl->bytes_per_scale);
    dg_format_size(cfg->size_bytes, sz, 32);
    dg_format_size(wl->bytes_per_scale, per, 32);
    if (*scale > DG_SCALE_MAX)
        return dg_err_fail(err, DG_E_INVAL,
                           "--size %s means scale %.0f (about %s per %s), more than the largest "
                           "scale, %d",
                           sz, *scale, per, wl->scale_unit, DG_SCALE_MAX);
    return 0;
}

int dg_session_load(const dg_session_config *cfg, dg_conn *conn, json_t **load_out, dg_err *err)
{
    dg_workload *wl = cfg->wl;
    if (cfg->size_bytes) {
        double s;
        char sz[32], per[32];
        int rc = size_scale(cfg, &s, sz, per, err);
        if (rc)
            return rc;
        wl->scale = s < 1 ? 1 : (int64_t)s;
        info(cfg, "--size %s: scale %lld (about %s per %s)", sz, (long long)wl->scale, per,
             wl->scale_unit);
    }
    dg_dbstats before;
    memset(&before, 0, sizeof before);
    if (dg_stats(conn, &before, NULL))
        before.db_size_bytes = -1;

    dg_connopts co = connopts(cfg, true);
    dg_loader ld;
    memset(&ld, 0, sizeof ld);
    ld.url = cfg->db;
    ld.connopts = &co;
    ld.conn = conn;
    ld.jobs = cfg->jobs > 0 ? cfg->jobs : dg_load_default_jobs(conn);
    if (cfg->jobs <= 0 && ld.jobs > 1)
        info(cfg, "%d parallel load jobs (this machine's cores, at most 4; -j N to choose)", ld.jobs);
    ld.seed = cfg->seed;
    ld.scale = wl->scale;
    load_ctx lc;
    memset(&lc, 0, sizeof lc);
    lc.ui = cfg->ui;
    lc.ld = &ld;
    lc.last.cache_misses = lc.last.pages_written = -1;
    {
        dg_connopts mo = connopts(cfg, false);
        dg_err e = DG_ERR_INIT;
        if (dg_connect(cfg->db, &mo, &lc.mon, &e) == 0 && dg_stats(lc.mon, &lc.last, NULL) != 0)
            lc.last.cache_misses = lc.last.pages_written = -1;
    }
    ld.on_step = on_step;
    ld.on_progress = on_progress;
    ld.on_step_begin = on_step_begin;
    ld.arg = &lc;
    dg_loader_init(&ld);
    if (cfg->ui && cfg->ui->load_begin)
        cfg->ui->load_begin(cfg->ui->arg, wl, conn->url_redacted, ld.jobs, cfg->seed);

    /* A stop request (the session catches SIGINT and SIGTERM) ends the load at its next
     * unit, step or few thousand rows; a statement still running after a grace (an index
     * build, a server that does not answer) has its connection interrupted. What was
     * loaded until then is reported, marked by the caller as incomplete. */
    dg_stop_watch *watch = dg_stop_watch_start(interrupt_conn, conn, DG_LOADER_STOP_GRACE_NS);
    timeline tl;
    timeline_start(&tl, &ld, conn->data_path);
    int64_t t0 = dg_now_ns();
    int rc = dg_loader_check_stop(err);
    if (rc == 0)
        rc = wl->ops->load(wl, &ld, err);
    if (rc == 0 && conn->dialect->post_load_sql)
        rc = dg_exec(conn, conn->dialect->post_load_sql, err);
    double secs = (double)(dg_now_ns() - t0) / DG_NS_PER_S;
    /* an error after a stop request is the stop's doing (an interrupted statement, a
     * connection shut down): the load was stopped, not failed */
    bool stopped = rc != 0 && dg_stop_requested();
    dg_stop_watch_end(watch);
    timeline_stop(&tl);
    if (lc.mon)
        dg_conn_close(lc.mon);
    if (rc && !stopped) {
        free(tl.ticks);
        dg_err_prefix(err, "loading %s failed", wl->name);
        return rc;
    }
    if (stopped) {
        int sig = dg_stop_signal();
        dg_err_fail(err, DG_E_STOPPED, "loading %s was interrupted (%s)", wl->name,
                    sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a stop request");
    }
    /* the tables and indexes as the engine sees them, like the growth study's IBAnalyst
     * table; on an engine whose file keeps a dropped table's pages, their sum is also the
     * honest size of what was loaded */
    dg_objstat *objs = NULL;
    int nobjs = 0;
    int64_t o0 = dg_now_ns();
    dg_err oe = DG_ERR_INIT;
    int orc = wl->tables && !cfg->no_table_stats && !stopped
                  ? dg_object_stats(conn, wl->tables, &objs, &nobjs, &oe)
                  : DG_E_UNSUPPORTED;
    double osecs = (double)(dg_now_ns() - o0) / DG_NS_PER_S;
    if (orc && orc != DG_E_UNSUPPORTED)
        dg_log_warn("cannot read the loaded tables' statistics: %s", oe.msg);
    double obytes = 0;
    for (int i = 0; i < nobjs; i++)
        if (objs[i].bytes > 0)
            obytes += (double)objs[i].bytes;
    dg_dbstats after;
    memset(&after, 0, sizeof after);
    if (dg_stats(conn, &after, NULL)) /* after a stop: quick (an interrupted connection fails) */
        after.db_size_bytes = -1;
    uint64_t sent = 0;
    for (int i = 0; i < ld.nsteps; i++)
        sent += ld.steps[i].bytes;
    /* the load's size is what the database grew by, unless that does not measure it: a
     * database file that keeps the pages of dropped tables (SQLite, Firebird) refills
     * them on a reload and hardly grows; then the bytes sent stand in, and say so */
    double grown = (double)sent;
    const char *measure = "sent";
    double growth = before.db_size_bytes >= 0 && after.db_size_bytes >= 0
                        ? (double)(after.db_size_bytes - before.db_size_bytes)
                        : NAN;
    if (orc == 0 && obytes > 0 && !(growth >= 0.9 * obytes)) {
        /* the file reused free pages (wholly or in part): the tables and indexes measure
         * the load, the growth would undercount it */
        grown = obytes;
        measure = "objects";
    } else if (growth >= (double)sent / 2) {
        grown = growth;
        measure = "growth";
    }
    dg_doc_step *steps = xcalloc((size_t)ld.nsteps + 1, sizeof *steps);
    for (int i = 0; i < ld.nsteps; i++)
        steps[i] = (dg_doc_step){ld.steps[i].name, ld.steps[i].kind, ld.steps[i].seconds,
                                 ld.steps[i].rows, ld.steps[i].bytes,
                                 (double)(ld.steps[i].start_ns - t0) / DG_NS_PER_S,
                                 i < DG_LOAD_MAX_STEPS ? lc.reads[i] : -1,
                                 i < DG_LOAD_MAX_STEPS ? lc.writes[i] : -1};
    dg_doc_load dl = {
        .workload = wl->name,
        .scale = wl->scale,
        .jobs = ld.jobs,
        .seed = cfg->seed,
        .bytes = grown,
        .bytes_measure = measure,
        .data_bytes_sent = sent,
        .db_size_bytes = after.db_size_bytes,
        .seconds = secs,
        .nsteps = ld.nsteps,
        .steps = steps,
        .nobjects = nobjs,
        .objects = objs,
        .objects_read = orc == 0,
        .objects_seconds = osecs,
        .nticks = tl.n,
        .ticks = tl.ticks,
    };
    char bpath[320] = "", bwhy[512] = "";
    if (conn->be->bulk_path) {
        conn->be->bulk_path(conn, bpath, sizeof bpath, bwhy, sizeof bwhy);
        dl.bulk_path = bpath;
        dl.bulk_why = bwhy;
    }
    json_t *load = dg_doc_load_json(&dl);
    free(objs);
    free(steps);
    free(tl.ticks);
    if (cfg->ui && cfg->ui->load_done && !stopped) /* a stopped load's sizes are no speed */
        cfg->ui->load_done(cfg->ui->arg, load);
    if (load_out)
        *load_out = load;
    else
        json_decref(load);
    return stopped ? DG_E_STOPPED : 0;
}

/* ---- the preamble ---------------------------------------------------------------------------- */

int dg_session_prepare(const dg_session_config *cfg, dg_conn *conn, dg_prepare_mode mode,
                       json_t **load, dg_session_stage *stage, dg_err *err)
{
    dg_workload *wl = cfg->wl;
    int rc = 0;
    *stage = DG_STAGE_SETUP;
    if (load)
        *load = NULL;
    if (wl->ops->usable && (rc = wl->ops->usable(wl, conn, err)) != 0)
        return rc;
    if (!wl->tables) {
        if (mode == DG_PREPARE_LOAD)
            return dg_err_fail(err, DG_E_INVAL,
                               "workload '%s' has no loader (it runs against tables you create)",
                               wl->name);
        /* what it reads from the database all the same (a script's :scale: the number of
           pgbench_branches rows) */
        if (wl->ops->attach && (rc = wl->ops->attach(wl, conn, err)) != 0)
            dg_err_prefix(err, "cannot read the workload's settings from the database");
        return rc;
    }
    bool all = false, some = false;
    rc = dg_workload_tables_exist(wl, conn, &all, &some, err);
    if (rc) {
        dg_err_prefix(err, "cannot inspect the database");
        return rc;
    }
    if (mode == DG_PREPARE_CHECK && !all)
        return dg_err_fail(err, DG_E_NOTFOUND,
                           "%s does not hold workload '%s' (run 'dbgauge load --workload %s' first)",
                           conn->url_redacted, wl->name, wl->name);
    if (mode == DG_PREPARE_LOAD && some && !cfg->reload)
        return dg_err_fail(err, DG_E_EXISTS,
                           "%s already holds %s tables of workload '%s': add --drop to replace them",
                           conn->url_redacted, all ? "the" : "some", wl->name);
    double ignored;
    char sz[32], per[32];
    if (mode != DG_PREPARE_CHECK && cfg->size_bytes && (!some || cfg->reload) &&
        (rc = size_scale(cfg, &ignored, sz, per, err)) != 0)
        return rc; /* before anything is dropped or written: a usage error */
    if (mode != DG_PREPARE_CHECK && some && cfg->reload) {
        info(cfg, "dropping the existing %s tables", wl->name);
        *stage = DG_STAGE_LOAD;
        if ((rc = wl->ops->drop(wl, conn, err)) != 0) {
            dg_err_prefix(err, "cannot drop the existing tables");
            return rc;
        }
        some = all = false;
    }
    if (mode != DG_PREPARE_CHECK && !some) {
        if (mode == DG_PREPARE_RUN && cfg->part_n > 1) /* every part would load it */
            return dg_err_fail(err, DG_E_NOTFOUND,
                               "%s does not hold workload '%s': a part of a run does not load "
                               "(run 'dbgauge load' once, then start the parts)",
                               conn->url_redacted, wl->name);
        if (mode == DG_PREPARE_RUN && cfg->no_load)
            return dg_err_fail(err, DG_E_NOTFOUND,
                               "%s does not hold workload '%s' (run 'dbgauge load' first)",
                               conn->url_redacted, wl->name);
        if (mode == DG_PREPARE_RUN)
            /* what is missing is this workload's tables: the database may hold others' */
            info(cfg, "%s has no tables of workload %s: loading them first", conn->url_redacted,
                 wl->name);
        *stage = DG_STAGE_LOAD;
        if ((rc = dg_session_load(cfg, conn, load, err)) != 0)
            return rc;
        *stage = DG_STAGE_SETUP;
    } else if (mode == DG_PREPARE_RUN && !all) {
        return dg_err_fail(err, DG_E_INVAL,
                           "%s holds only some tables of workload '%s' (an interrupted load?): run "
                           "'dbgauge load --drop' to reload it",
                           conn->url_redacted, wl->name);
    } else if (mode == DG_PREPARE_RUN && cfg->jobs > 1) {
        /* pgbench's -j is its client threads; ours is parallel load jobs */
        dg_log_warn("-j %d is the number of parallel load jobs, and the tables are loaded: it "
                    "changes nothing here (terminals: -c; event-loop threads: --workers)",
                    cfg->jobs);
    }
    if (mode == DG_PREPARE_LOAD)
        return 0;
    if (wl->ops->attach && (rc = wl->ops->attach(wl, conn, err)) != 0) {
        dg_err_prefix(err, "cannot read the loaded workload");
        return rc;
    }
    return 0;
}
