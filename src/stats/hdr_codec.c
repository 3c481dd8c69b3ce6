/*
 * hdr_codec.c - HdrHistogram V2 compressed encoding of a dg_hist, base64 (see hdr_codec.h).
 * Written from the format's description; zlib does the deflating.
 */
#include "stats/hdr_codec.h"

#include "core/xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define V2_ENCODING_COOKIE 0x1c849313u    /* V2 encoding, word size 8 (0x10) */
#define V2_COMPRESSED_COOKIE 0x1c849314u  /* its compressed wrapping */
#define COOKIE_BASE(c) ((c) & ~0xf0u)     /* the word-size bits do not matter in V2 */
#define HEADER_LEN 40
#define SIGNIFICANT_DIGITS 3
#define MAX_VARINT 9                      /* LEB128 of 64 bits, HdrHistogram's 9-byte form */

/* What encoding and decoding reuse: zlib's streams (set up once, reset per histogram:
 * deflateInit alone allocates and clears about 270 KiB) and the byte buffers. */
struct dg_hdr_coder {
    z_stream def, inf;
    bool def_ready, inf_ready;
    unsigned char *raw, *z, *b64; /* varints; the compressed form; decoded base64 */
    size_t raw_cap, z_cap, b64_cap;
};

static void grow(unsigned char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    free(*buf);
    *buf = xmalloc(n);
    *cap = n;
}

dg_hdr_coder *dg_hdr_coder_new(void)
{
    return xcalloc(1, sizeof(dg_hdr_coder));
}

void dg_hdr_coder_free(dg_hdr_coder *c)
{
    if (!c)
        return;
    if (c->def_ready)
        deflateEnd(&c->def);
    if (c->inf_ready)
        inflateEnd(&c->inf);
    free(c->raw);
    free(c->z);
    free(c->b64);
    free(c);
}

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

/* each base64 digit's value plus one; 0 for any other byte (a constant table: no
 * initialisation to race on) */
static const unsigned char b64_values[256] = {
    ['A'] = 1, ['B'] = 2, ['C'] = 3, ['D'] = 4, ['E'] = 5, ['F'] = 6, ['G'] = 7, ['H'] = 8,
    ['I'] = 9, ['J'] = 10, ['K'] = 11, ['L'] = 12, ['M'] = 13, ['N'] = 14, ['O'] = 15,
    ['P'] = 16, ['Q'] = 17, ['R'] = 18, ['S'] = 19, ['T'] = 20, ['U'] = 21, ['V'] = 22,
    ['W'] = 23, ['X'] = 24, ['Y'] = 25, ['Z'] = 26, ['a'] = 27, ['b'] = 28, ['c'] = 29,
    ['d'] = 30, ['e'] = 31, ['f'] = 32, ['g'] = 33, ['h'] = 34, ['i'] = 35, ['j'] = 36,
    ['k'] = 37, ['l'] = 38, ['m'] = 39, ['n'] = 40, ['o'] = 41, ['p'] = 42, ['q'] = 43,
    ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47, ['v'] = 48, ['w'] = 49, ['x'] = 50,
    ['y'] = 51, ['z'] = 52, ['0'] = 53, ['1'] = 54, ['2'] = 55, ['3'] = 56, ['4'] = 57,
    ['5'] = 58, ['6'] = 59, ['7'] = 60, ['8'] = 61, ['9'] = 62, ['+'] = 63, ['/'] = 64,
};

/* Decodes s[0..len) into c->b64 (grown as needed); false when it is not padded base64. */
static bool b64_decode(dg_hdr_coder *c, const char *s, size_t len, size_t *n)
{
    if (len == 0 || len % 4)
        return false;
    grow(&c->b64, &c->b64_cap, len / 4 * 3);
    unsigned char *out = c->b64;
    size_t k = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            if (s[i + j] == '=' && i + 4 == len && j >= 2) {
                v[j] = 0;
                pad++;
            } else if (pad || (v[j] = b64_values[(unsigned char)s[i + j]] - 1) < 0) {
                return false;
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
    return true;
}

/* ---- encode ----------------------------------------------------------------------------- */

/* Deflates c->raw[0..n) into c->z after an 8-byte gap; the compressed length, or 0. */
static size_t deflate_raw(dg_hdr_coder *c, size_t n)
{
    if (!c->def_ready) {
        /* the fastest level: a histogram's varints compress within about 0.5 % of the
         * default level's size, at a fraction of its time */
        if (deflateInit(&c->def, Z_BEST_SPEED) != Z_OK)
            return 0;
        c->def_ready = true;
    } else if (deflateReset(&c->def) != Z_OK) {
        return 0;
    }
    size_t bound = deflateBound(&c->def, (uLong)n);
    grow(&c->z, &c->z_cap, 8 + bound);
    c->def.next_in = c->raw;
    c->def.avail_in = (uInt)n;
    c->def.next_out = c->z + 8;
    c->def.avail_out = (uInt)bound;
    if (deflate(&c->def, Z_FINISH) != Z_STREAM_END)
        return 0;
    return bound - c->def.avail_out;
}

int dg_hdr_encode(dg_hdr_coder *coder, const dg_hist *h, dg_strbuf *out)
{
    dg_hdr_coder *c = coder ? coder : dg_hdr_coder_new();
    int32_t limit = h->total ? h->hi_idx + 1 : 0;
    grow(&c->raw, &c->raw_cap, HEADER_LEN + (size_t)limit * MAX_VARINT);
    unsigned char *raw = c->raw;
    size_t n = HEADER_LEN;
    for (int32_t i = 0; i < limit;) {
        uint64_t cnt = h->counts[i++];
        if (cnt == 0) {
            int64_t zeros = 1;
            while (i < limit && h->counts[i] == 0) {
                zeros++;
                i++;
            }
            n += put_varint(raw + n, -zeros);
        } else {
            n += put_varint(raw + n, (int64_t)cnt);
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

    size_t zlen = deflate_raw(c, n);
    int rc = DG_E_NOMEM;
    if (zlen) {
        put32(c->z, V2_COMPRESSED_COOKIE);
        put32(c->z + 4, (uint32_t)zlen);
        b64_encode(c->z, 8 + zlen, out);
        rc = 0;
    }
    if (!coder)
        dg_hdr_coder_free(c);
    return rc;
}

/* ---- decode ----------------------------------------------------------------------------- */

static int bad(dg_err *err, const char *what)
{
    return dg_err_fail(err, DG_E_PARSE, "not a dbgauge histogram: %s", what);
}

/* Inflates z[0..zn) into c->raw; its length, or (size_t)-1 when the stream is not whole or
 * inflates past cap. */
static size_t inflate_raw(dg_hdr_coder *c, const unsigned char *z, size_t zn, size_t cap)
{
    if (!c->inf_ready) {
        if (inflateInit(&c->inf) != Z_OK)
            return (size_t)-1;
        c->inf_ready = true;
    } else if (inflateReset(&c->inf) != Z_OK) {
        return (size_t)-1;
    }
    grow(&c->raw, &c->raw_cap, cap);
    c->inf.next_in = (unsigned char *)z;
    c->inf.avail_in = (uInt)zn;
    c->inf.next_out = c->raw;
    c->inf.avail_out = (uInt)cap;
    if (inflate(&c->inf, Z_FINISH) != Z_STREAM_END)
        return (size_t)-1;
    return cap - c->inf.avail_out;
}

static int decode(dg_hdr_coder *c, const char *b64, size_t len, dg_hist *h, dg_err *err)
{
    size_t zn = 0;
    if (!b64_decode(c, b64, len, &zn))
        return bad(err, "not base64");
    const unsigned char *z = c->b64;
    if (zn < 8 || COOKIE_BASE(get32(z)) != COOKIE_BASE(V2_COMPRESSED_COOKIE))
        return bad(err, "not an HdrHistogram V2 compressed histogram (cookie)");
    uint32_t zlen = get32(z + 4);
    if (zlen > zn - 8)
        return bad(err, "its compressed length runs past the end");
    /* the largest a dbgauge histogram can inflate to: every bucket's count in 9 bytes */
    size_t rn = inflate_raw(c, z + 8, zlen, HEADER_LEN + (size_t)DG_HIST_LEN * MAX_VARINT);
    if (rn == (size_t)-1)
        return bad(err, "its zlib stream does not inflate (or inflates past the largest histogram)");
    const unsigned char *raw = c->raw;
    double ratio;
    uint64_t ratio_bits = rn >= HEADER_LEN ? get64(raw + 32) : 0;
    memcpy(&ratio, &ratio_bits, sizeof ratio);
    if (rn < HEADER_LEN || COOKIE_BASE(get32(raw)) != COOKIE_BASE(V2_ENCODING_COOKIE))
        return bad(err, "not an HdrHistogram V2 encoding (inner cookie)");
    uint32_t payload = get32(raw + 4);
    if (payload > rn - HEADER_LEN)
        return bad(err, "its payload length runs past the end");
    if (get32(raw + 8) != 0 || get32(raw + 12) != SIGNIFICANT_DIGITS || get64(raw + 16) != 1 ||
        get64(raw + 24) > (uint64_t)DG_HIST_MAX_NS || ratio != 1.0)
        return bad(err, "another layout (dbgauge's: 3 significant digits, unit 1 ns, highest "
                        "trackable value 2^42-1, no normalizing offset, ratio 1)");
    const unsigned char *p = raw + HEADER_LEN;
    size_t left = payload;
    int64_t idx = 0;
    while (left > 0) {
        int64_t v;
        size_t used = get_varint(p, left, &v);
        if (used == 0)
            return bad(err, "a count is cut short");
        p += used;
        left -= used;
        if (v < 0) { /* a run of empty buckets */
            if (v == INT64_MIN || idx - v > DG_HIST_LEN)
                return bad(err, "counts past the last bucket");
            idx -= v;
            continue;
        }
        if (idx >= DG_HIST_LEN)
            return bad(err, "counts past the last bucket");
        dg_hist_add_bucket(h, (int32_t)idx, (uint64_t)v);
        idx++;
    }
    return 0;
}

int dg_hdr_decode(dg_hdr_coder *coder, const char *b64, size_t len, dg_hist *h, dg_err *err)
{
    dg_hdr_coder *c = coder ? coder : dg_hdr_coder_new();
    int rc = decode(c, b64, len, h, err);
    if (!coder)
        dg_hdr_coder_free(c);
    return rc;
}
