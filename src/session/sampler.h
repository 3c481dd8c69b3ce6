/*
 * sampler.h - the database's statistics (dg_stats) read on a thread of their own, so a
 * server that stalls cannot stall the collector: interval lines keep their clock, and an
 * interval whose sample did not come back in time says so (null figures) instead of
 * waiting, or extrapolating afterwards.
 *
 * One request, one dg_stats call: the collector asks at each interval boundary and waits
 * at most a deadline; while an earlier call is still in the server, a new request is not
 * sent again (the server's own counters of dbgauge's statistics transactions stay exact).
 *
 * Thread-safety: the functions are called by one thread (the collector); the sampler's
 * thread owns the connection between dg_sampler_start() and dg_sampler_stop().
 */
#ifndef DG_SESSION_SAMPLER_H
#define DG_SESSION_SAMPLER_H

#include "backend/backend.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dg_sampler {
    dg_conn *conn;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;  /* signalled on a request, on a finished sample and on stop */
    bool running;         /* the thread exists */
    bool stop;
    uint64_t requested;   /* requests made (sequence numbers) */
    uint64_t done;        /* the request the last finished sample answered */
    bool busy;            /* a dg_stats call is in the server */
    int last_rc;
    dg_dbstats last;      /* the last finished sample */
    uint64_t late;        /* samples that missed their deadline */
    uint64_t calls;       /* dg_stats calls made (each costs the server its transactions) */
} dg_sampler;

/* Starts the thread that reads conn's statistics on request; NULL if the thread could
 * not start. */
dg_sampler *dg_sampler_start(dg_conn *conn);

/* Asks for a sample now (unless one is still in the server) and waits until
 * deadline_ns (dg_now_ns clock) for it. true with *out filled when a sample answering
 * this request came back in time and succeeded; false (and *out all -1) otherwise. */
bool dg_sampler_take(dg_sampler *s, int64_t deadline_ns, dg_dbstats *out);

/* dg_sampler_take in two steps, so several samplers can be asked at once and then
 * waited for: the request's number, then its answer by deadline_ns (as take's). */
uint64_t dg_sampler_request(dg_sampler *s);
bool dg_sampler_wait(dg_sampler *s, uint64_t want, int64_t deadline_ns, dg_dbstats *out);

/* As dg_sampler_take, but first waits (until deadline_ns) for a call still in the server
 * to finish, so the sample is one asked for now, never an earlier one answering late: the
 * reading that closes a run. */
bool dg_sampler_take_fresh(dg_sampler *s, int64_t deadline_ns, dg_dbstats *out);

/* The dg_stats calls made so far. */
uint64_t dg_sampler_calls(dg_sampler *s);

/* Stops the thread, waiting at most until deadline_ns for a call still in the server,
 * and frees s. Returns true when the thread ended (the connection is the caller's
 * again); false when a call is still stuck in the server: the thread is detached and
 * keeps the connection (and s), which the caller must then neither use nor close. */
bool dg_sampler_stop(dg_sampler *s, int64_t deadline_ns);

#endif
