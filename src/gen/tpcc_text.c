/*
 * tpcc_text.c - TPC-C value generators (see tpcc_text.h).
 *
 * Characters come several at a time from one 64-bit draw: the draw is cut into slices
 * of the fewest bits that can index the alphabet (6 bits for 62 alphanumerics, 4 for 10
 * digits, 5 for 26 letters) and a slice that falls outside the alphabet is skipped. That
 * is exact rejection sampling, so every character is exactly uniform, and it yields about
 * ten characters per draw, which keeps generation far faster than any database load.
 * Lengths and positions use the exact dg_prng_range().
 */
#include "gen/tpcc_text.h"

#include <string.h>

static const char alnum[] = DG_TPCC_ALNUM;
static const char digits[] = "0123456789";
static const char upper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* Fills out[0..len) from alphabet `set` of n characters, n <= 2^bits. */
static void fill_from(dg_prng *st, const char *set, unsigned n, unsigned bits, char *out,
                      size_t len)
{
    const uint64_t mask = (UINT64_C(1) << bits) - 1;
    const unsigned per_draw = 64 / bits;
    size_t i = 0;
    while (i < len) {
        uint64_t r = dg_prng_u64(st);
        for (unsigned k = 0; k < per_draw && i < len; k++, r >>= bits) {
            unsigned v = (unsigned)(r & mask);
            if (v < n)
                out[i++] = set[v];
        }
    }
}

void dg_tpcc_fill_alnum(dg_prng *st, char *out, size_t len)
{
    fill_from(st, alnum, 62, 6, out, len);
}

size_t dg_tpcc_astring(dg_prng *st, int min_len, int max_len, char *out)
{
    size_t len = (size_t)dg_prng_range(st, min_len, max_len);
    fill_from(st, alnum, 62, 6, out, len);
    out[len] = '\0';
    return len;
}

size_t dg_tpcc_nstring(dg_prng *st, int min_len, int max_len, char *out)
{
    size_t len = (size_t)dg_prng_range(st, min_len, max_len);
    fill_from(st, digits, 10, 4, out, len);
    out[len] = '\0';
    return len;
}

size_t dg_tpcc_zip(dg_prng *st, char *out)
{
    fill_from(st, digits, 10, 4, out, 4);
    memcpy(out + 4, "11111", 6);
    return 9;
}

size_t dg_tpcc_state(dg_prng *st, char *out)
{
    fill_from(st, upper, 26, 5, out, 2);
    out[2] = '\0';
    return 2;
}

size_t dg_tpcc_data(dg_prng *st, int min_len, int max_len, char *out, bool *original)
{
    size_t len = dg_tpcc_astring(st, min_len, max_len, out);
    bool orig = dg_prng_range(st, 1, 10) == 1;
    if (orig) {
        size_t pos = (size_t)dg_prng_range(st, 0, (int64_t)len - 8);
        memcpy(out + pos, "ORIGINAL", 8);
    }
    if (original)
        *original = orig;
    return len;
}

size_t dg_tpcc_last_name(int num, char *out)
{
    static const char *const syl[10] = {"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                        "ESE", "ANTI",  "CALLY", "ATION", "EING"};
    static const unsigned char syl_len[10] = {3, 5, 4, 3, 4, 3, 4, 5, 5, 4};
    num %= 1000;
    if (num < 0)
        num += 1000;
    int d[3] = {num / 100, num / 10 % 10, num % 10};
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        memcpy(out + n, syl[d[i]], syl_len[d[i]]);
        n += syl_len[d[i]];
    }
    out[n] = '\0';
    return n;
}

bool dg_tpcc_c_run_valid(int64_t c_load, int64_t c_run)
{
    int64_t delta = c_run > c_load ? c_run - c_load : c_load - c_run;
    return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
}

int64_t dg_tpcc_c_run(dg_prng *st, int64_t c_load)
{
    /* Rejection: at least 50 of the 256 candidates are valid for any c_load in 0..255. */
    for (;;) {
        int64_t c = dg_prng_range(st, 0, 255);
        if (dg_tpcc_c_run_valid(c_load, c))
            return c;
    }
}
