/*
 * result.h - the result file: one JSON document per run (DESIGN.md §6).
 *
 * The in-memory model is the JSON tree itself (jansson json_t), built from its parts
 * (results/doc.h, the one place that names the fields) by the session and read back by
 * report/compare with the getters below. Keeping the file's own
 * structure as the model means a field added by a newer dbgauge survives a read and
 * reports can only ever show what a file really contains.
 *
 * Writing a file is atomic: the document goes to a temporary file in the target's
 * directory, is flushed to disk, and is renamed over the target, so a reader never sees
 * half a file (devices, fifos and standard output are written as they are: core/file.h).
 *
 * Ownership: functions returning json_t * give the caller a new reference
 * (json_decref() when done); dg_res_* getters return borrowed values valid while the
 * document lives.
 */
#ifndef DG_RESULTS_RESULT_H
#define DG_RESULTS_RESULT_H

#include "core/err.h"
#include "stats/hist.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* 2: intervals carry per-type histograms ("histograms", HdrHistogram V2 compressed base64);
 * run.part, run.start_at. Additive: a format 1 file reads as before. */
#define DG_RESULT_FORMAT 2

/* A new document with {"dbgauge": {"version", "format"}}. */
json_t *dg_result_new(void);

/* Writes doc to path with dg_file_write (core/file.h): atomically (temp file + fsync +
 * rename) for a regular or new file, following symbolic links; in place for a device or
 * fifo; "-" is standard output. Creates the parent directory if it is missing. 0, or
 * DG_E_IO with the path and reason in err. */
int dg_result_write(json_t *doc, const char *path, dg_err *err);

/* The largest result file dg_result_read accepts (about a week of 1-second intervals). */
#define DG_RESULT_MAX_BYTES (1024 << 20)

/* Reads and validates a result file (dbgauge.format an integer from 1 to DG_RESULT_FORMAT): a
 * regular file of at most DG_RESULT_MAX_BYTES. *out written only on success. DG_E_IO /
 * DG_E_PARSE with "FILE:LINE:COL: ..." errors. */
int dg_result_read(const char *path, json_t **out, dg_err *err);

/* Latency summary object {"avg","min","max","p50","p90","p95","p99","p999"} in ms. */
json_t *dg_result_latency(const dg_hist *h);

/* Sparse histogram {"unit": "ns", "buckets": [[low_ns, count], ...]}. */
json_t *dg_result_hist(const dg_hist *h);
/* Rebuilds a histogram from dg_result_hist() output into h (initialised by the caller).
 * Returns 0 or DG_E_PARSE. */
int dg_result_hist_read(const json_t *j, dg_hist *h);

/* Getters by dotted path ("totals.tps", "run.terminals"); arrays are indexed with a
 * number component ("transactions.0.name"). Missing or mistyped: dflt / NULL. */
json_t *dg_res_get(const json_t *doc, const char *path);
double dg_res_num(const json_t *doc, const char *path, double dflt);
/* The names of obj's number members, the largest value first (ties in the object's
 * order), at most max of them, borrowed from obj; their count. */
int dg_res_ranked(const json_t *obj, const char **names, int max);
const char *dg_res_str(const json_t *doc, const char *path);

/* json_real() that writes null for NaN/inf (absent measurements). */
json_t *dg_json_real(double v);

#endif
