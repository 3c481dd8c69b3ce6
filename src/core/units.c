/* units.c - duration, size and number parsing with unit suffixes. */
#include "core/units.h"

#include "core/clock.h"
#include "core/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Splits "1.5ms" into 1.5 and "ms"; rejects empty numbers, signs and NaN/inf. */
static int split_number(const char *s, double *num, const char **suffix)
{
    if (!s || !*s || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
        return DG_E_INVAL;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return DG_E_INVAL;
    while (*end == ' ')
        end++;
    *num = v;
    *suffix = end;
    return 0;
}

int dg_parse_duration(const char *s, int64_t default_unit_ns, int64_t *out_ns)
{
    double v;
    const char *u;
    if (split_number(s, &v, &u))
        return DG_E_INVAL;
    double mult;
    if (!*u)
        mult = (double)default_unit_ns;
    else if (!strcasecmp(u, "ns"))
        mult = 1;
    else if (!strcasecmp(u, "us") || !strcmp(u, "µs"))
        mult = DG_NS_PER_US;
    else if (!strcasecmp(u, "ms"))
        mult = DG_NS_PER_MS;
    else if (!strcasecmp(u, "s") || !strcasecmp(u, "sec"))
        mult = DG_NS_PER_S;
    else if (!strcasecmp(u, "m") || !strcasecmp(u, "min"))
        mult = 60.0 * DG_NS_PER_S;
    else if (!strcasecmp(u, "h"))
        mult = 3600.0 * DG_NS_PER_S;
    else if (!strcasecmp(u, "d"))
        mult = 86400.0 * DG_NS_PER_S;
    else
        return DG_E_INVAL;
    double ns = v * mult;
    if (ns > 9.0e18)
        return DG_E_INVAL;
    *out_ns = (int64_t)llround(ns);
    return 0;
}

int dg_parse_size(const char *s, uint64_t *out_bytes)
{
    double v;
    const char *u;
    if (split_number(s, &v, &u))
        return DG_E_INVAL;
    static const struct {
        const char *name;
        double mult;
    } units[] = {
        {"", 1},           {"b", 1},          {"k", 1e3},        {"kb", 1e3},
        {"kib", 1024.0},   {"m", 1e6},        {"mb", 1e6},       {"mib", 1048576.0},
        {"g", 1e9},        {"gb", 1e9},       {"gib", 1073741824.0},
        {"t", 1e12},       {"tb", 1e12},      {"tib", 1099511627776.0},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (!strcasecmp(u, units[i].name)) {
            double b = v * units[i].mult;
            if (b > 1.8e19)
                return DG_E_INVAL;
            *out_bytes = (uint64_t)llround(b);
            return 0;
        }
    }
    return DG_E_INVAL;
}

int dg_parse_count(const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (!s || !*s || !(isdigit((unsigned char)*s)) || strpbrk(s, "eExXpP"))
        return DG_E_INVAL;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s)
        return DG_E_INVAL;
    double mult = 1;
    if (*end) {
        switch (*end) {
        case 'k': case 'K': mult = 1e3; break;
        case 'm': case 'M': mult = 1e6; break;
        case 'g': case 'G': mult = 1e9; break;
        default: return DG_E_INVAL;
        }
        if (end[1])
            return DG_E_INVAL;
    }
    double x = v * mult;
    if (x != x || x < (double)min || x > (double)max || x != (double)(int64_t)x)
        return DG_E_INVAL;
    *out = (int64_t)x;
    return 0;
}

int dg_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (!s || !*s)
        return DG_E_INVAL;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return DG_E_INVAL;
    *out = v;
    return 0;
}

int dg_parse_double(const char *s, double min_exclusive, double *out)
{
    /* decimal only: strtod would also take " 5", hex ("0x10") and "infinity" */
    if (!s || !*s || s[strspn(s, "0123456789.eE+-")])
        return DG_E_INVAL;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || !(v > min_exclusive))
        return DG_E_INVAL;
    *out = v;
    return 0;
}

void dg_format_duration(int64_t ns, char *buf, size_t len)
{
    double s = (double)ns / DG_NS_PER_S;
    if (ns < DG_NS_PER_MS)
        snprintf(buf, len, "%.0f us", (double)ns / DG_NS_PER_US);
    else if (ns < DG_NS_PER_S)
        snprintf(buf, len, "%.0f ms", (double)ns / DG_NS_PER_MS);
    else if (s < 120)
        snprintf(buf, len, "%.3g s", s);
    else if (s < 7200)
        snprintf(buf, len, "%d min %d s", (int)(s / 60), (int)fmod(s, 60));
    else
        snprintf(buf, len, "%d h %d min", (int)(s / 3600), (int)fmod(s / 60, 60));
}

void dg_format_size(uint64_t bytes, char *buf, size_t len)
{
    double b = (double)bytes;
    if (b < 1e3)
        snprintf(buf, len, "%.0f B", b);
    else if (b < 1e6)
        snprintf(buf, len, "%.1f kB", b / 1e3);
    else if (b < 1e9)
        snprintf(buf, len, "%.1f MB", b / 1e6);
    else if (b < 1e12)
        snprintf(buf, len, "%.2f GB", b / 1e9);
    else
        snprintf(buf, len, "%.2f TB", b / 1e12);
}
