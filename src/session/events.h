/*
 * events.h - scheduled events of a run (--event TIME:COMMAND): a shell command started at
 * an offset into the measured phase (kill or restart a node, switch a CPU governor, take
 * a snapshot), and what became of it, for the result and the charts' marks.
 *
 * The commands run on a thread of their own, each in a process group of its own with
 * /bin/sh -c, stdin from /dev/null and its output on dbgauge's stderr; a command that is
 * still running does not delay the next one. Times are on the run's clock: an event at
 * 5s starts 5 s after the measured phase began (after any warmup). The command text is
 * kept with its passwords redacted; the command itself runs as the user wrote it.
 *
 * Thread-safety: one thread (the session's collector) calls these functions.
 */
#ifndef DG_SESSION_EVENTS_H
#define DG_SESSION_EVENTS_H

#include <jansson.h>
#include <stdint.h>

typedef struct dg_event_spec {
    int64_t at_ns;       /* from the start of the measured phase */
    const char *command; /* a shell command line */
} dg_event_spec;

typedef struct dg_events dg_events;

/* Starts the thread that runs the n events (any order) at measure_start_ns + at_ns
 * (dg_now_ns clock); NULL when n is 0 or the thread could not start (said). */
dg_events *dg_events_start(const dg_event_spec *ev, int n, int64_t measure_start_ns);

/* Ends the schedule: events not started by now are not run; commands still running get
 * until deadline_ns (dg_now_ns clock) to end, then SIGTERM to their process group. The
 * events as the result keeps them: [{"at_s", "command", "started_s", "exit", "duration_s",
 * "status"}], in time order; the caller owns the array. Frees e. */
json_t *dg_events_finish(dg_events *e, int64_t deadline_ns);

#endif
