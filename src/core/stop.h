/*
 * stop.h - the process's one stop request. SIGINT or SIGTERM during any phase (connecting,
 * loading, building indexes, running, checking, reporting) sets it; every loop that can run
 * long reads it (a relaxed atomic load: cheap enough for a row loop) and ends its phase with
 * what it has done so far. The runner's thinking terminals sleep on its word (futex.h).
 *
 * The first signal is kept as the reason, and the time of the request starts the one
 * deadline the whole shutdown shares (DG_STOP_BUDGET_NS): terminals, the closing
 * statistics and the samplers are given what is left of it, not a budget each.
 *
 * Thread-safety: any thread may read; dg_stop_request is async-signal-safe; dg_stop_clear
 * belongs to the main thread between pieces of work.
 */
#ifndef DG_CORE_STOP_H
#define DG_CORE_STOP_H

#include "core/clock.h"
#include "core/signals.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* How long after a stop signal the phase under way has to end (terminals included). The
 * closing waits get at least a short moment each after it (session.c), then the result
 * is written: the process exits within about 2 s of the signal. */
#define DG_STOP_BUDGET_NS (1300 * DG_NS_PER_MS)

/* The stop word: 0 until a stop is requested (the futex word sleepers wait on). Read it
 * through dg_stop_requested(). */
extern atomic_int dg_stop_word;

/* Requests a stop; signo (SIGINT, SIGTERM; 0 for an internal stop such as the end of a
 * run) is recorded when it is the first signal. Wakes everyone sleeping on the word.
 * Async-signal-safe. */
void dg_stop_request(int signo);

/* True once a stop was requested (by a signal or internally). */
static inline bool dg_stop_requested(void)
{
    return atomic_load_explicit(&dg_stop_word, memory_order_relaxed) != 0;
}

/* The signal that requested the stop, 0 if none. */
int dg_stop_signal(void);

/* The shared shutdown deadline (monotonic ns): the first stop signal's time +
 * DG_STOP_BUDGET_NS; INT64_MAX when no signal asked for a stop. */
int64_t dg_stop_deadline_ns(void);

/* min(a, the shared shutdown deadline): a phase's own wait, cut to what is left. */
int64_t dg_stop_cap_ns(int64_t deadline_ns);

/* Forgets a previous stop request (before a new piece of work, e.g. a sweep's next point). */
void dg_stop_clear(void);

/* A thread was left inside a client library's blocking call at a stop (Firebird's attach to
 * a server that never answers): the library's exit handlers would wait for that call, so
 * the process ends with _exit once its output is flushed (main.c). Thread-safe. */
void dg_stop_left_call(void);
bool dg_stop_calls_left(void);

/* Sends SIGINT and SIGTERM to dg_stop_request for the length of a piece of work (the
 * previous handlers go to *save; dg_signals_restore puts them back). */
void dg_stop_catch(dg_sigsave *save);

/* A thread that calls fn(arg) when a stop has been requested and is still not over after
 * grace_ns (e.g. dg_interrupt on a connection stuck in an index build or in a query to a
 * server that does not answer), and again every 100 ms (SQLite's interrupt stops only the
 * statement running), until dg_stop_watch_end. NULL when the thread cannot start (then
 * nothing is watched). fn must not block. */
typedef struct dg_stop_watch dg_stop_watch;
dg_stop_watch *dg_stop_watch_start(void (*fn)(void *arg), void *arg, int64_t grace_ns);
/* Ends the watch and frees it (NULL allowed); fn has run or never will once it returns. */
void dg_stop_watch_end(dg_stop_watch *w);

#endif
