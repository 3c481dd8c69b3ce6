/*
 * hist.c - the fixed-memory log-linear histogram declared in hist.h.
 *
 * Index layout (see dg_hist_index): indexes 0 .. 2047 hold the single values 0 .. 2047.
 * Above that, indexes come in groups of 1024: group g >= 1 covers [2^(10+g), 2^(11+g))
 * in 1024 sub-buckets of width 2^g, so index i >= 2048 decodes as
 *     shift = (i >> 10) - 1,   sub = i - shift * 1024 (in [1024, 2048)),
 *     low = sub << shift,      high = low + 2^shift - 1,
 * and indexes below 2048 decode with shift 0 (low = high = i). The last index,
 * DG_HIST_LEN - 1, ends exactly at DG_HIST_MAX_NS.
 *
 * Everything that walks counts[] (reset, merge, percentile, foreach) stays inside
 * [lo_idx, hi_idx], so pages of the counter array that were never recorded into are
 * never touched. The array is its own anonymous mapping (not malloc'ed): the kernel
 * supplies zero pages on first touch, which calloc only guarantees for fresh mappings
 * (glibc serves a 264 KiB calloc from reused, explicitly zeroed heap memory once a large
 * block has been freed, making every page resident).
 */
#include "stats/hist.h"

#include "core/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define GROUP_BITS (DG_HIST_SUB_BITS - 1) /* log2 of the sub-buckets per power of two */

/* The state of a histogram with no values; counts[] is left alone. */
static void set_empty(dg_hist *h)
{
    h->total = 0;
    h->sum_ns = 0;
    h->min_ns = INT64_MAX;
    h->max_ns = 0;
    h->lo_idx = DG_HIST_LEN;
    h->hi_idx = -1;
}

int dg_hist_init(dg_hist *h)
{
    set_empty(h);
    h->borrowed = false;
    h->counts = dg_hist_block_map(1);
    return h->counts ? 0 : DG_E_NOMEM;
}

uint64_t *dg_hist_block_map(int n)
{
    if (n <= 0)
        return NULL;
    void *p = mmap(NULL, (size_t)n * DG_HIST_LEN * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void dg_hist_block_unmap(uint64_t *block, int n)
{
    if (block && n > 0)
        munmap(block, (size_t)n * DG_HIST_LEN * sizeof(uint64_t));
}

void dg_hist_init_in(dg_hist *h, uint64_t *block, int k)
{
    set_empty(h);
    h->borrowed = true;
    h->counts = block + (size_t)k * DG_HIST_LEN;
}

void dg_hist_destroy(dg_hist *h)
{
    if (!h)
        return;
    if (h->counts && !h->borrowed)
        dg_hist_block_unmap(h->counts, 1);
    h->counts = NULL;
    set_empty(h);
}

void dg_hist_reset(dg_hist *h)
{
    if (h->counts && h->lo_idx <= h->hi_idx)
        memset(h->counts + h->lo_idx, 0,
               (size_t)(h->hi_idx - h->lo_idx + 1) * sizeof *h->counts);
    set_empty(h);
}

/* count values of bucket i: ns moves min and max, each adds each_ns to the sum */
static void add_at(dg_hist *h, int32_t i, int64_t ns, uint64_t each_ns, uint64_t count)
{
    h->counts[i] += count;
    h->total += count;
    h->sum_ns += each_ns * count;
    if (ns < h->min_ns)
        h->min_ns = ns;
    if (ns > h->max_ns)
        h->max_ns = ns;
    if (i < h->lo_idx)
        h->lo_idx = i;
    if (i > h->hi_idx)
        h->hi_idx = i;
}

void dg_hist_record_n(dg_hist *h, int64_t ns, uint64_t count)
{
    if (count == 0)
        return; /* not even min/max may move */
    int32_t i = dg_hist_index(ns);
    if (ns < 0)
        ns = 0;
    add_at(h, i, ns, (uint64_t)(ns > DG_HIST_MAX_NS ? DG_HIST_MAX_NS : ns), count);
}

void dg_hist_add_bucket(dg_hist *h, int32_t i, uint64_t count)
{
    if (count == 0)
        return;
    int64_t ns = dg_hist_bucket_low(i);
    add_at(h, i, ns, (uint64_t)ns, count);
}

void dg_hist_merge(dg_hist *dst, const dg_hist *src)
{
    if (src->total == 0)
        return;
    /* dst == src is fine: every element is read before it is written */
    for (int32_t i = src->lo_idx; i <= src->hi_idx; i++)
        dst->counts[i] += src->counts[i];
    dst->total += src->total;
    dst->sum_ns += src->sum_ns;
    if (src->min_ns < dst->min_ns)
        dst->min_ns = src->min_ns;
    if (src->max_ns > dst->max_ns)
        dst->max_ns = src->max_ns;
    if (src->lo_idx < dst->lo_idx)
        dst->lo_idx = src->lo_idx;
    if (src->hi_idx > dst->hi_idx)
        dst->hi_idx = src->hi_idx;
}

/* Width of index i's bucket as a power of two (0 for the exact range). */
static int bucket_shift(int32_t i)
{
    return i < DG_HIST_SUB_COUNT ? 0 : (i >> GROUP_BITS) - 1;
}

static int32_t clamp_index(int32_t i)
{
    return i < 0 ? 0 : i >= DG_HIST_LEN ? DG_HIST_LEN - 1 : i;
}

int64_t dg_hist_bucket_low(int32_t i)
{
    i = clamp_index(i);
    int shift = bucket_shift(i);
    int64_t sub = (int64_t)i - ((int64_t)shift << GROUP_BITS);
    return sub << shift;
}

int64_t dg_hist_bucket_high(int32_t i)
{
    i = clamp_index(i);
    return dg_hist_bucket_low(i) + (INT64_C(1) << bucket_shift(i)) - 1;
}

/*
 * How many of the smallest values make up pct% of total: ceil(pct / 100 * total), at
 * least 1. The product is computed in binary floating point, so a percentile such as
 * 99.9 of 1000 values can come out a hair above the integer it stands for (999.0000001)
 * and ceil() would then take one value too many; a relative slack of 1e-12, far below
 * any meaningful percentile digit, absorbs that.
 */
static uint64_t rank_of(double pct, uint64_t total)
{
    double want = pct / 100.0 * (double)total;
    double r = ceil(want - want * 1e-12);
    if (r < 1.0)
        return 1;
    if (r >= (double)total)
        return total;
    return (uint64_t)r;
}

int64_t dg_hist_percentile(const dg_hist *h, double pct)
{
    if (h->total == 0)
        return 0;
    if (!(pct > 0.0)) /* also NaN */
        return h->min_ns;
    if (pct >= 100.0)
        return h->max_ns;

    uint64_t rank = rank_of(pct, h->total);
    uint64_t seen = 0;
    for (int32_t i = h->lo_idx; i <= h->hi_idx; i++) {
        seen += h->counts[i];
        if (seen < rank)
            continue;
        int64_t low = dg_hist_bucket_low(i);
        int64_t v = low + (dg_hist_bucket_high(i) - low) / 2;
        if (v < h->min_ns)
            v = h->min_ns;
        if (v > h->max_ns)
            v = h->max_ns;
        return v;
    }
    return h->max_ns; /* only if counts[] and total disagree */
}

double dg_hist_mean(const dg_hist *h)
{
    return h->total ? (double)h->sum_ns / (double)h->total : 0.0;
}

int dg_hist_foreach(const dg_hist *h, int (*fn)(void *arg, int64_t low_ns, uint64_t count),
                    void *arg)
{
    for (int32_t i = h->lo_idx; i <= h->hi_idx; i++) {
        if (h->counts[i] == 0)
            continue;
        int rc = fn(arg, dg_hist_bucket_low(i), h->counts[i]);
        if (rc)
            return rc;
    }
    return 0;
}
