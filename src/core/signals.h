/*
 * signals.h - catching SIGINT and SIGTERM for the length of one piece of work (a run, a
 * sweep) and putting the previous handlers back afterwards. Not async-signal-safe itself:
 * call it from the main thread, outside signal handlers.
 */
#ifndef DG_CORE_SIGNALS_H
#define DG_CORE_SIGNALS_H

#include <signal.h>

typedef struct dg_sigsave {
    struct sigaction intr, term; /* the handlers before dg_signals_catch() */
} dg_sigsave;

/* Sends SIGINT and SIGTERM to fn (which must be async-signal-safe); *save receives the
 * previous handlers. */
void dg_signals_catch(void (*fn)(int), dg_sigsave *save);

/* Restores the handlers saved by dg_signals_catch(). */
void dg_signals_restore(const dg_sigsave *save);

#endif
