/*
 * prng.h - the per-terminal pseudo-random generator.
 *
 * xoroshiro128** 1.0 (Blackman & Vigna), state filled from a 64-bit seed with splitmix64.
 * This is the generator pgbench uses since PostgreSQL 15, seeded the same way, so that
 * functions defined on top of it (permute, and the stream of random() for a given seed)
 * can match pgbench. All functions are inline, allocation-free and touch only *st: one
 * state per terminal, never shared between threads.
 */
#ifndef DG_CORE_PRNG_H
#define DG_CORE_PRNG_H

#include <math.h>
#include <stdint.h>

typedef struct dg_prng {
    uint64_t s0, s1;
} dg_prng;

static inline uint64_t dg_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t dg_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Seeds the state; never leaves it all-zero (the generator's fixed point). */
static inline void dg_prng_seed(dg_prng *st, uint64_t seed)
{
    st->s0 = dg_splitmix64(&seed);
    st->s1 = dg_splitmix64(&seed);
    if (st->s0 == 0 && st->s1 == 0) {
        st->s0 = 0x5851F42D4C957F2DULL;
        st->s1 = 0x14057B7EF767814FULL;
    }
}

/* Next 64 uniformly distributed bits. */
static inline uint64_t dg_prng_u64(dg_prng *st)
{
    uint64_t s0 = st->s0;
    uint64_t s1 = st->s1 ^ s0;
    uint64_t out = dg_rotl64(s0 * 5, 7) * 9;
    st->s0 = dg_rotl64(s0, 24) ^ s1 ^ (s1 << 16);
    st->s1 = dg_rotl64(s1, 37);
    return out;
}

/* Uniform in [lo, hi] (lo if hi <= lo), by bitmask rejection on the high bits. */
static inline uint64_t dg_prng_u64_range(dg_prng *st, uint64_t lo, uint64_t hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = hi - lo;
    int shift = __builtin_clzll(span); /* keep as many high bits as span needs */
    uint64_t v;
    do {
        v = dg_prng_u64(st) >> shift;
    } while (v > span);
    return lo + v;
}

/* Uniform integer in [lo, hi], inclusive (the TPC-C random(x, y)). */
static inline int64_t dg_prng_range(dg_prng *st, int64_t lo, int64_t hi)
{
    return (int64_t)dg_prng_u64_range(st, 0, (uint64_t)hi - (uint64_t)lo) + lo;
}

/* Uniform double in [0, 1), 52 random mantissa bits. */
static inline double dg_prng_double(dg_prng *st)
{
    return ldexp((double)(dg_prng_u64(st) >> 12), -52);
}

/* Standard normal variate (basic Box-Muller on two (0, 1] uniforms). */
static inline double dg_prng_normal(dg_prng *st)
{
    double u1 = 1.0 - dg_prng_double(st);
    double u2 = 1.0 - dg_prng_double(st);
    return sqrt(-2.0 * log(u1)) * sin(2.0 * 3.14159265358979323846 * u2);
}

#endif
