/*
 * workload.h - the one interface between the runner/loader and a workload.
 *
 * A workload definition (dg_workload_def) is a const descriptor in the registry; opening
 * it with a configuration gives a dg_workload instance: its transaction types and
 * weights, its tables, its size model, and operations to load, run and check it.
 *
 * Lifecycle of an instance:
 *   dg_workload_open()          parse the name ("tpcb:select-only"), scripts, options;
 *                               no database access; parse errors name file:line:col
 *   ->load()                    create tables, fill them, build indexes (loader.h helps)
 *   ->term_open() per terminal  prepare statements on the terminal's connection
 *   ->tx_run() many times       one attempt of one transaction; called by the runner
 *   ->term_close()
 *   ->check()                   optional consistency checks
 *   dg_workload_free()
 *
 * Workloads never print to the terminal; they report through callbacks and dg_err.
 */
#ifndef DG_WORKLOAD_WORKLOAD_H
#define DG_WORKLOAD_WORKLOAD_H

#include "backend/backend.h"
#include "core/err.h"
#include "core/prng.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dg_workload dg_workload;
typedef struct dg_loader dg_loader; /* workload/loader.h */

/* A -f FILE[@WEIGHT] argument. */
typedef struct dg_script_arg {
    const char *path;
    double weight; /* default 1 */
} dg_script_arg;

/* Configuration for opening a workload; strings are borrowed for the duration of open(). */
typedef struct dg_wl_config {
    const char *name;          /* "tpcb", "tpcb:select-only", "tpcc", "script" ... */
    int64_t scale;             /* 0 = the workload's default or what the database holds */
    double scale_factor;       /* --scale as given (0: none); fractional only for a
                                  definition with fractional_scale (the others get scale) */
    uint64_t seed;             /* run seed */
    const dg_script_arg *scripts; /* -f options (script workloads) */
    int nscripts;
    const dg_setting *vars;    /* -D NAME=VALUE script variables */
    int nvars;
    const char *mix;           /* --mix name=weight,... (NULL = default weights) */
    const dg_setting *options; /* workload-specific --wl-opt NAME=VALUE options */
    int noptions;
    bool keying_think;         /* --keying-think: pace terminals with the workload's own
                                  keying and think times (ops->pause_ns) */
    int tables;                /* --tables (workload tables): table count; 0 = default */
    const char *key_range;     /* --key-range (workload tables): hot, all, P%; NULL = all */
    int part, nparts;          /* this process runs part `part` of nparts of the run (--part;
                                  nparts 0: the whole run): workloads that share out keys
                                  (tpcc: home warehouses; tables: new ids) take its share */
} dg_wl_config;

/* One transaction type. */
typedef struct dg_txdef {
    const char *name;
    double weight; /* relative; 0 = never chosen */
    bool reads_only; /* it never writes: --db-read runs it on a replica */
} dg_txdef;

/* What a terminal gives the workload. */
typedef struct dg_term {
    int id;          /* 0-based terminal number */
    int nterminals;
    dg_conn *conn;   /* the terminal's connection (may be replaced after a reconnect) */
    dg_prng *rng;    /* the terminal's generator; the runner saves/restores it for retries */
    int64_t scale;
    const atomic_int *phase; /* the runner's phase, 1 (DG_PHASE_MEASURE) while measuring;
                                NULL when not in a run. Read relaxed; for statistics a
                                workload keeps of the measured phase alone */
} dg_term;

/* Outcome of a successful tx_run. */
enum {
    DG_TX_COMMITTED = 0,
    DG_TX_ROLLED_BACK = 1, /* an expected, business rollback (TPC-C New-Order 1%) */
};

/* When the runner asks a workload for a pause (ops->pause_ns). */
enum {
    DG_PAUSE_KEYING = 0, /* before the transaction (TPC-C keying time) */
    DG_PAUSE_THINK = 1,  /* after it (TPC-C think time) */
};

/* One workload-specific figure of a run, for the result file's "workload_metrics". */
typedef struct dg_metric {
    const char *name; /* JSON key, e.g. "tpmC" (static string) */
    double value;     /* NaN = not measured */
    const char *unit; /* "tx/min", "%", ... (static string) */
} dg_metric;

#define DG_MAX_METRICS 32

struct dg_txstats; /* stats/txstats.h */

/* Result of one consistency check. */
typedef struct dg_check_result {
    const char *name;        /* "C1 W_YTD = sum(D_YTD)" */
    bool passed;
    int64_t offending;       /* rows that violate it */
    char detail[256];
} dg_check_result;

typedef struct dg_workload_ops {
    /* Optional: refuses, with a message, a database this workload as configured cannot
     * use (an option asks for SQL the engine lacks), before anything is dropped, loaded
     * or run. 0 or DG_E_*. NULL = any database. */
    int (*usable)(dg_workload *wl, dg_conn *conn, dg_err *err);
    /* Creates schema, loads data, builds indexes. */
    int (*load)(dg_workload *wl, dg_loader *ld, dg_err *err);
    /* Drops the workload's tables (missing ones are fine). */
    int (*drop)(dg_workload *wl, dg_conn *conn, dg_err *err);
    /* Reads scale and load-time facts from a loaded database (e.g. count of branches). */
    int (*attach)(dg_workload *wl, dg_conn *conn, dg_err *err);
    /* A run only (not load or check), after attach, before the terminals connect, on the
     * session's connection: creates what the run's mode needs in the database (tpcc's
     * stored procedures). NULL: nothing. */
    int (*run_begin)(dg_workload *wl, dg_conn *conn, dg_err *err);
    /* After a run whose run_begin succeeded, finished or failed, while the session's
     * connection is usable: removes what run_begin made, so that it holds no other
     * workload's drop back (Firebird refuses to drop a table a procedure uses). */
    int (*run_end)(dg_workload *wl, dg_conn *conn, dg_err *err);
    /* Per-terminal state: prepare statements on t->conn. *state written only on success.
     * Called again after a reconnect (after term_close of the old state). */
    int (*term_open)(dg_workload *wl, const dg_term *t, void **state, dg_err *err);
    /* One attempt of transaction type `type`. Returns 0 with *outcome set, or an error
     * (err->cls tells the runner what to do). On error the workload leaves its statements
     * reset; the runner rolls back an open transaction. */
    int (*tx_run)(void *state, int type, int *outcome, dg_err *err);
    void (*term_close)(void *state);
    /* Consistency checks; calls report for each; returns 0 when all passed, DG_E_CHECK
     * when some failed, other codes on errors. NULL = no checks. */
    int (*check)(dg_workload *wl, dg_conn *conn,
                 void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err);
    /* Optional pacing (TPC-C keying and think times): the pause in ns a terminal takes
     * before (DG_PAUSE_KEYING) or after (DG_PAUSE_THINK) a transaction of `type`; 0 = none.
     * Called on the terminal's thread, outside the measured latency, never in --rate mode;
     * it may draw from the terminal's generator. NULL = never pauses. */
    int64_t (*pause_ns)(void *state, int type, int when);
    /* Optional workload figures (tpmC ...): per_type is the measured phase's statistics
     * (wl->ntx entries), measured_s its length. Called after the run, when every terminal
     * is closed. Writes at most max entries to out; returns how many. NULL = none. */
    int (*metrics)(dg_workload *wl, const struct dg_txstats *per_type, double measured_s,
                   dg_metric *out, int max);
    /* Optional figures read from the database after the run (the sizes of the workload's
     * tables ...), on the session's connection once every terminal is closed; they join
     * workload_metrics. Writes at most max entries to out; returns how many, or a
     * negative DG_E_* (err set: the session warns and goes on). NULL = none. */
    int (*db_metrics)(dg_workload *wl, dg_conn *conn, dg_metric *out, int max, dg_err *err);
    /* Frees the workload's own data (wl->priv); dg_workload_free() calls it. */
    void (*free)(dg_workload *wl);
} dg_workload_ops;

/* The largest scale any workload is asked for (--scale's bound, and the bound of the scale
 * --size works out). */
#define DG_SCALE_MAX 100000000

struct dg_workload {
    const struct dg_workload_def *def;
    const dg_workload_ops *ops;
    char *name;                 /* full name, e.g. "tpcb:select-only" (owned) */
    int64_t scale;              /* after open(): configured or default; attach() may set it */
    bool scale_given;
    int part, nparts;           /* from dg_wl_config (nparts 0: the whole run) */
    int ntx;
    dg_txdef *tx;               /* owned array of ntx */
    const char *const *tables;  /* tables this workload creates (for exists/drop checks) */
    uint64_t bytes_per_scale;   /* size model: approximate on-disk bytes per scale unit */
    const char *scale_unit;     /* "branch", "warehouse" ... */
    const char *storage;        /* how the workload stores its data on this database, when
                                   that differs by engine ("shredded-keys"; set by attach);
                                   NULL: not recorded (static string) */
    const char *execution;      /* how transactions reach the database when that is a mode
                                   of the workload ("procedures": one CALL each); NULL:
                                   statement by statement from the client (static string) */
    char hash[17];              /* 16 hex digits identifying the definition and options */
    bool pipeline_ok;           /* no statement of a transaction needs another's result:
                                   its commands may travel together (--pipeline) */
    const char *regime;         /* the regime the run claims to measure, which the session
                                   checks against the engine's cache hits: "io_bound" (its
                                   reads should miss the cache), "cpu_bound" (they should
                                   hit it); NULL: none claimed (static string) */
    void *priv;                 /* the workload's own data */
};

typedef struct dg_workload_def {
    const char *name;
    const char *summary;
    const char *const *variants; /* NULL-terminated, NULL if none */
    const char *const *options;  /* the --wl-opt names it reads, NULL-terminated; NULL: none
                                    (dg_workload_open refuses any other name) */
    int64_t default_scale;
    bool fractional_scale;       /* --scale may be a fraction (cfg->scale_factor) */
    int (*open)(const struct dg_workload_def *def, const dg_wl_config *cfg, dg_workload **out,
                dg_err *err);
} dg_workload_def;

/* ---- registry ------------------------------------------------------------------------- */

/* All built-in workload definitions, NULL-terminated. */
const dg_workload_def *const *dg_workload_defs(void);

/* Opens a workload by name ("tpcb", "tpcb:select-only", "script", or NULL/"" with -f files
 * meaning "script"). Returns 0 or an error; parse errors carry "file:line:col: ..." */
int dg_workload_open(const dg_wl_config *cfg, dg_workload **out, dg_err *err);
void dg_workload_free(dg_workload *wl);

/* Applies "--mix name=weight,..." to wl->tx; error naming an unknown transaction. */
int dg_workload_apply_mix(dg_workload *wl, const char *mix, dg_err *err);

/* Computes wl->hash from the given text (definition + options), FNV-1a 64. */
void dg_workload_set_hash(dg_workload *wl, const char *text, size_t len);

/* True when every one of wl->tables exists in the database. *some is set when at least one
 * exists (a half-loaded database). */
int dg_workload_tables_exist(dg_workload *wl, dg_conn *conn, bool *all, bool *some, dg_err *err);

/* Helper for ops->drop: DROP TABLE for each table in wl->tables. */
int dg_workload_drop_tables(dg_workload *wl, dg_conn *conn, dg_err *err);

/* Looks up a workload option value (cfg->options) by name; NULL if absent. */
const char *dg_wl_option(const dg_wl_config *cfg, const char *name);

#endif
