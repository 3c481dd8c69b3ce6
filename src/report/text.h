/*
 * text.h - plain-text reports built from result documents (results/result.h): the
 * end-of-run summary that `dbgauge run` prints, and the load summary.
 */
#ifndef DG_REPORT_TEXT_H
#define DG_REPORT_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* The run summary: totals, per-transaction table (count, errors, retries, rollbacks,
 * latency avg/max/p50/p90/p95/p99/p99.9 in ms), warmup line, monitor line, errors. */
void dg_report_text_run(FILE *out, const json_t *doc);

/* The load summary from a document's "load" object (steps, bytes, MB/s). */
void dg_report_text_load(FILE *out, const json_t *load);

#endif
