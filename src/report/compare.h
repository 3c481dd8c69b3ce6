/*
 * compare.h - `dbgauge compare A B`: B against the baseline A, metric by metric, with
 * 95% confidence intervals and a verdict, as a report model (doc.h) so that every
 * output format of `report` works for comparisons too.
 *
 * Statistics (ci.h, docs/reports.md):
 *   - several result files on both sides (repeats): the per-file values are the samples;
 *   - otherwise the per-interval values of the measured phase, as batch means
 *     (DG_CI_BATCHES batches of consecutive intervals, fewer intervals are used as they
 *     are), because neighbouring intervals are correlated;
 *   then a Welch t-interval for mean(B) - mean(A) and Fieller's interval for the ratio
 *   mean(B) / mean(A) with the same t quantile.
 * Verdict: when the difference interval excludes 0, B is "faster" if it is better (higher
 * throughput or load speed, lower latency) and "slower" otherwise ("less CPU" / "more CPU"
 * for CPU use); else "no significant difference". Without samples on both sides there is
 * no interval and the verdict is "n/a".
 */
#ifndef DG_REPORT_COMPARE_H
#define DG_REPORT_COMPARE_H

#include "core/err.h"
#include "report/doc.h"
#include "report/inputs.h"

/* Comparison of the runs in b with those in a (both non-empty, labelled). name_a/name_b
 * name the sides (the command-line arguments). Directories are matched point by point
 * on the sweep parameters that vary within either side; without such parameters (or
 * without any match) all runs of a side are aggregated as repeats. */
/* Refuses sides that cannot be compared: runs of different workloads (DG_E_INVAL with a
 * message). Other differences (variants of one workload, databases, server versions,
 * machines, sizes) are allowed and noted at the top of the report by dg_compare_build. */
int dg_compare_check(const dg_rep_set *a, const dg_rep_set *b, const char *metrics,
                     dg_err *err);

/* metrics: the --metric list (comma-separated names: tps, p50, p95, p99, cpu, load_speed,
 * load_seconds, tx_p95, or any workload_metrics name of either side, checked by
 * dg_compare_check), or NULL for the default rows: the run metrics, the workload metrics
 * with a better direction (tpmC and other rates up, *_ms down), and the per-transaction
 * p95. A workload metric with no better direction (a count, a size) gets the verdict
 * "B higher" / "B lower". */
dg_report *dg_compare_build(const dg_rep_set *a, const dg_rep_set *b, const char *name_a,
                            const char *name_b, const char *metrics);

#endif
