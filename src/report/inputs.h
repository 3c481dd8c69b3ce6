/*
 * inputs.h - the input set of a report or comparison (inputs.c): result documents read
 * from files and sweep directories, each with its path, a short label and its sweep point
 * parameters.
 *
 * Ownership: a dg_rep_set owns its documents. Not thread-safe; one set is filled by one
 * thread.
 */
#ifndef DG_REPORT_INPUTS_H
#define DG_REPORT_INPUTS_H

#include "core/err.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct dg_rep_run {
    char *path;            /* as given, or DIR/FILE for sweep points */
    char *label;           /* short unique name for legends and tables */
    json_t *doc;           /* the result document (owned reference) */
    const json_t *params;  /* the document's sweep.params object, or NULL (borrowed) */
    const char *point;     /* sweep.point, or NULL (borrowed from doc) */
    int repeat;            /* sweep.repeat, 0 when absent */
} dg_rep_run;

typedef struct dg_rep_set {
    dg_rep_run *runs;
    int nruns, cap;
    json_t *experiment;    /* the first experiment.json read, or NULL (owned) */
    char *experiment_path;
    char **notes;          /* warnings for the reader, e.g. sweep points without result */
    int nnotes;
} dg_rep_set;

/* Adds a result file, or every result of a directory: with DIR/experiment.json its points
 * in index order (missing files become notes); without it every DIR/ *.json file in name
 * order. Returns 0, or DG_E_IO / DG_E_PARSE with "FILE:LINE:COL: error: ..." or another
 * message naming the file in err (the set keeps what was added before). */
int dg_rep_set_add(dg_rep_set *s, const char *path, dg_err *err);

/* Gives every run its label (call after the last dg_rep_set_add). */
void dg_rep_set_label(dg_rep_set *s);

/* Frees everything the set holds (NULL ok); the set is empty afterwards. */
void dg_rep_set_free(dg_rep_set *s);

/* Names of the sweep parameters in the set (experiment.json order, then the others in
 * name order) and whether each varies between runs. Returns the count (<= max). */
int dg_rep_set_params(const dg_rep_set *s, const char **names, bool *varies, int max);

/* A run's value of a sweep parameter as text (numbers formatted with %g) into buf;
 * returns buf, or NULL when the run lacks the parameter. */
const char *dg_rep_param(const dg_rep_run *r, const char *name, char *buf, size_t len);

#endif
