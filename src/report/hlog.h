/*
 * hlog.h - the measured intervals as an HdrHistogram interval log (log format 1.3, what
 * HdrHistogram's HistogramLogReader and HistogramLogProcessor read), for `run --hlog`.
 * Pure: no files, no clock.
 *
 * The log starts with its header (format version, StartTime: the measured phase's start
 * in seconds since the epoch, the column legend); then each interval gives one untagged
 * line, every transaction type's values together, and one line per type tagged with its
 * name (Tag=new_order,...): start (seconds since StartTime), length (s), the interval's
 * maximum (ms: values are nanoseconds, and the log's customary unit ratio is 10^6) and
 * the histogram, V2 compressed and base64 as the result file keeps it. Warmup intervals
 * are not in the log.
 */
#ifndef DG_REPORT_HLOG_H
#define DG_REPORT_HLOG_H

#include "core/strbuf.h"

#include <jansson.h>
#include <stdint.h>

typedef struct dg_hlog dg_hlog;

dg_hlog *dg_hlog_new(void);
void dg_hlog_free(dg_hlog *h);

/* Appends to out the lines of the measured interval iv, which ended at end_wall_ns (the
 * header first, at the first interval). 0, or DG_E_PARSE when one of its histograms cannot
 * be decoded (its type is left out of the untagged line; its own line is still written). */
int dg_hlog_interval(dg_hlog *h, const json_t *iv, int64_t end_wall_ns, dg_strbuf *out);

#endif
