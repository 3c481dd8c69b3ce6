/*
 * txstats.h - counters of one transaction type (or of all types together) over some
 * period: a terminal's current interval, a merged interval, or a whole phase.
 *
 * "count" is every transaction that finished successfully, including business
 * rollbacks (TPC-C's 1% New-Order rollbacks, also counted in "rollbacks"); "errors" are
 * transactions that failed for good (after retries). Latency is recorded for successful
 * transactions only, from the intended start (the scheduled time in --rate mode).
 */
#ifndef DG_STATS_TXSTATS_H
#define DG_STATS_TXSTATS_H

#include "core/err.h"
#include "stats/hist.h"

#include <stdint.h>

typedef struct dg_txstats {
    dg_hist lat;          /* latency of successful transactions, ns */
    uint64_t count;       /* successful transactions (= lat.total) */
    uint64_t rollbacks;   /* of which business rollbacks */
    uint64_t errors;      /* failed transactions */
    uint64_t retries;     /* extra attempts after RETRY-class errors */
    uint64_t retried;     /* transactions that needed at least one retry */
    uint64_t unknown;     /* failed with the connection lost while committing (SQLSTATE
                             08007): may or may not have committed; also in errors */
    uint64_t err_class[DG_EC_COUNT];/* failures by dg_errclass */
} dg_txstats;

/* Allocates the histogram; 0 or DG_E_NOMEM. */
int dg_txstats_init(dg_txstats *s);
/* Puts the histogram over the k-th counters of a dg_hist_block_map() block. */
void dg_txstats_init_in(dg_txstats *s, uint64_t *block, int k);
void dg_txstats_destroy(dg_txstats *s);
void dg_txstats_reset(dg_txstats *s);
/* dst += src (histograms and counters). */
void dg_txstats_merge(dg_txstats *dst, const dg_txstats *src);

#endif
