/*
 * hist.h - fixed-memory log-linear latency histogram (HDR-style).
 *
 * Values are nanoseconds in [0, DG_HIST_MAX_NS]; larger values are counted in the top
 * bucket (the exact maximum is kept separately). Resolution: values below 2048 ns are
 * exact; above, each power-of-two range [2^k, 2^(k+1)) is split into 1024 equal
 * sub-buckets, so any recorded value is known to within 1/1024 of itself (better than
 * 3 significant digits) over 1 ns ... 73 min.
 *
 * Memory: DG_HIST_LEN uint64 counters (264 KiB) mapped once by dg_hist_init() as
 * anonymous memory, whose untouched pages stay unbacked; reset and merge only walk the index range
 * that was actually recorded (lo_idx..hi_idx), so a histogram costs memory in proportion
 * to the spread of its values, never to how many were recorded.
 *
 * Threading: none inside. A histogram is written by one thread; other threads read it
 * only after a happens-before edge (the runner's interval phaser provides it).
 */
#ifndef DG_STATS_HIST_H
#define DG_STATS_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define DG_HIST_SUB_BITS 11                     /* 2048 sub-buckets in the first range */
#define DG_HIST_SUB_COUNT (1 << DG_HIST_SUB_BITS)
#define DG_HIST_SUB_HALF (DG_HIST_SUB_COUNT / 2)
#define DG_HIST_MAX_BITS 42                     /* 2^42 ns = 73.3 minutes */
#define DG_HIST_MAX_NS ((INT64_C(1) << DG_HIST_MAX_BITS) - 1)
#define DG_HIST_LEN ((DG_HIST_MAX_BITS - DG_HIST_SUB_BITS + 2) * DG_HIST_SUB_HALF)

typedef struct dg_hist {
    uint64_t *counts; /* DG_HIST_LEN entries */
    uint64_t total;   /* number of recorded values */
    uint64_t sum_ns;  /* sum of recorded (clamped) values, exact */
    int64_t min_ns;   /* exact; INT64_MAX when empty */
    int64_t max_ns;   /* exact (unclamped); 0 when empty */
    int32_t lo_idx;   /* lowest counts[] index touched; > hi_idx when empty */
    int32_t hi_idx;
    bool borrowed;    /* counts belong to a dg_hist_block, not to this histogram */
} dg_hist;

/* Allocates the counters. Returns 0 or DG_E_NOMEM (h left empty and safe to destroy). */
int dg_hist_init(dg_hist *h);

/* The counters of n histograms in one anonymous mapping, for a holder of many (a terminal
 * has two per transaction type): one memory map instead of n, where a process may have
 * only ~65,000 (vm.max_map_count), and the same untouched-pages-cost-nothing property.
 * NULL when out of memory. */
uint64_t *dg_hist_block_map(int n);
void dg_hist_block_unmap(uint64_t *block, int n);
/* Initialises h over the k-th counters of a block (k < n); dg_hist_destroy leaves them to
 * dg_hist_block_unmap. */
void dg_hist_init_in(dg_hist *h, uint64_t *block, int k);
/* Frees the counters (h may be zeroed/uninitialised-by-init-failure; NULL ok). */
void dg_hist_destroy(dg_hist *h);
/* Forgets all values, keeping the memory. */
void dg_hist_reset(dg_hist *h);

/* Index of the bucket holding u, which must be in [0, DG_HIST_MAX_NS]. */
static inline int32_t dg_hist_index_of(uint64_t u)
{
    /* bucket = how many doublings above the first 2048-wide range */
    int msb = 63 - __builtin_clzll(u | (DG_HIST_SUB_COUNT - 1));
    int bucket = msb - (DG_HIST_SUB_BITS - 1);
    int32_t sub = (int32_t)(u >> bucket);
    return (bucket << (DG_HIST_SUB_BITS - 1)) + sub;
}

/* Index of the bucket holding v (v clamped to [0, DG_HIST_MAX_NS]). */
static inline int32_t dg_hist_index(int64_t v)
{
    if (v < 0)
        v = 0;
    return dg_hist_index_of((uint64_t)(v > DG_HIST_MAX_NS ? DG_HIST_MAX_NS : v));
}

/* Records one value. O(1), no allocation, no locking. Clamped once, here: a negative
 * value counts as 0, and one above DG_HIST_MAX_NS goes into the last bucket and the sum
 * as DG_HIST_MAX_NS (max keeps it as it was). */
static inline void dg_hist_record(dg_hist *h, int64_t ns)
{
    if (ns < 0)
        ns = 0;
    uint64_t clamped = (uint64_t)(ns > DG_HIST_MAX_NS ? DG_HIST_MAX_NS : ns);
    int32_t i = dg_hist_index_of(clamped);
    h->counts[i]++;
    h->total++;
    h->sum_ns += clamped;
    if (ns < h->min_ns)
        h->min_ns = ns;
    if (ns > h->max_ns)
        h->max_ns = ns;
    if (i < h->lo_idx)
        h->lo_idx = i;
    if (i > h->hi_idx)
        h->hi_idx = i;
}

/* Records `count` copies of value ns (used when reading histograms back from files);
 * count == 0 changes nothing. No allocation. */
void dg_hist_record_n(dg_hist *h, int64_t ns, uint64_t count);

/* Adds `count` values to bucket i (0 <= i < DG_HIST_LEN), each taken at the bucket's low
 * value: dg_hist_record_n(h, dg_hist_bucket_low(i), count) without finding the bucket again
 * (how a decoded histogram is read back). */
void dg_hist_add_bucket(dg_hist *h, int32_t i, uint64_t count);

/* Adds every value of src to dst. After merging, dst equals a histogram that recorded the
 * values of both directly (counts, total, sum, min, max). */
void dg_hist_merge(dg_hist *dst, const dg_hist *src);

/* Lowest and highest value that share index i's bucket (i is clamped to [0, DG_HIST_LEN)). */
int64_t dg_hist_bucket_low(int32_t i);
int64_t dg_hist_bucket_high(int32_t i);

/* The value at percentile pct (0..100): the midpoint of the bucket where the cumulative
 * count first reaches pct% of total (at least one value), clamped to [min, max]. 0 for an
 * empty histogram. pct <= 0 (or NaN) returns min and pct >= 100 returns max, both exact.
 * The result is within 1/2048 of the exact order statistic (exact below 2048 ns). */
int64_t dg_hist_percentile(const dg_hist *h, double pct);

/* Arithmetic mean in ns (0 when empty). */
double dg_hist_mean(const dg_hist *h);

/* Calls fn for every non-empty bucket in increasing order with the bucket's low value and
 * its count. Used to serialise histograms into result files. Returns fn's first non-zero
 * return value, or 0. */
int dg_hist_foreach(const dg_hist *h, int (*fn)(void *arg, int64_t low_ns, uint64_t count),
                    void *arg);

#endif
