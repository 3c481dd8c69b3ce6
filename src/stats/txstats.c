/* txstats.c - per-transaction-type counters + latency histogram. */
#include "stats/txstats.h"

#include <string.h>

int dg_txstats_init(dg_txstats *s)
{
    memset(s, 0, sizeof *s);
    return dg_hist_init(&s->lat);
}

void dg_txstats_init_in(dg_txstats *s, uint64_t *block, int k)
{
    memset(s, 0, sizeof *s);
    dg_hist_init_in(&s->lat, block, k);
}

void dg_txstats_destroy(dg_txstats *s)
{
    if (s)
        dg_hist_destroy(&s->lat);
}

void dg_txstats_reset(dg_txstats *s)
{
    dg_hist_reset(&s->lat);
    s->count = s->rollbacks = s->errors = s->retries = s->retried = s->unknown = 0;
    memset(s->err_class, 0, sizeof s->err_class);
}

void dg_txstats_merge(dg_txstats *dst, const dg_txstats *src)
{
    dg_hist_merge(&dst->lat, &src->lat);
    dst->count += src->count;
    dst->rollbacks += src->rollbacks;
    dst->errors += src->errors;
    dst->retries += src->retries;
    dst->retried += src->retried;
    dst->unknown += src->unknown;
    for (int i = 0; i < DG_EC_COUNT; i++)
        dst->err_class[i] += src->err_class[i];
}
