/*
 * fbext.c - Firebird external-table records (see fbext.h for the layout): the column
 * plan, the SQL types of the CREATE TABLE, and one row's encoding.
 *
 * Layout: the plan; value conversions (numbers, text, dates); the row encoder.
 */
#include "backend/fbext.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_VARCHAR_BYTES 32765 /* Firebird's limit for a VARCHAR */

static size_t align_of(dg_fbx_kind k)
{
    switch (k) {
    case DG_FBX_INT64:
    case DG_FBX_DOUBLE:
    case DG_FBX_TIMESTAMP: /* two 4-byte words, but aligned like a 64-bit value */
        return 8;
    case DG_FBX_DATE:
    case DG_FBX_TIME:
        return 4;
    case DG_FBX_VARCHAR:
        return 2;
    default:
        return 1;
    }
}

static size_t size_of(const dg_fbx_col *c)
{
    switch (c->kind) {
    case DG_FBX_INT64:
    case DG_FBX_DOUBLE:
    case DG_FBX_TIMESTAMP:
        return 8;
    case DG_FBX_DATE:
    case DG_FBX_TIME:
        return 4;
    case DG_FBX_VARCHAR:
        return 2 + (size_t)c->bytes;
    default:
        return 1;
    }
}

/* ---- the plan ---------------------------------------------------------------------------- */

int dg_fbx_plan(dg_fbx_col *cols, int n, int *order, size_t *rec_bytes, dg_err *err)
{
    for (int i = 0; i < n; i++) {
        if (cols[i].kind == DG_FBX_UNSUPPORTED)
            return dg_err_fail(err, DG_E_INVAL, "column %s: no external-file form for its type",
                               cols[i].name);
        if (cols[i].kind == DG_FBX_VARCHAR && (cols[i].bytes < 1 || cols[i].bytes > MAX_VARCHAR_BYTES))
            return dg_err_fail(err, DG_E_INVAL, "column %s: %d bytes of text do not fit a VARCHAR",
                               cols[i].name, cols[i].bytes);
    }
    /* values by falling alignment (stable), so no offset depends on the NULL flags' size */
    int k = 0;
    for (size_t a = 8; a >= 1; a /= 2)
        for (int i = 0; i < n; i++)
            if (align_of(cols[i].kind) == a)
                order[k++] = i;
    size_t off = 0;
    for (int j = 0; j < n; j++) {
        dg_fbx_col *c = &cols[order[j]];
        size_t a = align_of(c->kind);
        off = (off + a - 1) / a * a;
        c->off = off;
        off += size_of(c);
        c->saw_null = false;
    }
    for (int j = 0; j < n; j++)
        cols[order[j]].null_off = off++;
    *rec_bytes = off;
    return 0;
}

void dg_fbx_sql_type(const dg_fbx_col *col, const char *charset, char *buf, size_t len)
{
    switch (col->kind) {
    case DG_FBX_INT64:
        if (col->scale > 0)
            snprintf(buf, len, "NUMERIC(18,%d)", col->scale);
        else
            snprintf(buf, len, "BIGINT");
        break;
    case DG_FBX_DOUBLE:
        snprintf(buf, len, "DOUBLE PRECISION");
        break;
    case DG_FBX_TIMESTAMP:
        snprintf(buf, len, "TIMESTAMP");
        break;
    case DG_FBX_DATE:
        snprintf(buf, len, "DATE");
        break;
    case DG_FBX_TIME:
        snprintf(buf, len, "TIME");
        break;
    case DG_FBX_VARCHAR:
        if (col->octets)
            snprintf(buf, len, "VARCHAR(%d) CHARACTER SET OCTETS", col->bytes);
        else
            snprintf(buf, len, "VARCHAR(%d) CHARACTER SET %s", col->chars, charset);
        break;
    default:
        snprintf(buf, len, "BOOLEAN");
        break;
    }
}

/* ---- value conversions ------------------------------------------------------------------- */


/* unscaled / 10^from to scale `to`, rounding half away from zero (Firebird's rule). */
static bool rescale(int64_t u, int from, int to, int64_t *out)
{
    if (from == to) {
        *out = u;
        return true;
    }
    if (from < to) {
        int d = to - from;
        if (d > 18)
            return u == 0 ? (*out = 0, true) : false;
        if (__builtin_mul_overflow(u, dg_pow10[d], out))
            return false;
        return true;
    }
    int d = from - to;
    if (d > 18) {
        *out = 0;
        return true;
    }
    int64_t p = dg_pow10[d], q = u / p, r = u % p;
    if (r >= 0 ? r * 2 >= p : -r * 2 >= p) /* |r| < p <= 10^18: doubling cannot overflow */
        q += u < 0 ? -1 : 1;
    *out = q;
    return true;
}

/* Decimal text "[+-]digits[.digits]" (spaces around allowed) into unscaled and scale
 * (at most 18 digits after the point; more is rounded away). */
static bool parse_decimal(const char *p, size_t n, int64_t *u, int *scale)
{
    size_t i = 0;
    while (i < n && p[i] == ' ')
        i++;
    while (n > i && p[n - 1] == ' ')
        n--;
    bool neg = false;
    if (i < n && (p[i] == '+' || p[i] == '-'))
        neg = p[i++] == '-';
    int64_t v = 0;
    int sc = 0, digits = 0;
    bool point = false, round_up = false, dropped = false;
    for (; i < n; i++) {
        if (p[i] == '.' && !point) {
            point = true;
            continue;
        }
        if (p[i] < '0' || p[i] > '9')
            return false;
        digits++;
        if (point && sc == 18) { /* beyond the finest scale: only the first dropped digit rounds */
            if (!dropped)
                round_up = p[i] >= '5';
            dropped = true;
            continue;
        }
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, p[i] - '0', &v))
            return false;
        if (point)
            sc++;
    }
    if (!digits)
        return false;
    if (round_up && __builtin_add_overflow(v, 1, &v))
        return false;
    *u = neg ? -v : v;
    *scale = sc;
    return true;
}

/* Days from 1858-11-17 (Firebird's ISC_DATE) of a proleptic Gregorian date. */
static int32_t day_number(int y, int m, int d)
{
    /* days from 1970-01-01 (Howard Hinnant's days_from_civil), then shifted */
    y -= m <= 2;
    int era = (y >= 0 ? y : y - 399) / 400;
    int yoe = y - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (int32_t)(era * 146097 + doe - 719468 + 40587);
}

static bool digits(const char *p, size_t n, size_t at, int count, int *out)
{
    if (at + (size_t)count > n)
        return false;
    int v = 0;
    for (int i = 0; i < count; i++) {
        char ch = p[at + (size_t)i];
        if (ch < '0' || ch > '9')
            return false;
        v = v * 10 + (ch - '0');
    }
    *out = v;
    return true;
}

/* "HH:MM:SS[.f]" at p[at..n) into 1/10000 s; the fraction rounds down past 4 digits. */
static bool parse_time(const char *p, size_t n, size_t at, uint32_t *out)
{
    int h, mi, s;
    if (!digits(p, n, at, 2, &h) || at + 2 >= n || p[at + 2] != ':' || !digits(p, n, at + 3, 2, &mi) ||
        at + 5 >= n || p[at + 5] != ':' || !digits(p, n, at + 6, 2, &s))
        return false;
    if (h > 23 || mi > 59 || s > 59)
        return false;
    size_t i = at + 8;
    uint32_t frac = 0;
    if (i < n && p[i] == '.') {
        int nd = 0;
        for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++, nd++)
            if (nd < 4)
                frac = frac * 10 + (uint32_t)(p[i] - '0');
        if (nd == 0)
            return false;
        for (; nd < 4; nd++)
            frac *= 10;
    }
    if (i != n)
        return false;
    *out = ((uint32_t)h * 3600 + (uint32_t)mi * 60 + (uint32_t)s) * 10000 + frac;
    return true;
}

bool dg_fbx_parse_timestamp(const char *p, size_t n, dg_fbx_kind kind, int32_t *date,
                            uint32_t *time)
{
    while (n > 0 && p[n - 1] == ' ')
        n--;
    while (n > 0 && *p == ' ')
        p++, n--;
    if (kind == DG_FBX_TIME) {
        *date = 0;
        return parse_time(p, n, 0, time);
    }
    int y, m, d;
    if (!digits(p, n, 0, 4, &y) || n < 10 || p[4] != '-' || !digits(p, n, 5, 2, &m) || p[7] != '-' ||
        !digits(p, n, 8, 2, &d))
        return false;
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] || (m == 2 && d == 29 && !leap))
        return false;
    *date = day_number(y, m, d);
    *time = 0;
    if (n == 10)
        return true;
    if (kind == DG_FBX_DATE || (p[10] != ' ' && p[10] != 'T'))
        return false;
    return parse_time(p, n, 11, time);
}

/* Well-formed UTF8 (no overlongs, no surrogates, at most U+10FFFF); *chars counts them. */
static bool utf8_chars(const unsigned char *p, size_t n, size_t *chars)
{
    size_t c = 0;
    for (size_t i = 0; i < n; c++) {
        unsigned char b = p[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t cp;
        if (b >= 0xc2 && b <= 0xdf)
            len = 2, cp = b & 0x1f;
        else if (b >= 0xe0 && b <= 0xef)
            len = 3, cp = b & 0x0f;
        else if (b >= 0xf0 && b <= 0xf4)
            len = 4, cp = b & 0x07;
        else
            return false;
        if (i + len > n)
            return false;
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3f);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
        i += len;
    }
    *chars = c;
    return true;
}

/* ---- the row encoder --------------------------------------------------------------------- */

static int refuse(dg_fbx_col *c, const dg_value *v, const char *sqlstate, const char *why, dg_err *err)
{
    char shown[48];
    dg_value_format(v, shown, sizeof shown);
    return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, sqlstate, "column %s: %s: '%s'", c->name, why,
                      shown);
}

static int put_int64(dg_fbx_col *c, const dg_value *v, unsigned char *at, dg_err *err)
{
    int64_t out;
    bool ok;
    switch (v->type) {
    case DG_V_INT:
        ok = rescale(v->u.i, 0, c->scale, &out);
        break;
    case DG_V_NUMERIC:
        ok = rescale(v->u.n.unscaled, v->u.n.scale, c->scale, &out);
        break;
    case DG_V_DOUBLE: {
        double d = v->u.d * (double)dg_pow10[c->scale];
        ok = isfinite(d) && fabs(d) < 9.2e18;
        out = ok ? llround(d) : 0;
        break;
    }
    default: { /* TEXT */
        int64_t u;
        int sc;
        double d;
        if (parse_decimal(v->u.s.ptr, v->u.s.len, &u, &sc)) {
            ok = rescale(u, sc, c->scale, &out);
        } else if (dg_value_as_double(v, &d)) { /* 1.5e3 */
            d *= (double)dg_pow10[c->scale];
            ok = isfinite(d) && fabs(d) < 9.2e18;
            out = ok ? llround(d) : 0;
        } else {
            return refuse(c, v, "22018", "not a number", err);
        }
        break;
    }
    }
    if (!ok)
        return refuse(c, v, "22003", "out of range", err);
    memcpy(at, &out, 8);
    return 0;
}

static int put_double(dg_fbx_col *c, const dg_value *v, unsigned char *at, dg_err *err)
{
    double d;
    if (!dg_value_as_double(v, &d)) /* integers, exact decimals, doubles, numeric text */
        return refuse(c, v, "22018", "not a number", err);
    memcpy(at, &d, 8);
    return 0;
}

static int put_text(dg_fbx_col *c, const dg_value *v, unsigned char *at, dg_err *err)
{
    char num[64];
    const char *p;
    size_t n;
    if (v->type == DG_V_TEXT) {
        p = v->u.s.ptr;
        n = v->u.s.len;
    } else {
        dg_value_format(v, num, sizeof num);
        p = num;
        n = strlen(num);
    }
    if (n > (size_t)c->bytes)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, "22001",
                          "column %s: string right truncation: %zu bytes, room for %d", c->name, n,
                          c->bytes);
    if (c->utf8) {
        size_t chars;
        if (!utf8_chars((const unsigned char *)p, n, &chars))
            return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, "22000",
                              "column %s: malformed UTF8 text", c->name);
        if (chars > (size_t)c->chars)
            return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, "22001",
                              "column %s: string right truncation: %zu characters, room for %d",
                              c->name, chars, c->chars);
    }
    uint16_t len = (uint16_t)n;
    memcpy(at, &len, 2);
    memcpy(at + 2, p, n);
    return 0;
}

static int put_when(dg_fbx_col *c, const dg_value *v, unsigned char *at, dg_err *err)
{
    if (v->type != DG_V_TEXT)
        return refuse(c, v, "22018", "not a date or time", err);
    int32_t date;
    uint32_t time;
    if (!dg_fbx_parse_timestamp(v->u.s.ptr, v->u.s.len, c->kind, &date, &time))
        return refuse(c, v, "22018",
                      c->kind == DG_FBX_TIME   ? "not a time (HH:MM:SS[.ffff])"
                      : c->kind == DG_FBX_DATE ? "not a date (YYYY-MM-DD)"
                                               : "not a timestamp (YYYY-MM-DD[ HH:MM:SS[.ffff]])",
                      err);
    if (c->kind == DG_FBX_TIMESTAMP) {
        memcpy(at, &date, 4);
        memcpy(at + 4, &time, 4);
    } else if (c->kind == DG_FBX_DATE) {
        memcpy(at, &date, 4);
    } else {
        memcpy(at, &time, 4);
    }
    return 0;
}

static int put_bool(dg_fbx_col *c, const dg_value *v, unsigned char *at, dg_err *err)
{
    int64_t i;
    if (v->type == DG_V_TEXT) {
        const char *p = v->u.s.ptr;
        size_t n = v->u.s.len;
        if ((n == 4 && !strncasecmp(p, "true", 4)) || (n == 1 && (*p == '1' || *p == 't' || *p == 'T')))
            i = 1;
        else if ((n == 5 && !strncasecmp(p, "false", 5)) || (n == 1 && (*p == '0' || *p == 'f' || *p == 'F')))
            i = 0;
        else
            return refuse(c, v, "22018", "not a boolean", err);
    } else if (!dg_value_as_int(v, &i)) {
        return refuse(c, v, "22018", "not a boolean", err);
    }
    *at = i != 0;
    return 0;
}

int dg_fbx_encode(dg_fbx_col *cols, int n, const dg_value *vals, unsigned char *rec,
                  size_t rec_bytes, dg_err *err)
{
    memset(rec, 0, rec_bytes);
    for (int i = 0; i < n; i++) {
        dg_fbx_col *c = &cols[i];
        const dg_value *v = &vals[i];
        unsigned char *at = rec + c->off;
        int rc = 0;
        if (v->type == DG_V_NULL) {
            rec[c->null_off] = 1;
            c->saw_null = true;
            continue;
        }
        switch (c->kind) {
        case DG_FBX_INT64:
            rc = put_int64(c, v, at, err);
            break;
        case DG_FBX_DOUBLE:
            rc = put_double(c, v, at, err);
            break;
        case DG_FBX_VARCHAR:
            rc = put_text(c, v, at, err);
            break;
        case DG_FBX_TIMESTAMP:
        case DG_FBX_DATE:
        case DG_FBX_TIME:
            rc = put_when(c, v, at, err);
            break;
        case DG_FBX_BOOL:
            rc = put_bool(c, v, at, err);
            break;
        default:
            rc = dg_err_fail(err, DG_E_INVAL, "column %s: no external-file form", c->name);
            break;
        }
        if (rc)
            return rc;
    }
    return 0;
}
