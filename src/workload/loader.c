/* loader.c - timed load steps, progress counters and parallel load jobs. */
#include "workload/loader.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/stop.h"
#include "core/xalloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void dg_loader_init(dg_loader *ld)
{
    atomic_init(&ld->rows_done, 0);
    atomic_init(&ld->bytes_done, 0);
    ld->rows_total = 0;
    ld->nsteps = 0;
    ld->current[0] = '\0';
    if (ld->jobs < 1)
        ld->jobs = 1;
}

void dg_loader_step_begin(dg_loader *ld, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ld->current, sizeof ld->current, fmt, ap);
    va_end(ap);
    if (ld->nsteps < DG_LOAD_MAX_STEPS) {
        dg_load_step *s = &ld->steps[ld->nsteps];
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "%s", ld->current);
        snprintf(s->kind, sizeof s->kind, "%s", kind);
    }
    ld->step_start_ns = dg_now_ns();
    if (ld->on_step_begin)
        ld->on_step_begin(ld->arg, kind, ld->current);
}

void dg_loader_step_end(dg_loader *ld, uint64_t rows, uint64_t bytes)
{
    if (ld->nsteps >= DG_LOAD_MAX_STEPS)
        return;
    dg_load_step *s = &ld->steps[ld->nsteps++];
    s->seconds = (double)(dg_now_ns() - ld->step_start_ns) / DG_NS_PER_S;
    s->start_ns = ld->step_start_ns;
    s->rows = rows;
    s->bytes = bytes;
    if (ld->on_step)
        ld->on_step(ld->arg, s);
}

int dg_loader_meta_row(dg_loader *ld, const char *table, const char *const *cols, int ncols,
                       const dg_value *vals, bool now_col, dg_err *err)
{
    dg_value v[16];
    if (ncols < 1 || ncols > 16)
        return dg_err_fail(err, DG_E_INVAL, "%s: %d columns", table, ncols);
    int n = now_col ? ncols - 1 : ncols;
    memcpy(v, vals, (size_t)n * sizeof *v);
    char now[20];
    if (now_col) {
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(now, sizeof now, "%Y-%m-%d %H:%M:%S", &tm);
        v[n] = dg_vtext(now, 19);
    }
    dg_loader_step_begin(ld, "table", "table %s", table);
    dg_bulk *b = NULL;
    int rc = dg_bulk_begin(ld->conn, table, cols, ncols, &b, err);
    if (rc)
        return rc;
    rc = dg_bulk_row(b, v, err);
    int rc2 = dg_bulk_end(b, rc == 0, rc ? NULL : err);
    if (rc == 0)
        rc = rc2;
    if (rc == 0)
        dg_loader_step_end(ld, 1, 0);
    return rc;
}

void dg_loader_progress(dg_loader *ld, uint64_t rows, uint64_t bytes)
{
    atomic_fetch_add_explicit(&ld->rows_done, rows, memory_order_relaxed);
    atomic_fetch_add_explicit(&ld->bytes_done, bytes, memory_order_relaxed);
}

int dg_loader_check_stop(dg_err *err)
{
    if (!dg_stop_requested())
        return 0;
    return dg_err_fail(err, DG_E_STOPPED, "interrupted");
}

typedef struct job_ctx {
    dg_loader *ld;
    int (*fn)(dg_loader *, dg_conn *, int, void *, dg_err *);
    void *arg;
    const char *what;
    int nunits;
    atomic_int next_unit;
    atomic_int failed;
    atomic_int running;
    pthread_mutex_t lock;
    int rc;
    dg_err err;
} job_ctx;

typedef struct job {
    job_ctx *ctx;
    dg_conn *conn;
    bool own_conn;
    pthread_t thread;
} job;

static void job_fail(job_ctx *c, int rc, const dg_err *e)
{
    pthread_mutex_lock(&c->lock);
    if (!atomic_load(&c->failed)) {
        c->rc = rc;
        c->err = *e;
        atomic_store(&c->failed, 1);
    }
    pthread_mutex_unlock(&c->lock);
}

/* Runs a unit; one that lost a deadlock or a serialization conflict against another job
 * (InnoDB: two loads that both find a table empty and both want it whole) runs again
 * where its failed attempt left nothing behind (DG_CAP_BULK_ATOMIC), after a short pause. */
static int run_unit(job_ctx *c, dg_conn *conn, int unit, dg_err *e)
{
    enum { UNIT_TRIES = 5 };
    for (int tries = 1;; tries++) {
        int rc = c->fn(c->ld, conn, unit, c->arg, e);
        if (rc == 0 || e->cls != DG_EC_RETRY || !dg_has_cap(conn, DG_CAP_BULK_ATOMIC) ||
            tries >= UNIT_TRIES || dg_stop_requested() || atomic_load(&c->failed))
            return rc;
        dg_log_warn("%s, unit %d of %d: %s; running it again (try %d of %d)", c->what, unit + 1,
                    c->nunits, e->msg, tries + 1, UNIT_TRIES);
        dg_sleep_ns((int64_t)(10 + 30 * tries) * DG_NS_PER_MS);
        dg_err_clear(e);
    }
}

static void *job_main(void *arg)
{
    job *j = arg;
    job_ctx *c = j->ctx;
    dg_err e;
    dg_err_clear(&e);
    if (!j->conn) {
        dg_conn *conn = NULL;
        int rc = dg_connect(c->ld->url, c->ld->connopts, &conn, &e);
        if (rc) {
            job_fail(c, rc, &e);
            goto out;
        }
        pthread_mutex_lock(&c->lock); /* the calling thread may interrupt it (a stop) */
        j->conn = conn;
        j->own_conn = true;
        pthread_mutex_unlock(&c->lock);
    }
    for (;;) {
        if (atomic_load(&c->failed))
            break;
        int unit = atomic_fetch_add(&c->next_unit, 1);
        if (unit >= c->nunits)
            break;
        if (dg_stop_requested()) {
            dg_err_fail(&e, DG_E_STOPPED, "interrupted");
            job_fail(c, DG_E_STOPPED, &e);
            break;
        }
        int rc = run_unit(c, j->conn, unit, &e);
        if (rc) {
            job_fail(c, rc, &e);
            break;
        }
    }
out:
    atomic_fetch_sub(&c->running, 1);
    return NULL;
}

int dg_loader_parallel(dg_loader *ld, int nunits,
                       int (*fn)(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err),
                       void *arg, const char *what, dg_err *err)
{
    int njobs = ld->jobs < nunits ? ld->jobs : nunits;
    if (njobs < 1)
        njobs = 1;
    job_ctx c;
    memset(&c, 0, sizeof c);
    c.ld = ld;
    c.fn = fn;
    c.arg = arg;
    c.what = what;
    c.nunits = nunits;
    atomic_init(&c.next_unit, 0);
    atomic_init(&c.failed, 0);
    atomic_init(&c.running, njobs);
    pthread_mutex_init(&c.lock, NULL);
    job *jobs = xcalloc((size_t)njobs, sizeof *jobs);
    int started = 0;
    for (int i = 0; i < njobs; i++) {
        jobs[i].ctx = &c;
        jobs[i].conn = i == 0 ? ld->conn : NULL; /* job 0 uses the main connection */
        if (pthread_create(&jobs[i].thread, NULL, job_main, &jobs[i]) != 0) {
            atomic_fetch_sub(&c.running, njobs - i);
            dg_err e;
            dg_err_fail(&e, DG_E_IO, "cannot start load job thread");
            job_fail(&c, DG_E_IO, &e);
            break;
        }
        started++;
    }
    /* short naps so a step ends when its jobs do; progress ~10 times a second; jobs still
     * in a call a while after a stop request get their own connections interrupted (job 0's
     * is ld->conn: the session's) */
    int64_t next_progress = 0, stop_seen = 0;
    bool interrupted = false;
    while (atomic_load(&c.running) > 0) {
        int64_t now = dg_now_ns();
        if (!interrupted && dg_stop_requested()) {
            if (!stop_seen)
                stop_seen = now;
            if (now - stop_seen >= DG_LOADER_STOP_GRACE_NS) {
                pthread_mutex_lock(&c.lock);
                for (int i = 0; i < started; i++)
                    if (jobs[i].own_conn)
                        dg_interrupt(jobs[i].conn);
                pthread_mutex_unlock(&c.lock);
                interrupted = true;
            }
        }
        if (ld->on_progress && now >= next_progress) {
            ld->on_progress(ld->arg, atomic_load(&ld->rows_done), ld->rows_total, what);
            next_progress = now + 100 * DG_NS_PER_MS;
        }
        dg_sleep_ns(2 * DG_NS_PER_MS);
    }
    for (int i = 0; i < started; i++) {
        pthread_join(jobs[i].thread, NULL);
        if (jobs[i].own_conn)
            dg_conn_close(jobs[i].conn);
    }
    if (ld->on_progress)
        ld->on_progress(ld->arg, atomic_load(&ld->rows_done), ld->rows_total, what);
    free(jobs);
    pthread_mutex_destroy(&c.lock);
    if (atomic_load(&c.failed)) {
        if (err)
            *err = c.err;
        return c.rc;
    }
    return 0;
}

typedef struct analyze_job {
    const char *const *tables;
    const char *prefix, *cols, *name;
} analyze_job;

static int analyze_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    analyze_job *a = arg;
    (void)ld;
    int rc = dg_loader_check_stop(err);
    if (rc)
        return rc;
    char sql[512];
    const char *undo = conn->dialect->after_load_alter;
    if (undo) {
        snprintf(sql, sizeof sql, "ALTER TABLE %s%s", a->tables[unit], undo);
        rc = dg_exec(conn, sql, err);
        if (rc) {
            dg_err_prefix(err, "%s", a->tables[unit]);
            return rc;
        }
    }
    const char *suffix = conn->dialect->analyze_suffix ? conn->dialect->analyze_suffix : "";
    if (a->cols)
        snprintf(sql, sizeof sql, "%s%s (%s)%s", a->prefix, a->tables[unit], a->cols, suffix);
    else
        snprintf(sql, sizeof sql, "%s%s%s", a->prefix, a->tables[unit], suffix);
    rc = dg_exec(conn, sql, err);
    if (rc)
        dg_err_prefix(err, "%s %s", a->name, a->tables[unit]);
    return rc;
}

int dg_loader_analyze_cols(dg_loader *ld, const char *const *tables, const char *cols,
                           bool frozen, dg_err *err)
{
    const dg_dialect *d = ld->conn->dialect;
    const char *prefix = frozen && d->analyze_frozen_prefix ? d->analyze_frozen_prefix
                                                            : d->analyze_prefix;
    if (!prefix)
        return 0;
    /* the step is named after what runs: "analyze", "vacuum analyze", "analyze table" */
    char name[64];
    size_t n = 0;
    for (const char *p = d->analyze_name ? d->analyze_name : prefix; *p && n + 1 < sizeof name; p++)
        name[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    while (n > 0 && name[n - 1] == ' ')
        n--;
    name[n] = '\0';
    int ntables = 0;
    while (tables[ntables])
        ntables++;
    analyze_job a = {tables, prefix, d->analyze_columns ? cols : NULL, name};
    dg_loader_step_begin(ld, "other", "%s", name);
    int rc = 0;
    if (ld->jobs > 1 && ntables > 1) {
        rc = dg_loader_parallel(ld, ntables, analyze_unit, &a, name, err);
    } else {
        for (int t = 0; t < ntables && rc == 0; t++)
            rc = analyze_unit(ld, ld->conn, t, &a, err);
    }
    if (rc)
        return rc;
    dg_loader_step_end(ld, 0, 0);
    return 0;
}

int dg_loader_analyze(dg_loader *ld, const char *const *tables, dg_err *err)
{
    return dg_loader_analyze_cols(ld, tables, NULL, false, err);
}
