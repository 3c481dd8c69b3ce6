/*
 * exec.h - runs an experiment: every point of a sweep's grid (sweep.h) in order, each a
 * quiet session (session/) with the point's values, its result file written into the
 * sweep's directory, and DIR/experiment.json rewritten after each point so an interrupted
 * sweep can be resumed and reports find the files.
 *
 * Around each point: --vary server.NAME values are applied through the user's --server-ctl
 * command (set, restart; skipped when the server already runs with them), then the
 * --before-each hook; after it the --after-each hook. When what shapes the data is varied
 * (scale, size, rows, tables, or a workload option wl.NAME), a point whose database,
 * workload or shaping values differ from the previous point's drops and reloads the
 * workload (its result file then records the load); otherwise points run on what the
 * database holds.
 *
 * The executor knows no run options: how a point's values become a session is the
 * caller's (cli/cmd_sweep.c: the command line's options with the point's values applied),
 * through dg_sweep_exec_ops. So are the messages of a session's failure.
 *
 * Prints the sweep's own lines on stdout (the plan, one summary line per point, how it
 * ended) and its errors through core/log.h. Not thread-safe: one sweep per process, run
 * from the main thread (it catches SIGINT and SIGTERM while the points run).
 */
#ifndef DG_EXPERIMENT_EXEC_H
#define DG_EXPERIMENT_EXEC_H

#include "backend/backend.h"
#include "core/err.h"
#include "experiment/sweep.h"
#include "session/session.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* What the caller's prepare tells the executor about a point's run. */
typedef struct dg_sweep_exec_point {
    const char *db;       /* the database URL as given (may hold a password; never shown) */
    const char *workload; /* the workload's name, or NULL for the default */
} dg_sweep_exec_point;

/* The caller's side of each point. One point is prepared at a time: prepare, then open
 * (unless a hook or the server failed), then release. */
typedef struct dg_sweep_exec_ops {
    /* The point's run: the sweep's run settings with the point's values applied, checked.
     * command_line (borrowed until release) is the point's, for its document; NULL when
     * the point is only checked, before anything runs. Fills *out (borrowed until
     * release). 0, or DG_E_INVAL with err (nothing left to release). */
    int (*prepare)(void *ctx, const dg_sweep *s, const dg_sweep_point *pt,
                   const char *command_line, dg_sweep_exec_point *out, dg_err *err);
    /* Opens the prepared point's workload and fills *cfg for a quiet session (borrowing
     * from the prepared point); reload: -1 as the settings say, else 0 or 1 as the
     * executor decided. The executor frees cfg->wl (dg_workload_free) after the session.
     * 0, or the exit status (1) with the reason printed. */
    int (*open)(void *ctx, int reload, dg_session_config *cfg);
    /* Frees what prepare made. */
    void (*release)(void *ctx);
    /* Prints a failed session's error; returns the exit status `run` would have had. */
    int (*session_failed)(const dg_err *err, dg_session_stage stage);
    /* For a document a session returned: a load a signal stopped is printed and gives
     * exit status 2; anything else gives 0, printing nothing. */
    int (*load_stopped)(const json_t *doc);
} dg_sweep_exec_ops;

typedef struct dg_sweep_exec_config {
    const dg_setting *vary; /* --vary NAME=V1,V2,... (planned by dg_sweep_plan) */
    int nvary;
    int repeat;             /* runs per point (with until_ci_pct: the most) */
    double until_ci_pct;    /* --until-ci: a point stops once the 95% interval of its runs'
                               throughput is within this % of the mean (0: off) */
    int min_repeat;         /* with until_ci_pct: the fewest runs of a point */
    const char *dir;        /* the result files and experiment.json */
    const char *command_line; /* the sweep's, passwords redacted: experiment.json's and,
                                 with the point appended, each point's */
    bool resume;            /* continue the sweep in dir (dg_sweep_resume) */
    uint64_t seed;          /* the sweep's seed (dg_sweep.seed): --seed, or one drawn for
                               the whole sweep; a resumed sweep keeps the one it began with */
    bool seed_given;        /* seed is --seed: resuming a sweep begun with another is refused */
    const char *before_each, *after_each; /* hook commands (dg_sweep_expand), or NULL */
    const char *server_ctl; /* the command for server.NAME parameters, or NULL */
    char *const *restore_argv; /* each point runs this restore command (session/restore.h)
                                  instead of a run; NULL: runs */
    const dg_sweep_exec_ops *ops;
    void *ctx;              /* passed to the ops */
} dg_sweep_exec_config;

/* Plans the sweep, checks every point (prepare and its URL) before anything runs, refuses
 * a directory that holds another sweep unless resuming (and a resume whose --seed differs
 * from the sweep's), then runs each point not yet done and records its status. Returns
 * the exit status of `dbgauge sweep`: 0 when every point is done, 1 for a configuration
 * error (nothing ran), 2 when a point failed, ran incomplete or a signal interrupted the
 * sweep. */
int dg_sweep_exec(const dg_sweep_exec_config *cfg);

#endif
