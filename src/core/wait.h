/*
 * wait.h - how a blocking call waits: for a file descriptor to become ready, or until a
 * time. A thread that runs many terminals as fibers (runner/sched.h) installs a waiter,
 * and every wait made on that thread parks the current fiber instead of the thread; on
 * any other thread the waits are poll() and clock_nanosleep(). Backends whose client
 * library has a non-blocking mode wait through dg_wait_fd, so the same backend code
 * serves a thread per terminal and an event loop of many.
 */
#ifndef DG_CORE_WAIT_H
#define DG_CORE_WAIT_H

#include <stdbool.h>
#include <stdint.h>

enum { DG_WAIT_READ = 1, DG_WAIT_WRITE = 2 };

typedef struct dg_waiter {
    /* Waits for fd (DG_WAIT_* events) or until deadline_ns (INT64_MAX: none). Returns 1
     * when the descriptor may be ready (spurious readiness is allowed: the caller tries
     * and waits again), 0 on the deadline, negative DG_E_IO on error. */
    int (*wait_fd)(void *ctx, int fd, int events, int64_t deadline_ns);
    /* Sleeps until deadline_ns (monotonic), and at most slack_ns past it: a waiter that
     * serves many sleepers may end this one late by up to slack_ns, so that one wake-up of
     * its thread serves several (think time: a worker wakes for a result anyway, and
     * the sleeps at the top of its timer heap that are due by then end with it; others
     * end no later than their own deadline plus slack). Never early. 0: as close to the
     * deadline as the system allows. */
    void (*sleep_until)(void *ctx, int64_t deadline_ns, int64_t slack_ns);
    /* fd is a new descriptor: forget what is known of the number (see dg_wait_forget). */
    void (*forget_fd)(void *ctx, int fd);
    /* How long the running fiber's last wake, if it came at or after since_ns, waited for
     * its thread: from the loop seeing its socket ready (or its timer due) to the fiber
     * running. 0 when it did not wait, or the wake was earlier. */
    int64_t (*queued_since)(void *ctx, int64_t since_ns);
    void *ctx;
} dg_waiter;

/* Installs w as this thread's waiter (NULL: none). w must outlive its installation. */
void dg_waiter_set(const dg_waiter *w);

/* This thread's waiter, NULL when waits block the thread. */
const dg_waiter *dg_waiter_get(void);

/* Waits for fd through this thread's waiter, else with poll(). Same returns as
 * dg_waiter.wait_fd. Thread-safe. */
int dg_wait_fd(int fd, int events, int64_t deadline_ns);

/* Says that fd is a descriptor new since the last wait for that number (a socket a
 * client library has just opened): a waiter that keeps descriptors registered between
 * waits must not trust what it knew of the number, whose old descriptor may have been
 * closed behind its back. A backend calls it once per connect step, before the step's
 * wait. Elsewhere nothing. */
void dg_wait_forget(int fd);

#endif
