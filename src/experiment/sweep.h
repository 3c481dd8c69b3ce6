/*
 * sweep.h - the plan of an experiment: a grid of points over varied parameters, each
 * point run one or more times, one result file per run, and the experiment index
 * (DIR/experiment.json) that lists the points with their status so an interrupted sweep
 * can be resumed and reports can find every file.
 *
 * Parameters are named like run options ("terminals", "scale", "db", "rate", ...) or
 * "conn.NAME" for a per-connection setting. Values are kept as the strings the user gave,
 * and shown (file names, experiment.json, hooks, messages) redacted: no password leaves
 * the process through this module.
 * The first --vary is the outermost loop of the grid; repeats are innermost.
 *
 * This module plans and records; it never runs anything (exec.h runs each point through
 * the same session as `dbgauge run`).
 */
#ifndef DG_EXPERIMENT_SWEEP_H
#define DG_EXPERIMENT_SWEEP_H

#include "backend/backend.h"
#include "core/err.h"

#include <jansson.h>
#include <stdint.h>

typedef struct dg_sweep_param {
    char *name;
    int nvalues;
    char **values;
    char **labels; /* [nvalues]: the name the user gave a value (LABEL:VALUE), or NULL */
} dg_sweep_param;

typedef enum dg_point_status {
    DG_POINT_PENDING = 0,
    DG_POINT_DONE,        /* ran to completion (exit 0) */
    DG_POINT_INCOMPLETE,  /* ran but incomplete or aborted (exit 2): its file exists */
    DG_POINT_FAILED,      /* did not run (configuration error, hook failed) */
    DG_POINT_INTERRUPTED, /* stopped by a signal: rerun on --resume */
    DG_POINT_SKIPPED,     /* a repeat --until-ci found not needed: its point's interval was
                             narrow enough already (no file) */
} dg_point_status;

typedef struct dg_sweep_point {
    char id[16];          /* "p001" */
    int *vi;              /* value index per parameter */
    int repeat;           /* 1-based */
    char *file;           /* result file name inside the directory */
    dg_point_status status;
    int exit;
    /* --until-ci, on every repeat of a point once the point is settled: the runs its
       interval is from, the half-width reached (% of the mean) and why the point stopped
       ("ci reached", "cap"; NULL: not settled) */
    int ci_runs;
    double ci_half_pct;
    const char *ci_stopped;
} dg_sweep_point;

typedef struct dg_sweep {
    int nparams;
    dg_sweep_param *params;
    int repeat;
    int npoints;
    dg_sweep_point *points;
    char *dir;
    char *command;
    double until_ci_pct; /* --until-ci (0: off): repeat is then the most runs of a point
                            and min_repeat the fewest */
    int min_repeat;
    uint64_t seed;  /* the sweep's seed, every point's (unless "seed" is a parameter):
                       the caller sets it after dg_sweep_plan (0 until then); recorded in
                       experiment.json and taken back by dg_sweep_resume */
} dg_sweep;

/* Builds the grid from --vary NAME=V1,V2 settings (the same NAME given twice appends
 * values). A value may carry a label, LABEL:VALUE (LABEL a letter then letters, digits,
 * '_', '-' or '.'; "sqlite:" and the other database schemes are URLs, not labels): the
 * label then stands for the value wherever the point is shown (file names, experiment.json,
 * the point's "params", so reports and compare name series by it); the value as given
 * still runs, and the point's "values" keeps it (redacted). A scheme name followed by a URL
 * ("pg:postgres://...") is refused: a label may not be a scheme name or alias. Returns 0 or
 * DG_E_INVAL (empty value list or element, duplicate value or label, bad name, a scheme as
 * a label). */
int dg_sweep_plan(const dg_setting *vary, int nvary, int repeat, const char *dir,
                  const char *command, dg_sweep *out, dg_err *err);
void dg_sweep_free(dg_sweep *s);

/* The label of parameter p at point pt, or NULL (borrowed). */
const char *dg_sweep_label(const dg_sweep *s, const dg_sweep_point *pt, int p);

/* The value of parameter p at point pt (borrowed). */
const char *dg_sweep_value(const dg_sweep *s, const dg_sweep_point *pt, int p);

/* The value of parameter `name` as it may be shown (caller frees): a "db" URL redacted by
 * dg_url_redact(); "***" for a parameter that is a password (its name ends in "password"
 * or "passwd", as conn.password); any other value with the URLs in it redacted
 * (dg_url_redact_text). */
char *dg_sweep_shown_value(const char *name, const char *value);

/* A --vary list V1,LABEL:V2,... of parameter `name` as it may be shown (caller frees): each
 * element split as dg_sweep_plan() splits it, its value shown as by dg_sweep_shown_value(),
 * its label kept; an element dg_sweep_plan() would refuse is masked conservatively
 * (dg_url_redact_text). For the command line recorded in result files. */
char *dg_sweep_shown_list(const char *name, const char *list);

/* Expands {NAME} (parameter values, shown as by dg_sweep_shown_value(): {db} is the URL
 * without its password, and no placeholder gives the password), {point}, {repeat} and {dir}
 * in tmpl, for a shell: each value is one shell word, in single quotes when it holds a byte
 * the shell would read (a URL's '&' or '?', a space), so a placeholder must not be quoted
 * again in tmpl; unknown placeholders are an error (the message quotes tmpl redacted).
 * Caller frees *out. */
int dg_sweep_expand(const dg_sweep *s, const dg_sweep_point *pt, const char *tmpl, char **out,
                    dg_err *err);

/* {"params": {...}, "point": "p001", "repeat": 1} for the point's result file, with
 * "values": {...} (the redacted values of the labelled parameters) when some are. */
json_t *dg_sweep_point_json(const dg_sweep *s, const dg_sweep_point *pt);

/* Writes DIR/experiment.json atomically. */
int dg_sweep_write_index(const dg_sweep *s, dg_err *err);

/* Reads DIR/experiment.json of an earlier sweep and copies the status of every point into
 * s, and its seed into s->seed (an index without one, from before dbgauge recorded it,
 * leaves s->seed). The earlier sweep must have the same parameters, values and repeat
 * count. */
int dg_sweep_resume(dg_sweep *s, dg_err *err);

const char *dg_point_status_name(dg_point_status st);

#endif
