/*
 * hdr_codec.c - HdrHistogram V2 compressed encoding of a dg_hist, base64 (see hdr_codec.h).
 * Written from the format's description; zlib does the deflating.
 */
#include "stats/hdr_codec.h"

#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define V2_ENCODING_COOKIE 0x1c849313u    /* V2 encoding, word size 8 (0x10) */
#define V2_COMPRESSED_COOKIE 0x1c849314u  /* its compressed wrapping */
#define COOKIE_BASE(c) ((c) & ~0xf0u)     /* the word-size bits do not matter in V2 */
#define HEADER_LEN 40
#define SIGNIFICANT_DIGITS 3
#define MAX_VARINT 9                      /* LEB128 of 64 bits, HdrHistogram's 9-byte form */

/* ---- big-endian fields ----------------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 3; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(const unsigned char *p)
{
    return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* ---- ZigZag LEB128: 7 bits a byte, low first; the 9th byte carries 8 ------------------- */

static size_t put_varint(unsigned char *p, int64_t signed_value)
{
    uint64_t v = ((uint64_t)signed_value << 1) ^ (uint64_t)(signed_value >> 63);
    size_t n = 0;
    while (n < 8 && v >> 7) {
        p[n++] = (unsigned char)((v & 0x7f) | 0x80);
        v >>= 7;
    }
    p[n++] = (unsigned char)v; /* the 9th byte holds the last 8 bits */
    return n;
}

/* Reads one varint from p[0..len); 0 bytes when it is cut short. */
static size_t get_varint(const unsigned char *p, size_t len, int64_t *out)
{
    uint64_t v = 0;
    size_t n = 0;
    for (;;) {
        if (n >= len)
            return 0;
        unsigned char b = p[n];
        if (n == 8) {
            v |= (uint64_t)b << 56;
            n++;
            break;
        }
        v |= (uint64_t)(b & 0x7f) << (7 * n);
        n++;
        if (!(b & 0x80))
            break;
    }
    *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
    return n;
}

/* ---- base64 (RFC 4648, with padding) ----------------------------------------------------- */

static const char b64chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_encode(const unsigned char *p, size_t n, dg_strbuf *out)
{
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        char q[4] = {b64chars[v >> 18 & 63], b64chars[v >> 12 & 63],
                     i + 1 < n ? b64chars[v >> 6 & 63] : '=', i + 2 < n ? b64chars[v & 63] : '='};
        dg_sb_addn(out, q, 4);
    }
}

static int b64_value(char c)
{
    const char *p = c ? strchr(b64chars, c) : NULL;
    return p ? (int)(p - b64chars) : -1;
}

/* Decodes s[0..len) into a new buffer; NULL when it is not padded base64. */
static unsigned char *b64_decode(const char *s, size_t len, size_t *n)
{
    if (len == 0 || len % 4)
        return NULL;
    unsigned char *out = xmalloc(len / 4 * 3);
    size_t k = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            if (s[i + j] == '=' && i + 4 == len && j >= 2) {
                v[j] = 0;
                pad++;
            } else if (pad || (v[j] = b64_value(s[i + j])) < 0) {
                free(out);
                return NULL;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        out[k++] = (unsigned char)(w >> 16);
        if (pad < 2)
            out[k++] = (unsigned char)(w >> 8);
        if (pad < 1)
            out[k++] = (unsigned char)w;
    }
    *n = k;
    return out;
}

/* ---- encode ----------------------------------------------------------------------------- */

int dg_hdr_encode(const dg_hist *h, dg_strbuf *out)
{
    int32_t limit = h->total ? h->hi_idx + 1 : 0;
    size_t cap = HEADER_LEN + (size_t)limit * MAX_VARINT;
    unsigned char *raw = xmalloc(cap);
    size_t n = HEADER_LEN;
    for (int32_t i = 0; i < limit;) {
        uint64_t c = h->counts[i++];
        if (c == 0) {
            int64_t zeros = 1;
            while (i < limit && h->counts[i] == 0) {
                zeros++;
                i++;
            }
            n += put_varint(raw + n, -zeros);
        } else {
            n += put_varint(raw + n, (int64_t)c);
        }
    }
    double ratio = 1.0;
    uint64_t ratio_bits;
    memcpy(&ratio_bits, &ratio, sizeof ratio_bits);
    put32(raw, V2_ENCODING_COOKIE);
    put32(raw + 4, (uint32_t)(n - HEADER_LEN));
    put32(raw + 8, 0);
    put32(raw + 12, SIGNIFICANT_DIGITS);
    put64(raw + 16, 1);
    put64(raw + 24, (uint64_t)DG_HIST_MAX_NS);
    put64(raw + 32, ratio_bits);

    uLongf zlen = compressBound((uLong)n);
    unsigned char *z = xmalloc(8 + zlen);
    int zrc = compress(z + 8, &zlen, raw, (uLong)n);
    free(raw);
    if (zrc != Z_OK) {
        free(z);
        return DG_E_NOMEM;
    }
    put32(z, V2_COMPRESSED_COOKIE);
    put32(z + 4, (uint32_t)zlen);
    b64_encode(z, 8 + zlen, out);
    free(z);
    return 0;
}

/* ---- decode ----------------------------------------------------------------------------- */

static int bad(dg_err *err, const char *what)
{
    return dg_err_fail(err, DG_E_PARSE, "not a dbgauge histogram: %s", what);
}

int dg_hdr_decode(const char *b64, size_t len, dg_hist *h, dg_err *err)
{
    size_t zn = 0;
    unsigned char *z = b64_decode(b64, len, &zn);
    if (!z)
        return bad(err, "not base64");
    int rc = 0;
    unsigned char *raw = NULL;
    if (zn < 8 || COOKIE_BASE(get32(z)) != COOKIE_BASE(V2_COMPRESSED_COOKIE)) {
        rc = bad(err, "not an HdrHistogram V2 compressed histogram (cookie)");
        goto out;
    }
    uint32_t zlen = get32(z + 4);
    if (zlen > zn - 8) {
        rc = bad(err, "its compressed length runs past the end");
        goto out;
    }
    /* the largest a dbgauge histogram can inflate to: every bucket's count in 9 bytes */
    uLongf cap = HEADER_LEN + (uLongf)DG_HIST_LEN * MAX_VARINT;
    raw = xmalloc(cap);
    uLongf rn = cap;
    if (uncompress(raw, &rn, z + 8, zlen) != Z_OK) {
        rc = bad(err, "its zlib stream does not inflate (or inflates past the largest histogram)");
        goto out;
    }
    double ratio;
    uint64_t ratio_bits = rn >= HEADER_LEN ? get64(raw + 32) : 0;
    memcpy(&ratio, &ratio_bits, sizeof ratio);
    if (rn < HEADER_LEN || COOKIE_BASE(get32(raw)) != COOKIE_BASE(V2_ENCODING_COOKIE)) {
        rc = bad(err, "not an HdrHistogram V2 encoding (inner cookie)");
        goto out;
    }
    uint32_t payload = get32(raw + 4);
    if (payload > rn - HEADER_LEN) {
        rc = bad(err, "its payload length runs past the end");
        goto out;
    }
    if (get32(raw + 8) != 0 || get32(raw + 12) != SIGNIFICANT_DIGITS || get64(raw + 16) != 1 ||
        get64(raw + 24) > (uint64_t)DG_HIST_MAX_NS || ratio != 1.0) {
        rc = bad(err, "another layout (dbgauge's: 3 significant digits, unit 1 ns, highest "
                      "trackable value 2^42-1, no normalizing offset, ratio 1)");
        goto out;
    }
    const unsigned char *p = raw + HEADER_LEN;
    size_t left = payload;
    int64_t idx = 0;
    while (left > 0) {
        int64_t v;
        size_t used = get_varint(p, left, &v);
        if (used == 0) {
            rc = bad(err, "a count is cut short");
            goto out;
        }
        p += used;
        left -= used;
        if (v < 0) { /* a run of empty buckets */
            if (v == INT64_MIN || idx - v > DG_HIST_LEN) {
                rc = bad(err, "counts past the last bucket");
                goto out;
            }
            idx -= v;
            continue;
        }
        if (idx >= DG_HIST_LEN) {
            rc = bad(err, "counts past the last bucket");
            goto out;
        }
        dg_hist_record_n(h, dg_hist_bucket_low((int32_t)idx), (uint64_t)v);
        idx++;
    }
out:
    free(raw);
    free(z);
    return rc;
}
