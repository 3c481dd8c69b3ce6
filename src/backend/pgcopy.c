/* pgcopy.c - PostgreSQL binary COPY fields (see pgcopy.h). */
#include "backend/pgcopy.h"

#include "core/clock.h"

#include <ctype.h>
#include <strings.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char dg_pgcopy_header[DG_PGCOPY_HEADER_LEN] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', '\377', '\r',
                                                     '\n', '\0', 0, 0, 0, 0, 0, 0, 0, 0};
const char dg_pgcopy_trailer[DG_PGCOPY_TRAILER_LEN] = {'\377', '\377'};

/* Type OIDs of pg_type.dat (stable across versions). */
enum {
    OID_BOOL = 16,
    OID_INT8 = 20,
    OID_INT2 = 21,
    OID_INT4 = 23,
    OID_TEXT = 25,
    OID_FLOAT4 = 700,
    OID_FLOAT8 = 701,
    OID_BPCHAR = 1042,
    OID_VARCHAR = 1043,
    OID_DATE = 1082,
    OID_TIMESTAMP = 1114,
    OID_NUMERIC = 1700,
};

/* numeric: base-10000 digits; a value has at most this many decimal digits here */
#define NUM_MAX_DIGITS 1000
#define NUM_POS 0x0000
#define NUM_NEG 0x4000

/* 2000-01-01, PostgreSQL's date and timestamp origin, in days after 1970-01-01 */
#define PG_EPOCH_DAYS 10957
#define USECS_PER_DAY INT64_C(86400000000)

dg_pgcopy_kind dg_pgcopy_kind_of(unsigned oid)
{
    switch (oid) {
    case OID_BOOL: return DG_PGC_BOOL;
    case OID_INT2: return DG_PGC_INT2;
    case OID_INT4: return DG_PGC_INT4;
    case OID_INT8: return DG_PGC_INT8;
    case OID_FLOAT4: return DG_PGC_FLOAT4;
    case OID_FLOAT8: return DG_PGC_FLOAT8;
    case OID_NUMERIC: return DG_PGC_NUMERIC;
    case OID_TEXT:
    case OID_VARCHAR:
    case OID_BPCHAR: return DG_PGC_TEXT;
    case OID_DATE: return DG_PGC_DATE;
    case OID_TIMESTAMP: return DG_PGC_TIMESTAMP;
    default: return DG_PGC_UNSUPPORTED;
    }
}

size_t dg_pgcopy_field_max(const dg_value *v)
{
    /* numbers as text, numerics of up to NUM_MAX_DIGITS digits, and raw text */
    return 4 + 8 + 2 * (NUM_MAX_DIGITS / 4 + 4) + 64 + (v->type == DG_V_TEXT ? v->u.s.len : 0);
}

/* ---- big-endian writers ------------------------------------------------------------------- */

static char *put16(char *o, uint16_t v)
{
    o[0] = (char)(v >> 8);
    o[1] = (char)v;
    return o + 2;
}

static char *put32(char *o, uint32_t v)
{
    o[0] = (char)(v >> 24);
    o[1] = (char)(v >> 16);
    o[2] = (char)(v >> 8);
    o[3] = (char)v;
    return o + 4;
}

static char *put64(char *o, uint64_t v)
{
    put32(o, (uint32_t)(v >> 32));
    return put32(o + 4, (uint32_t)v);
}

/* ---- reasons ------------------------------------------------------------------------------- */

static const char *kind_name(dg_pgcopy_kind k)
{
    static const char *const names[] = {"unsupported type", "boolean", "smallint", "integer",
                                        "bigint", "real", "double precision", "numeric",
                                        "text", "date", "timestamp"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static size_t refuse(dg_pgcopy_kind k, const dg_value *v, char *why, size_t whylen)
{
    char shown[48];
    switch (v->type) {
    case DG_V_TEXT: {
        size_t n = v->u.s.len < 40 ? v->u.s.len : 40;
        snprintf(shown, sizeof shown, "'%.*s%s'", (int)n, v->u.s.ptr, n < v->u.s.len ? "..." : "");
        break;
    }
    default:
        dg_value_format(v, shown, sizeof shown);
    }
    snprintf(why, whylen, "%s is not a value of type %s", shown, kind_name(k));
    return 0;
}

/* ---- text helpers ------------------------------------------------------------------------- */

/* The text of v without leading and trailing blanks. */
static void trimmed(const dg_value *v, const char **p, size_t *n)
{
    const char *s = v->u.s.ptr, *e = s + v->u.s.len;
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    *p = s;
    *n = (size_t)(e - s);
}

bool dg_pgcopy_parse_int(const char *p, size_t n, int64_t *out)
{
    const char *e = p + n;
    bool neg = p < e && *p == '-';
    if (p < e && (*p == '-' || *p == '+'))
        p++;
    if (p == e)
        return false;
    uint64_t u = 0;
    for (; p < e; p++) {
        if (*p < '0' || *p > '9' || u > (UINT64_MAX - 9) / 10)
            return false;
        u = u * 10 + (uint64_t)(*p - '0');
    }
    if (u > (uint64_t)INT64_MAX + neg)
        return false;
    *out = neg ? (int64_t)(0 - u) : (int64_t)u;
    return true;
}

static bool text_int(const dg_value *v, int64_t *out)
{
    const char *p;
    size_t n;
    trimmed(v, &p, &n);
    return dg_pgcopy_parse_int(p, n, out);
}

/* strtod over a bounded copy of text, which must be consumed whole */
static bool text_double(const char *p, size_t n, double *out)
{
    char buf[128];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end == buf + n;
}

/* ---- numeric ------------------------------------------------------------------------------- */

/* The field of the number (-1)^neg * d[0..n) * 10^-scale, d decimal digits, scale >= 0. */
static size_t numeric_field(bool neg, const char *d, int n, int scale, char *out)
{
    while (n > 0 && *d == '0') {
        d++;
        n--;
    }
    int intlen = n - scale; /* digits before the point; <= 0: none */
    int i4 = intlen > 0 ? (intlen + 3) / 4 * 4 : 0;
    int f4 = (scale + 3) / 4 * 4;
    int ngroups = (i4 + f4) / 4, first = 0, weight = i4 / 4 - 1;
    uint16_t groups[NUM_MAX_DIGITS / 4 + 4];
    for (int g = 0; g < ngroups; g++) {
        unsigned val = 0;
        for (int j = g * 4; j < g * 4 + 4; j++) {
            int e = i4 - 1 - j;           /* the power of ten of position j */
            int idx = n - 1 - (e + scale); /* d[n - 1] is the 10^-scale place */
            val = val * 10 + (idx >= 0 && idx < n ? (unsigned)(d[idx] - '0') : 0);
        }
        groups[g] = (uint16_t)val;
    }
    while (first < ngroups && groups[first] == 0) {
        first++;
        weight--;
    }
    while (ngroups > first && groups[ngroups - 1] == 0)
        ngroups--;
    int nd = ngroups - first;
    if (nd == 0) {
        weight = 0;
        neg = false;
    }
    char *o = put32(out, (uint32_t)(8 + 2 * nd));
    o = put16(o, (uint16_t)nd);
    o = put16(o, (uint16_t)(int16_t)weight);
    o = put16(o, neg ? NUM_NEG : NUM_POS);
    o = put16(o, (uint16_t)scale);
    for (int g = first; g < ngroups; g++)
        o = put16(o, groups[g]);
    return (size_t)(o - out);
}

/* A decimal number in text: [+-]digits[.digits][e[+-]digits], blanks around. */
static bool numeric_text(const char *p, size_t len, char *out, size_t *outlen)
{
    const char *e = p + len;
    bool neg = p < e && *p == '-';
    if (p < e && (*p == '-' || *p == '+'))
        p++;
    char digits[NUM_MAX_DIGITS];
    int n = 0, scale = 0, seen = 0;
    bool point = false;
    for (; p < e; p++) {
        if (*p >= '0' && *p <= '9') {
            seen++;
            if (n == 0 && *p == '0' && !point)
                continue; /* leading zeros of the integer part */
            if (n == NUM_MAX_DIGITS)
                return false;
            digits[n++] = *p;
            if (point)
                scale++;
        } else if (*p == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (!seen)
        return false;
    if (p < e && (*p == 'e' || *p == 'E')) {
        int64_t x;
        dg_value xv = dg_vtext(p + 1, (size_t)(e - p - 1));
        if (!text_int(&xv, &x) || x > NUM_MAX_DIGITS || x < -NUM_MAX_DIGITS)
            return false;
        scale -= (int)x;
        p = e;
    }
    if (p != e)
        return false;
    while (scale < 0) { /* 12e3: 12000 */
        if (n == NUM_MAX_DIGITS)
            return false;
        if (n > 0)
            digits[n++] = '0';
        scale++;
    }
    if (scale > NUM_MAX_DIGITS)
        return false;
    *outlen = numeric_field(neg, digits, n, scale, out);
    return true;
}

static size_t numeric_int(int64_t unscaled, int scale, char *out)
{
    char d[24];
    uint64_t u = unscaled < 0 ? (uint64_t)0 - (uint64_t)unscaled : (uint64_t)unscaled;
    int n = 0;
    char tmp[24];
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    for (int i = 0; i < n; i++)
        d[i] = tmp[n - 1 - i];
    return numeric_field(unscaled < 0, d, n, scale, out);
}

/* ---- dates --------------------------------------------------------------------------------- */


static int days_in_month(int y, int m)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : mdays[m - 1];
}

/* n digits at *p into *v; advances p */
static bool fixed_digits(const char **p, const char *e, int n, int *v)
{
    if (e - *p < n)
        return false;
    *v = 0;
    for (int i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c < '0' || c > '9')
            return false;
        *v = *v * 10 + (c - '0');
    }
    *p += n;
    return true;
}

/* YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]] -> microseconds since 2000-01-01 (date_only: the
 * date part alone is allowed, and the result is in days). */
static bool parse_stamp(const char *p, size_t len, bool date_only, int64_t *out)
{
    const char *e = p + len;
    int y, mo, d, h = 0, mi = 0, s = 0;
    if (!fixed_digits(&p, e, 4, &y) || p == e || *p++ != '-' || !fixed_digits(&p, e, 2, &mo) ||
        p == e || *p++ != '-' || !fixed_digits(&p, e, 2, &d))
        return false;
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
        return false;
    int64_t days = dg_days_from_civil(y, mo, d) - PG_EPOCH_DAYS;
    if (date_only) {
        *out = days;
        return p == e;
    }
    int64_t usec = 0;
    if (p < e) {
        if (*p != ' ' && *p != 'T')
            return false;
        p++;
        if (!fixed_digits(&p, e, 2, &h) || p == e || *p++ != ':' || !fixed_digits(&p, e, 2, &mi))
            return false;
        if (p < e && *p == ':') {
            p++;
            if (!fixed_digits(&p, e, 2, &s))
                return false;
            if (p < e && *p == '.') {
                p++;
                int k = 0;
                for (; p < e && *p >= '0' && *p <= '9'; p++, k++) {
                    if (k < 6)
                        usec = usec * 10 + (*p - '0');
                    else if (k == 6 && *p >= '5')
                        usec++; /* rounded to the microsecond, as the server does */
                }
                if (k == 0)
                    return false;
                for (; k < 6; k++)
                    usec *= 10;
            }
        }
        if (p != e || h > 23 || mi > 59 || s > 59)
            return false;
    }
    *out = days * USECS_PER_DAY + ((int64_t)h * 3600 + mi * 60 + s) * 1000000 + usec;
    return true;
}

/* ---- fields -------------------------------------------------------------------------------- */

static size_t int_field(dg_pgcopy_kind k, int64_t x, char *out)
{
    switch (k) {
    case DG_PGC_INT2:
        if (x < INT16_MIN || x > INT16_MAX)
            return 0;
        put32(out, 2);
        put16(out + 4, (uint16_t)(int16_t)x);
        return 6;
    case DG_PGC_INT4:
        if (x < INT32_MIN || x > INT32_MAX)
            return 0;
        put32(out, 4);
        put32(out + 4, (uint32_t)(int32_t)x);
        return 8;
    default:
        put32(out, 8);
        put64(out + 4, (uint64_t)x);
        return 12;
    }
}

static size_t float_field(dg_pgcopy_kind k, double x, char *out)
{
    if (k == DG_PGC_FLOAT4) {
        float f = (float)x;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        put32(out, 4);
        put32(out + 4, u);
        return 8;
    }
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    put32(out, 8);
    put64(out + 4, u);
    return 12;
}

static size_t text_field(const char *p, size_t n, char *out)
{
    put32(out, (uint32_t)n);
    memcpy(out + 4, p, n);
    return 4 + n;
}

/* The value in the text a text COPY would have carried. */
static size_t as_text(const dg_value *v, char *buf, size_t len)
{
    switch (v->type) {
    case DG_V_INT: return (size_t)snprintf(buf, len, "%lld", (long long)v->u.i);
    case DG_V_DOUBLE: return (size_t)snprintf(buf, len, "%.17g", v->u.d);
    case DG_V_NUMERIC: return dg_format_numeric(v->u.n.unscaled, v->u.n.scale, buf);
    default: return 0;
    }
}

size_t dg_pgcopy_field(dg_pgcopy_kind k, const dg_value *v, char *out, char *why, size_t whylen)
{
    if (v->type == DG_V_NULL) {
        put32(out, UINT32_MAX); /* -1 */
        return 4;
    }
    char num[64];
    size_t n = 0;
    switch (k) {
    case DG_PGC_TEXT:
        if (v->type == DG_V_TEXT)
            return text_field(v->u.s.ptr, v->u.s.len, out);
        n = as_text(v, num, sizeof num);
        return text_field(num, n, out);
    case DG_PGC_INT2:
    case DG_PGC_INT4:
    case DG_PGC_INT8: {
        int64_t x;
        bool ok;
        if (v->type == DG_V_INT) {
            x = v->u.i;
            ok = true;
        } else if (v->type == DG_V_TEXT) {
            ok = text_int(v, &x);
        } else if (v->type == DG_V_NUMERIC) {
            x = v->u.n.unscaled;
            ok = v->u.n.scale == 0;
        } else { /* a double that prints as an integer */
            n = as_text(v, num, sizeof num);
            dg_value t = dg_vtext(num, n);
            ok = text_int(&t, &x);
        }
        n = ok ? int_field(k, x, out) : 0;
        break;
    }
    case DG_PGC_FLOAT4:
    case DG_PGC_FLOAT8: {
        double x;
        bool ok = true;
        if (v->type == DG_V_DOUBLE) {
            x = v->u.d;
        } else if (v->type == DG_V_INT) {
            x = (double)v->u.i;
        } else if (v->type == DG_V_TEXT) {
            const char *p;
            size_t len;
            trimmed(v, &p, &len);
            ok = text_double(p, len, &x);
        } else {
            n = as_text(v, num, sizeof num);
            ok = text_double(num, n, &x);
        }
        n = ok ? float_field(k, x, out) : 0;
        break;
    }
    case DG_PGC_NUMERIC:
        if (v->type == DG_V_NUMERIC) {
            n = numeric_int(v->u.n.unscaled, v->u.n.scale, out);
        } else if (v->type == DG_V_INT) {
            n = numeric_int(v->u.i, 0, out);
        } else if (v->type == DG_V_TEXT) {
            const char *p;
            size_t len;
            trimmed(v, &p, &len);
            if (!numeric_text(p, len, out, &n))
                n = 0;
        } else {
            size_t len = as_text(v, num, sizeof num);
            if (!numeric_text(num, len, out, &n))
                n = 0; /* nan, inf */
        }
        break;
    case DG_PGC_BOOL: {
        int b = -1;
        if (v->type == DG_V_INT && (v->u.i == 0 || v->u.i == 1)) {
            b = (int)v->u.i;
        } else if (v->type == DG_V_TEXT) {
            const char *p;
            size_t len;
            trimmed(v, &p, &len);
            static const char *const yes[] = {"t", "true", "y", "yes", "on", "1"};
            static const char *const no[] = {"f", "false", "n", "no", "off", "0"};
            for (size_t i = 0; i < sizeof yes / sizeof yes[0] && b < 0; i++) {
                if (strlen(yes[i]) == len && !strncasecmp(p, yes[i], len))
                    b = 1;
                else if (strlen(no[i]) == len && !strncasecmp(p, no[i], len))
                    b = 0;
            }
        }
        if (b >= 0) {
            put32(out, 1);
            out[4] = (char)b;
            n = 5;
        }
        break;
    }
    case DG_PGC_DATE:
    case DG_PGC_TIMESTAMP: {
        int64_t x;
        const char *p;
        size_t len;
        if (v->type != DG_V_TEXT)
            break;
        trimmed(v, &p, &len);
        if (!parse_stamp(p, len, k == DG_PGC_DATE, &x))
            break;
        if (k == DG_PGC_DATE) {
            put32(out, 4);
            put32(out + 4, (uint32_t)(int32_t)x);
            n = 8;
        } else {
            put32(out, 8);
            put64(out + 4, (uint64_t)x);
            n = 12;
        }
        break;
    }
    case DG_PGC_UNSUPPORTED: break;
    }
    return n ? n : refuse(k, v, why, whylen);
}
