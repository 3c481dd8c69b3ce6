/*
 * waits.h - the server wait profile: what the run's server sessions wait on, sampled on a
 * connection of its own (off the terminals' path) every --wait-profile interval, each
 * sample of a session attributed to the transaction type its terminal is running at that
 * moment (runner.h's dg_termwait: the terminal publishes its session id and current type).
 *
 * The backend's wait_sample_sql says, per server session, a class ("CPU": running;
 * "Client": the server waits for the client's next statement, time spent on the client
 * side between statements; or the engine's own: "Lock", "IO", "LWLock", ...) and an event
 * ("transactionid", "row lock", "WALSync", ...). A sample counts each terminal that is in
 * a transaction at most once; a terminal whose session the query did not show (another
 * node of a cluster, a session the user may not see) is counted as unseen.
 *
 * The profile covers the measured phase (dg_waits_interval with warm = false adds its
 * interval to it); each interval also gets its own class shares, for a time series.
 *
 * Thread-safety: one thread (the collector) calls these; the sampler thread owns the
 * connection between dg_waits_open and dg_waits_finish.
 */
#ifndef DG_SESSION_WAITS_H
#define DG_SESSION_WAITS_H

#include "backend/backend.h"
#include "runner/runner.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dg_waits dg_waits;

typedef struct dg_waits_spec {
    const char *url;              /* the sampler's own connection (a cluster's: the first
                                     host that answers) */
    const dg_connopts *connopts;
    const char *const *types;     /* the transaction types' names [ntypes] */
    int ntypes;
    dg_termwait *terms;           /* what the terminals publish [nterms] */
    int nterms;
    int64_t interval_ns;          /* between samples */
} dg_waits_spec;

/* Connects and prepares the query; the thread starts at dg_waits_begin. NULL when no
 * profile can be made, with *why (allocated) saying why: the engine tells none, the
 * connection or the query failed (the server's message, e.g. no privilege). */
dg_waits *dg_waits_open(const dg_waits_spec *spec, const dg_backend *be, char **why);

/* What the profile lacks on this server (performance_schema off, a privilege missing), or
 * NULL. */
const char *dg_waits_note(const dg_waits *w);
/* Why the samples are further apart than asked (the engine's view refreshes no faster), or
 * NULL. */
const char *dg_waits_interval_note(const dg_waits *w);

/* Starts sampling (the run's clock started). */
void dg_waits_begin(dg_waits *w);

/* The interval that just ended: {"samples": N, "classes": {CLASS: share}} over every type
 * (shares of the sessions sampled in a transaction, 0..1), NULL when it has no sample. A
 * measured interval (warm false) is added to the profile. */
json_t *dg_waits_interval(dg_waits *w, bool warm);

/* Stops the thread (interrupting a query still in the server at deadline_ns) and returns
 * the document's "wait_profile" (see docs/waits.md); frees w. NULL w: NULL. */
json_t *dg_waits_finish(dg_waits *w, int64_t deadline_ns);

/* The "wait_profile" of a run that has none: {"available": false, "reason": why}. */
json_t *dg_waits_missing(const char *why);

#endif
