/*
 * random.h - random distributions and hash functions, pgbench-compatible.
 *
 * All functions take the caller's per-terminal dg_prng (core/prng.h), allocate nothing
 * and are safe to call from many threads on different states. Functions whose arguments
 * can be invalid return 0 or DG_E_INVAL and write the result to *out only on success;
 * an error message describing the problem (pgbench's wording where it has one) is
 * copied into err (NULL allowed), with class DG_EC_USER (the workload is wrong).
 * The random_* functions check the range first, then the parameter, as pgbench does.
 *
 * Compatibility: for the same arguments, dg_hash_fnv1a, dg_hash_murmur2 and dg_permute
 * return exactly what pgbench's hash_fnv1a, hash_murmur2 and permute return; the
 * random_* functions draw from the same generator with pgbench's algorithms.
 */
#ifndef DG_GEN_RANDOM_H
#define DG_GEN_RANDOM_H

#include "core/err.h"
#include "core/prng.h"

#include <stdint.h>

/* pgbench limits */
#define DG_MIN_GAUSSIAN_PARAM 2.0
#define DG_MIN_ZIPFIAN_PARAM 1.001
#define DG_MAX_ZIPFIAN_PARAM 1000.0

/* random(lb, ub): uniform over [lb, ub]; errors "empty range given to random" if lb > ub
 * and "random range is too large" if [lb, ub] holds more than INT64_MAX values. Consumes
 * the generator exactly as pg_prng_uint64_range(st, 0, ub - lb) does. */
int dg_rand_uniform(dg_prng *st, int64_t lb, int64_t ub, int64_t *out, dg_err *err);
/* random_exponential(lb, ub, param): param > 0 (NaN refused); P(lb) / P(ub) ~ e^param. */
int dg_rand_exponential(dg_prng *st, int64_t lb, int64_t ub, double param, int64_t *out,
                        dg_err *err);
/* random_gaussian(lb, ub, param): param >= 2.0 and finite; the mean is the middle of the
 * range, which spans param standard deviations on each side. */
int dg_rand_gaussian(dg_prng *st, int64_t lb, int64_t ub, double param, int64_t *out,
                     dg_err *err);
/* random_zipfian(lb, ub, s): 1.001 <= s <= 1000; lb is the most frequent value and
 * P(lb + k - 1) ~ k^-s. Slow (many rejected proposals) for s near 1 with small ranges. */
int dg_rand_zipfian(dg_prng *st, int64_t lb, int64_t ub, double s, int64_t *out, dg_err *err);

/* TPC-C NURand(A, x, y) with run/load constant C: (((random(0,A) | random(x,y)) + C) % (y-x+1)) + x
 * (random(0, A) is drawn first). Arguments are not checked: 0 <= x <= y, 0 <= C <= A. */
int64_t dg_nurand(dg_prng *st, int64_t a, int64_t x, int64_t y, int64_t c);

/* hash functions (as pgbench's hash_fnv1a / hash_murmur2; hash() = hash_murmur2) */
int64_t dg_hash_fnv1a(int64_t val, int64_t seed);
int64_t dg_hash_murmur2(int64_t val, int64_t seed);

/* permute(i, size, seed): a pseudorandom permutation of [0, size), determined by (size,
 * seed). i is reduced as pgbench does it, as an unsigned 64-bit number: a negative i
 * stands for i + 2^64, so permute(-1, 10, s) == permute(5, 10, s), not permute(9, 10, s).
 * size == 1 gives 0. Error "permute size parameter must be greater than zero" if
 * size <= 0. */
int dg_permute(int64_t val, int64_t size, int64_t seed, int64_t *out, dg_err *err);

#endif
