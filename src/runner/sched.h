/*
 * sched.h - an event loop that runs many terminals on one thread as fibers.
 *
 * A worker thread makes a scheduler, spawns one fiber per terminal and runs the loop until
 * every fiber has returned. A fiber runs until it waits: for its connection's socket
 * (dg_wait_fd from a backend in non-blocking mode) or until a time (think time, keying
 * time, a --rate arrival, a reconnect backoff). Waits go through the thread's waiter
 * (core/wait.h), which the scheduler installs while it runs, so the terminal code is the
 * same as on a thread of its own. The loop keeps the sleepers in a min-heap of the latest
 * times they may wake (see Slack) and the sockets in epoll (one-shot, re-armed by each wait), and sleeps in epoll_pwait2
 * with a nanosecond timeout.
 *
 * Slack: a sleep may say how late it may end (think and keying time: a small fraction of
 * the sleep). The loop wakes for the earliest latest time, and each wake-up, for a
 * result as much as for a timer, ends the sleeps at the top of the heap whose deadline
 * has passed (one due deeper down waits for a later wake-up, never past its own latest
 * time): fifty thinking terminals cost about one wake-up per transaction, not 1.2.
 *
 * Loop lag: how late a timer fires (from its deadline, or the end of its slack, to the
 * loop noticing it) is summed per scheduler; a worker whose fibers keep it busy shows it
 * here.
 *
 * Stacks: each fiber has an mmap'd stack with a guard page below it; untouched pages
 * cost no memory. A fiber that rests (dg_sched_rest_until) gives its stack back to a
 * small pool until it runs again. Fibers switch with swapcontext, annotated for AddressSanitizer and
 * ThreadSanitizer when built with them.
 *
 * Thread-safety: a scheduler belongs to the thread that runs it, except dg_sched_kick,
 * which any thread or a signal handler may call.
 */
#ifndef DG_RUNNER_SCHED_H
#define DG_RUNNER_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dg_sched dg_sched;

typedef struct dg_sched_stats {
    uint64_t timers;      /* timer expiries (sleeps and wait deadlines that ran out) */
    int64_t lag_sum_ns;   /* sum over them of (noticed - deadline - slack), 0 when not after */
    int64_t lag_max_ns;
    uint64_t wakeups;     /* returns from epoll */
    uint64_t trims;       /* stacks given back before a long sleep or on request (madvise) */
    int64_t stacks;       /* stacks mapped now: the running and sleeping fibers', the pool's */
} dg_sched_stats;

/* A scheduler for up to max_fibers fibers, each with a stack of stack_bytes (rounded up to
 * pages, plus a guard page). NULL when out of memory or descriptors (errno says which). */
dg_sched *dg_sched_new(int max_fibers, size_t stack_bytes);

/* Frees the scheduler; its fibers must have returned (dg_sched_run did). NULL allowed. */
void dg_sched_free(dg_sched *s);

/* Adds a fiber that will run fn(arg) once dg_sched_run starts. 0 or DG_E_NOMEM / DG_E_INVAL
 * (more than max_fibers). */
int dg_sched_spawn(dg_sched *s, void (*fn)(void *), void *arg);

/* A rest instead of a sleep, for a fiber that can start over: asks that when the running
 * fiber's function returns (the caller returns right after this call), the fiber keep no
 * stack until deadline_ns (at most slack_ns later, as a sleep's slack) or a kick, and then
 * run its function again from the start on a stack from the scheduler's pool. What the
 * function needs across the rest it keeps in its argument. false outside a fiber (then
 * nothing is asked: sleep instead). */
bool dg_sched_rest_until(int64_t deadline_ns, int64_t slack_ns);

/* Runs the fibers until all have returned, with this thread's waiter set to the
 * scheduler meanwhile (restored after). */
void dg_sched_run(dg_sched *s);

/* Wakes the loop and every fiber sleeping until a time (they return from their sleep
 * early and check what they wait for again); fibers waiting for a socket stay. Safe from
 * any thread and from a signal handler (one write to an eventfd). */
void dg_sched_kick(dg_sched *s);

/* The bounds of the running fiber's stack (for giving back pages below the frame); 0 and
 * NULL outside a fiber. */
void *dg_sched_stack_low(void);

/* Loop figures so far; call on the scheduler's thread or after dg_sched_run returned. */
void dg_sched_stats_get(const dg_sched *s, dg_sched_stats *out);

#endif
