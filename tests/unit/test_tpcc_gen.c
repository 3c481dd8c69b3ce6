/*
 * test_tpcc_gen.c - unit tests of the TPC-C value generators (gen/tpcc_text.c) and the
 * small rules of the tpcc workload: string lengths and alphabets, zip format, last-name
 * syllables (371 -> PRICALLYOUGHT), the ORIGINAL share, the C_RUN delta rule, the
 * ceil(n/2) namesake choice, NURand's range, exact numeric parsing, and the per-unit
 * generator seeding the loader relies on for --jobs independence.
 *
 * Samples come from fixed seeds; statistical tolerances are several standard errors wide.
 */
#include "core/prng.h"
#include "gen/random.h"
#include "gen/tpcc_text.h"
#include "workload/tpcc/tpcc.h"

#include "dgtest.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

static bool all_in(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i] || !strchr(set, s[i]))
            return false;
    return true;
}

static void test_astring(void)
{
    dg_prng g;
    dg_prng_seed(&g, 1);
    char buf[600];
    int seen_len[600] = {0};
    int seen_char[256] = {0};
    double total = 0;
    const int N = 20000;
    for (int i = 0; i < N; i++) {
        size_t n = dg_tpcc_astring(&g, 14, 24, buf);
        DG_CHECK(n >= 14 && n <= 24);
        DG_CHECK_INT(strlen(buf), n);
        DG_CHECK(all_in(buf, n, DG_TPCC_ALNUM));
        seen_len[n]++;
        total += (double)n;
        for (size_t k = 0; k < n; k++)
            seen_char[(unsigned char)buf[k]]++;
    }
    for (int n = 14; n <= 24; n++)
        DG_CHECK(seen_len[n] > 0);
    DG_CHECK_NEAR(total / N, 19.0, 0.1); /* mean (x + y) / 2 */
    /* every one of the 62 characters appears, about equally often */
    int min = 1 << 30, max = 0, kinds = 0;
    for (int c = 0; c < 256; c++) {
        if (!seen_char[c])
            continue;
        kinds++;
        min = seen_char[c] < min ? seen_char[c] : min;
        max = seen_char[c] > max ? seen_char[c] : max;
    }
    DG_CHECK_INT(kinds, 62);
    DG_CHECK(max < min * 1.15); /* ~6,100 each: +-4 sigma is +-5% */
    /* fixed lengths and the long c_data range */
    DG_CHECK_INT(dg_tpcc_astring(&g, 24, 24, buf), 24);
    size_t n = dg_tpcc_astring(&g, 300, 500, buf);
    DG_CHECK(n >= 300 && n <= 500 && strlen(buf) == n);
}

static void test_nstring_zip_state(void)
{
    dg_prng g;
    dg_prng_seed(&g, 2);
    char buf[32];
    int digit_seen[10] = {0};
    for (int i = 0; i < 2000; i++) {
        size_t n = dg_tpcc_nstring(&g, 16, 16, buf);
        DG_CHECK_INT(n, 16);
        DG_CHECK(all_in(buf, n, "0123456789"));
        for (size_t k = 0; k < n; k++)
            digit_seen[buf[k] - '0']++;
        n = dg_tpcc_zip(&g, buf);
        DG_CHECK_INT(n, 9);
        DG_CHECK_INT(strlen(buf), 9);
        DG_CHECK(all_in(buf, 4, "0123456789"));
        DG_CHECK_STR(buf + 4, "11111");
        n = dg_tpcc_state(&g, buf);
        DG_CHECK_INT(n, 2);
        DG_CHECK(isupper((unsigned char)buf[0]) && isupper((unsigned char)buf[1]) && !buf[2]);
    }
    for (int d = 0; d < 10; d++)
        DG_CHECK(digit_seen[d] > 2800 && digit_seen[d] < 3600); /* 3200 expected */
    size_t n = dg_tpcc_nstring(&g, 3, 7, buf);
    DG_CHECK(n >= 3 && n <= 7);
}

static void test_data_original(void)
{
    dg_prng g;
    dg_prng_seed(&g, 3);
    char buf[51];
    int orig = 0, found = 0;
    const int N = 50000;
    for (int i = 0; i < N; i++) {
        bool o;
        size_t n = dg_tpcc_data(&g, 26, 50, buf, &o);
        DG_CHECK(n >= 26 && n <= 50 && strlen(buf) == n);
        orig += o;
        bool has = strstr(buf, "ORIGINAL") != NULL;
        found += has;
        if (o && !has)
            DG_CHECK(!"ORIGINAL flagged but missing");
    }
    /* 10% +- 4 sigma (sigma = 0.13%); a random a-string never contains ORIGINAL by itself */
    DG_CHECK_NEAR((double)orig / N, 0.10, 0.006);
    DG_CHECK_INT(found, orig);
}

static void test_last_names(void)
{
    char buf[DG_TPCC_LAST_MAX + 1];
    DG_CHECK_INT(dg_tpcc_last_name(371, buf), 13);
    DG_CHECK_STR(buf, "PRICALLYOUGHT");
    dg_tpcc_last_name(0, buf);
    DG_CHECK_STR(buf, "BARBARBAR");
    dg_tpcc_last_name(999, buf);
    DG_CHECK_STR(buf, "EINGEINGEING");
    dg_tpcc_last_name(40, buf);
    DG_CHECK_STR(buf, "BARPRESBAR");
    dg_tpcc_last_name(125, buf);
    DG_CHECK_STR(buf, "OUGHTABLEESE");
    dg_tpcc_last_name(678, buf);
    DG_CHECK_STR(buf, "ANTICALLYATION");
    size_t longest = 0;
    for (int i = 0; i < 1000; i++) {
        size_t n = dg_tpcc_last_name(i, buf);
        DG_CHECK_INT(strlen(buf), n);
        longest = n > longest ? n : longest;
    }
    DG_CHECK_INT(longest, DG_TPCC_LAST_MAX); /* OUGHT/CALLY/ATION: 5 letters each */
    dg_tpcc_last_name(1371, buf);           /* reduced modulo 1000 */
    DG_CHECK_STR(buf, "PRICALLYOUGHT");
}

static void test_c_run_rule(void)
{
    DG_CHECK(dg_tpcc_c_run_valid(100, 165));  /* delta 65 */
    DG_CHECK(!dg_tpcc_c_run_valid(100, 164)); /* 64 */
    DG_CHECK(dg_tpcc_c_run_valid(200, 81));   /* 119 */
    DG_CHECK(!dg_tpcc_c_run_valid(200, 80));  /* 120 */
    DG_CHECK(!dg_tpcc_c_run_valid(100, 196)); /* 96 */
    DG_CHECK(!dg_tpcc_c_run_valid(212, 100)); /* 112 */
    DG_CHECK(dg_tpcc_c_run_valid(157, 223));  /* benchbase's pair: 66 */
    DG_CHECK(!dg_tpcc_c_run_valid(5, 5));
    dg_prng g;
    dg_prng_seed(&g, 4);
    for (int load = 0; load <= 255; load++) {
        bool seen_below = false, seen_above = false;
        for (int k = 0; k < 200; k++) {
            int64_t c = dg_tpcc_c_run(&g, load);
            DG_CHECK(c >= 0 && c <= 255);
            if (!dg_tpcc_c_run_valid(load, c)) {
                DG_CHECK(!"invalid C_RUN drawn");
                break;
            }
            seen_below |= c < load;
            seen_above |= c > load;
        }
        /* both sides are used where both exist */
        if (load >= 65 && load + 65 <= 255)
            DG_CHECK(seen_below && seen_above);
    }
}

static void test_nurand_ranges(void)
{
    dg_prng g;
    dg_prng_seed(&g, 5);
    for (int i = 0; i < 100000; i++) {
        int64_t c = dg_nurand(&g, TPCC_A_C_ID, 1, 3000, 259);
        int64_t it = dg_nurand(&g, TPCC_A_OL_I_ID, 1, 100000, 7911);
        int64_t l = dg_nurand(&g, TPCC_A_C_LAST, 0, 999, 123);
        DG_CHECK(c >= 1 && c <= 3000);
        DG_CHECK(it >= 1 && it <= 100000);
        DG_CHECK(l >= 0 && l <= 999);
        if (dgt_fail)
            break;
    }
}

static void test_name_index(void)
{
    /* position ceil(n/2), 1-based, as a 0-based index */
    DG_CHECK_INT(dg_tpcc_name_index(1), 0);
    DG_CHECK_INT(dg_tpcc_name_index(2), 0);
    DG_CHECK_INT(dg_tpcc_name_index(3), 1);
    DG_CHECK_INT(dg_tpcc_name_index(4), 1);
    DG_CHECK_INT(dg_tpcc_name_index(5), 2);
    DG_CHECK_INT(dg_tpcc_name_index(10), 4);
    DG_CHECK_INT(dg_tpcc_name_index(11), 5);
}

static void test_scaled(void)
{
    int64_t x = 0;
    dg_value v = dg_vtext("123.45", 6);
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == 12345);
    v = dg_vtext("-0.5", 4);
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == -50);
    v = dg_vtext("0.12345", 7); /* rounded at the 5th decimal */
    DG_CHECK(dg_tpcc_scaled(&v, 4, &x) && x == 1235);
    v = dg_vtext("300000", 6);
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == 30000000);
    v = dg_vtext("1e2", 3);
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == 10000);
    v = dg_vtext("abc", 3);
    DG_CHECK(!dg_tpcc_scaled(&v, 2, &x));
    v = dg_vdouble(0.1 + 0.2); /* 0.30000000000000004 */
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == 30);
    v = dg_vdouble(-10.0);
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == -1000);
    v = dg_vint(7);
    DG_CHECK(dg_tpcc_scaled(&v, 4, &x) && x == 70000);
    v = dg_vnumeric(12345, 3); /* 12.345 -> 12.35 */
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == 1235);
    v = dg_vnumeric(-12345, 3);
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == -1235);
    v = dg_vnumeric(5, 0);
    DG_CHECK(dg_tpcc_scaled(&v, 2, &x) && x == 500);
    v = dg_vnull();
    DG_CHECK(!dg_tpcc_scaled(&v, 2, &x));
}

static void test_unit_rng(void)
{
    /* same (seed, table, w, d) -> same stream; any component changed -> another stream */
    dg_prng a, b;
    dg_tpcc_unit_rng(&a, 42, 5, 3, 7);
    dg_tpcc_unit_rng(&b, 42, 5, 3, 7);
    DG_CHECK(dg_prng_u64(&a) == dg_prng_u64(&b));
    uint64_t base;
    dg_tpcc_unit_rng(&a, 42, 5, 3, 7);
    base = dg_prng_u64(&a);
    dg_tpcc_unit_rng(&b, 43, 5, 3, 7);
    DG_CHECK(dg_prng_u64(&b) != base);
    dg_tpcc_unit_rng(&b, 42, 6, 3, 7);
    DG_CHECK(dg_prng_u64(&b) != base);
    dg_tpcc_unit_rng(&b, 42, 5, 4, 7);
    DG_CHECK(dg_prng_u64(&b) != base);
    dg_tpcc_unit_rng(&b, 42, 5, 3, 8);
    DG_CHECK(dg_prng_u64(&b) != base);
    /* load constants stay in their NURand ranges */
    for (uint64_t s = 0; s < 200; s++) {
        dg_tpcc_consts c;
        dg_tpcc_load_consts(s, &c);
        DG_CHECK(c.c_last_load >= 0 && c.c_last_load <= 255);
        DG_CHECK(c.c_id >= 0 && c.c_id <= 1023);
        DG_CHECK(c.c_ol_i_id >= 0 && c.c_ol_i_id <= 8191);
    }
}

int main(void)
{
    DG_RUN(test_astring);
    DG_RUN(test_nstring_zip_state);
    DG_RUN(test_data_original);
    DG_RUN(test_last_names);
    DG_RUN(test_c_run_rule);
    DG_RUN(test_nurand_ranges);
    DG_RUN(test_name_index);
    DG_RUN(test_scaled);
    DG_RUN(test_unit_rng);
    DG_TEST_END();
}
