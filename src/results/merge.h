/*
 * merge.h - the result documents of the parts of one run (--part K/N) as one document:
 * counts added, histograms added bucket by bucket and every percentile recomputed from
 * the sum, so the merged result is what one process running every terminal would have
 * recorded (within the histograms' 1/1024 resolution, as any of dbgauge's percentiles).
 *
 * Parts belong together when each is a finished run's result (format 2: per-interval
 * histograms) with run.part, their indices are 0 ... N-1 exactly once, and they agree on
 * the version, workload, its hash, scale, backend, database, mix, seed, the whole run's
 * terminals, duration or transaction count, warmup, interval, pacing and --start-at; each
 * started measuring within the alignment tolerance of --start-at (DG_MERGE_SKEW).
 *
 * What cannot be added is kept apart: each part's host, client CPU and disk figures and
 * workload percentages are listed in "parts" (and per interval in "by_part"); the
 * database-wide figures (server, cache hit ratio, database size, server commits) are part
 * 0's reading of the one server.
 */
#ifndef DG_RESULTS_MERGE_H
#define DG_RESULTS_MERGE_H

#include "core/err.h"

#include <jansson.h>
#include <stdbool.h>

/* The largest lateness of a part's measured start, against --start-at, that merge accepts:
 * 1% of the interval, and never under this many ms (a busy machine's wake-up). */
#define DG_MERGE_SKEW_MIN_MS 50.0

/* Merges docs[0..n) (read from paths[i], named in messages) into *out. 0, or DG_E_INVAL
 * with a message naming the field, the files and both values. max_skew_ms: the lateness
 * accepted (merge --max-skew; <= 0: 1% of the interval, at least DG_MERGE_SKEW_MIN_MS).
 * *complete is false when a part did not complete its run (the merged run.complete says
 * which). */
int dg_result_merge(json_t *const *docs, const char *const *paths, int n, double max_skew_ms,
                    json_t **out, bool *complete, dg_err *err);

/* A part of the run that never returned a result (run --drivers: a host lost): its index
 * and why (kept in the merged run.missing_parts). */
typedef struct dg_merge_gap {
    int index;
    const char *why;
} dg_merge_gap;

/* As dg_result_merge, for a run of n + ngaps parts of which the gaps' never came back:
 * the parts that did are merged (run.terminals is theirs), the result is incomplete
 * (*complete false; run.stop_reason names the first missing part). */
int dg_result_merge_gaps(json_t *const *docs, const char *const *paths, int n, const dg_merge_gap *gaps,
                         int ngaps, double max_skew_ms, json_t **out, bool *complete, dg_err *err);

#endif
