/*
 * prom.h - a run's state as Prometheus text exposition (format 0.0.4, what
 * node_exporter's textfile collector reads), rebuilt at each interval from its record
 * (results/doc.h's interval JSON) for `run --metrics-file`. Pure: no files, no clock.
 *
 * Every metric is named dbgauge_*, labelled workload and backend (and part, in a part of a
 * run split over processes): gauges of the last interval (tps, latency maximum, schedule
 * lag, client and server CPU, cache hit ratio, active terminals, database size, the
 * interval's end time, whether it is measured or warmup), counters since the run began
 * (transactions per type, errors, retries, rollbacks, reconnects), and a summary of
 * latency per transaction type and for all ("all"): the last interval's 0.5, 0.95 and 0.99
 * quantiles with the run's cumulative _sum and _count. A figure the interval could not
 * measure (null) is left out, not written as NaN.
 */
#ifndef DG_REPORT_PROM_H
#define DG_REPORT_PROM_H

#include "core/strbuf.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dg_prom dg_prom;

/* part < 0: not a part. version and commit go into dbgauge_info. */
dg_prom *dg_prom_new(const char *workload, const char *backend, int part, const char *version,
                     const char *commit);
void dg_prom_free(dg_prom *p);

/* Adds the interval iv (warmup or measured, ended at end_wall_ns) to the counters and
 * writes the whole exposition into out (reset first). 0, or DG_E_PARSE when a histogram of
 * iv cannot be decoded (the text is then written without that type's quantiles). */
int dg_prom_interval(dg_prom *p, const json_t *iv, bool warmup, int64_t end_wall_ns, dg_strbuf *out);

#endif
