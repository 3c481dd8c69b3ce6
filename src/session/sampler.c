/* sampler.c - see sampler.h. */
#include "session/sampler.h"

#include "core/clock.h"
#include "core/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void unknown(dg_dbstats *s)
{
    memset(s, 0xff, sizeof *s); /* every counter -1 */
}

/* pthread_cond_timedwait on CLOCK_MONOTONIC until deadline_ns (dg_now_ns clock). */
static void wait_until(dg_sampler *s, int64_t deadline_ns)
{
    struct timespec ts = {.tv_sec = deadline_ns / DG_NS_PER_S, .tv_nsec = deadline_ns % DG_NS_PER_S};
    pthread_cond_timedwait(&s->cond, &s->lock, &ts);
}

static void *sampler_main(void *arg)
{
    dg_sampler *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->stop && s->done >= s->requested)
            pthread_cond_wait(&s->cond, &s->lock);
        if (s->stop)
            break;
        uint64_t answering = s->requested;
        s->busy = true;
        s->calls++;
        pthread_mutex_unlock(&s->lock);
        dg_dbstats st;
        int rc = dg_stats(s->conn, &st, NULL); /* may block while the server stalls */
        pthread_mutex_lock(&s->lock);
        s->busy = false;
        s->last_rc = rc;
        s->last = st;
        s->done = answering;
        pthread_cond_broadcast(&s->cond);
    }
    s->running = false;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

dg_sampler *dg_sampler_start(dg_conn *conn)
{
    dg_sampler *s = xcalloc(1, sizeof *s);
    s->conn = conn;
    pthread_mutex_init(&s->lock, NULL);
    dg_cond_init_monotonic(&s->cond);
    s->running = true;
    if (pthread_create(&s->thread, NULL, sampler_main, s) != 0) {
        pthread_cond_destroy(&s->cond);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    return s;
}

uint64_t dg_sampler_request(dg_sampler *s)
{
    pthread_mutex_lock(&s->lock);
    if (!s->busy) { /* a call stuck in the server is not joined by another */
        s->requested++;
        pthread_cond_broadcast(&s->cond);
    }
    uint64_t want = s->requested;
    pthread_mutex_unlock(&s->lock);
    return want;
}

bool dg_sampler_take(dg_sampler *s, int64_t deadline_ns, dg_dbstats *out)
{
    return dg_sampler_wait(s, dg_sampler_request(s), deadline_ns, out);
}

bool dg_sampler_wait(dg_sampler *s, uint64_t want, int64_t deadline_ns, dg_dbstats *out)
{
    unknown(out);
    pthread_mutex_lock(&s->lock);
    while (s->running && s->done < want && dg_now_ns() < deadline_ns)
        wait_until(s, deadline_ns);
    bool ok = s->done >= want && s->last_rc == 0;
    if (ok)
        *out = s->last;
    else if (s->done < want)
        s->late++;
    pthread_mutex_unlock(&s->lock);
    return ok;
}

bool dg_sampler_take_fresh(dg_sampler *s, int64_t deadline_ns, dg_dbstats *out)
{
    pthread_mutex_lock(&s->lock);
    while (s->running && s->busy && dg_now_ns() < deadline_ns)
        wait_until(s, deadline_ns);
    bool idle = !s->busy;
    if (!idle)
        s->late++;
    pthread_mutex_unlock(&s->lock);
    if (!idle) {
        unknown(out);
        return false;
    }
    return dg_sampler_take(s, deadline_ns, out);
}

uint64_t dg_sampler_calls(dg_sampler *s)
{
    pthread_mutex_lock(&s->lock);
    uint64_t n = s->calls;
    pthread_mutex_unlock(&s->lock);
    return n;
}

bool dg_sampler_stop(dg_sampler *s, int64_t deadline_ns)
{
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_broadcast(&s->cond);
    while (s->running && dg_now_ns() < deadline_ns)
        wait_until(s, deadline_ns);
    bool ended = !s->running;
    pthread_mutex_unlock(&s->lock);
    if (!ended) {
        /* stuck in the server: it keeps the connection and this struct from now on
         * (both are leaked on purpose: freeing them under its feet would be worse) */
        pthread_detach(s->thread);
        return false;
    }
    pthread_join(s->thread, NULL);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return true;
}
