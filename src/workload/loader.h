/*
 * loader.h - what every workload loader shares: connections, timed steps (table loads,
 * index builds), progress counters, parallel jobs, and the load report.
 *
 * A workload's load() creates tables on ld->conn, then fills them (possibly in parallel
 * with dg_loader_parallel(), each job on its own connection), then builds keys and
 * indexes, wrapping each piece in dg_loader_step_begin()/dg_loader_step_end() so the
 * report shows per-table and per-index timings like a restore log.
 *
 * Progress: jobs add rows/bytes with dg_loader_progress() (atomic, cheap); the CLI polls
 * the counters to draw a progress bar on a TTY via the on_progress callback.
 */
#ifndef DG_WORKLOAD_LOADER_H
#define DG_WORKLOAD_LOADER_H

#include "backend/backend.h"
#include "core/clock.h"
#include "workload/workload.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define DG_LOAD_MAX_STEPS 128

typedef struct dg_load_step {
    char name[96];  /* "table pgbench_accounts", "index pgbench_accounts_pkey" */
    char kind[16];  /* "table", "index", "schema", "other" */
    double seconds;
    uint64_t rows;
    uint64_t bytes; /* bytes of row data sent */
    int64_t start_ns; /* when it began (dg_now_ns) */
} dg_load_step;

struct dg_loader {
    /* set by the caller */
    const char *url;
    const dg_connopts *connopts; /* for extra job connections */
    dg_conn *conn;               /* main connection (opened with bulk_session) */
    int jobs;                    /* parallel jobs (>= 1) */
    uint64_t seed;
    int64_t scale;
    void (*on_step)(void *arg, const dg_load_step *step); /* after each step */
    /* as each step begins (kind "table", "index", ...; its name): an index build or an
       ANALYZE gives no progress of its own, so this is what shows it has begun */
    void (*on_step_begin)(void *arg, const char *kind, const char *name);
    void (*on_progress)(void *arg, uint64_t rows, uint64_t rows_total, const char *what);
    void *arg;

    /* maintained by the loader */
    atomic_ullong rows_done;
    atomic_ullong bytes_done;
    uint64_t rows_total; /* estimate set by the workload for the progress bar */
    int nsteps;
    dg_load_step steps[DG_LOAD_MAX_STEPS];
    int64_t step_start_ns;
    char current[96];
};

/* Resets counters and steps (the caller fills the configuration fields). */
void dg_loader_init(dg_loader *ld);

/* Starts a timed step; name is printf-formatted. */
void dg_loader_step_begin(dg_loader *ld, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Ends the current step with its row and byte counts and reports it. */
void dg_loader_step_end(dg_loader *ld, uint64_t rows, uint64_t bytes);

/* A stop request (core/stop.h: SIGINT or SIGTERM) ends a load before its next unit of
 * work, its next step or statement, and within a unit every few thousand rows; it then
 * fails with DG_E_STOPPED. dg_loader_parallel interrupts its jobs' own connections
 * (dg_interrupt) when they are still in a call DG_LOADER_STOP_GRACE_NS after the request
 * (an index build, a server that does not answer); the session does the same with
 * ld->conn. */
#define DG_LOADER_STOP_GRACE_NS (500 * DG_NS_PER_MS)
/* For a long unit of work (a whole table): DG_E_STOPPED ("interrupted") once a stop was
 * requested, else 0 (a relaxed atomic load: call it every few thousand rows). The unit
 * then gives up; its bulk load is abandoned (rolled back). */
int dg_loader_check_stop(dg_err *err);

/* Adds to the progress counters (thread-safe, lock-free). */
void dg_loader_progress(dg_loader *ld, uint64_t rows, uint64_t bytes);

/* Runs fn(unit) for unit = 0 .. nunits-1 on ld->jobs threads, each with its own
 * connection (job 0 may reuse ld->conn when jobs == 1). Units are handed out in order.
 * Stops at the first error, which is returned. While jobs run, the calling thread calls
 * on_progress about 10 times a second. */
int dg_loader_parallel(dg_loader *ld, int nunits,
                       int (*fn)(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err),
                       void *arg, const char *what, dg_err *err);

/* The dialect's post-load statistics step (analyze_prefix + table, e.g. PostgreSQL's
 * VACUUM ANALYZE) for each of tables (NULL-terminated) on ld->conn, as one timed step;
 * nothing when the dialect has none. 0 or the first error. */
int dg_loader_analyze(dg_loader *ld, const char *const *tables, dg_err *err);
/* The same, on ld->jobs connections when there are several. cols: the columns whose
 * statistics the workload's queries need (used where the dialect takes a column list),
 * NULL = all; frozen: the tables were loaded with dg_bulk_begin_whole (the dialect may
 * then skip the VACUUM part). */
int dg_loader_analyze_cols(dg_loader *ld, const char *const *tables, const char *cols,
                           bool frozen, dg_err *err);

/* Writes one row into table (a workload's meta table, whose row marks the load complete)
 * through the bulk path on ld->conn, as the timed step "table TABLE". The current UTC
 * time is appended as the last value when now_col is true (cols has ncols names with it;
 * vals has ncols - 1 values). 0 or the error. */
int dg_loader_meta_row(dg_loader *ld, const char *table, const char *const *cols, int ncols,
                       const dg_value *vals, bool now_col, dg_err *err);

#endif
