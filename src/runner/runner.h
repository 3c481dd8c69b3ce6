/*
 * runner.h - runs a workload: N terminals (one thread and one connection each) executing
 * a weighted random mix of transactions for a duration or a number of transactions,
 * with optional warmup, think time (or the workload's own keying and think times,
 * ops->pause_ns, taken outside the measured latency), target rate, retries and reconnects.
 *
 * Measurement: each terminal records into its own double-buffered statistics (stats/
 * phaser.h); the calling thread is the collector: at every report-interval boundary it
 * flips all terminals, merges their buffers, hands the interval to on_interval(), and
 * accumulates per-phase totals. Terminals never lock or allocate on the measured path.
 *
 * Latency is measured from the intended start of each transaction: in --rate mode the
 * scheduled arrival time (free of coordinated omission), with the schedule lag (actual
 * minus scheduled start) recorded separately; otherwise the actual start.
 */
#ifndef DG_RUNNER_RUNNER_H
#define DG_RUNNER_RUNNER_H

#include "backend/backend.h"
#include "backend/nodes.h"
#include "runner/sched.h"
#include "stats/txstats.h"
#include "workload/workload.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum { DG_PHASE_WARMUP = 0, DG_PHASE_MEASURE = 1 };

/* What the terminals did on one host of a cluster URL (dg_run_config.nodes). */
typedef struct dg_node_counts {
    uint64_t tx;        /* completed (as dg_txstats.count, business rollbacks included) */
    uint64_t rollbacks; /* business rollbacks among them */
    uint64_t errors;    /* failed attempts' transactions */
    uint64_t arrivals;  /* terminals that connected to it after a failover (or a host down
                           at the start) */
} dg_node_counts;

/* What one terminal is doing, for the server wait profile (session/waits.h): its
 * session's id on the server (dg_conn.session_id; 0 while it has none) and the transaction
 * type under way (-1: none, or one run on a --db-read replica). The terminal writes them
 * (two relaxed stores a transaction); a sampler thread reads them. A cache line each. */
typedef struct dg_termwait {
    alignas(64) atomic_llong session;
    atomic_int type;
} dg_termwait;

typedef struct dg_interval_report {
    int phase;
    int64_t t_end_ns;        /* end of the interval, since the start of the run (warmup incl.) */
    int64_t end_mono_ns;     /* the same end on the monotonic clock (dg_now_ns) */
    int64_t dur_ns;          /* length of the interval */
    int ntx;
    const dg_txstats *tx;    /* per transaction type, this interval */
    const dg_txstats *all;   /* all types merged */
    const dg_hist *lag;      /* schedule lag this interval (rate mode; empty otherwise) */
    uint64_t reconnects;
    int64_t downtime_ns;     /* terminal-seconds without a connection, in ns */
    int active_terminals;
    int64_t cache_hits;      /* summed per-connection counters (DG_CAP_CONN_CACHE_STATS), */
    int64_t cache_misses;    /*   cumulative since connect; -1 if not available */
    int nnodes;              /* hosts of a cluster URL (0: not a cluster run) */
    const dg_node_counts *nodes; /* [nnodes], this interval */
} dg_interval_report;

typedef struct dg_run_config {
    const char *url;
    /* A URL with several hosts (a cluster), split (backend/nodes.h): terminal t starts on
     * host t mod n (place=terminal), on the first that answers (first) or on one drawn
     * from the seed (random), moves on to the next host when its own is lost or down, and
     * its transactions are counted per host. NULL, or one host: every terminal on url. */
    const dg_nodelist *nodes;
    /* --db-read: replicas for the transaction types that only read (dg_txdef.reads_only):
     * each terminal also keeps a session on replica t mod n (the next one when it is lost
     * or down), and runs those transactions there; they are counted as nodes after the
     * write hosts (dg_run_stats.nodes: nodes->n write hosts, then these). NULL: none. */
    const dg_nodelist *read_nodes;
    const dg_connopts *connopts;
    int terminals;
    /* terminals numbered run-wide (a part of a run split over processes, --part): this
     * runner's are first_terminal ... first_terminal + terminals - 1 of whole_terminals
     * (0: terminals), each with the generator the same-numbered terminal of one process
     * running them all would have */
    int first_terminal;
    int whole_terminals;
    /* the measured phase starts at this wall-clock time (ns since the epoch), the warmup
     * before it; terminals not all connected by the warmup's start fail the run
     * (DG_E_INVAL, "took N s to connect"). 0: the clock starts once they are */
    int64_t start_at_wall_ns;
    int64_t duration_ns;     /* measured phase length; 0 when transactions > 0 */
    int64_t transactions;    /* per terminal; 0 = run for duration_ns */
    int64_t warmup_ns;
    int64_t interval_ns;     /* report interval; 0 = one interval per phase */
    double rate_tps;         /* 0 = as fast as possible (closed loop) */
    int64_t think_ns;        /* pause after each transaction; 0 = none */
    bool think_exponential;  /* think time ~ Exp(mean think_ns), truncated at 10x */
    int max_tries;           /* >= 1; attempts per transaction on RETRY-class errors */
    /* 0: a thread per terminal. N > 0: the events engine, N worker threads each running
     * its terminals as fibers (runner/sched.h); the backend must wait through
     * dg_wait_fd (DG_CAP_NONBLOCKING), or a call blocks every terminal of its worker. */
    int workers;
    uint64_t seed;
    void (*on_interval)(void *arg, const dg_interval_report *iv);
    void (*on_start)(void *arg);      /* all terminals connected, clock starts */
    void *arg;
    /* How terminals connect (and reconnect); NULL = dg_connect(url, connopts). Unit tests
     * put a connection here that fails on demand, which a real server cannot. */
    int (*connect)(void *connect_arg, const char *url, const dg_connopts *co, dg_conn **out,
                   dg_err *err);
    void *connect_arg;
    /* [terminals]: each terminal publishes its session and current type there, for a
     * sampler of the server's waits; NULL: not published */
    dg_termwait *waits;
} dg_run_config;

#define DG_RUN_MAX_ERRORS 32

typedef struct dg_run_error {
    char msg[320];       /* first message of its kind (terminal, transaction, text) */
    char tx[64];
    dg_errclass cls;
    uint64_t count;
} dg_run_error;

/* Transactions that started before a duration run's deadline and completed after it.
 * They are not in the measured phase, whose rates are over exactly the duration asked,
 * but the database did their work: with the warmup they make the counts the server
 * sees. */
typedef struct dg_drain_stats {
    uint64_t count;     /* completed (as dg_txstats.count, business rollbacks included) */
    uint64_t rollbacks;
    uint64_t errors;
    uint64_t unknown;   /* outcome unknown (also in errors) */
} dg_drain_stats;

typedef struct dg_run_stats {
    int ntx;
    dg_txstats *tx[2];      /* [phase][type] */
    dg_txstats all[2];      /* [phase], all types merged */
    dg_hist lag[2];
    int64_t phase_ns[2];    /* elapsed time of each phase; a duration run's measured
                               phase ends at its deadline */
    dg_drain_stats *drain;  /* [type]: completed after the deadline */
    dg_drain_stats drain_all;
    int64_t drain_ns;       /* from the deadline to the last completion (0: none after) */
    int64_t started_wall_ns;/* wall clock at the start of the run */
    int64_t clock_wall_ns;  /* wall clock when the run's clock started (the gate opened:
                               the warmup's start, else the measured phase's) */
    int64_t connect_ns;     /* opening and preparing every terminal's session, before t0 */
    int64_t close_ns;       /* from the last completion to every session closed */
    uint64_t reconnects;
    int64_t downtime_ns;
    int aborted_terminals;
    int interrupted_terminals; /* still in a database call well after the end: their
                                  connections were interrupted */
    bool complete;           /* ran to its planned end with every terminal */
    char stop_reason[64];    /* "duration", "transactions", "interrupted (SIGINT)", ... */
    int nerrors;
    dg_run_error errors[DG_RUN_MAX_ERRORS];
    uint64_t errors_dropped; /* errors of kinds beyond DG_RUN_MAX_ERRORS */
    int64_t cache_hits, cache_misses; /* per-connection counters at the end (-1 n/a) */
    /* those connections' own cache hit ratios since they connected (each terminal's last
       connection): how many had one, and the lowest, median and highest (NaN: none) */
    int conn_hit_n;
    double conn_hit_min, conn_hit_median, conn_hit_max;
    int workers;             /* the events engine's worker threads; 0: a thread per terminal */
    int nnodes;              /* nodes counted: the URL's hosts, then --db-read's replicas
                                (0: one host and no replica) */
    dg_node_counts *nodes[2];/* [phase][nnodes] */
    dg_node_counts *node_drain; /* [nnodes]: completed after the deadline */
    dg_sched_stats sched;    /* its loops' figures, summed (lag_max_ns: the largest) */
} dg_run_stats;

/* Runs the workload. Returns 0 when the run happened (see out->complete), or an error
 * when it could not start (connection or preparation failed: nothing was measured). *out
 * must be freed with dg_run_stats_free() in both cases. */
int dg_run(const dg_run_config *cfg, dg_workload *wl, dg_run_stats *out, dg_err *err);
void dg_run_stats_free(dg_run_stats *st);

/* Asks a running dg_run() to stop as soon as in-flight transactions finish: the process's
 * stop request (core/stop.h), and a wake-up for the run's threads. Async-signal safe (for
 * SIGINT/SIGTERM handlers). signo is recorded in the stop reason (0: none). A stop by a
 * signal outlives dg_run() (the caller's shutdown shares its deadline); clear it before
 * the next run. */
void dg_run_request_stop(int signo);
/* Clears a previous stop request (before a new run, e.g. in a sweep). */
void dg_run_clear_stop(void);
/* The signal that requested a stop, 0 if none. */
int dg_run_stop_signal(void);

#endif
