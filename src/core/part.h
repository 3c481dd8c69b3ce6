/*
 * part.h - one run split over several processes (--part K/N): how a whole is shared out.
 *
 * Part K of N (0 <= K < N) takes an even share of a whole (terminals, a workload's
 * warehouses, a target rate), the first parts one more when N does not divide it, so the
 * parts together cover the whole exactly once, in order: part K's share starts where part
 * K-1's ends. N == 0 or 1 is the whole run: one part holding everything.
 */
#ifndef DG_CORE_PART_H
#define DG_CORE_PART_H

#include <stdint.h>

/* Part k of n's share of `total` items: the first item (0-based) and the count. */
static inline void dg_part_share(int64_t total, int k, int n, int64_t *first, int64_t *count)
{
    if (n <= 1) {
        *first = 0;
        *count = total;
        return;
    }
    int64_t q = total / n, r = total % n;
    *count = q + (k < r ? 1 : 0);
    *first = (int64_t)k * q + (k < r ? k : r);
}

#endif
