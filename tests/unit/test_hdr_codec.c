/*
 * test_hdr_codec.c - unit tests of stats/hdr_codec.c: a histogram through HdrHistogram's V2
 * compressed encoding and back.
 *
 * Layout: round trips (every bucket's count exact, over random spreads, extremes and
 * counts that need every varint length), a string HdrHistogram's C library encoded (so the
 * decoder reads the reference implementation's output, not only its own), and inputs that
 * must be refused with a message: not base64, another cookie, a cut stream, another
 * layout, counts past the last bucket.
 */
#include "core/prng.h"
#include "stats/hdr_codec.h"

#include "dgtest.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Every bucket of a and b holds the same count. */
static bool same_counts(const dg_hist *a, const dg_hist *b)
{
    if (a->total != b->total)
        return false;
    for (int32_t i = 0; i < DG_HIST_LEN; i++)
        if (a->counts[i] != b->counts[i])
            return false;
    return true;
}

static int round_trip(const dg_hist *h, dg_hist *back, dg_strbuf *sb)
{
    dg_sb_reset(sb);
    DG_CHECK_INT(dg_hdr_encode(NULL, h, sb), 0);
    dg_hist_reset(back);
    dg_err err = DG_ERR_INIT;
    int rc = dg_hdr_decode(NULL, dg_sb_str(sb), sb->len, back, &err);
    if (rc)
        fprintf(stderr, "decode: %s\n", err.msg);
    return rc;
}

static void test_round_trip(void)
{
    dg_hist h, back;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    DG_CHECK_INT(dg_hist_init(&back), 0);
    dg_strbuf sb = DG_STRBUF_INIT;

    DG_CHECK_INT(round_trip(&h, &back, &sb), 0); /* empty */
    DG_CHECK_INT(back.total, 0);

    dg_prng g;
    dg_prng_seed(&g, 7);
    for (int round = 0; round < 20; round++) {
        dg_hist_reset(&h);
        int n = 1 + (int)dg_prng_range(&g, 0, 50000);
        int bits = 1 + (int)dg_prng_range(&g, 0, 41); /* spreads from a few ns to an hour */
        for (int i = 0; i < n; i++)
            dg_hist_record(&h, (int64_t)(dg_prng_u64(&g) >> (64 - bits)));
        DG_CHECK_INT(round_trip(&h, &back, &sb), 0);
        DG_CHECK(same_counts(&h, &back));
        DG_CHECK_INT(dg_hist_percentile(&back, 99) , dg_hist_percentile(&h, 99));
    }

    /* the extremes, and counts that need every varint length up to the 9-byte form */
    dg_hist_reset(&h);
    dg_hist_record(&h, 0);
    dg_hist_record(&h, DG_HIST_MAX_NS);
    for (int k = 0; k < 63; k += 7)
        dg_hist_record_n(&h, 1000 + k, (UINT64_C(1) << k) + 3);
    dg_hist_record_n(&h, 5000, UINT64_C(1) << 62);
    DG_CHECK_INT(round_trip(&h, &back, &sb), 0);
    DG_CHECK(same_counts(&h, &back));
    DG_CHECK_INT(back.max_ns, dg_hist_bucket_low(dg_hist_index(DG_HIST_MAX_NS)));
    DG_CHECK_INT(back.min_ns, 0);
    DG_CHECK(strncmp(dg_sb_str(&sb), "HISTF", 5) == 0); /* how every V2 compressed one begins */

    dg_sb_free(&sb);
    dg_hist_destroy(&h);
    dg_hist_destroy(&back);
}

/* Encoded by HdrHistogram_c 0.11.10 (hdr_init(1, 2^42-1, 3); hdr_record_values of 1 x1,
 * 2 x2, 2047 x3, 2048 x4, 2049 x5, 1000000 x6, 123456789 x7, 2^42-1 x8, 5000 x2^40;
 * hdr_log_encode). */
static const char reference[] =
    "HISTFAAAADV4nJNpmSzMwMAgyQABzFCaEcj8DwL2H6ACTCzf5dmEDgo3gIDD7yqej3l8Rz8xCgAAni8REA==";

static void test_reference(void)
{
    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    dg_err err = DG_ERR_INIT;
    DG_CHECK_INT(dg_hdr_decode(NULL, reference, strlen(reference), &h, &err), 0);
    DG_CHECK_INT(h.total, 36 + (UINT64_C(1) << 40));
    DG_CHECK_INT(h.counts[dg_hist_index(1)], 1);
    DG_CHECK_INT(h.counts[dg_hist_index(2)], 2);
    DG_CHECK_INT(h.counts[dg_hist_index(2047)], 3);
    DG_CHECK_INT(h.counts[dg_hist_index(2048)], 9); /* 2048 and 2049 share a 2-ns bucket */
    DG_CHECK_INT(h.counts[dg_hist_index(1000000)], 6);
    DG_CHECK_INT(h.counts[dg_hist_index(123456789)], 7);
    DG_CHECK_INT(h.counts[dg_hist_index(DG_HIST_MAX_NS)], 8);
    DG_CHECK_INT(h.counts[dg_hist_index(5000)], UINT64_C(1) << 40);
    dg_hist_destroy(&h);
}

/* base64 of bytes[0..n) */
static char *b64(const unsigned char *bytes, size_t n)
{
    static const char c[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = calloc(1, (n + 2) / 3 * 4 + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)bytes[i] << 16 | (i + 1 < n ? (uint32_t)bytes[i + 1] << 8 : 0) |
                     (i + 2 < n ? bytes[i + 2] : 0);
        out[k++] = c[v >> 18 & 63];
        out[k++] = c[v >> 12 & 63];
        out[k++] = i + 1 < n ? c[v >> 6 & 63] : '=';
        out[k++] = i + 2 < n ? c[v & 63] : '=';
    }
    return out;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* A V2 compressed histogram around a made-up inner encoding (header fields as given, then
 * payload), for the refusals of the layout checks. */
static char *wrap(uint32_t digits, uint64_t lowest, uint64_t highest, const unsigned char *payload,
                  size_t plen)
{
    unsigned char raw[256] = {0};
    put32(raw, 0x1c849313u);
    put32(raw + 4, (uint32_t)plen);
    put32(raw + 12, digits);
    put32(raw + 16, (uint32_t)(lowest >> 32));
    put32(raw + 20, (uint32_t)lowest);
    put32(raw + 24, (uint32_t)(highest >> 32));
    put32(raw + 28, (uint32_t)highest);
    raw[32] = 0x3f; /* 1.0 */
    raw[33] = 0xf0;
    memcpy(raw + 40, payload, plen);
    unsigned char z[512];
    uLongf zl = sizeof z - 8;
    compress(z + 8, &zl, raw, 40 + plen);
    put32(z, 0x1c849314u);
    put32(z + 4, (uint32_t)zl);
    return b64(z, 8 + zl);
}

static void refused(const char *s, const char *want)
{
    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    dg_err err = DG_ERR_INIT;
    DG_CHECK_INT(dg_hdr_decode(NULL, s, strlen(s), &h, &err), DG_E_PARSE);
    if (!strstr(err.msg, want))
        fprintf(stderr, "for '%.40s': '%s' lacks '%s'\n", s, err.msg, want);
    DG_CHECK(strstr(err.msg, want) != NULL);
    dg_hist_destroy(&h);
}

static void test_refused(void)
{
    refused("", "not base64");
    refused("HISTFAAAADV4nJ", "not base64");
    refused("HIST*AAA", "not base64");
    refused("AAAAAAAA", "cookie");
    char cut[sizeof reference];
    memcpy(cut, reference, sizeof reference);
    memcpy(cut + 40, "AAAA", 4); /* the zlib stream damaged */
    refused(cut, "does not inflate");
    memcpy(cut, reference, 16); /* cut short: only the length says more */
    strcpy(cut + 16, "AAAA");
    refused(cut, "runs past the end");
    unsigned char one[] = {2}; /* one bucket holding 1 */
    char *s = wrap(2, 1, (UINT64_C(1) << 42) - 1, one, 1);
    refused(s, "another layout");
    free(s);
    s = wrap(3, 1000, (UINT64_C(1) << 42) - 1, one, 1);
    refused(s, "another layout");
    free(s);
    s = wrap(3, 1, UINT64_C(1) << 50, one, 1);
    refused(s, "another layout");
    free(s);
    unsigned char far[] = {0xff, 0xff, 0x0f, 2}; /* a zero run of 2^20 buckets, then a count */
    s = wrap(3, 1, (UINT64_C(1) << 42) - 1, far, sizeof far);
    refused(s, "past the last bucket");
    free(s);
    unsigned char cutv[] = {0x80}; /* a varint that says more bytes follow */
    s = wrap(3, 1, (UINT64_C(1) << 42) - 1, cutv, sizeof cutv);
    refused(s, "cut short");
    free(s);
    s = wrap(3, 1, (UINT64_C(1) << 42) - 1, one, 1); /* and the same, well formed, is read */
    dg_hist h;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    dg_err err = DG_ERR_INIT;
    DG_CHECK_INT(dg_hdr_decode(NULL, s, strlen(s), &h, &err), 0);
    DG_CHECK_INT(h.total, 1);
    DG_CHECK_INT(h.counts[0], 1);
    dg_hist_destroy(&h);
    free(s);
}

/* One coder reused (as merge does, across thousands of histograms, a damaged one among
 * them) encodes exactly what a one-off does and decodes every bucket back. */
static void test_coder_reused(void)
{
    dg_hist h, back;
    DG_CHECK_INT(dg_hist_init(&h), 0);
    DG_CHECK_INT(dg_hist_init(&back), 0);
    dg_strbuf once = DG_STRBUF_INIT, reused = DG_STRBUF_INIT;
    dg_hdr_coder *c = dg_hdr_coder_new();
    dg_prng g;
    dg_prng_seed(&g, 11);
    for (int round = 0; round < 200; round++) {
        dg_hist_reset(&h);
        int n = (int)dg_prng_range(&g, 0, 3000); /* an empty one now and then */
        int bits = 1 + (int)dg_prng_range(&g, 0, 41);
        for (int i = 0; i < n; i++)
            dg_hist_record(&h, (int64_t)(dg_prng_u64(&g) >> (64 - bits)));
        dg_sb_reset(&once);
        dg_sb_reset(&reused);
        DG_CHECK_INT(dg_hdr_encode(NULL, &h, &once), 0);
        DG_CHECK_INT(dg_hdr_encode(c, &h, &reused), 0);
        DG_CHECK(strcmp(dg_sb_str(&once), dg_sb_str(&reused)) == 0);
        dg_hist_reset(&back);
        dg_err err = DG_ERR_INIT;
        DG_CHECK_INT(dg_hdr_decode(c, dg_sb_str(&reused), reused.len, &back, &err), 0);
        DG_CHECK(same_counts(&h, &back));
        if (round % 50 == 7) { /* a damaged stream leaves the coder fit for the next */
            char *d = malloc(reused.len + 1);
            memcpy(d, dg_sb_str(&reused), reused.len + 1);
            memcpy(d + 16, "AAAAAAAA", 8);
            DG_CHECK_INT(dg_hdr_decode(c, d, strlen(d), &back, &err), DG_E_PARSE);
            free(d);
        }
    }
    dg_hdr_coder_free(c);
    dg_hdr_coder_free(NULL);
    dg_sb_free(&once);
    dg_sb_free(&reused);
    dg_hist_destroy(&h);
    dg_hist_destroy(&back);
}

/* Decoding adds each bucket at its low value: the same as recording that value. */
static void test_add_bucket(void)
{
    dg_hist a, b;
    DG_CHECK_INT(dg_hist_init(&a), 0);
    DG_CHECK_INT(dg_hist_init(&b), 0);
    for (int32_t i = 0; i < DG_HIST_LEN; i += 1 + i / 64) {
        dg_hist_add_bucket(&a, i, 3);
        dg_hist_record_n(&b, dg_hist_bucket_low(i), 3);
        DG_CHECK_INT(dg_hist_index(dg_hist_bucket_low(i)), i);
    }
    dg_hist_add_bucket(&a, DG_HIST_LEN - 1, 1);
    dg_hist_record_n(&b, dg_hist_bucket_low(DG_HIST_LEN - 1), 1);
    DG_CHECK(same_counts(&a, &b));
    DG_CHECK_INT(a.total, b.total);
    DG_CHECK_INT(a.sum_ns, b.sum_ns);
    DG_CHECK_INT(a.min_ns, b.min_ns);
    DG_CHECK_INT(a.max_ns, b.max_ns);
    DG_CHECK_INT(a.lo_idx, b.lo_idx);
    DG_CHECK_INT(a.hi_idx, b.hi_idx);
    dg_hist_destroy(&a);
    dg_hist_destroy(&b);
}

int main(void)
{
    DG_RUN(test_round_trip);
    DG_RUN(test_reference);
    DG_RUN(test_refused);
    DG_RUN(test_coder_reused);
    DG_RUN(test_add_bucket);
    DG_TEST_END();
}
