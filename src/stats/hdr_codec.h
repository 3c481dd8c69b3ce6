/*
 * hdr_codec.h - a latency histogram (stats/hist.h) as HdrHistogram's V2 compressed encoding,
 * in base64: the form HdrHistogram's libraries (Java, C, Go, Python, JavaScript) read and
 * write in their interval logs, so a result file's per-interval histograms can be merged
 * exactly, by dbgauge or by any of them.
 *
 * dg_hist's layout is HdrHistogram's with lowest discernible value 1, 3 significant digits
 * (2048 sub-buckets) and highest trackable value DG_HIST_MAX_NS, so bucket index i is the
 * encoding's counts index i: nothing is rounded on the way out or back in. The encoding
 * keeps counts only; decoding gives back every bucket's count exactly, while the sum,
 * minimum and maximum become the buckets' (each value taken at its bucket's low end,
 * within 1/1024 of itself).
 *
 * Format (all integers big-endian): a 4-byte cookie 0x1c849314 and the 4-byte length of a
 * zlib stream, which inflates to a 40-byte header (cookie 0x1c849313, payload length,
 * normalizing index offset 0, significant digits 3, lowest discernible value 1, highest
 * trackable value, integer-to-double ratio 1.0) and the counts from index 0 through the
 * highest used, each a ZigZag LEB128 varint, a run of empty buckets as its negated length.
 */
#ifndef DG_STATS_HDR_CODEC_H
#define DG_STATS_HDR_CODEC_H

#include "core/err.h"
#include "core/strbuf.h"
#include "stats/hist.h"

/* What encoding and decoding reuse from one histogram to the next (zlib's streams, buffers):
 * one per thread that encodes or decodes many. new never returns NULL (out of memory
 * aborts, as every xalloc does); free takes NULL. */
typedef struct dg_hdr_coder dg_hdr_coder;
dg_hdr_coder *dg_hdr_coder_new(void);
void dg_hdr_coder_free(dg_hdr_coder *c);

/* Appends h's encoding, base64 with padding, to out. 0 or DG_E_NOMEM. coder: NULL for a
 * one-off (set up and freed inside). */
int dg_hdr_encode(dg_hdr_coder *coder, const dg_hist *h, dg_strbuf *out);

/* Adds the values of an encoded histogram (base64 text of len bytes) to h. 0, or DG_E_PARSE
 * with what is wrong in err (not base64, not a V2 compressed histogram, a layout other than
 * dbgauge's: other significant digits, a unit other than 1, a larger highest trackable
 * value, a normalizing offset; counts past the end, a truncated stream). On an error h may
 * hold part of the values. */
int dg_hdr_decode(dg_hdr_coder *coder, const char *b64, size_t len, dg_hist *h, dg_err *err);

#endif
