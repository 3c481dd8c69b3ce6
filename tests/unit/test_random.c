/*
 * test_random.c - unit tests of gen/random.c.
 *
 * Layout: reference tables first (values produced by pgbench 15 itself), then the tests:
 * exact compatibility with pgbench (hashes, permute, the stream of random_* values for a
 * seed), permute's bijectivity, then the shape of each distribution against its exact
 * discrete law (mean, variance, frequency ratios), parameter errors, and NURand.
 *
 * Every sample is drawn from a fixed seed, so each statistical check is deterministic;
 * tolerances are nevertheless set at 6 standard errors computed from the exact law, so a
 * change of seed would not make them fail either.
 */
#include "core/prng.h"
#include "gen/random.h"

#include "dgtest.h"

#include <stdbool.h>
#include <stdint.h>

struct hash_case {
    int64_t val, seed, fnv1a, murmur2;
};
struct permute_case {
    int64_t val, size, seed, expected;
};
enum kind { UNI, EXP, GAU, ZIPF };
struct draw {
    enum kind kind;
    int64_t lb, ub;
    double param;
    int64_t expected;
};

/*
 * Produced by pgbench 15.18 against a throwaway server, one expression per line:
 *     \set a debug(hash_fnv1a(VAL, SEED))      \set a debug(hash_murmur2(VAL, SEED))
 * {val, seed, hash_fnv1a, hash_murmur2}
 */
static const struct hash_case hash_cases[] = {
    {0, 0, INT64_C(-6284781860667377211), INT64_C(8217090173679840641)},
    {0, 5432, INT64_C(5600063106439994301), INT64_C(6045885599107954120)},
    {0, -1, INT64_C(4052466453699787802), INT64_C(-1429387546045227835)},
    {1, 0, INT64_C(-8517097267634966620), INT64_C(-8089716718896805586)},
    {1, 5432, INT64_C(3367747699472404892), INT64_C(8409120883607651217)},
    {1, -1, INT64_C(6284781860667377211), INT64_C(8383142988610529298)},
    {-1, 0, INT64_C(-8289690350564177859), INT64_C(4219408603045787357)},
    {-1, 5432, INT64_C(3795662180246657077), INT64_C(3202824124722859978)},
    {-1, -1, INT64_C(9116541788052886162), INT64_C(1317380444104773032)},
    {10, 0, INT64_C(-2408371864701034737), INT64_C(-7188666914263997357)},
    {10, 5432, INT64_C(-7793829335365542153), INT64_C(-5817877081768721676)},
    {10, -1, INT64_C(176056457733445328), INT64_C(493381595602370344)},
    {5432, 0, INT64_C(3133677250901833766), INT64_C(3045490949354742142)},
    {5432, 5432, INT64_C(1569928508841025742), INT64_C(-6253783854650158455)},
    {5432, -1, INT64_C(3838121397053456961), INT64_C(1749839204208580898)},
    {123456789, 0, INT64_C(-2350796791908741607), INT64_C(-1652411274631746233)},
    {123456789, 5432, INT64_C(4266817465876938289), INT64_C(-6977665671479594339)},
    {123456789, -1, INT64_C(6091392141410076514), INT64_C(-8406561874705926337)},
    {-987654321, 0, INT64_C(1004467976608288909), INT64_C(-8921804070922432611)},
    {-987654321, 5432, INT64_C(7063364994311948981), INT64_C(1524641913228720507)},
    {-987654321, -1, INT64_C(-2134432464545200698), INT64_C(1893408267882238079)},
    {INT64_MAX, 0, INT64_C(-8289549613075766851), INT64_C(-6118008551640328833)},
    {INT64_MAX, 5432, INT64_C(3795802917735068085), INT64_C(-4755676558467274251)},
    {INT64_MAX, -1, INT64_C(9116682525541297170), INT64_C(-7449049946749928351)},
    {INT64_MIN, 0, INT64_C(-6284922598155788219), INT64_C(9158703207903963431)},
    {INT64_MIN, 5432, INT64_C(5599922368951583293), INT64_C(-2711967873914999986)},
    {INT64_MIN, -1, INT64_C(4052607191188198810), INT64_C(5949093009533562506)},
    {10, INT64_MIN, INT64_C(6815000172153741071), INT64_C(8406353213264770424)},
    {10, INT64_MAX, INT64_C(-9047315579121330480), INT64_C(-2358342350578480109)},
    {-1, INT64_MIN, INT64_C(933681686290597949), INT64_C(7071132549226612610)},
    {INT64_MIN, INT64_MAX, INT64_C(-5170764845666576998), INT64_C(8800816955714355153)},
    {42, 42, INT64_C(-6284781860667377211), INT64_C(8223886180403513324)},
};

/*
 * Produced by pgbench 15.18: \set a debug(permute(VAL, SIZE, SEED)). The rows at size
 * INT64_MAX - 10 near its top are also in pgbench's own TAP test (001_pgbench_with_server,
 * "check permute's portability across architectures"). {val, size, seed, permute}
 */
static const struct permute_case permute_cases[] = {
    {0, 1, 5432, 0},
    {1, 1, 0, 0},
    {0, 1, -1, 0},
    {-1, 1, INT64_MIN, 0},
    {INT64_MIN, 1, INT64_MAX, 0},
    {INT64_MAX, 1, 5432, 0},
    {-1, 1, 0, 0},
    {4, 1, -1, 0},
    {0, 2, 5432, 0},
    {1, 2, 0, 1},
    {1, 2, -1, 1},
    {-1, 2, INT64_MIN, 1},
    {INT64_MIN, 2, INT64_MAX, 0},
    {INT64_MAX, 2, 5432, 1},
    {-2, 2, 0, 0},
    {5, 2, -1, 1},
    {0, 3, 5432, 0},
    {1, 3, 0, 1},
    {2, 3, -1, 1},
    {-1, 3, INT64_MIN, 2},
    {INT64_MIN, 3, INT64_MAX, 2},
    {INT64_MAX, 3, 5432, 1},
    {-3, 3, 0, 1},
    {6, 3, -1, 2},
    {0, 4, 5432, 3},
    {1, 4, 0, 0},
    {3, 4, -1, 3},
    {-1, 4, INT64_MIN, 0},
    {INT64_MIN, 4, INT64_MAX, 0},
    {INT64_MAX, 4, 5432, 0},
    {-4, 4, 0, 1},
    {7, 4, -1, 3},
    {0, 5, 5432, 0},
    {1, 5, 0, 4},
    {4, 5, -1, 4},
    {-1, 5, INT64_MIN, 0},
    {INT64_MIN, 5, INT64_MAX, 4},
    {INT64_MAX, 5, 5432, 4},
    {-5, 5, 0, 4},
    {8, 5, -1, 2},
    {0, 10, 5432, 6},
    {1, 10, 0, 7},
    {9, 10, -1, 5},
    {-1, 10, INT64_MIN, 0},
    {INT64_MIN, 10, INT64_MAX, 1},
    {INT64_MAX, 10, 5432, 4},
    {-10, 10, 0, 3},
    {13, 10, -1, 0},
    {0, 16, 5432, 12},
    {1, 16, 0, 0},
    {15, 16, -1, 11},
    {-1, 16, INT64_MIN, 7},
    {INT64_MIN, 16, INT64_MAX, 13},
    {INT64_MAX, 16, 5432, 4},
    {-16, 16, 0, 11},
    {19, 16, -1, 3},
    {0, 17, 5432, 13},
    {1, 17, 0, 16},
    {16, 17, -1, 2},
    {-1, 17, INT64_MIN, 1},
    {INT64_MIN, 17, INT64_MAX, 10},
    {INT64_MAX, 17, 5432, 14},
    {-17, 17, 0, 16},
    {20, 17, -1, 13},
    {0, 1000, 5432, 609},
    {1, 1000, 0, 977},
    {999, 1000, -1, 160},
    {-1, 1000, INT64_MIN, 602},
    {INT64_MIN, 1000, INT64_MAX, 419},
    {INT64_MAX, 1000, 5432, 628},
    {-1000, 1000, 0, 27},
    {1003, 1000, -1, 258},
    {0, 1000003, 5432, 361525},
    {1, 1000003, 0, 350999},
    {1000002, 1000003, -1, 11080},
    {-1, 1000003, INT64_MIN, 381001},
    {INT64_MIN, 1000003, INT64_MAX, 895816},
    {INT64_MAX, 1000003, 5432, 595946},
    {-1000003, 1000003, 0, 662800},
    {1000006, 1000003, -1, 752759},
    {0, 2147483647, 5432, 49168163},
    {1, 2147483647, 0, 1413969399},
    {2147483646, 2147483647, -1, 1240519219},
    {-1, 2147483647, INT64_MIN, 1732686926},
    {INT64_MIN, 2147483647, INT64_MAX, 1042741622},
    {INT64_MAX, 2147483647, 5432, 929887383},
    {-2147483647, 2147483647, 0, 128537148},
    {INT64_C(2147483650), 2147483647, -1, 806014386},
    {0, INT64_C(4294967296), 5432, 355925298},
    {1, INT64_C(4294967296), 0, INT64_C(3882540235)},
    {INT64_C(4294967295), INT64_C(4294967296), -1, 1350241209},
    {-1, INT64_C(4294967296), INT64_MIN, INT64_C(4169579344)},
    {INT64_MIN, INT64_C(4294967296), INT64_MAX, INT64_C(3008604075)},
    {INT64_MAX, INT64_C(4294967296), 5432, INT64_C(4065203213)},
    {INT64_C(-4294967296), INT64_C(4294967296), 0, INT64_C(3430425288)},
    {INT64_C(4294967299), INT64_C(4294967296), -1, INT64_C(4162023635)},
    {0, INT64_C(4611686018427387903), 5432, INT64_C(2125477194596515877)},
    {1, INT64_C(4611686018427387903), 0, INT64_C(2946175443372012043)},
    {INT64_C(4611686018427387902), INT64_C(4611686018427387903), -1, INT64_C(3530510568607290260)},
    {-1, INT64_C(4611686018427387903), INT64_MIN, INT64_C(3802819270456012747)},
    {INT64_MIN, INT64_C(4611686018427387903), INT64_MAX, INT64_C(2910415909637409917)},
    {INT64_MAX, INT64_C(4611686018427387903), 5432, INT64_C(3173338839286106520)},
    {INT64_C(-4611686018427387903), INT64_C(4611686018427387903), 0, INT64_C(2388143069101334774)},
    {INT64_C(4611686018427387906), INT64_C(4611686018427387903), -1, INT64_C(509398745917567880)},
    {0, INT64_C(4611686018427387904), 5432, INT64_C(2756950640680865974)},
    {1, INT64_C(4611686018427387904), 0, INT64_C(3618469906601334896)},
    {INT64_C(4611686018427387903), INT64_C(4611686018427387904), -1, INT64_C(606580826159433342)},
    {-1, INT64_C(4611686018427387904), INT64_MIN, INT64_C(38132662084620735)},
    {INT64_MIN, INT64_C(4611686018427387904), INT64_MAX, INT64_C(1967284333076175398)},
    {INT64_MAX, INT64_C(4611686018427387904), 5432, INT64_C(1174171640968139380)},
    {INT64_C(-4611686018427387904), INT64_C(4611686018427387904), 0, INT64_C(606617928148488532)},
    {INT64_C(4611686018427387907), INT64_C(4611686018427387904), -1, INT64_C(2897137192760499688)},
    {0, INT64_C(4611686018427387905), 5432, INT64_C(3090742653979685274)},
    {1, INT64_C(4611686018427387905), 0, INT64_C(1833530579346191815)},
    {INT64_C(4611686018427387904), INT64_C(4611686018427387905), -1, INT64_C(485666184008475014)},
    {-1, INT64_C(4611686018427387905), INT64_MIN, INT64_C(2313339206408806962)},
    {INT64_MIN, INT64_C(4611686018427387905), INT64_MAX, INT64_C(1394179438791861583)},
    {INT64_MAX, INT64_C(4611686018427387905), 5432, INT64_C(1064164310987134756)},
    {INT64_C(-4611686018427387905), INT64_C(4611686018427387905), 0, INT64_C(3456963169278647639)},
    {INT64_C(4611686018427387908), INT64_C(4611686018427387905), -1, INT64_C(2740923320893063917)},
    {0, INT64_MAX - 10, 5432, INT64_C(4188477231619507829)},
    {1, INT64_MAX - 10, 0, INT64_C(3047410715906531449)},
    {INT64_C(9223372036854775796), INT64_MAX - 10, -1, INT64_C(2897336749097289679)},
    {-1, INT64_MAX - 10, INT64_MIN, INT64_C(4363279667849708444)},
    {INT64_MIN, INT64_MAX - 10, INT64_MAX, INT64_C(8108085712114807736)},
    {INT64_MAX, INT64_MAX - 10, 5432, INT64_C(5318446270648804361)},
    {INT64_C(-9223372036854775797), INT64_MAX - 10, 0, INT64_C(7774505981178654758)},
    {INT64_C(9223372036854775800), INT64_MAX - 10, -1, INT64_C(299116061852247926)},
    {0, INT64_MAX, 5432, INT64_C(8941447457790205183)},
    {1, INT64_MAX, 0, INT64_C(1409427443184838618)},
    {INT64_C(9223372036854775806), INT64_MAX, -1, INT64_C(4775772272512122725)},
    {-1, INT64_MAX, INT64_MIN, INT64_C(2787068492670133621)},
    {INT64_MIN, INT64_MAX, INT64_MAX, INT64_C(5822102785119445813)},
    {INT64_MAX, INT64_MAX, 5432, INT64_C(8941447457790205183)},
    {INT64_C(-9223372036854775807), INT64_MAX, 0, INT64_C(2120437330394945628)},
    {INT64_C(9223372036854775796), INT64_MAX - 10, 5432, INT64_C(520382784483822430)},
    {INT64_C(9223372036854775795), INT64_MAX - 10, 5432, INT64_C(1143715004660802862)},
    {INT64_C(9223372036854775794), INT64_MAX - 10, 5432, INT64_C(447293596416496998)},
    {INT64_C(9223372036854775793), INT64_MAX - 10, 5432, INT64_C(916527772266572956)},
    {INT64_C(9223372036854775792), INT64_MAX - 10, 5432, INT64_C(2763809008686028849)},
    {INT64_C(9223372036854775791), INT64_MAX - 10, 5432, INT64_C(8648551549198294572)},
    {INT64_C(9223372036854775790), INT64_MAX - 10, 5432, INT64_C(4542876852200565125)},
    {0, 2, 5431, 0},
    {1, 2, 5431, 1},
    {0, 2, 5433, 1},
    {1, 2, 5433, 0},
};

/*
 * Produced by pgbench 15.18 with `pgbench -n -t 1 --random-seed=SEED -f script`, where the
 * script is one `\set a debug(random...(LB, UB[, PARAM]))` per row, evaluated in order by
 * client 0. {function, lb, ub, param, value}
 */
static const struct draw stream0[] = { /* --random-seed=1 */
    {UNI, 1, 1000, 0.0, 806},
    {UNI, 1, 1000, 0.0, 656},
    {UNI, 1, 1000, 0.0, 15},
    {UNI, 1, 1000, 0.0, 603},
    {UNI, 1, 1000, 0.0, 810},
    {UNI, 1, 1000, 0.0, 529},
    {UNI, 1, 1000, 0.0, 679},
    {UNI, 1, 1000, 0.0, 43},
    {UNI, 1, 1000, 0.0, 188},
    {UNI, 1, 1000, 0.0, 935},
    {UNI, 1, 1000, 0.0, 47},
    {UNI, 1, 1000, 0.0, 297},
};
static const struct draw stream1[] = { /* --random-seed=0 */
    {UNI, 0, 1, 0.0, 0},
    {UNI, 0, 1, 0.0, 1},
    {UNI, 0, 1, 0.0, 1},
    {UNI, 0, 1, 0.0, 1},
    {UNI, 0, 1, 0.0, 1},
    {UNI, 0, 1, 0.0, 0},
    {UNI, INT64_C(-9223372036854775806), 0, 0.0, INT64_C(-3971352048534254966)},
    {UNI, INT64_MIN, -2, 0.0, INT64_C(-8922837230816890322)},
    {UNI, 0, INT64_C(9223372036854775806), 0.0, INT64_C(3060352455519417869)},
    {UNI, -5, 5, 0.0, 0},
    {UNI, 7, 7, 0.0, 7},
    {UNI, 1, 100000, 0.0, 8607},
};
static const struct draw stream2[] = { /* --random-seed=5432 */
    {UNI, 1, 1000, 0.0, 837},
    {EXP, 1, 1000, 2.5, 213},
    {GAU, 1, 1000, 3.0, 349},
    {ZIPF, 1, 1000, 1.5, 4},
    {ZIPF, 1, 1000000, 1.01, 34267},
    {EXP, -100, 100, 0.5, -76},
    {GAU, -100, 100, 2.0, 76},
    {ZIPF, 10, 20, 2.0, 10},
    {EXP, 0, INT64_C(9223372036854775806), 10.0, INT64_C(704908696570169088)},
    {GAU, 0, INT64_C(1000000000000000), 5.0, INT64_C(502524159278638)},
    {ZIPF, 1, INT64_C(1000000000000), 3.0, 1},
    {UNI, 1, 1000, 0.0, 539},
};
static const struct draw stream3[] = { /* --random-seed=123456789 */
    {EXP, 1, 10, 1.0, 2},
    {EXP, 1, 10, 1.0, 6},
    {EXP, 1, 10, 1.0, 7},
    {EXP, 1, 10, 1.0, 3},
    {GAU, 1, 10, 2.0, 9},
    {GAU, 1, 10, 2.0, 5},
    {GAU, 1, 10, 2.0, 4},
    {GAU, 1, 10, 2.0, 9},
    {ZIPF, 1, 10, 1.2, 1},
    {ZIPF, 1, 10, 1.2, 2},
    {ZIPF, 1, 10, 1.2, 2},
    {ZIPF, 1, 10, 1.2, 1},
};

static const struct {
    uint64_t seed;
    const struct draw *draws;
    size_t n;
} streams[] = {
    {1, stream0, sizeof stream0 / sizeof stream0[0]},
    {0, stream1, sizeof stream1 / sizeof stream1[0]},
    {5432, stream2, sizeof stream2 / sizeof stream2[0]},
    {123456789, stream3, sizeof stream3 / sizeof stream3[0]},
};

/*
 * pgbench --random-seed=S seeds a base generator with S, and each client's generator for
 * script functions with the next output of the base generator; client 0 comes first.
 */
static void seed_like_pgbench_client0(dg_prng *st, uint64_t seed)
{
    dg_prng base;
    dg_prng_seed(&base, seed);
    dg_prng_seed(st, dg_prng_u64(&base));
}

static int draw(dg_prng *st, enum kind kind, int64_t lb, int64_t ub, double param,
                int64_t *out, dg_err *err)
{
    switch (kind) {
    case UNI: return dg_rand_uniform(st, lb, ub, out, err);
    case EXP: return dg_rand_exponential(st, lb, ub, param, out, err);
    case GAU: return dg_rand_gaussian(st, lb, ub, param, out, err);
    case ZIPF: return dg_rand_zipfian(st, lb, ub, param, out, err);
    }
    return DG_E_INVAL;
}

static void test_hash_pgbench(void)
{
    for (size_t i = 0; i < sizeof hash_cases / sizeof hash_cases[0]; i++) {
        const struct hash_case *c = &hash_cases[i];
        DG_CHECK_INT(dg_hash_fnv1a(c->val, c->seed), c->fnv1a);
        DG_CHECK_INT(dg_hash_murmur2(c->val, c->seed), c->murmur2);
    }
}

static void test_permute_pgbench(void)
{
    for (size_t i = 0; i < sizeof permute_cases / sizeof permute_cases[0]; i++) {
        const struct permute_case *c = &permute_cases[i];
        int64_t got = -1;
        DG_CHECK_INT(dg_permute(c->val, c->size, c->seed, &got, NULL), 0);
        if (got != c->expected)
            fprintf(stderr, "  permute(%" PRId64 ", %" PRId64 ", %" PRId64 ")\n", c->val,
                    c->size, c->seed);
        DG_CHECK_INT(got, c->expected);
    }
    /* A negative value is reduced as an unsigned number (v + 2^64), like pgbench does: */
    int64_t a = -1, b = -1, c = -1;
    DG_CHECK_INT(dg_permute(-1, 10, 5432, &a, NULL), 0);
    DG_CHECK_INT(dg_permute(5, 10, 5432, &b, NULL), 0); /* (2^64 - 1) % 10 == 5 */
    DG_CHECK_INT(dg_permute(9, 10, 5432, &c, NULL), 0);
    DG_CHECK_INT(a, b);
    DG_CHECK(a != c);
}

/* permute(., size, seed) hits every value of [0, size) exactly once. */
static bool is_bijection(int64_t size, int64_t seed, unsigned char *seen)
{
    memset(seen, 0, (size_t)size);
    for (int64_t i = 0; i < size; i++) {
        int64_t p = -1;
        if (dg_permute(i, size, seed, &p, NULL) != 0 || p < 0 || p >= size || seen[p])
            return false;
        seen[p] = 1;
    }
    return true;
}

static void test_permute_bijection(void)
{
    static unsigned char seen[5000];
    int64_t bad = -1;
    int sizes = 0;
    /* every size up to 1000, then a spread up to 5000 including powers of two and +-1 */
    for (int64_t n = 1; n <= 5000; n += n < 1000 ? 1 : 97, sizes++)
        if (!is_bijection(n, n * 7919 - 3, seen) && bad < 0)
            bad = n;
    const int64_t extra[] = {1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 4999, 5000};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++, sizes++)
        if (!is_bijection(extra[i], -(int64_t)i, seen) && bad < 0)
            bad = extra[i];
    const int64_t seeds[] = {0, -1, INT64_MIN, INT64_MAX, 5432};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++, sizes++)
        if (!is_bijection(3001, seeds[i], seen) && bad < 0)
            bad = 3001;
    DG_CHECK_INT(bad, -1);
    DG_CHECK(sizes > 1000);

    /* size 1: everything maps to 0; the value is taken modulo size */
    int64_t p = -1, q = -1;
    DG_CHECK_INT(dg_permute(INT64_MIN, 1, 3, &p, NULL), 0);
    DG_CHECK_INT(p, 0);
    DG_CHECK_INT(dg_permute(17 + 3 * 1000, 1000, 3, &p, NULL), 0);
    DG_CHECK_INT(dg_permute(17, 1000, 3, &q, NULL), 0);
    DG_CHECK_INT(p, q);
    /* the seed matters */
    int differ = 0;
    for (int64_t i = 0; i < 100; i++) {
        DG_CHECK_INT(dg_permute(i, 1000, 1, &p, NULL), 0);
        DG_CHECK_INT(dg_permute(i, 1000, 2, &q, NULL), 0);
        differ += p != q;
    }
    DG_CHECK(differ > 90);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Large odd sizes: 20000 consecutive inputs stay in range and never collide. */
static void test_permute_large(void)
{
    static int64_t img[20000];
    const int64_t sizes[] = {1000003, INT64_C(999999999989), (INT64_C(1) << 40) + 1,
                             (INT64_C(1) << 62) - 1, (INT64_C(1) << 62) + 1, INT64_MAX - 10,
                             INT64_MAX};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int64_t n = sizes[k], start = n / 3;
        bool in_range = true, distinct = true;
        for (int i = 0; i < 20000; i++) {
            int64_t p = -1;
            dg_permute(start + i, n, 42, &p, NULL);
            in_range = in_range && p >= 0 && p < n;
            img[i] = p;
        }
        qsort(img, 20000, sizeof img[0], cmp_i64);
        for (int i = 1; i < 20000; i++)
            distinct = distinct && img[i] != img[i - 1];
        DG_CHECK(in_range);
        DG_CHECK(distinct);
        /* spread: the images of consecutive inputs cover the range, not a corner of it */
        DG_CHECK(img[0] < n / 100 && img[19999] > n - n / 100);
    }
}

static void test_permute_errors(void)
{
    dg_err err;
    int64_t out = 12345;
    DG_CHECK_INT(dg_permute(0, 0, 1, &out, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "permute size parameter must be greater than zero");
    DG_CHECK_INT(err.cls, DG_EC_USER);
    DG_CHECK_INT(dg_permute(3, -5, 1, &out, NULL), DG_E_INVAL);
    DG_CHECK_INT(dg_permute(3, INT64_MIN, 1, &out, NULL), DG_E_INVAL);
    DG_CHECK_INT(out, 12345);
}

/* The very values pgbench's client 0 computes for the same seed and script. */
static void test_streams_pgbench(void)
{
    for (size_t s = 0; s < sizeof streams / sizeof streams[0]; s++) {
        dg_prng st;
        seed_like_pgbench_client0(&st, streams[s].seed);
        for (size_t i = 0; i < streams[s].n; i++) {
            const struct draw *d = &streams[s].draws[i];
            int64_t got = INT64_MIN;
            dg_err err;
            DG_CHECK_INT(draw(&st, d->kind, d->lb, d->ub, d->param, &got, &err), 0);
            if (got != d->expected)
                fprintf(stderr, "  seed %" PRIu64 ", draw %zu\n", streams[s].seed, i);
            DG_CHECK_INT(got, d->expected);
        }
    }
}

/* random(lb, ub) consumes the generator like pg_prng_uint64_range(0, ub - lb). */
static void test_uniform_generator_use(void)
{
    dg_prng a, b;
    dg_prng_seed(&a, 77);
    b = a;
    const int64_t ranges[][2] = {{1, 1000}, {-5, 5}, {7, 7}, {0, 1}, {INT64_MIN, -2},
                                 {0, INT64_MAX - 1}, {-1000, (INT64_C(1) << 40)}};
    bool same = true;
    for (int rep = 0; rep < 200; rep++) {
        for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
            int64_t lb = ranges[k][0], ub = ranges[k][1], v = 0;
            DG_CHECK_INT(dg_rand_uniform(&a, lb, ub, &v, NULL), 0);
            uint64_t off = dg_prng_u64_range(&b, 0, (uint64_t)ub - (uint64_t)lb);
            same = same && (uint64_t)v - (uint64_t)lb == off && v >= lb && v <= ub;
        }
    }
    DG_CHECK(same);
    DG_CHECK(a.s0 == b.s0 && a.s1 == b.s1);
    /* an empty range (lb == ub) draws nothing */
    int64_t v = 0;
    DG_CHECK_INT(dg_rand_uniform(&a, 9, 9, &v, NULL), 0);
    DG_CHECK_INT(v, 9);
    DG_CHECK(a.s0 == b.s0 && a.s1 == b.s1);
}

/* Pearson's statistic of observed counts against expected probabilities. */
static double chi_square(const long *obs, const double *prob, int bins, long n)
{
    double x2 = 0;
    for (int i = 0; i < bins; i++) {
        double e = prob[i] * (double)n;
        x2 += ((double)obs[i] - e) * ((double)obs[i] - e) / e;
    }
    return x2;
}

static void test_uniform_distribution(void)
{
    dg_prng st;
    dg_prng_seed(&st, 2024);
    static long obs[1000];
    static double prob[1000];

    /* 10 bins: 9 degrees of freedom, P(X2 > 33.7) = 1e-4 */
    const long n = 200000;
    memset(obs, 0, sizeof obs);
    bool in_range = true;
    for (long i = 0; i < n; i++) {
        int64_t v = 0;
        dg_rand_uniform(&st, 1, 10, &v, NULL);
        in_range = in_range && v >= 1 && v <= 10;
        if (v >= 1 && v <= 10)
            obs[v - 1]++;
    }
    for (int i = 0; i < 10; i++)
        prob[i] = 0.1;
    DG_CHECK(in_range);
    DG_CHECK(chi_square(obs, prob, 10, n) < 33.7);

    /* 7 bins on a range that is not a power of two (rejection path), negative bounds */
    memset(obs, 0, sizeof obs);
    for (long i = 0; i < n; i++) {
        int64_t v = 0;
        dg_rand_uniform(&st, -3, 3, &v, NULL);
        in_range = in_range && v >= -3 && v <= 3;
        if (v >= -3 && v <= 3)
            obs[v + 3]++;
    }
    for (int i = 0; i < 7; i++)
        prob[i] = 1.0 / 7;
    DG_CHECK(in_range);
    DG_CHECK(chi_square(obs, prob, 7, n) < 29.9); /* 6 df, p = 4e-5 */

    /* 1000 bins: 999 df, mean 999, sd 44.7; 6 sd above the mean */
    memset(obs, 0, sizeof obs);
    for (long i = 0; i < 1000000; i++) {
        int64_t v = 0;
        dg_rand_uniform(&st, 0, 999, &v, NULL);
        in_range = in_range && v >= 0 && v <= 999;
        if (v >= 0 && v <= 999)
            obs[v]++;
    }
    for (int i = 0; i < 1000; i++)
        prob[i] = 0.001;
    DG_CHECK(in_range);
    DG_CHECK(chi_square(obs, prob, 1000, 1000000) < 999 + 6 * 44.7);

    /* huge ranges stay inside, and reach both halves */
    int low_half = 0;
    for (int i = 0; i < 1000; i++) {
        int64_t v = 0;
        dg_rand_uniform(&st, INT64_MIN, -2, &v, NULL);
        in_range = in_range && v >= INT64_MIN && v <= -2;
        low_half += v < INT64_MIN / 2;
    }
    DG_CHECK(in_range);
    DG_CHECK(low_half > 400 && low_half < 600);
}

/* Moments of a discrete law on lb + k, k = 0 .. n-1, given P(k). */
struct moments {
    double mean, var, m4;
};

static struct moments law_moments(const double *p, int n, int64_t lb)
{
    struct moments m = {0, 0, 0};
    for (int k = 0; k < n; k++)
        m.mean += p[k] * (double)(lb + k);
    for (int k = 0; k < n; k++) {
        double d = (double)(lb + k) - m.mean;
        m.var += p[k] * d * d;
        m.m4 += p[k] * d * d * d * d;
    }
    return m;
}

/*
 * Draws n values and checks the sample mean and variance against the law within 6
 * standard errors: sqrt(var / n) for the mean, sqrt((m4 - var^2) / n) for the variance.
 */
static void check_moments(const char *what, dg_prng *st, enum kind kind, int64_t lb, int64_t ub,
                          double param, const double *p, long n)
{
    struct moments law = law_moments(p, (int)(ub - lb + 1), lb);
    double sum = 0, sum2 = 0;
    bool in_range = true;
    for (long i = 0; i < n; i++) {
        int64_t v = INT64_MIN;
        draw(st, kind, lb, ub, param, &v, NULL);
        in_range = in_range && v >= lb && v <= ub;
        double d = (double)v - law.mean; /* centred: no cancellation */
        sum += d;
        sum2 += d * d;
    }
    double mean = law.mean + sum / (double)n;
    double var = (sum2 - sum * sum / (double)n) / (double)(n - 1);
    double se_mean = sqrt(law.var / (double)n);
    double se_var = sqrt((law.m4 - law.var * law.var) / (double)n);
    if (fabs(mean - law.mean) > 6 * se_mean || fabs(var - law.var) > 6 * se_var)
        fprintf(stderr, "  %s: mean %g (law %g), var %g (law %g)\n", what, mean, law.mean, var,
                law.var);
    DG_CHECK(in_range);
    DG_CHECK_NEAR(mean, law.mean, 6 * se_mean);
    DG_CHECK_NEAR(var, law.var, 6 * se_var);
}

static double law[1000];

/* P(k) = P(k/n <= X < (k+1)/n) for X with density ~ e^(-param x) on [0, 1) */
static void exponential_law(double *p, int n, double param)
{
    double norm = 1 - exp(-param);
    for (int k = 0; k < n; k++)
        p[k] = (exp(-param * k / n) - exp(-param * (k + 1) / n)) / norm;
}

/* Multiplicative inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t inverse_u64(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

/* A generator state whose next dg_prng_u64() is `out` (the output depends on s0 only). */
static dg_prng state_yielding(uint64_t out)
{
    uint64_t y = out * inverse_u64(9);
    dg_prng st = {((y >> 7) | (y << 57)) * inverse_u64(5), 1};
    return st;
}

static void test_exponential(void)
{
    /* The smallest uniform, u = 2^-52, with a small parameter: pgbench's formula gives
     * -ln(e^-0.1) / 0.1, which rounds to just above 1 and would yield ub + 1. */
    dg_prng edge = state_yielding(~UINT64_C(0)), probe = edge;
    DG_CHECK(dg_prng_double(&probe) == 1.0 - ldexp(1, -52));
    int64_t top = 0;
    DG_CHECK_INT(dg_rand_exponential(&edge, 1, 1000, 0.1, &top, NULL), 0);
    DG_CHECK_INT(top, 1000);
    edge = state_yielding(~UINT64_C(0));
    DG_CHECK_INT(dg_rand_exponential(&edge, 1, 1000, 0.01, &top, NULL), 0);
    DG_CHECK_INT(top, 1000); /* just below 1 there: the last value, legitimately */


    dg_prng st;
    dg_prng_seed(&st, 31);
    exponential_law(law, 1000, 3.0);
    check_moments("exponential(0, 999, 3)", &st, EXP, 0, 999, 3.0, law, 200000);
    exponential_law(law, 1000, 0.1);
    check_moments("exponential(-500, 499, 0.1)", &st, EXP, -500, 499, 0.1, law, 200000);
    exponential_law(law, 10, 20.0);
    check_moments("exponential(1, 10, 20)", &st, EXP, 1, 10, 20.0, law, 200000);

    /* extreme parameters stay in range */
    bool in_range = true;
    for (int i = 0; i < 10000; i++) {
        int64_t v = INT64_MIN;
        dg_rand_exponential(&st, 5, 15, 1e-300, &v, NULL); /* cut-off ~1: all at lb */
        in_range = in_range && v == 5;
        dg_rand_exponential(&st, 5, 15, 1e6, &v, NULL);
        in_range = in_range && v == 5;
        dg_rand_exponential(&st, 0, INT64_MAX - 1, 0.001, &v, NULL);
        in_range = in_range && v >= 0;
    }
    DG_CHECK(in_range);
}

static double normal_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

/* P(k) for Z ~ N(0, 1) restricted to [-param, param) and mapped onto [0, n) */
static void gaussian_law(double *p, int n, double param)
{
    double norm = normal_cdf(param) - normal_cdf(-param);
    for (int k = 0; k < n; k++)
        p[k] = (normal_cdf(-param + 2 * param * (k + 1) / n) -
                normal_cdf(-param + 2 * param * k / n)) / norm;
}

static void test_gaussian(void)
{
    dg_prng st;
    dg_prng_seed(&st, 32);
    gaussian_law(law, 1000, 2.0);
    check_moments("gaussian(0, 999, 2)", &st, GAU, 0, 999, 2.0, law, 200000);
    gaussian_law(law, 1000, 5.0);
    check_moments("gaussian(1, 1000, 5)", &st, GAU, 1, 1000, 5.0, law, 200000);
    gaussian_law(law, 7, 2.5);
    check_moments("gaussian(-3, 3, 2.5)", &st, GAU, -3, 3, 2.5, law, 200000);
    /* mean at the middle of the range */
    gaussian_law(law, 1000, 3.0);
    struct moments m = law_moments(law, 1000, 0);
    DG_CHECK_NEAR(m.mean, 499.5, 1e-6);
}

/* P(k) = k^-s / H(n, s), k = 1 .. n */
static void zipf_law(double *p, int n, double s)
{
    double h = 0;
    for (int k = 1; k <= n; k++)
        h += pow(k, -s);
    for (int k = 1; k <= n; k++)
        p[k - 1] = pow(k, -s) / h;
}

/* count(lb) / count(lb + 1) ~ 2^s: 6 standard errors by the delta method */
static void check_zipf_ratio(dg_prng *st, int64_t lb, int64_t ub, double s, long n)
{
    long c1 = 0, c2 = 0;
    for (long i = 0; i < n; i++) {
        int64_t v = 0;
        dg_rand_zipfian(st, lb, ub, s, &v, NULL);
        c1 += v == lb;
        c2 += v == lb + 1;
    }
    double ratio = (double)c1 / (double)c2;
    double se = pow(2, s) * sqrt(1.0 / (double)c1 + 1.0 / (double)c2);
    DG_CHECK_NEAR(ratio, pow(2, s), 6 * se);
}

static void test_zipfian(void)
{
    dg_prng st;
    dg_prng_seed(&st, 33);
    zipf_law(law, 1000, 2.0);
    check_moments("zipfian(1, 1000, 2)", &st, ZIPF, 1, 1000, 2.0, law, 200000);
    zipf_law(law, 100, 1.5);
    check_moments("zipfian(-50, 49, 1.5)", &st, ZIPF, -50, 49, 1.5, law, 200000);
    zipf_law(law, 1000, 1.1);
    check_moments("zipfian(0, 999, 1.1)", &st, ZIPF, 0, 999, 1.1, law, 50000);
    check_zipf_ratio(&st, 1, 1000, 2.0, 200000);
    check_zipf_ratio(&st, 100, 199, 1.5, 200000);
    check_zipf_ratio(&st, 0, 1000000, 1.2, 100000);

    /* the limits of s are accepted; a one-value range needs no draw */
    int64_t v = 0;
    DG_CHECK_INT(dg_rand_zipfian(&st, 1, 1000000, DG_MIN_ZIPFIAN_PARAM, &v, NULL), 0);
    DG_CHECK(v >= 1 && v <= 1000000);
    DG_CHECK_INT(dg_rand_zipfian(&st, 1, 1000, DG_MAX_ZIPFIAN_PARAM, &v, NULL), 0);
    DG_CHECK_INT(v, 1);
    dg_prng before = st;
    DG_CHECK_INT(dg_rand_zipfian(&st, 5, 5, 2.0, &v, NULL), 0);
    DG_CHECK_INT(v, 5);
    DG_CHECK(before.s0 == st.s0 && before.s1 == st.s1);
    DG_CHECK_INT(dg_rand_zipfian(&st, INT64_MIN, -2, 3.0, &v, NULL), 0);
    DG_CHECK(v >= INT64_MIN && v <= -2);
}

static const struct {
    enum kind kind;
    int64_t lb, ub;
    double param;
    const char *msg;
} error_cases[] = {
    /* the messages pgbench 15 prints for the same calls */
    {UNI, 5, 3, 0, "empty range given to random"},
    {UNI, INT64_MIN, INT64_MAX, 0, "random range is too large"},
    {UNI, 0, INT64_MAX, 0, "random range is too large"},
    {UNI, -1, INT64_MAX - 1, 0, "random range is too large"},
    {UNI, INT64_MIN, -1, 0, "random range is too large"},
    {UNI, INT64_MIN + 1, 0, 0, "random range is too large"},
    {GAU, 0, 10, 1.0, "gaussian parameter must be at least 2.000000 (not 1.000000)"},
    {GAU, 0, 10, 1.9999, "gaussian parameter must be at least 2.000000 (not 1.999900)"},
    {GAU, 5, 3, 1.0, "empty range given to random"}, /* the range is checked first */
    {EXP, 0, 10, 0.0, "exponential parameter must be greater than zero (not 0.000000)"},
    {EXP, 0, 10, -1.5, "exponential parameter must be greater than zero (not -1.500000)"},
    {EXP, 0, INT64_MAX, -1.0, "random range is too large"},
    {ZIPF, 0, 10, 1.0, "zipfian parameter must be in range [1.001, 1000] (not 1.000000)"},
    {ZIPF, 0, 10, 1000000.0,
     "zipfian parameter must be in range [1.001, 1000] (not 1000000.000000)"},
    {ZIPF, 0, 10, 1.0009, "zipfian parameter must be in range [1.001, 1000] (not 1.000900)"},
    {ZIPF, 0, INT64_MAX, 0.5, "random range is too large"},
    /* pgbench has no check for these (NaN would be undefined behaviour there) */
    {EXP, 0, 10, NAN, "exponential parameter must be greater than zero (not nan)"},
    {GAU, 0, 10, NAN, "gaussian parameter must be at least 2.000000 (not nan)"},
    {GAU, 0, 10, INFINITY, "gaussian parameter must be finite (not inf)"},
    {ZIPF, 0, 10, NAN, "zipfian parameter must be in range [1.001, 1000] (not nan)"},
    {ZIPF, 0, 10, INFINITY, "zipfian parameter must be in range [1.001, 1000] (not inf)"},
};

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
        dg_prng st, before;
        dg_prng_seed(&st, i);
        before = st;
        dg_err err;
        dg_err_clear(&err);
        int64_t out = 4242;
        int rc = draw(&st, error_cases[i].kind, error_cases[i].lb, error_cases[i].ub,
                      error_cases[i].param, &out, &err);
        DG_CHECK_INT(rc, DG_E_INVAL);
        DG_CHECK_STR(err.msg, error_cases[i].msg);
        DG_CHECK_INT(err.cls, DG_EC_USER);
        DG_CHECK_INT(out, 4242);                             /* untouched */
        DG_CHECK(st.s0 == before.s0 && st.s1 == before.s1); /* nothing drawn */
        rc = draw(&st, error_cases[i].kind, error_cases[i].lb, error_cases[i].ub,
                  error_cases[i].param, &out, NULL); /* no error record */
        DG_CHECK_INT(rc, DG_E_INVAL);
    }
    /* the largest accepted ranges and the parameter limits */
    dg_prng st;
    dg_prng_seed(&st, 1);
    int64_t v;
    DG_CHECK_INT(dg_rand_uniform(&st, 0, INT64_MAX - 1, &v, NULL), 0);
    DG_CHECK_INT(dg_rand_uniform(&st, INT64_MIN, -2, &v, NULL), 0);
    DG_CHECK_INT(dg_rand_uniform(&st, INT64_MIN + 2, 0, &v, NULL), 0);
    DG_CHECK_INT(dg_rand_uniform(&st, INT64_MAX, INT64_MAX, &v, NULL), 0);
    DG_CHECK_INT(v, INT64_MAX);
    DG_CHECK_INT(dg_rand_gaussian(&st, 0, INT64_MAX - 1, 2.0, &v, NULL), 0);
    DG_CHECK(v >= 0);
    DG_CHECK_INT(dg_rand_exponential(&st, INT64_MIN, -2, 1e-9, &v, NULL), 0);
    DG_CHECK(v <= -2);
}

static void test_nurand(void)
{
    const int64_t a = 255, x = 0, y = 999, c = 123;
    /* exact law: every (random(0, A), random(x, y)) pair is equally likely */
    static double exact[1000];
    memset(exact, 0, sizeof exact);
    for (int64_t r1 = 0; r1 <= a; r1++)
        for (int64_t r2 = x; r2 <= y; r2++)
            exact[((r1 | r2) + c) % (y - x + 1) + x] += 1.0 / ((a + 1) * (y - x + 1));

    /* draw order and formula, against the generator itself */
    dg_prng st, twin;
    dg_prng_seed(&st, 2718);
    twin = st;
    bool formula = true;
    for (int i = 0; i < 1000; i++) {
        int64_t v = dg_nurand(&st, a, x, y, c);
        int64_t r1 = dg_prng_range(&twin, 0, a);
        int64_t r2 = dg_prng_range(&twin, x, y);
        formula = formula && v == ((r1 | r2) + c) % (y - x + 1) + x;
    }
    DG_CHECK(formula);

    static long obs[1000];
    memset(obs, 0, sizeof obs);
    const long n = 1000000;
    bool in_range = true;
    for (long i = 0; i < n; i++) {
        int64_t v = dg_nurand(&st, a, x, y, c);
        in_range = in_range && v >= x && v <= y;
        if (v >= x && v <= y)
            obs[v - x]++;
    }
    DG_CHECK(in_range);

    /* the 10 most likely values, by the exact law */
    int top[10];
    for (int t = 0; t < 10; t++) {
        int best = -1;
        for (int v = 0; v < 1000; v++) {
            bool taken = false;
            for (int u = 0; u < t; u++)
                taken = taken || top[u] == v;
            if (!taken && (best < 0 || exact[v] > exact[best]))
                best = v;
        }
        top[t] = best;
    }
    double p_top = 0;
    long n_top = 0;
    for (int t = 0; t < 10; t++) {
        p_top += exact[top[t]];
        n_top += obs[top[t]];
    }
    /* NURand is far from uniform: the 10 most common values get > 3x their uniform 1% */
    DG_CHECK(p_top > 0.03);
    DG_CHECK_NEAR((double)n_top / n, p_top, 6 * sqrt(p_top * (1 - p_top) / n));
    /* the most frequent value observed is one of the likeliest by the law */
    int argmax = 0;
    for (int v = 1; v < 1000; v++)
        if (obs[v] > obs[argmax])
            argmax = v;
    DG_CHECK(exact[argmax] >= exact[top[9]]);
    /* and the whole histogram follows the law (bins with >= 5 expected; 6 sd margin) */
    double x2 = 0;
    int bins = 0;
    for (int v = 0; v < 1000; v++) {
        double e = exact[v] * (double)n;
        if (e < 5)
            continue;
        x2 += ((double)obs[v] - e) * ((double)obs[v] - e) / e;
        bins++;
    }
    DG_CHECK(bins > 900);
    DG_CHECK(x2 < (bins - 1) + 6 * sqrt(2.0 * (bins - 1)));
}

static void test_hash_properties(void)
{
    /* deterministic, seed-sensitive, and not the identity on small inputs */
    DG_CHECK_INT(dg_hash_fnv1a(10, 5432), dg_hash_fnv1a(10, 5432));
    DG_CHECK(dg_hash_fnv1a(10, 5432) != dg_hash_fnv1a(10, 5433));
    DG_CHECK(dg_hash_murmur2(10, 5432) != dg_hash_murmur2(10, 5433));
    DG_CHECK(dg_hash_murmur2(10, 5432) != dg_hash_murmur2(11, 5432));
    /* avalanche: flipping one input bit flips about half of the output bits */
    long flips = 0;
    for (int64_t v = 0; v < 1000; v++)
        for (int b = 0; b < 64; b++)
            flips += __builtin_popcountll(
                (uint64_t)dg_hash_murmur2(v, 1) ^
                (uint64_t)dg_hash_murmur2((int64_t)((uint64_t)v ^ (UINT64_C(1) << b)), 1));
    DG_CHECK_NEAR((double)flips / (1000 * 64), 32, 0.5);
}

int main(void)
{
    DG_RUN(test_hash_pgbench);
    DG_RUN(test_hash_properties);
    DG_RUN(test_permute_pgbench);
    DG_RUN(test_permute_bijection);
    DG_RUN(test_permute_large);
    DG_RUN(test_permute_errors);
    DG_RUN(test_streams_pgbench);
    DG_RUN(test_uniform_generator_use);
    DG_RUN(test_uniform_distribution);
    DG_RUN(test_exponential);
    DG_RUN(test_gaussian);
    DG_RUN(test_zipfian);
    DG_RUN(test_errors);
    DG_RUN(test_nurand);
    DG_TEST_END();
}
