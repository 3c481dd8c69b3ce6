/*
 * random.c - pgbench-compatible random distributions, hashes and permute (random.h).
 *
 * Layout: argument checks first (shared by the random_* functions, in the order pgbench
 * evaluates them: range, then parameter), then the distributions, then the stateless
 * functions (hashes, permute), then TPC-C NURand.
 *
 * Compatibility: every draw goes through core/prng.h, which is the generator pgbench 15
 * uses, and each distribution consumes the generator's output in the same order and with
 * the same floating-point operations as pgbench, so that a terminal seeded like a pgbench
 * client produces the same stream of values (tests/unit/test_random.c checks this against
 * numbers produced by pgbench 15). In the rare cases where pgbench's floating-point
 * arithmetic lands one past the upper bound, we return the upper bound instead; that
 * never changes a value pgbench gets right.
 */
#include "gen/random.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* FNV-1a, 64-bit */
#define FNV_BASIS UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)
/* MurmurHash64A multiplier and shift */
#define MURMUR_M UINT64_C(0xc6a4a7935bd1e995)
#define MURMUR_R 47
/* permute: rounds of the keyed mixing */
#define PERMUTE_ROUNDS 6

/* Script errors: the workload asked for something impossible. */
static int bad_arg(dg_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad_arg(dg_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg_err_vset(err, DG_E_INVAL, DG_EC_USER, 0, NULL, fmt, ap);
    va_end(ap);
    return DG_E_INVAL;
}

/*
 * [lb, ub] must be non-empty and hold at most INT64_MAX values, so that the count
 * ub - lb + 1 used by the distributions fits in an int64. This is pgbench's limit:
 * random(0, INT64_MAX - 1) is accepted, random(0, INT64_MAX) and random(-1, INT64_MAX - 1)
 * are "too large". With lb <= ub the unsigned difference is exact.
 */
static int check_range(int64_t lb, int64_t ub, dg_err *err)
{
    if (lb > ub)
        return bad_arg(err, "empty range given to random");
    if ((uint64_t)ub - (uint64_t)lb >= (uint64_t)INT64_MAX)
        return bad_arg(err, "random range is too large");
    return 0;
}

/*
 * lb + floor(count * frac), count = ub - lb + 1, for frac in [0, 1), as pgbench computes
 * it. frac == 1 (rounding) and a product that rounds up to count give ub instead of
 * ub + 1; the guards also keep the conversion to int64 defined.
 */
static int64_t scale_into(int64_t lb, int64_t ub, double frac)
{
    if (!(frac > 0.0))
        return lb;
    if (frac >= 1.0)
        return ub;
    int64_t off = (int64_t)((double)(ub - lb + 1) * frac); /* < 2^63 since frac < 1 */
    return off > ub - lb ? ub : lb + off;
}

int dg_rand_uniform(dg_prng *st, int64_t lb, int64_t ub, int64_t *out, dg_err *err)
{
    int rc = check_range(lb, ub, err);
    if (rc)
        return rc;
    *out = dg_prng_range(st, lb, ub);
    return 0;
}

/*
 * Truncated exponential by inversion: with c = e^-param and u uniform in (0, 1],
 * -ln(c + (1 - c) u) / param is in [0, 1) and has density proportional to e^(-param x).
 */
int dg_rand_exponential(dg_prng *st, int64_t lb, int64_t ub, double param, int64_t *out,
                        dg_err *err)
{
    int rc = check_range(lb, ub, err);
    if (rc)
        return rc;
    if (!(param > 0.0))
        return bad_arg(err, "exponential parameter must be greater than zero (not %f)", param);

    double c = exp(-param);
    double u = 1.0 - dg_prng_double(st);
    double frac = -log(c + (1.0 - c) * u) / param;
    *out = scale_into(lb, ub, frac);
    return 0;
}

/*
 * Truncated normal by rejection: standard normal variates are drawn until one falls in
 * [-param, param), which is then mapped linearly onto [0, 1). With param >= 2 fewer than
 * one draw in twenty is rejected.
 */
int dg_rand_gaussian(dg_prng *st, int64_t lb, int64_t ub, double param, int64_t *out,
                     dg_err *err)
{
    int rc = check_range(lb, ub, err);
    if (rc)
        return rc;
    if (!(param >= DG_MIN_GAUSSIAN_PARAM))
        return bad_arg(err, "gaussian parameter must be at least %f (not %f)",
                       DG_MIN_GAUSSIAN_PARAM, param);
    if (isinf(param)) /* the mapping below would divide infinity by infinity */
        return bad_arg(err, "gaussian parameter must be finite (not %f)", param);

    double z;
    do {
        z = dg_prng_normal(st);
    } while (z < -param || z >= param);
    *out = scale_into(lb, ub, (z + param) / (param * 2.0));
    return 0;
}

/*
 * Zipf rank in [1, n] with exponent s > 1, by Devroye's rejection method ("Non-Uniform
 * Random Variate Generation", 1986, pp. 550-551): propose x = floor(u^(-1/(s-1))), which
 * follows a distribution dominating the Zipf law, and accept it with the ratio of the two
 * densities; proposals above n are rejected too. The expected number of proposals grows
 * as s approaches 1 and as n shrinks relative to the tail.
 */
static int64_t zipf_rank(dg_prng *st, int64_t n, double s)
{
    if (n <= 1)
        return 1;
    const double b = pow(2.0, s - 1.0);
    for (;;) {
        double u = dg_prng_double(st); /* u == 0 gives x = inf, rejected below */
        double v = dg_prng_double(st);
        double x = floor(pow(u, -1.0 / (s - 1.0)));
        double t = pow(1.0 + 1.0 / x, s - 1.0);
        bool accept = v * x * (t - 1.0) / (b - 1.0) <= t / b;
        if (accept && x <= (double)n)
            return (int64_t)x;
    }
}

int dg_rand_zipfian(dg_prng *st, int64_t lb, int64_t ub, double s, int64_t *out, dg_err *err)
{
    int rc = check_range(lb, ub, err);
    if (rc)
        return rc;
    if (!(s >= DG_MIN_ZIPFIAN_PARAM && s <= DG_MAX_ZIPFIAN_PARAM))
        return bad_arg(err, "zipfian parameter must be in range [%.3f, %.0f] (not %f)",
                       DG_MIN_ZIPFIAN_PARAM, DG_MAX_ZIPFIAN_PARAM, s);
    /* rank 1 is the most frequent and maps to lb */
    *out = lb + (zipf_rank(st, ub - lb + 1, s) - 1);
    return 0;
}

/* Results are computed on uint64 and returned with the same bits (two's complement). */
static int64_t as_signed(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

int64_t dg_hash_fnv1a(int64_t val, int64_t seed)
{
    uint64_t h = FNV_BASIS ^ (uint64_t)seed;
    uint64_t bytes = (uint64_t)val;
    for (int i = 0; i < 8; i++, bytes >>= 8) { /* least significant byte first */
        h ^= bytes & 0xff;
        h *= FNV_PRIME;
    }
    return as_signed(h);
}

/* MurmurHash64A of the 8 bytes of val (little-endian order, as one block). */
int64_t dg_hash_murmur2(int64_t val, int64_t seed)
{
    uint64_t h = (uint64_t)seed ^ (MURMUR_M * 8); /* 8 = length of the key in bytes */
    uint64_t k = (uint64_t)val * MURMUR_M;
    k = (k ^ (k >> MURMUR_R)) * MURMUR_M;
    h = (h ^ k) * MURMUR_M;
    h = (h ^ (h >> MURMUR_R)) * MURMUR_M;
    return as_signed(h ^ (h >> MURMUR_R));
}

/*
 * One keyed bijection of [0, 2^bits): multiply by an odd key and xor another (both modulo
 * 2^bits), then rotate left by one bit so the well-mixed top bit feeds the weak low bits.
 * x outside the window is returned unchanged; the keys are drawn regardless, so the key
 * stream never depends on the value being permuted.
 */
static uint64_t mix_window(dg_prng *keys, uint64_t x, uint64_t mask, int bits)
{
    uint64_t mul = (dg_prng_u64(keys) & mask) | 1;
    uint64_t add = dg_prng_u64(keys) & mask;
    if (x > mask)
        return x;
    x = ((x * mul) ^ add) & mask;
    return ((x << 1) & mask) | (x >> (bits - 1));
}

/*
 * permute on uint64: the value is pushed through PERMUTE_ROUNDS rounds, each of which
 * mixes the window [0, 2^bits) at the bottom of [0, size), then the window of the same
 * width at the top (addressed from the end), then rotates the whole range by a random
 * offset. 2^bits is the largest power of two <= size, so the two windows cover the range
 * between them; each step is a bijection of [0, size), hence so is the whole. Keys come
 * from a generator seeded with the caller's seed, making the permutation a function of
 * (size, seed) only.
 */
static uint64_t permute_u64(uint64_t val, uint64_t size, uint64_t seed)
{
    if (size < 2)
        return 0;
    dg_prng keys;
    dg_prng_seed(&keys, seed);
    int bits = 63 - __builtin_clzll(size); /* >= 1 */
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    uint64_t v = val % size;
    for (int round = 0; round < PERMUTE_ROUNDS; round++) {
        v = mix_window(&keys, v, mask, bits);
        v = size - 1 - mix_window(&keys, size - 1 - v, mask, bits);
        v = (v + dg_prng_u64_range(&keys, 0, size - 1)) % size; /* both < 2^63: no wrap */
    }
    return v;
}

int dg_permute(int64_t val, int64_t size, int64_t seed, int64_t *out, dg_err *err)
{
    if (size <= 0)
        return bad_arg(err, "permute size parameter must be greater than zero");
    *out = (int64_t)permute_u64((uint64_t)val, (uint64_t)size, (uint64_t)seed);
    return 0;
}

int64_t dg_nurand(dg_prng *st, int64_t a, int64_t x, int64_t y, int64_t c)
{
    int64_t r1 = dg_prng_range(st, 0, a); /* drawn first, as the formula reads */
    int64_t r2 = dg_prng_range(st, x, y);
    return ((r1 | r2) + c) % (y - x + 1) + x;
}
