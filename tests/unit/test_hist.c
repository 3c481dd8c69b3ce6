/*
 * test_hist.c - unit tests of stats/hist.c.
 *
 * Layout: helpers (sample generators on the project's own PRNG with fixed seeds, an exact
 * reference computed from the sorted samples), then one function per property: bucket
 * geometry, percentiles against exact order statistics, merge, reset and lo/hi tracking,
 * clamping, record_n/foreach round trip, and fixed memory. Loops over many values count
 * their failures and report the first one, so a broken invariant costs one line of output.
 */
#include "core/prng.h"
#include "stats/hist.h"

#include "dgtest.h"

#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/mman.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#define HAVE_MALLINFO2 1
#endif

/* The struct owns at most one allocation, counts[] (none when borrowed from a block):
 * nothing else to grow. */
_Static_assert(sizeof(dg_hist) == sizeof(uint64_t *) + 4 * sizeof(uint64_t) + 2 * sizeof(int32_t) +
                                      sizeof(uint64_t) /* borrowed, padded */,
               "dg_hist gained a member: revisit test_fixed_memory");

#define NSAMPLES 200000

static int64_t samples[NSAMPLES];

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* uniform 0 .. 10 ms */
static void gen_uniform(int64_t *v, int n, uint64_t seed)
{
    dg_prng st;
    dg_prng_seed(&st, seed);
    for (int i = 0; i < n; i++)
        v[i] = dg_prng_range(&st, 0, 10000000);
}

/* lognormal with +-3 sigma = 1 us .. 10 s, clipped to that span */
static void gen_lognormal(int64_t *v, int n, uint64_t seed)
{
    dg_prng st;
    dg_prng_seed(&st, seed);
    double lo = log(1e3), hi = log(1e10);
    double mu = (lo + hi) / 2, sigma = (hi - lo) / 6;
    for (int i = 0; i < n; i++) {
        double x = exp(mu + sigma * dg_prng_normal(&st));
        v[i] = x < 1e3 ? 1000 : x > 1e10 ? INT64_C(10000000000) : (int64_t)x;
    }
}

/* 90 % around 200 us (sd 20 us), 10 % around 50 ms (sd 5 ms) */
static void gen_bimodal(int64_t *v, int n, uint64_t seed)
{
    dg_prng st;
    dg_prng_seed(&st, seed);
    for (int i = 0; i < n; i++) {
        bool slow = dg_prng_double(&st) < 0.1;
        double x = slow ? 50e6 + 5e6 * dg_prng_normal(&st) : 200e3 + 20e3 * dg_prng_normal(&st);
        v[i] = x < 0 ? 0 : (int64_t)x;
    }
}

static void record_all(dg_hist *h, const int64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        dg_hist_record(h, v[i]);
}

/* Full equality of two histograms, every counter included. */
static void check_same(const dg_hist *a, const dg_hist *b)
{
    DG_CHECK(memcmp(a->counts, b->counts, DG_HIST_LEN * sizeof *a->counts) == 0);
    DG_CHECK_INT(a->total, b->total);
    DG_CHECK(a->sum_ns == b->sum_ns);
    DG_CHECK_INT(a->min_ns, b->min_ns);
    DG_CHECK_INT(a->max_ns, b->max_ns);
    DG_CHECK_INT(a->lo_idx, b->lo_idx);
    DG_CHECK_INT(a->hi_idx, b->hi_idx);
}

static void test_constants(void)
{
    DG_CHECK_INT(DG_HIST_LEN, 33792);
    DG_CHECK_INT(DG_HIST_LEN * sizeof(uint64_t), 264 * 1024);
    DG_CHECK_INT(dg_hist_index(DG_HIST_MAX_NS), DG_HIST_LEN - 1);
    DG_CHECK_INT(dg_hist_bucket_low(0), 0);
    DG_CHECK_INT(dg_hist_bucket_high(DG_HIST_LEN - 1), DG_HIST_MAX_NS);
    /* out-of-range indexes are clamped, not read past the table */
    DG_CHECK_INT(dg_hist_bucket_low(-5), 0);
    DG_CHECK_INT(dg_hist_bucket_high(DG_HIST_LEN + 7), DG_HIST_MAX_NS);
}

/* Every index: contiguous, self-consistent, exact below 2048, relative width <= 1/1024. */
static void test_bucket_geometry(void)
{
    int32_t gap = -1, roundtrip = -1, too_wide = -1, not_exact = -1;
    for (int32_t i = 0; i < DG_HIST_LEN; i++) {
        int64_t lo = dg_hist_bucket_low(i), hi = dg_hist_bucket_high(i);
        if (i + 1 < DG_HIST_LEN && dg_hist_bucket_low(i + 1) != hi + 1 && gap < 0)
            gap = i;
        if ((dg_hist_index(lo) != i || dg_hist_index(hi) != i || lo > hi) && roundtrip < 0)
            roundtrip = i;
        if (lo < DG_HIST_SUB_COUNT && lo != hi && not_exact < 0)
            not_exact = i;
        if (lo >= DG_HIST_SUB_COUNT && (hi - lo + 1) * 1024 > lo && too_wide < 0)
            too_wide = i;
    }
    DG_CHECK_INT(gap, -1);
    DG_CHECK_INT(roundtrip, -1);
    DG_CHECK_INT(not_exact, -1);
    DG_CHECK_INT(too_wide, -1);
    /* the bound is tight: the first bucket of each octave is exactly 1/1024 wide */
    DG_CHECK_INT(dg_hist_bucket_high(dg_hist_index(4096)) - 4096 + 1, 4);
}

static bool value_fits(int64_t v)
{
    int32_t i = dg_hist_index(v);
    return i >= 0 && i < DG_HIST_LEN && dg_hist_bucket_low(i) <= v && v <= dg_hist_bucket_high(i);
}

/* Values: everything below 70000, both sides of every power of two, random per octave. */
static void test_index_values(void)
{
    int64_t bad = -1;
    long n = 0;
    for (int64_t v = 0; v < 70000; v++, n++)
        if (!value_fits(v) && bad < 0)
            bad = v;
    dg_prng st;
    dg_prng_seed(&st, 7);
    for (int k = 1; k < DG_HIST_MAX_BITS; k++) {
        int64_t p = INT64_C(1) << k;
        for (int64_t d = -3; d <= 3; d++, n++)
            if (p + d <= DG_HIST_MAX_NS && !value_fits(p + d) && bad < 0)
                bad = p + d;
        for (int j = 0; j < 2000; j++, n++) {
            int64_t v = dg_prng_range(&st, p, 2 * p - 1);
            if (v <= DG_HIST_MAX_NS && !value_fits(v) && bad < 0)
                bad = v;
        }
    }
    DG_CHECK_INT(bad, -1);
    DG_CHECK(n > 100000);
    /* the index is monotonic */
    int64_t prev = 0, nonmono = -1;
    for (int64_t v = 1; v <= DG_HIST_MAX_NS; v += v / 97 + 1) {
        if (dg_hist_index(v) < dg_hist_index(prev) && nonmono < 0)
            nonmono = v;
        prev = v;
    }
    DG_CHECK_INT(nonmono, -1);
}

/* Percentiles in units of 1/10000 %, so the exact rank is integer arithmetic. */
static const int64_t pct_e4[] = {0,      1000,   10000,  100000, 250000, 333333, 500000,
                                 666667, 750000, 900000, 950000, 990000, 999000, 999900,
                                 999990, 1000000};

static void check_percentiles(const char *what, int64_t *v, int n)
{
    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    record_all(&h, v, n);
    qsort(v, (size_t)n, sizeof *v, cmp_i64);

    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += (uint64_t)v[i];
    DG_CHECK_INT(h.total, n);
    DG_CHECK(h.sum_ns == sum);
    DG_CHECK(dg_hist_mean(&h) == (double)sum / n);
    DG_CHECK_INT(dg_hist_percentile(&h, 0), v[0]);
    DG_CHECK_INT(dg_hist_percentile(&h, 100), v[n - 1]);

    for (size_t k = 0; k < sizeof pct_e4 / sizeof pct_e4[0]; k++) {
        int64_t rank = (pct_e4[k] * n + 999999) / 1000000; /* ceil */
        if (rank < 1)
            rank = 1;
        int64_t exact = v[rank - 1];
        int64_t got = dg_hist_percentile(&h, (double)pct_e4[k] / 10000.0);
        double tol = (double)exact / 1024.0 + 1.0;
        if (fabs((double)(got - exact)) > tol)
            fprintf(stderr, "  %s: p%g: got %" PRId64 ", exact %" PRId64 "\n", what,
                    (double)pct_e4[k] / 10000.0, got, exact);
        DG_CHECK_NEAR(got, exact, tol);
    }
    dg_hist_destroy(&h);
}

static void test_percentiles_random(void)
{
    gen_uniform(samples, NSAMPLES, 11);
    check_percentiles("uniform", samples, NSAMPLES);
    gen_lognormal(samples, NSAMPLES, 12);
    DG_CHECK(samples[0] >= 1000);
    check_percentiles("lognormal", samples, NSAMPLES);
    gen_bimodal(samples, NSAMPLES, 13);
    check_percentiles("bimodal", samples, NSAMPLES);
    /* small samples exercise rank rounding */
    gen_lognormal(samples, 7, 14);
    check_percentiles("lognormal-7", samples, 7);
    gen_uniform(samples, 1000, 15);
    check_percentiles("uniform-1000", samples, 1000);
}

static void test_percentiles_small(void)
{
    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    DG_CHECK_INT(dg_hist_percentile(&h, 50), 0); /* empty */
    DG_CHECK_INT(dg_hist_percentile(&h, 100), 0);
    DG_CHECK(dg_hist_mean(&h) == 0.0);
    for (int v = 1; v <= 4; v++)
        dg_hist_record(&h, v);
    DG_CHECK_INT(dg_hist_percentile(&h, 0), 1);
    DG_CHECK_INT(dg_hist_percentile(&h, 0.001), 1); /* at least one value */
    DG_CHECK_INT(dg_hist_percentile(&h, 25), 1);
    DG_CHECK_INT(dg_hist_percentile(&h, 25.01), 2);
    DG_CHECK_INT(dg_hist_percentile(&h, 50), 2);
    DG_CHECK_INT(dg_hist_percentile(&h, 75), 3);
    DG_CHECK_INT(dg_hist_percentile(&h, 99.99), 4);
    DG_CHECK_INT(dg_hist_percentile(&h, 250), 4);
    DG_CHECK_INT(dg_hist_percentile(&h, -3), 1);
    DG_CHECK_INT(dg_hist_percentile(&h, NAN), 1);
    DG_CHECK_NEAR(dg_hist_mean(&h), 2.5, 0);

    /* one value in a wide bucket: every percentile is that exact value (clamping) */
    dg_hist_reset(&h);
    dg_hist_record(&h, 123456789);
    DG_CHECK_INT(dg_hist_percentile(&h, 0), 123456789);
    DG_CHECK_INT(dg_hist_percentile(&h, 50), 123456789);
    DG_CHECK_INT(dg_hist_percentile(&h, 100), 123456789);

    /* decimal percentiles must not be pushed one value up by binary rounding */
    dg_hist_reset(&h);
    for (int v = 1; v <= 1000; v++)
        dg_hist_record(&h, v);
    DG_CHECK_INT(dg_hist_percentile(&h, 99.9), 999);
    DG_CHECK_INT(dg_hist_percentile(&h, 99.7), 997);
    DG_CHECK_INT(dg_hist_percentile(&h, 0.3), 3);
    DG_CHECK_INT(dg_hist_percentile(&h, 57.1), 571);
    DG_CHECK_INT(dg_hist_percentile(&h, 99.95), 1000);

    /* midpoint of a wide bucket, clamped into [min, max] */
    dg_hist_reset(&h);
    dg_hist_record(&h, 1000000);
    dg_hist_record(&h, 1000000);
    dg_hist_record(&h, 5000000);
    int32_t i = dg_hist_index(1000000);
    int64_t mid = dg_hist_bucket_low(i) + (dg_hist_bucket_high(i) - dg_hist_bucket_low(i)) / 2;
    DG_CHECK_INT(dg_hist_percentile(&h, 50), mid < 1000000 ? 1000000 : mid);
    DG_CHECK_INT(dg_hist_percentile(&h, 0), 1000000);
    dg_hist_destroy(&h);
}

static void test_merge(void)
{
    dg_hist a, b, all, empty, e2;
    DG_CHECK_INT(dg_hist_init(&a), 0);
    DG_CHECK_INT(dg_hist_init(&b), 0);
    DG_CHECK_INT(dg_hist_init(&all), 0);
    DG_CHECK_INT(dg_hist_init(&empty), 0);
    DG_CHECK_INT(dg_hist_init(&e2), 0);

    gen_bimodal(samples, NSAMPLES / 2, 21);
    gen_lognormal(samples + NSAMPLES / 2, NSAMPLES / 2, 22);
    samples[0] = -17;                  /* clamped */
    samples[1] = DG_HIST_MAX_NS + 99;  /* overflow bucket, exact max */
    record_all(&a, samples, NSAMPLES / 2);
    record_all(&b, samples + NSAMPLES / 2, NSAMPLES / 2);
    record_all(&all, samples, NSAMPLES);

    dg_hist_merge(&a, &b);
    check_same(&a, &all);

    /* into an empty histogram: a copy */
    dg_hist_merge(&empty, &all);
    check_same(&empty, &all);

    /* of an empty histogram: nothing changes, empty stays mergeable */
    dg_hist_merge(&all, &e2);
    check_same(&all, &a);
    dg_hist_merge(&e2, &e2);
    DG_CHECK_INT(e2.total, 0);
    DG_CHECK(e2.lo_idx > e2.hi_idx);
    DG_CHECK_INT(e2.min_ns, INT64_MAX);

    /* with itself: every count doubles */
    dg_hist_reset(&e2);
    dg_hist_record(&e2, 10);
    dg_hist_record(&e2, 5000);
    dg_hist_merge(&e2, &e2);
    DG_CHECK_INT(e2.total, 4);
    DG_CHECK_INT(e2.counts[10], 2);
    DG_CHECK_INT(e2.counts[dg_hist_index(5000)], 2);
    DG_CHECK(e2.sum_ns == 2 * 5010);

    dg_hist_destroy(&a);
    dg_hist_destroy(&b);
    dg_hist_destroy(&all);
    dg_hist_destroy(&empty);
    dg_hist_destroy(&e2);
}

static int count_nonzero(const dg_hist *h)
{
    int n = 0;
    for (int32_t i = 0; i < DG_HIST_LEN; i++)
        n += h->counts[i] != 0;
    return n;
}

static void test_reset_and_range(void)
{
    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    DG_CHECK_INT(h.total, 0);
    DG_CHECK(h.lo_idx > h.hi_idx);
    DG_CHECK_INT(h.min_ns, INT64_MAX);
    DG_CHECK_INT(h.max_ns, 0);

    dg_hist_record(&h, 5000);
    DG_CHECK_INT(h.lo_idx, dg_hist_index(5000));
    DG_CHECK_INT(h.hi_idx, dg_hist_index(5000));
    dg_hist_record(&h, 100);
    DG_CHECK_INT(h.lo_idx, 100);
    DG_CHECK_INT(h.hi_idx, dg_hist_index(5000));
    dg_hist_record(&h, 1000000000);
    DG_CHECK_INT(h.lo_idx, 100);
    DG_CHECK_INT(h.hi_idx, dg_hist_index(1000000000));
    dg_hist_record(&h, 300);
    DG_CHECK_INT(h.lo_idx, 100);
    DG_CHECK_INT(h.hi_idx, dg_hist_index(1000000000));

    gen_lognormal(samples, 10000, 31);
    record_all(&h, samples, 10000);
    dg_hist_reset(&h);
    DG_CHECK_INT(count_nonzero(&h), 0);
    DG_CHECK_INT(h.total, 0);
    DG_CHECK(h.sum_ns == 0);
    DG_CHECK_INT(h.min_ns, INT64_MAX);
    DG_CHECK_INT(h.max_ns, 0);
    DG_CHECK(h.lo_idx > h.hi_idx);
    DG_CHECK_INT(dg_hist_percentile(&h, 50), 0);

    /* and is usable again */
    dg_hist_record(&h, 42);
    DG_CHECK_INT(h.lo_idx, 42);
    DG_CHECK_INT(h.hi_idx, 42);
    DG_CHECK_INT(dg_hist_percentile(&h, 50), 42);
    DG_CHECK_INT(count_nonzero(&h), 1);
    dg_hist_reset(&h);
    dg_hist_reset(&h); /* twice is harmless */
    DG_CHECK_INT(count_nonzero(&h), 0);
    dg_hist_destroy(&h);
    DG_CHECK(h.counts == NULL);
    dg_hist_destroy(&h); /* twice, and NULL, are harmless */
    dg_hist_destroy(NULL);
}

static void test_clamping(void)
{
    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    dg_hist_record(&h, -5);
    DG_CHECK_INT(h.counts[0], 1);
    DG_CHECK_INT(h.min_ns, 0);
    DG_CHECK_INT(h.max_ns, 0);
    DG_CHECK(h.sum_ns == 0);
    dg_hist_record(&h, INT64_MIN);
    DG_CHECK_INT(h.counts[0], 2);

    int64_t big = DG_HIST_MAX_NS + 12345;
    dg_hist_record(&h, big);
    DG_CHECK_INT(h.counts[DG_HIST_LEN - 1], 1);
    DG_CHECK_INT(h.max_ns, big); /* exact, unclamped */
    DG_CHECK(h.sum_ns == (uint64_t)DG_HIST_MAX_NS);
    DG_CHECK_INT(h.hi_idx, DG_HIST_LEN - 1);
    DG_CHECK_INT(dg_hist_percentile(&h, 100), big);
    /* p99 falls in the top bucket: its midpoint, which is below max */
    int64_t top_mid = dg_hist_bucket_low(DG_HIST_LEN - 1) +
                      (DG_HIST_MAX_NS - dg_hist_bucket_low(DG_HIST_LEN - 1)) / 2;
    DG_CHECK_INT(dg_hist_percentile(&h, 99), top_mid);

    dg_hist_record(&h, INT64_MAX);
    DG_CHECK_INT(h.counts[DG_HIST_LEN - 1], 2);
    DG_CHECK_INT(h.max_ns, INT64_MAX);
    DG_CHECK(h.sum_ns == 2 * (uint64_t)DG_HIST_MAX_NS);
    DG_CHECK_INT(dg_hist_percentile(&h, 100), INT64_MAX);

    dg_hist_record(&h, DG_HIST_MAX_NS);
    DG_CHECK_INT(h.counts[DG_HIST_LEN - 1], 3);
    DG_CHECK_INT(h.total, 5);
    DG_CHECK_INT(h.min_ns, 0);
    dg_hist_destroy(&h);

    /* record_n clamps the same way */
    DG_CHECK_INT(dg_hist_init(&h), 0);
    dg_hist_record_n(&h, -9, 3);
    dg_hist_record_n(&h, big, 2);
    DG_CHECK_INT(h.counts[0], 3);
    DG_CHECK_INT(h.counts[DG_HIST_LEN - 1], 2);
    DG_CHECK_INT(h.min_ns, 0);
    DG_CHECK_INT(h.max_ns, big);
    DG_CHECK(h.sum_ns == 2 * (uint64_t)DG_HIST_MAX_NS);
    dg_hist_destroy(&h);
}

struct dump {
    int n;
    int64_t low[DG_HIST_LEN];
    uint64_t count[DG_HIST_LEN];
};

static int dump_bucket(void *arg, int64_t low_ns, uint64_t count)
{
    struct dump *d = arg;
    d->low[d->n] = low_ns;
    d->count[d->n] = count;
    d->n++;
    return 0;
}

static int stop_at_third(void *arg, int64_t low_ns, uint64_t count)
{
    int *seen = arg;
    (void)low_ns;
    (void)count;
    return ++*seen == 3 ? 77 : 0;
}

static struct dump dump;

static void test_record_n_and_foreach(void)
{
    dg_hist a, b;
    DG_CHECK_INT(dg_hist_init(&a), 0);
    DG_CHECK_INT(dg_hist_init(&b), 0);

    /* record_n(v, k) == k x record(v) */
    const int64_t vals[] = {0, 7, 2047, 2048, 2049, 999999, 123456789012, DG_HIST_MAX_NS};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        for (uint64_t k = 0; k < i + 2; k++)
            dg_hist_record(&a, vals[i]);
        dg_hist_record_n(&b, vals[i], i + 2);
    }
    check_same(&a, &b);
    dg_hist_record_n(&b, 5, 0); /* count 0: no trace at all */
    check_same(&a, &b);
    dg_hist_reset(&b);
    dg_hist_record_n(&b, 5, 0);
    DG_CHECK_INT(b.min_ns, INT64_MAX);
    DG_CHECK(b.lo_idx > b.hi_idx);

    /* foreach -> record_n reproduces every bucket */
    dg_hist_reset(&a);
    dg_hist_reset(&b);
    gen_bimodal(samples, NSAMPLES, 41);
    record_all(&a, samples, NSAMPLES);
    dump.n = 0;
    DG_CHECK_INT(dg_hist_foreach(&a, dump_bucket, &dump), 0);
    DG_CHECK_INT(dump.n, count_nonzero(&a));
    bool increasing = true, nonzero = true;
    for (int i = 0; i < dump.n; i++) {
        if (i > 0 && dump.low[i] <= dump.low[i - 1])
            increasing = false;
        if (dump.count[i] == 0)
            nonzero = false;
        dg_hist_record_n(&b, dump.low[i], dump.count[i]);
    }
    DG_CHECK(increasing);
    DG_CHECK(nonzero);
    DG_CHECK(memcmp(a.counts, b.counts, DG_HIST_LEN * sizeof *a.counts) == 0);
    DG_CHECK_INT(b.total, a.total);
    DG_CHECK_INT(b.lo_idx, a.lo_idx);
    DG_CHECK_INT(b.hi_idx, a.hi_idx);
    /* read-back percentiles agree within the resolution */
    DG_CHECK_NEAR(dg_hist_percentile(&b, 99), dg_hist_percentile(&a, 99),
                  dg_hist_percentile(&a, 99) / 1024.0 + 1);

    int seen = 0;
    DG_CHECK_INT(dg_hist_foreach(&a, stop_at_third, &seen), 77);
    DG_CHECK_INT(seen, 3);
    dg_hist_reset(&a);
    seen = 0;
    DG_CHECK_INT(dg_hist_foreach(&a, stop_at_third, &seen), 0);
    DG_CHECK_INT(seen, 0);
    dg_hist_destroy(&a);
    dg_hist_destroy(&b);
}

/*
 * Recording allocates nothing: 10 million values later the histogram still owns the same
 * single block, and the C library's heap has not grown. The pages of counts[] that no value
 * falls into are still not resident (the point of mapping the counters lazily).
 */
static void test_fixed_memory(void)
{
    /* A histogram filled everywhere and freed first: with malloc-based counters the next
     * one would reuse (and zero, i.e. touch) that memory; mapped counters stay lazy. */
    dg_hist old;
    DG_CHECK_INT(dg_hist_init(&old), 0);
    for (int64_t v = 1; v < DG_HIST_MAX_NS / 2; v *= 2)
        dg_hist_record(&old, v);
    dg_hist_destroy(&old);

    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    uint64_t *counts = h.counts;

#ifdef HAVE_MALLINFO2
    struct mallinfo2 before = mallinfo2();
#endif
    dg_prng st;
    dg_prng_seed(&st, 99);
    uint64_t n = 10 * 1000 * 1000;
    for (uint64_t i = 0; i < n; i++) /* 1 us .. ~1.05 ms */
        dg_hist_record(&h, 1000 + (int64_t)(dg_prng_u64(&st) >> 44));
    int64_t p99 = dg_hist_percentile(&h, 99);
    dg_hist_merge(&h, &h);
    dg_hist_record_n(&h, 5000, 3);
#ifdef HAVE_MALLINFO2
    struct mallinfo2 after = mallinfo2();
    DG_CHECK_INT(after.uordblks, before.uordblks); /* bytes in use on the heap */
    DG_CHECK_INT(after.hblkhd, before.hblkhd);     /* bytes in mmapped blocks */
#endif
    DG_CHECK(h.counts == counts);
    DG_CHECK_INT(h.total, 2 * n + 3);
    DG_CHECK_NEAR(p99, 1000 + 0.99 * (1 << 20), 0.01 * (1 << 20));

#if !defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__)
    /* Residency: values 1 us .. 1.05 ms use indexes 1000 .. ~12300, i.e. the first
     * ~96 KiB of the 264 KiB array; the pages after that must never have been touched. */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)h.counts & ~(uintptr_t)(page - 1);
    uintptr_t end = (uintptr_t)(h.counts + DG_HIST_LEN);
    size_t npages = (end - start + (uintptr_t)page - 1) / (uintptr_t)page;
    unsigned char vec[128];
    if (npages <= sizeof vec && mincore((void *)start, end - start, vec) == 0) {
        uintptr_t used_end = (uintptr_t)(h.counts + h.hi_idx + 1);
        size_t first_unused = (used_end - start + (uintptr_t)page - 1) / (uintptr_t)page;
        size_t resident_beyond = 0;
        for (size_t p = first_unused; p < npages; p++)
            resident_beyond += vec[p] & 1;
        DG_CHECK_INT(resident_beyond, 0);
        DG_CHECK(first_unused < npages / 2);
    }
#endif
    dg_hist_destroy(&h);
}

/* Histograms over one block: each its own counters, values never cross, destroy leaves
 * the block (to dg_hist_block_unmap), and an unwritten histogram's pages stay unbacked. */
static void test_block(void)
{
    uint64_t *block = dg_hist_block_map(3);
    DG_CHECK(block != NULL);
    dg_hist h[3];
    for (int k = 0; k < 3; k++)
        dg_hist_init_in(&h[k], block, k);
    DG_CHECK(h[1].counts == block + DG_HIST_LEN && h[2].counts == block + 2 * DG_HIST_LEN);
    dg_hist_record(&h[0], 0);
    dg_hist_record(&h[0], DG_HIST_MAX_NS); /* the last counter of the first */
    dg_hist_record_n(&h[2], 1500000, 4);
    DG_CHECK_INT(h[0].total, 2);
    DG_CHECK_INT(h[1].total, 0);
    DG_CHECK_INT(h[2].total, 4);
    DG_CHECK_INT(dg_hist_percentile(&h[0], 100), DG_HIST_MAX_NS);
    DG_CHECK_INT(dg_hist_percentile(&h[2], 50), 1500000);
    dg_hist_merge(&h[1], &h[2]);
    DG_CHECK_INT(h[1].total, 4);
    DG_CHECK_INT(h[2].total, 4);
#if !defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__)
    /* the middle histogram was written near 1.5 ms only: its first page (right after the
     * first histogram's last counter) untouched */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t p = ((uintptr_t)h[1].counts + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    unsigned char v = 1;
    if (mincore((void *)p, (size_t)page, &v) == 0)
        DG_CHECK_INT(v & 1, 0);
#endif
    DG_CHECK_INT(h[1].counts[0], 0); /* right after h[0]'s last counter */
    for (int k = 0; k < 3; k++)
        dg_hist_destroy(&h[k]);
    DG_CHECK_INT(block[0], 1); /* still mapped, still ours */
    dg_hist_block_unmap(block, 3);
    DG_CHECK(dg_hist_block_map(0) == NULL);
}

int main(void)
{
    DG_RUN(test_fixed_memory); /* first: wants a fresh heap */
    DG_RUN(test_constants);
    DG_RUN(test_bucket_geometry);
    DG_RUN(test_index_values);
    DG_RUN(test_percentiles_small);
    DG_RUN(test_percentiles_random);
    DG_RUN(test_merge);
    DG_RUN(test_reset_and_range);
    DG_RUN(test_clamping);
    DG_RUN(test_record_n_and_foreach);
    DG_RUN(test_block);
    DG_TEST_END();
}
